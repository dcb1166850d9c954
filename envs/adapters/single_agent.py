"""A Gymnasium single-agent environment over any registered game: one learning seat, the other
seats played by opponent policies.

``gymnasium.make("boardgames/dorix-v0")`` builds :class:`SingleAgentEnv` with ``game="dorix"`` and
random opponents; every option of the constructor can be passed to ``gymnasium.make``, and the game's own
options either in ``game_options`` or as keywords, as PettingZoo takes them
(``gymnasium.make("boardgames/dorix-v0", num_players=4)``)::

    env = SingleAgentEnv(game="dorix", game_options={"num_players": 4}, opponent="greedy")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

How the learner's episode is built (the rules of self-play every trainer here relies on):

* **One seat learns.** Each episode the learner takes a seat drawn at random (``learner_seat=None``)
  or the fixed ``learner_seat``. Observations are always ``state.observation(learner_seat)``: the
  learner never sees the board from another seat's point of view.
* **The others are played inside ``step``.** After the learner's action, the seats of other teams
  are played by the episode's ``opponent`` and the learner's partners (team games) by ``partner``,
  until the learner must act again or the game ends. An opponent or partner is a callable
  ``(state, seat) -> action``; the strings ``"random"`` and ``"greedy"`` name the baseline agents.
  An object with a ``sample(rng)`` method (an opponent pool) is asked for a fresh policy each episode.
* **Credit assignment.** The reward is 0 until the game ends; then it is ``state.returns()[learner]``
  and it arrives on the transition of the learner's last action, whichever seat made the move that
  ended the game (a loss on the opponent's reply gives -1 on the learner's last step). A game ended
  by the turn limit sets ``truncated`` (reward 0), a real ending sets ``terminated``.
* **Seats acting at once** (Barc duel): the other seats' actions are drawn from the same state the
  learner saw, before anything is applied, then the whole decision is played with ``apply_actions``.
* **Masks.** :meth:`action_masks` (used by sb3-contrib's MaskablePPO, also through vectorized
  environments) and ``info["action_mask"]`` give the learner's legal actions. An action the mask
  forbids follows ``illegal_action`` (:mod:`boardgames.envs.adapters.illegal`): ``"lose"`` (the default, PettingZoo
  classic's convention, so that Gymnasium's and SB3's ``check_env`` and RLlib's pre-check, which step
  with unmasked random actions, pass): the episode ends at once, terminated, with reward -1 and
  ``info["illegal_action"] = True`` and a warning, the game as it was; ``"raise"``: ``step`` raises
  :class:`~boardgames.envs.core.errors.IllegalActionError` and the game is unchanged; ``"random"`` (for
  algorithms that do not see the masks: plain PPO, DQN...): a uniformly random legal action is played
  instead, with ``info["illegal_action"] = True``. Actions may be ints, numpy integers or 0-d integer
  arrays (what ``MaskablePPO.predict`` returns); anything else (a float, a bool, a string, out of
  range) always raises IllegalActionError. Once the episode is over (the game ended, or was forfeited),
  the mask marks every action: no action will be played any more (stepping this env raises "call reset()"),
  but a vector env's step after the end (Gymnasium's ``NEXT_STEP`` autoreset: ``SyncVectorEnv``,
  ``AsyncVectorEnv``, ``gymnasium.make_vec(..., vectorization_mode="sync")``) takes an action it ignores
  while it resets this env, and a sampler drawing that action from the mask must find something to draw.

``reset(options={"position": <notation>})`` starts from a position (``Game.from_text``) and
``options={"learner_seat": k}`` fixes the seat for that episode.
"""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
from gymnasium import spaces

from boardgames.envs.adapters.illegal import (
    DEFAULT_ILLEGAL_ACTION,
    check_illegal_action_mode,
    random_legal,
    warn_illegal,
)
from boardgames.envs.agents.play import play_game
from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.core.game import Game, State, action_index, is_integer

Policy = Callable[[State, int], int]
ENV_KEYWORDS = ("game", "game_options", "opponent", "learner_seat", "render_mode", "partner", "illegal_action")
"""The keywords of :class:`SingleAgentEnv` itself; any other keyword is one of the game's options."""


