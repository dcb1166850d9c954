"""AgileRL on our games: self-play DQN on a turn-based game, IPPO on Barc's simultaneous duel.

What it shows:

* ``dqn``: one AgileRL ``DQN`` plays both seats of a turn-based game (Dorix by default) through the
  PettingZoo AEC environment, as in AgileRL's Connect Four self-play tutorial: ``agent.get_action(obs,
  epsilon, action_mask)`` with our mask, and each seat's transition runs from its move to its next
  turn (or to the end of the game), so the opponent's reply and the final result reach the mover.
  Then the greedy network plays seat 0 and seat 1 in turn against a uniform random legal player;
* ``ippo``: AgileRL's ``IPPO`` on Barc's ``parallel_env()`` through :class:`MaskInInfo`, the wrapper
  that moves the action mask from the observation into ``infos[agent]["action_mask"]``, where AgileRL
  reads it. ``player_0`` and ``player_1`` are one group to AgileRL (the name before the last ``_``),
  so they share one actor and one critic: self-play.

What AgileRL supports and what it does not, on our games (AgileRL 2.58):

* it cannot be installed beside the library's main environment: every release pins ``pettingzoo<1.27``
  (the library supports ``pettingzoo>=1.24``); ``make test-clients`` runs it in ``.venv-clients``
  under PettingZoo 1.26. ``import agilerl.algorithms`` imports ``peft``, which only its LLM extras
  declare, so ``peft`` is installed too;
* Dict observations: AgileRL would read our ``{"observation", "action_mask"}`` as a two-input
  observation; IPPO refuses a mask inside the observation outright (it must be in the infos). Both
  recipes hand it the ``observation`` plane alone, flattened: a 3-D ``Box`` is taken for a
  channels-first image, and ours are channels-last;
* masks: DQN takes the mask in ``get_action`` (exploration draws legal actions too), but its update
  bootstraps on the best of *every* action of the next observation, illegal ones included (their Q
  values are never trained): on Dorix, where most of the 276 actions are illegal, the short self-play
  runs do not yet beat random (Tianshou's DQN, whose target reads the next mask, does). IPPO masks the
  actions it samples, but its update recomputes the log-probabilities without the mask, so its PPO
  ratios are not those of the masked policy (it learns, with clipped steps). IPPO reads a group's masks
  as lists (:class:`MaskInInfo` gives them so): numpy arrays fail its ``None in masks`` test;
* AEC: the multi-agent algorithms (IPPO, MADDPG, MATD3) take Parallel environments only, so on
  the turn-based games it is the single-agent DQN, run by hand over the AEC loop, as AgileRL's
  tutorial does; Barc, whose seats act at once, fits IPPO directly. 3 and 4-player Dorix run in the
  ``dqn`` loop unchanged (``--players``).

No move is ever illegal: the environments are made with ``illegal_action="raise"``, so one would
stop the run. Run: ``python examples/ecosystem/agilerl_selfplay.py [dqn|ippo] [--steps N]``; the last line
is ``summary: {json}``: moves per second of training, the games against random won, drawn and lost.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch
from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseParallelWrapper

from boardgames.envs.registry import env_module


def flat_space(dict_space: spaces.Dict) -> spaces.Box:
    """The ``observation`` plane of one of our Dict observation spaces, flattened."""
    plane = dict_space["observation"]
    return spaces.Box(0.0, 1.0, (int(np.prod(plane.shape)),), np.float32)


class MaskInInfo(BaseParallelWrapper):
    """A Parallel environment of ours as AgileRL's multi-agent algorithms read one: the flattened
    ``observation`` plane as the observation and the ``action_mask`` in each agent's info."""

    def observation_space(self, agent):
        return flat_space(self.env.observation_space(agent))

    def _split(self, obs: dict, infos: dict) -> tuple[dict, dict]:
        flat = {a: o["observation"].reshape(-1) for a, o in obs.items()}
        # a list: AgileRL 2.58 tests ``None in masks`` over a group's masks, which numpy arrays cannot answer
        infos = {a: {**infos.get(a, {}), "action_mask": o["action_mask"].tolist()} for a, o in obs.items()}
        return flat, infos

    def reset(self, seed=None, options=None):
        return self._split(*self.env.reset(seed=seed, options=options))

    def step(self, actions):
        obs, rewards, terminations, truncations, infos = self.env.step(actions)
        flat, infos = self._split(obs, infos)
        return flat, rewards, terminations, truncations, infos


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def dqn_self_play(
    game: str = "dorix", players: int = 2, steps: int = 3000, eval_games: int = 20, seed: int = 0
) -> dict:
    """Self-play DQN on the turn-based ``game`` for ``steps`` moves, then its greedy play against
    random; returns the figures."""
    from agilerl.algorithms import DQN
    from agilerl.components.replay_buffer import ReplayBuffer
    from tensordict import TensorDict

    options = {"num_players": players} if game == "dorix" else {}
    env = env_module(game).env(illegal_action="raise", **options)
    first = env.possible_agents[0]
    agent = DQN(
        observation_space=flat_space(env.observation_space(first)),
        action_space=env.action_space(first),
        net_config={"encoder_config": {"hidden_size": [128, 128]}},
        batch_size=64,
        lr=1e-3,
        learn_step=1,
        gamma=0.99,
        tau=0.01,
    )
    memory = ReplayBuffer(max_size=20_000)

    def remember(obs, action, reward, next_obs, done):
        memory.add(
            TensorDict(
                {
                    "obs": torch.as_tensor(obs[None]),
                    "action": torch.tensor([[action]]),
                    "reward": torch.tensor([[reward]], dtype=torch.float32),
                    "next_obs": torch.as_tensor(next_obs[None]),
                    "done": torch.tensor([[float(done)]]),
                },
                batch_size=[1],
            )
        )

    start, played, games = time.perf_counter(), 0, 0
    while played < steps:
        env.reset(seed=seed + games)
        games += 1
        waiting = {}  # seat -> (its observation, its action): the transition still open
        for name in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            flat = obs["observation"].reshape(-1)
            if name in waiting:
                remember(*waiting.pop(name), reward, flat, termination)
            if termination or truncation:
                env.step(None)
                continue
            epsilon = max(0.05, 1.0 - played / (0.6 * steps))
            action = int(agent.get_action(flat[None], epsilon, obs["action_mask"][None])[0])
            env.step(action)
            waiting[name] = (flat, action)
            played += 1
            if len(memory) >= agent.batch_size and played % 4 == 0:
                agent.learn(memory.sample(agent.batch_size))
    train_seconds = time.perf_counter() - start

    rng = np.random.default_rng(seed)
    results = []
    for g in range(eval_games):
        env.reset(seed=10_000 + g)
        learner = env.possible_agents[g % len(env.possible_agents)]
        for name in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                if name == learner:
                    results.append(np.sign(reward))  # +1 won, 0 drawn, -1 lost
                env.step(None)
                continue
            if name == learner:
                action = int(agent.get_action(obs["observation"].reshape(-1)[None], 0.0, obs["action_mask"][None])[0])
            else:
                action = random_legal(obs["action_mask"], rng)
            env.step(action)
    return {
        "game": game,
        "players": players,
        "steps": played,
        "games": games,
        "steps_per_second": played / train_seconds,
        **outcome_counts(results),
        "illegal_moves": 0,
    }


