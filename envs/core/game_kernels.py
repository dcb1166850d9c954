"""The kernel contract of a game: :class:`GameKernels`, what the compiled parts of the library are built from.

A game written as numba kernels over an int32 state array (a :class:`boardgames.envs.core.kernel_state.KernelState`
game) has a *rules* module and an *observe* module (its ``encoder``). :func:`game_kernels` reads them once,
checks them against the contract below and returns one frozen :class:`GameKernels` per pair of modules;
every consumer takes that object: the State methods of ``KernelState``, the PettingZoo adapters' per-turn
kernels (:mod:`boardgames.envs.compiled.turns`), the batch loops (:mod:`boardgames.envs.vector.loops`), the
compiled search (:mod:`boardgames.envs.search`) and the AlphaZero evaluator. What they compile from it is
kept in its one cache, :meth:`GameKernels.derived`.

The rules module provides

=====================  ==================================================================================
``init_state``         ``init_state(data, *options)``: a new game into the zeroed array
``legal_mask``         ``legal_mask(data, seat, mask)``: the seat's legal actions into a bool array
``apply_action``       ``apply_action(data, action)``: play the action of the seat to move (turn-based), or
``apply_joint``        ``apply_joint(data, actions)``: play one action per seat at once (simultaneous);
                       exactly one of the two
``returns``            ``returns(data, out)``: each seat's return into a float32 array
``is_over``            ``is_over(data)``: whether the game has ended
``NUM_ACTIONS``        the number of actions
``STATE_SIZE``         the length of the state array
``TO_MOVE``, ``TURN``  offsets into the array: the seat to act, the turn count,
``OVER``, ``WINNER``   whether the game is over, the winner (-1: none),
``TRUNCATED``          whether it ended at the turn limit
=====================  ==================================================================================

and may provide ``legal_mask_listed(data, seat, mask, listed)`` (the mask, and the legal actions listed as it goes:
``listed[0]`` their count, then them in increasing order) with ``LEGAL_LIST``, the entries such a list needs, and
``leaf_values(data, out)`` (each seat's value of a running position, in [-1, 1], into a float64 array: what a search
may value its leaves by instead of a random rollout). The observe module provides ``observe(data, seat, out)`` (the
seat's observation into ``out``) and may provide ``OBS_CHANNELS`` (its planes, where they do not depend on the
game's options) and ``WRITES_UINT8 = True`` (``observe`` also takes a uint8 ``out`` and writes the planes times 255,
rounded). A game whose rules encode their own observations names no observe module: its rules module is both.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any, TypeVar

T = TypeVar("T")

RULES_KERNELS = ("init_state", "legal_mask", "returns", "is_over")
OPTIONAL_KERNELS = ("legal_mask_listed", "leaf_values")
"""The kernels every rules module provides (besides ``apply_action`` or ``apply_joint``)."""
MOVE_KERNELS = ("apply_action", "apply_joint")
"""The kernels that play a move: a rules module provides exactly one (turn-based or simultaneous)."""
RULES_CONSTANTS = ("NUM_ACTIONS", "STATE_SIZE", "TO_MOVE", "TURN", "OVER", "TRUNCATED", "WINNER")
"""The integers every rules module provides: the sizes and the offsets into the state array."""
OBSERVE_KERNELS = ("observe",)
"""The kernels every observe module provides."""


class KernelContractError(TypeError):
    """A rules or observe module that lacks, misnames or mistypes part of the kernel contract (the
    message names the module and every such name)."""


@dataclass(frozen=True, eq=False, slots=True)
class GameKernels:
    """One game's kernels, offsets and sizes, read from its ``rules`` and ``encoder`` (observe) modules and
    checked by :func:`game_kernels`, which makes one per pair of modules (build them there, not here).

    ``apply_action`` is None in a simultaneous game (``simultaneous``), ``apply_joint`` in a turn-based one;
    ``leaf_values`` is None where the rules value no position; ``legal_mask_listed`` is None where the rules do not
    list the legal actions as they write the mask, and ``legal_list`` is then room for every action (count first);
    ``obs_channels`` is None where the number of planes depends on the game's options. The ``*_at`` fields are
    offsets into the state array. ``rules`` and ``encoder`` stay reachable for the names a game adds to the
    contract.
    """

    rules: Any
    encoder: Any
    init_state: Callable
    legal_mask: Callable
    apply_action: Callable | None
    apply_joint: Callable | None
    returns: Callable
    is_over: Callable
    observe: Callable
    legal_mask_listed: Callable | None
    leaf_values: Callable | None
    simultaneous: bool
    num_actions: int
    state_size: int
    to_move_at: int
    turn_at: int
    over_at: int
    truncated_at: int
    winner_at: int
    legal_list: int
    obs_channels: int | None
    writes_uint8: bool
    _derived: dict = field(default_factory=dict, init=False, repr=False)

    @property
    def name(self) -> str:
        """The rules module's name, for messages."""
        return module_label(self.rules)

    def derived(self, key: Hashable, build: Callable[[], T]) -> T:
        """What ``build()`` makes from these kernels (compiled loops, per-turn kernels, a search), built on
        the first call with ``key`` and kept for the process: the one in-process cache of everything
        generated from a game's kernels (its engine, :mod:`boardgames.envs.compiled.engines`; numba keeps their
        compiled code between processes)."""
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = build()
            return value


_ONE_PER_GAME: dict[tuple[int, int], GameKernels] = {}
"""(id of the rules module, id of the observe module) -> their GameKernels, which holds both (so the ids
stay theirs)."""


