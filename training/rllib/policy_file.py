"""An RLlib-trained policy as a file that plain torch loads, and the agent that plays it.

RLlib's PPO module (``ActionMaskingTorchRLModule``: an actor encoder, a policy head, a value branch)
is exported as its acting path only: the layers from the flat observation to the action logits, in
order, as a list of ``{"type": "linear"|"tanh"|"relu"|..., ...}`` plus their weights. The file
(``policy.pt`` by default) is a ``torch.save`` of plain data (strings, numbers, lists, tensors), read
back with ``torch.load(weights_only=True)`` (nothing is ever unpickled); it names the game and options it
was trained on, so that an agent built for another game says so. Neither writing a file from a module
(:func:`export_module`) nor reading it (:func:`load_policy_file`, :class:`RLlibPolicyAgent`) imports ray: an
RLlib policy plays in ``boardgames evaluate --agents rllib:<path> random greedy`` and ``boardgames play
--opponent rllib:<path>`` in the main environment, next to the SB3 models.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from boardgames.envs.agents import Agent
from boardgames.envs.core.game import Game, State
from boardgames.training.storage.safe_load import ModelFileError, load_weights
from boardgames.training.storage.shipped import resolve_model
from boardgames.training.torch_threads import ensure_torch_threads

FORMAT = "boardgame-rl-envs/rllib-policy/1"
FILE_NAME = "policy.pt"
ACTIVATIONS = ("tanh", "relu", "silu", "elu")


class PolicyFileError(ModelFileError):
    """A file given as an RLlib policy that is not one written by :func:`export_module` (or that only
    unpickling could read: refused)."""


def acting_layers(module) -> list:
    """The torch layers of an RLlib PPO module's acting path (actor encoder, then policy head), in
    the order they run."""
    encoder = module.encoder
    actor = getattr(encoder, "actor_encoder", None) or getattr(encoder, "encoder", None)
    if actor is None:
        raise PolicyFileError(f"{type(module).__name__}: no actor encoder found (expected PPO's default module)")
    return [m for part in (actor, module.pi) for m in part.modules() if not list(m.children())]


def describe_layers(layers: list) -> tuple[list, dict]:
    """``(layer list, state dict)`` of torch ``layers`` for the file: a linear layer as
    ``{"type": "linear", "in": n, "out": m}`` with its weights under ``"<i>.weight"`` / ``"<i>.bias"``,
    an activation by its name; anything else raises :class:`PolicyFileError`."""
    import torch

    spec: list[dict] = []
    state: dict = {}
    for layer in layers:
        kind = type(layer).__name__.lower()
        if isinstance(layer, torch.nn.Linear):
            i = len(spec)
            spec.append({"type": "linear", "in": layer.in_features, "out": layer.out_features})
            state[f"{i}.weight"] = layer.weight.detach().cpu().clone()
            state[f"{i}.bias"] = layer.bias.detach().cpu().clone()
        elif kind in ACTIVATIONS:
            spec.append({"type": kind})
        elif kind != "identity":
            raise PolicyFileError(
                f"cannot export a {type(layer).__name__} layer (supported: Linear, "
                f"{', '.join(a.capitalize() for a in ACTIVATIONS)})"
            )
    return spec, state


def export_module(module, path: str | Path, game: str, options: dict, extra: dict | None = None) -> Path:
    """Write the acting path of the RLlib module ``module`` (trained on ``game`` with ``options``) to
    ``path`` (a ``.pt`` file, or a folder that gets ``policy.pt``); returns the file."""
    import torch

    path = Path(path)
    if path.suffix != ".pt":
        path = path / FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    spec, state = describe_layers(acting_layers(module))
    from boardgames.envs.registry import make_game
    from boardgames.training.storage.model_version import version_record

    data = {
        "format": FORMAT,
        "game": game,
        "options": dict(options),
        **version_record(make_game(game, **options)),
        "layers": spec,
        "state_dict": state,
        "extra": dict(extra or {}),
    }
    torch.save(data, path)
    return path


def policy_file(path: str | Path) -> Path:
    """The file a spec's path names: the ``.pt`` itself, or ``policy.pt`` in a folder; a shipped model's
    name (``models/rllib_dorix_2p``) is the shipped folder
    (:func:`boardgames.training.storage.shipped.resolve_model`)."""
    p = resolve_model(path)
    if p.is_dir():
        p = p / FILE_NAME
    if not p.exists():
        raise FileNotFoundError(f"no RLlib policy file at {p} (export one with boardgames rllib)")
    return p


MAX_LAYER_SIZE = 1 << 20
"""The most inputs or outputs a layer read from a policy file may have (the weights are allocated)."""


def _size(layer: dict, key: str) -> int:
    """A linear layer's ``in`` or ``out`` size as written in the file; PolicyFileError unless it is a whole
    number in 1..:data:`MAX_LAYER_SIZE`."""
    from boardgames.envs.core.game import is_integer

    value = layer.get(key)
    if not is_integer(value) or not 1 <= value <= MAX_LAYER_SIZE:
        raise PolicyFileError(
            f"a linear layer's {key!r} size is not a whole number in 1..{MAX_LAYER_SIZE}: {str(value)[:40]!r}"
        )
    return int(value)


class PolicyNet:
    """The exported acting path as a torch network: flat observation -> action logits. Every layer and
    weight read from the file is checked (kind, sizes, tensors of the layer's shape): PolicyFileError
    naming what is wrong."""

    def __init__(self, layers: object, state: object):
        if not isinstance(layers, list) or not isinstance(state, dict):
            raise PolicyFileError("its layers are not a list, or its weights not a table")
        try:
            self._build(layers, state)
        except PolicyFileError:
            raise
        except (KeyError, TypeError, RuntimeError, IndexError, ValueError, OverflowError, AttributeError) as e:
            raise PolicyFileError(
                f"its layers and weights do not make a network ({type(e).__name__}: {str(e)[:120]})"
            ) from None

    def _build(self, layers: list, state: dict) -> None:
        import torch

        made = []
        for i, layer in enumerate(layers):
            kind = layer["type"]
            if kind == "linear":
                n_in, n_out = _size(layer, "in"), _size(layer, "out")
                weight, bias = state[f"{i}.weight"], state[f"{i}.bias"]
                if (
                    not isinstance(weight, torch.Tensor)
                    or not isinstance(bias, torch.Tensor)
                    or tuple(weight.shape) != (n_out, n_in)
                    or tuple(bias.shape) != (n_out,)
                ):
                    raise PolicyFileError(f"layer {i}'s weights are not tensors of its shape ({n_out} x {n_in})")
                linear = torch.nn.Linear(n_in, n_out)
                linear.weight.data.copy_(weight)
                linear.bias.data.copy_(bias)
                made.append(linear)
            elif kind in ACTIVATIONS:
                made.append(
                    {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU, "silu": torch.nn.SiLU, "elu": torch.nn.ELU}[kind]()
                )
            else:
                raise PolicyFileError(f"unknown layer type {str(kind)[:40]!r}")
        self.net = torch.nn.Sequential(*made).eval()
        linears = [m for m in made if isinstance(m, torch.nn.Linear)]
        if not linears:
            raise PolicyFileError("the policy has no linear layer")
        self.observation_size = linears[0].in_features
        self.num_actions = linears[-1].out_features

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The action logits (float64) of one flat observation."""
        import torch

        ensure_torch_threads()  # torch's threads when nobody set them (boardgames.training.torch_threads)
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(observation, dtype=np.float32).reshape(1, -1))
            return self.net(x)[0].double().numpy()


