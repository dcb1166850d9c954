"""What seats see at given positions, in one compiled call: :func:`observe_positions`.

For the consumers that hold positions as rows of a state array rather than as a batch of games: a network
evaluator scoring the leaves of searches, a recorder of self-play positions. It runs the game's engine
(:mod:`boardgames.envs.compiled.engines`)."""

from __future__ import annotations

import numpy as np

from boardgames.envs.compiled.engines import engine
from boardgames.envs.core.game import Game
from boardgames.envs.core.game_kernels import kernels_of


def observe_positions(game: Game, states: np.ndarray, rows, seats) -> tuple[np.ndarray, np.ndarray]:
    """The float32 observation and the bool legal mask of seat ``seats[i]`` at the position ``states[rows[i]]``,
    for every ``i``: arrays ``(M, *observation_shape)`` and ``(M, num_actions)``. ``game``: a Game of
    :class:`boardgames.envs.core.kernel_state.KernelState` positions; ``states``: ``(P, STATE_SIZE)`` positions
    of it. ValueError or IndexError for rows and seats that are not positions and seats of them."""
    kernels = kernels_of(game, "observe_positions")
    info = game.info
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    seats = np.ascontiguousarray(seats, dtype=np.int64)
    states = np.ascontiguousarray(states)
    if rows.ndim != 1 or rows.shape != seats.shape:
        raise ValueError(f"rows and seats are two 1-d arrays of one length, got shapes {rows.shape} and {seats.shape}")
    if states.ndim != 2 or states.shape[1] != kernels.state_size:
        raise ValueError(f"states are ({kernels.state_size},) positions, one per row; got shape {states.shape}")
    if rows.size and (rows.min() < 0 or rows.max() >= states.shape[0]):
        raise IndexError(f"rows must name positions of states (0..{states.shape[0] - 1})")
    if seats.size and (seats.min() < 0 or seats.max() >= info.num_seats):
        raise IndexError(f"seats must be seats of the game (0..{info.num_seats - 1})")
    masks = np.zeros((rows.shape[0], info.num_actions), dtype=np.bool_)
    obs = np.zeros((rows.shape[0], *info.observation_shape), dtype=np.float32)
    engine(kernels).observe_pairs(states, rows, seats, masks, obs)
    return obs, masks
