"""ADIX's position score for the greedy agent (:mod:`boardgames.envs.agents.greedy`): ``AdixGame.heuristic``."""

from __future__ import annotations


def heuristic(state, seat: int) -> float:
    """Material, own minus the opponent's: 5 per captain (captains decide the game) and 1 per teammate
    on the board. Higher is better for ``seat``; ``state`` is an :class:`boardgames.envs.adix.game.AdixState`."""
    own_captains, own_mates = state.pieces(seat)
    opp_captains, opp_mates = state.pieces(1 - seat)
    return 5.0 * (own_captains - opp_captains) + (own_mates - opp_mates)
