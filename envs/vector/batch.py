"""Batched games: N games of one registered game stepped together by one compiled call.

Two layers, both generic over the registry (``game`` is a name from :func:`boardgames.envs.registry.game_names`
or a :class:`boardgames.envs.core.game.Game` whose states are :class:`boardgames.envs.core.kernel_state.KernelState`):

* :class:`BatchedGames`, self-play: every game advances by one decision per :meth:`BatchedGames.step`
  (the action of the seat to move, or one action per seat where all act at once); ended games
  restart at once. Masks, observations (of the seat to move), seat to move, rewards per seat and
  terminated/truncated flags are numpy arrays refreshed in place by the same compiled call.
* :class:`LearnerBatch`, one learning seat per game: the other seats are played inside the batch by
  ``opponent`` (``"random"``: uniformly random legal actions, in compiled code; a batch callback
  ``policy(obs, masks) -> actions`` given the observations and masks of the seats to play, each from
  its own seat's point of view; or an object of the :class:`BatchOpponent` protocol, told which games
  restart and asked, with each pair's game and seat, for the moves: an opponent chosen per game and
  episode, e.g. from a pool). It follows the rules of
  :class:`boardgames.envs.adapters.single_agent.SingleAgentEnv` (reward at the end, on the learner's last action;
  turn limit = truncation) and is what :mod:`boardgames.envs.vector.gym_vector` and :mod:`boardgames.envs.vector.sb3`
  wrap.

Both take ``threads`` (:mod:`boardgames.envs.vector.threads`: ``"auto"``, the default, threads only where they
help: never for 64 games or fewer, nor while torch uses more than one thread, only on idle cores and only
while timing shows them faster; True for the cores torch leaves free; False for one; or a count; the same
results whatever the count) and ``obs_dtype``: ``"float32"`` (the games' planes) or
``"uint8"`` (the same planes times 255, rounded: a quarter of the memory traffic, which is what bounds
large batches of the games with large observations; :func:`obs_to_float` or, in torch,
``t.float().div_(255)`` gives the float planes back, exact for 0 and 1, within 1/510 elsewhere), and
``packed_masks``: False (bool masks) or True, the masks packed eight actions to a byte (uint8, bit ``a % 8``
of byte ``a // 8``; :mod:`boardgames.envs.vector.packed`: an eighth of the bytes, what bounds large batches of ADIX;
:meth:`BatchedGames.bool_masks`, :func:`boardgames.envs.vector.packed.unpack_masks` or, in torch,
:func:`boardgames.envs.vector.packed.unpack_masks_torch` give the bool masks back).
"""

from __future__ import annotations

import os
from typing import Protocol

import numpy as np

from boardgames.envs.adapters.illegal import (
    DEFAULT_ILLEGAL_ACTION,
    check_illegal_action_mode,
    loser_returns,
    warn_illegal,
)
from boardgames.envs.compiled.sampling import (
    first_illegal,
    sample_actions,
    sample_actions_threaded,
    sample_listed,
    seed_rng,
)
from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.core.game import Game, is_integer
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.vector.loops import batch_loops, list_width
from boardgames.envs.vector.memory import batch_tile, batch_zeros, readonly_view
from boardgames.envs.vector.packed import (
    first_illegal_packed,
    packed_width,
    sample_packed,
    sample_packed_threaded,
    unpack_masks,
)
from boardgames.envs.vector.threads import AUTO, ThreadChooser, resolve_threads, thread_switch


def check_actions(masks: np.ndarray, actions: np.ndarray, who: str = "game", seats: int = 1) -> None:
    """IllegalActionError naming the first of ``actions`` (one per row of the 2-D ``masks``; with
    ``seats`` > 1, row = game * seats + seat) that is not legal; nothing has been played then."""
    i = int(first_illegal(masks, actions))
    if i >= 0:
        a = int(actions[i])
        why = "out of range" if not 0 <= a < masks.shape[1] else "illegal"
        where = f"{who} {i}" if seats == 1 else f"{who} {i // seats}, seat {i % seats}"
        raise IllegalActionError(
            f"{where}: action {a} is {why} (legal: {np.flatnonzero(masks[i]).tolist()[:20]}"
            f"{' ...' if masks[i].sum() > 20 else ''}); nothing was played"
        )


def batch_actions(actions, shape: tuple, num_actions: int, who: str = "game") -> np.ndarray:
    """``actions`` as an int64 array of ``shape``: IllegalActionError for an array of floats, bools or
    strings (values that are not actions at all, as the single-game API refuses them), ValueError for
    a wrong number of actions. Cheap for an int64 array of the right shape (the usual case): the range
    and the masks are checked by :func:`first_illegal`, one compiled call."""
    arr = actions if type(actions) is np.ndarray else np.asarray(actions)
    if arr.dtype != np.int64:
        if arr.dtype.kind not in "iu":
            kind = f"got an array of {arr.dtype}"
            raise IllegalActionError(f"{who}: actions are integers in 0..{num_actions - 1}, {kind}")
        arr = arr.astype(np.int64)
    if arr.shape != shape:
        if arr.size != int(np.prod(shape)):
            raise ValueError(f"expected actions of shape {shape}, got {arr.shape}")
        arr = arr.reshape(shape)
    return arr


def refuse_out_of_range(actions: np.ndarray, num_actions: int, who: str = "game") -> None:
    """IllegalActionError naming the first of ``actions`` outside ``0..num_actions-1`` (whatever the
    ``illegal_action`` mode: such a value is no action at all)."""
    flat = actions.reshape(-1)
    out = (flat < 0) | (flat >= num_actions)
    if out.any():
        i = int(np.flatnonzero(out)[0])
        raise IllegalActionError(f"{who} {i}: action {int(flat[i])} is out of range 0..{num_actions - 1}")


