"""A convolutional actor-critic for board observations (``[algo] network = "conv"`` in a config).

The default network is an MLP over the flattened observation. For games with many actions tied to
board squares (ADIX: 5670 = 81 squares x 70 movements) an MLP has to relate every output to the
board through one small hidden layer, and it does not generalize what it learned on one square to the
others. :class:`BoardPolicy` instead:

* reads the ``(H, W, C)`` observation with a stack of 3x3 convolutions (``conv_channels`` channels;
  ``conv_dilations`` gives each layer's dilation, so the receptive field covers the board);
* ``head = "square"``: gives the logits of actions ``k * square .. k * square + k - 1`` from the
  features of that square (a 1x1 convolution with ``k = num_actions // (H * W)`` outputs; the
  ``num_actions - k * H * W`` remaining actions, if any, from the pooled features). This fits games
  whose action index is ``k * square + j`` in the same egocentric frame as the observation (ADIX);
  ``head = "linear"``: a linear layer over the flattened features (any action layout);
* the value from a 1x1 convolution to a few channels, flattened, then a small MLP.

It is a :class:`sb3_contrib.common.maskable.policies.MaskableActorCriticPolicy` (masks, saving and
loading work as for the MLP), so ``boardgames.training.sb3.pretrain`` and the agents use it unchanged.
"""

from __future__ import annotations

from typing import cast

import gymnasium
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class BoardCNN(BaseFeaturesExtractor):
    """3x3 convolutions over an ``(H, W, C)`` observation; outputs the flattened ``(channels, H, W)`` map."""

    def __init__(self, observation_space: gymnasium.spaces.Box, channels: int = 32, dilations: tuple = (1, 2, 4, 2, 1)):
        h, w, c = observation_space.shape
        super().__init__(observation_space, features_dim=channels * h * w)
        layers, cin = [], c
        for d in dilations:
            layers += [nn.Conv2d(cin, channels, 3, padding=int(d), dilation=int(d)), nn.ReLU()]
            cin = channels
        self.net = nn.Sequential(*layers)
        self.shape = (channels, h, w)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        return self.net(obs.permute(0, 3, 1, 2)).flatten(1)


class SquareHead(nn.Module):
    """Action logits from per-square features (see the module docstring)."""

    def __init__(self, shape: tuple, num_actions: int):
        super().__init__()
        c, h, w = shape
        self.shape = shape
        self.k = num_actions // (h * w)
        self.extra = num_actions - self.k * h * w
        self.conv = nn.Conv2d(c, self.k, 1)
        self.pooled = nn.Linear(c, self.extra) if self.extra else None
        for layer in (self.conv, self.pooled):
            if layer is not None:
                nn.init.normal_(layer.weight, std=0.01)
                if layer.bias is not None:
                    nn.init.zeros_(layer.bias)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        x = features.view(-1, *self.shape)
        logits = self.conv(x).permute(0, 2, 3, 1).flatten(1)  # index (r * W + f) * k + j
        if self.pooled is not None:
            logits = torch.cat([logits, self.pooled(x.mean((2, 3)))], dim=1)
        return logits


class ValueHead(nn.Module):
    def __init__(self, shape: tuple, hidden: int = 64):
        super().__init__()
        c, h, w = shape
        self.shape = shape
        self.net = nn.Sequential(
            nn.Conv2d(c, 4, 1), nn.ReLU(), nn.Flatten(), nn.Linear(4 * h * w, hidden), nn.ReLU(), nn.Linear(hidden, 1)
        )

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.net(features.view(-1, *self.shape))


class BoardPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy: :class:`BoardCNN` trunk shared by a square (or linear) policy head and a
    value head."""

    def __init__(self, *args, head: str = "square", **kwargs):
        self.head = head
        kwargs.setdefault("net_arch", [])
        kwargs.setdefault("features_extractor_class", BoardCNN)
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        shape: tuple = cast(BoardCNN, self.features_extractor).shape
        if self.head == "square":
            self.action_net = SquareHead(shape, int(cast(gymnasium.spaces.Discrete, self.action_space).n))
        elif self.head != "linear":
            raise ValueError(f"head is 'square' or 'linear', got {self.head!r}")
        self.value_net = ValueHead(shape)  # type: ignore[assignment]  # SB3 annotates it nn.Linear; any module will do
        # SB3 annotates optimizer_class as type[Optimizer], whose __init__ takes no lr; its optimizers all do
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)  # type: ignore[call-arg]

    def _get_constructor_parameters(self) -> dict:
        data = super()._get_constructor_parameters()
        data["head"] = self.head
        return data
