"""PettingZoo's own utilities and SuperSuit's vectorization on the library's games.

What it shows:

* SuperSuit on the Barc duel, the game whose seats act at once (it has a PettingZoo Parallel form)::

      vec = ss.pettingzoo_env_to_vec_env_v1(barc_v1.parallel_env())           # one row per agent
      vec = ss.concat_vec_envs_v1(vec, 8, num_cpus=0, base_class="gymnasium")  # 8 games = 16 rows

  The observation stays the library's Dict, batched: ``obs["action_mask"]`` (int8, one row per agent)
  and ``obs["observation"]``; every row here plays a masked random action, with ``illegal_action="raise"``
  so that a mask routed to the wrong row would stop the run. ``base_class="stable_baselines3"`` gives an
  SB3 ``VecEnv`` with the same Dict (for ``MultiInputPolicy``; MaskablePPO cannot read the masks from it:
  ``has_attr("action_masks")`` raises AttributeError in SuperSuit 3.11's wrapper);
  ``num_cpus=N`` runs the games in N processes.
* SuperSuit on the turn-based games (Dorix at 2 and 4 players, Olix, ADIX), through PettingZoo's
  ``turn_based_aec_to_parallel``, which makes a Parallel env of a turn-based AEC one::

      par = turn_based_aec_to_parallel(dorix_v0.env())
      vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(par), 8, num_cpus=0, base_class="gymnasium")

  Every agent has a row at every step, but only the seat to move acts: its row's mask is its legal moves,
  the other rows' masks are empty (all zeros), and the wrapper plays only the acting seat's action (the
  others' are ignored: any number does; ``infos[row]["active_agent"]`` names the seat after the first
  step). A game's rows end together, and SuperSuit restarts it.
* PettingZoo's conversions: ``aec_to_parallel(barc_v1.env())`` (Barc's AEC form is marked
  ``is_parallelizable``: PettingZoo hands back the Parallel env it wraps) and ``parallel_to_aec``, and its
  classic wrappers (``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``) around a turn-based
  ``raw_env()``, played with the mask from ``obs["action_mask"]``.

What does not work, checked by :func:`probe_turn_based` on Dorix (the other turn-based games are alike):
``aec_to_parallel`` refuses a turn-based game (``is_parallelizable`` is False, rightly, since one seat acts
per step: ``turn_based_aec_to_parallel`` is the conversion for it); SuperSuit's observation wrappers
(``dtype_v0``, ``flatten_v0``, ``frame_stack_v1``, ``normalize_obs_v0``, ``agent_indicator_v0``,
``observation_lambda_v0``) refuse the Dict observation that carries the mask, on every game; the reward
wrapper ``clip_reward_v0`` takes it. One learning seat against opponents, batched in compiled code, is the
library's own ``gymnasium.make_vec("boardgames/<game>-v<N>")``.

    python examples/ecosystem/supersuit_vector.py --steps 300 --games 8

The last line is ``summary: {json}``: SuperSuit's agent steps per second on Barc, games finished,
player_0's mean return, the illegal actions (0); the same for each turn-based game (moves per second:
one per game and step), with whether exactly one row of each game had moves at every step; and the
wrappers the turn-based game takes or refuses.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import supersuit as ss
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec, turn_based_aec_to_parallel

from boardgames.envs import adix_v0, barc_v1, dorix_v0, olix_v0

TURN_BASED = {
    "dorix": lambda: dorix_v0.env(illegal_action="raise"),
    "dorix-4p": lambda: dorix_v0.env(num_players=4, illegal_action="raise"),
    "olix": lambda: olix_v0.env(illegal_action="raise"),
    "adix": lambda: adix_v0.env(illegal_action="raise"),
}
"""The turn-based games the recipe batches with SuperSuit: name -> a PettingZoo AEC env (an illegal action raises)."""


def supersuit_barc(steps: int, games: int, seed: int) -> dict:
    """SuperSuit's vector env of ``games`` Barc duels, every row a masked random action for ``steps`` steps."""
    vec = ss.pettingzoo_env_to_vec_env_v1(barc_v1.parallel_env(illegal_action="raise"))
    vec = ss.concat_vec_envs_v1(vec, games, num_cpus=0, base_class="gymnasium")
    rng = np.random.default_rng(seed)
    obs, _infos = vec.reset(seed=seed)
    returns, illegal = [], 0
    start = time.perf_counter()
    for _ in range(steps):
        masks = obs["action_mask"].astype(bool)  # (2 * games, 1441): rows player_0, player_1, player_0, ...
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        illegal += int((~masks[np.arange(len(actions)), actions]).sum())
        obs, rewards, terminations, truncations, _infos = vec.step(actions)
        # uint8 arrays (0/1), not bool: cast before indexing. Both rows of a game end together; SuperSuit restarts it
        ended = (terminations | truncations).astype(bool)
        returns.extend(rewards[0::2][ended[0::2]].tolist())  # player_0's return at each ending
    elapsed = time.perf_counter() - start
    vec.close()
    return {
        "agent_steps_per_s": round(steps * 2 * games / elapsed, 1),
        "games_finished": len(returns),
        "mean_return_player_0": round(float(np.mean(returns)), 3) if returns else None,
        "illegal_moves": illegal,
    }