def forbidden_rows(masks: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """Bool per row of the 2-D ``masks``: the in-range action of that row is not legal."""
    return ~masks[np.arange(masks.shape[0]), actions]


def _where(rows: np.ndarray) -> str:
    """Which games of a batch a warning speaks of: the first of ``rows``, and how many more."""
    more = f" and {len(rows) - 1} more" if len(rows) > 1 else ""
    return f" (batched: game {int(rows[0])}{more})"


def resolve_game(game, game_options: dict | None = None) -> Game:
    """A Game from a registered name (with ``game_options``) or a Game itself."""
    if isinstance(game, Game):
        return game
    from boardgames.envs.registry import make_game

    return make_game(game, **(game_options or {}))


OBS_DTYPES = {"float32": np.float32, "uint8": np.uint8}


def legal_check(masks: np.ndarray, actions: np.ndarray, num_actions: int) -> int:
    """:func:`boardgames.envs.compiled.sampling.first_illegal` for the 2-D ``masks`` of a batch, bool or packed (uint8):
    the first row whose action is not legal, -1 when all are (one compiled call)."""
    if masks.dtype == np.uint8:
        return int(first_illegal_packed(masks, actions, num_actions))
    return int(first_illegal(masks, actions))


def as_bool_masks(masks: np.ndarray, num_actions: int) -> np.ndarray:
    """A batch's ``masks`` as bool masks: themselves, or unpacked (a new array) when packed. The batches
    call it on their own arrays; what they hand out is :func:`handed_bool_masks`."""
    return unpack_masks(masks, num_actions) if masks.dtype == np.uint8 else masks


def handed_bool_masks(masks: np.ndarray, view: np.ndarray, num_actions: int) -> np.ndarray:
    """What a batch's ``bool_masks()`` hands out for its own ``masks`` and their read-only ``view``: the
    view itself (bool masks), or a new array of them unpacked (packed masks). Never the batch's own array:
    writing it would change what the step checks the actions against."""
    return unpack_masks(masks, num_actions) if masks.dtype == np.uint8 else view


MAX_GAMES = 1 << 24
"""The most games a batch holds, 2**24 = 16,777,216 (the benchmarks measure up to 4,096): with the rule
of :func:`check_batch_memory` on the memory they take, a size that is a mistake is refused before anything
is allocated, whatever the machine."""


def physical_memory() -> int | None:
    """Bytes of the machine's physical memory (all of it, not what is free now); None where the platform
    does not say (then only :data:`MAX_GAMES` bounds a batch)."""
    try:
        pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * page if pages > 0 and page > 0 else None


def _gib(nbytes: int) -> str:
    return f"{nbytes / 2**30:,.1f} GiB"


def check_num_games(num_games) -> int:
    """The ``num_games`` argument of a batch as an int; :class:`GameOptionError` naming it unless it is an
    integer (a Python or numpy integer, not a bool, a float or a string) in 1..:data:`MAX_GAMES`."""
    if not is_integer(num_games) or num_games < 1:
        raise GameOptionError(f"num_games must be a whole number >= 1, got {num_games!r} (range 1..{MAX_GAMES})")
    if num_games > MAX_GAMES:
        raise GameOptionError(
            f"num_games must be a whole number <= {MAX_GAMES} (2**24), got {num_games!r} (range 1..{MAX_GAMES})"
        )
    return int(num_games)


def check_batch_memory(num_games: int, bytes_per_game: int) -> None:
    """:class:`GameOptionError` when ``num_games`` games of ``bytes_per_game`` bytes of arrays each would take
    more than the machine's :func:`physical_memory`; called before the batch allocates them."""
    need, have = num_games * bytes_per_game, physical_memory()
    if have is not None and need > have:
        raise GameOptionError(
            f"num_games={num_games}: the batch's arrays would take {_gib(need)} ({bytes_per_game:,} bytes a game), "
            f"more than this machine's {_gib(have)} of memory (at most {have // bytes_per_game:,} games here)"
        )


def batch_bytes_per_game(info, large: int) -> int:
    """The bytes of a batch's arrays per game: ``large``, those of its states, observations, masks and lists
    of legal actions, and those of its flags, rewards, actions and generators (at most 64 bytes and 32 per
    seat of ``info``'s game)."""
    return int(large) + 64 + 32 * int(info.num_seats)


def check_game_index(i, num_games: int) -> int:
    """``i`` as an int; ValueError unless it is one of a batch's games ``0..num_games-1``: a negative index
    is refused, not counted from the end, and so are bools, floats and strings."""
    if type(i) is int and 0 <= i < num_games:  # the common case, first
        return i
    if not is_integer(i) or not 0 <= i < num_games:
        raise ValueError(
            f"{i!r} is not a game of this batch of {num_games} (games 0..{num_games - 1}; "
            "a negative index is refused, not counted from the end)"
        )
    return int(i)


def row_state(game: Game, row: np.ndarray):
    """A State of ``game``'s engine holding a copy of ``row``, one game's row of a batch's ``states``."""
    return type(game.new_initial_state())(game, row.copy())


def check_obs_dtype(obs_dtype) -> type:
    """The numpy type of an ``obs_dtype`` argument ("float32" or "uint8", or those numpy types)."""
    name = np.dtype(obs_dtype).name if not isinstance(obs_dtype, str) else obs_dtype
    if name not in OBS_DTYPES:
        raise ValueError(f"obs_dtype is 'float32' or 'uint8', got {obs_dtype!r}")
    return OBS_DTYPES[name]


def check_packed_masks(packed_masks) -> bool:
    """A ``packed_masks`` argument: True or False (a clear error for anything else)."""
    if not isinstance(packed_masks, (bool, np.bool_)):
        raise ValueError(f"packed_masks is True or False, got {packed_masks!r}")
    return bool(packed_masks)


def mask_zeros(leading: tuple, num_actions: int, packed: bool) -> np.ndarray:
    """A batch's ``masks`` array, all False: ``leading + (num_actions,)`` bools, or with ``packed`` their
    packed bytes, ``leading + (ceil(num_actions / 8),)`` uint8 (:func:`boardgames.envs.vector.memory.batch_zeros`)."""
    if packed:
        return batch_zeros(tuple(leading) + (packed_width(num_actions),), np.uint8)
    return batch_zeros(tuple(leading) + (int(num_actions),), np.bool_)


def obs_to_float(obs: np.ndarray) -> np.ndarray:
    """Float32 observations from a batch's ``obs`` (uint8 ones divided by 255; float32 ones as they are)."""
    if obs.dtype == np.uint8:
        return np.divide(obs, np.float32(255.0), dtype=np.float32)
    return obs


def obs_space(batch):
    """The Gymnasium space of one observation of ``batch``: Box [0, 1] float32, or [0, 255] uint8."""
    from gymnasium import spaces

    if batch.obs.dtype == np.uint8:
        return spaces.Box(0, 255, shape=batch.obs_shape, dtype=np.uint8)
    return spaces.Box(0.0, 1.0, shape=batch.obs_shape, dtype=np.float32)


class BatchedGames:
    """``num_games`` self-play games of ``game`` as one ``(num_games, STATE_SIZE)`` array.

    ``num_games``: an integer (not a bool or a float) in 1..:data:`MAX_GAMES` (2**24) whose batch fits in
    the machine's physical memory: ``num_games`` times the bytes of a game's arrays (its state,
    observations, masks and list of legal actions, and at most 64 bytes plus 32 per seat of flags,
    rewards and generators: about 5 KB for DORIX, 19 KB for OLIX, 22 KB for ADIX with float32
    observations, :func:`batch_bytes_per_game`) at most :func:`physical_memory`, all of it (not what is
    free now). Anything else is refused with GameOptionError, before anything is allocated.

    After construction and after every :meth:`step`:

    * ``states``: the positions, one row per game (``KernelState`` data layout);
    * ``to_move``: the seat to act in each game (turn-based games);
    * ``masks``: legal actions, bool ``(N, A)`` for the seat to move, ``(N, seats, A)`` when all
      seats act at once (``GameInfo.acting_seats``); with ``packed_masks=True``, uint8 with
      ``ceil(A / 8)`` entries on the last axis instead (see the module docstring, :meth:`bool_masks`).
      Read-only: the step checks the actions against the batch's own copy, which only the rules
      kernels write, so writing the masks cannot make an illegal action pass (copy them to change them);
    * ``obs``: observations, float32 ``(N, *shape)`` of the seat to move, ``(N, seats, *shape)`` when
      all act at once (not computed with ``observe=False``);
    * after a step, ``rewards`` ``(N, seats)`` holds the returns of the games that ended at this step
      (0 elsewhere) and ``terminated`` / ``truncated`` flag them; those games already restarted.

    ``threads``: ``"auto"`` (the default) spreads the games of a step over threads only where they help
    (never for 64 games or fewer nor while torch uses more than one thread, only on cores other work leaves
    idle, and only while timing the steps shows them faster: :mod:`boardgames.envs.vector.threads`); True over
    the cores torch leaves free, an int over that many threads, False runs them on one (numba's ``prange``);
    the results are the same whatever the count. ``threads`` holds the most threads the steps may use.
    ``obs_dtype="uint8"``: ``obs`` holds the observations times 255 as uint8 (see the module docstring).
    ``packed_masks=True``: ``masks`` holds the masks packed eight actions to a byte (module docstring).

    ``illegal_action`` (:mod:`boardgames.envs.adapters.illegal`): an action the mask forbids makes its game end at
    once, the offender's side losing (``"lose"``, the default: ``rewards`` -1 for that side, 0 for the
    others, ``terminated``; the game restarts), raises IllegalActionError with nothing played
    (``"raise"``), or is replaced by a random legal action (``"random"``). ``forfeited`` flags the games
    ended so at the last step. Arrays of floats, bools or strings and out-of-range actions always raise.
    """

    def __init__(
        self,
        game="dorix",
        num_games: int = 1024,
        game_options: dict | None = None,
        observe: bool = True,
        seed: int | None = None,
        threads: bool | int | str = AUTO,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        obs_dtype="float32",
        packed_masks: bool = False,
    ):
        self.game = resolve_game(game, game_options)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        obs_type = check_obs_dtype(obs_dtype)
        self.packed_masks = check_packed_masks(packed_masks)
        self.num_games = n = check_num_games(num_games)
        info = self.game.info
        self.acting = info.acting_seats  # actions per game and step: 1, or one per seat
        self.num_seats = info.num_seats
        self.num_actions = info.num_actions
        packed_actions = info.num_actions if self.packed_masks else 0
        kernels = kernels_of(self.game, "batching")
        self.template = self.game.new_initial_state().data.copy()
        mask_width = packed_width(info.num_actions) if self.packed_masks else info.num_actions
        obs_bytes = int(np.prod(info.observation_shape)) * np.dtype(obs_type).itemsize if observe else 0
        lists_bytes = 2 * list_width(kernels)  # uint16 entries
        large = self.template.nbytes + self.acting * (obs_bytes + mask_width + lists_bytes)
        check_batch_memory(n, batch_bytes_per_game(info, large))
        self.k = batch_loops(kernels, self.acting, info.observation_shape, obs_type is np.uint8, packed_actions)
        self.threads = resolve_threads(threads, n)  # 1: the serial loops
        self._chooser = ThreadChooser(n) if threads == AUTO and self.threads > 1 else None
        self._step = self._threaded(self.k.step, self.k.step_threaded, timed=True)
        self._refresh = self.k.refresh  # at resets only: not worth a second compiled form
        serial, threaded = (
            (sample_packed, sample_packed_threaded) if self.packed_masks else (sample_actions, sample_actions_threaded)
        )
        self._sample = self._threaded(serial, threaded, timed=False)
        self.states = batch_tile(self.template, n)  # the large arrays on huge pages (boardgames.envs.vector.memory)
        self.observe = bool(observe)
        per_game = (n,) if self.acting == 1 else (n, self.acting)
        self._masks = mask_zeros(per_game, info.num_actions, self.packed_masks)
        self.masks = readonly_view(self._masks)  # the legality check reads self._masks, which no caller can write
        # without observations, a placeholder with the right number of dimensions (never written)
        obs_shape = (
            per_game + tuple(info.observation_shape)
            if observe
            else (1,) * (len(per_game) + len(info.observation_shape))
        )
        self.obs = batch_zeros(obs_shape, obs_type)
        self.to_move = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, self.num_seats), dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.forfeited = np.zeros(n, dtype=np.bool_)
        self._any_forfeited = False
        self._actions = np.zeros(per_game, dtype=np.int64)
        self._scratch = np.zeros(info.num_actions, dtype=np.bool_)
        # Each mask's legal actions listed (count first), written by the compiled loops with the mask once
        # random_actions has been called (self._list), for the games whose mask kernel lists them as it goes
        # (legal_mask_listed): the draws then read one entry of a list instead of the whole mask.
        # self._lists_ok: they describe the current masks.
        width = list_width(kernels)
        self._lists = batch_zeros(per_game + (width,), np.uint16)
        self._list = False
        self._lists_ok = False
        # The random draws for the next masks, made by the step that wrote them, on its threads (see
        # random_actions): self._draw_next, the next step makes them; self._drawn_ok, _drawn holds them.
        self._drawn = np.zeros(per_game, dtype=np.int64)
        self._draw_next = False
        self._drawn_ok = False
        self.reset(seed)

    def _threaded(self, serial, threaded, timed: bool):
        """A loop run on this batch's threads: ``serial``, or ``threaded`` (its ``parallel=True`` form) on
        ``threads`` threads, or, with ``threads="auto"``, whichever its chooser picks (``timed``: the step)."""
        return thread_switch(serial, threaded, self.threads, self._chooser, timed)

    def reset(self, seed: int | None = None) -> None:
        """Restart every game; ``seed`` seeds :meth:`random_actions`."""
        self.rng = seed_rng(seed, self.num_games * self.acting)
        self.states[:] = self.template
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self._refresh_all()

    def step(self, actions) -> None:
        """Play ``actions`` (``(N,)`` for the seats to move, ``(N, seats)`` where all act at once; each
        legal in ``masks``, else IllegalActionError and nothing is played), restart the ended games,
        refresh every array."""
        masks = self._masks.reshape(-1, self._masks.shape[-1])
        actions = batch_actions(actions, self._actions.shape, self.num_actions)
        if self._any_forfeited:
            self.forfeited[:] = False
            self._any_forfeited = False
        if legal_check(masks, actions.reshape(-1), self.num_actions) >= 0:  # the slow path: what is wrong, the mode
            masks = as_bool_masks(self._masks, self.num_actions).reshape(-1, self.num_actions)
            refuse_out_of_range(actions, masks.shape[1])
            if self.illegal_action == "raise":
                check_actions(masks, actions.reshape(-1), "game", self.acting)
            bad = forbidden_rows(masks, actions.reshape(-1))
            actions = actions.copy()
            flat = actions.reshape(-1)
            flat[bad] = self.random_actions().reshape(-1)[bad]  # "random"; "lose": a stand-in, undone below
            if self.illegal_action == "lose":
                self._forfeit_after_step(actions, bad.reshape(self.num_games, self.acting))
                return
        self._play(actions)

    def _refresh_all(self) -> None:
        """Masks (and their lists, see ``_lists``), seats to move and observations of every game."""
        self._refresh(self.states, self._masks, self.obs, self.to_move, self.observe, self._lists, self._list)
        self._lists_ok = self._list
        self._drawn_ok = False

    def _play(self, actions: np.ndarray) -> None:
        """One compiled step of every game with ``actions`` (checked), ended games restarted."""
        self._lists_ok = self._drawn_ok = False
        draw = self._draw_next and self._list
        self._step(
            self.states,
            actions,
            self.template,
            self.rewards,
            self.terminated,
            self.truncated,
            self._masks,
            self.obs,
            self.to_move,
            self.observe,
            self._lists,
            self._list,
            self.rng,
            self._drawn,
            draw,
        )
        self._lists_ok = self._list
        self._drawn_ok = draw
        self._draw_next = False

    def _forfeit_after_step(self, actions: np.ndarray, offenders: np.ndarray) -> None:
        """``illegal_action="lose"``: play the step (the offenders' actions replaced by legal stand-ins),
        then end the games of ``offenders`` (bool ``(N, acting)``) with their sides losing, and restart
        them."""
        rows = np.flatnonzero(offenders.any(axis=1))
        seats_of = {  # the offending seats of each such game, read before the step moves on
            int(i): [int(self.to_move[i])] if self.acting == 1 else np.flatnonzero(offenders[i]).tolist() for i in rows
        }
        self._play(actions)
        info = self.game.info
        for i, seats in seats_of.items():
            self.rewards[i] = loser_returns(info, seats)
        warn_illegal(info, seats_of[int(rows[0])], _where(rows))
        self.terminated[rows] = True
        self.truncated[rows] = False
        self.forfeited[rows] = True
        self._any_forfeited = True
        self.states[rows] = self.template
        self._refresh_all()

    def random_actions(self) -> np.ndarray:
        """Uniformly random legal actions for the masks as the last :meth:`reset` or :meth:`step` wrote
        them (compiled; seeded by :meth:`reset`). From the second call on, the steps of the games whose mask
        kernel can list the legal actions as it goes (ADIX, Barc) also write those lists, and the draws
        read one entry of a list instead of the whole mask: the same actions and generator states.

        A step that follows a call of this method also makes the next call's draws itself, each game's by
        the thread that wrote its list, right after writing it (``_drawn``): the same generators in the same
        order, so the same actions, without a serial pass over the lists that the other threads wrote.
        (Only the step after a call: a batch stepped with other actions draws nothing.)"""
        self._draw_next = True
        if self._drawn_ok:
            self._drawn_ok = False
            self._actions[...] = self._drawn
            return self._actions
        out = self._actions.reshape(-1)
        if self._lists_ok:
            # serial whatever self.threads: one list entry per game costs less than starting the threads
            sample_listed(self._lists.reshape(-1, self._lists.shape[-1]), self.rng, out)
        else:  # bool or packed masks (self._sample takes either)
            self._sample(self._masks.reshape(-1, self._masks.shape[-1]), self.rng, out)
            self._list = self.k.lists  # lists from the next step on, where the game writes them
        return self._actions

    def bool_masks(self) -> np.ndarray:
        """``masks`` as bool masks, shape ``(N, A)``, or ``(N, seats, A)`` where all seats act at once: ``masks``
        itself, a read-only view of the batch's masks (writing it raises ValueError; the next step refreshes
        it in place, so copy it to keep it), or with ``packed_masks=True`` a new array of them unpacked, the
        caller's own (writing it changes nothing in the batch). Either way the step checks the actions
        against the batch's own masks, which only the rules kernels write."""
        return handed_bool_masks(self._masks, self.masks, self.num_actions)

    def random_playouts(self, turns: int) -> int:
        """Play ``turns`` uniformly random steps in every game inside one compiled loop (no arrays
        refreshed between steps; restarts included); returns how many games ended. Refreshes after."""
        ended = self.k.random_playouts(self.states, self.template, self.rng, self._scratch, int(turns))
        self._refresh_all()
        return int(ended)

    def state(self, i: int):
        """Game ``i`` (an integer in ``0..N-1``: ValueError for a negative one, which is not counted from the
        end, one out of range, a bool, a float...) as a State of the engine (a copy of its row)."""
        return row_state(self.game, self.states[check_game_index(i, self.num_games)])


