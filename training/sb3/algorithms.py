"""The learning algorithms ``boardgames train`` can run, behind one small interface.

An :class:`Algorithm` knows how to build a fresh model on a vectorized environment from a settings
dict, load a saved one, and whether it uses action masks. MaskablePPO (sb3-contrib) is the default;
plain PPO is registered too to show how another Stable-Baselines3 algorithm plugs in (it does not see
the masks, so :class:`~boardgames.training.sb3.agent.PolicyAgent` replaces its illegal choices by a random legal
action). To add another library, subclass :class:`Algorithm` and add it to :data:`ALGORITHMS`: the
trainer only calls ``build``, ``load``, ``used_settings``, ``model.learn(...)`` and ``model.save(...)``.

Resuming (``load(path, env, settings)``): the hyperparameters given in ``settings`` (learning rate,
``n_steps``, ``ent_coef``...) replace the checkpoint's; the network (:data:`NETWORK_SETTINGS`) is the
checkpoint's, and asking for another one is a :class:`~boardgames.training.settings.SettingError`, since its weights
would not fit.

Loading (a model to play, a checkpoint to resume) reads weights and plain data only
(:func:`boardgames.training.storage.safe_load.load_sb3`): a file that only unpickling could read is refused with a
:class:`~boardgames.training.storage.safe_load.ModelFileError` saying why.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from boardgames.training.settings import SettingError

NETWORK_SETTINGS = ("network", "net_arch", "conv_channels", "conv_dilations", "head")
"""The ``[algo]`` keys that shape the network: fixed once a model is built."""


class Algorithm:
    """How to build and load the models of one algorithm."""

    name = "algorithm"
    uses_masks = False

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        raise NotImplementedError

    def load(self, path: str | Path, env=None, settings: dict | None = None):
        """The saved model at ``path`` (on ``env`` when given), with the hyperparameters of ``settings``
        (an ``[algo]`` section) replacing the saved ones; never unpickling anything from the file."""
        raise NotImplementedError

    def used_settings(self, model, settings: dict) -> dict:
        """``settings`` (an ``[algo]`` section) with the values ``model`` really uses (what a run records)."""
        return dict(settings)


def _policy_kwargs(settings: dict) -> dict:
    net = settings.pop("net_arch", [128, 128])
    return {"net_arch": list(net)}


def _new_model(cls, policy, env, seed: int, tensorboard_log: str | None, policy_kwargs: dict, settings: dict):
    """A new model of the SB3 class ``cls``: quiet, on the CPU, with the run's seed, log folder and settings."""
    return cls(
        policy,
        env,
        seed=seed,
        tensorboard_log=tensorboard_log,
        verbose=0,
        policy_kwargs=policy_kwargs,
        device="cpu",
        **settings,
    )


def network_of(model) -> dict:
    """The network settings (:data:`NETWORK_SETTINGS`) a built or loaded model has."""
    kwargs = getattr(model, "policy_kwargs", None) or {}
    if "features_extractor_kwargs" in kwargs and "head" in kwargs:  # boardgames.training.sb3.networks.BoardPolicy
        extractor = kwargs["features_extractor_kwargs"]
        return {
            "network": "conv",
            "conv_channels": int(extractor["channels"]),
            "conv_dilations": [int(d) for d in extractor["dilations"]],
            "head": kwargs["head"],
        }
    return {"network": "mlp", "net_arch": list(kwargs.get("net_arch", []))}


