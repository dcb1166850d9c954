"""Every kind of agent the commands and the library accept, registered in one place, and :func:`make_agent`,
which builds one from a short spec.

The kinds (:data:`AGENT_KINDS`), tried in this order, the first that recognises a spec building it:

* ``baseline``: ``random``, ``greedy``, ``mcts`` / ``mcts:<simulations>``, ``pymcts`` / ``pymcts:<simulations>``,
  ``smmcts`` / ``pysmmcts`` (simultaneous games: ``smmcts:<simulations>[:exp3][:heuristic][:max][:g<gamma>]``)
  (:mod:`boardgames.envs.agents`);
* ``sample``: ``sample:<spec>``, the model ``<spec>`` drawing its moves from its policy instead of the arg-max;
* ``alphazero``: a folder holding an AlphaZero network (``models/dorix_2p_az``, a run's ``latest/``),
  optionally ``@<simulations>`` (:mod:`boardgames.training.alphazero.agent`);
* ``rllib``: ``rllib:<policy file or run folder>``, a policy exported by ``boardgames rllib``
  (:mod:`boardgames.training.rllib.policy_file`);
* ``sb3``: a saved Stable-Baselines3 model, a ``.zip`` or a folder holding one
  (:mod:`boardgames.training.sb3.agent`).

A kind imports its family only when a spec of that kind is recognised or built, so importing this module
loads neither torch nor any training family. A spec that no kind recognises raises one ValueError listing
the kinds.

The shipped models are found by name: ``models/dorix_2p`` (or just ``dorix_2p``) is always the shipped one in
:data:`SHIPPED_MODELS`, never a folder of that name in the working directory; ``./models/dorix_2p`` (or any
other path) names a file or folder on disk (:mod:`boardgames.training.storage.shipped`). Loading reads weights
and plain data only, never unpickling (:mod:`boardgames.training.storage.safe_load`): a model file that would
need unpickling is refused with a :class:`ModelFileError` saying why.

The baseline agents are re-exported here, and so are the SB3 agents (:class:`PolicyAgent`,
:class:`ModelAgent`, :func:`load_model`, :func:`model_path`, :func:`model_metadata`), the latter loaded on
first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from boardgames.envs.agents import (
    Agent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    make_baseline_agent,
    parse_baseline_spec,
)
from boardgames.envs.core.game import Game
from boardgames.envs.registry import HEURISTICS
from boardgames.training.storage.safe_load import ModelFileError
from boardgames.training.storage.shipped import SHIPPED_MODELS, find_model, shipped_models

if TYPE_CHECKING:  # loaded on first use by __getattr__ below
    from boardgames.training.sb3.agent import ModelAgent, PolicyAgent, load_model, model_metadata, model_path

__all__ = [
    "AGENT_KINDS",
    "HEURISTICS",
    "Agent",
    "AgentKind",
    "GreedyAgent",
    "MCTSAgent",
    "ModelAgent",
    "ModelFileError",
    "PolicyAgent",
    "RandomAgent",
    "SHIPPED_MODELS",
    "agent_kind_of",
    "find_model",
    "load_model",
    "make_agent",
    "model_metadata",
    "model_path",
    "register_agent_kind",
    "shipped_models",
]


# ----- the registry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent: how its specs are written (for messages), whether a spec is one of its own, and
    how to build the agent of such a spec for a game (or for the game the model records, when None)."""

    name: str
    written: str
    recognises: Callable[[str], bool]
    build: Callable[[str, Game | None, int | None], Agent]


AGENT_KINDS: dict[str, AgentKind] = {}
"""The registered kinds by name, in the order :func:`make_agent` tries them."""


def register_agent_kind(
    name: str,
    written: str,
    recognises: Callable[[str], bool],
    build: Callable[[str, Game | None, int | None], Agent],
) -> AgentKind:
    """Register a kind of agent after the ones already registered; ValueError when ``name`` is taken."""
    if name in AGENT_KINDS:
        raise ValueError(f"agent kind {name!r} is already registered")
    kind = AgentKind(name, written, recognises, build)
    AGENT_KINDS[name] = kind
    return kind


