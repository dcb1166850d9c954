"""The PettingZoo AEC adapter, written once for every turn-based game.

It turns any :class:`envs.core.game.Game` into a PettingZoo ``AECEnv``:

* agents ``player_0 .. player_{n-1}`` (seat order, seat 0 first);
* observation ``{"observation": float32 tensor in [0, 1], "action_mask": int8 vector}``, the tensor
  from the observing seat's point of view, the mask all zeros for a seat that does not act now;
* reward at the end of the game only: the rules engine's returns (+1 win, -1 loss, 0 draw), so team
  games give both partners their team's result; the turn limit ends the game by truncation;
* ``reset(seed=..., options={"position": "<notation>"})`` starts from any position;
* render modes ``ansi`` (text), ``rgb_array`` (picture) and ``human`` (a pygame window);
* an illegal action raises :class:`envs.core.errors.IllegalActionError` and leaves the game as it was;
* every ``observe`` hands out fresh arrays (its own tensor and mask), which the environment never
  writes again.

Speed: the legal mask of the seat to act is computed once per turn and shared by ``observe`` and by the
legality check of ``step`` (one indexed read). When the game's rules module provides the fused kernels
``env_refresh`` and ``env_apply`` (see envs/adix/rules.py and
:func:`envs.core.kernel_state.fused_rules`), ``step`` is one compiled call that plays the move and
prepares the next seat's mask and observation, handed out by the first ``observe`` of that seat (a
second ``observe`` computes new copies).

A game's ``<name>_v0`` module subclasses :class:`TurnBasedAECEnv` only to name its options and its
metadata, and calls :func:`wrap_aec` to get the wrapped ``env()``.
"""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from envs.core.env_common import BoardEnvCommon, start_state
from envs.core.errors import GameOptionError
from envs.core.game import Game, State
from envs.core.kernel_state import fused_rules