class BatchOpponent(Protocol):
    """The protocol of an opponent *object* of :class:`LearnerBatch`: one that knows which game and seat each
    move is for, so that it can play a different agent in each game (drawn per episode from a pool, a
    partner at team games...) and see the positions themselves (``batch.state(i)``).

    Both methods get ``rng``, the batch's numpy Generator for its opponents (``opponent_rng``, seeded by the
    batch's ``seed`` at each :meth:`LearnerBatch.reset`; the compiled per-game generators of the learner
    seats are not touched), so that a seeded batch plays the same games.
    """

    def assign(self, batch: LearnerBatch, rows: np.ndarray, rng: np.random.Generator) -> None:
        """Games ``rows`` (int64 indices) of ``batch`` have just (re)started: their learner seats are drawn
        (``batch.learner[rows]``) and nobody has moved yet. Choose who plays their other seats this
        episode. Called by :meth:`LearnerBatch.reset` for every game, then whenever games restart."""

    def actions(
        self,
        batch: LearnerBatch,
        rows: np.ndarray,
        seats: np.ndarray,
        obs: np.ndarray,
        masks: np.ndarray,
        rng: np.random.Generator,
    ) -> np.ndarray:
        """The M actions of seat ``seats[k]`` in game ``rows[k]`` (never the learner's seat), given their
        float32 observations ``obs`` ``(M, *shape)`` and bool ``masks`` ``(M, A)``, each from that seat's
        point of view (the caller's own copies; ``batch.state(rows[k])`` is the position as a State). They
        are checked against the masks: an illegal one raises IllegalActionError."""


