"""Batch kernels compiled from any game's kernels: N games as rows of one (N, STATE_SIZE) array.

:func:`batch_kernels` takes a game's ``rules`` module (the kernels listed in docs/architecture.md:
``legal_mask``, ``apply_action`` or ``apply_joint``, ``returns``, ``is_over`` and the offsets
``TO_MOVE``, ``TRUNCATED``) and its observation kernel ``observe(data, seat, out)`` (the game's
``observe`` module, see :func:`envs.core.kernel_state.KernelState`), and compiles, once per process
and game, the loops over the rows that the batched environments call: one compiled call steps every
game of the batch. Nothing here is written per game. Random actions come from
:mod:`envs.vector.sampling` (one generator per row).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit, prange

from envs.vector.sampling import pick_legal, rand_below


def _serial_and_threaded(**functions) -> dict:
    """Each function compiled twice: as is (``prange`` runs as ``range``) and, under ``<name>_threaded``,
    with its ``prange`` loop over the games spread over every core (compiled on first use). Rows are
    independent and each row has its own generator, so both give the same results."""
    out = {}
    for name, fn in functions.items():
        out[name] = njit(fn)
        out[name + "_threaded"] = njit(parallel=True)(fn)
    return out


# Compiled per process (a few seconds per game): numba's disk cache would key these closures by their
# name and argument types only, not by the rules module they close over, and would not see a change in it.
_CACHE: dict = {}


def batch_kernels(rules, observe, acting_seats: int) -> SimpleNamespace:
    """The compiled batch loops over ``rules``' kernels and the observation kernel ``observe`` (cached
    per rules module and observation kernel)."""
    key = (id(rules), id(observe), acting_seats)
    if key not in _CACHE:
        _CACHE[key] = (_turn_kernels if acting_seats == 1 else _joint_kernels)(rules, observe)
    return _CACHE[key]


def _turn_kernels(rules, observe) -> SimpleNamespace:
    legal_mask = rules.legal_mask
    apply_action = rules.apply_action
    returns = rules.returns
    is_over = rules.is_over
    to_move_at = rules.TO_MOVE
    truncated_at = rules.TRUNCATED

    def refresh(states, masks, obs, to_move, do_obs):
        for i in prange(states.shape[0]):
            row = states[i]
            seat = row[to_move_at]
            to_move[i] = seat
            legal_mask(row, seat, masks[i])
            if do_obs:
                observe(row, seat, obs[i])

    def step(states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs):
        """Self-play: every game plays the action of its seat to move; ended games restart."""
        for i in prange(states.shape[0]):
            row = states[i]
            apply_action(row, actions[i])
            term[i] = False
            trunc[i] = False
            rewards[i, :] = 0.0
            if is_over(row):
                returns(row, rewards[i])
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                row[:] = template
            seat = row[to_move_at]
            to_move[i] = seat
            legal_mask(row, seat, masks[i])
            if do_obs:
                observe(row, seat, obs[i])

    @njit
    def random_playouts(states, template, rng, mask, turns):
        """Self-play of uniformly random legal actions for ``turns`` steps per game, with restarts
        (the whole loop compiled: the engine's speed with nothing around it). Returns games ended."""
        ended = 0
        for i in range(states.shape[0]):
            row = states[i]
            for _ in range(turns):
                seat = row[to_move_at]
                legal_mask(row, seat, mask)
                apply_action(row, pick_legal(mask, rng, i))
                if is_over(row):
                    ended += 1
                    row[:] = template
        return ended

    @njit
    def apply_learner(states, learner, actions, opp_actions, use_random, rng, mask):
        for i in range(states.shape[0]):
            apply_action(states[i], actions[i])

    @njit
    def play_random(states, learner, rng, mask):
        """Every other seat plays uniformly random legal actions until the learner acts or the game ends."""
        for i in range(states.shape[0]):
            row = states[i]
            while not is_over(row) and row[to_move_at] != learner[i]:
                seat = row[to_move_at]
                legal_mask(row, seat, mask)
                apply_action(row, pick_legal(mask, rng, i))

    @njit
    def pending(states, learner, rows, seats):
        """The (game, seat) pairs where another seat than the learner must act now; returns their count."""
        k = 0
        for i in range(states.shape[0]):
            row = states[i]
            if not is_over(row) and row[to_move_at] != learner[i]:
                rows[k] = i
                seats[k] = row[to_move_at]
                k += 1
        return k

    @njit
    def apply_pairs(states, rows, actions):
        for k in range(rows.shape[0]):
            apply_action(states[rows[k]], actions[k])

    return _kernel_set(rules, observe, locals())


def _joint_kernels(rules, observe) -> SimpleNamespace:
    legal_mask = rules.legal_mask
    apply_joint = rules.apply_joint
    returns = rules.returns
    is_over = rules.is_over
    truncated_at = rules.TRUNCATED

    def refresh(states, masks, obs, to_move, do_obs):
        for i in prange(states.shape[0]):
            row = states[i]
            for s in range(masks.shape[1]):
                legal_mask(row, s, masks[i, s])
                if do_obs:
                    observe(row, s, obs[i, s])

    def step(states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs):
        """Self-play: every game plays its joint action (one per seat); ended games restart."""
        for i in prange(states.shape[0]):
            row = states[i]
            apply_joint(row, actions[i])
            term[i] = False
            trunc[i] = False
            rewards[i, :] = 0.0
            if is_over(row):
                returns(row, rewards[i])
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                row[:] = template
            for s in range(masks.shape[1]):
                legal_mask(row, s, masks[i, s])
                if do_obs:
                    observe(row, s, obs[i, s])

    @njit
    def random_playouts(states, template, rng, mask, turns):
        ended = 0
        seats = rng.shape[0] // states.shape[0]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            row = states[i]
            for _ in range(turns):
                for s in range(seats):
                    legal_mask(row, s, mask)
                    joint[s] = pick_legal(mask, rng, i * seats + s)
                apply_joint(row, joint)
                if is_over(row):
                    ended += 1
                    row[:] = template
        return ended

    @njit
    def apply_learner(states, learner, actions, opp_actions, use_random, rng, mask):
        """The learner's action joined with the other seats' (drawn here when ``use_random``)."""
        seats = opp_actions.shape[1]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            row = states[i]
            for s in range(seats):
                joint[s] = opp_actions[i, s]
                if use_random and s != learner[i]:
                    legal_mask(row, s, mask)
                    joint[s] = pick_legal(mask, rng, i)
            joint[learner[i]] = actions[i]
            apply_joint(row, joint)

    @njit
    def play_random(states, learner, rng, mask):
        pass  # every seat acts at every turn: nobody plays between the learner's turns

    @njit
    def pending(states, learner, rows, seats):
        return 0

    @njit
    def apply_pairs(states, rows, actions):
        pass

    return _kernel_set(rules, observe, locals())


_LOOPS = ("random_playouts", "apply_learner", "play_random", "pending", "apply_pairs")


def _kernel_set(rules, observe, loops: dict) -> SimpleNamespace:
    """The namespace the batches call: ``refresh`` and ``step`` (serial and threaded) and the loops of
    :data:`_LOOPS` taken from ``loops`` (the locals of :func:`_turn_kernels` or :func:`_joint_kernels`),
    plus the loops both kinds share (:func:`_common`)."""
    return SimpleNamespace(
        **_serial_and_threaded(refresh=loops["refresh"], step=loops["step"]),
        **{name: loops[name] for name in _LOOPS},
        **_common(rules, observe),
    )


def _common(rules, observe) -> dict:
    legal_mask = rules.legal_mask
    returns = rules.returns
    is_over = rules.is_over
    truncated_at = rules.TRUNCATED

    @njit
    def observe_pairs(states, rows, seats, masks, obs):
        """Mask and observation of seat ``seats[k]`` in game ``rows[k]``, into row k of masks and obs."""
        for k in range(rows.shape[0]):
            row = states[rows[k]]
            legal_mask(row, seats[k], masks[k])
            observe(row, seats[k], obs[k])

    @njit
    def observe_learner(states, learner, masks, obs):
        for i in range(states.shape[0]):
            legal_mask(states[i], learner[i], masks[i])
            observe(states[i], learner[i], obs[i])

    @njit
    def finish(states, learner, template, rng, fixed_seat, num_seats, ret, rewards, term, trunc, final_obs, restarted):
        """For every ended game: the learner's reward, terminated/truncated, its final observation; then
        the game restarts with a new learner seat (``fixed_seat`` or a random one). Returns the count."""
        n = 0
        for i in range(states.shape[0]):
            row = states[i]
            rewards[i] = 0.0
            term[i] = False
            trunc[i] = False
            restarted[i] = False
            if is_over(row):
                returns(row, ret)
                rewards[i] = ret[learner[i]]
                if row[truncated_at] != 0:
                    trunc[i] = True
                else:
                    term[i] = True
                observe(row, learner[i], final_obs[i])
                row[:] = template
                learner[i] = fixed_seat if fixed_seat >= 0 else rand_below(rng, i, num_seats)
                restarted[i] = True
                n += 1
        return n

    @njit
    def restart(states, which, learner, template, rng, fixed_seat, num_seats):
        for i in range(states.shape[0]):
            if which[i]:
                states[i, :] = template
                learner[i] = fixed_seat if fixed_seat >= 0 else rand_below(rng, i, num_seats)

    return dict(observe_pairs=observe_pairs, observe_learner=observe_learner, finish=finish, restart=restart)