def merge_game_options(game: str, game_options: dict | None, keywords: dict, env_keywords=ENV_KEYWORDS) -> dict:
    """``game_options`` with the game's options given as keywords (``num_players=3``) added.
    GameOptionError for an option given both ways with different values, or a keyword that is none of
    game ``game``'s options (the message lists them and the environment's own ``env_keywords``)."""
    from boardgames.envs.registry import game_option_names

    merged = dict(game_options or {})
    known = game_option_names(game)
    unknown = [k for k in keywords if k not in known]
    if unknown:
        raise GameOptionError(
            f"{game} has no option {', '.join(map(repr, unknown))}: its options (as keywords or in game_options) "
            f"are {', '.join(known)}; the environment's own keywords are {', '.join(env_keywords)}"
            + (
                " (autoreset_mode belongs to the vector env: vector_kwargs={'autoreset_mode': ...} with "
                "vectorization_mode='sync' or 'async')"
                if "autoreset_mode" in unknown
                else ""
            )
        )
    for key, value in keywords.items():
        if key in merged and merged[key] != value:
            raise GameOptionError(
                f"{key}={value!r} and game_options={{{key!r}: {merged[key]!r}}} disagree: give {key} once"
            )
        merged[key] = value
    return merged


def resolve_policy(policy, game: Game):
    """A policy object from a baseline agent's spec (``"random"``, ``"greedy"``, ``"mcts"``,
    ``"mcts:<simulations>"``: :func:`boardgames.envs.agents.make_baseline_agent`), a callable or a pool."""
    if isinstance(policy, str):
        from boardgames.envs.agents import make_baseline_agent  # lazy: it loads every game's heuristic

        try:
            return make_baseline_agent(policy, game)
        except ValueError as e:
            raise ValueError(
                f"{e} (a saved model: pass boardgames.training.agent_kinds.make_agent(path, game))"
            ) from None
    if policy is None or callable(policy) or hasattr(policy, "sample"):
        return policy
    raise TypeError(f"an opponent is 'random', 'greedy', a callable (state, seat) -> action or a pool, got {policy!r}")


