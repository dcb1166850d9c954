"""The API paths of the fuzz campaign: PettingZoo AEC (every game; the Barc duel's AEC form too),
PettingZoo Parallel (the games whose seats act at once) and the Gymnasium single-agent env
(``gymnasium.make("boardgames/<game>-v0")``), each built with illegal actions raising.

At every turn each path checks that the observation lies in the observation space, that the mask and
the observation it hands out are the engine state's (``env.unwrapped.game_state`` / ``.state``), that
rewards are 0 before the end and the engine's returns at the end (with the right termination or
truncation flags), and, for AEC and Parallel, that the state after the step is the one the engine
reaches with the same actions. Legal actions are given as ints, numpy integers or 0-d integer arrays.
With probability ``rate`` per turn an illegal or malformed action (a missing agent, an unknown agent
too, for Parallel) must raise IllegalActionError, leave the state unchanged and the env usable: the
turn then goes on with a legal action.

Each ``*_path(config)`` builds its env once and returns ``play(probe, rng, rate)``, which plays one
game from ``reset(seed=probe.seed)`` to its end.
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium
import numpy as np

from boardgames.benchmarks.fuzz import inputs
from boardgames.benchmarks.fuzz.report import Probe
from boardgames.envs.core.errors import IllegalActionError


def raising(factory) -> dict:
    """The keyword argument that makes ``factory``'s env raise on an illegal action (``illegal_action``
    or ``illegal_actions`` = ``"raise"``, whichever it takes; none if it takes neither)."""
    params = inspect.signature(factory).parameters
    for name in ("illegal_action", "illegal_actions"):
        if name in params:
            return {name: "raise"}
    return {}


def step_legal(probe: Probe, step, action, plain):
    """``step(action)``, ``action`` being a legal action (or joint action) in a form that must be accepted
    like ``plain`` (its ints); when it is refused, a failure, and ``step(plain)``."""
    try:
        return step(action)
    except IllegalActionError as e:
        if action is plain:
            raise
        probe.fail("legal action form", f"refused: {e}", repr(action))
        return step(plain)


def _check_handout(probe: Probe, space, obs: dict, state, seat: int) -> None:
    """``obs`` (a PettingZoo ``{"observation", "action_mask"}``) lies in ``space`` and is the state's."""
    probe.need(space.contains(obs), "observation space", lambda: f"seat {seat}: observation not in {space}")
    probe.need(
        np.array_equal(obs["action_mask"].astype(bool), state.legal_mask(seat)),
        "mask",
        lambda: f"seat {seat}: env mask != engine mask",
    )
    probe.need(
        np.array_equal(obs["observation"], state.observation(seat)),
        "observation",
        lambda: f"seat {seat}: env != engine",
    )


def _check_end(probe: Probe, state, seat: int, reward, terminated, truncated) -> None:
    probe.need(state.is_terminal(), "end", "the env ended a game the engine has not")
    probe.need(
        reward == state.returns()[seat], "reward", lambda: f"seat {seat}: reward {reward}, returns {state.returns()}"
    )
    probe.need(
        bool(truncated) == state.is_truncated() and bool(terminated) != bool(truncated),
        "end",
        lambda: f"terminated={terminated}, truncated={truncated}, engine truncated={state.is_truncated()}",
    )


def aec_path(config):
    """PettingZoo AEC: ``envs.<game>_v0.env()``, played with ``agent_iter`` / ``last`` / ``step``."""
    module = config.module
    env = module.env(**config.kwargs, **raising(module.env))
    acting = config.make_game().info.acting_seats

    def play(probe: Probe, rng, rate: float) -> None:
        env.reset(seed=probe.seed)
        raw = env.unwrapped
        seat_of = {a: i for i, a in enumerate(env.possible_agents)}
        pending: dict[int, int] = {}  # the actions of this decision so far
        clone: Any = None  # and the engine's copy
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            state, seat = raw.game_state, seat_of[agent]
            probe.position = state.to_text()
            if terminated or truncated:
                _check_end(probe, state, seat, reward, terminated, truncated)
                env.step(None)
                continue
            probe.need(not state.is_terminal(), "end", "the engine's game is over but the agent goes on")
            _check_handout(probe, env.observation_space(agent), obs, state, seat)
            probe.need(reward == 0, "reward", lambda: f"reward {reward} before the end")
            mask = obs["action_mask"].astype(bool)
            if rng.random() < rate:
                _bad_step(probe, env, rng, mask, "AEC", lambda: raw.game_state.data.copy())
                probe.need(env.agent_selection == agent, "AEC step", "a refused action moved the agent selection")
            a = int(rng.choice(np.flatnonzero(mask)))
            if not pending:
                clone = state.clone()
            pending[seat] = a
            step_legal(probe, env.step, inputs.action_form(rng, a), a)
            probe.tally.turns += 1
            if len(pending) == acting:
                clone.apply_actions(pending)
                pending = {}
                probe.need(
                    np.array_equal(raw.game_state.data, clone.data),
                    "env/engine equality",
                    lambda clone=clone: f"the env reached {raw.game_state.to_text()!r}, the engine {clone.to_text()!r}",
                )

    return play


