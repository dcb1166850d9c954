"""The PettingZoo Parallel adapter, written once for every simultaneous game, and its AEC form.

:class:`SimultaneousParallelEnv` turns any simultaneous :class:`boardgames.envs.core.game.Game` into a PettingZoo
``ParallelEnv``, with the conventions of the turn-based adapter (:mod:`boardgames.envs.adapters.aec_env`):

* agents ``player_0 .. player_{n-1}`` (seat order); ``step`` takes one action per live agent and
  plays them together with ``State.apply_joint``;
* observation ``{"observation": float32 tensor in [0, 1], "action_mask": int8 vector}``, the tensor
  from the observing seat's point of view. Nothing an agent observes depends on the other agents'
  actions of the current turn: they are applied together, then everybody observes the result.
  Every ``reset`` and ``step`` hands out fresh arrays: each agent's tensor and mask are its own (with
  the fused kernels below, its own row of one block allocated for that step), which the environment
  never writes again, so they may be kept or modified;
* reward at the end of the game only: the rules engine's returns (+1 win, -1 loss, 0 draw); the turn
  limit ends the game by truncation; agents leave ``agents`` once the game is over;
* ``reset(seed=..., options={"position": "<notation>"})`` starts from any position;
* render modes ``ansi``, ``rgb_array`` and ``human``; the picture of the game has a status line
  under it saying whose orders are in (never what they are; see the AEC form below);
* a missing, out-of-range or non-integer action raises :class:`boardgames.envs.core.errors.IllegalActionError`
  and leaves the game as it was. An in-range action that the mask forbids follows ``illegal_action``
  (:mod:`boardgames.envs.adapters.illegal`): ``"lose"`` (the default of this adapter; PettingZoo classic's convention:
  the game ends, every offender's side gets -1, the others 0, the offenders' infos say
  ``"illegal_action": True``, with a warning), ``"raise"`` (IllegalActionError, the game as it was),
  ``"random"`` (a random legal action is played instead, ``"illegal_action": True``) or ``"void"``: it
  is played as the rules say an impossible action is played (the game's ``apply_joint`` must then treat
  it as doing nothing: Barc duel's source says so of an impossible order, and Barc's environments
  default to it) and the agent's info has ``"void_action": True``. PettingZoo's
  ``parallel_seed_test`` samples actions without the mask: every mode but "raise" passes it.

:func:`wrap_parallel_as_aec` gives the AEC form for libraries that need one: PettingZoo's
``parallel_to_aec`` conversion, in which the agents give their actions one after the other and the
turn is resolved when the last one is in. This adapter's version also checks each action when it is
given (so an illegal action raises at once, naming the agent) and lets the picture say which agents
have already given theirs. With ``illegal_action="raise"`` each action is checked when it is given,
so an illegal one raises at once.

Speed: a well-formed ``step`` is one call of the game's joint kernels
(:func:`boardgames.envs.compiled.turns.joint_kernels`; one compiled call for the kernel games: the legality check
against this turn's masks, the joint move, every seat's mask and observation) and a few dictionaries;
anything else (a missing, unknown or malformed action, an illegal one with "raise") goes through the
careful path with its checks and messages, then the same kernels prepare the next turn.

A game's ``<name>_v0`` module gets its ``raw_env`` (a :class:`SimultaneousParallelEnv` naming the
game's options and metadata), ``parallel_env()`` returning it and ``env()`` returning
``wrap_parallel_as_aec`` of it from :func:`boardgames.envs.adapters.env_module.parallel_env_functions`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import parallel_to_aec_wrapper

try:
    from pettingzoo.utils import AgentSelector
except ImportError:  # PettingZoo before 1.25 names it agent_selector
    from pettingzoo.utils import agent_selector as AgentSelector
from PIL import Image, ImageDraw

from boardgames.envs.adapters.env_common import BoardEnvCommon, start_state
from boardgames.envs.adapters.illegal import (
    DEFAULT_ILLEGAL_ACTION,
    ILLEGAL_ACTION_MODES,
    check_illegal_action_mode,
    loser_returns,
    random_legal,
    warn_illegal,
)
from boardgames.envs.compiled.turns import OVER_BIT, TRUNCATED_BIT, TURN_SHIFT, joint_kernels
from boardgames.envs.core.errors import GameOptionError, IllegalActionError
from boardgames.envs.core.game import Game, action_index, is_integer
from boardgames.envs.core.rendering import BACKGROUND, TEXT, font

STATUS_STRIP_PX = 30


class SimultaneousParallelEnv(BoardEnvCommon, ParallelEnv):
    """PettingZoo Parallel environment over any simultaneous :class:`Game`."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2, "is_parallelizable": True}

    def __init__(self, game: Game, render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION):
        check_illegal_action_mode(illegal_action, ILLEGAL_ACTION_MODES)
        if not game.info.simultaneous:
            raise GameOptionError(f"{game.info.name} is turn-based: use the AEC adapter (TurnBasedAECEnv)")
        self._setup(game, render_mode)
        self.illegal_action = illegal_action
        self._rng = np.random.default_rng()  # draws of illegal_action="random"
        self.ordered: set = set()  # agents whose action for this turn is in (AEC form only)
        # The game's joint kernels (boardgames.envs.compiled.turns), set by reset(); every seat's legal mask of this
        # turn, computed once per turn (the adapter's own copy, never handed out); the joint action
        # handed to the kernels.
        n = game.info.num_seats
        self._kernels: Any = None  # the game's joint kernels, from the first reset on
        self._subject = None  # what the kernels take in place of the state (its array for the compiled ones)
        self._num_actions = game.info.num_actions
        self._own = np.zeros((n, game.info.num_actions), dtype=np.bool_)
        self._joint = np.zeros(n, dtype=np.int64)
        self._obs_block = (n, *game.info.observation_shape)
        self._mask_block = (n, game.info.num_actions)
        self._seats = tuple(enumerate(self.possible_agents))
        self._live = None
        self._zeros = dict.fromkeys(self.possible_agents, 0.0)
        self._falses = dict.fromkeys(self.possible_agents, False)

    # PettingZoo API ---------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(seed + i)
            self._rng = np.random.default_rng(seed)
        state = self.state_ = start_state(self.game, options)
        self.ordered = set()
        kernels = self._kernels = joint_kernels(state)  # the same for every state of the game
        self._subject = kernels.subject(state)
        obs, masks = self._new_buffers()
        code = kernels.refresh(self._subject, self._own, obs, masks)
        self.agents = [] if code & OVER_BIT else self.possible_agents[:]
        observations = {a: {"observation": obs[s], "action_mask": masks[s]} for s, a in self._seats}
        turn = code >> TURN_SHIFT
        self._live = self.agents  # the fast path of step() plays while this very list is ``agents``
        infos = {a: {"turn": turn, "void_action": False} for a in self.possible_agents}
        if self.render_mode == "human":
            self.render()
        return observations, infos

    def step(self, actions: dict):
        if type(actions) is not dict and not isinstance(actions, Mapping):
            raise IllegalActionError(
                f"step() takes a dict {{agent: action}} with an action for every live agent ({self.agents}), "
                f"got {type(actions).__name__} {actions!r}"
            )
        live = self.agents
        # The fast path: exactly one integer action in range per agent, ``agents`` being every agent
        # (as reset() made it; seats that do not act this turn, in a game that has such turns, are
        # left to the kernels). Anything else, errors included, takes the careful path with its messages.
        if not live or live is not self._live or len(actions) != len(live):
            return self._step_general(actions)
        joint = self._joint
        n = self._num_actions
        seats = self._seats
        for s, agent in seats:
            a = actions.get(agent)
            if type(a) is not int and (a is None or not _is_action(a, n)):
                return self._step_general(actions)
            if not 0 <= a < n:
                return self._step_general(actions)
            joint[s] = a
        state = self.state_
        obs = np.empty(self._obs_block, np.float32)  # as _new_buffers, inlined
        masks = np.empty(self._mask_block, np.int8)
        code = self._kernels.step(self._subject, joint, self.illegal_action == "void", self._own, obs, masks)
        if code < 0:  # a forbidden action, not "void": nothing was played; the careful path handles it
            return self._step_general(actions)
        if self.ordered:
            self.ordered = set()
        turn = code >> TURN_SHIFT
        observations, infos = {}, {}
        for s, agent in seats:
            observations[agent] = {"observation": obs[s], "action_mask": masks[s]}
            infos[agent] = {"turn": turn, "void_action": (code >> s) & 1 != 0}
        rewards = self._zeros.copy()  # dict.fromkeys(live, 0.0), live being every agent
        terminations = self._falses.copy()
        truncations = self._falses.copy()
        if code & OVER_BIT:
            self._finish(state, live, rewards, truncations if code & TRUNCATED_BIT else terminations)
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _new_buffers(self) -> tuple:
        """Fresh arrays for this step's observations and handed-out masks, one block each, one row per
        seat: each agent gets its own row, which the environment never writes again."""
        return np.empty(self._obs_block, np.float32), np.empty(self._mask_block, np.int8)

    def _finish(self, state, live, rewards, done) -> None:
        returns = state.returns()
        for a in live:
            rewards[a] = float(returns[self._seat[a]])
            done[a] = True
        self.agents = []

    def _step_general(self, actions: dict):
        """``step`` for every action the fast path does not take, with the checks and messages."""
        if self.state_ is None:
            raise IllegalActionError("call reset() before step()")
        if not self.agents:
            raise IllegalActionError("the game is over: call reset() to start a new one")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise IllegalActionError(f"actions given for {unknown}, who are not playing (agents: {self.agents})")
        acting = [self.possible_agents[s] for s in self.state_.current_seats()]
        missing = [a for a in acting if actions.get(a) is None]
        if missing:
            raise IllegalActionError(f"no action given for {missing}: every live agent acts each turn")
        # seats that do not act this turn (none in most games) get a placeholder the engine ignores
        num_actions = self.game.info.num_actions
        joint = [action_index(actions[a], num_actions) if a in acting else 0 for a in self.possible_agents]
        forbidden = [a for a in acting if not self._mask(self._seat[a])[joint[self._seat[a]]]]
        mode = self.illegal_action
        if forbidden and mode == "raise":
            self.state_.apply_joint(joint)  # the engine's check raises IllegalActionError, state untouched
        if forbidden and mode == "lose":
            return self._forfeit(forbidden)
        if forbidden and mode == "random":
            for a in forbidden:
                joint[self._seat[a]] = random_legal(self._mask(self._seat[a]), self._rng)
        self.state_.apply_joint(joint, check=False)  # checked against this turn's masks (or void)
        flag = "void_action" if mode == "void" else "illegal_action"
        self.ordered = set()
        state = self.state_
        live = self.agents
        obs, masks = self._new_buffers()
        code = self._kernels.refresh(self._subject, self._own, obs, masks)
        seat = self._seat
        observations = {a: {"observation": obs[seat[a]], "action_mask": masks[seat[a]]} for a in live}
        turn = code >> TURN_SHIFT
        infos = {a: {"turn": turn, "void_action": False} for a in live}
        for a in forbidden:
            infos[a][flag] = True
        terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, False)
        rewards = dict.fromkeys(live, 0.0)
        if code & OVER_BIT:
            self._finish(state, live, rewards, truncations if code & TRUNCATED_BIT else terminations)
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _forfeit(self, offenders: list):
        """``illegal_action="lose"``: the offenders' sides lose at once; the engine's state is untouched
        and nobody acts any more (every mask handed out is empty)."""
        info = self.game.info
        seats = [self._seat[a] for a in offenders]
        warn_illegal(info, seats)
        returns = loser_returns(info, seats)
        live = self.agents
        obs, masks = self._new_buffers()
        turn = self._kernels.refresh(self._subject, self._own, obs, masks) >> TURN_SHIFT
        masks[:] = 0
        self.ordered = set()
        observations = {a: {"observation": obs[self._seat[a]], "action_mask": masks[self._seat[a]]} for a in live}
        rewards = {a: float(returns[self._seat[a]]) for a in live}
        infos = {a: {"turn": turn, "void_action": False, "illegal_action": a in offenders} for a in live}
        terminations = dict.fromkeys(live, True)
        truncations = dict.fromkeys(live, False)
        self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _mask(self, seat: int) -> np.ndarray:
        """The legal mask of ``seat`` this turn (computed once per turn; do not modify it)."""
        return self._own[seat]

    # orders given one by one (the AEC form) ---------------------------------------------------
    def check_action(self, agent, action) -> None:
        """Raise IllegalActionError when ``action`` is not legal for ``agent`` now."""
        if self.state_ is None:
            raise IllegalActionError("call reset() before step()")
        seat = self._seat[agent]
        if seat not in self.state_.current_seats():
            return
        if self.illegal_action == "raise":
            self.state_._check_legal(seat, action)
        else:  # the mode decides what a forbidden action does once all are in; garbage raises now
            action_index(action, self.game.info.num_actions)

    def order_given(self, agent) -> None:
        """Note that ``agent`` has given its action for this turn (shown by ``render``, not its value)."""
        self.ordered.add(agent)

    # rendering --------------------------------------------------------------------------------
    def status_line(self) -> str:
        """Whose actions for this turn are in, e.g. ``"orders in: player_0; waiting for: player_1"``."""
        if not self.agents:
            return "game over"
        waiting = [a for a in self.agents if a not in self.ordered]
        given = [a for a in self.agents if a in self.ordered]
        return f"orders in: {', '.join(given) or 'none'}; waiting for: {', '.join(waiting) or 'nobody'}"

    _factory_name = "parallel_env()"

    def _render_text(self) -> str:
        return self.state_.render_text() + "\n" + self.status_line()

    def _render_rgb(self) -> np.ndarray:
        return _with_strip(self.state_.render_rgb(), self.status_line())


