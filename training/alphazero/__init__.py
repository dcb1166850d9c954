"""The AlphaZero family: a network trained by self-play over the compiled search (PUCT guided by the network's
priors and values), and the trained network as an agent.

* :mod:`.network`: residual network, policy and per-seat value heads; save/load.
* :mod:`.evaluator`: the network as the search's batched leaf evaluator.
* :mod:`.selfplay`: lock-step self-play games with one batched search per decision.
* :mod:`.buffer`, :mod:`.learner`: the replay buffer and the torch learner.
* :mod:`.settings`: the run's settings (the ``[alphazero]`` section of the game's config file) and their ranges.
* :mod:`.teacher`: a warm start from another agent's games.
* :mod:`.train` (``boardgames alphazero``): the loop, checkpoints, TensorBoard, Elo.
* :mod:`.agent`: the trained network as an agent (``models/<game>_az``), the ``alphazero`` kind of
  :mod:`boardgames.training.agent_kinds`.
* :mod:`.card`: the model card of a shipped network.

See ``docs/alphazero.md``.
"""
