"""``boardgames train`` learns on the batched, compiled path (BatchedVecEnv over LearnerBatch) with the same
opponents as SelfPlayEnv: the pool's random, greedy and snapshot agents drawn per game and episode, the
latest snapshot as the partner at team games; the same files written; policies acting on observations."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch
from helpers.runs import PPO_SMALL, ppo_train
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from boardgames.envs.agents import GreedyAgent
from boardgames.envs.registry import make_game
from boardgames.envs.vector.sb3 import BatchedVecEnv
from boardgames.training.sb3 import selfplay
from boardgames.training.sb3.agent import PolicyAgent, draw_rows
from boardgames.training.sb3.algorithms import get_algorithm
from boardgames.training.sb3.selfplay import OpponentPool, PoolOpponent, SelfPlayEnv, SnapshotCallback
from boardgames.training.sb3.train import make_vec_env
from boardgames.training.settings import load_config

SMALL = [
    "train.batched=true",
    *PPO_SMALL,
    "train.checkpoint_every=512",
    "train.snapshot_every=512",
    "algo.net_arch=[32, 32]",
]


@pytest.fixture(autouse=True)
def one_torch_thread():
    torch.set_num_threads(1)


def _venv(options: dict, weights: dict, n: int = 6, seed: int = 0, illegal_action: str = "raise"):
    """The trainer's VecEnv for Dorix with the pool weights ``weights`` (the others 0)."""
    sets = SMALL + [f"opponents.{k}={weights.get(k, 0.0)}" for k in ("random", "greedy", "snapshot")]
    cfg = load_config("dorix", options, sets=sets)
    return make_vec_env("dorix", options, cfg, seed, n, illegal_action=illegal_action), cfg


def _policy(venv, cfg):
    """A fresh MaskablePPO policy for ``venv`` (what SnapshotCallback copies into the pool)."""
    model = get_algorithm("maskable_ppo").build(venv, dict(cfg["algo"]), 0, None)
    model.policy.set_training_mode(False)
    return model.policy


def _record_moves(monkeypatch):
    """Every call of selfplay.agent_actions as (agent, moves), a move as a SimpleNamespace of the position
    before it (``state``), ``seat``, ``action``, ``row`` and, when it was asked, its game's ``learner`` seat
    and ``opponent`` for the episode."""
    calls = []
    play = selfplay.agent_actions

    def recording(agent, batch, rows, seats, obs, masks, rng):
        moves = [
            SimpleNamespace(
                state=batch.state(int(row)),
                seat=int(seat),
                row=int(row),
                learner=int(batch.learner[row]),
                opponent=batch.opponent.opponents[row],
            )
            for row, seat in zip(rows, seats)
        ]
        actions = play(agent, batch, rows, seats, obs, masks, rng)
        for move, action in zip(moves, actions):
            move.action = int(action)
        calls.append((agent, moves))
        return actions

    monkeypatch.setattr(selfplay, "agent_actions", recording)
    return calls


def _play(venv, steps: int, seed: int = 0) -> int:
    """Step ``venv`` with seeded random legal learner actions; the number of episodes ended."""
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        _, _, dones, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        ended += int(dones.sum())
    return ended


def test_the_trainer_learns_on_a_monitored_batch_with_the_pool_and_the_illegal_action_rule():
    venv, _ = _venv({"num_players": 2}, {"random": 1, "greedy": 1, "snapshot": 1})
    assert isinstance(venv, VecMonitor) and isinstance(venv.venv, BatchedVecEnv)
    batch = venv.venv.batch
    assert isinstance(batch.opponent, PoolOpponent) and batch.illegal_action == "raise"
    assert batch.opponent.pool.weights == {"random": 1.0, "greedy": 1.0, "snapshot": 1.0}
    assert batch.opponent.pool.max_snapshots == 5
    unmasked, _ = _venv({"num_players": 2}, {"random": 1}, illegal_action="random")  # plain PPO's rule
    assert unmasked.venv.batch.illegal_action == "random"


def test_with_a_pool_of_greedy_only_every_opponent_move_is_a_greedy_choice(monkeypatch):
    calls = _record_moves(monkeypatch)
    venv, _ = _venv({"num_players": 2}, {"greedy": 1})
    venv.reset()
    assert _play(venv, 40) > 0
    greedy = GreedyAgent(make_game("dorix", num_players=2))
    moves = [m for agent, ms in calls for m in ms if agent is venv.venv.batch.opponent.pool.greedy]
    assert len(moves) == sum(len(ms) for _, ms in calls) >= 100
    for m in moves:
        assert m.action in greedy.choices(m.state, m.seat)


