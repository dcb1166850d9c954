"""The timed loops of the benchmark: random legal play through each of our interfaces (the PettingZoo
API, the raw engine with or without a clone per move, the batched environments, compiled playouts),
each as a function that plays some turns and says how many, and the timer that runs them."""

from __future__ import annotations

import random
import time


def timed(step_fn, seconds: float, cpu: bool = False) -> float:
    """Call ``step_fn()`` (which returns how many turns it played) until ``seconds`` pass; turns/s.
    ``cpu``: seconds of this process's CPU time instead of the wall clock (single-threaded loops on a
    shared machine: the time other jobs take the core away is not counted)."""
    clock = time.process_time if cpu else time.perf_counter
    step_fn()  # warm-up: compile and fill caches
    turns, start = 0, clock()
    while clock() - start < seconds:
        turns += step_fn()
    return turns / (clock() - start)


def picker(seed: int):
    """``pick(mask_or_indices)``: a uniformly random legal action, cheap (the same for us and for peers)."""
    r = random.Random(seed).random

    def pick(mask) -> int:
        legal = mask.nonzero()[0]
        return int(legal[int(r() * len(legal))])

    return pick


def pettingzoo_turns(make_env, seed: int, parallel: bool = False):
    """A function playing one random game through the PettingZoo API, returning its number of turns."""
    env = make_env()
    pick = picker(seed)
    seeds = iter([seed])  # seeded once, as a user's loop does: later resets continue the sequence

    def one_game() -> int:
        turns = 0
        if parallel:
            obs, _ = env.reset(seed=next(seeds, None))
            while env.agents:
                obs, *_ = env.step({a: pick(obs[a]["action_mask"]) for a in env.agents})
                turns += 1
            return turns
        env.reset(seed=next(seeds, None))
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                action = pick(obs["action_mask"])
                turns += 1
            env.step(action)
        return turns

    return one_game


def engine_turns(game, seed: int, clone: bool = False):
    """A function playing one random game on the raw engine (optionally cloning before each apply)."""
    r = random.Random(seed).random

    def pick(state, seat) -> int:
        legal = state.legal_actions(seat)
        return int(legal[int(r() * len(legal))])

    def one_game() -> int:
        state = game.new_initial_state()
        turns = 0
        seats = state.current_seats()
        while seats:  # no seat acts once the game is over
            if clone:
                state = state.clone()
            state.apply_actions({s: pick(state, s) for s in seats}, check=False)
            turns += 1
            seats = state.current_seats()
        return turns

    return one_game


def batched_turns(
    game,
    size: int,
    observe: bool = True,
    threads: bool | int = False,
    obs_dtype: str = "float32",
    packed_masks: bool = False,
):
    """A function stepping a BatchedGames of ``size`` games with random legal actions; turns played."""
    from boardgames.envs.vector import BatchedGames

    batch = BatchedGames(
        game, size, observe=observe, seed=0, threads=threads, obs_dtype=obs_dtype, packed_masks=packed_masks
    )
    return batch_stepper(batch)


def batch_stepper(batch, warmups: int = 0):
    """A function stepping ``batch`` (a BatchedGames) with its own random legal actions over about 2,048
    game-steps and returning how many it played; run ``warmups`` times first (compilation, caches)."""
    steps = max(1, 2048 // batch.num_games)

    def some_steps() -> int:
        for _ in range(steps):
            batch.step(batch.random_actions())
        return steps * batch.num_games

    for _ in range(warmups):
        some_steps()
    return some_steps


def compiled_playouts(game, size: int = 1024, turns: int = 64):
    from boardgames.envs.vector import BatchedGames

    batch = BatchedGames(game, size, observe=False, seed=0, threads=False)

    def some_turns() -> int:
        batch.random_playouts(turns)
        return turns * size

    return some_turns
