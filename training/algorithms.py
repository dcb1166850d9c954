"""The learning algorithms ``python -m training.train`` can run, behind one small interface.

An :class:`Algorithm` knows how to build a fresh model on a vectorized environment from a settings
dict, load a saved one, and whether it uses action masks. MaskablePPO (sb3-contrib) is the default;
plain PPO is registered too to show how another Stable-Baselines3 algorithm plugs in (it does not see
the masks, so :class:`~training.agents.PolicyAgent` replaces its illegal choices by a random legal
action). To add another library, subclass :class:`Algorithm` and add it to :data:`ALGORITHMS`: the
trainer only calls ``build``, ``load``, ``model.learn(...)`` and ``model.save(...)``.
"""

from __future__ import annotations

from pathlib import Path


class Algorithm:
    """How to build and load the models of one algorithm."""

    name = "algorithm"
    uses_masks = False

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        raise NotImplementedError

    def load(self, path: str | Path, env=None):
        raise NotImplementedError


def _policy_kwargs(settings: dict) -> dict:
    net = settings.pop("net_arch", [128, 128])
    return {"net_arch": list(net)}


class MaskablePPOAlgorithm(Algorithm):
    """sb3-contrib MaskablePPO with an MLP over the flattened observation."""

    name = "maskable_ppo"
    uses_masks = True

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        from sb3_contrib import MaskablePPO

        settings = dict(settings)
        network = settings.pop("network", "mlp")
        conv = {k: settings.pop(k) for k in ("conv_channels", "conv_dilations", "head") if k in settings}
        policy_kwargs = _policy_kwargs(settings)
        policy = "MlpPolicy"
        if network == "conv":  # training.networks.BoardPolicy: convolutions over the board
            from training.networks import BoardPolicy

            policy = BoardPolicy
            policy_kwargs = {"net_arch": [], "head": conv.get("head", "square"), "features_extractor_kwargs": {
                "channels": int(conv.get("conv_channels", 32)),
                "dilations": tuple(conv.get("conv_dilations", (1, 2, 4, 2, 1)))}}
        elif network != "mlp":
            raise ValueError(f"algo.network is 'mlp' or 'conv', got {network!r}")
        return MaskablePPO(policy, env, seed=seed, tensorboard_log=tensorboard_log, verbose=0,
                           policy_kwargs=policy_kwargs, device="cpu", **settings)

    def load(self, path: str | Path, env=None):
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(str(path), env=env, device="cpu")


class PPOAlgorithm(Algorithm):
    """Stable-Baselines3 PPO without masks (for comparison / as a plug-in example)."""

    name = "ppo"

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        from stable_baselines3 import PPO

        settings = dict(settings)
        if settings.pop("network", "mlp") != "mlp":
            raise ValueError("algo.network = 'conv' is implemented for maskable_ppo only")
        policy_kwargs = _policy_kwargs(settings)
        return PPO("MlpPolicy", env, seed=seed, tensorboard_log=tensorboard_log, verbose=0,
                   policy_kwargs=policy_kwargs, device="cpu", **settings)

    def load(self, path: str | Path, env=None):
        from stable_baselines3 import PPO

        return PPO.load(str(path), env=env, device="cpu")


ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in (MaskablePPOAlgorithm(), PPOAlgorithm())}


def get_algorithm(name: str) -> Algorithm:
    if name not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]