def test_the_pool_draws_one_opponent_per_game_and_episode(monkeypatch):
    calls = _record_moves(monkeypatch)
    venv, _ = _venv({"num_players": 2}, {"random": 1, "greedy": 1}, n=8)
    venv.reset()
    opponent = venv.venv.batch.opponent
    pool, batch = opponent.pool, venv.venv.batch
    drawn = [a.name for a in opponent.opponents]
    rng = np.random.default_rng(0)
    for _ in range(300):
        before = opponent.opponents.copy()
        calls.clear()
        masks = np.stack(venv.env_method("action_masks"))
        venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        restarted = set(np.flatnonzero(batch.restarted).tolist())
        for row in set(range(8)) - restarted:  # a game that goes on keeps its opponent
            assert opponent.opponents[row] is before[row]
        drawn += [opponent.opponents[row].name for row in restarted]
        for agent, moves in calls:  # each move is made by its game's opponent of the episode
            assert all(agent is m.opponent for m in moves)
            if agent is pool.greedy:
                assert all(m.action in GreedyAgent(batch.game).choices(m.state, m.seat) for m in moves)
    assert set(drawn) == {"random", "greedy"} and len(drawn) >= 100
    assert 0.35 < drawn.count("greedy") / len(drawn) < 0.65  # equal weights


def test_snapshots_added_through_env_method_play_once_games_restart(monkeypatch):
    calls = _record_moves(monkeypatch)
    venv, cfg = _venv({"num_players": 2}, {"snapshot": 1}, n=4)
    venv.reset()
    pool = venv.venv.batch.opponent.pool
    assert not pool.snapshots and all(a is pool.random for a in venv.venv.batch.opponent.opponents)
    policy = _policy(venv, cfg)
    venv.env_method("add_snapshot", policy)  # what SnapshotCallback calls: one snapshot for the 4 games
    assert len(pool.snapshots) == 1 and pool.snapshots[0].policy is policy
    venv.reset()
    calls.clear()
    assert _play(venv, 30) > 0
    assert calls and all(agent is pool.snapshots[0] for agent, _ in calls)
    assert all(m.state.legal_mask(m.seat)[m.action] for _, moves in calls for m in moves)


def test_the_partner_at_team_games_is_the_latest_snapshot(monkeypatch):
    calls = _record_moves(monkeypatch)
    venv, cfg = _venv({"num_players": 4}, {"random": 1}, n=6)
    pool = venv.venv.batch.opponent.pool
    venv.reset()
    venv.env_method("add_snapshot", _policy(venv, cfg))
    venv.env_method("add_snapshot", _policy(venv, cfg))
    venv.reset()
    calls.clear()
    _play(venv, 40)
    teams = make_game("dorix", num_players=4).info.teams
    partner = opponent = 0
    for agent, moves in calls:
        for m in moves:
            if teams[m.seat] == teams[m.learner]:
                assert agent is pool.snapshots[-1]
                partner += 1
            else:
                assert agent is pool.random
                opponent += 1
    assert partner > 20 and opponent > 40


def test_with_the_same_opponent_moves_both_paths_train_the_same_weights(monkeypatch):
    """MaskablePPO learns bit-identical weights on the batch and on the former DummyVecEnv of SelfPlayEnvs when
    what is drawn at random in the environments is the same in both (the greedy agent breaking its ties by the
    lowest action, the learner's seat fixed): the batch changes how the games are stepped, not what the
    learner experiences or how SB3 takes it in."""

    def lowest_greedy_choice(self, state, seat):
        return min(self.choices(state, seat))

    monkeypatch.setattr(GreedyAgent, "act", lowest_greedy_choice)
    monkeypatch.setattr(GreedyAgent, "__call__", lowest_greedy_choice)
    weights = {"random": 0.0, "greedy": 1.0, "snapshot": 0.0}
    options = {"num_players": 2}
    game = make_game("dorix", **options)
    cfg = load_config("dorix", options, sets=SMALL)

    def former_env():
        return Monitor(SelfPlayEnv("dorix", options, weights=weights, learner_seat=1))

    former = DummyVecEnv([former_env for _ in range(4)])
    pool = PoolOpponent(OpponentPool(game, weights))
    batched = VecMonitor(BatchedVecEnv(game, 4, opponent=pool, learner_seat=1, seed=0, illegal_action="raise"))
    weights_learned, episodes = [], []
    for env in (former, batched):
        model = get_algorithm("maskable_ppo").build(env, dict(cfg["algo"]), 0, None)
        model.learn(1024)
        weights_learned.append(torch.cat([p.detach().flatten() for p in model.policy.parameters()]))
        episodes.append([(e["r"], e["l"]) for e in model.ep_info_buffer])
    assert len(episodes[0]) > 20 and episodes[0] == episodes[1]
    assert torch.equal(weights_learned[0], weights_learned[1])


