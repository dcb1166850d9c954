"""The network as the compiled search's leaf evaluator (:data:`boardgames.envs.search.search.Evaluator`).

For a batch of leaf positions the evaluator writes every acting seat's observation with the game's
compiled observe kernel, runs the network once over the batch, turns the logits into priors over the
legal actions (softmax, illegal actions 0) and the values from the observer's frame into absolute seat
order. At a simultaneous node (seats = -1) each seat's priors come from its own observation and the
values are the average of the seats' views.

The network runs on the device of its weights (the learner's ``alphazero.device`` in the training
process; always the CPU in self-play actors and agents loaded from a folder): the batch goes there and
the priors and values come back to the CPU.
"""

from __future__ import annotations

import numpy as np
import torch

from boardgames.envs.core.game import Game
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.vector.positions import observe_positions


def absolute_values(relative: np.ndarray, observers: np.ndarray) -> np.ndarray:
    """Values in seat order from values in each observer's frame: ``out[m, (observers[m] + j) % n] =
    relative[m, j]``."""
    m, n = relative.shape
    seats = (observers[:, None] + np.arange(n)[None, :]) % n
    out = np.empty_like(relative)
    out[np.arange(m)[:, None], seats] = relative
    return out


def relative_values(returns: np.ndarray, observer: int) -> np.ndarray:
    """The inverse of :func:`absolute_values` for one row: ``out[j] = returns[(observer + j) % n]``."""
    n = returns.shape[0]
    return returns[(observer + np.arange(n)) % n]


class NetworkEvaluator:
    """``evaluator(states, seats) -> (priors, values)`` backed by ``net`` for ``game``'s positions.

    Also :meth:`observe` (observations and legal masks of given seats), which self-play and the agent
    use to record what the network sees.
    """

    def __init__(self, game: Game, net: torch.nn.Module):
        self.game = game
        self.net = net
        weights = next(net.parameters(), None)  # a module without weights runs on the CPU
        self.device = weights.device if weights is not None else torch.device("cpu")
        info = game.info
        self.acting = info.acting_seats
        self.seats = info.num_seats
        self.num_actions = info.num_actions
        self.obs_shape = tuple(info.observation_shape)
        self.kernels = kernels_of(game, "the network evaluator")  # a KernelState game, or TypeError now

    def observe(self, states: np.ndarray, rows: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Observation (float32) and legal mask of seat ``seats[i]`` in position ``states[rows[i]]``."""
        return observe_positions(self.game, states, rows, seats)

    @torch.no_grad()
    def predict(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network on ``obs``: priors (softmax over the legal actions of ``masks``) and values in
        the observer's frame."""
        logits, values = self.net(torch.from_numpy(obs).to(self.device))
        logits = logits.masked_fill(~torch.from_numpy(masks).to(self.device), float("-inf"))
        priors = torch.softmax(logits, dim=1)
        return np.nan_to_num(priors.cpu().numpy(), nan=0.0), values.cpu().numpy().astype(np.float64)

    def __call__(self, states: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        m = states.shape[0]
        if self.acting == 1:
            rows = np.arange(m)
            observers = np.asarray(seats, dtype=np.int64)
        else:  # every seat acts: each one's observation
            rows = np.repeat(np.arange(m), self.acting)
            observers = np.tile(np.arange(self.acting), m)
        obs, masks = self.observe(states, rows, observers)
        priors, values = self.predict(obs, masks)
        values = absolute_values(values, observers)
        if self.acting > 1:
            values = values.reshape(m, self.acting, self.seats).mean(axis=1)
        return priors.reshape(m, self.acting, self.num_actions), values
