"""The RLlib family: PPO on Ray RLlib for every game of the library, with a league of frozen snapshots, and the
trained policy exported as an agent that plays without ray (the ``rllib`` extra: ``pip install -e ".[rllib]"``).

* :mod:`boardgames.training.rllib.env`: the games as RLlib ``MultiAgentEnv`` s (turn-based games through the
  PettingZoo AEC adapter, Barc through the Parallel one), observations in the layout of RLlib's
  action-masking RLModule, one env name per game and player count registered with ``ray.tune``;
* :mod:`boardgames.training.rllib.league`: who plays whom: one learning policy (``main``) for every seat of one
  side (a team's partners share it and the team reward), frozen snapshots of it as opponents;
* :mod:`boardgames.training.rllib.config`: the PPO configuration (new API stack) of a training run;
* :mod:`boardgames.training.rllib.policy_file`: a trained policy exported to a file that plain torch loads (no
  ray), played by the ``rllib`` kind of :mod:`boardgames.training.agent_kinds` (``boardgames evaluate --agents
  rllib:<path>``, ``boardgames play --opponent rllib:<path>``).

The command is ``boardgames rllib`` (:mod:`boardgames.training.rllib.train`). This package imports
ray only in the modules that need it: ``policy_file`` works without it.
"""
