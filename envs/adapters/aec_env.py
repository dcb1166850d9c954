"""The PettingZoo AEC adapter, written once for every turn-based game.

It turns any :class:`boardgames.envs.core.game.Game` into a PettingZoo ``AECEnv``:

* agents ``player_0 .. player_{n-1}`` (seat order, seat 0 first);
* observation ``{"observation": float32 tensor in [0, 1], "action_mask": int8 vector}``, the tensor
  from the observing seat's point of view, the mask all zeros for a seat that does not act now;
* reward at the end of the game only: the rules engine's returns (+1 win, -1 loss, 0 draw), so team
  games give both partners their team's result; the turn limit ends the game by truncation;
* ``reset(seed=..., options={"position": "<notation>"})`` starts from any position;
* render modes ``ansi`` (text), ``rgb_array`` (picture) and ``human`` (a pygame window);
* an action the mask forbids follows ``illegal_action`` (:mod:`boardgames.envs.adapters.illegal`): ``"lose"`` (the
  default, PettingZoo classic's convention: the game ends, the offender's side gets -1, the others 0,
  with a warning), ``"raise"`` (:class:`boardgames.envs.core.errors.IllegalActionError`, the game as it was) or
  ``"random"`` (a random legal action is played); a value that is no action at all (a float, a
  string, out of range) always raises, the game as it was;
* every ``observe`` hands out fresh arrays (its own tensor and mask), which the environment never
  writes again.

Speed: each turn is one call of the game's turn kernels (:func:`boardgames.envs.compiled.turns.turn_kernels`; one
compiled call for the kernel games): it plays the move and prepares the legal mask of the next seat to
act, kept for the legality check of the next ``step`` (one indexed read), and its observation and mask
copy, handed out by the first ``observe`` of that seat (a second ``observe`` computes new copies).

A game's ``<name>_v0`` module gets its ``raw_env`` (a :class:`TurnBasedAECEnv` subclass naming its
options and metadata) and its ``env()`` (:func:`wrap_aec`: PettingZoo's order enforcement, written
here against PettingZoo's public API, :class:`OrderEnforcingAEC`) from
:func:`boardgames.envs.adapters.env_module.aec_env_functions`.
"""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import BaseWrapper

from boardgames.envs.adapters.env_common import BoardEnvCommon, start_state
from boardgames.envs.adapters.illegal import (
    DEFAULT_ILLEGAL_ACTION,
    check_illegal_action_mode,
    loser_returns,
    random_legal,
    warn_illegal,
)
from boardgames.envs.compiled.turns import OVER_BIT, SEAT_BITS, TRUNCATED_BIT, TURN_SHIFT, turn_kernels
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import Game, action_index


