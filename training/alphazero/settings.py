"""The settings of an AlphaZero run: defaults here, per game in ``training/configs/<game>.toml``'s
``[alphazero]`` section (and its ``[override."num_players=N".alphazero]``), then ``--set
alphazero.<key>=<value>`` on the command line."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields

from boardgames.training.settings import SettingError, check_count, check_number

NETWORK_KEYS = ("channels", "blocks", "head", "value_hidden")


@dataclass
class AlphaZeroSettings:
    # the loop
    iterations: int = 100  # self-play + learning rounds in all (a resumed run goes on to this total)
    games_per_iteration: int = 64
    parallel: int = 64  # games played side by side (one batched search per decision)
    # self-play search
    simulations: int = 64
    c: float = 1.25
    # the search's rule: "puct", or for a simultaneous game "regret" / "exp3" (the policy targets are then the
    # root's average strategies and moves are drawn from them; gamma is their uniform exploration share)
    rule: str = "puct"
    gamma: float = 0.3
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    temperature_moves: int = 12
    gumbel: bool = False  # Gumbel root selection in self-play (turn-based games; envs/search/gumbel.py)
    max_considered: int = 16  # root actions Gumbel considers
    # the value targets of a game cut at its turn limit: "zero" (a draw) or "search" (each position's own
    # search's root value), see training/alphazero/selfplay.py
    truncated_value: str = "zero"
    # warm start (training/alphazero/teacher.py): a fresh run first learns from a teacher's games
    teacher: str = ""  # an agent spec, e.g. "sample:models/olix"; "" = none
    teacher_games: int = 200
    teacher_steps: int = 1000  # gradient steps on the teacher's samples before self-play
    # or a fresh run starts from a trained network: an AlphaZero agent folder of the same game and network,
    # e.g. "models/dorix_2p_az" (its weights; the optimizer, buffer and iteration count start anew)
    start_from: str = ""
    # learner
    buffer: int = 100_000
    train_steps: int = 200  # gradient steps per iteration
    # no gradient step until the buffer holds this many samples (0: from the first iteration): a run that
    # starts from a trained network (start_from) fills the buffer with its games before it learns, rather
    # than fitting the first iteration's few thousand positions many times over
    learn_after: int = 0
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    device: str = "cpu"  # the learner's network and the learner-side leaf evaluation: cpu, cuda, cuda:N or auto
    # network
    channels: int = 64
    blocks: int = 4
    head: str = "linear"
    value_hidden: int = 64
    # measurements and files
    eval_every: int = 5  # iterations between strength measurements (0: none)
    eval_games: int = 20  # per opponent, sides alternating
    eval_opponents: list = field(default_factory=lambda: ["random", "greedy", "mcts:100"])
    eval_simulations: int = 64
    play_simulations: int = 200  # the saved model's default simulations per move
    # regret / exp3: the temperature the saved model draws its orders at (boardgames.envs.agents.smmcts.sharpened)
    play_temperature: float = 1.0
    threads: int = 1  # torch threads

    def network_kwargs(self) -> dict:
        return {k: getattr(self, k) for k in NETWORK_KEYS}

    def as_dict(self) -> dict:
        return asdict(self)


COUNTS = {  # setting: (lowest, highest)
    "iterations": (1, 10_000_000),
    "games_per_iteration": (1, 1_000_000),
    "parallel": (1, 4096),
    "simulations": (1, 100_000),
    "temperature_moves": (0, 100_000),
    "max_considered": (1, 4096),
    "teacher_games": (0, 1_000_000),
    "teacher_steps": (0, 10_000_000),
    "buffer": (1, 10_000_000),
    "train_steps": (0, 10_000_000),
    "learn_after": (0, 10_000_000),
    "batch_size": (1, 65_536),
    "channels": (1, 1024),
    "blocks": (0, 64),
    "value_hidden": (1, 4096),
    "eval_every": (0, 10_000_000),
    "eval_games": (0, 100_000),
    "eval_simulations": (1, 100_000),
    "play_simulations": (1, 100_000),
    "threads": (1, 1024),
}
"""The range of every whole-number setting: wide enough for any run this project makes, narrow enough
that a typo or a hostile file cannot ask for terabytes (``simulations=10**9`` would allocate search trees
of 2.5 TiB; ``blocks=100000`` a network of 7 billion weights)."""

NUMBERS = {  # setting: (lowest, highest, lowest excluded)
    "c": (0.0, 100.0, True),
    "gamma": (0.0, 1.0, True),
    "play_temperature": (0.0, 1.0, True),
    "noise_alpha": (0.0, 100.0, True),
    "noise_fraction": (0.0, 1.0, False),
    "learning_rate": (0.0, 10.0, True),
    "weight_decay": (0.0, 1.0, False),
}

SEARCH_RULES = ("puct", "regret", "exp3")
"""The search's selection rules AlphaZero takes (regret matching and Exp3: games whose seats act at once)."""

