"""The Stable-Baselines3 family: an agent trained by self-play with MaskablePPO (or another SB3 algorithm), and
the saved model as an agent.

* :mod:`.train` (``boardgames train``): the run, its checkpoints and run folder;
* :mod:`.algorithms`: the SB3 algorithms a run can use, built and loaded behind one interface;
* :mod:`.networks`: the convolutional actor-critic for board observations;
* :mod:`.selfplay`: the learner's environment, one seat against random, greedy and its own snapshots;
* :mod:`.pretrain`: behaviour cloning from a teacher agent before self-play;
* :mod:`.agent`: a saved model (``.zip`` or ``models/<name>/``) as an agent, the ``sb3`` kind of
  :mod:`boardgames.training.agent_kinds`;
* :mod:`.card`: the model card of a shipped model.
"""
