"""The learner: AlphaZero's loss on replay-buffer batches, with Adam.

loss = cross-entropy(visit shares, policy logits) + mean squared error(returns, values), plus L2 weight
decay through the optimizer. The policy logits are not masked: the targets are 0 on illegal actions,
so the loss itself teaches the network to put no weight there (the search masks them anyway).

The learner works on the device of the network's weights (``alphazero.device``, chosen by
:func:`resolve_device`): each batch goes there, the losses come back as numbers.
"""

from __future__ import annotations

import numpy as np
import torch

from boardgames.training.alphazero.buffer import ReplayBuffer
from boardgames.training.settings import SettingError


def resolve_device(name: str) -> torch.device:
    """The torch device of ``alphazero.device``: ``cpu``; ``cuda`` or ``cuda:N`` (SettingError saying so when
    torch sees no CUDA device, or not that one); ``auto``: the first CUDA device when torch sees one, else the
    CPU."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise SettingError(
                f"alphazero.device={name}: torch sees no CUDA device here (torch {torch.__version__}, built for "
                f"CUDA {torch.version.cuda or 'none: a CPU-only build'}); use alphazero.device=cpu or auto"
            )
        if device.index is not None and device.index >= torch.cuda.device_count():
            raise SettingError(
                f"alphazero.device={name}: torch sees {torch.cuda.device_count()} CUDA device(s), numbered from 0"
            )
    return device


class Learner:
    """Gradient steps on ``net`` from a :class:`ReplayBuffer`."""

    def __init__(
        self, net: torch.nn.Module, learning_rate: float = 1e-3, weight_decay: float = 1e-4, batch_size: int = 256
    ):
        self.net = net
        self.device = next(net.parameters()).device
        self.batch_size = int(batch_size)
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=learning_rate, weight_decay=weight_decay)

    def train(self, buffer: ReplayBuffer, steps: int, rng: np.random.Generator) -> dict:
        """``steps`` gradient steps; the mean policy loss, value loss and policy entropy of the targets."""
        self.net.train()
        totals = np.zeros(3)
        for _ in range(steps):
            obs, policies, values = buffer.sample(self.batch_size, rng)
            target_pi = torch.from_numpy(policies).to(self.device)
            target_v = torch.from_numpy(values).to(self.device)
            logits, v = self.net(torch.from_numpy(obs).to(self.device))
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
