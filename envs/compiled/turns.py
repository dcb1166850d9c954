"""The per-turn work of the PettingZoo adapters, one call per turn: :func:`turn_kernels` for the AEC
adapter (:mod:`boardgames.envs.adapters.aec_env`), :func:`joint_kernels` for the Parallel adapter
(:mod:`boardgames.envs.adapters.parallel_env`).

Each returns an object whose calls play a move and leave, in arrays the adapter hands them, what the
adapter needs for the next one: the legal masks (a bool copy the adapter keeps for its checks and an
int8 copy it hands out) and the observations. Each call returns a *code*, an int: ``code & SEAT_BITS``
is the seat to act (AEC) or has a bit set for each seat whose order the masks forbade (Parallel),
``OVER_BIT`` and ``TRUNCATED_BIT`` say whether the game is over and truncated, ``code >> TURN_SHIFT`` is
the turn.

For a :class:`boardgames.envs.core.kernel_state.KernelState` game that overrides none of the methods they stand
in for, these are functions of the game's engine (:mod:`boardgames.envs.compiled.engines`: ``turn_refresh``,
``turn_apply``, ``joint_refresh``, ``joint_step``, each playing a move through the engine's one ``step``):
a turn is one compiled call. Any other
:class:`boardgames.envs.core.game.State` gets the same calls written over the State interface in Python
(:func:`plain_turn_kernels`, :func:`plain_joint_kernels`), so the adapters have one path.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from boardgames.envs.compiled.engines import engine
from boardgames.envs.core.game import Game, State
from boardgames.envs.core.game_kernels import GameKernels
from boardgames.envs.core.kernel_state import KernelState

SEAT_BITS = 0xFFFF  # AEC: the seat to act; Parallel: one bit per seat whose order the mask forbade
OVER_BIT = 1 << 16
TRUNCATED_BIT = 1 << 17
TURN_SHIFT = 18

# State methods the compiled kernels stand in for: a KernelState subclass overriding one of them gets
# the plain kernels (its own methods), not the compiled ones.
_STAND_INS = (
    "legal_mask",
    "observation",
    "_apply",
    "_apply_joint",
    "is_terminal",
    "is_truncated",
    "returns",
    "current_seats",
    "current_seat",
    "turn",
)


def compiled(state_class: type) -> TypeGuard[type[KernelState]]:
    """Whether the adapters may run ``state_class``'s turns as compiled kernels: a :class:`KernelState`
    overriding none of the methods the kernels stand in for."""
    return issubclass(state_class, KernelState) and all(
        getattr(state_class, m) is getattr(KernelState, m) for m in _STAND_INS
    )


def compiled_kernels(game: Game) -> GameKernels | None:
    """The :class:`GameKernels` of ``game``'s states where its State class is :func:`compiled` (what the
    compiled search runs on), else None."""
    state_class = getattr(game, "state_class", None)
    return state_class.kernels if state_class is not None and compiled(state_class) else None


_BY_CLASS: dict = {}  # state class -> its kernels, compiled or plain (one lookup per reset)


class _Kernels:
    """A pair of an adapter's kernels, ``refresh`` and the move that ends with it, called on
    ``subject(state)``."""

    __slots__ = ("refresh", "compiled")
    refresh: Any
    compiled: bool

    def subject(self, state: State):
        """What the kernels take in place of ``state``: its array (compiled kernels) or itself."""
        return state.data if self.compiled else state


class TurnKernels(_Kernels):
    """The AEC adapter's kernels (see :func:`turn_kernels`)."""

    __slots__ = ("apply",)

    def __init__(self, refresh, apply, compiled: bool):
        self.refresh, self.apply, self.compiled = refresh, apply, compiled


class JointKernels(_Kernels):
    """The Parallel adapter's kernels (see :func:`joint_kernels`)."""

    __slots__ = ("step",)

    def __init__(self, refresh, step, compiled: bool):
        self.refresh, self.step, self.compiled = refresh, step, compiled


