"""Reinforcement-learning environments for four abstract board games: Dorix, Olix, ADIX and Sylvie Barc's
6x6 duel, with numba-compiled rules, PettingZoo and Gymnasium APIs, baseline agents and trained models.

* :mod:`boardgames.envs`: the games (``from boardgames.envs import dorix_v0``), their shared Game/State
  interface, the environments, batched games, agents and compiled search;
* :mod:`boardgames.training`: training (Stable-Baselines3, AlphaZero, Ray RLlib) and evaluation; the shipped
  models are ``boardgames/models`` (``make_agent("models/dorix_2p", game)``);
* :mod:`boardgames.play`: a person against an agent, in the terminal, a window or the browser;
* :mod:`boardgames.benchmarks`: speed measurements;
* ``boardgames`` on the command line: ``boardgames --help`` lists its subcommands.

Importing this package imports nothing else: ``import boardgames.envs`` registers the games with
PettingZoo and Gymnasium.
"""

if __name__ != "boardgames":  # package/ imported by its folder's name (from the repository root)
    raise ImportError(f"package/ is the package boardgames: import boardgames, not {__name__}")

__version__ = "0.1.0"  # the package version: pyproject.toml reads it from here ([tool.setuptools.dynamic])
