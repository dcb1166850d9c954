"""The Stable-Baselines3 family: an agent trained by self-play with MaskablePPO (or another SB3 algorithm), and
the saved model as an agent.

* :mod:`.train` (``boardgames train``): the command, its settings and environments;
* :mod:`.trainer`: the family's trainer on the run scaffold (:mod:`boardgames.training.run`): SB3's ``learn``
  with the scaffold's hooks as callbacks; :mod:`.checkpoints` (durable model zips with their manifests) and
  :mod:`.strength` (the strength and progress callbacks);
* :mod:`.algorithms`: the SB3 algorithms a run can use, built and loaded behind one interface;
* :mod:`.networks`: the convolutional actor-critic for board observations;
* :mod:`.selfplay`: the learner's environment, one seat against random, greedy and its own snapshots;
* :mod:`.pretrain`: behaviour cloning from a teacher agent before self-play;
* :mod:`.agent`: a saved model (``.zip`` or ``models/<name>/``) as an agent, the ``sb3`` kind of
  :mod:`boardgames.training.agent_kinds`;
* :mod:`.card`: the model card of a shipped model.
"""
