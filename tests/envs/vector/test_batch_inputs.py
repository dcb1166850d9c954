"""What the batches hand out and what they take (issue 45): no mask a batch hands out can change what its
step checks (``bool_masks()`` is a read-only view, or a new array with packed masks; an opponent callback
writes its own copy), and bad sizes, seats and game indexes are refused with the project's errors, the
sizes before anything is allocated."""

from __future__ import annotations

import time

import numpy as np
import pytest

from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.vector import BatchedGames, BatchedVectorEnv, LearnerBatch
from boardgames.envs.vector import batch as batch_module
from boardgames.envs.vector.batch import MAX_GAMES

GAMES = ["dorix", "olix", "adix", "barc"]
CLASSES = [BatchedGames, LearnerBatch]
N = 6


def _played(cls, game: str, packed: bool = False, illegal_action: str = "raise"):
    """A batch of ``N`` games of ``game`` a few random steps in (every row has a legal and, mostly, an
    illegal action)."""
    batch = cls(game, N, seed=5, threads=False, illegal_action=illegal_action, packed_masks=packed)
    if cls is LearnerBatch:
        batch.reset()
        for _ in range(3):
            batch.step(np.argmax(batch.bool_masks(), axis=-1))
    else:
        for _ in range(3):
            batch.step(batch.random_actions())
    return batch


def _illegal_actions(masks: np.ndarray) -> np.ndarray:
    """Per row of ``masks`` (any leading shape) an action it forbids, or its first legal one where it
    forbids none."""
    flat = masks.reshape(-1, masks.shape[-1])
    out = [int(np.flatnonzero(~row)[0]) if not row.all() else int(np.flatnonzero(row)[0]) for row in flat]
    return np.array(out, dtype=np.int64).reshape(masks.shape[:-1])


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("game", GAMES)
def test_bool_masks_are_a_read_only_view_and_writing_them_lets_nothing_illegal_through(cls, game):
    batch = _played(cls, game)
    masks = batch.bool_masks()
    assert masks.dtype == np.bool_ and not masks.flags.writeable
    assert np.shares_memory(masks, batch.masks)  # a view of the batch's masks, refreshed by each step
    before = masks.copy()
    with pytest.raises(ValueError, match="read-only"):
        masks[...] = True
    with pytest.raises(ValueError):
        masks.flags.writeable = True  # made from a read-only buffer: the flag cannot be set back
    assert np.array_equal(batch.bool_masks(), before)
    illegal = _illegal_actions(before)
    if before.all():  # nothing to forbid in any row: nothing to play illegally
        return
    with pytest.raises(IllegalActionError):
        batch.step(illegal)
    if cls is BatchedGames:
        for i in range(N):
            batch.state(i).check_invariants()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("game", GAMES)
def test_packed_batches_hand_out_bool_masks_the_caller_owns(cls, game):
    batch = _played(cls, game, packed=True)
    packed_before = np.array(batch.masks)
    masks = batch.bool_masks()
    before = masks.copy()
    assert not np.shares_memory(masks, batch.masks)
    masks[...] = True  # the caller's own array: the batch does not change
    assert np.array_equal(np.array(batch.masks), packed_before)
    assert np.array_equal(batch.bool_masks(), before)
    if not before.all():
        with pytest.raises(IllegalActionError):
            batch.step(_illegal_actions(before))


@pytest.mark.parametrize("game", GAMES)
def test_olix_rows_and_every_game_stay_valid_after_the_masks_are_written(game):
    """The reproducer of issue 45: ``bool_masks()[...] = True``, then illegal actions under ``"raise"``.
    The write is refused; the illegal step is refused; the positions stay valid."""
    batch = _played(BatchedGames, game)
    with pytest.raises(ValueError):
        batch.bool_masks()[...] = True
    illegal = _illegal_actions(batch.bool_masks())
    if not batch.bool_masks().all():
        with pytest.raises(IllegalActionError):
            batch.step(illegal)
    for _ in range(5):
        batch.step(batch.random_actions())
    for i in range(N):
        batch.state(i).check_invariants()


