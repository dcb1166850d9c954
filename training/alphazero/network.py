"""The AlphaZero network: a residual convolutional trunk over a game's ``(H, W, C)`` observation with a
policy head (one logit per action) and a value head (one value per seat).

Observations are egocentric in every game, so the value head answers in the observer's frame: output
``j`` is the expected return of seat ``(observer + j) % seats`` (``j`` = 0: the observer itself). This
one form serves two-player zero-sum games, the 3-player general-sum game and the 4-player team game.

Policy heads:

* ``"linear"``: a 1x1 convolution to 2 channels, flattened, then a linear layer to every action (any
  action layout);
* ``"square"``: the logits of actions ``k * square .. k * square + k - 1`` from the features of that
  square (a 1x1 convolution with ``k = num_actions // (H * W)`` outputs, the remaining actions from the
  pooled features): for games whose action index is ``k * square + j`` in the observation's frame (ADIX).

:func:`save_network` / :func:`load_network` store the weights (``torch.save`` of the state dict, read
back with ``weights_only=True``, never unpickled) beside a JSON file of everything needed to rebuild the network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
from torch import nn

WEIGHTS = "alphazero.pt"
CONFIG = "alphazero.json"


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and a skip connection."""

    def __init__(self, channels: int):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.body(x))


class AlphaZeroNet(nn.Module):
    """Residual trunk + policy and value heads (see the module docstring).

    Args:
        obs_shape: ``(H, W, C)``, the game's observation shape.
        num_actions: the game's action count.
        num_seats: the game's seat count (the value head's outputs).
        channels: width of the trunk.
        blocks: residual blocks in the trunk.
        head: ``"linear"`` or ``"square"``.
        value_hidden: hidden units of the value head.
    """

    def __init__(
        self,
        obs_shape: tuple,
        num_actions: int,
        num_seats: int,
        channels: int = 64,
        blocks: int = 4,
        head: str = "linear",
        value_hidden: int = 64,
    ):
        super().__init__()
        h, w, c = (int(d) for d in obs_shape)
        if head not in ("linear", "square"):
            raise ValueError(f"head is 'linear' or 'square', got {head!r}")
        self.config: dict[str, Any] = dict(
            obs_shape=[h, w, c],
            num_actions=int(num_actions),
            num_seats=int(num_seats),
            channels=int(channels),
            blocks=int(blocks),
            head=head,
            value_hidden=int(value_hidden),
        )
        self.stem = nn.Sequential(nn.Conv2d(c, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels), nn.ReLU())
        self.trunk = nn.Sequential(*(ResidualBlock(channels) for _ in range(blocks)))
        self.head = head
        if head == "linear":
            self.policy = nn.Sequential(
                nn.Conv2d(channels, 2, 1), nn.ReLU(), nn.Flatten(), nn.Linear(2 * h * w, num_actions)
            )
        else:
            self.k = num_actions // (h * w)
            self.extra = num_actions - self.k * h * w
            self.square_logits = nn.Conv2d(channels, self.k, 1)
            self.extra_logits = nn.Linear(channels, self.extra) if self.extra else None
        self.value = nn.Sequential(
            nn.Conv2d(channels, 2, 1),
            nn.ReLU(),
            nn.Flatten(),
            nn.Linear(2 * h * w, value_hidden),
            nn.ReLU(),
            nn.Linear(value_hidden, num_seats),
            nn.Tanh(),
        )

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` ``(N, H, W, C)`` float -> ``(logits (N, num_actions), values (N, num_seats))``, the
        values in the observer's frame (see the module docstring)."""
        x = self.trunk(self.stem(obs.permute(0, 3, 1, 2)))
        if self.head == "linear":
            logits = self.policy(x)
        else:
            logits = self.square_logits(x).permute(0, 2, 3, 1).flatten(1)  # index (r * W + f) * k + j
            if self.extra_logits is not None:
                logits = torch.cat([logits, self.extra_logits(x.mean((2, 3)))], dim=1)
        return logits, self.value(x)


def save_network(net: AlphaZeroNet, folder: str | Path, **extra) -> Path:
    """Write ``net``'s weights and config (plus ``extra`` keys: the game, its options, the search
    settings) into ``folder``; returns the folder."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), folder / WEIGHTS)
    (folder / CONFIG).write_text(json.dumps({"network": net.config, **extra}, indent=1) + "\n")
    return folder


def is_network_folder(path: str | Path) -> bool:
    """Whether ``path`` is a folder written by :func:`save_network` (or its config file)."""
    p = Path(path)
    return (p / CONFIG).is_file() or (p.name == CONFIG and p.is_file())


def load_network(path: str | Path) -> tuple[AlphaZeroNet, dict]:
    """The network saved in ``path`` (the folder or its config file) in eval mode, and its config.

    The weights are read in torch's weights-only mode and nothing is ever unpickled: a file that is not
    such a network, or whose weights file holds other objects than tensors and plain data, raises
    :class:`~boardgames.training.storage.safe_load.ModelFileError` (a ``ValueError``) saying why."""
    from boardgames.training.alphazero.settings import check_saved_network
    from boardgames.training.storage.safe_load import ModelFileError, load_weights, read_model_json

    folder = Path(path)
    if folder.name == CONFIG:
        folder = folder.parent
    check_saved_network(folder / CONFIG)  # every size in range before anything is built from the file
    not_a_network = f"{folder} is not an AlphaZero network of this project"
    try:
        meta = read_model_json(folder / CONFIG)
        net = AlphaZeroNet(**meta["network"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as e:
        raise ModelFileError(f"{not_a_network} ({type(e).__name__}: {e})") from None
    state = load_weights(folder / WEIGHTS, f"{not_a_network} ({WEIGHTS})")
    try:
        net.load_state_dict(state)
    except (RuntimeError, TypeError, AttributeError, KeyError, ValueError) as e:  # other shapes, or not a state dict
        raise ModelFileError(
            f"{not_a_network} ({WEIGHTS}: the weights do not fit its network: {type(e).__name__})"
        ) from None
    net.eval()
    return net, meta
