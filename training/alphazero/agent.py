"""A trained AlphaZero network playing through the compiled search (PUCT with the network's priors and
values, no noise): the ``Agent`` that evaluations, leaderboards and the play commands use.

Agent specs (``boardgames.training.agent_kinds.make_agent``): a folder holding ``alphazero.json`` (a shipped model such
as ``models/dorix_2p_az``, or a run's ``best``/``latest`` folder), optionally followed by
``@<simulations>`` to search more or less than the model's default (``models/dorix_2p_az@800``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from boardgames.envs.agents import Agent
from boardgames.envs.agents.smmcts import sharpened
from boardgames.envs.core.game import Game, State
from boardgames.envs.search import EvaluatorSearch
from boardgames.training.alphazero.evaluator import NetworkEvaluator
from boardgames.training.alphazero.network import load_network
from boardgames.training.torch_threads import ensure_torch_threads


class AlphaZeroAgent(Agent):
    """Plays the most visited action of a PUCT search of ``simulations`` simulations guided by ``net``;
    ``c`` and ``contempt`` are the search's (:class:`boardgames.envs.search.EvaluatorSearch`), and a
    model's ``alphazero.json`` may set both (``"c"``, ``"contempt"``). With ``rule="regret"`` (or
    ``"exp3"``: games whose seats act at once; ``gamma`` the exploration share) the search learns a mixed
    strategy per seat and the agent draws its order from its seat's average strategy at the root, at
    ``temperature`` (``last_strategy``; :func:`boardgames.envs.agents.smmcts.sharpened`: below 1 moves weight
    to the likeliest orders and keeps the others in play); a model trained so records ``"rule"``, ``"gamma"``
    and ``"temperature"``."""

    def __init__(
        self,
        game: Game,
        net: torch.nn.Module,
        simulations: int = 200,
        c: float = 1.25,
        name: str = "alphazero",
        seed: int | None = None,
        contempt: float = 0.0,
        rule: str = "puct",
        gamma: float = 0.3,
        temperature: float = 1.0,
    ):
        super().__init__(seed)
        if int(simulations) < 1:
            raise ValueError(f"simulations must be a positive integer, got {simulations}")
        if not 0.0 < float(temperature) <= 1.0:
            raise ValueError(f"temperature must be in (0, 1], got {temperature}")
        self.temperature = float(temperature)
        self.game = game
        self.simulations = int(simulations)
        self.evaluator = NetworkEvaluator(game, net)
        self.mixed = rule != "puct"  # regret matching / Exp3: orders drawn from the average strategy
        c = gamma if self.mixed else c
        self.search = EvaluatorSearch(game, self.evaluator, c=c, contempt=contempt, rule=rule)
        self.name = name
        self.last_counts: np.ndarray | None = None  # the last search's root visits (K, NUM_ACTIONS)
        self.last_strategy: np.ndarray | None = None  # regret/exp3: the last order's average strategy
        self.last_strategies: list = []  # regret/exp3: the strategy of each order of the last act_batch

    def act(self, state: State, seat: int) -> int:
        return int(self.act_batch([state], [seat])[0])

    def act_batch(self, states: list, seats: list) -> np.ndarray:
        """The moves of ``seats[i]`` in ``states[i]``, all searched in one batched search (the leaves of
        every tree through the network together: :func:`boardgames.envs.agents.play.play_games_side_by_side`)."""
        ensure_torch_threads()  # torch's threads when nobody set them (boardgames.training.torch_threads)
        result = self.search.run(
            np.stack([s.data for s in states]), self.simulations, seed=int(self.rng.integers(2**63))
        )
        out = np.empty(len(states), dtype=np.int64)
        self.last_strategies = []
        for b, seat in enumerate(seats):
            k = 0 if self.game.info.acting_seats == 1 else int(seat)
            if self.mixed:  # a mixed strategy: the order drawn from it
                assert result.strategies is not None  # a simultaneous rule's search gives them
                average = result.strategies[b, k] / result.strategies[b, k].sum()
                self.last_strategy = sharpened(average, self.temperature)
                self.last_strategies.append(self.last_strategy)
                out[b] = self.rng.choice(self.last_strategy.shape[0], p=self.last_strategy)
                continue
            best = np.flatnonzero(result.counts[b, k] == result.counts[b, k].max())
            out[b] = best[0] if len(best) == 1 else self.rng.choice(best)
        self.last_counts = np.stack([self._weights(result, k)[-1] for k in range(result.counts.shape[1])])
        self._last_position = (states[-1].data.tobytes(), int(seats[-1]))
        return out

    def _weights(self, result, k: int) -> np.ndarray:
        """``(B, NUM_ACTIONS)``: acting seat ``k``'s weights at each root that :meth:`explain` reports, its
        visit counts (PUCT) or its average strategy at the agent's temperature (what its orders are drawn
        from)."""
        if not self.mixed:
            return result.counts[:, k]
        rows = result.policy(k)
        return np.stack([sharpened(row / row.sum(), self.temperature) if row.sum() > 0 else row for row in rows])

    def warm_up(self, state: State | None = None) -> None:
        """Compile the search and make the network's first call now (a search of one simulation from
        ``state``, the start position by default), so that the first move takes the time of any other.
        Draws nothing from the agent's generator."""
        ensure_torch_threads()
        start = state if state is not None else self.game.new_initial_state()
        self.search.run(start.data[None], 1, seed=0)

    def explain(self, state: State, seat: int) -> dict:
        """``{action: share of the root visits}`` of ``seat`` in ``state``: the last search's when it was
        this position's, else a search of its own with a fixed seed (the agent's generator is untouched)."""
        ensure_torch_threads()
        k = 0 if self.game.info.acting_seats == 1 else int(seat)
        if self.last_counts is not None and getattr(self, "_last_position", None) == (state.data.tobytes(), int(seat)):
            row = self.last_counts[k]
        else:
            row = self._weights(self.search.run(state.data[None], self.simulations, seed=0), k)[0]
        total = float(row.sum())
        return {int(a): float(row[a]) / total for a in np.flatnonzero(row)} if total > 0 else {}