def ippo_barc(steps: int = 2048, eval_games: int = 20, seed: int = 0) -> dict:
    """IPPO self-play on Barc's duel (``parallel_env`` through :class:`MaskInInfo`) for ``steps`` joint
    moves, then ``player_0``'s sampled play against random; returns the figures."""
    from agilerl.algorithms import IPPO

    from boardgames.envs import barc_v1

    env = MaskInInfo(barc_v1.parallel_env(illegal_action="raise"))
    agents = env.possible_agents
    rollout = 256
    agent = IPPO(
        observation_spaces=[env.observation_space(a) for a in agents],
        action_spaces=[env.action_space(a) for a in agents],
        agent_ids=agents,
        net_config={"encoder_config": {"hidden_size": [128, 128]}},
        batch_size=128,
        lr=3e-4,
        learn_step=rollout,
        update_epochs=2,
    )

    def batched(d: dict) -> dict:
        return {a: np.asarray(v)[None] for a, v in d.items()}

    start, played, games = time.perf_counter(), 0, 1
    obs, info = env.reset(seed=seed)
    done = {a: np.zeros(1) for a in agents}
    while played < steps:
        fields = [{a: [] for a in agents} for _ in range(6)]  # states, actions, log_probs, rewards, dones, values
        for _ in range(rollout):
            action, log_prob, _, value = agent.get_action(obs=batched(obs), infos=info)
            next_obs, reward, termination, truncation, info = env.step({a: int(action[a][0]) for a in agents})
            for a in agents:
                for store, item in zip(
                    fields, (obs[a][None], action[a], log_prob[a], np.array([reward[a]]), done[a], value[a])
                ):
                    store[a].append(item)
            played += 1
            done = {a: np.array([float(termination[a] or truncation[a])]) for a in agents}
            obs = next_obs
            if not env.agents:  # the game is over: a new one starts
                obs, info = env.reset(seed=seed + games)
                games += 1
        agent.learn((*fields, batched(obs), done))
    train_seconds = time.perf_counter() - start

    rng = np.random.default_rng(seed)
    results = []
    for g in range(eval_games):
        obs, info = env.reset(seed=10_000 + g)
        while env.agents:
            action = agent.get_action(obs=batched(obs), infos=info)[0]
            moves = {
                "player_0": int(action["player_0"][0]),
                "player_1": random_legal(np.array(info["player_1"]["action_mask"]), rng),
            }
            obs, reward, _, _, info = env.step(moves)
        results.append(np.sign(reward["player_0"]))
    return {
        "game": "barc",
        "steps": played,
        "games": games,
        "steps_per_second": played / train_seconds,
        **outcome_counts(results),
        "illegal_moves": 0,
    }


def outcome_counts(results: list) -> dict:
    """Wins, draws and losses of the evaluated seat, from its games' returns."""
    results = np.array(results)
    return {"wins": int((results > 0).sum()), "draws": int((results == 0).sum()), "losses": int((results < 0).sum())}


def sentence(algorithm: str, r: dict) -> str:
    return (
        f"agilerl {algorithm} {r['game']}: {r['steps']} moves in {r['games']} games at"
        f" {r['steps_per_second']:.0f} moves/s; vs random {r['wins']} won, {r['draws']} drawn, {r['losses']} lost;"
        f" illegal moves {r['illegal_moves']}"
    )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("algorithm", nargs="?", choices=("dqn", "ippo"), default="dqn")
    parser.add_argument("--game", default="dorix", help="dqn: a turn-based game (dorix, olix, adix)")
    parser.add_argument("--players", type=int, default=2, help="dqn on dorix: 2, 3 or 4 players")
    parser.add_argument("--steps", type=int, default=None, help="moves to train (dqn 3000, ippo 2048)")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # small networks: one thread is the fastest, and leaves the other cores free
    if args.algorithm == "dqn":
        result = dqn_self_play(args.game, args.players, args.steps or 3000, args.eval_games, args.seed)
    else:
        result = ippo_barc(args.steps or 2048, args.eval_games, args.seed)
    print(sentence(args.algorithm, result))
    print("summary:", json.dumps(result))
    return result


if __name__ == "__main__":
    main()
