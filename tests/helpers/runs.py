"""The settings and command lines of the tests' tiny training runs: AlphaZero settings small enough for a run of
a few seconds, as ``--set alphazero.KEY=VALUE`` strings, command-line flags or a settings table; the command
lines of the trainers for a two-player Dorix run in a folder."""

from boardgames.benchmarks.fuzz.run_folders import az_command, ppo_command
from boardgames.training.settings import parse_sets

__all__ = [
    "PPO_SMALL",
    "as_flags",
    "as_table",
    "az_command",
    "evaluate_command",
    "ppo_command",
    "ppo_train",
    "rllib_sets",
    "tiny_sets",
]

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


# a small SB3 run: two environments, rollouts of 128 steps, one epoch (``--set`` strings)
PPO_SMALL = ["train.n_envs=2", "algo.n_steps=128", "algo.batch_size=128", "algo.n_epochs=1"]


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


def ppo_train(run, steps: int, sets: list[str], seed: int = 0, **more):
    """``boardgames.training.sb3.train.train`` for a run of two-player Dorix in the folder ``run``, ``steps``
    long, without the progress bar, with the settings ``sets``; ``more`` keywords passed on (``resume=``)."""
    from boardgames.training.sb3.train import train

    return train(
        "dorix",
        {"num_players": 2},
        total_steps=steps,
        seed=seed,
        run_dir=str(run),
        progress_bar=False,
        sets=sets,
        **more,
    )


def rllib_sets(**changes) -> list[str]:
    """The settings of a tiny RLlib PPO run (batches of 200 steps, minibatches of 100, one epoch) as
    ``--set KEY=VALUE`` flags; ``changes`` add values after them."""
    values = {"train_batch": 200, "minibatch": 100, "epochs": 1, **changes}
    return as_flags([f"{key}={value}" for key, value in values.items()])


def evaluate_command(out, games: int, *agents: str) -> list[str]:
    """The command line of the evaluation table (``boardgames.training.evaluation.evaluate``) on two-player
    Dorix: ``agents``, ``games`` games a pair, without the progress bar, the results written in ``out``."""
    return [
        "--game",
        "dorix",
        "--players",
        "2",
        "--agents",
        *agents,
        "--games",
        str(games),
        "--no-progress",
        "--out",
        str(out),
    ]
