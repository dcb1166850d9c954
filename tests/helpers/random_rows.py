"""State rows from random play, for the tests that compare two kernels on many positions (observation,
mask and pick equivalence): restarts included, terminal states too."""

from __future__ import annotations

import numpy as np


def uniform_pick(legal, rng):
    """One of the ``legal`` actions, uniformly (``rng.choice``)."""
    return rng.choice(legal)


def random_rows(game, rules, count: int, seed: int, pick=uniform_pick) -> list:
    """``count`` copies of the state row of ``game`` along random play with the kernels of ``rules``: each
    acting seat's action is ``pick(legal_actions, rng)``; a finished game is recorded, then starts again."""
    info = game.info
    rng = np.random.default_rng(seed)
    template = game.new_initial_state().data.copy()
    mask = np.zeros(info.num_actions, dtype=np.bool_)
    row = template.copy()
    out = []
    while len(out) < count:
        out.append(row.copy())
        if rules.is_over(row):
            row = template.copy()
            continue
        if info.acting_seats > 1:
            joint = np.zeros(info.num_seats, dtype=np.int64)
            for s in range(info.num_seats):
                rules.legal_mask(row, s, mask)
                joint[s] = pick(np.flatnonzero(mask), rng)
            rules.apply_joint(row, joint)
        else:
            rules.legal_mask(row, row[rules.TO_MOVE], mask)
            rules.apply_action(row, pick(np.flatnonzero(mask), rng))
    return out


def random_masks(gen, size: int, rows: int = 120) -> np.ndarray:
    """``rows`` legal masks of ``size`` actions for the pick tests, drawn with ``gen``: densities from none
    to all, with row 1 holding only the last action and row 7 only the first."""
    densities = [0.0, 1.0, 0.5, 0.05, 0.01, 0.002]
    masks = np.zeros((rows, size), dtype=np.bool_)
    for k in range(rows):
        masks[k] = gen.random(size) < densities[k % len(densities)]
    masks[1, :] = False
    masks[1, -1] = True  # only the last action, or the first
    masks[7, :] = False
    masks[7, 0] = True
    return masks