class SingleAgentEnv(gymnasium.Env):
    """One learning seat of a game; the other seats are played by ``opponent`` / ``partner``.

    Args:
        game: registered game name (see :func:`boardgames.envs.registry.game_names`).
        game_options: options for :func:`boardgames.envs.registry.make_game` (e.g. ``{"num_players": 3}``).
        **game_keywords: the same options as keywords (``num_players=3``, as PettingZoo's ``env()`` takes
            them); an option given both ways must agree (GameOptionError otherwise, and for a keyword that
            is no option of the game).
        opponent: policy of the seats of other teams: ``"random"``, ``"greedy"``, a callable
            ``(state, seat) -> action`` or a pool with ``sample(rng) -> policy``.
        partner: policy of the learner's partners in team games (default: the episode's opponent
            policy); the self-play trainer passes a snapshot of the learner.
        learner_seat: fixed seat of the learner, or None for a random seat each episode.
        render_mode: ``"ansi"`` or ``"rgb_array"``.
        illegal_action: what an action the mask forbids does: ``"lose"`` (default: the episode ends,
            reward -1), ``"raise"`` (IllegalActionError, the game unchanged) or ``"random"`` (a random
            legal action is played); see :mod:`boardgames.envs.adapters.illegal`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        game: str = "dorix",
        game_options: dict | None = None,
        opponent="random",
        learner_seat: int | None = None,
        render_mode: str | None = None,
        partner=None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        **game_keywords,
    ):
        from boardgames.envs.registry import make_game

        if game_keywords and isinstance(game, Game):
            raise GameOptionError(f"game options as keywords ({', '.join(game_keywords)}) need a game name, not a Game")
        self.game_name = game
        self.game_options = dict(game_options or {})
        if game_keywords:
            self.game_options = merge_game_options(game, game_options, game_keywords)
        self.game = game if isinstance(game, Game) else make_game(game, **self.game_options)
        info = self.game.info
        if learner_seat is not None:
            learner_seat = _check_learner_seat(learner_seat, info.num_seats)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameOptionError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.illegal_action = check_illegal_action_mode(illegal_action)
        self.render_mode = render_mode
        self.fixed_seat = learner_seat
        self.opponent = resolve_policy(opponent, self.game)
        self.partner = resolve_policy(partner, self.game)
        self.observation_space = spaces.Box(0.0, 1.0, shape=tuple(info.observation_shape), dtype=np.float32)
        self.action_space = spaces.Discrete(info.num_actions)
        self.state: State | None = None
        self.learner_seat = 0
        self._episode_opponent = None
        self._episode_partner = None
        self._forfeit = False  # the episode was ended by an illegal learner action ("lose")

    @property
    def spec(self):
        """What ``gymnasium.make`` set (None otherwise), its ``max_episode_steps`` the game's turn limit
        (``game.info.max_turns``), which bounds an episode's steps: the game's own truncation ends it there,
        with no ``TimeLimit`` (:func:`boardgames.envs.adapters.env_common.with_turn_limit`)."""
        from boardgames.envs.adapters.env_common import with_turn_limit

        spec = self.__dict__.get("_made_spec")
        return None if spec is None else with_turn_limit(spec, self.game.info.max_turns)

    @spec.setter
    def spec(self, spec) -> None:
        self.__dict__["_made_spec"] = spec

    # ----- policies ----------------------------------------------------------------------------
    def set_opponent(self, opponent) -> None:
        """Replace the opponent policy (or pool) from the next episode on."""
        self.opponent = resolve_policy(opponent, self.game)

    def set_partner(self, partner) -> None:
        """Replace the partner policy from the next episode on."""
        self.partner = resolve_policy(partner, self.game)

    def _draw(self, policy):
        if policy is None:
            return None
        if hasattr(policy, "sample"):
            policy = policy.sample(self.np_random)
        if hasattr(policy, "seed"):
            policy.seed(int(self.np_random.integers(2**31)))
        return policy

    def _policy_for(self, seat: int):
        if self.game.info.teams[seat] == self.game.info.teams[self.learner_seat] and self._episode_partner is not None:
            return self._episode_partner
        return self._episode_opponent

    # ----- gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = options or {}
        seat = options.get("learner_seat", self.fixed_seat)
        num_seats = self.game.info.num_seats
        self.state = None  # until this reset is through: a failed reset leaves no game to step
        seat = int(self.np_random.integers(num_seats)) if seat is None else _check_learner_seat(seat, num_seats)
        self.learner_seat = seat
        self._episode_opponent = self._draw(self.opponent)
        self._episode_partner = self._draw(self.partner)
        state = self.game.from_text(options["position"]) if "position" in options else self.game.new_initial_state()
        play_game(state, self._policy_for, until_seat=seat)
        if state.is_terminal():
            raise ValueError(f"the game ended before seat {seat} had a move to make")
        self.state = state
        self._forfeit = False
        return self._obs(), self._info()

    def step(self, action):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        state = self.state
        if self._forfeit or state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        learner = self.learner_seat
        mask = state.legal_mask(learner)
        action = action_index(action, mask.shape[0])  # malformed values raise, whatever the mode
        replaced = False
        if not mask[action]:
            if self.illegal_action == "lose":
                return self._forfeit_episode()
            if self.illegal_action == "raise":
                state.apply_actions({learner: action})  # the engine's check raises, the game unchanged
            action, replaced = random_legal(mask, self.np_random), True
        if self.game.info.acting_seats == 1:  # turn-based: the learner is the seat to act
            state.apply_actions({learner: action}, False)  # checked against its mask above
        else:  # every other seat acting now chooses from the state the learner saw; all play at once
            policy_for = self._policy_for
            state.apply_actions({s: action if s == learner else policy_for(s)(state, s) for s in state.current_seats()})
        self._play_others()
        reward = 0.0
        terminated = truncated = False
        if state.is_terminal():
            truncated = state.is_truncated()
            terminated = not truncated
            reward = float(state.returns()[self.learner_seat])
        info = self._info()
        if replaced:
            info["illegal_action"] = True
        return self._obs(), reward, terminated, truncated, info

    def _play_others(self) -> None:
        """Play the other seats until the learner must act or the game is over."""
        play_game(self._game_under_way(), self._policy_for, until_seat=self.learner_seat)

    def _forfeit_episode(self):
        """``illegal_action="lose"``: the learner's side loses at once; the game itself is untouched."""
        warn_illegal(self.game.info, [self.learner_seat])
        self._forfeit = True
        info = self._info()
        info["illegal_action"] = True
        return self._obs(), -1.0, True, False, info

    def _over(self) -> bool:
        return self.state is None or self._forfeit or self.state.is_terminal()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions; every action once the episode is over (or before the first reset):
        none will be played, and the action a vector env's autoreset step ignores is then drawn from a
        mask with something in it (see the module docstring)."""
        if self._over():
            return np.ones(self.game.info.num_actions, dtype=bool)
        return self._game_under_way().legal_mask(self.learner_seat)

    def _obs(self) -> np.ndarray:
        return self._game_under_way().observation(self.learner_seat)

    def _game_under_way(self) -> State:
        """``self.state``; an error before the first reset (or after a failed one)."""
        if self.state is None:
            raise RuntimeError("no game under way: call reset() first")
        return self.state

    def _info(self) -> dict:
        return {"action_mask": self.action_masks(), "learner_seat": self.learner_seat}

    def render(self):
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self.state.render_text()
        return self.state.render_rgb()


def _check_learner_seat(seat, num_seats: int) -> int:
    """``seat`` as an int; GameOptionError unless it is one of the game's seats."""
    if not is_integer(seat) or not 0 <= seat < num_seats:
        raise GameOptionError(f"learner_seat must be a seat in 0..{num_seats - 1}, got {seat!r}")
    return int(seat)