def parse_spec(spec: str) -> tuple[Path, int | None] | None:
    """``(folder, simulations or None)`` when ``spec`` names an AlphaZero model (see the module
    docstring), else None."""
    from boardgames.training.alphazero.network import is_network_folder
    from boardgames.training.storage.shipped import resolve_model

    text = str(spec)
    path, at, sims = text.rpartition("@") if "@" in text else (text, "", "")
    simulations = None
    if at:
        try:
            simulations = int(sims)
        except ValueError:
            return None
        if simulations < 1:
            raise ValueError(f"agent {spec!r}: the simulations after '@' must be a positive integer")
    folder = resolve_model(path)  # a shipped model's name is the shipped folder, never the working directory's
    if not is_network_folder(folder):
        return None
    return folder, simulations


def load_agent(spec: str, game: Game | None = None, seed: int | None = None) -> AlphaZeroAgent:
    """The agent of an AlphaZero model spec; ValueError when the model is for another game."""
    parsed = parse_spec(spec)
    if parsed is None:
        raise ValueError(f"{spec!r} names no AlphaZero model")
    folder, simulations = parsed
    net, meta = load_network(folder)
    from boardgames.training.storage.model_version import check_model_version, model_game
    from boardgames.training.storage.safe_load import ModelFileError

    if not isinstance(meta.get("game"), str):
        raise ModelFileError(f"{folder} is not an AlphaZero network of this project: its alphazero.json names no game")

    if game is None:
        game = model_game(meta["game"], meta.get("options", {}), meta)
    elif game.info.name != meta["game"] or tuple(game.info.observation_shape) != tuple(net.config["obs_shape"]):
        raise ValueError(
            f"model {spec} plays {meta['game']} {meta.get('options', {})}, not this game ({game.info.name})"
        )
    check_model_version(meta, game, spec)
    sims = simulations or int(meta.get("simulations", 200))
    name = folder.name if simulations is None else f"{folder.name}@{sims}"
    return AlphaZeroAgent(
        game,
        net,
        sims,
        c=float(meta.get("c", 1.25)),
        name=name,
        seed=seed,
        contempt=float(meta.get("contempt", 0.0)),
        rule=str(meta.get("rule", "puct")),
        gamma=float(meta.get("gamma", 0.3)),
        temperature=float(meta.get("temperature", 1.0)),
    )