class TurnBasedAECEnv(BoardEnvCommon, AECEnv):
    """PettingZoo AEC environment over any turn-based :class:`Game`."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2, "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None):
        super().__init__()
        if game.info.simultaneous:
            raise GameOptionError(f"{game.info.name} is simultaneous: use the Parallel adapter")
        self._setup(game, render_mode)
        # The legal mask of the seat to act, computed once per turn (observe() and step() share it).
        self._mask: np.ndarray | None = None
        self._mask_seat = -1
        self._num_actions = game.info.num_actions
        self._obs_shape = game.info.observation_shape
        # With the rules' fused kernels (see _FusedTurn): the mask above lives in ``_own`` (never
        # handed out), and each turn's step leaves the next seat's observation and mask copy ready
        # for its first observe() (``_next_seat``; -1 once handed out).
        self._fused: _FusedTurn | None = None
        self._own = np.zeros(self._num_actions, dtype=np.bool_)
        self._next_seat = -1
        self._next_obs = self._next_mask = None

    # PettingZoo API ---------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random_seed = seed
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
        state = self.state_ = start_state(self.game, options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        fused = self._fused = _fused_turn(state)  # the same for every state of the game
        if fused is None:
            self._after_change()
        else:
            obs, mask = np.empty(self._obs_shape, dtype=np.float32), np.empty(self._num_actions, dtype=np.int8)
            self._after_fused(fused.refresh(state.data, self._own, obs, mask), obs, mask)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self._seat[agent]
        if seat == self._next_seat:  # prepared by the last step, handed out once
            self._next_seat = -1
            return {"observation": self._next_obs, "action_mask": self._next_mask}
        state = self.state_
        mask = self._mask.copy() if seat == self._mask_seat else state.legal_mask(seat)
        # a bool array read as int8 (0/1): no conversion copy
        return {"observation": state.observation(seat), "action_mask": mask.view(np.int8)}

    def last(self, observe: bool = True):
        """PettingZoo's ``AECEnv.last``, calling ``observe`` directly."""
        agent = self.agent_selection
        assert agent is not None
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        mask = self._mask
        fused = self._fused
        legal = (
            (type(action) is int or (isinstance(action, np.integer) and not isinstance(action, np.bool_)))
            and 0 <= action < self._num_actions
            and mask is not None
            and mask[action]
        )
        if not legal:
            self.state_.apply(action)  # the engine's check raises IllegalActionError, state untouched
        elif fused is None:
            self.state_.apply(int(action), check=False)  # legal: checked against this turn's mask
        self._cumulative_rewards[agent] = 0.0
        if fused is None or not legal:
            self._after_change()
            self._accumulate_rewards()
        else:
            self._next_seat = -1
            obs, mask = np.empty(self._obs_shape, dtype=np.float32), np.empty(self._num_actions, dtype=np.int8)
            code = fused.apply(self.state_.data, int(action), self._own, obs, mask)
            if self._after_fused(code, obs, mask):
                self._accumulate_rewards()  # the rewards are all 0 before the end: nothing to add
        if self.render_mode == "human":
            self.render()

    def _after_fused(self, code: int, obs: np.ndarray, mask: np.ndarray) -> bool:
        """:meth:`_after_change` from a fused kernel's code; True when the game is over."""
        fused = self._fused
        if code & fused.over_bit:
            self._end_of_game(self.state_, bool(code & fused.truncated_bit))
            over = True
        else:
            rewards = self.rewards
            for agent in self.agents:
                rewards[agent] = 0.0
            seat = code & fused.seat_bits
            self.agent_selection = self.possible_agents[seat]
            self._mask, self._mask_seat = self._own, seat
            self._next_seat, self._next_obs, self._next_mask = seat, obs, mask
            over = False
        turn = code >> fused.turn_shift
        infos = self.infos
        for agent in self.agents:
            infos[agent] = {"turn": turn}
        return over

    def _end_of_game(self, state: State, truncated: bool) -> None:
        """The final rewards, every agent done, the next agent to take its dead step."""
        self._mask, self._mask_seat = None, -1
        returns = state.returns()
        done = self.truncations if truncated else self.terminations
        for agent in self.agents:
            self.rewards[agent] = float(returns[self._seat[agent]])
            done[agent] = True
        # every agent now takes one last (dead) step, starting with the one after the mover
        nxt = (self._seat[self.agent_selection] + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[nxt]

    def _after_change(self) -> None:
        """Copy the engine's outcome into PettingZoo's dictionaries and pick the next agent."""
        state = self.state_
        self._mask, self._mask_seat = None, -1
        if state.is_terminal():
            self._end_of_game(state, state.is_truncated())
        else:
            rewards = self.rewards
            for agent in self.agents:
                rewards[agent] = 0.0
            seat = state.current_seat
            self.agent_selection = self.possible_agents[seat]
            self._mask, self._mask_seat = state.legal_mask(seat), seat
        turn = state.turn
        infos = self.infos
        for agent in self.agents:
            infos[agent] = {"turn": turn}


class _FusedTurn:
    """The fused kernels of a rules module for this adapter (``env_refresh`` and ``env_apply``, see
    envs/adix/rules.py), with the bits of their codes."""

    __slots__ = ("refresh", "apply", "seat_bits", "over_bit", "truncated_bit", "turn_shift")

    def __init__(self, rules):
        self.refresh, self.apply = rules.env_refresh, rules.env_apply
        self.seat_bits, self.over_bit = rules.ENV_SEAT_BITS, rules.ENV_OVER_BIT
        self.truncated_bit, self.turn_shift = rules.ENV_TRUNCATED_BIT, rules.ENV_TURN_SHIFT


_FUSED_TURN: dict = {}


def _fused_turn(state: State) -> _FusedTurn | None:
    """The fused kernels of ``state``'s rules, or None when it has none (the adapter then calls the
    State methods one by one)."""
    cls = type(state)
    if cls not in _FUSED_TURN:
        rules = fused_rules(state, ("env_refresh", "env_apply"))
        _FUSED_TURN[cls] = None if rules is None else _FusedTurn(rules)
    return _FUSED_TURN[cls]


class _LeanIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the wrapped env's fields directly."""

    def __next__(self):
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection


class _LeanIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _LeanIterator(self.env, self.max_iter)


class LeanOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper (same checks, same errors) whose per-turn calls (``agent_iter``,
    ``last``, ``step``) reach the environment without going through ``__getattr__`` for every field."""

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _LeanIterable(self, max_iter)

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)  # PettingZoo's error
        return self.env.last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's error or warning


def wrap_aec(raw: AECEnv) -> AECEnv:
    """The standard wrapping for ``env()``: PettingZoo's order enforcement (calls in the right order,
    reset first). Illegal actions are not hidden by a wrapper: the engine raises a clear error."""
    return LeanOrderEnforcingWrapper(raw)
