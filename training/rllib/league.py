"""Self-play with a league: who plays whom in each game, and the frozen snapshots of the learner.

The learning policy is ``main`` (:data:`LEARNER`). In every game it takes one side: a seat, or a team
in 4-player Dorix, whose two partners are both played by ``main`` and share the team reward (the
engine's returns give both partners the team's result). Every other side is played either by
``main`` too (plain self-play: both sides learn; probability ``self_play``), by ``random``
(probability ``random_share``: a frozen module whose policy head is zero, so that it plays every legal
move alike, the uniform random player, set up by :func:`make_random_player`) or else by one of the
frozen snapshots ``snapshot_0 .. snapshot_{k-1}`` (each side of the game its one opponent policy).

The snapshots are copies of ``main`` taken every ``snapshot_every`` training iterations, the oldest
slot replaced each time (:func:`take_snapshot`), as the SB3 trainer plays against snapshots of the
learner (:mod:`boardgames.training.sb3.selfplay`). Before the first copies the slots hold the network ``main``
started from, a nearly uniform player of the legal moves: the weak opponents a new learner needs.
The slots are fixed modules of the algorithm, so a checkpoint holds the whole league and
``--resume`` needs no extra state.

:class:`LeagueMapping` is the ``policy_mapping_fn``: it draws the side of ``main`` and the opponent
from the episode's id, so every agent of a game gets the same draw.
"""

from __future__ import annotations

import random

LEARNER = "main"
RANDOM = "random"


def snapshot_ids(count: int) -> list[str]:
    """The module ids of ``count`` snapshot slots."""
    return [f"snapshot_{i}" for i in range(count)]


def side_of_seats(sides: list) -> dict[int, int]:
    """``seat -> side index`` from ``GameInfo.sides()`` (a side is a seat, or a team's seats)."""
    return {seat: i for i, side in enumerate(sides) for seat in side}


class LeagueMapping:
    """RLlib's ``policy_mapping_fn(agent_id, episode, **kwargs)`` for a league (module docstring).

    ``sides``: the game's sides (``GameInfo.sides()``, e.g. ``[(0, 2), (1, 3)]`` at 4-player Dorix);
    ``snapshots``: the number of snapshot slots; ``self_play``: the probability that the other sides
    are ``main`` too; ``random_share``: the probability that they are the ``random`` module (the rest
    goes to the snapshots; with no slot, to ``main``).
    """

    def __init__(self, sides: list, snapshots: int, self_play: float = 0.5, random_share: float = 0.0):
        if not (0.0 <= self_play <= 1.0 and 0.0 <= random_share <= 1.0 - self_play):
            raise ValueError(
                f"self_play ({self_play}) and random_share ({random_share}) must be probabilities summing to 1 at most"
            )
        self.sides = [tuple(int(s) for s in side) for side in sides]
        self.side_of = side_of_seats(self.sides)
        self.snapshots = snapshot_ids(snapshots)
        self.self_play = self_play
        self.random_share = random_share

    def match(self, key) -> tuple[int, str]:
        """``(side of main, opponent module)`` of the game identified by ``key`` (its episode id)."""
        rng = random.Random(str(key))
        side = rng.randrange(len(self.sides))
        draw = rng.random()
        if draw < self.random_share:
            return side, RANDOM
        if draw < self.random_share + self.self_play or not self.snapshots:
            return side, LEARNER
        return side, rng.choice(self.snapshots)

    def module_for(self, agent_id: str, key) -> str:
        """The module that plays ``agent_id`` (``player_<seat>``) in the game ``key``."""
        seat = int(str(agent_id).rsplit("_", 1)[1])
        side, opponent = self.match(key)
        return LEARNER if self.side_of[seat] == side else opponent

    def __call__(self, agent_id, episode, **kwargs) -> str:
        return self.module_for(agent_id, getattr(episode, "id_", episode))


def take_snapshot(algo, iteration: int, snapshots: int) -> str | None:
    """Copy ``main``'s weights into the snapshot slot of ``iteration`` (the oldest one: slots are
    refilled in turn) in the learner and every env runner; returns the slot's id (None without slots)."""
    if snapshots <= 0:
        return None
    slot = snapshot_ids(snapshots)[iteration % snapshots]
    weights = algo.learner_group.get_weights(module_ids=[LEARNER])[LEARNER]
    algo.learner_group.set_weights({slot: weights})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[slot], inference_only=True, timeout_seconds=60.0
    )
    return slot


def make_random_player(algo) -> None:
    """Zero the policy head of the ``random`` module in the learner and every env runner: its logits
    are then 0 for every action, and the action mask leaves a uniform choice among the legal ones."""
    weights = algo.learner_group.get_weights(module_ids=[RANDOM])[RANDOM]
    algo.learner_group.set_weights({RANDOM: {k: (v * 0 if k.startswith("pi.") else v) for k, v in weights.items()}})
    algo.env_runner_group.sync_weights(
        from_worker_or_learner_group=algo.learner_group, policies=[RANDOM], inference_only=True, timeout_seconds=60.0
    )


def trained_module(algo, module_id: str = LEARNER):
    """A copy of the env runners' module ``module_id`` holding the learner's weights, the newest: the
    runners get them only at the next sync (the trainer exports and measures this one)."""
    import copy

    import torch

    module = copy.deepcopy(algo.get_module(module_id))
    weights = algo.learner_group.get_weights(module_ids=[module_id])[module_id]
    own = module.state_dict()
    module.load_state_dict({k: torch.as_tensor(v) for k, v in weights.items() if k in own}, strict=False)
    return module