def agent_kind_of(spec: str) -> AgentKind | None:
    """The first registered kind that recognises ``spec``, or None. ValueError for a spec of a kind with
    a bad argument (``mcts:0``, ``models/dorix_2p_az@0``)."""
    text = str(spec)
    return next((kind for kind in AGENT_KINDS.values() if kind.recognises(text)), None)


def make_agent(spec, game: Game | None = None, seed: int | None = None) -> Agent:
    """The agent of ``spec``: a spec of a registered kind (see the module docstring), built for ``game`` and
    seeded with ``seed``; an :class:`Agent` or any other callable policy is returned as is."""
    if isinstance(spec, Agent) or (callable(spec) and not isinstance(spec, (str, Path))):
        return spec
    text = str(spec)
    kind = agent_kind_of(text)
    if kind is None:
        raise ValueError(unknown_agent_message(text))
    return kind.build(text, game, seed)


def unknown_agent_message(text: str) -> str:
    """What :func:`make_agent` says of a spec no kind recognises: every registered kind and the shipped
    models."""
    kinds = "; ".join(f"{kind.written} ({kind.name})" for kind in AGENT_KINDS.values())
    shipped = ", ".join(f"models/{name}" for name in shipped_models()) or "none found"
    return f"unknown agent {text!r}: use {kinds}; shipped models, loadable by name: {shipped}"


# ----- the kinds ------------------------------------------------------------------------------------


def _prefixed(prefix: str) -> Callable[[str], bool]:
    """Whether a spec is ``<prefix>:<something>``."""
    return lambda text: text.startswith(prefix + ":") and len(text) > len(prefix) + 1


def _build_sampled(text: str, game: Game | None, seed: int | None) -> Agent:
    agent = make_agent(text.partition(":")[2], game, seed)
    agent.deterministic = False
    agent.name += "-sampled"
    return agent


def _is_alphazero(text: str) -> bool:
    from boardgames.training.alphazero.agent import parse_spec

    return parse_spec(text) is not None


def _build_alphazero(text: str, game: Game | None, seed: int | None) -> Agent:
    from boardgames.training.alphazero.agent import load_agent

    return load_agent(text, game, seed)


def _build_rllib(text: str, game: Game | None, seed: int | None) -> Agent:
    from boardgames.training.rllib.policy_file import RLlibPolicyAgent

    return RLlibPolicyAgent(text.partition(":")[2], game, seed=seed)


def _build_sb3(text: str, game: Game | None, seed: int | None) -> Agent:
    from boardgames.training.sb3.agent import load_agent

    return load_agent(text, game, seed)


register_agent_kind(
    "baseline", "random, greedy, mcts[:N], pymcts[:N], smmcts[:N[:options]], pysmmcts[:N[:options]]",
    lambda text: parse_baseline_spec(text) is not None, make_baseline_agent,
)  # fmt: skip
register_agent_kind("sample", "sample:<model>", _prefixed("sample"), _build_sampled)
register_agent_kind("alphazero", "an AlphaZero model folder[@N]", _is_alphazero, _build_alphazero)
register_agent_kind("rllib", "rllib:<policy file or run folder>", _prefixed("rllib"), _build_rllib)
register_agent_kind(
    "sb3", "a saved model's path (.zip or folder)", lambda text: find_model(text) is not None, _build_sb3
)


# ----- the SB3 agents, loaded on first use ---------------------------------------------------------

_SB3_NAMES = ("PolicyAgent", "ModelAgent", "load_model", "model_metadata", "model_path")


def __getattr__(name: str):
    if name in _SB3_NAMES:
        from boardgames.training.sb3 import agent

        return getattr(agent, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
