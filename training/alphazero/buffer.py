"""The replay buffer: the most recent self-play samples, sampled uniformly for the learner.

Observations are kept as float16 (every plane is a count or a flag scaled into [0, 1], exact enough at
that precision) and policies sparsely: the ``width`` most visited actions of each sample (a search of
``S`` simulations visits at most ``S`` actions), so a buffer of ADIX positions (5,670 actions) stays
small. :meth:`ReplayBuffer.save` / :meth:`ReplayBuffer.load` write it to one ``.npz`` file for resuming.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class ReplayBuffer:
    """A ring buffer of ``capacity`` samples (observation, policy target, value target)."""

    def __init__(self, capacity: int, obs_shape: tuple, num_actions: int, num_seats: int, width: int):
        self.capacity = int(capacity)
        self.num_actions = int(num_actions)
        self.width = int(min(width, num_actions))
        self.obs = np.zeros((self.capacity, *obs_shape), dtype=np.float16)
        self.policy_actions = np.zeros((self.capacity, self.width), dtype=np.int32)
        self.policy_shares = np.zeros((self.capacity, self.width), dtype=np.float32)
        self.values = np.zeros((self.capacity, num_seats), dtype=np.float32)
        self.size = 0
        self.next = 0
        self.added = 0

    def __len__(self) -> int:
        return self.size

    def add(self, obs: np.ndarray, policies: np.ndarray, values: np.ndarray) -> None:
        """Add ``N`` samples: observations, dense ``(N, num_actions)`` policies, values."""
        n = obs.shape[0]
        top = (
            np.argpartition(-policies, self.width - 1, axis=1)[:, : self.width]
            if self.width < self.num_actions
            else None
        )
        for start in range(0, n, self.capacity):  # more samples than capacity: the last ones win
            chunk = slice(start, min(n, start + self.capacity))
            m = chunk.stop - chunk.start
            rows = (self.next + np.arange(m)) % self.capacity
            self.obs[rows] = obs[chunk]
            if top is None:
                actions = np.broadcast_to(np.arange(self.num_actions), (m, self.num_actions))
            else:
                actions = top[chunk]
            self.policy_actions[rows] = actions
            self.policy_shares[rows] = np.take_along_axis(policies[chunk], actions, axis=1)
            self.values[rows] = values[chunk]
            self.next = int((self.next + m) % self.capacity)
            self.size = min(self.capacity, self.size + m)
        self.added += n

    def sample(self, batch: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``batch`` samples drawn uniformly: float32 observations, dense policies (renormalised over
        the kept actions), values."""
        idx = rng.integers(self.size, size=batch)
        policies = np.zeros((batch, self.num_actions), dtype=np.float32)
        np.put_along_axis(policies, self.policy_actions[idx], self.policy_shares[idx], axis=1)
        policies /= np.maximum(policies.sum(axis=1, keepdims=True), 1e-12)
        return self.obs[idx].astype(np.float32), policies, self.values[idx].copy()

    def save(self, path: str | Path) -> None:
        """Write the buffer's contents to ``path`` (``.npz``: a file name or a binary file object), oldest
        first."""
        order = (self.next - self.size + np.arange(self.size)) % self.capacity
        np.savez_compressed(
            path,
            obs=self.obs[order],
            policy_actions=self.policy_actions[order],
            policy_shares=self.policy_shares[order],
            values=self.values[order],
            added=np.int64(self.added),
        )

    def load(self, path: str | Path) -> None:
        """Replace the contents with those saved at ``path`` (the newest ``capacity`` samples). A buffer
        saved with another ``width`` (a run resumed with other ``simulations``) is fitted to this one's:
        see :func:`fit_width`."""
        with np.load(path) as data:
            if data["obs"].shape[1:] != self.obs.shape[1:] or data["values"].shape[1:] != self.values.shape[1:]:
                raise ValueError(f"{path}: a buffer of other shapes than this run's")
            n = min(self.capacity, data["obs"].shape[0])
            actions, shares = fit_width(data["policy_actions"][-n:], data["policy_shares"][-n:], self.width)
            self.obs[:n] = data["obs"][-n:]
            self.policy_actions[:n] = actions
            self.policy_shares[:n] = shares
            self.values[:n] = data["values"][-n:]
            self.size, self.next = n, n % self.capacity
            self.added = int(data["added"])


def fit_width(actions: np.ndarray, shares: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Sparse policies ``(N, w)`` made ``width`` wide, the policy each row stands for unchanged where it
    fits: a wider row repeats its first entry (the same action with the same share, which
    :meth:`ReplayBuffer.sample` writes twice to one place), a narrower one keeps its ``width`` largest
    shares, as :meth:`ReplayBuffer.add` keeps the most visited actions (the sample renormalises them)."""
    w = actions.shape[1]
    if w == width:
        return actions, shares
    if w < width:
        pad = width - w
        return (
            np.concatenate([actions, np.repeat(actions[:, :1], pad, axis=1)], axis=1),
            np.concatenate([shares, np.repeat(shares[:, :1], pad, axis=1)], axis=1),
        )
    top = np.argpartition(-shares, width - 1, axis=1)[:, :width]
    return np.take_along_axis(actions, top, axis=1), np.take_along_axis(shares, top, axis=1)
