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
  where seats act at once.
* :class:`SMMCTSAgent` (simultaneous games): regret matching or Exp3 at every node, an order drawn from
  the root's average strategy (:mod:`boardgames.envs.agents.smmcts`); :class:`PythonSMMCTSAgent` is its
  Python reference. Compiled (:mod:`boardgames.envs.search`, over the game's numba kernels);
  :class:`PythonMCTSAgent` is the same search in Python on the engine (``clone()`` +
  ``apply_actions``), the reference it is tested against.

:func:`make_baseline_agent` builds one from a short spec: ``random``, ``greedy``, ``mcts`` or
``mcts:<simulations>`` (compiled), ``pymcts`` or ``pymcts:<simulations>`` (Python), ``smmcts:<simulations>``
and ``pysmmcts:<simulations>``, each optionally followed by ``:<option>`` parts (:data:`SM_OPTIONS`:
``smmcts:1600:exp3:heuristic:max``, ``smmcts:800:g0.05``, ``smmcts:6400:heuristic:t0.33``). The agents of
trained models live in :mod:`boardgames.training.agent_kinds`.
"""

from __future__ import annotations

from boardgames.envs.agents.base import Agent
from boardgames.envs.agents.greedy import GreedyAgent
from boardgames.envs.agents.mcts import MCTSAgent, PythonMCTSAgent
from boardgames.envs.agents.random_agent import RandomAgent
from boardgames.envs.agents.smmcts import PythonSMMCTSAgent, SMMCTSAgent
from boardgames.envs.core.game import Game

BASELINES = ("random", "greedy", "mcts", "pymcts", "smmcts", "pysmmcts")
"""The kinds of baseline agent a spec can name."""

DEFAULT_SIMULATIONS = 200
"""Simulations of ``mcts`` without a number."""

_SEARCHES = {"mcts": MCTSAgent, "pymcts": PythonMCTSAgent, "smmcts": SMMCTSAgent, "pysmmcts": PythonSMMCTSAgent}
"""The baseline kinds that take a number of simulations, and their agents."""

SM_OPTIONS = {
    "regret": ("rule", "regret"),
    "exp3": ("rule", "exp3"),
    "rollout": ("leaf", "rollout"),
    "heuristic": ("leaf", "heuristic"),
    "max": ("most_likely", True),
}
"""The options of ``smmcts`` / ``pysmmcts`` after the simulations (``:exp3``...), ``g<gamma>`` (``:g0.05``) and
``t<temperature>`` (``:t0.33``, the order drawn from the average strategy raised to 1/0.33): the keyword
argument each sets (``pysmmcts`` takes no leaf option: its leaves are rollouts)."""


def _sm_options(spec: str, kind: str, parts: list) -> dict:
    """The keyword arguments of the ``:``-separated options ``parts`` of a simultaneous search spec."""
    out: dict = {}
    for part in parts:
        if part in SM_OPTIONS and not (kind == "pysmmcts" and SM_OPTIONS[part][0] == "leaf"):
            key, value = SM_OPTIONS[part]
        elif part.startswith("g"):
            key, value = "gamma", parse_share(spec, part[1:], "g<gamma>")
        elif part.startswith("t"):
            key, value = "temperature", parse_share(spec, part[1:], "t<temperature>")
        else:
            raise ValueError(
                f"agent {spec!r}: unknown option {part!r} (use {', '.join(SM_OPTIONS)}, g<gamma> or t<temperature>)"
            )
        out[key] = value
    return out


def parse_share(spec: str, text: str, option: str) -> float:
    """The number written after an option's letter (``g`` the exploration share, ``t`` the temperature): a
    number in (0, 1]."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value <= 1.0:
        raise ValueError(f"agent {spec!r}: {option} takes a number in (0, 1]")
    return value


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
    first, *parts = arg.split(":")
    try:
        simulations = int(first)
    except ValueError:
        simulations = 0
    if simulations < 1:
        raise ValueError(f"agent {spec!r}: the number of simulations after '{kind}:' is a positive integer")
    if parts and kind not in ("smmcts", "pysmmcts"):
        raise ValueError(f"agent {spec!r}: {kind} takes only a number of simulations")
    return kind, {"simulations": simulations, **_sm_options(spec, kind, parts)}


def make_baseline_agent(spec: str, game: Game | None = None, seed: int | None = None) -> Agent:
    """The baseline agent named by ``spec`` (``random``, ``greedy``, ``mcts``, ``mcts:<simulations>``,
    ``pymcts``, ``pymcts:<simulations>``)
    seeded with ``seed``; ``game`` gives the greedy agent its heuristic (else it looks it up per state).
    ValueError for any other spec."""
    parsed = parse_baseline_spec(spec)
    if parsed is None:
        raise ValueError(
            f"unknown baseline agent {spec!r}: use random, greedy, mcts, mcts:<simulations>, pymcts, "
            "pymcts:<simulations>, smmcts[:<simulations>[:options]] or pysmmcts[:<simulations>[:options]]"
        )
    kind, kwargs = parsed
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(game, seed)
    return _SEARCHES[kind](**kwargs, seed=seed)


__all__ = [
    "Agent",
    "BASELINES",
    "DEFAULT_SIMULATIONS",
    "GreedyAgent",
    "MCTSAgent",
    "PythonMCTSAgent",
    "PythonSMMCTSAgent",
    "SMMCTSAgent",
    "SM_OPTIONS",
    "RandomAgent",
    "make_baseline_agent",
    "parse_baseline_spec",
]