def parallel_path(config):
    """PettingZoo Parallel: ``envs.<game>_v0.parallel_env()``, one ``step`` per joint decision."""
    module = config.module
    env = module.parallel_env(**config.kwargs, **raising(module.parallel_env))
    agents = env.possible_agents

    def play(probe: Probe, rng, rate: float) -> None:
        obs, _ = env.reset(seed=probe.seed)
        while env.agents:
            state = env.game_state
            probe.position = state.to_text()
            for seat, agent in enumerate(agents):
                _check_handout(probe, env.observation_space(agent), obs[agent], state, seat)
            actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
            if rng.random() < rate:
                _bad_joint(probe, env, obs, actions, rng)
            clone = state.clone()
            clone.apply_actions({agents.index(a): x for a, x in actions.items()})
            forms = {a: inputs.action_form(rng, x) for a, x in actions.items()}
            obs, rewards, terms, truncs, _ = step_legal(probe, env.step, forms, actions)
            probe.tally.turns += 1
            probe.need(
                np.array_equal(env.game_state.data, clone.data),
                "env/engine equality",
                lambda clone=clone: f"the env reached {env.game_state.to_text()!r}, the engine {clone.to_text()!r}",
            )
            if clone.is_terminal():
                probe.need(not env.agents, "end", "agents left after the end")
                for seat, agent in enumerate(agents):
                    _check_end(probe, clone, seat, rewards[agent], terms[agent], truncs[agent])
            else:
                probe.need(
                    not any(rewards.values()) and not any(terms.values()) and not any(truncs.values()),
                    "reward",
                    lambda: f"rewards {rewards} before the end",
                )

    return play


def _bad_step(probe: Probe, env, rng, mask, name: str, position) -> None:
    """One bad action (from ``inputs.bad_action``) for ``env.step``, which must refuse it with an
    IllegalActionError; ``name`` names the interface, ``position()`` gives the position for the report."""
    kind, bad = inputs.bad_action(rng, mask)
    probe.refused(lambda: env.step(bad), IllegalActionError, f"{name} step ({kind})", repr(bad), position)


def _bad_joint(probe: Probe, env, obs: dict, actions: dict, rng) -> None:
    """One malformed joint action for a Parallel ``step``: a bad action, a missing or unknown agent."""
    agent = env.agents[int(rng.integers(len(env.agents)))]
    k = int(rng.integers(4))
    if k <= 1:
        kind, bad = inputs.bad_action(rng, obs[agent]["action_mask"].astype(bool))
        joint = {**actions, agent: bad}
    elif k == 2:
        kind, joint = "missing agent", {a: x for a, x in actions.items() if a != agent}
    else:
        kind, joint = "unknown agent", {**actions, "player_9": 0}
    probe.refused(
        lambda: env.step(joint),
        IllegalActionError,
        f"Parallel step ({kind})",
        repr(joint),
        lambda: env.game_state.data.copy(),
    )


def gym_path(config):
    """Gymnasium: ``gymnasium.make("boardgames/<game>-v0")`` (SingleAgentEnv, random opponents)."""
    import boardgames.envs  # noqa: F401 - registers the games
    from boardgames.envs.adapters.single_agent import SingleAgentEnv
    from boardgames.envs.registration import env_id

    env = gymnasium.make(env_id(config.name), game_options=config.kwargs, **raising(SingleAgentEnv))
    u = env.unwrapped

    def play(probe: Probe, rng, rate: float) -> None:
        obs, info = env.reset(seed=probe.seed)
        while True:
            state, seat = u.state, u.learner_seat
            probe.position = state.to_text()
            probe.need(seat in state.current_seats(), "learner", lambda: f"learner seat {seat} does not act")
            probe.need(env.observation_space.contains(obs), "observation space", "observation not in the space")
            mask = u.action_masks()
            probe.need(
                np.array_equal(mask, info["action_mask"]) and np.array_equal(mask, state.legal_mask(seat)),
                "mask",
                "action_masks(), info['action_mask'] and the engine's mask differ",
            )
            probe.need(np.array_equal(obs, state.observation(seat)), "observation", "env != engine")
            if rng.random() < rate:
                _bad_step(probe, env, rng, mask, "Gymnasium", lambda: u.state.data.copy())
            a = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, info = step_legal(probe, env.step, inputs.action_form(rng, a), a)
            probe.tally.turns += 1
            if terminated or truncated:
                _check_end(probe, u.state, seat, reward, terminated, truncated)
                probe.need(u.action_masks().all(), "mask", "action_masks() not every action after the end")
                return
            probe.need(reward == 0 and not u.state.is_terminal(), "reward", lambda: f"reward {reward} before the end")

    return play
