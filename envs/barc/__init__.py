"""Barc duel: Sylvie Barc's 6x6 simultaneous-move game (rules kernels, Game/State, pictures)."""