@pytest.mark.parametrize("game", GAMES)
def test_an_opponent_callback_that_writes_its_masks_still_cannot_play_illegally(game):
    def cheat(obs, masks):
        illegal = _illegal_actions(masks)
        masks[...] = True  # its own copy: the batch checks against its own
        return illegal

    batch = LearnerBatch(game, N, seed=3, threads=False, opponent=cheat, learner_seat=1)
    with pytest.raises(IllegalActionError, match="opponent callback"):  # where a mask first forbids something
        batch.reset()
        for _ in range(20):
            batch.step(np.argmax(batch.bool_masks(), axis=-1))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
@pytest.mark.parametrize("bad", [-1, 0, 2.5, 4.0, True, "4", None, np.float64(3.0)], ids=repr)
def test_sizes_that_are_not_whole_numbers_of_at_least_one_are_refused(cls, bad):
    with pytest.raises(GameOptionError, match=r"num_games must be a whole number >= 1, got .* \(range 1\.\.16777216\)"):
        cls("dorix", bad, threads=False)


def test_the_wrappers_refuse_bad_sizes_with_the_same_message():
    with pytest.raises(GameOptionError, match="num_games must be a whole number >= 1, got -1"):
        BatchedVectorEnv("dorix", num_envs=-1)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_absurd_sizes_are_refused_at_once(cls):
    start = time.perf_counter()
    for size in (10**12, MAX_GAMES + 1):
        with pytest.raises(
            GameOptionError, match=rf"num_games must be a whole number <= {MAX_GAMES} \(2\*\*24\), got "
        ):
            cls("dorix", size, threads=False)
    assert time.perf_counter() - start < 5.0


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_sizes_past_the_machines_memory_are_refused_before_anything_is_allocated(cls, monkeypatch):
    def no_allocation(*args, **kwargs):
        raise AssertionError("the batch allocated its arrays before refusing its size")

    monkeypatch.setattr(batch_module, "physical_memory", lambda: 2**30)  # a machine of 1 GiB
    monkeypatch.setattr(batch_module, "batch_tile", no_allocation)
    monkeypatch.setattr(batch_module, "batch_zeros", no_allocation)
    with pytest.raises(GameOptionError, match=r"num_games=1000000: the batch's arrays would take .* GiB .*1\.0 GiB"):
        cls("olix", 1_000_000, threads=False)


def test_the_memory_rule_counts_the_arrays_the_batch_holds(monkeypatch):
    """The bytes a game is counted for are at least those its arrays take (so the rule does not let a
    batch past the memory), and not much more (so it refuses no batch that fits)."""
    counted = []
    monkeypatch.setattr(batch_module, "check_batch_memory", lambda n, per_game: counted.append(per_game))
    for cls in CLASSES:
        for game in GAMES:
            counted.clear()
            batch = cls(game, 64, threads=False)
            held = sum(
                v.nbytes
                for k, v in vars(batch).items()
                if isinstance(v, np.ndarray) and k not in ("masks", "template", "_scratch", "_ret")
            )
            assert held / 64 <= counted[0] <= held / 64 * 1.1 + 256, (cls.__name__, game, counted[0], held / 64)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_numpy_integer_sizes_are_accepted(cls):
    batch = cls("dorix", np.int64(3), threads=False)
    assert batch.num_games == 3 and type(batch.num_games) is int


@pytest.mark.parametrize("bad", [-1, -4, 4, 5, 1.0, True, False, "1", None, np.float32(2)], ids=repr)
def test_state_refuses_negative_out_of_range_and_non_integer_indexes(bad):
    batch = BatchedGames("dorix", 4, seed=0, threads=False)
    with pytest.raises(
        ValueError, match=r"is not a game of this batch of 4 \(games 0\.\.3; a negative index is refused"
    ):
        batch.state(bad)


def test_state_takes_python_and_numpy_integers():
    batch = BatchedGames("dorix", 4, seed=0, threads=False)
    batch.step(batch.random_actions())
    for i in range(4):
        assert batch.state(np.int32(i)).to_text() == batch.state(i).to_text()
        assert np.array_equal(batch.state(i).data, batch.states[i])


@pytest.mark.parametrize("bad", [True, 1.5, -1, 2, "0"], ids=repr)
def test_learner_seats_that_are_not_seats_are_refused(bad):
    with pytest.raises(GameOptionError, match=r"learner_seat must be a seat in 0\.\.1, got "):
        LearnerBatch("dorix", 2, learner_seat=bad, threads=False)
