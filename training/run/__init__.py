"""The run scaffold every training family stands on (SB3, AlphaZero, RLlib).

A family brings a small *trainer*: what one unit of training is (SB3's rollout and update, inside its own
``learn``; an AlphaZero or RLlib iteration, driven by :func:`~boardgames.training.run.loop.train_until`),
the state to save and how to load it back. The scaffold brings the rest, the same for all three:

* :mod:`.folder`: the run folder (``run.json``, the commands that built the run, resuming: links leading
  out refused, the files a killed process left cleared, the strength rows past the checkpoint dropped);
* :mod:`.options`: ``--set`` for a family whose settings are a dataclass or one config section;
* the strength hook, shared with evaluation: :mod:`boardgames.training.evaluation.strength`;
* :mod:`boardgames.training.progress` (beside this package, shared with evaluation): the progress reporter (a bar
  on a terminal, a plain line every N seconds otherwise);
* :mod:`.loop`: the iteration loop of the families that iterate;
* :mod:`.card`: the model card's machine-readable front matter, written for every family.

The scaffold imports ``evaluation`` (matches, Elo), ``storage`` (durable files) and ``settings``, never a
family (``tests/training/test_training_layout.py``).
"""
