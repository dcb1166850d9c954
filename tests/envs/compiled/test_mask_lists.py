"""Lists of legal actions (written by ADIX's and Barc's ``legal_mask_listed`` as they set the mask) and the
draw that reads them, ``boardgames.envs.compiled.sampling.pick_listed``: the same mask as ``legal_mask``, the list
equal to the mask's legal actions in increasing order, and the same actions and generator states as
:func:`pick_legal` (checked against a frozen reference in ``tests/envs/compiled/test_pick_equivalence.py``), on
thousands of positions from random play and on random masks; and :class:`boardgames.envs.vector.BatchedGames`
random play with the lists equal to the whole-mask scan."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.random_rows import random_masks, random_rows

from boardgames.envs.compiled.sampling import pick_legal, pick_listed
from boardgames.envs.registry import make_game
from boardgames.envs.vector import BatchedGames
from boardgames.envs.vector.loops import list_legal


def _positions(name, count, seed, turn_bias):
    """The rules module of game ``name`` and ``count`` states from random play (restarts included, terminal
    states too); with probability ``turn_bias`` a rotation or tilt is preferred when one is legal (ADIX:
    reaches the A9 records)."""
    game = make_game(name)
    rules = type(game.new_initial_state()).rules

    def pick(legal, rng):
        turns = legal[legal % 70 >= 64] if name == "adix" else legal[:0]
        return rng.choice(turns if len(turns) and rng.random() < turn_bias else legal)

    return rules, random_rows(game, rules, count, seed, pick)


@pytest.mark.parametrize("name, turn_bias", [("adix", 0.0), ("adix", 0.7), ("barc", 0.0)])
def test_listed_mask_matches_mask_and_its_legal_actions(name, turn_bias):
    """The mask of ``legal_mask_listed`` is ``legal_mask``'s; the list holds its legal actions in
    increasing order, count first; the draw from the list is ``pick_legal``'s (action and generator)."""
    rules, positions = _positions(name, 1500, seed=11 + int(turn_bias * 10), turn_bias=turn_bias)
    n = rules.NUM_ACTIONS
    got, want = np.ones(n, dtype=np.bool_), np.zeros(n, dtype=np.bool_)
    listed = np.zeros(rules.LEGAL_LIST, dtype=np.uint16)
    gen = np.random.default_rng(3)
    rng_a = np.arange(1, 3, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    rng_b = rng_a.copy()
    longest = 0
    for data in positions:
        for seat in range(2):
            got[:] = gen.random(n) < 0.5  # garbage: the kernels write every entry
            listed[:] = gen.integers(0, 60000, listed.shape[0])
            rules.legal_mask_listed(data, seat, got, listed)
            rules.legal_mask(data, seat, want)
            assert np.array_equal(got, want), (seat, data.tolist())
            count = int(listed[0])
            assert np.array_equal(listed[1 : 1 + count], np.flatnonzero(want)), (seat, data.tolist())
            longest = max(longest, count)
            assert pick_listed(listed, rng_a, seat) == pick_legal(want, rng_b, seat)
            assert np.array_equal(rng_a, rng_b)
    assert longest > 20  # positions with many legal actions were met


def test_barc_mask_is_every_order_checked_alone():
    """Barc's mask kernel (visited in the seat's own frame) accepts exactly the orders ``is_legal_order``
    (B2) accepts one by one."""
    rules, positions = _positions("barc", 600, seed=21, turn_bias=0.0)
    mask = np.zeros(rules.NUM_ACTIONS, dtype=np.bool_)
    for data in positions:
        for seat in range(2):
            rules.legal_mask(data, seat, mask)
            one_by_one = [rules.is_legal_order(data, seat, a) for a in range(rules.NUM_ACTIONS)]
            assert np.array_equal(mask, one_by_one), (seat, data.tolist())


def test_list_bounds_hold_every_legal_action():
    """``LEGAL_LIST``: room for the count and every action a seat can have (ADIX: every action of the
    squares of its 10 cubes, and the 7 entries its last run of eight may write past them, see
    boardgames.envs.compiled.bits.write_run; Barc: 6 stacks at most, 8 directions, 5 distances, and STAY)."""
    from boardgames.envs.adix import rules as adix
    from boardgames.envs.barc import rules as barc

    assert adix.LEGAL_LIST == 1 + 10 * 70 + 7 and adix.TEAMMATES + 1 == 10
    assert barc.LEGAL_LIST == 1 + 6 * 8 * 5 + 1


@pytest.mark.parametrize("size", [1, 7, 63, 64, 65, 121, 1441, 2048, 5670])
def test_pick_listed_matches_pick_legal(size):
    gen = np.random.default_rng(size)
    rows = 120
    masks = random_masks(gen, size, rows)
    lists = np.zeros((rows, 1 + size), dtype=np.uint16)
    for k in range(rows):
        list_legal(masks[k], lists[k])
        assert lists[k, 0] == masks[k].sum()
        assert np.array_equal(lists[k, 1 : 1 + lists[k, 0]], np.flatnonzero(masks[k]))
    seeds = gen.integers(1, 2**63, size=rows, dtype=np.uint64)
    for _ in range(8):
        rng_ref, rng_new = seeds.copy(), seeds.copy()
        for k in range(rows):
            assert pick_listed(lists[k], rng_new, k) == pick_legal(masks[k], rng_ref, k), (size, k)
        assert np.array_equal(rng_ref, rng_new)
        seeds = rng_ref


@pytest.mark.parametrize("game", ["adix", "barc", "dorix"])
def test_batched_random_play_with_lists_equals_whole_mask_scan(game):
    a = BatchedGames(game, 70, seed=5, obs_dtype="uint8")
    b = BatchedGames(game, 70, seed=5, obs_dtype="uint8")

    def scan_only():
        b._sample(b.masks.reshape(-1, b.masks.shape[-1]), b.rng, b._actions.reshape(-1))
        return b._actions

    b.random_actions = scan_only
    for _ in range(150):
        x, y = a.random_actions().copy(), b.random_actions().copy()
        # the same draws and generator states once drawn (a's step makes its next draws itself, see
        # BatchedGames.random_actions, so its generators move on at the step, b's at the call)
        assert np.array_equal(x, y) and np.array_equal(a.rng, b.rng)
        a.step(x)
        b.step(y)
        for name in ("states", "masks", "obs", "rewards", "terminated", "truncated", "to_move"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a._lists_ok == (game in ("adix", "barc"))  # the games that write lists use them
    assert not b._lists_ok
