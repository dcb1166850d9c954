"""The settings of an AlphaZero run: defaults here, per game in ``training/configs/<game>.toml``'s
``[alphazero]`` section (and its ``[override."num_players=N".alphazero]``), then ``--set
alphazero.<key>=<value>`` on the command line."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields

from training.cli import SettingError

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
    noise_alpha: float = 0.3
    noise_fraction: float = 0.25
    temperature_moves: int = 12
    gumbel: bool = False  # Gumbel root selection in self-play (turn-based games; envs/search/gumbel.py)
    max_considered: int = 16  # root actions Gumbel considers
    # warm start (training/alphazero/teacher.py): a fresh run first learns from a teacher's games
    teacher: str = ""  # an agent spec, e.g. "sample:models/olix"; "" = none
    teacher_games: int = 200
    teacher_steps: int = 1000  # gradient steps on the teacher's samples before self-play
    # learner
    buffer: int = 100_000
    train_steps: int = 200  # gradient steps per iteration
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
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
    threads: int = 1  # torch threads

    def network_kwargs(self) -> dict:
        return {k: getattr(self, k) for k in NETWORK_KEYS}

    def as_dict(self) -> dict:
        return asdict(self)


def make_settings(values: dict) -> AlphaZeroSettings:
    """Settings from a dict of overrides; SettingError naming an unknown key or a bad value."""
    known = {f.name: f for f in fields(AlphaZeroSettings)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise SettingError(f"unknown alphazero setting(s) {unknown}; known: {', '.join(known)}")
    s = AlphaZeroSettings(**values)
    counts = (
        "iterations",
        "games_per_iteration",
        "parallel",
        "simulations",
        "buffer",
        "batch_size",
        "channels",
        "value_hidden",
        "eval_simulations",
        "play_simulations",
        "threads",
    )
    for name in counts:
        v = getattr(s, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise SettingError(f"alphazero.{name} must be a whole number >= 1, got {v!r}")
    for name in (
        "blocks",
        "train_steps",
        "eval_every",
        "eval_games",
        "temperature_moves",
        "teacher_games",
        "teacher_steps",
    ):
        v = getattr(s, name)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise SettingError(f"alphazero.{name} must be a whole number >= 0, got {v!r}")
    for name in ("c", "noise_alpha", "learning_rate"):
        if not isinstance(getattr(s, name), (int, float)) or getattr(s, name) <= 0:
            raise SettingError(f"alphazero.{name} must be a positive number, got {getattr(s, name)!r}")
    for name in ("noise_fraction", "weight_decay"):
        v = getattr(s, name)
        if not isinstance(v, (int, float)) or not 0 <= v <= 1:
            raise SettingError(f"alphazero.{name} must be a number in [0, 1], got {v!r}")
    if not isinstance(s.gumbel, bool):
        raise SettingError(f"alphazero.gumbel is true or false, got {s.gumbel!r}")
    if not isinstance(s.teacher, str):
        raise SettingError(f"alphazero.teacher is an agent spec (a string), got {s.teacher!r}")
    if s.head not in ("linear", "square"):
        raise SettingError(f"alphazero.head is 'linear' or 'square', got {s.head!r}")
    return s
