"""The batch loops of a game: N games as rows of one (N, STATE_SIZE) array, one compiled call per step.

:func:`batch_loops` hands the batched environments (:mod:`boardgames.envs.vector.batch`) the loops of the
game's engine (:mod:`boardgames.envs.compiled.engines`, rendered from the templates of
:mod:`boardgames.envs.compiled.render`): each game of a step goes through the engine's one ``step`` (play
the decision, then the outcome, the masks and the observations), the same step the PettingZoo adapters and
the search play through. Nothing here is written per game. Random actions come from
:mod:`boardgames.envs.compiled.sampling` (one generator per row).

Observations are written either as the game's float32 planes or, with ``compact=True``, as uint8 (the
planes times 255, rounded; :func:`boardgames.envs.vector.batch.obs_to_float` reads them back). A game whose
observe module sets ``WRITES_UINT8 = True`` (every game of this library: its kernel writes each entry through
:func:`boardgames.envs.compiled.cells.obs_value`) is handed the uint8 array itself, and numba compiles its
kernel a second time for that type: no float buffer, no conversion pass, a quarter of the bytes. Any other
observation kernel gets the reference path, ``compact="quantize"``: the float observation of one game built
in a small buffer, then stored by :func:`quantize`. Both give the same bytes
(``tests/envs/vector/test_batched_parallel.py``). The loops over the games go by chunks of :data:`CHUNK`
rows, each chunk with its own buffers, so the ``*_threaded`` variants (numba ``prange`` over the chunks)
give the same results as the serial ones.
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np

from boardgames.envs.compiled.buffers import list_legal, quantize  # noqa: F401  (read from here too)
from boardgames.envs.compiled.engines import engine
from boardgames.envs.core.game_kernels import GameKernels

CHUNK = 64  # rows per chunk of a batch loop: the unit a thread takes, with its own scratch buffers
RESTARTS = 1000  # restarts of one game in a step before a learner batch gives up (games that end at once)

_MODAL = ("refresh", "observe_learner", "finish")
"""The engine's loops that take the observation mode and the mask form as their first two arguments."""
_MODAL_VARIANTS = {"step": "step", "learner_step": "learner_step"}
"""Loops with a serial (``<engine name>_serial``) and a threaded (``<engine name>_threaded``) form."""
_PLAIN = ("random_playouts", "apply_learner", "play_random", "pending", "apply_pairs", "observe_pairs", "restart")
"""The engine's loops called as they are."""


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
    """The batch loops of the game's engine (kept by :meth:`GameKernels.derived`, one namespace per kind).
    ``obs_shape``: one observation's shape (the float buffer of the quantizing loops); ``compact``:
    observations written as uint8, directly by the observation kernel where it can (:func:`writes_uint8`),
    else through a float buffer and :func:`quantize` (``"quantize"``: that path whatever the kernel can do,
    the reference the tests compare with). ``packed_actions``: 0 for bool masks, else the game's number of
    actions: the batch's masks (not those given to an opponent callback) are then written packed, eight
    actions to a byte (:mod:`boardgames.envs.vector.packed`). ``acting_seats`` must be the game's (one, or
    every seat)."""
    mode = "float32" if not compact else ("direct" if compact is True and writes_uint8(kernels) else "quantize")
    if (acting_seats > 1) != kernels.simultaneous:
        raise ValueError(f"{kernels.name}: {acting_seats} acting seats, but the rules say otherwise")
    shape = tuple(int(d) for d in obs_shape) if mode == "quantize" else (1,)
    packed = int(packed_actions)
    return kernels.derived(("batch", shape, mode, packed), lambda: _bind(engine(kernels), kernels, shape, mode, packed))


def _bind(compiled, kernels: GameKernels, shape: tuple, mode: str, packed: int) -> SimpleNamespace:
    """The namespace the batches call: the engine's loops with the observation mode (``proto``: None, or the
    float buffer the quantizing loops copy) and the mask form (``packed``: None, or the packed width) bound."""
    proto = np.zeros(shape, dtype=np.float32) if mode == "quantize" else None
    form = packed or None
    loops = {name: partial(getattr(compiled, name), proto, form) for name in _MODAL}
    for name, engine_name in _MODAL_VARIANTS.items():
        loops[name] = partial(getattr(compiled, engine_name + "_serial"), proto, form)
        loops[name + "_threaded"] = partial(getattr(compiled, engine_name + "_threaded"), proto, form)
    loops.update({name: getattr(compiled, name) for name in _PLAIN})
    return SimpleNamespace(lists=kernels.legal_mask_listed is not None, **loops)


def list_width(kernels: GameKernels) -> int:
    """Entries of the list of legal actions the batches keep per mask for the game: the game's
    ``LEGAL_LIST`` where its mask kernel lists them, else room for every action."""
    return kernels.legal_list
