"""A short training run completes, saves checkpoints, reloads and resumes; evaluation runs on it."""

import json

from helpers.runs import PPO_SMALL, as_flags, ppo_command, ppo_train

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import ModelAgent, make_agent
from boardgames.training.evaluation.evaluate import play_match, round_robin, save_results
from boardgames.training.sb3.train import main, train
from boardgames.training.settings import load_config

SMALL = [
    *PPO_SMALL,
    "train.checkpoint_every=512",
    "train.snapshot_every=512",
    "algo.net_arch=[32, 32]",
    "train.eval_every=0",
]


def test_short_run_saves_reloads_and_resumes(tmp_path):
    run = tmp_path / "run"
    model, out = ppo_train(run, 1024, SMALL, seed=3, save=str(tmp_path / "shipped" / "model.zip"))
    assert model.num_timesteps >= 1024
    assert (run / "final.zip").exists() and (tmp_path / "shipped" / "model.zip").exists()
    checkpoints = sorted((run / "checkpoints").glob("model_*_steps.zip"))
    assert checkpoints, "no periodic checkpoint"
    assert any((run / "tb").rglob("events.out.tfevents*")), "no TensorBoard log"
    info = json.loads((run / "run.json").read_text())
    assert info["steps"] == model.num_timesteps and info["wall_time_s"] > 0

    game = make_game("dorix", num_players=2)
    agent = ModelAgent(tmp_path / "shipped")
    result = play_match(game, agent, make_agent("random", game), games=4, seed=0)
    assert result.games == 4

    main(ppo_command(run, 1536, "--seed", "3", "--resume", str(checkpoints[-1]), *as_flags(SMALL)))
    resumed = json.loads((run / "run.json").read_text())
    assert resumed["steps"] >= 1536
    assert len(resumed["commands"]) == 2
    assert ModelAgent(run / "final.zip").model.num_timesteps == resumed["steps"]


def test_an_algorithm_without_masks_trains_and_plays_legal_moves(tmp_path):
    # plain PPO never sees the masks: its illegal choices are replaced by random legal actions while it
    # trains (SingleAgentEnv(illegal_actions="random")), and restricted to the legal ones when it plays
    run = tmp_path / "ppo"
    model, _ = train(
        "olix", {}, total_steps=512, seed=0, run_dir=str(run), progress_bar=False, sets=[*SMALL, "train.algorithm=ppo"]
    )
    assert type(model).__name__ == "PPO" and model.num_timesteps >= 512
    game = make_game("olix")
    agent = make_agent(str(run / "final.zip"), game)  # loaded by whichever algorithm saved it
    assert type(agent.model).__name__ == "PPO" and not agent.masked
    state = game.new_initial_state()
    for _ in range(10):
        state.apply(agent(state, state.current_seat))  # apply() checks legality
    result = play_match(game, agent, make_agent("random", game), games=2, seed=0)
    assert result.games == 2


def test_config_overrides_by_player_count_and_set():
    cfg = load_config("dorix", {"num_players": 4}, sets=["algo.learning_rate=1e-4", "train.n_envs=3"])
    assert cfg["algo"]["learning_rate"] == 1e-4 and cfg["train"]["n_envs"] == 3
    assert cfg["opponents"]["random"] == 2.0  # the num_players=4 override
    assert load_config("dorix", {"num_players": 2})["opponents"]["random"] == 1.0


def test_round_robin_table_elo_and_files(tmp_path):
    game = make_game("dorix", num_players=3)
    results, elo = round_robin(game, ["greedy", "random"], games=6, seed=0, show_progress=False)
    (r,) = results
    assert r.games == 6 and r.wins + r.draws + r.losses == 6
    assert elo["random"] == 0 and elo["greedy"] > 0
    save_results(tmp_path, results, elo, "test")
    assert (tmp_path / "results.csv").read_text().startswith("agent_a,agent_b,games")
    assert (tmp_path / "results.png").stat().st_size > 0


def test_demo_trains_evaluates_and_prints_the_table(tmp_path, capsys):
    from boardgames.training.demo import main as demo

    demo(["--steps", "1024", "--games", "4", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "trained               random" in out and "trained               greedy" in out
    assert "Elo" in out and (tmp_path / "results.csv").exists() and (tmp_path / "final.zip").exists()


def test_results_plot_with_perfect_scores(tmp_path):
    from boardgames.training.evaluation.evaluate import PairResult

    results = [PairResult("a", "b", wins=100), PairResult("a", "c", losses=100), PairResult("b", "c", draws=5)]
    save_results(tmp_path, results, {"a": 0.0, "b": -100.0, "c": 100.0}, "perfect scores")  # no negative error bar
    assert (tmp_path / "results.png").stat().st_size > 0