def supersuit_turn_based(make_env, steps: int, games: int, seed: int) -> dict:
    """SuperSuit's vector env of ``games`` games of a turn-based AEC env (``make_env()``) made Parallel by
    ``turn_based_aec_to_parallel``: each step the seat to move plays a masked random action, the other rows
    (empty masks) an ignored 0."""
    parallel = turn_based_aec_to_parallel(make_env())
    agents = len(parallel.possible_agents)
    vec = ss.pettingzoo_env_to_vec_env_v1(parallel)
    vec = ss.concat_vec_envs_v1(vec, games, num_cpus=0, base_class="gymnasium")
    rng = np.random.default_rng(seed)
    obs, _infos = vec.reset(seed=seed)
    returns, illegal, one_seat_acts = [], 0, True
    start = time.perf_counter()
    for _ in range(steps):
        masks = obs["action_mask"].astype(bool)  # (agents * games, num_actions): the game's rows one after another
        acting = masks.any(axis=1)
        one_seat_acts &= bool((acting.reshape(games, agents).sum(axis=1) == 1).all())
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in masks])
        illegal += int((~masks[np.arange(len(actions)), actions])[acting].sum())
        obs, rewards, terminations, truncations, _infos = vec.step(actions)
        ended = (terminations | truncations).astype(bool)  # uint8 in SuperSuit: cast before indexing
        returns.extend(rewards[0::agents][ended[0::agents]].tolist())  # player_0's return at each ending
    elapsed = time.perf_counter() - start
    vec.close()
    return {
        "agents": agents,
        "moves_per_s": round(steps * games / elapsed, 1),
        "games_finished": len(returns),
        "mean_return_player_0": round(float(np.mean(returns)), 3) if returns else None,
        "illegal_moves": illegal,
        "one_seat_acts_per_game": one_seat_acts,
    }


def play_aec(env, seed: int) -> tuple[int, int]:
    """One masked random game in the AEC loop: (agent steps, illegal actions chosen)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = illegal = 0
    for agent in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        action = None
        if not (termination or truncation):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            seat = env.unwrapped.possible_agents.index(agent)
            illegal += action not in env.unwrapped.game_state.legal_actions(seat)
        env.step(action)
        steps += 1
    return steps, illegal


def pettingzoo_utilities(seed: int) -> dict:
    """PettingZoo's conversions on Barc and its classic wrappers on a turn-based raw_env."""
    parallel = aec_to_parallel(barc_v1.env())  # Barc's AEC form is parallel_to_aec of its Parallel env
    assert isinstance(parallel, barc_v1.raw_env), "aec_to_parallel hands back the Parallel env it wraps"
    turn_based = dorix_v0.raw_env(num_players=3, illegal_action="raise")
    classic = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(turn_based))
    simultaneous = parallel_to_aec(barc_v1.parallel_env(illegal_action="raise"))
    results = {
        "parallel_to_aec(barc_v1.parallel_env())": play_aec(simultaneous, seed),
        "OrderEnforcingWrapper(AssertOutOfBoundsWrapper(dorix_v0.raw_env(num_players=3)))": play_aec(classic, seed),
    }
    return {name: {"agent_steps": s, "illegal_moves": i} for name, (s, i) in results.items()}


def probe_turn_based() -> dict:
    """Which SuperSuit wrappers and PettingZoo conversions take turn-based Dorix: "ok" or why not."""
    probes = {
        "aec_to_parallel": aec_to_parallel,
        "turn_based_aec_to_parallel": turn_based_aec_to_parallel,
        "ss.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(env))": lambda e: ss.pettingzoo_env_to_vec_env_v1(
            turn_based_aec_to_parallel(e)
        ),
        "ss.pettingzoo_env_to_vec_env_v1(aec_to_parallel(env))": lambda e: ss.pettingzoo_env_to_vec_env_v1(
            aec_to_parallel(e)
        ),
        "ss.dtype_v0": lambda e: ss.dtype_v0(e, np.float16),
        "ss.flatten_v0": ss.flatten_v0,
        "ss.frame_stack_v1": lambda e: ss.frame_stack_v1(e, 2),
        "ss.normalize_obs_v0": ss.normalize_obs_v0,
        "ss.agent_indicator_v0": ss.agent_indicator_v0,
        "ss.observation_lambda_v0": lambda e: ss.observation_lambda_v0(e, lambda obs, space: obs),
        "ss.clip_reward_v0": lambda e: ss.clip_reward_v0(e, -1, 1),
    }
    out = {}
    for name, wrap in probes.items():
        try:
            env = wrap(dorix_v0.env())
            env.reset(seed=0)
            out[name] = "ok"
        except (AssertionError, AttributeError, TypeError, ValueError) as error:
            out[name] = f"refused: {type(error).__name__}: {str(error).splitlines()[0][:90]}"
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="vector steps of each of SuperSuit's batches")
    parser.add_argument("--games", type=int, default=8, help="games side by side in each batch (a row per agent)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    summary = {
        "client": "SuperSuit and PettingZoo utilities",
        "game": "barc",
        **supersuit_barc(args.steps, args.games, args.seed),
        "turn_based": {
            name: supersuit_turn_based(make_env, args.steps, args.games, args.seed)
            for name, make_env in TURN_BASED.items()
        },
        "pettingzoo_utilities": pettingzoo_utilities(args.seed),
        "turn_based_dorix": probe_turn_based(),
    }
    print("summary:", json.dumps(summary))
