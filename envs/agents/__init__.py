"""The baseline agents, for every registered game.

An agent chooses an action for ``seat`` in ``state`` (``agent.act(state, seat)``, also
``agent(state, seat)``, so any agent is an opponent policy for
:class:`boardgames.envs.adapters.single_agent.SingleAgentEnv` and a seat of
:func:`boardgames.envs.agents.play.play_game`).
Agents never modify the state they are given.

* :class:`RandomAgent`: uniform over the legal actions.
* :class:`GreedyAgent`: one-move lookahead: plays a winning move when there is one, otherwise the
  move whose resulting position scores best under the game's heuristic (``game.heuristic``, from
  ``envs/<game>/heuristic.py``; games without one: "win if possible, else random"). Every registered
  game's, by name: :data:`boardgames.envs.registry.HEURISTICS`.
* :class:`MCTSAgent`: UCT with random rollouts, a configurable number of simulations; decoupled UCT
  where seats act at once. Compiled (:mod:`boardgames.envs.search`, over the game's numba kernels);
  :class:`PythonMCTSAgent` is the same search in Python on the engine (``clone()`` +
  ``apply_actions``), the reference it is tested against.

:func:`make_baseline_agent` builds one from a short spec: ``random``, ``greedy``, ``mcts`` or
``mcts:<simulations>`` (compiled), ``pymcts`` or ``pymcts:<simulations>`` (Python). The agents of
trained models live in :mod:`boardgames.training.agent_kinds`.
"""

from __future__ import annotations

from boardgames.envs.agents.base import Agent
from boardgames.envs.agents.greedy import GreedyAgent
from boardgames.envs.agents.mcts import MCTSAgent, PythonMCTSAgent
from boardgames.envs.agents.random_agent import RandomAgent
from boardgames.envs.core.game import Game

BASELINES = ("random", "greedy", "mcts", "pymcts")
"""The kinds of baseline agent a spec can name."""

DEFAULT_SIMULATIONS = 200
"""Simulations of ``mcts`` without a number."""

_SEARCHES = {"mcts": MCTSAgent, "pymcts": PythonMCTSAgent}
"""The baseline kinds that take a number of simulations, and their agents."""


def parse_baseline_spec(spec) -> tuple[str, dict] | None:
    """``(kind, keyword arguments)`` of the baseline agent ``spec`` names (``"mcts:400"`` ->
    ``("mcts", {"simulations": 400})``), or None when ``spec`` is no string or names none of
    :data:`BASELINES` (a model path...). ValueError for a baseline spec with a bad argument."""
    if not isinstance(spec, str):
        return None
    kind, sep, arg = spec.partition(":")
    if kind not in BASELINES:
        return None
    if kind not in _SEARCHES:
        if sep:
            raise ValueError(f"agent {spec!r}: {kind} takes no argument")
        return kind, {}
    if not arg:
        return kind, {"simulations": DEFAULT_SIMULATIONS}
    try:
        simulations = int(arg)
    except ValueError:
        simulations = 0
    if simulations < 1:
        raise ValueError(f"agent {spec!r}: the number of simulations after '{kind}:' is a positive integer")
    return kind, {"simulations": simulations}


def make_baseline_agent(spec: str, game: Game | None = None, seed: int | None = None) -> Agent:
    """The baseline agent named by ``spec`` (``random``, ``greedy``, ``mcts``, ``mcts:<simulations>``,
    ``pymcts``, ``pymcts:<simulations>``)
    seeded with ``seed``; ``game`` gives the greedy agent its heuristic (else it looks it up per state).
    ValueError for any other spec."""
    parsed = parse_baseline_spec(spec)
    if parsed is None:
        raise ValueError(
            f"unknown baseline agent {spec!r}: use random, greedy, mcts, mcts:<simulations>, pymcts or "
            "pymcts:<simulations>"
        )
    kind, kwargs = parsed
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(game, seed)
    return _SEARCHES[kind](kwargs["simulations"], seed=seed)


__all__ = [
    "Agent",
    "BASELINES",
    "DEFAULT_SIMULATIONS",
    "GreedyAgent",
    "MCTSAgent",
    "PythonMCTSAgent",
    "RandomAgent",
    "make_baseline_agent",
    "parse_baseline_spec",
]
