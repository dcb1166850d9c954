"""The learner: AlphaZero's loss on replay-buffer batches, with Adam.

loss = cross-entropy(visit shares, policy logits) + mean squared error(returns, values), plus L2 weight
decay through the optimizer. The policy logits are not masked: the targets are 0 on illegal actions,
so the loss itself teaches the network to put no weight there (the search masks them anyway).
"""

from __future__ import annotations

import numpy as np
import torch

from boardgames.training.alphazero.buffer import ReplayBuffer


class Learner:
    """Gradient steps on ``net`` from a :class:`ReplayBuffer`."""

    def __init__(
        self, net: torch.nn.Module, learning_rate: float = 1e-3, weight_decay: float = 1e-4, batch_size: int = 256
    ):
        self.net = net
        self.batch_size = int(batch_size)
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)

    def train(self, buffer: ReplayBuffer, steps: int, rng: np.random.Generator) -> dict:
        """``steps`` gradient steps; the mean policy loss, value loss and policy entropy of the targets."""
        self.net.train()
        totals = np.zeros(3)
        for _ in range(steps):
            obs, policies, values = buffer.sample(self.batch_size, rng)
            target_pi = torch.from_numpy(policies)
            target_v = torch.from_numpy(values)
            logits, v = self.net(torch.from_numpy(obs))
            policy_loss = -(target_pi * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
            value_loss = ((v - target_v) ** 2).mean()
            loss = policy_loss + value_loss
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            entropy = -(target_pi * torch.log(target_pi.clamp_min(1e-12))).sum(dim=1).mean()
            totals += (policy_loss.item(), value_loss.item(), entropy.item())
        self.net.eval()
        mean = totals / max(steps, 1)
        return {"policy_loss": mean[0], "value_loss": mean[1], "target_entropy": mean[2]}
