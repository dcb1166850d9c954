"""The games as RLlib multi-agent environments, one registered name per game and player count.

:class:`BoardGameMultiAgentEnv` is an RLlib ``MultiAgentEnv`` over the library's PettingZoo adapters:
the AEC adapter for the turn-based games (Dorix, Olix, ADIX), the Parallel adapter for Barc, whose
seats act at once. Compared with wrapping them in RLlib's ``PettingZooEnv`` / ``ParallelPettingZooEnv``
it gives:

* observations ``{"observations": flat float32 vector, "action_mask": float32 0/1 vector}``, the
  layout RLlib's action-masking RLModule (``ActionMaskingTorchRLModule``, new API stack) expects;
* in a turn-based game, the observation of the one agent to act, and at the end of the game every
  agent's last observation and reward (+1 win, -1 loss, 0 draw; both partners of a 4-player Dorix
  team get their team's result): RLlib's convention for turn-based games;
* the ``illegal_action`` option of every environment (:mod:`boardgames.envs.adapters.illegal`; default ``"lose"``,
  Barc's ``"void"``), so RLlib's environment pre-check, which steps with unmasked random actions,
  passes.

:func:`register_envs` registers ``boardgame_<game>`` / ``boardgame_<game>_<n>p`` (:func:`env_name`)
with ``ray.tune.registry`` for every game and player count; the env config is ``{"game": ...,
"options": {...}, "illegal_action": ...}`` (:func:`env_config`).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from boardgames.envs.core.errors import GameOptionError
from boardgames.envs.registry import env_module, game_names, make_game, parallel_games

PLAYER_COUNTS = {"dorix": (2, 3, 4)}
"""The player counts of the games that have a ``num_players`` option (the others have one count)."""


def env_name(game: str, players: int | None = None) -> str:
    """The name under which :func:`register_envs` registers ``game`` at ``players`` players:
    ``boardgame_dorix_4p``, ``boardgame_barc``."""
    return f"boardgame_{game}" + (f"_{players}p" if players else "")


def env_config(game: str, options: dict | None = None, illegal_action: str | None = None) -> dict:
    """The env config of ``game`` with its ``options`` (``num_players``, ``max_turns``...), checked:
    an unknown game or option raises :class:`GameOptionError` naming it."""
    options = dict(options or {})
    make_game(game, **options)  # GameOptionError for an unknown game or option
    config = {"game": game, "options": options}
    if illegal_action is not None:
        config["illegal_action"] = illegal_action
    return config


def registered_names() -> dict[str, dict]:
    """Every name :func:`register_envs` registers, with its env config."""
    out = {}
    for game in game_names():
        for players in PLAYER_COUNTS.get(game, (None,)):
            options = {"num_players": players} if players else {}
            out[env_name(game, players)] = env_config(game, options)
    return out


def register_envs() -> list[str]:
    """Register :class:`BoardGameMultiAgentEnv` with ``ray.tune.registry`` under every
    :func:`registered_names` name (their config as the default; a run's ``env_config`` overrides
    it); returns the names."""
    from ray.tune.registry import register_env

    names = registered_names()
    for name, default in names.items():
        register_env(name, lambda config, default=default: BoardGameMultiAgentEnv({**default, **dict(config or {})}))
    return list(names)


class BoardGameMultiAgentEnv(MultiAgentEnv):
    """One game of the library as an RLlib ``MultiAgentEnv`` (see the module docstring).

    ``config``: ``{"game": "dorix", "options": {"num_players": 4}, "illegal_action": "lose"}``
    (``options`` and ``illegal_action`` optional). Agents are ``player_0 .. player_{n-1}`` in seat
    order, as in the PettingZoo environments.
    """

    def __init__(self, config: dict | None = None):
        super().__init__()
        config = dict(config or {})
        game_name = config.get("game")
        if game_name is None:
            raise GameOptionError(f"the env config names no game: give {{'game': one of {', '.join(game_names())}}}")
        options = dict(config.get("options") or {})
        self.game = make_game(game_name, **options)  # GameOptionError for an unknown game or option
        module = env_module(game_name)
        kwargs = dict(options)
        if "illegal_action" in config:
            kwargs["illegal_action"] = config["illegal_action"]
        self.simultaneous = game_name in parallel_games()
        self._env = module.raw_env(**kwargs)  # the unwrapped AEC class, or the Parallel class for Barc
        self._seen: set = set()  # the agents observed in this game (turn-based games)
        info = self.game.info
        self.possible_agents = list(self._env.possible_agents)
        self.agents = list(self.possible_agents)
        size = int(np.prod(info.observation_shape))
        obs_space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": gym.spaces.Box(0.0, 1.0, (info.num_actions,), np.float32),
            }
        )
        act_space = gym.spaces.Discrete(info.num_actions)
        self.observation_spaces: dict[str, gym.spaces.Space] = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces: dict[str, gym.spaces.Space] = dict.fromkeys(self.possible_agents, act_space)
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)

    @staticmethod
    def convert(obs: dict) -> dict:
        """A PettingZoo observation ``{"observation", "action_mask"}`` in the RLlib layout."""
        return {
            "observations": np.asarray(obs["observation"], dtype=np.float32).reshape(-1),
            "action_mask": np.asarray(obs["action_mask"], dtype=np.float32),
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        env = self._env
        if self.simultaneous:
            observations, infos = env.reset(seed=seed, options=options)
            self.agents = list(env.agents)
            return {a: self.convert(o) for a, o in observations.items()}, {a: dict(infos[a]) for a in observations}
        env.reset(seed=seed, options=options)
        self.agents = list(env.agents)
        agent = env.agent_selection
        self._seen = {agent}
        return {agent: self.convert(env.observe(agent))}, {agent: {}}

    def step(self, action_dict: dict):
        if self.simultaneous:
            return self._step_parallel(action_dict)
        env = self._env
        agent = env.agent_selection
        if agent not in action_dict:
            raise GameOptionError(f"no action for {agent}, the agent to act (actions given for {list(action_dict)})")
        env.step(int(action_dict[agent]))
        if all(env.terminations[a] or env.truncations[a] for a in env.agents):  # the game is over
            terminated = any(env.terminations.values())
            # every agent that has played gets its last observation and its result; an agent that
            # never got to act (a game lost on its first move) has nothing to learn from
            seen = [a for a in self.possible_agents if a in self._seen]
            observations = {a: self.convert(env.observe(a)) for a in seen}
            rewards = {a: float(env.rewards[a]) for a in seen}
            infos = {a: dict(env.infos.get(a, {})) for a in seen}
            return (observations, rewards, {"__all__": terminated}, {"__all__": not terminated}, infos)
        nxt = env.agent_selection
        self._seen.add(nxt)
        infos = {nxt: {}}
        if env.infos.get(agent, {}).get("illegal_action"):  # illegal_action="random" replaced its move
            infos[agent] = {"illegal_action": True}
        return ({nxt: self.convert(env.observe(nxt))}, {agent: 0.0}, {"__all__": False}, {"__all__": False}, infos)

    def _step_parallel(self, action_dict: dict):
        observations, rewards, terminations, truncations, infos = self._env.step(
            {a: int(x) for a, x in action_dict.items()}
        )
        over = not self._env.agents
        terminated = over and any(terminations.values())
        return (
            {a: self.convert(o) for a, o in observations.items()},
            {a: float(r) for a, r in rewards.items()},
            {"__all__": terminated},
            {"__all__": over and not terminated},
            {a: dict(infos.get(a, {})) for a in observations},
        )

    def render(self):
        return self._env.state_.render_text()