def _same(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return a == b


class _SB3Algorithm(Algorithm):
    """Loading and recording shared by the Stable-Baselines3 algorithms (``model_class`` names the class)."""

    def model_class(self):
        raise NotImplementedError

    def check_keys(self, settings: dict) -> None:
        """SettingError for an ``[algo]`` key that is neither a network setting nor an argument of the class."""
        cls = self.model_class()
        known = set(inspect.signature(cls.__init__).parameters) - {"self", "policy", "env"}
        unknown = sorted(k for k in settings if k not in known and k not in NETWORK_SETTINGS)
        if unknown:
            raise SettingError(
                f"algo.{unknown[0]} is not a setting of {cls.__name__} (network settings: "
                f"{', '.join(NETWORK_SETTINGS)}; or an argument of {cls.__name__}())"
            )

    def load(self, path: str | Path, env=None, settings: dict | None = None):
        settings = dict(settings or {})
        self.check_keys(settings)
        hyper = {k: v for k, v in settings.items() if k not in NETWORK_SETTINGS}
        for key in ("policy_kwargs", "seed", "device", "tensorboard_log", "verbose"):
            if key in hyper:
                raise SettingError(f"algo.{key} cannot be changed when a saved model is loaded")
        from boardgames.training.storage.safe_load import load_sb3

        model = load_sb3(self.model_class(), path, env=env, device="cpu", **hyper)  # never unpickles
        network = network_of(model)
        for key, value in settings.items():
            if key in NETWORK_SETTINGS and key in network and not _same(value, network[key]):
                raise SettingError(
                    f"algo.{key}={value!r} cannot apply to {path}: its network has {key}="
                    f"{network[key]!r} (the weights would not fit); start a new run to change it"
                )
        if settings.get("network", network["network"]) != network["network"]:
            raise SettingError(
                f"algo.network={settings['network']!r} cannot apply to {path}: it is a "
                f"{network['network']!r} network; start a new run to change it"
            )
        return model

    def used_settings(self, model, settings: dict) -> dict:
        out = {k: v for k, v in settings.items() if k not in NETWORK_SETTINGS}
        for key in out:
            value = model.__dict__.get(key)
            if isinstance(value, (bool, int, float, str)):  # schedules and objects: the setting as given
                out[key] = value
        return {**network_of(model), **out}


class MaskablePPOAlgorithm(_SB3Algorithm):
    """sb3-contrib MaskablePPO with an MLP over the flattened observation."""

    name = "maskable_ppo"
    uses_masks = True

    def model_class(self):
        from sb3_contrib import MaskablePPO

        return MaskablePPO

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        from sb3_contrib import MaskablePPO

        settings = dict(settings)
        self.check_keys(settings)
        network = settings.pop("network", "mlp")
        conv = {k: settings.pop(k) for k in ("conv_channels", "conv_dilations", "head") if k in settings}
        policy_kwargs = _policy_kwargs(settings)
        policy: str | type = "MlpPolicy"
        if network == "conv":  # boardgames.training.sb3.networks.BoardPolicy: convolutions over the board
            from boardgames.training.sb3.networks import BoardPolicy

            policy = BoardPolicy
            policy_kwargs = {
                "net_arch": [],
                "head": conv.get("head", "square"),
                "features_extractor_kwargs": {
                    "channels": int(conv.get("conv_channels", 32)),
                    "dilations": tuple(conv.get("conv_dilations", (1, 2, 4, 2, 1))),
                },
            }
        elif network != "mlp":
            raise SettingError(f"algo.network is 'mlp' or 'conv', got {network!r}")
        return _new_model(MaskablePPO, policy, env, seed, tensorboard_log, policy_kwargs, settings)


class PPOAlgorithm(_SB3Algorithm):
    """Stable-Baselines3 PPO without masks (for comparison / as a plug-in example)."""

    name = "ppo"

    def model_class(self):
        from stable_baselines3 import PPO

        return PPO

    def build(self, env, settings: dict, seed: int, tensorboard_log: str | None):
        from stable_baselines3 import PPO

        settings = dict(settings)
        self.check_keys(settings)
        if settings.pop("network", "mlp") != "mlp":
            raise SettingError("algo.network = 'conv' is implemented for maskable_ppo only")
        policy_kwargs = _policy_kwargs(settings)
        return _new_model(PPO, "MlpPolicy", env, seed, tensorboard_log, policy_kwargs, settings)


ALGORITHMS: dict[str, Algorithm] = {a.name: a for a in (MaskablePPOAlgorithm(), PPOAlgorithm())}


def get_algorithm(name: str) -> Algorithm:
    if name not in ALGORITHMS:
        raise SettingError(f"unknown algorithm {name!r}; known: {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]
