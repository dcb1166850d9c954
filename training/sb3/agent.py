"""The agents of saved Stable-Baselines3 models: the kind of agent ``make_agent`` builds from a ``.zip`` or a
``models/<name>/`` folder (:mod:`boardgames.training.agent_kinds`), and what the trainer's opponents and
strength measurements play with.

* :class:`PolicyAgent`: an SB3 policy object acting on the observation with the legal-action mask.
* :class:`ModelAgent`: a saved model (MaskablePPO ``.zip`` by default) loaded from disk.
* :func:`load_agent`: the agent of a model spec, checked against the game it is to play.

Models are found by the rule of :mod:`boardgames.training.storage.shipped` (a shipped model's name is always
the shipped one) and read without unpickling anything (:mod:`boardgames.training.storage.safe_load`): a model
file that would need unpickling is refused with a :class:`ModelFileError` saying why.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np

from boardgames.envs.agents import Agent
from boardgames.envs.core.game import Game, State
from boardgames.training.storage.model_version import check_model_version
from boardgames.training.storage.safe_load import ModelFileError, read_model_json
from boardgames.training.storage.shipped import find_model, shipped_models
from boardgames.training.torch_threads import ensure_torch_threads


def draw_rows(weights: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row of the non-negative ``weights`` ``(M, A)`` (each row with some weight), drawn with
    probability proportional to its weight, one uniform number of ``rng`` per row: with bool masks for
    weights, a uniformly random legal action per row."""
    cum = np.cumsum(weights, axis=1, dtype=np.float64)
    u = rng.random(len(cum)) * cum[:, -1]
    return (cum <= u[:, None]).sum(axis=1)  # the first index whose cumulated weight passes u


class PolicyAgent(Agent):
    """Acts with an SB3 policy object: the most probable legal action (``deterministic``) or one drawn
    from the policy's distribution over the legal actions. Works with masked policies (MaskablePPO,
    ``predict(obs, action_masks=...)``) and with policies that do not know the masks (plain PPO...),
    whose probabilities are restricted to the legal actions here."""

    def __init__(self, policy, deterministic: bool = True, name: str = "policy", seed: int | None = None):
        super().__init__(seed)
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self.masked = "action_masks" in inspect.signature(policy.predict).parameters

    def act(self, state: State, seat: int) -> int:
        ensure_torch_threads()  # torch's threads when nobody set them (boardgames.training.torch_threads)
        mask = state.legal_mask(seat)
        obs = state.observation(seat)
        if self.deterministic and self.masked:
            action, _ = self.policy.predict(obs, deterministic=True, action_masks=mask)
            return int(action)
        probs = self._legal_probs(obs, mask)
        if probs.sum() <= 0:
            return int(self.rng.choice(np.flatnonzero(mask)))
        if self.deterministic:
            return int(np.argmax(probs))
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def explain(self, state: State, seat: int) -> dict:
        """``{action: probability}`` of the policy over ``seat``'s legal actions in ``state``
        (renormalised over them): what :meth:`act` chooses from; draws nothing."""
        mask = state.legal_mask(seat)
        probs = self._legal_probs(state.observation(seat), mask)
        total = float(probs.sum())
        return {int(a): float(probs[a]) / total for a in np.flatnonzero(mask)} if total > 0 else {}

    def act_observations(
        self, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator | None = None
    ) -> np.ndarray:
        """The actions of M positions at once, with one pass of the network: ``obs`` ``(M, *shape)`` and bool
        ``masks`` ``(M, A)``, each from the seat to play's point of view. As :meth:`act` chooses: the most
        probable legal action (``deterministic``), or one drawn from the policy's probabilities renormalised
        over the legal actions, with ``rng`` (default: the agent's own generator). What a batch of games
        (:class:`boardgames.training.sb3.selfplay.PoolOpponent`) plays its snapshots and models with."""
        logits = self._logits(obs)
        logits[~masks] = -np.inf
        if self.deterministic:
            return logits.argmax(axis=1)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))  # 0 for the illegal actions
        return draw_rows(weights, self.rng if rng is None else rng)

    def _logits(self, obs: np.ndarray) -> np.ndarray:
        """The actor-critic policy's action logits for M float32 observations, a new float32 ``(M, A)`` array:
        its actor's layers called directly (features, actor MLP, action net), without building SB3's
        distribution object, which costs more than the network at these sizes (docs/performance.md, "The
        trainer")."""
        import torch

        ensure_torch_threads()
        policy = self.policy
        obs_t = torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32))
        with torch.no_grad():
            features = policy.extract_features(obs_t.to(policy.device), policy.pi_features_extractor)
            logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        return logits.cpu().numpy()

    def _legal_probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's action probabilities with the illegal actions set to 0 (not renormalised); a
        draw from them uses the agent's own generator, so seeded matches are reproducible."""
        import torch

        ensure_torch_threads()
        obs_t, _ = self.policy.obs_to_tensor(obs)
        with torch.no_grad():
            if self.masked:
                dist = self.policy.get_distribution(obs_t, action_masks=mask)
            else:
                dist = self.policy.get_distribution(obs_t)
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        return np.where(mask, probs, 0.0)


