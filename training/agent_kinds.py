"""Trained-model agents, and :func:`make_agent` for every kind of agent.

The agent interface and the baseline agents (:class:`RandomAgent`, :class:`GreedyAgent` with the
per-game :data:`HEURISTICS`, :class:`MCTSAgent`) live in :mod:`boardgames.envs.agents`; they are re-exported here.
This module adds the agents of trained models:

* :class:`PolicyAgent`: an SB3 policy object acting on the observation with the legal-action mask.
* :class:`ModelAgent`: a saved model (MaskablePPO ``.zip`` by default) loaded from disk.

:func:`make_agent` builds one from a short spec: ``random``, ``greedy``, ``mcts``, ``mcts:400``
(simulations), the path of a saved model (a ``.zip`` or a ``models/<name>/`` folder) or
``sample:<path>``.

The shipped models are found by name: ``models/dorix_2p`` (or just ``dorix_2p``) is always the shipped
one in :data:`SHIPPED_MODELS` (the repository's ``models/`` in a checkout; the same folder installed beside
``training/`` in site-packages by ``pip install`` of the wheel), never a folder of that name in the working
directory; ``./models/dorix_2p`` (or any other path) names a file or folder on disk. See
:mod:`boardgames.training.storage.shipped` for the rule.

Loading reads weights and plain data only, never unpickling (:mod:`boardgames.training.storage.safe_load`): a model file
that would need unpickling is refused with a :class:`ModelFileError` saying why.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np

from boardgames.envs.agents import (
    HEURISTICS,
    Agent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    make_baseline_agent,
    parse_baseline_spec,
)
from boardgames.envs.core.game import Game, State
from boardgames.training.storage.model_version import check_model_version
from boardgames.training.storage.safe_load import ModelFileError
from boardgames.training.storage.shipped import SHIPPED_MODELS, shipped_folder, shipped_models

__all__ = [
    "HEURISTICS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "ModelAgent",
    "PolicyAgent",
    "RandomAgent",
    "SHIPPED_MODELS",
    "ModelFileError",
    "load_model",
    "make_agent",
    "model_path",
    "shipped_models",
]


# ----- trained models ------------------------------------------------------------------------------


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

    def _legal_probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's action probabilities with the illegal actions set to 0 (not renormalised); a
        draw from them uses the agent's own generator, so seeded matches are reproducible."""
        import torch

        obs_t, _ = self.policy.obs_to_tensor(obs)
        with torch.no_grad():
            if self.masked:
                dist = self.policy.get_distribution(obs_t, action_masks=mask)
            else:
                dist = self.policy.get_distribution(obs_t)
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        return np.where(mask, probs, 0.0)


def find_model(spec: str | Path) -> Path | None:
    """The file or folder a model spec names (see the module docstring), or None: the shipped folder for
    a shipped model's name, else the path when it (or it with ``.zip``) exists."""
    shipped = shipped_folder(spec)
    if shipped is not None:
        return shipped
    p = Path(spec)
    return p if p.exists() or p.with_suffix(".zip").exists() else None


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
    :data:`boardgames.training.sb3.algorithms.ALGORITHMS` that can load it (MaskablePPO first), without unpickling
    anything (:func:`boardgames.training.storage.safe_load.load_sb3`). A file that is not a model of this project, or
    that
    only unpickling could read, raises :class:`ModelFileError` saying so."""
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
    import json

    for folder in (path.parent, path.parent.parent):
        for name in ("meta.json", "run.json"):
            file = folder / name
            if file.is_file():
                try:
                    data = json.loads(file.read_text())
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


def make_agent(spec, game: Game | None = None, seed: int | None = None) -> Agent:
    """An agent from a spec: ``random``, ``greedy``, ``mcts`` / ``mcts:<simulations>``, a model path,
    ``sample:<model path>`` (the model sampling its policy), ``rllib:<path>`` (a policy exported by
    ``boardgames.training.rllib.train``), an AlphaZero model folder (``models/dorix_2p_az``, optionally
    ``@<simulations>``, see :mod:`boardgames.training.alphazero.agent`), or an Agent (returned as is)."""
    if isinstance(spec, Agent):
        return spec
    if callable(spec) and not isinstance(spec, (str, Path)):
        return spec
    text = str(spec)
    if parse_baseline_spec(text) is not None:
        return make_baseline_agent(text, game, seed)
    kind, _, arg = text.partition(":")
    if kind == "sample" and arg:  # a saved model sampling its policy instead of taking the arg-max
        agent = make_agent(arg, game, seed)
        agent.deterministic = False
        agent.name += "-sampled"
        return agent
    from boardgames.training.alphazero.agent import load_agent, parse_spec

    if parse_spec(text) is not None:  # an AlphaZero network folder, optionally @<simulations>
        return load_agent(text, game, seed)
    if kind == "rllib" and arg:  # a policy exported by boardgames rllib (plain torch, no ray)
        from boardgames.training.rllib.policy_file import RLlibPolicyAgent

        return RLlibPolicyAgent(arg, game, seed=seed)
    if find_model(text) is not None:
        agent = ModelAgent(text, seed=seed)
        if game is not None:
            shape = tuple(agent.policy.observation_space.shape)
            if shape != tuple(game.info.observation_shape):
                raise ValueError(
                    f"model {text} expects observations {shape}, the game gives "
                    f"{tuple(game.info.observation_shape)} (wrong game or player count?)"
                )
            meta = model_metadata(agent.path)
            if meta.get("game") == game.info.name:
                check_model_version(meta, game, text)
        return agent
    raise ValueError(
        f"unknown agent {text!r}: use random, greedy, mcts[:N], a saved model's path, a shipped "
        f"model's name ({', '.join(f'models/{n}' for n in shipped_models()) or 'none found'}), "
        f"rllib:<policy file or run folder> or sample:<path>"
    )
