"""Batched environments: N games of one registered game stepped by one compiled call.

* :class:`~boardgames.envs.vector.batch.BatchedGames`: self-play batch (every game advances one decision per step);
* :class:`~boardgames.envs.vector.batch.LearnerBatch`: one learning seat per game, opponents played in the batch;
* :class:`~boardgames.envs.vector.gym_vector.BatchedVectorEnv`: a Gymnasium ``VectorEnv`` over a LearnerBatch;
* :class:`~boardgames.envs.vector.sb3.BatchedVecEnv`: a Stable-Baselines3 ``VecEnv`` with ``action_masks()``
  (MaskablePPO), imported from ``boardgames.envs.vector.sb3`` (needs stable-baselines3).

See docs/performance.md for the speed figures.
"""

from boardgames.envs.vector.batch import BatchedGames, LearnerBatch
from boardgames.envs.vector.gym_vector import BatchedVectorEnv

__all__ = ["BatchedGames", "LearnerBatch", "BatchedVectorEnv"]