def model_path(spec: str | Path) -> Path:
    """The ``.zip`` of a saved model given as a file, as a ``models/<name>/`` folder or as a shipped
    model's name."""
    p = find_model(spec) or Path(spec)
    if p.is_dir():
        zips = sorted(p.glob("*.zip"))
        if not zips:
            raise FileNotFoundError(f"no .zip model in {p}")
        return zips[0]
    if not p.exists() and p.with_suffix(".zip").exists():
        return p.with_suffix(".zip")
    if not p.exists():
        shipped = ", ".join(shipped_models()) or "none found"
        raise FileNotFoundError(f"no saved model at {p} (shipped models, loadable by name: {shipped})")
    return p


def load_model(path: Path, algo: str | None = None):
    """The saved model at ``path``, loaded by the algorithm ``algo`` or, when None, by the first of
    :data:`boardgames.training.sb3.algorithms.ALGORITHMS` that can load it (MaskablePPO first), without
    unpickling anything (:func:`boardgames.training.storage.safe_load.load_sb3`). A file that is not a model of
    this project, or that only unpickling could read, raises :class:`ModelFileError` saying so."""
    from boardgames.training.sb3.algorithms import ALGORITHMS, get_algorithm

    path = Path(path)
    not_a_model = (
        f"{path} is not a model of this project (a Stable-Baselines3 .zip saved by boardgames.training.sb3.train)"
    )
    algorithms = {algo: get_algorithm(algo)} if algo is not None else ALGORITHMS
    errors = []
    for name, algorithm in algorithms.items():
        try:
            return algorithm.load(path)
        except ModelFileError:  # the file itself is refused, whichever algorithm reads it
            raise
        except (ValueError, KeyError, TypeError) as e:  # saved by another algorithm
            errors.append(f"{name}: {type(e).__name__}: {e}")
        except (RuntimeError, AssertionError, EOFError, OSError) as e:  # weights that do not fit the network
            raise ModelFileError(f"{not_a_model}: its weights cannot be read ({type(e).__name__})") from None
    raise ModelFileError(f"{not_a_model}: no registered algorithm could load it ({'; '.join(errors)})")


def model_metadata(path: Path) -> dict:
    """The metadata saved with the SB3 model at ``path``: ``meta.json`` (a shipped model) or the ``run.json``
    of its training run, beside it or one folder up (a checkpoint); empty when there is none."""
    for folder in (path.parent, path.parent.parent):
        for name in ("meta.json", "run.json"):
            file = folder / name
            if file.is_file():
                try:
                    data = read_model_json(file)
                except (OSError, ValueError, RecursionError):
                    continue
                if isinstance(data, dict) and "game" in data:
                    return data
    return {}


class ModelAgent(PolicyAgent):
    """A saved model loaded from disk (by ``algo``, or by whichever registered algorithm saved it)."""

    def __init__(
        self,
        path: str | Path,
        algo: str | None = None,
        deterministic: bool = True,
        name: str | None = None,
        seed: int | None = None,
    ):
        self.path = model_path(path)
        model = load_model(self.path, algo)
        super().__init__(model.policy, deterministic=deterministic, name=name or self.path.parent.name, seed=seed)
        self.model = model


def load_agent(spec: str, game: Game | None = None, seed: int | None = None) -> ModelAgent:
    """The agent of the saved model ``spec`` names (a ``.zip``, a folder, a shipped model's name); with
    ``game``, ValueError when the model's observations are not the game's, and the model version checked
    when the model records this game."""
    agent = ModelAgent(spec, seed=seed)
    if game is not None:
        shape = tuple(agent.policy.observation_space.shape)
        if shape != tuple(game.info.observation_shape):
            raise ValueError(
                f"model {spec} expects observations {shape}, the game gives "
                f"{tuple(game.info.observation_shape)} (wrong game or player count?)"
            )
        meta = model_metadata(agent.path)
        if meta.get("game") == game.info.name:
            check_model_version(meta, game, spec)
    return agent