def game_kernels(rules, encoder=None) -> GameKernels:
    """The :class:`GameKernels` of the rules module ``rules`` and the observe module ``encoder`` (None: the
    rules module is both), read and checked on the first call and the same object on every later one.

    Raises :class:`KernelContractError` naming the module(s) and every kernel or constant of the contract
    (see the module docstring) that is missing, not callable or not an integer, with the nearest name the
    module has where one looks like a misspelling."""
    encoder = rules if encoder is None else encoder
    key = (id(rules), id(encoder))
    kernels = _ONE_PER_GAME.get(key)
    if kernels is None:
        kernels = _ONE_PER_GAME[key] = _read(rules, encoder)
    return kernels


def kernels_of(game, purpose: str = "this") -> GameKernels:
    """The :class:`GameKernels` behind ``game``'s states; TypeError for a game whose states are not
    :class:`boardgames.envs.core.kernel_state.KernelState` arrays (``purpose`` names what needed them)."""
    kernels = getattr(type(game.new_initial_state()), "kernels", None)
    if not isinstance(kernels, GameKernels):
        raise TypeError(f"{game.info.name}: {purpose} needs a KernelState game (a rules module of numba kernels)")
    return kernels


def module_label(module) -> str:
    """A module's name, or a description of a namespace that has none."""
    return getattr(module, "__name__", None) or f"<{type(module).__name__} object>"


def _read(rules, encoder) -> GameKernels:
    problems = _rules_problems(rules)
    observe_problems = _problems(encoder, OBSERVE_KERNELS, ())
    observe_problems += _integer_problems(encoder, ("OBS_CHANNELS",))
    if problems or observe_problems:
        lines = []
        if problems:
            lines.append(f"rules module {module_label(rules)}: " + "; ".join(problems))
        if observe_problems:
            lines.append(f"observe module {module_label(encoder)}: " + "; ".join(observe_problems))
        raise KernelContractError(
            "not a game's kernels (see boardgames.envs.core.game_kernels for the contract): " + " | ".join(lines)
        )
    num_actions = int(rules.NUM_ACTIONS)
    listed = getattr(rules, "legal_mask_listed", None)
    channels = getattr(encoder, "OBS_CHANNELS", None)
    return GameKernels(
        rules=rules,
        encoder=encoder,
        init_state=rules.init_state,
        legal_mask=rules.legal_mask,
        apply_action=getattr(rules, "apply_action", None),
        apply_joint=getattr(rules, "apply_joint", None),
        returns=rules.returns,
        is_over=rules.is_over,
        observe=encoder.observe,
        legal_mask_listed=listed,
        leaf_values=getattr(rules, "leaf_values", None),
        simultaneous=hasattr(rules, "apply_joint"),
        num_actions=num_actions,
        state_size=int(rules.STATE_SIZE),
        to_move_at=int(rules.TO_MOVE),
        turn_at=int(rules.TURN),
        over_at=int(rules.OVER),
        truncated_at=int(rules.TRUNCATED),
        winner_at=int(rules.WINNER),
        legal_list=int(getattr(rules, "LEGAL_LIST", 1 + num_actions)),
        obs_channels=None if channels is None else int(channels),
        writes_uint8=bool(getattr(encoder, "WRITES_UINT8", False)),
    )


def _rules_problems(rules) -> list[str]:
    problems = _problems(rules, RULES_KERNELS, RULES_CONSTANTS)
    moves = [name for name in MOVE_KERNELS if hasattr(rules, name)]
    if not moves:
        hint = _near(rules, "apply_action") or _near(rules, "apply_joint")
        problems.append(
            "missing apply_action (seats take turns) or apply_joint (seats act at once)"
            + (f" (did you mean {hint}?)" if hint else "")
        )
    elif len(moves) == 2:
        problems.append("both apply_action and apply_joint (a game's seats take turns or act at once, not both)")
    problems += [f"{name} is not callable" for name in moves if not callable(getattr(rules, name))]
    problems += [f"{name} is not callable" for name in OPTIONAL_KERNELS if not callable(getattr(rules, name, len))]
    return problems + _integer_problems(rules, ("LEGAL_LIST",))


def _problems(module, kernels: tuple, constants: tuple) -> list[str]:
    """The names of ``kernels`` and ``constants`` that ``module`` lacks or holds as something else."""
    problems = []
    missing = [name for name in kernels + constants if not hasattr(module, name)]
    if missing:
        problems.append("missing " + ", ".join(_with_hint(module, name) for name in missing))
    problems += [
        f"{name} is not callable" for name in kernels if name not in missing and not callable(getattr(module, name))
    ]
    return problems + _integer_problems(module, tuple(name for name in constants if name not in missing))


def _integer_problems(module, names: tuple) -> list[str]:
    """For each of ``names`` that ``module`` has: a problem unless it is an integer (not a bool)."""
    problems = []
    for name in names:
        if hasattr(module, name):
            value = getattr(module, name)
            if isinstance(value, bool) or not isinstance(value, Integral):
                problems.append(f"{name} is {value!r}, not an integer")
    return problems


def _with_hint(module, name: str) -> str:
    near = _near(module, name)
    return f"{name} (did you mean {near}?)" if near else name


def _near(module, name: str) -> str | None:
    """The name ``module`` has that looks most like a misspelling of ``name``, if any."""
    names = [n for n in vars(module) if not n.startswith("__")] if hasattr(module, "__dict__") else []
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return close[0] if close else None
