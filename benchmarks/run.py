"""Random-play speed of every registered game and of its peers, measured side by side in one run.

    python -m benchmarks.run [--seconds 1] [--rounds 3] [--games dorix olix] [--all-options] [--sizes 1 64 1024]
                             [--ppo-frames 8192 --ppo-envs 128 --ppo-net 64 64 --ppo-epochs 2 | --no-ppo]
                             [--out benchmarks/results/latest.json]

For each game (its default options; every option set of its ``CONFORMANCE_OPTIONS`` with
``--all-options``) it prints turns per second of uniformly random legal play through

* (a) ``pettingzoo``: the PettingZoo API as a user's loop drives it (AEC: ``agent_iter`` / ``last`` /
  ``step``; simultaneous games: the Parallel API, one joint turn per ``step``);
* (b) ``engine``: the raw engine in Python (``legal_actions`` + ``apply`` on the Game/State interface);
* (c) ``batched N``: :class:`envs.vector.BatchedGames` at each batch size N, one compiled call per step
  of all N games, masks and observations refreshed (random actions drawn by its compiled sampler);
  ``batched N no obs``: the same without observations; with ``--threads``, ``batched N threaded``: the
  same spread over every core; ``compiled playouts``: the whole random game
  loop inside numba (the engine's own speed, nothing handed back to Python between turns);
* (d) ``clone_apply``: ``clone()`` before every ``apply`` (what MCTS does).

Peers: PettingZoo's ``connect_four_v3`` through the same AEC loop; OpenSpiel's ``connect_four`` (raw
``legal_actions`` + ``apply_action``, and with observation tensor and mask) and pgx's
``connect_four`` on the CPU (jitted ``step`` of a batch) only where ``pyspiel`` / ``pgx`` are
installed: they are optional extras of the benchmark, never dependencies of the library. Random
choices in the Python loops use the same cheap picker for our games and for the peers.

Then MaskablePPO frames per second (``--ppo-frames`` frames, default options of the first game):
:class:`envs.vector.sb3.BatchedVecEnv` against SB3's ``DummyVecEnv`` of
:class:`envs.core.single_agent.SingleAgentEnv`, same hyperparameters, random opponents.

Every figure and every ratio to a peer is printed and written to ``--out`` (JSON). Figures depend on
the machine and its load: compare only numbers from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time

import numpy as np

from envs.registry import env_module, game_names

# Targets of issue 8 (ratios to peers measured in the same run).
TARGETS = {
    "pettingzoo_vs_connect_four": {"dorix": 5.0, "barc": 5.0, "olix": 3.0, "adix": 3.0},
    "batched_vs_openspiel_raw": {"dorix": 4.0, "barc": 4.0, "olix": 1.0, "adix": 1.0},
    "ppo_batched_vs_dummy": 2.0,
}


# Figures issue 8 gives for peers on this machine (turns/s); printed, with our ratio to them, only for
# the peers that are not installed, and labelled as not measured in this run.
ISSUE_REFERENCE = {
    "openspiel connect_four raw": 560_000,
    "openspiel connect_four obs+mask": 130_000,
    "pgx connect_four cpu batch 1024": 2_200_000,
}


def _timed(step_fn, seconds: float) -> float:
    """Call ``step_fn()`` (which returns how many turns it played) until ``seconds`` pass; turns/s."""
    step_fn()  # warm-up: compile and fill caches
    turns, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += step_fn()
    return turns / (time.perf_counter() - start)


def _picker(seed: int):
    """``pick(mask_or_indices)``: a uniformly random legal action, cheap (the same for us and for peers)."""
    r = random.Random(seed).random

    def pick(mask) -> int:
        legal = mask.nonzero()[0]
        return int(legal[int(r() * len(legal))])

    return pick


def pettingzoo_turns(make_env, seed: int, parallel: bool = False):
    """A function playing one random game through the PettingZoo API, returning its number of turns."""
    env = make_env()
    pick = _picker(seed)
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
        while not state.is_terminal():
            if clone:
                state = state.clone()
            state.apply_actions({s: pick(state, s) for s in state.current_seats()}, check=False)
            turns += 1
        return turns

    return one_game


def batched_turns(game, size: int, observe: bool = True, threads: bool = False):
    """A function stepping a BatchedGames of ``size`` games with random legal actions; turns played."""
    from envs.vector import BatchedGames

    batch = BatchedGames(game, size, observe=observe, seed=0, threads=threads)
    steps = max(1, 2048 // size)

    def some_steps() -> int:
        for _ in range(steps):
            batch.step(batch.random_actions())
        return steps * size

    return some_steps


def compiled_playouts(game, size: int = 1024, turns: int = 64):
    from envs.vector import BatchedGames

    batch = BatchedGames(game, size, observe=False, seed=0)

    def some_turns() -> int:
        batch.random_playouts(turns)
        return turns * size

    return some_turns


# ----- peers ------------------------------------------------------------------------------------------
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


# ----- MaskablePPO --------------------------------------------------------------------------------------
# Large-batch PPO, the setting batched environments are for: 128 games, 4096 frames per rollout.
PPO_SETTINGS = dict(n_steps=32, batch_size=2048, n_epochs=2, learning_rate=3e-4, policy_kwargs={"net_arch": [64, 64]})


def ppo_frames_per_second(
    game_name: str, frames: int, n_envs: int = 128, settings: dict | None = None, rounds: int = 1
) -> dict:
    """MaskablePPO frames/s with the batched VecEnv and with DummyVecEnv of single envs (same settings,
    random opponents, one torch thread); the clock runs over ``learn(frames)`` after a warm-up. Also
    ``rollout``: frames/s of acting alone (masked policy inference + environment steps, no gradient
    step), the part of training an environment can speed up."""
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    from envs.core.single_agent import SingleAgentEnv
    from envs.vector.sb3 import BatchedVecEnv

    settings = dict(settings or PPO_SETTINGS)
    torch.set_num_threads(1)
    result = {
        "n_envs": n_envs,
        "frames": frames,
        **{k: v for k, v in settings.items() if k != "policy_kwargs"},
        "net_arch": settings["policy_kwargs"]["net_arch"],
    }
    makers = {
        "batched": lambda: BatchedVecEnv(game_name, n_envs, seed=0),
        "dummy": lambda: DummyVecEnv([lambda: SingleAgentEnv(game_name) for _ in range(n_envs)]),
    }
    venvs = {name: make() for name, make in makers.items()}
    for venv in venvs.values():
        MaskablePPO("MlpPolicy", venv, seed=0, **settings).learn(n_envs * settings["n_steps"])  # warm-up
    for _ in range(rounds):  # alternating, the best of each kept (see main)
        for name, venv in venvs.items():
            model = MaskablePPO("MlpPolicy", venv, seed=0, **settings)
            start = time.perf_counter()
            model.learn(frames)
            result[name] = max(result.get(name, 0.0), model.num_timesteps / (time.perf_counter() - start))
            obs, steps = venv.reset(), max(1, frames // (4 * n_envs))
            start = time.perf_counter()
            for _ in range(steps):
                actions, _ = model.predict(obs, action_masks=get_action_masks(venv))
                obs, *_ = venv.step(actions)
            key = f"{name} rollout"
            result[key] = max(result.get(key, 0.0), steps * n_envs / (time.perf_counter() - start))
    result["ratio"] = result["batched"] / result["dummy"]
    result["rollout ratio"] = result["batched rollout"] / result["dummy rollout"]
    return result


# ----- main ---------------------------------------------------------------------------------------------
def _label(name: str, options: dict) -> str:
    return name + "".join(f" {k}={v}" for k, v in options.items())


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all measurements (the best is kept)")
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: all registered)")
    parser.add_argument("--all-options", action="store_true", help="every option set of CONFORMANCE_OPTIONS")
    parser.add_argument("--sizes", nargs="*", type=int, default=[1, 64, 256, 1024], help="batch sizes")
    parser.add_argument("--ppo-frames", type=int, default=8192, help="MaskablePPO frames per measurement")
    parser.add_argument("--ppo-envs", type=int, default=128, help="MaskablePPO: number of games")
    parser.add_argument("--ppo-net", nargs="*", type=int, default=[64, 64], help="MaskablePPO: MLP layer sizes")
    parser.add_argument("--ppo-epochs", type=int, default=2, help="MaskablePPO: epochs per rollout")
    parser.add_argument("--no-ppo", action="store_true", help="skip the MaskablePPO measurement")
    parser.add_argument("--threads", action="store_true", help="also the batched step on every core (largest size)")
    parser.add_argument("--out", default="benchmarks/results/latest.json", help="where to write the figures")
    args = parser.parse_args(argv)
    log = lambda text: print(text, flush=True)  # noqa: E731
    rows, tasks = [], []  # tasks: (where the figure goes, its key, the function playing turns)
    for name in args.games or game_names():
        module = env_module(name)
        for options in module.CONFORMANCE_OPTIONS if args.all_options else [{}]:
            game = module.make_game(**options)
            simultaneous = game.info.simultaneous
            make = (
                (lambda m=module, o=options: m.parallel_env(**o))
                if simultaneous
                else (lambda m=module, o=options: m.env(**o))
            )
            row = {"game": _label(name, options), "name": name, "options": options}
            rows.append(row)
            tasks += [
                (row, "pettingzoo", pettingzoo_turns(make, 0, parallel=simultaneous)),
                (row, "engine", engine_turns(game, 0)),
                (row, "clone_apply", engine_turns(game, 0, clone=True)),
            ]
            tasks += [(row, f"batched {n}", batched_turns(game, n)) for n in args.sizes]
            tasks += [
                (row, f"batched {max(args.sizes)} no obs", batched_turns(game, max(args.sizes), observe=False)),
                (row, "compiled playouts", compiled_playouts(game)),
            ]
            if args.threads:
                big = max(args.sizes)
                tasks.append((row, f"batched {big} threaded", batched_turns(game, big, threads=True)))
    peers = {}
    tasks += [(peers, key, fn) for key, fn in peer_tasks(args.sizes, log).items()]
    # Rounds over every measurement, keeping each one's best: the machine's load changes during a run,
    # and the best of several rounds is the figure least disturbed by it, for us and for the peers alike.
    for r in range(args.rounds):
        for where, key, fn in tasks:
            where[key] = max(where.get(key, 0.0), _timed(fn, args.seconds))
        log(f"round {r + 1}/{args.rounds} done")
    for row in rows:
        row["batched best"] = max(row[f"batched {n}"] for n in args.sizes)
        log(
            f"{row['game']:28s} "
            + "  ".join(f"{k} {v:,.0f}" for k, v in row.items() if isinstance(v, float))
            + "  turns/s"
        )
    for key, value in peers.items():
        log(f"{'peer: ' + key:44s} {value:>13,.0f} turns/s")
    ratios = []
    for row in rows:
        for peer, value in peers.items():
            ours = row["pettingzoo"] if peer.startswith("pettingzoo") else row["batched best"]
            what = "PettingZoo API" if peer.startswith("pettingzoo") else "batched (best size)"
            ratios.append({"game": row["game"], "ours": what, "peer": peer, "ratio": ours / value})
            log(f"{row['game']:28s} {what:20s} {ours / value:7.2f}x  {peer}")
    for peer, value in ISSUE_REFERENCE.items():
        if peer in peers:
            continue
        for row in rows:
            ratio = row["batched best"] / value
            ratios.append(
                {
                    "game": row["game"],
                    "ours": "batched (best size)",
                    "peer": peer,
                    "ratio": ratio,
                    "reference": "issue 8's figure, not measured in this run",
                }
            )
            log(
                f"{row['game']:28s} {'batched (best size)':20s} {ratio:7.2f}x  {peer} = {value:,} "
                f"(issue 8's figure for this machine; NOT measured in this run)"
            )
    ppo = None
    if not args.no_ppo:
        ppo_game = (args.games or game_names())[0]
        settings = {**PPO_SETTINGS, "n_epochs": args.ppo_epochs, "policy_kwargs": {"net_arch": args.ppo_net}}
        ppo = ppo_frames_per_second(ppo_game, args.ppo_frames, args.ppo_envs, settings, args.rounds)
        log(
            f"MaskablePPO {ppo_game}: batched VecEnv {ppo['batched']:,.0f} frames/s, DummyVecEnv of SingleAgentEnv "
            f"{ppo['dummy']:,.0f} frames/s: {ppo['ratio']:.2f}x; acting alone (no gradient step) "
            f"{ppo['batched rollout']:,.0f} vs {ppo['dummy rollout']:,.0f} frames/s: {ppo['rollout ratio']:.2f}x "
            f"({ppo['n_envs']} envs, n_steps {ppo['n_steps']}, "
            f"batch {ppo['batch_size']}, {ppo['n_epochs']} epochs, MLP {ppo['net_arch']})"
        )
    result = {
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "seconds": args.seconds,
        "rounds": args.rounds,
        "games": rows,
        "peers": peers,
        "ratios": ratios,
        "ppo": ppo,
        "targets": TARGETS,
    }
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    log(f"written to {args.out}")
    return result


if __name__ == "__main__":
    main()
