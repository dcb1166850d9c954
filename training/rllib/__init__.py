"""Ray RLlib for every game of the library (the ``rllib`` extra: ``pip install -e ".[rllib]"``).

* :mod:`training.rllib.env`: the games as RLlib ``MultiAgentEnv`` s (turn-based games through the
  PettingZoo AEC adapter, Barc through the Parallel one), observations in the layout of RLlib's
  action-masking RLModule, one env name per game and player count registered with ``ray.tune``;
* :mod:`training.rllib.league`: who plays whom: one learning policy (``main``) for every seat of one
  side (a team's partners share it and the team reward), frozen snapshots of it as opponents;
* :mod:`training.rllib.config`: the PPO configuration (new API stack) of a training run;
* :mod:`training.rllib.policy_file`: a trained policy exported to a file that plain torch loads (no
  ray): ``training.evaluate --agents rllib:<path>`` and ``training.play`` use it.

The command is ``python -m training.rllib_train`` (:mod:`training.rllib_train`). This package imports
ray only in the modules that need it: ``policy_file`` works without it.
"""
