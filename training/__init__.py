"""Training agents for the games of :mod:`boardgames.envs`, and measuring them.

The families, each in its own package:

* :mod:`.sb3`: Stable-Baselines3 (MaskablePPO) by self-play against a pool of opponents (``boardgames train``);
* :mod:`.alphazero`: AlphaZero-style self-play over the compiled search (``boardgames alphazero``);
* :mod:`.rllib`: Ray RLlib PPO with a league of policies (``boardgames rllib``, the ``rllib`` extra).

What uses the agents they produce:

* :mod:`.evaluation`: matches between agents with win rates and Elo, leaderboards, strength during training
  (``boardgames evaluate``, ``boardgames leaderboard``).

A person plays against these agents with :mod:`boardgames.play` (``boardgames play``, ``boardgames web``),
a package beside this one.

What they share, at the top: :mod:`.agent_kinds` (every kind of agent and :func:`~.agent_kinds.make_agent`,
which builds one from a spec such as ``greedy`` or ``models/dorix_2p``), :mod:`.settings` (the per-game
config files in ``configs/``, ``--set`` and the setting checks), :mod:`.cli` (the flags every command shares)
and :mod:`.storage` (model files read safely, the shipped models, run folders that survive a kill).
:mod:`.demo` trains and measures a Dorix agent in a few minutes (``boardgames demo``).
"""

if __name__ != "boardgames.training":  # the folder imported by its own name, from the repository root
    raise ImportError(f"training/ is the package boardgames.training: import boardgames.training, not {__name__}")