def is_batch_opponent(opponent) -> bool:
    """Whether ``opponent`` is an object of the :class:`BatchOpponent` protocol (``assign`` and ``actions``),
    rather than ``"random"`` or a plain callback (checked at every round of moves: two attribute look-ups)."""
    return callable(getattr(opponent, "assign", None)) and callable(getattr(opponent, "actions", None))


class LearnerBatch:
    """``num_games`` games, each with one learning seat; the other seats are played inside the batch.

    Args:
        game: registered game name or a Game.
        num_games: batch size N, an integer in 1..:data:`MAX_GAMES` whose arrays (states, observations and
            final observations, masks) fit in the machine's physical memory, as for :class:`BatchedGames`
            (GameOptionError otherwise, before anything is allocated).
        game_options: options for :func:`boardgames.envs.registry.make_game`.
        opponent: ``"random"`` (compiled uniform random legal play), a batch callback
            ``policy(obs, masks) -> actions`` (obs float32 ``(M, *shape)`` and bool masks ``(M, A)`` of the
            M seats to play, each seen from its own seat; returns M actions; partners in team games are
            played by the same policy, as in SingleAgentEnv's default), or a :class:`BatchOpponent` object
            (``assign`` at each restart, ``actions`` with each pair's game and seat: an opponent per game
            and episode, partners of their own; :class:`boardgames.training.sb3.selfplay.PoolOpponent`).
        learner_seat: fixed seat of the learner, or None for a random seat each episode (GameOptionError
            for anything but one of the game's seats).
        seed: seeds the learner seats and the random opponents (and ``opponent_rng``, the generator given
            to a :class:`BatchOpponent`).
        illegal_action: what a learner action the mask forbids does (:mod:`boardgames.envs.adapters.illegal`):
            ``"lose"`` (default: that game ends, reward -1, ``terminated``, flagged in ``forfeited``,
            and restarts), ``"raise"`` (IllegalActionError, nothing played) or ``"random"`` (a random
            legal action instead). An opponent callback's illegal action always raises.
        threads: ``"auto"`` (the default: threads only where they help, see :class:`BatchedGames`), True (the
            cores torch leaves free), False (serial) or a thread count, for the step with random opponents
            (one compiled pass per step); the same results whatever the count.
        obs_dtype: ``"float32"`` or ``"uint8"`` (``obs`` and ``final_obs`` times 255, see the module
            docstring); an opponent callback is always given float32 observations.
        packed_masks: False (bool ``masks``) or True (``masks`` packed eight actions to a byte, see the
            module docstring and :meth:`bool_masks`); an opponent callback is always given bool masks, its
            own copy (what it writes there changes nothing: its actions are checked against the batch's).

    With ``opponent="random"`` a step is one compiled call (the learner's action, the opponents'
    replies, rewards, restarts, masks and observations, game by game) writing into the same arrays.

    After :meth:`reset` and :meth:`step`: ``obs`` ``(N, *shape)`` and ``masks`` ``(N, A)`` (packed:
    ``(N, ceil(A / 8))`` uint8, read-only as in :class:`BatchedGames`) of each learner, ``learner`` (its seat
    per game); after :meth:`step` also
    ``rewards`` ``(N,)``, ``terminated``, ``truncated`` and, for the games that ended (``restarted``),
    ``final_obs``.
    """

    def __init__(
        self,
        game="dorix",
        num_games: int = 64,
        game_options: dict | None = None,
        opponent="random",
        learner_seat: int | None = None,
        seed: int | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        threads: bool | int | str = AUTO,
        obs_dtype="float32",
        packed_masks: bool = False,
    ):
        self.game = resolve_game(game, game_options)
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self.obs_dtype = check_obs_dtype(obs_dtype)
        self.packed_masks = check_packed_masks(packed_masks)
        self.num_games = n = check_num_games(num_games)
        self.threads = resolve_threads(threads, n)
        self._chooser = ThreadChooser(n) if threads == AUTO and self.threads > 1 else None
        info = self.game.info
        if learner_seat is not None and not (is_integer(learner_seat) and 0 <= learner_seat < info.num_seats):
            raise GameOptionError(f"learner_seat must be a seat in 0..{info.num_seats - 1}, got {learner_seat!r}")
        if not (opponent == "random" or callable(opponent) or is_batch_opponent(opponent)):
            raise TypeError(
                "opponent is 'random', a callable policy(obs, masks) -> actions or a BatchOpponent "
                f"(assign and actions), got {opponent!r}"
            )
        self.opponent = opponent
        self.acting = info.acting_seats
        self.num_seats = info.num_seats
        self.num_actions = info.num_actions
        self.obs_shape = tuple(info.observation_shape)
        self.fixed_seat = -1 if learner_seat is None else int(learner_seat)
        self._load_kernels()
        self.template = self.game.new_initial_state().data.copy()
        mask_width = packed_width(info.num_actions) if self.packed_masks else info.num_actions
        obs_bytes = int(np.prod(self.obs_shape)) * np.dtype(self.obs_dtype).itemsize  # twice: obs and final_obs
        check_batch_memory(n, batch_bytes_per_game(info, self.template.nbytes + 2 * obs_bytes + mask_width))
        self.states = batch_tile(self.template, n)  # the large arrays on huge pages (boardgames.envs.vector.memory)
        self.learner = np.zeros(n, dtype=np.int64)
        self._masks = mask_zeros((n,), info.num_actions, self.packed_masks)
        self.masks = readonly_view(self._masks)  # the legality check reads self._masks, which no caller can write
        self.obs = batch_zeros((n,) + self.obs_shape, self.obs_dtype)
        self.final_obs = batch_zeros(self.obs.shape, self.obs.dtype)
        self.rewards = np.zeros(n, dtype=np.float32)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.restarted = np.zeros(n, dtype=np.bool_)
        self.forfeited = np.zeros(n, dtype=np.bool_)
        self._any_forfeited = False
        self._no_skip = np.zeros(n, dtype=np.bool_)  # the fused step's ``skip`` when no game sits a step out
        self._ret = np.zeros(info.num_seats, dtype=np.float32)
        self._scratch = np.zeros(info.num_actions, dtype=np.bool_)
        self._rows = np.zeros(n * info.num_seats, dtype=np.int64)
        self._seats = np.zeros(n * info.num_seats, dtype=np.int64)
        self._opp_actions = np.zeros((n, info.num_seats), dtype=np.int64)
        self._seed = seed
        self._interrupted = False
        self.rng = seed_rng(seed, n)
        self.opponent_rng = _opponent_generator(seed)

    def __getstate__(self) -> dict:
        """Pickling and deep copies: the game's kernels and their compiled loops are found again on loading."""
        state = self.__dict__.copy()
        del state["_kernels"], state["k"], state["_learner_step"], state["masks"]  # masks: a view, made again
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.__dict__.setdefault("obs_dtype", np.float32)  # pickled before these options existed
        self.__dict__.setdefault("threads", 1)
        self.__dict__.setdefault("_chooser", None)
        self.__dict__.setdefault("packed_masks", False)
        self.__dict__.setdefault("opponent_rng", _opponent_generator(None))
        self.__dict__.setdefault("_no_skip", np.zeros(self.num_games, dtype=np.bool_))
        if "_masks" not in self.__dict__:  # pickled when the masks were handed out as they are
            self._masks = np.array(self.__dict__.pop("masks"))
        self.masks = readonly_view(self._masks)
        self._load_kernels()

    def _load_kernels(self) -> None:
        self._kernels = kernels_of(self.game, "batching")
        compact = self.obs_dtype is np.uint8
        packed_actions = self.num_actions if self.packed_masks else 0
        self.k = batch_loops(self._kernels, self.acting, self.obs_shape, compact, packed_actions)
        k = self.k
        self._learner_step = thread_switch(k.learner_step, k.learner_step_threaded, self.threads, self._chooser)

    def seed(self, seed: int | None) -> None:
        """Seed the next :meth:`reset` (learner seats and random opponents)."""
        self._seed = seed

    def reset(self) -> np.ndarray:
        """Restart every game (learner seats drawn, opponents play until each learner acts); the obs."""
        self.rng = seed_rng(self._seed, self.num_games)
        self.opponent_rng = _opponent_generator(self._seed)
        self._seed = None if self._seed is None else self._seed + 1  # the next reset differs
        self._interrupted = False
        everyone = np.ones(self.num_games, dtype=np.bool_)
        self.k.restart(self.states, everyone, self.learner, self.template, self.rng, self.fixed_seat, self.num_seats)
        self._assign(np.arange(self.num_games))
        self._play_others()
        self._restart_ended(np.arange(self.num_games))
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self.restarted[:] = False
        self.k.observe_learner(self.states, self.learner, self._masks, self.obs)
        return self.obs

    def step(self, actions, skip: np.ndarray | None = None) -> None:
        """Play the learners' ``actions`` (each legal in ``masks``, else IllegalActionError and nothing is
        played) and the other seats' replies; ended games give their reward and restart. An illegal
        action from the opponent callback raises IllegalActionError too; the batch then needs
        :meth:`reset` (some games may have moved on).

        ``skip``: None, or bool ``(N,)`` flagging the games that sit this step out: their actions are
        ignored (any integer will do), their position, mask, observation, learner seat and random
        generator stay as they are, their reward is 0 and their flags False. A game's generator draws
        the same numbers whichever steps it sits out, so its games are the same. This is the step
        :class:`boardgames.envs.vector.gym_vector.BatchedVectorEnv` spends, in NEXT_STEP mode, on handing
        out a game that restarted at the step before."""
        if self._interrupted:
            raise RuntimeError("an opponent callback gave an illegal action during the last step: call reset()")
        actions = batch_actions(actions, (self.num_games,), self.num_actions)
        sitting = self._sitting(skip)
        if sitting is not None:
            actions = self._stand_ins(actions, sitting)
        if self._any_forfeited:
            self.forfeited[:] = False
            self._any_forfeited = False
        before = None
        if legal_check(self._masks, actions, self.num_actions) >= 0:  # the slow path: what is wrong, the mode
            refuse_out_of_range(actions, self.num_actions)
            masks = as_bool_masks(self._masks, self.num_actions)
            if self.illegal_action == "raise":
                check_actions(masks, actions)
            bad = forbidden_rows(masks, actions)
            # "random": a random legal action instead; "lose": a legal stand-in, its game undone below
            actions = np.where(bad, self._random_learner_actions(), actions)
            if self.illegal_action == "lose":
                before = self.obs[bad].copy()
        use_random = self.opponent == "random"
        if use_random:
            if sitting is None:
                self._fused_step(actions)
            else:
                self._fused_step(actions, sitting)
            if before is not None:
                self._forfeit(bad, before)
                self.k.observe_learner(self.states, self.learner, self._masks, self.obs)
            return
        self._interrupted = True  # until the step is through
        if self.acting > 1:  # the other seats choose from the same states first
            self._ask_opponents_joint(sitting)
        if sitting is None:
            self.k.apply_learner(self.states, self.learner, actions, self._opp_actions, False, self.rng, self._scratch)
        else:  # only the games that play: the others' rows are left as they are
            rows = np.flatnonzero(~sitting)
            states = self.states[rows]
            self.k.apply_learner(
                states, self.learner[rows], actions[rows], self._opp_actions[rows], False, self.rng, self._scratch
            )
            self.states[rows] = states
        self._play_others()
        self._interrupted = False
        self._settle()
        if before is not None:
            self._forfeit(bad, before)
        self.k.observe_learner(self.states, self.learner, self._masks, self.obs)

    def _sitting(self, skip) -> np.ndarray | None:
        """The ``skip`` argument of :meth:`step` as a bool ``(N,)`` array, or None when no game sits out."""
        if skip is None:
            return None
        sitting = np.asarray(skip)
        if sitting.dtype != np.bool_ or sitting.shape != (self.num_games,):
            raise ValueError(f"skip is a bool array of shape ({self.num_games},), got {sitting.dtype} {sitting.shape}")
        return sitting if sitting.any() else None

    def _stand_ins(self, actions: np.ndarray, sitting: np.ndarray) -> np.ndarray:
        """``actions`` (a new array) with each sitting game's action replaced by its first legal action, so
        that the legality checks pass over it; the step plays none of them."""
        rows = np.flatnonzero(sitting)
        out = actions.copy()
        out[rows] = as_bool_masks(self._masks[rows], self.num_actions).argmax(axis=1)
        return out

    def _fused_step(self, actions: np.ndarray, skip: np.ndarray | None = None) -> None:
        """The step with random opponents as one compiled pass over the games (``learner_step``), the games
        flagged in ``skip`` left out."""
        skip = self._no_skip if skip is None else skip
        stuck = self._learner_step(
            self.states,
            self.learner,
            actions,
            self.template,
            self.rng,
            self.fixed_seat,
            self.num_seats,
            self.rewards,
            self.terminated,
            self.truncated,
            self.final_obs,
            self.restarted,
            self._masks,
            self.obs,
            skip,
        )
        if stuck >= 0:
            raise RuntimeError(f"{self.game.info.name}: games keep ending before the learner has a move (game {stuck})")

    def _random_learner_actions(self) -> np.ndarray:
        """A uniformly random legal action per game for the learners' masks (compiled draws)."""
        out = np.zeros(self.num_games, dtype=np.int64)
        (sample_packed if self.packed_masks else sample_actions)(self._masks, self.rng, out)
        return out

    def state(self, i: int):
        """Game ``i`` as a State of the engine (a copy of its row), as :meth:`BatchedGames.state`: what a
        :class:`BatchOpponent` that needs the position (the greedy agent) plays on."""
        return row_state(self.game, self.states[check_game_index(i, self.num_games)])

    def bool_masks(self) -> np.ndarray:
        """The learners' ``masks`` as bool ``(N, A)``: ``masks`` itself, a read-only view of the batch's masks
        (writing it raises ValueError; the next step refreshes it in place), or with ``packed_masks=True`` a
        new array of them unpacked, the caller's own (writing it changes nothing in the batch), as
        :meth:`BatchedGames.bool_masks`."""
        return handed_bool_masks(self._masks, self.masks, self.num_actions)

    def _forfeit(self, bad: np.ndarray, last_obs: np.ndarray) -> None:
        """``illegal_action="lose"``: the games of ``bad`` end as lost by the learner (reward -1,
        terminated, their last observation ``last_obs``), whatever their stand-in move did, and
        restart until each learner acts."""
        rows = np.flatnonzero(bad)
        warn_illegal(self.game.info, [int(self.learner[rows[0]])], _where(rows))
        self.rewards[rows] = -1.0
        self.terminated[rows] = True
        self.truncated[rows] = False
        self.restarted[rows] = True
        self.forfeited[rows] = True
        self._any_forfeited = True
        self.final_obs[rows] = last_obs
        self.k.restart(self.states, bad, self.learner, self.template, self.rng, self.fixed_seat, self.num_seats)
        self._assign(rows)
        self._play_others()
        self._restart_ended(rows)

    def _settle(self) -> None:
        """Rewards, flags and final observations of ended games; restart them until each learner acts."""
        n = self.k.finish(
            self.states,
            self.learner,
            self.template,
            self.rng,
            self.fixed_seat,
            self.num_seats,
            self._ret,
            self.rewards,
            self.terminated,
            self.truncated,
            self.final_obs,
            self.restarted,
        )
        if n:
            restarted = np.flatnonzero(self.restarted)
            self._assign(restarted)
            self._play_others()
            self._restart_ended(restarted)

    def _restart_ended(self, rows: np.ndarray) -> None:
        """Restart (again) the games among ``rows`` that ended before their learner acted."""
        for _ in range(1000):
            again = np.zeros(self.num_games, dtype=np.bool_)
            again[[i for i in rows if self._kernels.is_over(self.states[i])]] = True
            if not again.any():
                return
            self.k.restart(self.states, again, self.learner, self.template, self.rng, self.fixed_seat, self.num_seats)
            self._assign(np.flatnonzero(again))
            self._play_others()
        raise RuntimeError(f"{self.game.info.name}: games keep ending before the learner has a move")

    def _assign(self, rows: np.ndarray) -> None:
        """Tell a :class:`BatchOpponent` that games ``rows`` (re)started (nothing for the other opponents)."""
        if is_batch_opponent(self.opponent):
            self.opponent.assign(self, rows, self.opponent_rng)

    def _play_others(self) -> None:
        """The other seats play, round after round, until every game's learner is to act or its game is over."""
        if self.opponent == "random":
            self.k.play_random(self.states, self.learner, self.rng, self._scratch)
            return
        while True:
            m = self.k.pending(self.states, self.learner, self._rows, self._seats)
            if m == 0:
                return
            rows, seats = self._rows[:m].copy(), self._seats[:m].copy()
            masks = np.zeros((m, self.num_actions), dtype=np.bool_)
            obs = np.zeros((m,) + self.obs_shape, dtype=np.float32)
            self.k.observe_pairs(self.states, rows, seats, masks, obs)
            self.k.apply_pairs(self.states, rows, self._opponent_actions(rows, seats, obs, masks))

    def _opponent_actions(self, rows: np.ndarray, seats: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The opponent's actions for seat ``seats[k]`` of game ``rows[k]``, whose observations and masks are
        row k of ``obs`` and ``masks``, checked against ``masks`` (IllegalActionError): the opponent is
        given its own copy of them, so that writing what it is given cannot make its illegal actions pass."""
        if is_batch_opponent(self.opponent):
            acts = self.opponent.actions(self, rows, seats, obs, masks.copy(), self.opponent_rng)
        else:
            acts = self.opponent(obs, masks.copy())
        acts = batch_actions(acts, (masks.shape[0],), self.num_actions, "opponent callback, row")
        check_actions(masks, acts, "opponent callback, row")
        return acts

    def _ask_opponents_joint(self, sitting: np.ndarray | None = None) -> None:
        """Simultaneous games: the callback chooses every other seat's action from the same state (not asked
        for the games that sit the step out)."""
        n, s = self.num_games, self.num_seats
        grid_rows = np.repeat(np.arange(n), s)
        grid_seats = np.tile(np.arange(s), n)
        keep = grid_seats != self.learner[grid_rows]
        if sitting is not None:
            keep &= ~sitting[grid_rows]
        rows, seats = grid_rows[keep], grid_seats[keep]
        masks = np.zeros((len(rows), self.num_actions), dtype=np.bool_)
        obs = np.zeros((len(rows),) + self.obs_shape, dtype=np.float32)
        self.k.observe_pairs(self.states, rows, seats, masks, obs)
        acts = self._opponent_actions(rows, seats, obs, masks)
        self._opp_actions[:] = 0
        self._opp_actions[rows, seats] = acts


def _opponent_generator(seed: int | None) -> np.random.Generator:
    """The numpy Generator a :class:`LearnerBatch` gives its :class:`BatchOpponent` for ``seed`` (a stream of its
    own, apart from the compiled per-game generators ``seed`` also seeds)."""
    return np.random.default_rng(None if seed is None else [int(seed), 0x0B0])