def load_policy_file(path: str | Path) -> tuple[PolicyNet, dict]:
    """``(network, metadata)`` of the policy file at ``path`` (or ``policy.pt`` in that folder); a file
    that is not one raises :class:`PolicyFileError` saying what is wrong."""
    p = policy_file(path)
    # weights-only: tensors and plain data, never unpickling (a file that needs it is refused, saying why)
    data = load_weights(p, f"{p} is not an RLlib policy file of this project", PolicyFileError)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PolicyFileError(f"{p} is not an RLlib policy file of this project (no {FORMAT!r} format tag)")
    try:
        net = PolicyNet(data.get("layers"), data.get("state_dict"))
    except PolicyFileError as e:
        raise PolicyFileError(f"{p} is not an RLlib policy file of this project: {e}") from None
    meta = {k: data[k] for k in ("game", "options", "extra", "env_version") if k in data}
    return net, meta


class RLlibPolicyAgent(Agent):
    """Plays an exported RLlib policy: the most probable legal action (``deterministic``, the
    default) or one drawn from the policy's probabilities over the legal actions."""

    def __init__(
        self,
        path: str | Path,
        game: Game | None = None,
        deterministic: bool = True,
        name: str | None = None,
        seed: int | None = None,
    ):
        super().__init__(seed)
        self.path: Path | None = policy_file(path)  # None: a module in memory (from_module)
        self.net, self.meta = load_policy_file(self.path)
        self.deterministic = deterministic
        self.name = name or (self.path.parent.name if self.path.name == FILE_NAME else self.path.stem)
        if game is not None:
            size = int(np.prod(game.info.observation_shape))
            if (size, game.info.num_actions) != (self.net.observation_size, self.net.num_actions):
                raise ValueError(
                    f"RLlib policy {self.path} (trained on {self.meta['game']} {self.meta['options']}) takes "
                    f"{self.net.observation_size} inputs and {self.net.num_actions} actions; the game gives "
                    f"{size} and {game.info.num_actions} (wrong game or player count?)"
                )
            from boardgames.training.storage.model_version import check_model_version

            check_model_version(self.meta, game, f"rllib:{self.path}")

    @classmethod
    def from_module(cls, module, game: str, options: dict, seed: int | None = None) -> RLlibPolicyAgent:
        """The agent of an RLlib module in memory (no file): the trainer's measurements use it."""
        agent = cls.__new__(cls)
        Agent.__init__(agent, seed)
        spec, state = describe_layers(acting_layers(module))
        agent.path, agent.net, agent.deterministic, agent.name = None, PolicyNet(spec, state), True, "rllib"
        agent.meta = {"game": game, "options": dict(options), "extra": {}}
        return agent

    def act(self, state: State, seat: int) -> int:
        mask = state.legal_mask(seat)
        logits = self.net.logits(state.observation(seat))
        legal = np.flatnonzero(mask)
        if self.deterministic:
            return int(legal[np.argmax(logits[legal])])
        z = logits[legal] - logits[legal].max()
        p = np.exp(z)
        return int(self.rng.choice(legal, p=p / p.sum()))

    def explain(self, state: State, seat: int) -> dict:
        """``{action: probability}`` of the policy (the softmax of its logits over ``seat``'s legal
        actions): what :meth:`act` chooses from; draws nothing."""
        legal = np.flatnonzero(state.legal_mask(seat))
        logits = self.net.logits(state.observation(seat))[legal]
        p = np.exp(logits - logits.max())
        return {int(a): float(v) for a, v in zip(legal, p / p.sum())}


def load_agent(spec: str, game: Game | None = None, seed: int | None = None) -> RLlibPolicyAgent:
    """The agent of ``rllib:<policy file or run folder>`` (the ``rllib`` kind of
    :mod:`boardgames.training.agent_kinds`), checked against ``game`` when given."""
    return RLlibPolicyAgent(spec.partition(":")[2], game, seed=seed)
