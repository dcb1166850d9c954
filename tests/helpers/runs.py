"""AlphaZero settings for the tests: a network, a search and an evaluation small enough for a run of a few
seconds, as ``--set alphazero.KEY=VALUE`` strings, command-line flags or a settings table."""

from boardgames.training.settings import parse_sets

NETWORK_AND_SEARCH = {
    "games_per_iteration": "2",
    "parallel": "2",
    "simulations": "4",
    "train_steps": "2",
    "batch_size": "8",
    "channels": "4",
    "blocks": "1",
    "value_hidden": "4",
}
EVALUATION = {
    "eval_every": "2",
    "eval_games": "2",
    "eval_opponents": "['random']",
    "eval_simulations": "2",
    "play_simulations": "3",
}


def tiny_sets(evaluation: bool = True, **changes) -> list[str]:
    """The tiny settings (with the strength measurement when ``evaluation``) as ``alphazero.KEY=VALUE``
    strings; ``changes`` replace or add values, None leaves a key out."""
    values = {**NETWORK_AND_SEARCH, **(EVALUATION if evaluation else {})}
    for key, value in changes.items():
        values.pop(key, None) if value is None else values.__setitem__(key, str(value))
    return [f"alphazero.{key}={value}" for key, value in values.items()]


def as_flags(sets: list[str]) -> list[str]:
    """``sets`` as command-line flags: ``--set s`` for each."""
    return [flag for s in sets for flag in ("--set", s)]


def as_table(sets: list[str]) -> dict:
    """``sets`` as the table of settings a run is made from (``{key: value}``)."""
    return {key: value for _, key, value in parse_sets(sets)}
