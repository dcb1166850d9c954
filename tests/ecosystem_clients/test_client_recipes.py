"""The Tianshou and AgileRL recipes of examples/ecosystem/, run in-process with tiny settings (the
process imports each client once, and Tianshou's replay buffer compiles its numba functions once).
Each run must finish with every move legal (the environments raise on an illegal one), every
evaluation game counted as won, drawn or lost, and its ``summary:`` line printed; the limits the
docstrings name (masks in the infos for IPPO) are checked as written. ``make test-clients`` runs them
in .venv-clients; elsewhere they skip (conftest.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest


def summary_line(printed: str) -> dict:
    lines = [line for line in printed.splitlines() if line.startswith("summary: ")]
    assert lines, f"no summary line in:\n{printed[-2000:]}"
    return json.loads(lines[-1].removeprefix("summary: "))


def check_run(figures: dict, printed: str, steps: int, eval_games: int) -> None:
    assert summary_line(printed) == figures
    assert figures["steps"] >= steps and figures["steps_per_second"] > 0
    assert figures["illegal_moves"] == 0
    assert figures["wins"] + figures["draws"] + figures["losses"] == eval_games


# ---- Tianshou: PettingZooEnv (AEC), MultiAgentOffPolicyAlgorithm, a DQN against random players


def test_tianshou_env_reads_our_dict_observation_and_mask(tianshou_recipe):
    from boardgames.envs import dorix_v0

    env = tianshou_recipe.make_env("dorix", 2)
    obs, _ = env.reset(seed=3)
    plain = dorix_v0.env()
    plain.reset(seed=3)
    ours = plain.observe(plain.agent_selection)
    assert obs["agent_id"] == plain.agent_selection
    np.testing.assert_array_equal(obs["obs"], ours["observation"])
    np.testing.assert_array_equal(np.asarray(obs["mask"]), ours["action_mask"] == 1)


@pytest.mark.parametrize(
    "flags",
    [
        ["--steps", "400", "--eval-games", "4"],
        ["--game", "barc", "--steps", "200", "--eval-games", "4"],  # the simultaneous duel in its AEC form
        ["--players", "3", "--seat", "2", "--steps", "200", "--eval-games", "4"],
    ],
    ids=["dorix", "barc-aec", "dorix-3p"],
)
def test_tianshou_dqn_trains_and_plays_random_with_legal_moves_only(tianshou_recipe, capsys, flags):
    figures = tianshou_recipe.main(flags)
    steps, games = int(flags[flags.index("--steps") + 1]), int(flags[flags.index("--eval-games") + 1])
    check_run(figures, capsys.readouterr().out, steps, games)


# ---- AgileRL: self-play DQN over the AEC loop, IPPO on Barc's parallel_env with the mask in the infos


@pytest.mark.parametrize(
    "flags",
    [["dqn", "--steps", "500", "--eval-games", "6"], ["dqn", "--players", "4", "--steps", "300", "--eval-games", "4"]],
    ids=["dorix", "dorix-4p"],
)
def test_agilerl_self_play_dqn_with_legal_moves_only(agilerl_recipe, capsys, flags):
    figures = agilerl_recipe.main(flags)
    steps, games = int(flags[flags.index("--steps") + 1]), int(flags[flags.index("--eval-games") + 1])
    check_run(figures, capsys.readouterr().out, steps, games)


def test_agilerl_ippo_on_barc_with_the_mask_in_the_infos(agilerl_recipe, capsys):
    figures = agilerl_recipe.main(["ippo", "--steps", "256", "--eval-games", "4"])
    check_run(figures, capsys.readouterr().out, 256, 4)


def test_mask_in_info_wrapper_and_ippo_refusing_a_mask_in_the_observation(agilerl_recipe):
    from agilerl.algorithms import IPPO

    from boardgames.envs import barc_v1

    plain = barc_v1.parallel_env()
    wrapped = agilerl_recipe.MaskInInfo(barc_v1.parallel_env())
    ours, _ = plain.reset(seed=5)
    obs, infos = wrapped.reset(seed=5)
    for agent in plain.possible_agents:
        assert wrapped.observation_space(agent).shape == (ours[agent]["observation"].size,)
        np.testing.assert_array_equal(obs[agent], ours[agent]["observation"].reshape(-1))
        np.testing.assert_array_equal(infos[agent]["action_mask"], ours[agent]["action_mask"])

    agents = wrapped.possible_agents
    ippo = IPPO(
        observation_spaces=[wrapped.observation_space(a) for a in agents],
        action_spaces=[wrapped.action_space(a) for a in agents],
        agent_ids=agents,
        net_config={"encoder_config": {"hidden_size": [16]}},
    )
    with_mask = {a: {"observation": obs[a][None], "action_mask": ours[a]["action_mask"][None]} for a in agents}
    with pytest.raises(AssertionError, match="information dictionary"):
        ippo.get_action(obs=with_mask)
