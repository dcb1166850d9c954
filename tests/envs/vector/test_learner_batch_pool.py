"""LearnerBatch's opponent objects (the BatchOpponent protocol): told which games restart, asked for the moves
with each pair's game and seat; the same games as the plain callback when they play alike; seeded; pickled;
and BatchedVecEnv hands their methods to SB3's env_method once."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from boardgames.envs.registry import game_names, make_game
from boardgames.envs.vector import LearnerBatch
from boardgames.envs.vector.batch import is_batch_opponent
from boardgames.envs.vector.sb3 import BatchedVecEnv

CASES = [(name, {}) for name in game_names()] + [("dorix", {"num_players": 4}), ("dorix", {"num_players": 3})]


def lowest_legal(obs, masks):
    """The plain callback: each seat's lowest legal action."""
    return masks.argmax(axis=1)


class Recorder:
    """A BatchOpponent playing the lowest legal action, checking what it is given against the positions and
    recording what it is told (``assigned``: the rows of each ``assign`` call; ``asked``: the pairs)."""

    def __init__(self, draw: bool = False):
        self.draw = draw  # play a uniformly random legal action from the batch's generator instead
        self.assigned: list[np.ndarray] = []
        self.asked = 0
        self.seat_at_start: dict[int, int] = {}

    def assign(self, batch, rows, rng):
        for i in rows:
            # a fresh game, its learner seat drawn, nobody moved yet
            assert np.array_equal(batch.states[i], batch.template)
            self.seat_at_start[int(i)] = int(batch.learner[i])
        self.assigned.append(np.array(rows))

    def actions(self, batch, rows, seats, obs, masks, rng):
        assert len(rows) == len(seats) == len(obs) == len(masks) > 0
        for k, (i, seat) in enumerate(zip(rows, seats)):
            state = batch.state(int(i))
            assert seat != batch.learner[i] and seat in state.current_seats()
            assert batch.learner[i] == self.seat_at_start[int(i)]  # assigned since the game began
            assert np.array_equal(masks[k], state.legal_mask(int(seat)))
            assert np.array_equal(obs[k], state.observation(int(seat)))
        self.asked += len(rows)
        if self.draw:
            return np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        return masks.argmax(axis=1)


def _steps(batch, steps: int, seed: int = 0):
    """Step ``batch`` with seeded random legal learner actions; yield after each step."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in batch.bool_masks()]))
        yield


@pytest.mark.parametrize("name,options", CASES)
def test_an_opponent_object_plays_the_games_the_plain_callback_plays(name, options):
    game = make_game(name, **options)
    recorder = Recorder()
    a = LearnerBatch(game, 6, opponent=recorder, seed=4)
    b = LearnerBatch(game, 6, opponent=lowest_legal, seed=4)
    assert np.array_equal(a.reset(), b.reset()) and np.array_equal(a.learner, b.learner)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(300):  # ADIX's first games end after about 150 steps
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in a.masks])
        a.step(actions)
        b.step(actions)
        for field in ("obs", "masks", "rewards", "terminated", "truncated", "restarted", "final_obs", "learner"):
            assert np.array_equal(getattr(a, field), getattr(b, field)), field
        ended += int(a.restarted.sum())
    assert ended > 0 and recorder.asked > 0


@pytest.mark.parametrize("name,options", [("dorix", {}), ("barc", {}), ("dorix", {"num_players": 4})])
def test_assign_is_told_every_game_at_reset_then_exactly_the_games_that_restart(name, options):
    recorder = Recorder()
    batch = LearnerBatch(make_game(name, **options), 8, opponent=recorder, seed=0)
    batch.reset()
    assert sorted(np.concatenate(recorder.assigned).tolist()) == list(range(8))
    recorder.assigned.clear()
    restarts = 0
    for _ in _steps(batch, 150):
        told = set(np.concatenate(recorder.assigned).tolist()) if recorder.assigned else set()
        assert told == set(np.flatnonzero(batch.restarted).tolist())
        restarts += len(told)
        recorder.assigned.clear()
    assert restarts >= 8


def test_a_forfeited_game_is_assigned_again():
    recorder = Recorder()
    batch = LearnerBatch("dorix", 3, opponent=recorder, seed=0, illegal_action="lose")
    batch.reset()
    recorder.assigned.clear()
    actions = np.array([np.flatnonzero(m)[0] for m in batch.masks])
    actions[1] = np.flatnonzero(~batch.masks[1])[0]  # an illegal action: game 1 is lost and restarts
    with pytest.warns(Warning):
        batch.step(actions)
    assert batch.forfeited[1] and 1 in np.concatenate(recorder.assigned).tolist()


def test_the_opponent_generator_is_seeded_by_the_batch():
    def trajectory(seed):
        batch = LearnerBatch("dorix", 4, opponent=Recorder(draw=True), seed=seed)
        out = [batch.reset().copy()]
        for _ in _steps(batch, 30):
            out.append(batch.obs.copy())
        return np.stack(out)

    assert np.array_equal(trajectory(7), trajectory(7))
    assert not np.array_equal(trajectory(7), trajectory(8))


def test_a_copied_batch_with_an_opponent_object_plays_on_alike():
    batch = LearnerBatch("dorix", 4, opponent=Recorder(draw=True), seed=2)
    batch.reset()
    for _ in _steps(batch, 5):
        pass
    twin = copy.deepcopy(batch)
    for _ in range(20):
        actions = np.array([np.flatnonzero(m)[-1] for m in batch.masks])
        batch.step(actions)
        twin.step(actions)
        assert np.array_equal(batch.obs, twin.obs) and np.array_equal(batch.rewards, twin.rewards)


def test_what_is_an_opponent_object():
    class HalfAnOpponent:
        def assign(self, batch, rows, rng):
            pass

    assert is_batch_opponent(Recorder()) and not is_batch_opponent("random") and not is_batch_opponent(lowest_legal)
    assert not is_batch_opponent(HalfAnOpponent())
    with pytest.raises(TypeError, match="BatchOpponent"):
        LearnerBatch("dorix", 2, opponent=HalfAnOpponent())


def test_batched_vec_env_hands_an_opponent_method_to_env_method_once():
    class Pool(Recorder):
        def __init__(self):
            super().__init__()
            self.snapshots = []

        def add_snapshot(self, policy):
            self.snapshots.append(policy)
            return len(self.snapshots)

    pool = Pool()
    venv = BatchedVecEnv("dorix", 4, opponent=pool, seed=0)
    venv.reset()
    assert venv.has_attr("add_snapshot") and not venv.has_attr("remove_snapshot")
    assert venv.env_method("add_snapshot", "p0") == [1, 1, 1, 1]  # one call, its result for every game
    assert venv.env_method("add_snapshot", "p1", indices=[2]) == [2]
    assert pool.snapshots == ["p0", "p1"]
    assert len(venv.env_method("action_masks")) == 4
    for name in ("remove_snapshot", "_private"):  # no such method; not a public one
        with pytest.raises(AttributeError):
            venv.env_method(name)
    random_venv = BatchedVecEnv("dorix", 2, seed=0)  # no opponent object: nothing to hand on
    with pytest.raises(AttributeError):
        random_venv.env_method("add_snapshot", "p")
