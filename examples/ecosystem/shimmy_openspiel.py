"""Shimmy's ``OpenSpielCompatibilityV0`` on the library's registered OpenSpiel games (a PettingZoo AEC env
built from the OpenSpiel game, rather than from the library's own PettingZoo adapters).

What it shows: the one line that matters is how the game is named. Shimmy reloads the game on every
``reset()`` by its short name and the ``config`` it was given (``pyspiel.load_game(short_name, config)``),
so the parameters must go in ``config``::

    OpenSpielCompatibilityV0(game_name="boardgames_dorix", config={"players": 3})   # 3-player Dorix

while ``OpenSpielCompatibilityV0(env=pyspiel.load_game("boardgames_dorix(players=3)"))`` builds three
agents and then, on ``reset()``, reloads the 2-player default and fails (``player < num_players_``): the
script checks that this is still so. It then plays masked random games of Dorix at 2, 3 and 4 players
(teams at 4) and of the Barc duel, and passes PettingZoo's ``api_test`` on 3-player Dorix.

What works: every game and player count, the simultaneous Barc duel (Shimmy collects one action per
agent, then applies the joint move), the legal actions as ``info["action_mask"]`` (int8), PettingZoo's
``api_test``. What it does not: the observation is a float64 Box (the flattened ``observation_tensor``,
reshaped to the game's shape) without the mask in it, unlike the library's own ``env()`` (a Dict of
``observation`` and ``action_mask``); ``seed`` does not reach the game (ours has no chance nodes, so
nothing is lost); rewards arrive only at the end, and ``env.rewards`` is empty once the game is over
(read ``env.game_state.returns()``). The library's own ``<game>_v<N>.env()`` is the faster choice.

    python examples/ecosystem/shimmy_openspiel.py --games 5

The last line is ``summary: {json}``: per configuration the games played, agent steps per second,
the returns' range and the illegal actions chosen (0).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from pettingzoo.test import api_test
from shimmy import OpenSpielCompatibilityV0

import boardgames.envs.interop.openspiel  # noqa: F401  (registers the games with OpenSpiel)

CONFIGURATIONS = {
    "dorix-2p": ("boardgames_dorix", {"players": 2}),
    "dorix-3p": ("boardgames_dorix", {"players": 3}),
    "dorix-4p": ("boardgames_dorix", {"players": 4}),
    "barc": ("boardgames_barc", {}),
}


def play(env, games: int, seed: int) -> dict:
    """Masked random games in the AEC loop: games, agent steps per second, returns, illegal actions."""
    rng = np.random.default_rng(seed)
    steps = illegal = 0
    returns = []
    start = time.perf_counter()
    for game in range(games):
        env.reset(seed=seed + game)
        for agent in env.agent_iter():
            _obs, _reward, termination, truncation, info = env.last()
            action = None
            if not (termination or truncation):
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                illegal += action not in env.game_state.legal_actions(env.agent_name_id_mapping[agent])
            env.step(action)
            steps += 1
        returns.extend(env.game_state.returns())  # env.rewards is empty once every agent is done
    return {
        "games": games,
        "agents": len(env.possible_agents),
        "steps_per_s": round(steps / (time.perf_counter() - start), 1),
        "min_return": float(min(returns)),
        "max_return": float(max(returns)),
        "illegal_moves": illegal,
    }


def reset_keeps_parameters_of_a_loaded_game() -> bool:
    """False while Shimmy reloads ``env=`` games by their short name on reset (dropping ``players=3``)."""
    env = OpenSpielCompatibilityV0(env=pyspiel.load_game("boardgames_dorix(players=3)"))
    try:
        env.reset(seed=0)
    except pyspiel.SpielError:
        return False
    return len(env.agents) == 3 and env.game_state.get_game().num_players() == 3


def run(games: int, max_turns: int, seed: int) -> dict:
    results = {}
    for name, (game_name, params) in CONFIGURATIONS.items():
        env = OpenSpielCompatibilityV0(game_name=game_name, config={**params, "max_turns": max_turns})
        results[name] = play(env, games, seed)
    api_test(OpenSpielCompatibilityV0(game_name="boardgames_dorix", config={"players": 3}), num_cycles=30)
    return {
        "client": "Shimmy OpenSpielCompatibilityV0",
        "configurations": results,
        "api_test_dorix_3p": "passed",
        "env_argument_keeps_parameters_on_reset": reset_keeps_parameters_of_a_loaded_game(),
        "illegal_moves": sum(r["illegal_moves"] for r in results.values()),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--games", type=int, default=5, help="random games per configuration")
    parser.add_argument("--max-turns", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("summary:", json.dumps(run(args.games, args.max_turns, args.seed)))