def _is_action(action, num_actions: int) -> bool:
    """True when ``action`` is an integer (not a bool) in ``0..num_actions-1``."""
    return is_integer(action) and bool(0 <= action < num_actions)


def _with_strip(frame: np.ndarray, text: str) -> np.ndarray:
    """``frame`` with a strip under it holding ``text`` (same size for every text)."""
    h, w = frame.shape[:2]
    img = Image.new("RGB", (w, h + STATUS_STRIP_PX), BACKGROUND)
    img.paste(Image.fromarray(frame), (0, 0))
    ImageDraw.Draw(img).text((10, h + STATUS_STRIP_PX // 2), text, fill=TEXT, font=font(15), anchor="lm")
    return np.asarray(img, dtype=np.uint8).copy()


class SimultaneousAECEnv(parallel_to_aec_wrapper):
    """PettingZoo's ``parallel_to_aec`` form of a :class:`SimultaneousParallelEnv`: the agents give
    their actions one after the other, and the turn is resolved once the last one is in. Observations
    change only then, so no agent sees another's pending action. Each action is checked when given
    (see ``illegal_action``): one that raises is not recorded. A reset to a finished position (``options``'
    ``position``) lists every agent as terminated (or truncated) with its result as its reward, as the
    turn-based games' AEC environments do: each then steps ``None`` out."""

    def reset(self, seed=None, options=None):
        self._observations, infos = self.env.reset(seed=seed, options=options)  # read by observe()
        over = not self.env.agents  # the Parallel form has no agent left in a finished position
        self.agents = list(self.env.possible_agents if over else self.env.agents)
        self._live_agents = self.agents[:]
        self._actions = dict.fromkeys(self.agents)
        self._agent_selector = AgentSelector(self._live_agents)
        self.agent_selection = self._agent_selector.reset()
        state = self.env.state_
        truncated = over and state.is_truncated()
        self.terminations = dict.fromkeys(self.agents, over and not truncated)
        self.truncations = dict.fromkeys(self.agents, truncated)
        returns = state.returns()
        self.rewards = {a: float(returns[s]) if over else 0.0 for s, a in enumerate(self.env.possible_agents)}
        self.infos = {a: dict(infos[a]) for a in self.agents}
        self._cumulative_rewards = dict(self.rewards)
        self.new_agents, self.new_values = [], {}  # the state PettingZoo's parallel_to_aec_wrapper keeps

    def step(self, action):
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            self.env.check_action(agent, action)
            self.env.order_given(agent)
        super().step(action)


def wrap_parallel_as_aec(parallel: SimultaneousParallelEnv) -> AECEnv:
    """The AEC form of ``parallel`` for ``env()``: :class:`SimultaneousAECEnv` with PettingZoo's order
    enforcement (calls in the right order, reset first)."""
    return wrappers.OrderEnforcingWrapper(SimultaneousAECEnv(parallel))