MAX_SEARCH_NODES = 20_000_000
"""At most ``parallel * (simulations + 1)`` nodes in the search trees of one self-play step."""

MAX_PARAMETERS = 100_000_000
"""At most this many weights in a network (400 MB as float32): the shipped ones have about 100,000."""

MAX_OPPONENTS = 32


def make_settings(values: dict) -> AlphaZeroSettings:
    """Settings from a dict of overrides; SettingError naming an unknown key or a bad value (every
    number is checked against its range: :data:`COUNTS`, :data:`NUMBERS`)."""
    known = {f.name: f for f in fields(AlphaZeroSettings)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise SettingError(f"unknown alphazero setting(s) {unknown}; known: {', '.join(known)}")
    s = AlphaZeroSettings(**values)
    for name, (low, high) in COUNTS.items():
        check_count(f"alphazero.{name}", getattr(s, name), low, high)
    for name, (least, most, low_open) in NUMBERS.items():
        check_number(f"alphazero.{name}", getattr(s, name), least, most, low_open)
    if not isinstance(s.gumbel, bool):
        raise SettingError(f"alphazero.gumbel is true or false, got {s.gumbel!r}")
    if not isinstance(s.teacher, str):
        raise SettingError(f"alphazero.teacher is an agent spec (a string), got {s.teacher!r}")
    if not isinstance(s.start_from, str):
        raise SettingError(f"alphazero.start_from is an AlphaZero agent folder (a string), got {s.start_from!r}")
    if s.head not in ("linear", "square"):
        raise SettingError(f"alphazero.head is 'linear' or 'square', got {s.head!r}")
    if s.rule not in SEARCH_RULES:
        raise SettingError(f"alphazero.rule is one of {', '.join(SEARCH_RULES)}, got {s.rule!r}")
    if s.truncated_value not in ("zero", "search"):
        raise SettingError(f"alphazero.truncated_value is 'zero' or 'search', got {s.truncated_value!r}")
    if not isinstance(s.device, str) or not re.fullmatch(r"cpu|auto|cuda(:[0-9]{1,3})?", s.device):
        raise SettingError(f"alphazero.device is 'cpu', 'cuda' (or 'cuda:N') or 'auto', got {s.device!r}")
    opponents = s.eval_opponents
    if not isinstance(opponents, list) or not all(isinstance(o, str) and o for o in opponents):
        raise SettingError(f"alphazero.eval_opponents is a list of agent specs (strings), got {opponents!r}")
    if len(opponents) > MAX_OPPONENTS or (s.eval_every and not opponents):
        raise SettingError(
            f"alphazero.eval_opponents must list 1..{MAX_OPPONENTS} agent specs (0 only with "
            f"alphazero.eval_every=0), got {len(opponents)}"
        )
    nodes = s.parallel * (s.simulations + 1)
    if nodes > MAX_SEARCH_NODES:
        raise SettingError(
            f"alphazero.parallel * (alphazero.simulations + 1) must be at most {MAX_SEARCH_NODES:,} "
            f"(the search trees of a self-play step), got {nodes:,}"
        )
    return s


def network_parameters(
    obs_shape, num_actions: int, num_seats: int, channels: int, blocks: int, head: str, value_hidden: int
) -> int:
    """How many weights :class:`~boardgames.training.alphazero.network.AlphaZeroNet` has with this configuration
    (computed, not built: a check of a file's sizes before any memory is spent on them)."""
    h, w, c = obs_shape
    convs = 9 * c * channels + 2 * channels + blocks * 2 * (9 * channels * channels + 2 * channels)
    if head == "linear":
        policy = 2 * channels + 2 + 2 * h * w * num_actions + num_actions
    else:
        k = num_actions // (h * w)
        extra = num_actions - k * h * w
        policy = channels * k + k + (channels * extra + extra if extra else 0)
    value = 2 * channels + 2 + 2 * h * w * value_hidden + value_hidden + value_hidden * num_seats + num_seats
    return convs + policy + value


def check_network_config(config: dict, where: str = "network") -> None:
    """SettingError naming the value when a saved network's configuration (``alphazero.json``'s
    ``network``) is out of range: its sizes as for the settings (:data:`COUNTS`), the game's shape within
    reason, and at most :data:`MAX_PARAMETERS` weights in all."""
    if not isinstance(config, dict):
        raise SettingError(f"{where} must be a table of the network's sizes, got {config!r}")
    shape = config.get("obs_shape")
    if not isinstance(shape, (list, tuple)) or len(shape) != 3:
        raise SettingError(f"{where}.obs_shape must be [height, width, planes], got {shape!r}")
    for i, d in enumerate(shape):
        check_count(f"{where}.obs_shape[{i}]", d, 1, 4096)
    check_count(f"{where}.num_actions", config.get("num_actions"), 1, 1_000_000)
    check_count(f"{where}.num_seats", config.get("num_seats"), 1, 64)
    sizes = {k: config.get(k, AlphaZeroSettings.__dataclass_fields__[k].default) for k in NETWORK_KEYS}
    for name in ("channels", "blocks", "value_hidden"):
        check_count(f"{where}.{name}", sizes[name], *COUNTS[name])
    head = sizes["head"]
    if head not in ("linear", "square"):
        raise SettingError(f"{where}.head is 'linear' or 'square', got {head!r}")
    weights = network_parameters(shape, config["num_actions"], config["num_seats"], **sizes)
    if weights > MAX_PARAMETERS:
        raise SettingError(
            f"{where}: a network of {weights:,} weights (channels={sizes['channels']}, "
            f"blocks={sizes['blocks']}, value_hidden={sizes['value_hidden']}); at most "
            f"{MAX_PARAMETERS:,}"
        )


def check_saved_network(file) -> None:
    """Check the ``alphazero.json`` of a saved network (``file``, its path) before anything is built from
    it: the network's configuration (:func:`check_network_config`) and the search settings it carries
    (``simulations``, ``c``, ``rule``, ``gamma``, ``temperature``, ``contempt``); SettingError naming the
    file and the value. A file that cannot be read or is not such a configuration is left to the loader to
    refuse."""
    from pathlib import Path

    from boardgames.training.storage.safe_load import read_model_json

    file = Path(file)
    try:
        meta = read_model_json(file)
    except (OSError, ValueError, RecursionError):
        return
    if not isinstance(meta, dict) or not isinstance(meta.get("network"), dict):
        return
    check_network_config(meta["network"], f"{file}: network")
    if "simulations" in meta:
        check_count(f"{file}: simulations", meta["simulations"], *COUNTS["play_simulations"])
    if "c" in meta:
        check_number(f"{file}: c", meta["c"], *NUMBERS["c"])
    if "rule" in meta and meta["rule"] not in SEARCH_RULES:
        raise SettingError(f"{file}: rule is one of {', '.join(SEARCH_RULES)}, got {meta['rule']!r}")
    if "gamma" in meta:
        check_number(f"{file}: gamma", meta["gamma"], *NUMBERS["gamma"])
    if "temperature" in meta:
        check_number(f"{file}: temperature", meta["temperature"], *NUMBERS["play_temperature"])
    if "contempt" in meta:  # a play setting only (no training setting): the search's draw contempt
        check_number(f"{file}: contempt", meta["contempt"], 0.0, 1.0)