def _adapter_kernels(state: State, kind: str, kernels_class: type, functions, plain):
    """The kernels of ``kind`` for ``state``'s class, looked up once per class: compiled from its
    :class:`GameKernels` by ``functions`` (once per game, cached on disk, and kept in its cache) when
    :func:`compiled` allows it, else ``plain()``."""
    cls = type(state)
    if cls not in _BY_CLASS:
        if compiled(cls):
            kernels = cls.kernels
            _BY_CLASS[cls] = kernels.derived(
                ("adapter", kind), lambda: kernels_class(*functions(kernels), compiled=True)
            )
        else:
            _BY_CLASS[cls] = plain()
    return _BY_CLASS[cls]


def turn_kernels(state: State) -> TurnKernels:
    """The AEC adapter's kernels for ``state``'s game (the same for every state of a class):
    ``refresh(subject, own, obs, mask)`` and ``apply(subject, action, own, obs, mask)`` on
    ``subject(state)``, both returning a code. ``refresh``, unless the game is over: the legal mask of
    the seat to act into ``own`` (bool) and ``mask`` (int8), its observation into ``obs``; code = seat |
    turn << TURN_SHIFT (over: OVER_BIT, TRUNCATED_BIT and the turn; nothing written). ``apply``: play
    ``action`` (legal: the adapter checked it against ``own``), then ``refresh``."""
    return _adapter_kernels(state, "turn", TurnKernels, _turn_functions, plain_turn_kernels)


def joint_kernels(state: State) -> JointKernels:
    """The Parallel adapter's kernels for ``state``'s game, on ``subject(state)``: ``refresh(subject, own,
    obs, masks)`` writes every seat's legal mask into ``own[seat]`` (bool) and ``masks[seat]`` (int8),
    its observation into ``obs[seat]``, and returns the code (OVER_BIT, TRUNCATED_BIT, the turn).
    ``step(subject, joint, void, own, obs, masks)`` plays one turn of ``joint`` (int64, one in-range
    action per seat) checked against ``own``: an order its seat's mask forbids returns -1 with nothing
    played unless ``void``, with ``void`` it is played as the rules play an impossible order and its
    seat's bit is set in the code; then ``refresh``."""
    return _adapter_kernels(state, "joint", JointKernels, _joint_functions, plain_joint_kernels)


# ----- compiled: the game's engine ------------------------------------------------------------------------


def _turn_functions(kernels: GameKernels) -> tuple:
    compiled = engine(kernels)
    return compiled.turn_refresh, compiled.turn_apply


def _joint_functions(kernels: GameKernels) -> tuple:
    compiled = engine(kernels)
    return compiled.joint_refresh, compiled.joint_step


# ----- plain, over the State interface ---------------------------------------------------------------


def _end_code(state: State) -> int:
    code = state.turn << TURN_SHIFT
    if state.is_terminal():
        code |= OVER_BIT | (TRUNCATED_BIT if state.is_truncated() else 0)
    return code


def plain_turn_kernels() -> TurnKernels:
    """:func:`turn_kernels` for any turn-based :class:`State`, through its methods."""
    return TurnKernels(_plain_refresh, _plain_apply, compiled=False)


def plain_joint_kernels() -> JointKernels:
    """:func:`joint_kernels` for any :class:`State` whose seats act at once, through its methods: the seats that do
    not act this turn (none in most games) are not checked, and get the placeholder 0."""
    return JointKernels(_plain_joint_refresh, _plain_joint_step, compiled=False)


def _plain_refresh(state, own, obs, mask) -> int:
    if state.is_terminal():
        return _end_code(state)
    seat = state.current_seat
    own[:] = state.legal_mask(seat)
    mask[:] = own
    obs[...] = state.observation(seat)
    return (state.turn << TURN_SHIFT) | seat


def _plain_apply(state, action, own, obs, mask) -> int:
    state.apply(action, check=False)
    return _plain_refresh(state, own, obs, mask)


def _plain_joint_refresh(state, own, obs, masks) -> int:
    for s in range(own.shape[0]):
        own[s] = state.legal_mask(s)
        masks[s] = own[s]
        obs[s] = state.observation(s)
    return _end_code(state)


def _plain_joint_step(state, joint, void, own, obs, masks) -> int:
    acting = state.current_seats()
    forbidden = 0
    for s in acting:
        if not own[s, joint[s]]:
            forbidden |= 1 << s
    if forbidden and not void:
        return -1
    state.apply_joint([int(joint[s]) if s in acting else 0 for s in range(own.shape[0])], check=False)
    return _plain_joint_refresh(state, own, obs, masks) | forbidden
