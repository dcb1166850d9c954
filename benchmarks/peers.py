"""The peers the benchmark compares with, measured only where installed (the ``[bench]`` extra, never a
library dependency): PettingZoo's ``connect_four_v3`` through the same AEC loop as ours, OpenSpiel's
``connect_four`` (raw, and with observation tensor and mask), pgx's ``connect_four`` on the CPU."""

from __future__ import annotations

import random

import numpy as np

from boardgames.benchmarks.loops import pettingzoo_turns


def openspiel_turns(with_obs: bool, seed: int):
    import pyspiel

    game = pyspiel.load_game("connect_four")
    r = random.Random(seed).random

    def one_game() -> int:
        state = game.new_initial_state()
        turns = 0
        while not state.is_terminal():
            if with_obs:
                state.observation_tensor(state.current_player())
                mask = np.asarray(state.legal_actions_mask(), dtype=np.int8)
                legal = mask.nonzero()[0]
            else:
                legal = state.legal_actions()
            state.apply_action(int(legal[int(r() * len(legal))]))
            turns += 1
        return turns

    return one_game


def pgx_turns(size: int):
    """pgx's connect_four on the CPU: a jitted, vmapped step of ``size`` games with automatic restarts
    (written against pgx's documented API; pgx is not installed where this was written)."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("connect_four")
    init = jax.jit(jax.vmap(env.init))
    step = jax.jit(jax.vmap(auto_reset(env.step, env.init)))

    @jax.jit
    def act(state, key):
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits, axis=1)

    key = jax.random.PRNGKey(0)
    holder = {"state": init(jax.random.split(key, size)), "key": key}

    def some_steps() -> int:
        s, k = holder["state"], holder["key"]
        for _ in range(16):
            k, k1, k2 = jax.random.split(k, 3)
            s = step(s, act(s, k1), jax.random.split(k2, size))
        s.observation.block_until_ready()
        holder["state"], holder["key"] = s, k
        return 16 * size

    return some_steps


def peer_tasks(sizes, log) -> dict:
    """name -> turns-playing function of every installed peer (the missing ones are reported)."""
    tasks = {}
    try:
        from pettingzoo.classic import connect_four_v3

        tasks["pettingzoo connect_four_v3"] = pettingzoo_turns(connect_four_v3.env, 0)
    except ImportError as e:  # pragma: no cover - optional peer
        log(f"peer pettingzoo connect_four_v3 unavailable: {e}")
    try:
        import pyspiel  # noqa: F401

        tasks["openspiel connect_four raw"] = openspiel_turns(False, 0)
        tasks["openspiel connect_four obs+mask"] = openspiel_turns(True, 0)
    except ImportError:
        log("peer OpenSpiel unavailable (pyspiel is not installed: pip install open_spiel to compare)")
    try:
        import pgx  # noqa: F401

        for n in sizes:
            tasks[f"pgx connect_four cpu batch {n}"] = pgx_turns(n)
    except ImportError:
        log("peer pgx unavailable (pgx and jax are not installed: pip install pgx to compare)")
    return tasks
