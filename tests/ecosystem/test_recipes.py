"""Every recipe of examples/ecosystem/ runs as a user would run it (a subprocess with its quick flags) and prints a
summary that holds what its docstring says: no illegal move chosen through the client's masks, returns within
[-1, 1], games finished, and the limits it names (what the client refuses) still as written. A missing client
skips its test, or fails it under ``BOARDGAMES_REQUIRE_CLIENTS=1`` (conftest.py's ``require``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECIPES = Path(__file__).resolve().parents[2] / "examples" / "ecosystem"
TIMEOUT_S = 300  # each recipe's quick run takes 5 to 25 s on 2 cores


def run_recipe(script: str, *flags: str) -> dict:
    """Run ``examples/ecosystem/<script>`` with ``flags``; the JSON of its ``summary:`` line."""
    done = subprocess.run(
        [sys.executable, str(RECIPES / script), *flags], capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    lines = [line for line in done.stdout.splitlines() if line.startswith("summary: ")]
    assert lines, f"{script} printed no summary line:\n{done.stdout[-2000:]}"
    return json.loads(lines[-1].removeprefix("summary: "))


def within_one(value) -> bool:
    return value is not None and -1.0 <= value <= 1.0


SUPERSUIT_SEED_0 = {  # --steps 200 --games 8 --seed 0: (games finished, player_0's mean return), as docs/ecosystem.md
    "barc": (78, -0.064),
    "dorix": (25, 0.12),
    "dorix-4p": (29, -0.103),
    "olix": (16, -0.312),
    "adix": (2, 0.0),
}
"""The seeded figures of the SuperSuit recipe: masked random play, one generator, so the same games each run."""


def test_supersuit_batches_barc_and_the_turn_based_games_and_names_what_it_refuses(require):
    require("supersuit", "ecosystem")
    steps, games = 200, 8
    s = run_recipe("supersuit_vector.py", "--steps", str(steps), "--games", str(games), "--seed", "0")
    assert s["illegal_moves"] == 0
    assert 0 < s["games_finished"] <= steps * games // 2  # a Barc game takes more than one step
    assert within_one(s["mean_return_player_0"])
    assert (s["games_finished"], s["mean_return_player_0"]) == SUPERSUIT_SEED_0["barc"]
    # turn_based_aec_to_parallel: Dorix (2 and 4 players), Olix and ADIX batched by SuperSuit
    assert set(s["turn_based"]) == {"dorix", "dorix-4p", "olix", "adix"}
    for name, played in s["turn_based"].items():
        assert played["illegal_moves"] == 0 and played["one_seat_acts_per_game"], name
        assert played["agents"] == (4 if name == "dorix-4p" else 2), name
        assert 0 < played["games_finished"] <= steps * games // 2 and within_one(played["mean_return_player_0"]), name
        assert played["moves_per_s"] > 0, name
        assert (played["games_finished"], played["mean_return_player_0"]) == SUPERSUIT_SEED_0[name], name
    for name, played in s["pettingzoo_utilities"].items():
        assert played["agent_steps"] > 0 and played["illegal_moves"] == 0, name
    probes = s["turn_based_dorix"]
    for name in (
        "ss.clip_reward_v0",
        "turn_based_aec_to_parallel",
        "ss.pettingzoo_env_to_vec_env_v1(turn_based_aec_to_parallel(env))",
    ):
        assert probes[name] == "ok", name
    refused = [
        "aec_to_parallel",
        "ss.pettingzoo_env_to_vec_env_v1(aec_to_parallel(env))",
        "ss.frame_stack_v1",
        "ss.flatten_v0",
    ]
    for name in refused:  # if one now works, the recipe's docstring and docs/ecosystem.md must say so
        assert probes[name].startswith("refused"), f"{name} now takes the turn-based game: {probes[name]}"


def test_cleanrl_style_ppo_samples_only_legal_moves_from_the_vector_masks(require):
    require("torch", "train")
    s = run_recipe("cleanrl_ppo.py", "--total-steps", "2048", "--num-envs", "16", "--eval-games", "50")
    assert s["steps"] == 2048
    assert s["illegal_moves"] == 0
    assert s["episodes"] > 0 and within_one(s["mean_return"])
    assert 0.0 <= s["win_rate_vs_random"] <= 1.0


def test_sb3_maskable_ppo_with_eval_callback_and_batched_vecenv(require):
    require("sb3_contrib", "train")
    s = run_recipe("sb3_maskable_ppo.py", "--steps", "512", "--num-envs", "32", "--eval-games", "20")
    assert s["illegal_moves"] == 0
    assert within_one(s["eval_best_mean_reward"])  # -inf: the eval callback never evaluated
    assert s["episodes"] == 20 and within_one(s["mean_return"])
    assert 0.0 <= s["win_rate_vs_random"] <= 1.0
    assert s["steps_per_s_single_env"] > 0 and s["steps_per_s_batched_vecenv"] > 0


@pytest.mark.parametrize(
    "flags",
    [["--game", "dorix"], ["--game", "barc", "--episodes", "8", "--eval-games", "8"]],
    ids=["dorix", "barc-simultaneous"],
)
def test_openspiel_dqn_policy_gradient_and_mcts_through_rl_environment(require, flags):
    require("pyspiel", "openspiel")
    require("tree", "openspiel")  # dm-tree: OpenSpiel's PyTorch DQN imports it
    s = run_recipe("openspiel_algorithms.py", *flags)
    assert s["game"] == f"boardgames_{flags[1]}"
    assert s["illegal_moves"] == 0
    assert s["steps"] > 0 and s["steps_per_s_dqn"] > 0
    assert 0.0 <= s["dqn_win_rate_vs_random"] <= 1.0 and 0.0 <= s["pg_win_rate_vs_random"] <= 1.0
    assert within_one(s["mcts_mean_return_vs_random"])


def test_shimmy_plays_every_player_count_and_its_reset_drops_the_parameters_of_a_loaded_game(require):
    require("shimmy", "ecosystem")
    require("pyspiel", "openspiel")
    s = run_recipe("shimmy_openspiel.py", "--games", "3")
    agents = {"dorix-2p": 2, "dorix-3p": 3, "dorix-4p": 4, "barc": 2}
    assert set(s["configurations"]) == set(agents)
    for name, played in s["configurations"].items():
        assert played["agents"] == agents[name] and played["games"] == 3, name
        assert played["illegal_moves"] == 0, name
        assert within_one(played["min_return"]) and within_one(played["max_return"]), name
    assert s["api_test_dorix_3p"] == "passed"
    # if Shimmy now keeps them, config= is no longer the only way: update the recipe and docs/ecosystem.md
    assert s["env_argument_keeps_parameters_on_reset"] is False


def test_torchrl_collector_with_masked_policy_on_3_player_dorix_and_barc(require):
    require("torchrl", "ecosystem")
    s = run_recipe("torchrl_collector.py", "--game", "dorix", "--players", "3", "--frames", "300")
    dorix, barc = s["games"]["dorix"], s["games"]["barc"]
    assert dorix["groups"] == {f"player_{k}": [f"player_{k}"] for k in range(3)}  # AEC: one group per agent
    assert barc["groups"] == {"player": ["player_0", "player_1"]}  # Parallel: both seats in one group
    for name, played in s["games"].items():
        assert played["frames"] == 300 and played["illegal_moves"] == 0, name
        if played["games_finished"]:
            assert within_one(played["min_return"]) and within_one(played["max_return"]), name
    assert barc["games_finished"] > 0
