"""AlphaZero training (training/alphazero): the value frames, the network and evaluator on every game,
root noise, self-play samples, the replay buffer, the learner, the command line with resume, and the
agent taking a win in one on hand-built positions of every game."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
import torch
from helpers.games import GAMES
from helpers.runs import as_flags, as_table, az_command, tiny_sets

from boardgames.envs.registry import make_game
from boardgames.envs.search import EvaluatorSearch
from boardgames.training.agent_kinds import make_agent, shipped_models
from boardgames.training.alphazero.__main__ import main
from boardgames.training.alphazero.agent import AlphaZeroAgent, parse_spec
from boardgames.training.alphazero.buffer import ReplayBuffer
from boardgames.training.alphazero.evaluator import NetworkEvaluator, absolute_values, relative_values
from boardgames.training.alphazero.learner import Learner
from boardgames.training.alphazero.network import AlphaZeroNet, load_network, save_network
from boardgames.training.alphazero.selfplay import SearchSettings, SelfPlayer
from boardgames.training.alphazero.settings import make_settings
from boardgames.training.alphazero.train import AlphaZeroRun, load_settings
from boardgames.training.settings import SettingError


def _win_in_one() -> list:
    """The hand-built win-in-one positions of tests/envs/search/test_search.py (loaded by path: the name ``tests``
    can belong to another installed package, pgx ships one)."""
    spec = importlib.util.spec_from_file_location(
        "_search_positions", Path(__file__).parents[1] / "envs" / "search" / "test_search.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.WIN_IN_ONE


WIN_IN_ONE = _win_in_one()


def small_net(game, head="linear"):
    torch.manual_seed(0)
    i = game.info
    return AlphaZeroNet(
        i.observation_shape, i.num_actions, i.num_seats, channels=8, blocks=1, head=head, value_hidden=8
    ).eval()


def test_value_frames():
    # observer 2 of 3 seats: its frame lists seats 2, 0, 1
    rel = np.array([[0.5, -1.0, 0.25]])
    assert absolute_values(rel, np.array([2])).tolist() == [[-1.0, 0.25, 0.5]]
    assert relative_values(np.array([-1.0, 0.25, 0.5]), 2).tolist() == [0.5, -1.0, 0.25]
    assert relative_values(np.array([1.0, -1.0]), 1).tolist() == [-1.0, 1.0]


@pytest.mark.parametrize("name, options", GAMES, ids=lambda v: str(v))
def test_evaluator_priors_are_a_distribution_over_the_legal_actions(name, options):
    game = make_game(name, **options)
    head = "square" if name == "adix" else "linear"
    ev = NetworkEvaluator(game, small_net(game, head))
    rng = np.random.default_rng(0)
    states = []
    for _ in range(3):
        s = game.new_initial_state()
        for _ in range(int(rng.integers(0, 8))):
            nxt = s.clone()
            nxt.apply_actions({seat: int(rng.choice(s.legal_actions(seat))) for seat in s.current_seats()})
            if nxt.is_terminal():
                break
            s = nxt
        states.append(s)
    seats = np.array([s.current_seats()[0] if game.info.acting_seats == 1 else -1 for s in states])
    priors, values = ev(np.stack([s.data for s in states]), seats)
    k = game.info.acting_seats
    assert priors.shape == (3, k, game.info.num_actions) and values.shape == (3, game.info.num_seats)
    for m, s in enumerate(states):
        for j, seat in enumerate(s.current_seats()):
            mask = s.legal_mask(seat)
            assert priors[m, j][~mask].sum() == 0 and abs(priors[m, j][mask].sum() - 1) < 1e-5
    assert (np.abs(values) <= 1).all()


def test_square_head_reads_each_squares_features():
    # ADIX: action 70 * square + j; a change on one square of the input moves only that square's logits
    game = make_game("adix")
    net = AlphaZeroNet(game.info.observation_shape, 5670, 2, channels=43, blocks=0, head="square").eval()
    net.stem = torch.nn.Identity()  # no 3x3 convolution to spread the change to the neighbours
    obs = torch.zeros(1, 9, 9, 43)
    base, _ = net(obs)
    obs[0, 2, 5, :] = 1.0  # rank 3, file f: square 2 * 9 + 5 = 23
    changed, _ = net(obs)
    moved = torch.nonzero((changed - base).abs()[0] > 1e-7).flatten().tolist()
    assert moved == list(range(70 * 23, 70 * 24))


def test_root_noise_is_seeded_and_off_at_fraction_zero():
    game = make_game("dorix", num_players=2)
    ev = NetworkEvaluator(game, small_net(game))
    state = game.new_initial_state()
    search = EvaluatorSearch(game, ev)
    plain = search.run(state, 40, seed=3).counts
    assert search.run(state, 40, seed=3, root_noise=(0.3, 0.0)).counts.sum() == plain.sum()
    a = search.run(state, 40, seed=3, root_noise=(0.3, 0.5)).counts
    b = search.run(state, 40, seed=3, root_noise=(0.3, 0.5)).counts
    assert (a == b).all() and not (a == plain).all()


@pytest.mark.parametrize("name, options", [("dorix", {"num_players": 2}), ("barc", {})], ids=["dorix", "barc"])
def test_self_play_samples(name, options):
    game = make_game(name, **options)
    player = SelfPlayer(
        game, NetworkEvaluator(game, small_net(game)), 4, SearchSettings(simulations=4, temperature_moves=4)
    )
    batch = player.play(3, np.random.default_rng(0))
    assert batch.games >= 3 and sum(batch.outcomes.values()) == batch.games
    n = batch.obs.shape[0]
    # one sample per acting seat and decision of the finished games
    assert n == sum(batch.lengths) * game.info.acting_seats
    assert np.allclose(batch.policies.sum(axis=1), 1.0)
    assert set(np.unique(batch.values)) <= {-1.0, 0.0, 1.0}
    assert (batch.values[:, 0] == -batch.values[:, 1]).all()  # two-player zero-sum, observer's frame
    assert (batch.values == batch.values[0] * [1, 1]).all() or len({tuple(v) for v in batch.values}) > 1


def test_self_play_values_follow_the_observer():
    # one Dorix 3p game: every sample's value target is the game's returns seen from its own seat
    game = make_game("dorix", num_players=3)
    player = SelfPlayer(game, NetworkEvaluator(game, small_net(game)), 1, SearchSettings(simulations=4))
    batch = player.play(1, np.random.default_rng(1))
    returns = batch.values[batch.seats == 0][0]  # seat 0's frame is the seat order
    assert set(batch.seats.tolist()) == {0, 1, 2}
    for seat, v in zip(batch.seats, batch.values):
        assert v.tolist() == [returns[(seat + j) % 3] for j in range(3)]
    assert batch.outcomes.get("truncated") or sorted(returns.tolist()) == [-1.0, -1.0, 1.0]


def test_buffer_keeps_the_top_actions_ring_order_and_saves(tmp_path):
    buf = ReplayBuffer(4, (1, 1, 1), num_actions=5, num_seats=2, width=2)
    pol = np.array([[0.1, 0.6, 0.0, 0.3, 0.0]] * 6, dtype=np.float32)
    obs = np.arange(6, dtype=np.float32).reshape(6, 1, 1, 1)
    vals = np.stack([np.arange(6), -np.arange(6)], axis=1).astype(np.float32)
    buf.add(obs[:3], pol[:3], vals[:3])
    buf.add(obs[3:], pol[3:], vals[3:])
    assert len(buf) == 4 and buf.added == 6
    assert sorted(buf.obs.ravel().tolist()) == [2.0, 3.0, 4.0, 5.0]  # the oldest two overwritten
    o, p, v = buf.sample(16, np.random.default_rng(0))
    assert np.allclose(p, [[0, 2 / 3, 0, 1 / 3, 0]])  # actions 1 and 3 kept, renormalised
    assert (v[:, 0] == o.ravel()).all() and (v[:, 1] == -o.ravel()).all()
    buf.save(tmp_path / "b.npz")
    back = ReplayBuffer(4, (1, 1, 1), 5, 2, 2)
    back.load(tmp_path / "b.npz")
    assert back.added == 6 and sorted(back.obs.ravel().tolist()) == [2.0, 3.0, 4.0, 5.0]
    with pytest.raises(ValueError, match="other shapes"):
        ReplayBuffer(4, (1, 1, 2), 5, 2, 2).load(tmp_path / "b.npz")


def test_buffer_saved_with_another_width_loads_the_same_policies(tmp_path):
    # a run resumed with other simulations has a buffer of another width (simulations + 1)
    buf = ReplayBuffer(3, (1, 1, 1), num_actions=6, num_seats=2, width=3)
    pol = np.array(
        [[0.5, 0.0, 0.3, 0.0, 0.2, 0.0], [0.0, 0.1, 0.0, 0.6, 0.0, 0.3], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]],
        dtype=np.float32,
    )
    buf.add(np.zeros((3, 1, 1, 1), np.float32), pol, np.zeros((3, 2), np.float32))
    buf.save(tmp_path / "b.npz")
    rng = np.random.default_rng(0)

    def dense(b):  # every sample's policy, in the buffer's order
        out = np.zeros((3, 6), np.float32)
        np.put_along_axis(out, b.policy_actions[:3], b.policy_shares[:3], axis=1)
        return out / out.sum(axis=1, keepdims=True)

    wider = ReplayBuffer(3, (1, 1, 1), 6, 2, width=5)
    wider.load(tmp_path / "b.npz")
    assert wider.policy_actions.shape == (3, 5)
    assert np.allclose(dense(wider), pol)  # nothing lost, nothing added
    assert np.allclose(wider.sample(8, rng)[1].sum(axis=1), 1.0)
    narrower = ReplayBuffer(3, (1, 1, 1), 6, 2, width=2)
    narrower.load(tmp_path / "b.npz")
    # the two largest shares of each row, renormalised: (0.5, 0.3), (0.6, 0.3), (1.0 and a zero)
    assert np.allclose(
        dense(narrower),
        [[5 / 8, 0, 3 / 8, 0, 0, 0], [0, 0, 0, 2 / 3, 0, 1 / 3], [0, 0, 0, 0, 1, 0]],
    )


def test_learner_fits_a_fixed_batch():
    game = make_game("dorix", num_players=2)
    net = small_net(game)
    buf = ReplayBuffer(8, game.info.observation_shape, 276, 2, 3)
    obs = np.random.default_rng(0).random((8, *game.info.observation_shape)).astype(np.float32)
    pol = np.zeros((8, 276), np.float32)
    pol[:, 5] = 1.0
    buf.add(obs, pol, np.tile([1.0, -1.0], (8, 1)).astype(np.float32))
    learner = Learner(net, learning_rate=1e-2, batch_size=8)
    first = learner.train(buf, 1, np.random.default_rng(0))
    last = learner.train(buf, 60, np.random.default_rng(0))
    assert last["policy_loss"] < first["policy_loss"] / 4 and last["value_loss"] < first["value_loss"] / 4
    logits, values = net(torch.from_numpy(obs))
    assert (logits.argmax(dim=1) == 5).all() and (values[:, 0] > 0.5).all()


def test_settings_are_checked():
    with pytest.raises(SettingError, match="unknown alphazero setting"):
        make_settings({"simulation": 3})
    with pytest.raises(SettingError, match="alphazero.simulations must be a whole number >= 1"):
        make_settings({"simulations": 0})
    with pytest.raises(SettingError, match="noise_fraction"):
        make_settings({"noise_fraction": 2})


TINY = tiny_sets()


def _sets(extra=()):
    return as_flags([*TINY, *extra])


def test_command_line_trains_checkpoints_and_resumes(tmp_path, capsys):
    run = tmp_path / "run"
    main(az_command(run, 2, "--save", str(tmp_path / "model"), *_sets()))
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 2 and info["settings"]["simulations"] == 4
    for f in ("checkpoint.pt", "buffer.npz", "latest/alphazero.pt", "strength.csv"):
        assert (run / f).exists(), f
    assert any((run / "tb").iterdir())
    rows = (run / "strength.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,opponent") and [r.split(",")[0] for r in rows[1:]] == ["0", "2"]
    added = info["samples_added"]
    # resumed: goes on to 3 iterations, keeps the buffer, applies a new learning rate and a deeper search
    # (the buffer, saved 5 actions wide, is fitted to 9: simulations + 1)
    main(az_command(run, 3, "--resume", *_sets(["alphazero.learning_rate=0.005", "alphazero.simulations=8"])))
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 3 and info["samples_added"] > added and info["settings"]["learning_rate"] == 0.005
    assert info["settings"]["simulations"] == 8
    # run.json is rewritten after every iteration, each process's command once: the first run, then the resume
    assert len(info["commands"]) == 2 and "--resume" not in info["commands"][0] and "--resume" in info["commands"][1]

    # the network cannot change on resume; unknown sections and settings are refused
    for bad, message in [
        (["alphazero.channels=8"], "network cannot change"),
        (["algo.learning_rate=1"], "AlphaZero settings are alphazero"),
        (["alphazero.nope=1"], "unknown alphazero setting"),
    ]:
        with pytest.raises(SystemExit):
            main(az_command(run, 4, "--resume", *_sets(bad)))
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--game", "olix", "--run-dir", str(tmp_path / "none"), "--resume", "--no-progress", *_sets()])
    assert "no checkpoint to resume" in capsys.readouterr().err
    # the saved folder is an agent spec, with @<simulations>
    game = make_game("dorix", num_players=2)
    agent = make_agent(f"{tmp_path / 'model'}@7", game, seed=0)
    assert isinstance(agent, AlphaZeroAgent) and agent.simulations == 7
    assert make_agent(str(tmp_path / "model"), game).simulations == 3
    assert parse_spec(str(tmp_path / "nothing")) is None
    with pytest.raises(ValueError, match="not this game"):
        make_agent(str(tmp_path / "model"), make_game("olix"))


@pytest.mark.parametrize("name, options, text, seat, wins", WIN_IN_ONE, ids=lambda v: None)
def test_agent_takes_a_win_in_one(name, options, text, seat, wins, tmp_path):
    # 2000 simulations at Barc: there e2-d3 looks as good until the decoupled search finds North's one refutation.
    # An untrained network whose value head says 0 everywhere (a random one's bias would keep PUCT on
    # its first edges): the search alone backs the game's end up and plays the win
    game = make_game(name, **options)
    net = small_net(game, "square" if name == "adix" else "linear")
    torch.nn.init.zeros_(net.value[-2].weight)
    torch.nn.init.zeros_(net.value[-2].bias)
    save_network(net, tmp_path, game=name, options=options, simulations=2000 if name == "barc" else 300)
    net, meta = load_network(tmp_path)
    agent = AlphaZeroAgent(game, net, meta["simulations"], seed=0)
    state = game.from_text(text)
    assert state.action_to_text(agent.act(state, seat), seat) in wins


def test_a_run_stopped_after_an_iteration_has_its_run_json(tmp_path):
    run = tmp_path / "run"

    class Stop(Exception):
        pass

    def stop_after_first_iteration(line):
        if line.startswith("iteration 1/"):
            raise Stop

    sets = as_table(TINY) | {"iterations": 5}
    settings = load_settings("dorix", {"num_players": 2}, sets)
    az = AlphaZeroRun("dorix", {"num_players": 2}, settings, run)
    with pytest.raises(Stop):
        az.run(progress=False, log=stop_after_first_iteration, argv=["--game", "dorix", "--iterations", "5"])
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 1 and info["commands"] == [info["command"]]
    assert info["command"].endswith("--game dorix --iterations 5")


def test_shipped_alphazero_models_load_and_beat_random():
    from boardgames.training.evaluation.evaluate import play_match

    az = [n for n in shipped_models() if n.endswith("_az")]
    for name in az:
        net, meta = load_network(shipped_models()[name])
        game = make_game(meta["game"], **meta["options"])
        agent = make_agent(f"models/{name}@16", game, seed=0)
        result = play_match(game, agent, make_agent("random", game, seed=1), 6, seed=1)
        assert result.wins >= 5, f"{name}: {result}"


def test_gumbel_self_play_takes_the_searchs_move_and_improved_policy():
    game = make_game("dorix", num_players=2)
    player = SelfPlayer(
        game, NetworkEvaluator(game, small_net(game)), 3, SearchSettings(simulations=8, gumbel=True, max_considered=4)
    )
    batch = player.play(2, np.random.default_rng(0))
    assert batch.games >= 2 and np.allclose(batch.policies.sum(axis=1), 1.0)
    # the improved policy is a softmax: every legal action keeps some weight, where 8 simulations' visit
    # shares would name 8 actions at most (a few positions, such as collapses, have fewer legal actions)
    assert ((batch.policies > 0).sum(axis=1) > 8).mean() > 0.5


def test_card_elo_of_a_score():
    from boardgames.training.alphazero.card import elo_of_score

    # 76% is the +200 Elo target: 400 * log10(0.76 / 0.24) = 200.2; even is 0; perfect scores are capped
    assert round(elo_of_score(0.76), 1) == 200.2 and elo_of_score(0.5) == 0 and elo_of_score(1.0) == 800


def test_teacher_samples_are_its_decisions_with_the_games_returns():
    from boardgames.training.alphazero.teacher import play_teacher_games, teacher_policy

    game = make_game("dorix", num_players=2)
    samples = play_teacher_games(game, "greedy", games=3, seed=1)
    n = samples.obs.shape[0]
    assert samples.games == 3 and n > 3
    assert samples.obs.shape == (n, *game.info.observation_shape)
    assert samples.policies.shape == (n, game.info.num_actions)
    np.testing.assert_allclose(samples.policies.sum(axis=1), 1.0, rtol=1e-6)
    # greedy has no explain(): each target is one-hot on the move it played
    assert ((samples.policies == 1.0).sum(axis=1) == 1).all()
    # a decided two-player game: +1 for one seat, -1 for the other, in each observer's frame
    assert set(np.unique(samples.values)) <= {-1.0, 0.0, 1.0}
    np.testing.assert_array_equal(samples.values[:, 0], -samples.values[:, 1])
    # the last decision of a decided game was the winner's (Dorix ends on the mover's alignment)
    assert samples.values[-1, 0] in (1.0, 0.0)

    # an agent that explains itself: its distribution over the legal actions is the target
    class Explains:
        def explain(self, state, seat):
            legal = np.flatnonzero(state.legal_mask(seat))
            return {int(legal[0]): 3.0, int(legal[1]): 1.0}

    state = game.new_initial_state()
    legal = np.flatnonzero(state.legal_mask(0))
    target = teacher_policy(Explains(), state, 0, int(legal[5]), game.info.num_actions)
    assert target[legal[0]] == pytest.approx(0.75) and target[legal[1]] == pytest.approx(0.25)
    assert target.sum() == pytest.approx(1.0)


def test_a_run_stopped_after_its_warm_start_has_its_run_json(tmp_path):
    run = tmp_path / "run"

    class Stop(Exception):
        pass

    def stop_at_first_measurement(*args):
        raise Stop

    teacher = {"teacher": "greedy", "teacher_games": 2, "teacher_steps": 1}
    sets = as_table(TINY) | {"iterations": 5} | teacher
    az = AlphaZeroRun("dorix", {"num_players": 2}, load_settings("dorix", {"num_players": 2}, sets), run)
    az._measure = stop_at_first_measurement  # the measurement right after the warm start
    with pytest.raises(Stop):
        az.run(progress=False, argv=["--game", "dorix"])
    info = json.loads((run / "run.json").read_text())
    assert info["iterations"] == 0 and info["teacher"]["games"] == 2 and info["samples_added"] > 0


def test_a_run_with_a_teacher_learns_from_it_once(tmp_path, capsys):
    run = tmp_path / "run"
    teacher = ["alphazero.teacher=greedy", "alphazero.teacher_games=2", "alphazero.teacher_steps=3"]
    main(az_command(run, 1, *_sets(teacher)))
    assert "teacher greedy: 2 games" in capsys.readouterr().out
    info = json.loads((run / "run.json").read_text())
    taught = info["teacher"]
    assert taught["teacher"] == "greedy" and taught["games"] == 2 and taught["samples"] > 2
    # the buffer holds the teacher's samples and the first iteration's self-play samples
    assert info["samples_added"] > taught["samples"]
    # resumed: the warm start is not played again
    main(az_command(run, 2, "--resume", *_sets(teacher)))
    assert "teacher greedy:" not in capsys.readouterr().out
    assert json.loads((run / "run.json").read_text())["teacher"] == taught
    with pytest.raises(SettingError, match="alphazero.teacher is an agent spec"):
        make_settings({"teacher": 3})


def test_card_header_says_how_the_agent_was_made():
    from boardgames.training.alphazero.card import header_rows

    settings = make_settings({"iterations": 300, "gumbel": True, "simulations": 32, "teacher_steps": 2000}).as_dict()
    run = {
        "command": "boardgames alphazero --game olix",
        "iterations": 40,
        "samples_added": 1500,
        "wall_seconds": 600,
        "settings": settings,
        "teacher": {"teacher": "sample:models/olix", "games": 400, "samples": 500},
    }
    text = "\n".join(header_rows(run, 200, "models/olix_az"))
    assert "(stopped by hand after iteration 40)" in text
    assert "| warm start | 400 games of `sample:models/olix` against itself (500 positions), 2000 gradient" in text
    assert "| iterations | 40 (1,000 positions of self-play) |" in text  # the teacher's positions not counted
    assert "Gumbel root selection (16 actions considered" in text and "Dirichlet" not in text
    assert "| plays with | 200 simulations a move (`models/olix_az@N`" in text
    # a plain PUCT run that went to its end, no warm start
    run.update(iterations=300, settings=make_settings({"iterations": 300}).as_dict(), teacher=None)
    text = "\n".join(header_rows(run, 400, "models/x"))
    assert "stopped" not in text and "warm start" not in text and "PUCT c=1.25, 64 simulations" in text
    assert "Dirichlet(0.3) x 0.25 at the root" in text
    # a regret-matching run (the simultaneous game) and the mixed play its model records
    run.update(settings=make_settings({"iterations": 300, "rule": "regret", "simulations": 1024}).as_dict())
    meta = {"rule": "regret", "gamma": 0.3, "temperature": 0.33}
    text = "\n".join(header_rows(run, 3200, "models/barc_az", meta))
    assert "| self-play | regret matching at every node (exploration share 0.3), 1024 simulations a move" in text
    assert "PUCT" not in text and "Dirichlet" not in text
    assert (
        "| plays with | 3200 simulations a move, regret matching (exploration share 0.3), its order drawn from "
        "the average strategy at temperature 0.33 (`models/barc_az@N`"
    ) in text


def test_a_target_played_on_too_few_games_says_so():
    from boardgames.training.alphazero.card import target_status

    assert target_status(230.0, 200) == "**met**" and target_status(111.0, 400) == "**missed**"
    assert target_status(230.0, 100) == "**met** on 100 games (the target asks 200)"


def test_a_saved_model_carries_its_contempt(tmp_path):
    """``"contempt"`` in a model's alphazero.json reaches the agent's search (absent: 0); a value out of
    [0, 1] is refused when the model is loaded, naming the file and the value."""
    from boardgames.training.alphazero.agent import load_agent

    game = make_game("dorix", num_players=2)
    save_network(small_net(game, "linear"), tmp_path / "plain", game="dorix", options={"num_players": 2})
    assert load_agent(str(tmp_path / "plain"), game).search.contempt == 0.0
    save_network(small_net(game, "linear"), tmp_path / "k", game="dorix", options={"num_players": 2}, contempt=0.2)
    assert load_agent(str(tmp_path / "k"), game).search.contempt == 0.2
    save_network(small_net(game, "linear"), tmp_path / "bad", game="dorix", options={"num_players": 2}, contempt=3)
    with pytest.raises(ValueError, match=r"alphazero.json: contempt must be a number in \[0, 1\], got 3"):
        load_agent(str(tmp_path / "bad"), game)


def _half_everywhere_net(game):
    """A small network whose value head says 0.5 for every seat in every position (zero weights, bias
    atanh(0.5)), so that a search's root value is 0.5 unless the game's end (0) is in its tree."""
    net = small_net(game, "square" if game.info.name == "adix" else "linear")
    torch.nn.init.zeros_(net.value[-2].weight)
    torch.nn.init.constant_(net.value[-2].bias, float(np.arctanh(0.5)))
    return net


@pytest.mark.parametrize("truncated_value", ["zero", "search"])
def test_value_targets_of_games_cut_at_the_turn_limit(truncated_value):
    """ADIX cut at 12 turns, searched 4 simulations a move: every game is truncated. "zero" gives its
    samples 0 (a draw); "search" each sample's root value, 0.5 for both seats (the network's) where the
    limit was beyond the search's tree, between 0 and 0.5 near the end, never the draw's 0 at the start."""
    game = make_game("adix", max_turns=12)
    settings = SearchSettings(simulations=4, temperature_moves=4, truncated_value=truncated_value)
    player = SelfPlayer(game, NetworkEvaluator(game, _half_everywhere_net(game)), 2, settings)
    batch = player.play(2, np.random.default_rng(0))
    assert batch.outcomes == {"truncated": batch.games} and batch.lengths == [12] * batch.games
    if truncated_value == "zero":
        assert (batch.values == 0).all()
        return
    first = batch.values.reshape(batch.games, 12, 2)[:, :6]  # 4 simulations reach at most 4 turns ahead
    assert np.allclose(first, 0.5)
    assert ((batch.values >= 0) & (batch.values <= 0.5 + 1e-6)).all() and (batch.values < 0.5 - 1e-6).any()


def test_games_in_flight_keep_their_root_values(tmp_path):
    """A checkpoint's games in flight keep each decision's root value (a game cut at the limit after the
    resume still has them); a file written before they were kept loads with 0."""
    game = make_game("adix", max_turns=12)
    settings = SearchSettings(simulations=4, truncated_value="search")
    player = SelfPlayer(game, NetworkEvaluator(game, _half_everywhere_net(game)), 1, settings)
    player.play(1, np.random.default_rng(0))  # its one game cut at turn 12: no game in flight
    assert player.pending == [[]]
    obs, policy = np.zeros(game.info.observation_shape, np.float32), np.eye(game.info.num_actions)[7]
    player.pending[0] = [
        (0, obs, policy, np.array([0.25, 0.5], np.float32)),
        (1, obs, policy, np.array([-1, 1], np.float32)),
    ]
    player.save(tmp_path / "games.npz")
    again = SelfPlayer(game, NetworkEvaluator(game, _half_everywhere_net(game)), 1, settings)
    again.load(tmp_path / "games.npz")
    assert [e[3].tolist() for e in again.pending[0]] == [e[3].tolist() for e in player.pending[0]]
    with np.load(tmp_path / "games.npz") as data:
        old = {k: data[k] for k in data.files if k != "root_value"}
    np.savez(tmp_path / "old.npz", **old)
    again.load(tmp_path / "old.npz")
    assert all((e[3] == 0).all() for e in again.pending[0]) and len(again.pending[0]) == len(player.pending[0])


def test_truncated_value_setting_is_checked():
    with pytest.raises(SettingError, match="alphazero.truncated_value is 'zero' or 'search', got 'draw'"):
        make_settings({"truncated_value": "draw"})
    assert SearchSettings.of(make_settings({"truncated_value": "search"})).truncated_value == "search"
