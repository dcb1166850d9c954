"""AlphaZero-style training over the compiled search (issue 19, item 2).

* :mod:`.network`: residual network, policy and per-seat value heads; save/load.
* :mod:`.evaluator`: the network as the search's batched leaf evaluator.
* :mod:`.selfplay`: lock-step self-play games with one batched search per decision.
* :mod:`.buffer`, :mod:`.learner`: the replay buffer and the torch learner.
* :mod:`.train` (``boardgames alphazero``): the loop, checkpoints, TensorBoard, Elo.
* :mod:`.agent`: the trained network as an agent (``models/<board>_az``).

See ``docs/alphazero.md``.
"""