class TurnBasedAECEnv(BoardEnvCommon, AECEnv):
    """PettingZoo AEC environment over any turn-based :class:`Game`."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2, "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION):
        super().__init__()
        if game.info.acting_seats > 1:
            raise GameOptionError(f"{game.info.name}: all seats act at once, use the Parallel adapter")
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self._setup(game, render_mode)
        self._num_actions = game.info.num_actions
        self._obs_shape = game.info.observation_shape
        self._kernels = None  # the game's turn kernels (boardgames.envs.compiled.turns), set by reset()
        self._subject = None  # what they take in place of the state (its array for the compiled ones)
        # The legal mask of the seat to act (``_own_seat``, -1 once the game is over), computed once per
        # turn and never handed out; each turn also leaves that seat's observation and mask copy ready
        # for its first observe() (``_next_seat``; -1 once handed out).
        self._own = np.zeros(self._num_actions, dtype=np.bool_)
        self._own_seat = -1
        self._next_seat = -1
        self._next_obs: np.ndarray | None = None
        self._next_mask: np.ndarray | None = None
        self._forfeit = False  # the game was ended by an illegal action (illegal_action="lose")
        self._rng = np.random.default_rng()

    # PettingZoo API ---------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random_seed = seed
            self._rng = np.random.default_rng(seed)  # draws of illegal_action="random"
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
        self._forfeit = False
        kernels = self._kernels = turn_kernels(state)  # the same for every state of the game
        subject = self._subject = kernels.subject(state)
        self._next_seat = -1
        obs, mask = np.empty(self._obs_shape, dtype=np.float32), np.empty(self._num_actions, dtype=np.int8)
        self._after(kernels.refresh(subject, self._own, obs, mask), obs, mask)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent):
        seat = self._seat[agent]
        if seat == self._next_seat:  # prepared by the last step, handed out once
            self._next_seat = -1
            return {"observation": self._next_obs, "action_mask": self._next_mask}
        state = self.state_
        if self._forfeit:  # ended by an illegal action: the engine's game goes on, but nobody acts
            mask = np.zeros(self._num_actions, dtype=np.bool_)
        else:
            mask = self._own.copy() if seat == self._own_seat else state.legal_mask(seat)
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
        # the mover's mask (an agent not yet done means the game goes on); malformed values raise
        if type(action) is not int or not 0 <= action < self._num_actions:
            action = action_index(action, self._num_actions)
        replaced = False
        if not self._own[action]:
            if self.illegal_action == "lose":
                return self._forfeit_game(agent)
            if self.illegal_action == "raise":
                self.state_.apply(action)  # the engine's check raises IllegalActionError, state untouched
            action, replaced = random_legal(self._own, self._rng), True  # "random"
        self._next_seat = -1
        obs, mask = np.empty(self._obs_shape, dtype=np.float32), np.empty(self._num_actions, dtype=np.int8)
        code = self._kernels.apply(self._subject, action, self._own, obs, mask)  # checked against this turn's mask
        self._cumulative_rewards[agent] = 0.0
        if self._after(code, obs, mask):
            self._accumulate_rewards()  # the rewards are all 0 before the end: nothing to add
        if replaced:
            self.infos[agent]["illegal_action"] = True
        if self.render_mode == "human":
            self.render()

    def _forfeit_game(self, agent) -> None:
        """``illegal_action="lose"``: ``agent``'s side loses at once; the engine's state is untouched."""
        seat = self._seat[agent]
        warn_illegal(self.game.info, [seat])
        self._forfeit = True
        self._next_seat = -1
        self._cumulative_rewards[agent] = 0.0
        self._end_of_game(loser_returns(self.game.info, [seat]), truncated=False)
        self.infos[agent]["illegal_action"] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after(self, code: int, obs: np.ndarray, mask: np.ndarray) -> bool:
        """Copy the outcome of a turn (the kernels' code, see boardgames.envs.compiled.turns) into PettingZoo's
        dictionaries and pick the next agent, whose observation ``obs`` and ``mask`` are; True when the
        game is over."""
        if code & OVER_BIT:
            self._end_of_game(self.state_.returns(), bool(code & TRUNCATED_BIT))
            over = True
        else:
            rewards = self.rewards
            for agent in self.agents:
                rewards[agent] = 0.0
            seat = code & SEAT_BITS
            self.agent_selection = self.possible_agents[seat]
            self._own_seat = seat
            self._next_seat, self._next_obs, self._next_mask = seat, obs, mask
            over = False
        turn = code >> TURN_SHIFT
        infos = self.infos
        for agent in self.agents:
            infos[agent] = {"turn": turn}
        return over

    def _end_of_game(self, returns: np.ndarray, truncated: bool) -> None:
        """The final rewards (``returns`` per seat), every agent done, the next agent to take its dead
        step."""
        self._own_seat = -1
        done = self.truncations if truncated else self.terminations
        for agent in self.agents:
            self.rewards[agent] = float(returns[self._seat[agent]])
            done[agent] = True
        # every agent now takes one last (dead) step, starting with the one after the mover
        nxt = (self._seat[self.agent_selection] + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[nxt]


# ----- order enforcement ----------------------------------------------------------------------------

# What PettingZoo's OrderEnforcingWrapper refuses to read before the first reset.
_NEEDS_RESET = frozenset(("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents"))


class OrderEnforcingAEC(BaseWrapper):
    """PettingZoo's order enforcement around an AEC environment: the checks, errors and warnings of
    ``pettingzoo.utils.wrappers.OrderEnforcingWrapper`` (reset first, ``step`` or ``reset`` in every
    turn of an ``agent_iter`` loop, a warning for a step once every agent is done), written against
    PettingZoo's public wrapper API (``BaseWrapper``, ``EnvLogger``) with its own bookkeeping, so it
    needs none of that class's internals. Its per-turn calls (``agent_iter``, ``last``, ``step``) reach
    the environment directly, and ``str(env)`` is the environment's name (``dorix_v0``)."""

    def __init__(self, env: AECEnv):
        assert isinstance(env, AECEnv), "OrderEnforcingAEC wraps an AEC environment"
        self._reset_done = False
        self._stepped = False  # step() or reset() called since the last turn of an agent_iter loop
        super().__init__(env)

    def __getattr__(self, name: str):
        if name in _NEEDS_RESET and not self._reset_done:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    def reset(self, seed=None, options=None) -> None:
        self._reset_done = True
        self._stepped = True
        self.env.reset(seed=seed, options=options)

    def step(self, action) -> None:
        if not self._reset_done:
            EnvLogger.error_step_before_reset()
        self._stepped = True
        if self.env.agents:
            self.env.step(action)
        else:
            EnvLogger.warn_step_after_terminated_truncated()

    def last(self, observe: bool = True):
        if not self._reset_done:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def observe(self, agent):
        if not self._reset_done:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def state(self) -> np.ndarray:
        if not self._reset_done:
            EnvLogger.error_state_before_reset()
        return self.env.state()

    def render(self):
        if not self._reset_done:
            EnvLogger.error_render_before_reset()
        return self.env.render()

    def agent_iter(self, max_iter: int = 2**63):
        if not self._reset_done:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable:
    __slots__ = ("_wrapper", "_max_iter")

    def __init__(self, wrapper: OrderEnforcingAEC, max_iter: int):
        self._wrapper, self._max_iter = wrapper, max_iter

    def __iter__(self):
        return _AgentIterator(self._wrapper, self._max_iter)


class _AgentIterator:
    """The agent to act, turn after turn, while agents are left (at most ``max_iter`` turns); each turn
    asks for a ``step`` (or ``reset``) since the last."""

    __slots__ = ("_wrapper", "_env", "_left")

    def __init__(self, wrapper: OrderEnforcingAEC, max_iter: int):
        self._wrapper, self._env, self._left = wrapper, wrapper.env, max_iter

    def __iter__(self):
        return self

    def __next__(self):
        env = self._env
        if not env.agents or self._left <= 0:
            raise StopIteration
        self._left -= 1
        wrapper = self._wrapper
        assert wrapper._stepped, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._stepped = False
        return env.agent_selection


def wrap_aec(raw: AECEnv) -> AECEnv:
    """The standard wrapping for ``env()``: order enforcement (calls in the right order, reset first;
    :class:`OrderEnforcingAEC`). Illegal actions are not hidden by a wrapper: the engine raises a
    clear error."""
    return OrderEnforcingAEC(raw)