def test_a_seeded_batch_with_the_pool_plays_the_same_games():
    def trajectory(seed):
        venv, _ = _venv({"num_players": 2}, {"random": 1, "greedy": 1}, n=4, seed=seed)
        venv.seed(seed)
        out = [venv.reset()]
        rng = np.random.default_rng(0)
        for _ in range(40):
            masks = np.stack(venv.env_method("action_masks"))
            out.append(venv.step(np.array([np.flatnonzero(m)[rng.integers(m.sum())] for m in masks]))[0])
        return np.stack(out)

    assert np.array_equal(trajectory(3), trajectory(3))
    assert not np.array_equal(trajectory(3), trajectory(4))


def test_a_tiny_run_writes_the_files_of_the_single_env_trainer_and_one_snapshot_per_callback(tmp_path):
    run = tmp_path / "run"
    sets = [*SMALL, "train.eval_every=512", "train.eval_games=2"]
    model, _ = ppo_train(run, 1024, sets, seed=3, save=str(tmp_path / "ship" / "model.zip"))
    files = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    tb = [f for f in files if "tfevents" in f]
    assert len(tb) == 1 and tb[0].startswith("run/tb/run_1/")
    # the set SelfPlayEnv's trainer wrote for this run (before the trainer moved onto the batch)
    assert [f for f in files if "tfevents" not in f] == [
        "run/checkpoints/model_1024_steps.json",
        "run/checkpoints/model_1024_steps.zip",
        "run/checkpoints/model_512_steps.json",
        "run/checkpoints/model_512_steps.zip",
        "run/final.json",
        "run/final.zip",
        "run/results.png",
        "run/run.json",
        "run/strength.csv",
        "ship/model.zip",
        "ship/run.json",
    ]
    # SB3's episode log (ep_rew_mean) is fed by the VecMonitor, as by each Monitor before
    assert model.ep_info_buffer and {e["r"] for e in model.ep_info_buffer} <= {-1.0, 0.0, 1.0}
    # SnapshotCallback at steps 0, 512 and 1024: one snapshot each in the one pool of the two games
    assert len(model.get_env().venv.batch.opponent.pool.snapshots) == 3


def test_snapshot_callback_calls_env_method_once_per_snapshot():
    class Env:  # a VecEnv of 3 environments, recording env_method's calls
        num_envs = 3

        def __init__(self):
            self.calls = []

        def env_method(self, name, *args, indices=None):
            self.calls.append((name, indices))

    class Policy(torch.nn.Linear):
        def set_training_mode(self, mode: bool) -> None:
            pass

    env = Env()
    callback = SnapshotCallback(10)
    callback.model = SimpleNamespace(policy=Policy(2, 2), get_env=lambda: env)
    callback._snapshot()
    assert env.calls == [("add_snapshot", None)]  # every environment once (indices=None), not index by index


def test_policy_agent_acts_on_observations_as_it_acts_on_states():
    venv, cfg = _venv({"num_players": 2}, {"random": 1}, n=8)
    obs = venv.reset()
    masks = np.stack(venv.env_method("action_masks"))
    policy = _policy(venv, cfg)
    batch = venv.venv.batch
    arg_max = PolicyAgent(policy, deterministic=True)
    chosen = arg_max.act_observations(obs, masks)
    for i in range(8):
        assert chosen[i] == arg_max.act(batch.state(i), int(batch.learner[i]))
    sampler = PolicyAgent(policy, deterministic=False)
    rows = np.repeat(obs[:1], 4000, axis=0)
    draws = sampler.act_observations(rows, np.repeat(masks[:1], 4000, axis=0), np.random.default_rng(0))
    probs = sampler._legal_probs(obs[0], masks[0])
    probs /= probs.sum()
    assert masks[0][draws].all()
    counts = np.bincount(draws, minlength=len(probs)) / len(draws)
    assert np.abs(counts - probs).max() < 0.03  # the policy's distribution over the legal actions


def test_draw_rows_draws_in_proportion_to_the_weights():
    weights = np.array([[0, 1, 0, 3], [2, 0, 0, 0], [0, 0, 5, 5]], dtype=float)
    draws = np.stack([draw_rows(weights, np.random.default_rng(s)) for s in range(3000)])
    assert set(draws[:, 0]) == {1, 3} and set(draws[:, 1]) == {0} and set(draws[:, 2]) == {2, 3}
    assert abs((draws[:, 0] == 3).mean() - 0.75) < 0.03 and abs((draws[:, 2] == 2).mean() - 0.5) < 0.03
