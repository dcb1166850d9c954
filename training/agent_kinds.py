"""Every kind of agent the commands and the library accept, registered in one place, and :func:`make_agent`,
which builds one from a short spec.

The kinds (:data:`AGENT_KINDS`), tried in this order, the first that recognises a spec building it:

* ``baseline``: ``random``, ``greedy``, ``mcts`` / ``mcts:<simulations>``, ``pymcts`` / ``pymcts:<simulations>``,
  ``smmcts`` / ``pysmmcts`` (simultaneous games:
  ``smmcts:<simulations>[:exp3][:heuristic][:max][:g<gamma>][:t<temperature>]``) (:mod:`boardgames.envs.agents`);
* ``sample``: ``sample:<spec>``, the model ``<spec>`` drawing its moves from its policy instead of the arg-max;
* ``alphazero``: a folder holding an AlphaZero network (``models/dorix_2p_az``, a run's ``latest/``),
  optionally ``@<simulations>`` (:mod:`boardgames.training.alphazero.agent`);
* ``rllib``: ``rllib:<policy file or run folder>``, a policy exported by ``boardgames rllib``
  (:mod:`boardgames.training.rllib.policy_file`, its ``load_agent``);
* ``sb3``: a saved Stable-Baselines3 model, a ``.zip`` or a folder holding one
  (:mod:`boardgames.training.sb3.agent`).

The families are plug-ins, registered by name as the games are (:mod:`boardgames.envs.registry`): a kind
names its family's functions as ``"module:function"`` texts (:data:`FAMILY_AGENTS`), imported by name
(``importlib``) when a spec of that kind is recognised or built, never by an import statement. So this hub
imports no family (``tests/training/test_training_layout.py`` checks it), importing it loads neither torch nor
any training family, and evaluation, which takes its agents from here, depends on no family either. A spec
that no kind recognises raises one ValueError listing the kinds.

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

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

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

__all__ = [
    "AGENT_KINDS",
    "HEURISTICS",
    "Agent",
    "AgentKind",
    "GreedyAgent",
    "MCTSAgent",
    "ModelFileError",
    "RandomAgent",
    "SHIPPED_MODELS",
    "agent_kind_of",
    "find_model",
    "make_agent",
    "register_agent_kind",
    "shipped_models",
]
# and, from the SB3 family's agent module on first use (module __getattr__ below): PolicyAgent, ModelAgent,
# load_model, model_metadata, model_path


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
    cast(Any, agent).deterministic = False  # a model's agent (SB3, AlphaZero): it draws its moves
    agent.name += "-sampled"
    return agent


class _ByName:
    """The function ``reference`` (``"module:function"``) names, called through: see :func:`by_name`."""

    def __init__(self, reference: str, module: str, name: str):
        self.reference, self._module, self._name = reference, module, name

    def __call__(self, *args):
        return getattr(importlib.import_module(self._module), self._name)(*args)


def by_name(reference: str) -> _ByName:
    """The function ``"module:function"`` names, imported by name on its first call (as the game registry
    imports an environment module), so that registering a family's kind imports nothing of the family."""
    module, colon, name = reference.partition(":")
    if not colon or not module or not name:
        raise ValueError(f"a family's function is named 'module:function', got {reference!r}")
    return _ByName(reference, module, name)


def _parsed_by(reference: str) -> Callable[[str], bool]:
    """Whether the parser ``module:function`` names makes something of a spec (not None)."""
    parse = by_name(reference)
    return lambda text: parse(text) is not None


FAMILY_AGENTS = {
    "alphazero": "boardgames.training.alphazero.agent",
    "rllib": "boardgames.training.rllib.policy_file",
    "sb3": "boardgames.training.sb3.agent",
}
"""Each family's agent module, by the name of its kind: where its ``load_agent(spec, game, seed)`` is (and,
for AlphaZero, ``parse_spec``), imported by name when a spec of the kind is met."""

register_agent_kind(
    "baseline", "random, greedy, mcts[:N], pymcts[:N], smmcts[:N[:options]], pysmmcts[:N[:options]]",
    lambda text: parse_baseline_spec(text) is not None, make_baseline_agent,
)  # fmt: skip
register_agent_kind("sample", "sample:<model>", _prefixed("sample"), _build_sampled)
register_agent_kind(
    "alphazero",
    "an AlphaZero model folder[@N]",
    _parsed_by(f"{FAMILY_AGENTS['alphazero']}:parse_spec"),
    by_name(f"{FAMILY_AGENTS['alphazero']}:load_agent"),
)
register_agent_kind(
    "rllib", "rllib:<policy file or run folder>", _prefixed("rllib"), by_name(f"{FAMILY_AGENTS['rllib']}:load_agent")
)
register_agent_kind(
    "sb3",
    "a saved model's path (.zip or folder)",
    lambda text: find_model(text) is not None,
    by_name(f"{FAMILY_AGENTS['sb3']}:load_agent"),
)


# ----- the SB3 agents, loaded on first use ---------------------------------------------------------

_SB3_NAMES = ("PolicyAgent", "ModelAgent", "load_model", "model_metadata", "model_path")


def __getattr__(name: str):
    if name in _SB3_NAMES:  # the SB3 family's agent module, imported by name as its kind is
        return getattr(importlib.import_module(FAMILY_AGENTS["sb3"]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
