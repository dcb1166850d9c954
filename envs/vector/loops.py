"""Batch loops compiled from any game's kernels: N games as rows of one (N, STATE_SIZE) array.

:func:`batch_loops` takes a game's :class:`boardgames.envs.core.game_kernels.GameKernels` (its rules kernels
``legal_mask``, ``apply_action`` or ``apply_joint``, ``returns``, ``is_over``, the offsets of the seat to move
and of the truncation flag, and its observation kernel ``observe(data, seat, out)``) and builds the loops over
the rows that the batched environments call: one compiled call steps every game of the batch. They are written
as closures over the game's kernels and handed to :func:`boardgames.envs.compiled.kernel_cache.disk_cached`, which
writes them out as a module that numba caches on disk (compiled once per game and variant, read back by every
later process); the process keeps them in the GameKernels' cache. Nothing here is written per game. Random
actions come from :mod:`boardgames.envs.compiled.sampling` (one generator per row).

Observations are written either as the game's float32 planes or, with ``compact=True``, as uint8 (the
planes times 255, rounded; :func:`boardgames.envs.vector.batch.obs_to_float` reads them back). A game whose observe
module sets ``WRITES_UINT8 = True`` (every game of this library: its kernel writes each entry through
:func:`boardgames.envs.compiled.cells.obs_value`) is handed the uint8 array itself, and numba compiles its kernel a
second time for that type: no float buffer, no conversion pass, a quarter of the bytes. Any other
observation kernel gets the reference path, ``compact="quantize"``: the float observation of one game
built in a small buffer that stays in the cache, then stored by :func:`quantize`. Both give the same
bytes (``tests/test_batched_parallel.py``).
The loops over the games go by chunks of :data:`CHUNK` rows, each chunk with its own buffers, so the
``*_threaded`` variants (numba ``prange`` over the chunks) give the same results as the serial ones.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit, prange

from boardgames.envs.compiled.kernel_cache import disk_cached
from boardgames.envs.compiled.sampling import pick_legal, pick_listed, rand_below
from boardgames.envs.compiled.views import borrowed
from boardgames.envs.core.game_kernels import GameKernels
from boardgames.envs.vector.packed import packing

CHUNK = 64  # rows per chunk of a batch loop: the unit a thread takes, with its own scratch buffers
RESTARTS = 1000  # restarts of one game in a step before a learner batch gives up (games that end at once)


@njit(cache=True)
def quantize(src, dst):
    """``dst`` (uint8, same number of entries as the float32 ``src``, both contiguous): each value of
    ``src`` in [0, 1] as the nearest of 0, 1/255, ..., 1 times 255 (0 and 1 exactly; outside, clipped)."""
    s = src.reshape(-1)
    d = dst.reshape(-1)
    for j in range(s.shape[0]):  # no branches: the loop is vectorized (about 0.15 ns per entry)
        v = min(max(s[j], np.float32(0.0)), np.float32(1.0))
        d[j] = np.uint8(v * np.float32(255.0) + np.float32(0.5))


def _serial_and_threaded(**functions) -> dict:
    """Each function compiled twice: as is (``prange`` runs as ``range``) and, under ``<name>_threaded``,
    with its ``prange`` loop over the chunks of games spread over numba's threads (compiled on first
    use). Rows are independent and each row has its own generator, so both give the same results."""
    out = {}
    for name, fn in functions.items():
        out[name] = njit(fn)
        out[name + "_threaded"] = njit(parallel=True)(fn)
    return out


def writes_uint8(kernels: GameKernels) -> bool:
    """Whether the game's observation kernel writes uint8 planes itself (its observe module sets
    ``WRITES_UINT8 = True``: given a uint8 ``out``, it stores the values times 255, rounded, exactly
    what :func:`quantize` makes of its float32 output)."""
    return kernels.writes_uint8


def batch_loops(
    kernels: GameKernels,
    acting_seats: int,
    obs_shape: tuple = (1,),
    compact: bool | str = False,
    packed_actions: int = 0,
) -> SimpleNamespace:
    """The compiled batch loops over the game's ``kernels`` (built once per game and kind, kept by
    :meth:`GameKernels.derived`). ``obs_shape``: one observation's shape (the size of the float buffer of
    the quantizing loops); ``compact``: observations written as uint8, directly by the observation kernel
    where it can (:func:`writes_uint8`), else through a float buffer and :func:`quantize` (``"quantize"``:
    that path whatever the kernel can do, the reference the tests compare with). ``packed_actions``: 0 for
    bool masks, else the game's number of actions: the batch's masks (not those given to an opponent
    callback) are then written packed, eight actions to a byte (:mod:`boardgames.envs.vector.packed`)."""
    mode = "float32" if not compact else ("direct" if compact is True and writes_uint8(kernels) else "quantize")
    packed = int(packed_actions)
    shape = tuple(int(d) for d in obs_shape) if mode == "quantize" else (1,)
    return kernels.derived(
        ("batch", acting_seats, shape, mode, packed), lambda: _build(kernels, acting_seats, shape, mode, packed)
    )


def _build(kernels: GameKernels, acting_seats: int, buffer_shape: tuple, mode: str, packed: int) -> SimpleNamespace:
    emit = _emitter(kernels.observe, mode)
    masks = _MaskWriters(kernels, packed)
    loops = (_turn_loops if acting_seats == 1 else _joint_loops)(kernels, emit, buffer_shape, masks)
    variant = f"batch_{acting_seats}seat_{mode}"
    if mode == "quantize":
        variant += "_" + "x".join(map(str, buffer_shape))
    if packed:
        variant += f"_packed{packed}"
    return SimpleNamespace(**disk_cached(kernels, variant, vars(loops)))


class _MaskWriters:
    """How the batch loops write a mask into a row of the batch's ``masks``: ``write`` (with the list of
    legal actions, :func:`_mask_writer`) and ``fill`` (the mask alone, ``legal_mask(data, seat, mask)``),
    each the game's own kernel for bool masks, or wrapped by :func:`boardgames.envs.vector.packed.packing` for packed
    ones (``packed_actions``, the game's number of actions, > 0)."""

    def __init__(self, kernels: GameKernels, packed_actions: int):
        self.write = _mask_writer(kernels)
        self.fill = kernels.legal_mask
        self.packed_actions = int(packed_actions)
        if packed_actions:
            self.write = packing(self.write, packed_actions)
            self.fill = packing(self.fill, packed_actions)


def _emitter(observe, mode: str):
    """``emit(row, seat, out, buffer)``: the observation of ``seat`` into ``out``, directly (``mode``
    "float32", or "direct": a uint8 ``out`` the kernel writes itself) or built in the float32 ``buffer``
    and quantized into the uint8 ``out`` ("quantize")."""
    if mode != "quantize":

        @njit
        def emit(row, seat, out, buffer):
            observe(row, seat, out)

        return emit

    @njit
    def emit_compact(row, seat, out, buffer):
        observe(row, seat, buffer)
        quantize(buffer, out)

    return emit_compact


def list_width(kernels: GameKernels) -> int:
    """Entries of the list of legal actions the batches keep per mask for the game (see
    :func:`_mask_writer`): the game's ``LEGAL_LIST`` where its mask kernel lists them, else room for
    every action."""
    return kernels.legal_list


@njit(cache=True)
def list_legal(mask, listed):
    """``listed[0]`` the number of legal actions of ``mask``, ``listed[1:]`` them in increasing order: what
    a game's ``legal_mask_listed`` writes as it goes, for the games without one."""
    count = 0
    for a in range(mask.shape[0]):
        if mask[a]:
            count += 1
            listed[count] = a
    listed[0] = count


def _mask_writer(kernels: GameKernels):
    """``write_mask(data, seat, mask, listed, do_list)``: the seat's legal mask, and with ``do_list`` the
    list of its legal actions (:func:`list_legal`) too: in one pass by the game's ``legal_mask_listed``
    where it has one, else ``legal_mask`` then :func:`list_legal` (the batches ask for lists only from
    the games that write them as they go: see ``lists`` of :func:`_loop_set`)."""
    legal_mask = kernels.legal_mask
    if kernels.legal_mask_listed is not None:
        legal_mask_listed = kernels.legal_mask_listed
    else:

        @njit
        def legal_mask_listed(data, seat, mask, listed):
            legal_mask(data, seat, mask)
            list_legal(mask, listed)

    @njit
    def write_mask(data, seat, mask, listed, do_list):
        if do_list:
            legal_mask_listed(data, seat, mask, listed)
        else:
            legal_mask(data, seat, mask)

    return write_mask


def _turn_loops(kernels: GameKernels, emit, buffer_shape, masks_out: _MaskWriters) -> SimpleNamespace:
    legal_mask = kernels.legal_mask
    write_mask = masks_out.write
    apply_action = kernels.apply_action
    returns = kernels.returns
    is_over = kernels.is_over
    to_move_at = kernels.to_move_at
    truncated_at = kernels.truncated_at

    def refresh(states, masks, obs, to_move, do_obs, lists, do_list):
        n = states.shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            buffer = np.empty(buffer_shape, dtype=np.float32)
            for i in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
                row = borrowed(states, i)
                seat = row[to_move_at]
                to_move[i] = seat
                write_mask(row, seat, borrowed(masks, i), borrowed(lists, i), do_list)
                if do_obs:
                    emit(row, seat, borrowed(obs, i), buffer)

    def step(
        states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs, lists, do_list, rng, drawn, draw
    ):
        """Self-play: every game plays the action of its seat to move; ended games restart. With ``do_list``,
        each new mask's legal actions listed into ``lists`` (see :func:`_mask_writer`), and with ``draw`` too,
        a random legal action drawn from each list into ``drawn`` (row ``i``'s generator of ``rng``: the draw
        :func:`boardgames.envs.compiled.sampling.sample_listed` would make next, made here by the thread that wrote the
        list)."""
        n = states.shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            buffer = np.empty(buffer_shape, dtype=np.float32)
            for i in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
                row = borrowed(states, i)
                apply_action(row, actions[i])
                term[i] = False
                trunc[i] = False
                rewards[i, :] = 0.0
                if is_over(row):
                    returns(row, borrowed(rewards, i))
                    if row[truncated_at] != 0:
                        trunc[i] = True
                    else:
                        term[i] = True
                    row[:] = template
                seat = row[to_move_at]
                to_move[i] = seat
                write_mask(row, seat, borrowed(masks, i), borrowed(lists, i), do_list)
                if draw:
                    drawn[i] = pick_listed(borrowed(lists, i), rng, i)
                if do_obs:
                    emit(row, seat, borrowed(obs, i), buffer)

    @njit
    def play_random_row(row, learner_seat, rng, i, mask):
        """The other seats of game ``i`` play random legal actions until its learner acts or it ends."""
        while not is_over(row) and row[to_move_at] != learner_seat:
            seat = row[to_move_at]
            legal_mask(row, seat, mask)
            apply_action(row, pick_legal(mask, rng, i))

    @njit
    def random_playouts(states, template, rng, mask, turns):
        """Self-play of uniformly random legal actions for ``turns`` steps per game, with restarts
        (the whole loop compiled: the engine's speed with nothing around it). Returns games ended."""
        ended = 0
        for i in range(states.shape[0]):
            row = borrowed(states, i)
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
            apply_action(borrowed(states, i), actions[i])

    @njit
    def apply_learner_row(row, learner_seat, action, rng, i, mask, joint):
        apply_action(row, action)

    @njit
    def play_random(states, learner, rng, mask):
        """Every other seat plays uniformly random legal actions until the learner acts or the game ends."""
        for i in range(states.shape[0]):
            play_random_row(borrowed(states, i), learner[i], rng, i, mask)

    @njit
    def pending(states, learner, rows, seats):
        """The (game, seat) pairs where another seat than the learner must act now; returns their count."""
        k = 0
        for i in range(states.shape[0]):
            row = borrowed(states, i)
            if not is_over(row) and row[to_move_at] != learner[i]:
                rows[k] = i
                seats[k] = row[to_move_at]
                k += 1
        return k

    @njit
    def apply_pairs(states, rows, actions):
        for k in range(rows.shape[0]):
            apply_action(borrowed(states, rows[k]), actions[k])

    return _loop_set(kernels, emit, buffer_shape, masks_out, locals())


def _joint_loops(kernels: GameKernels, emit, buffer_shape, masks_out: _MaskWriters) -> SimpleNamespace:
    legal_mask = kernels.legal_mask
    write_mask = masks_out.write
    apply_joint = kernels.apply_joint
    returns = kernels.returns
    is_over = kernels.is_over
    truncated_at = kernels.truncated_at

    def refresh(states, masks, obs, to_move, do_obs, lists, do_list):
        n = states.shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            buffer = np.empty(buffer_shape, dtype=np.float32)
            for i in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
                row = borrowed(states, i)
                game_masks, game_lists = borrowed(masks, i), borrowed(lists, i)
                for s in range(masks.shape[1]):
                    write_mask(row, s, borrowed(game_masks, s), borrowed(game_lists, s), do_list)
                    if do_obs:
                        emit(row, s, borrowed(borrowed(obs, i), s), buffer)

    def step(
        states, actions, template, rewards, term, trunc, masks, obs, to_move, do_obs, lists, do_list, rng, drawn, draw
    ):
        """Self-play: every game plays its joint action (one per seat); ended games restart (``do_list``,
        ``draw``: see the turn kernels' ``step``; seat ``s`` of game ``i`` draws with generator ``i * seats +
        s`` into ``drawn[i, s]``)."""
        n = states.shape[0]
        for c in prange((n + CHUNK - 1) // CHUNK):
            buffer = np.empty(buffer_shape, dtype=np.float32)
            for i in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
                row = borrowed(states, i)
                apply_joint(row, borrowed(actions, i))
                term[i] = False
                trunc[i] = False
                rewards[i, :] = 0.0
                if is_over(row):
                    returns(row, borrowed(rewards, i))
                    if row[truncated_at] != 0:
                        trunc[i] = True
                    else:
                        term[i] = True
                    row[:] = template
                seats = masks.shape[1]
                game_masks, game_lists = borrowed(masks, i), borrowed(lists, i)
                for s in range(seats):
                    seat_list = borrowed(game_lists, s)
                    write_mask(row, s, borrowed(game_masks, s), seat_list, do_list)
                    if draw:
                        drawn[i, s] = pick_listed(seat_list, rng, i * seats + s)
                    if do_obs:
                        emit(row, s, borrowed(borrowed(obs, i), s), buffer)

    @njit
    def play_random_row(row, learner_seat, rng, i, mask):
        pass  # every seat acts at every turn: nobody plays between the learner's turns

    @njit
    def random_playouts(states, template, rng, mask, turns):
        ended = 0
        seats = rng.shape[0] // states.shape[0]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            row = borrowed(states, i)
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
    def apply_learner_row(row, learner_seat, action, rng, i, mask, joint):
        """The learner's ``action`` joined with random legal actions of the other seats (row ``i``'s draws)."""
        for s in range(joint.shape[0]):
            if s != learner_seat:
                legal_mask(row, s, mask)
                joint[s] = pick_legal(mask, rng, i)
        joint[learner_seat] = action
        apply_joint(row, joint)

    @njit
    def apply_learner(states, learner, actions, opp_actions, use_random, rng, mask):
        """The learner's action joined with the other seats' (drawn here when ``use_random``)."""
        seats = opp_actions.shape[1]
        joint = np.zeros(seats, dtype=np.int64)
        for i in range(states.shape[0]):
            if use_random:
                apply_learner_row(borrowed(states, i), learner[i], actions[i], rng, i, mask, joint)
                continue
            for s in range(seats):
                joint[s] = opp_actions[i, s]
            joint[learner[i]] = actions[i]
            apply_joint(borrowed(states, i), joint)

    @njit
    def play_random(states, learner, rng, mask):
        pass  # every seat acts at every turn: nobody plays between the learner's turns

    @njit
    def pending(states, learner, rows, seats):
        return 0

    @njit
    def apply_pairs(states, rows, actions):
        pass

    return _loop_set(kernels, emit, buffer_shape, masks_out, locals())


_LOOPS = ("random_playouts", "apply_learner", "play_random", "pending", "apply_pairs")


def _loop_set(kernels: GameKernels, emit, buffer_shape, masks_out: _MaskWriters, loops: dict) -> SimpleNamespace:
    """The namespace the batches call: ``refresh``, ``step`` and ``learner_step`` (both serial and threaded),
    the loops of :data:`_LOOPS` taken from ``loops`` (the locals of :func:`_turn_loops` or
    :func:`_joint_loops`), plus the loops both kinds share (:func:`_common`)."""
    learner_step = _learner_step(
        kernels, emit, buffer_shape, masks_out, loops["apply_learner_row"], loops["play_random_row"]
    )
    return SimpleNamespace(
        lists=kernels.legal_mask_listed is not None,  # lists of legal actions are worth keeping (see BatchedGames)
        refresh=njit(loops["refresh"]),
        **_serial_and_threaded(step=loops["step"], learner_step=learner_step),
        **{name: loops[name] for name in _LOOPS},
        **_common(kernels, emit, buffer_shape, masks_out.fill),
    )


def _learner_step(
    kernels: GameKernels, emit, buffer_shape, masks_out: _MaskWriters, apply_learner_row, play_random_row
):
    """The whole step of a learner batch with random opponents, one pass per game (see ``learner_step``);
    the learner's mask written into its row of ``masks`` by ``masks_out.fill`` (see :class:`_MaskWriters`)."""
    fill_mask = masks_out.fill
    packed_actions = masks_out.packed_actions
    returns = kernels.returns
    is_over = kernels.is_over
    truncated_at = kernels.truncated_at

    def learner_step(
        states,
        learner,
        actions,
        template,
        rng,
        fixed_seat,
        num_seats,
        rewards,
        term,
        trunc,
        final_obs,
        restarted,
        masks,
        obs,
        skip,
    ):
        """Each game: the learner's action (with the other seats' random replies), the reward, flags and
        final observation if it ended, restarts with a new learner seat until the learner has a move,
        then the learner's mask and observation. The same draws per row as the separate loops
        (``apply_learner``, ``play_random``, ``finish``, ``restart``). A game flagged in ``skip`` sits the
        step out: its position, mask, observation and generator stay as they are, its reward is 0 and its
        flags False (the step a NEXT_STEP vector env spends on showing a restarted game). Returns -1, or
        the first game that kept ending before its learner could act (:data:`RESTARTS` restarts)."""
        n = states.shape[0]
        failed = np.full((n + CHUNK - 1) // CHUNK, -1, dtype=np.int64)
        for c in prange((n + CHUNK - 1) // CHUNK):
            buffer = np.empty(buffer_shape, dtype=np.float32)
            mask = np.empty(packed_actions if packed_actions else masks.shape[1], dtype=np.bool_)
            ret = np.zeros(num_seats, dtype=np.float32)
            joint = np.zeros(num_seats, dtype=np.int64)
            for i in range(c * CHUNK, min(n, c * CHUNK + CHUNK)):
                rewards[i] = 0.0
                term[i] = False
                trunc[i] = False
                restarted[i] = False
                if skip[i]:
                    continue
                row = borrowed(states, i)
                apply_learner_row(row, learner[i], actions[i], rng, i, mask, joint)
                play_random_row(row, learner[i], rng, i, mask)
                if is_over(row):
                    returns(row, ret)
                    rewards[i] = ret[learner[i]]
                    if row[truncated_at] != 0:
                        trunc[i] = True
                    else:
                        term[i] = True
                    emit(row, learner[i], borrowed(final_obs, i), buffer)
                    restarted[i] = True
                    tries = 0
                    while is_over(row):
                        if tries > RESTARTS:
                            if failed[c] < 0:
                                failed[c] = i
                            break
                        tries += 1
                        row[:] = template
                        learner[i] = fixed_seat if fixed_seat >= 0 else rand_below(rng, i, num_seats)
                        play_random_row(row, learner[i], rng, i, mask)
                fill_mask(row, learner[i], borrowed(masks, i))
                emit(row, learner[i], borrowed(obs, i), buffer)
        for c in range(failed.shape[0]):
            if failed[c] >= 0:
                return failed[c]
        return -1

    return learner_step


def _common(kernels: GameKernels, emit, buffer_shape, fill_mask) -> dict:
    legal_mask = kernels.legal_mask
    observe = kernels.observe
    returns = kernels.returns
    is_over = kernels.is_over
    truncated_at = kernels.truncated_at

    @njit
    def observe_pairs(states, rows, seats, masks, obs):
        """Mask and float32 observation of seat ``seats[k]`` in game ``rows[k]``, into row k of masks and
        obs (what an opponent callback is given, whatever the batch's own observations)."""
        for k in range(rows.shape[0]):
            row = borrowed(states, rows[k])
            legal_mask(row, seats[k], borrowed(masks, k))
            observe(row, seats[k], borrowed(obs, k))

    @njit
    def observe_learner(states, learner, masks, obs):
        buffer = np.empty(buffer_shape, dtype=np.float32)
        for i in range(states.shape[0]):
            row = borrowed(states, i)
            fill_mask(row, learner[i], borrowed(masks, i))
            emit(row, learner[i], borrowed(obs, i), buffer)

    @njit
    def finish(states, learner, template, rng, fixed_seat, num_seats, ret, rewards, term, trunc, final_obs, restarted):
        """For every ended game: the learner's reward, terminated/truncated, its final observation; then
        the game restarts with a new learner seat (``fixed_seat`` or a random one). Returns the count."""
        buffer = np.empty(buffer_shape, dtype=np.float32)
        n = 0
        for i in range(states.shape[0]):
            row = borrowed(states, i)
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
                emit(row, learner[i], borrowed(final_obs, i), buffer)
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
