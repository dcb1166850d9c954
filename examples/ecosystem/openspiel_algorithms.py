"""OpenSpiel's own algorithms on the library's games: PyTorch DQN and policy gradient through
``rl_environment``, and ``evaluate_bots`` with the Python ``MCTSBot``.

What it shows: ``import boardgames.envs.interop.openspiel`` registers every game as ``boardgames_<game>``
(``pyspiel.load_game("boardgames_dorix(players=3,max_turns=60)")``), and OpenSpiel's
``rl_environment.Environment`` serves it to OpenSpiel's learners unchanged: the observation is the
flattened ``observation_tensor`` under ``info_state`` and the legal actions come as a list per player,
which DQN and policy gradient mask themselves. Here one DQN agent per seat learns by self-play, then
plays against OpenSpiel's ``RandomAgent``; a policy-gradient (A2C) agent per seat does the same; and
``evaluate_bots`` plays OpenSpiel's Python ``MCTSBot`` against ``UniformRandomBot``.

What works: every game and player count (Dorix 2 to 4, teams at 4; Barc as a simultaneous game in
``rl_environment``, where each agent steps on the same time step). What it does not: OpenSpiel's
``MCTSBot`` needs a sequential game (Barc through ``pyspiel.convert_to_turn_based``, done below), and
its C++ ``pyspiel.MCTSBot`` crashes on Python games (use the Python ``open_spiel.python.algorithms.mcts``);
OpenSpiel's PyTorch DQN imports ``tree`` (``pip install dm-tree``, in the ``openspiel`` extra); every
OpenSpiel call on a Python game crosses from C++ into Python, so it is slower than the library's own
search (docs/openspiel.md).

    python examples/ecosystem/openspiel_algorithms.py --game dorix --episodes 20

The last line is ``summary: {json}``: environment steps per second while DQN learns, the DQN and
policy-gradient win rates against random, MCTS's against random, the illegal actions chosen (0).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import evaluate_bots, mcts, random_agent
from open_spiel.python.pytorch import dqn, policy_gradient

from boardgames.envs.interop.openspiel import game_string  # importing it registers the games with OpenSpiel


def play_episode(env, agents, is_evaluation: bool = False) -> tuple[np.ndarray, int, int]:
    """One game in ``rl_environment``: the final returns, the steps taken and the illegal actions chosen."""
    time_step, steps, illegal = env.reset(), 0, 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        movers = range(len(agents)) if player == pyspiel.PlayerId.SIMULTANEOUS else [player]
        actions = []
        for p in movers:
            action = agents[p].step(time_step, is_evaluation=is_evaluation).action
            illegal += action not in time_step.observations["legal_actions"][p]
            actions.append(action)
        time_step = env.step(actions)
        steps += 1
    for agent in agents:  # the last step: every learner sees the final rewards
        agent.step(time_step, is_evaluation=is_evaluation)
    return np.array(time_step.rewards), steps, illegal


def win_rate_against_random(env, learners, games: int, seed: int) -> tuple[float, int]:
    """Seat 0 is the learner, the others random: the share of games seat 0 wins, and illegal actions chosen."""
    num_actions = env.action_spec()["num_actions"]
    others = [random_agent.RandomAgent(p, num_actions) for p in range(1, len(learners))]
    np.random.seed(seed)  # RandomAgent draws from numpy's global generator
    wins = illegal = 0
    for _ in range(games):
        returns, _, bad = play_episode(env, [learners[0], *others], is_evaluation=True)
        wins += returns[0] > 0
        illegal += bad
    return wins / games, illegal


def run(game: str, players: int | None, max_turns: int, episodes: int, eval_games: int, mcts_games: int,
        simulations: int, seed: int) -> dict:  # fmt: skip
    options = {"num_players": players} if players else {}
    spiel_game = pyspiel.load_game(game_string(game, **options, max_turns=max_turns))  # "boardgames_dorix(...)"
    env = rl_environment.Environment(spiel_game, seed=seed)
    state_size, num_actions = env.observation_spec()["info_state"][0], env.action_spec()["num_actions"]
    num_players = spiel_game.num_players()
    torch.manual_seed(seed)

    dqn_agents = [
        dqn.DQN(p, state_size, num_actions, hidden_layers_sizes=[64], replay_buffer_capacity=2000, batch_size=32,
                min_buffer_size_to_learn=64, learn_every=8, epsilon_decay_duration=episodes * 30, seed=seed + p)
        for p in range(num_players)
    ]  # fmt: skip
    steps = illegal = 0
    start = time.perf_counter()
    for _ in range(episodes):
        _, n, bad = play_episode(env, dqn_agents)
        steps, illegal = steps + n, illegal + bad
    dqn_rate = steps / (time.perf_counter() - start)
    dqn_wins, bad = win_rate_against_random(env, dqn_agents, eval_games, seed)
    illegal += bad

    pg_agents = [
        policy_gradient.PolicyGradient(p, state_size, num_actions, loss_str="a2c", hidden_layers_sizes=[64])
        for p in range(num_players)
    ]
    for _ in range(episodes):
        illegal += play_episode(env, pg_agents)[2]
    pg_wins, bad = win_rate_against_random(env, pg_agents, eval_games, seed)
    illegal += bad

    # MCTSBot takes sequential games: Barc's simultaneous moves go through the turn-based view
    sequential = spiel_game
    if spiel_game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        sequential = pyspiel.convert_to_turn_based(spiel_game)
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(sequential, uct_c=1.4, max_simulations=simulations, evaluator=evaluator, random_state=rng)
    randoms = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(num_players)]
    mcts_returns = []
    for g in range(mcts_games):  # MCTS takes seat g % num_players, random bots the others
        seat = g % num_players
        bots = [bot if p == seat else randoms[p] for p in range(num_players)]
        mcts_returns.append(evaluate_bots.evaluate_bots(sequential.new_initial_state(), bots, rng)[seat])
    return {
        "client": "OpenSpiel",
        "game": spiel_game.get_type().short_name,
        "players": num_players,
        "steps": steps,
        "steps_per_s_dqn": round(dqn_rate, 1),
        "episodes": episodes,
        "dqn_win_rate_vs_random": round(dqn_wins, 3),
        "pg_win_rate_vs_random": round(pg_wins, 3),
        "mcts_games": mcts_games,
        "mcts_mean_return_vs_random": round(float(np.mean(mcts_returns)), 3),
        "illegal_moves": int(illegal),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="dorix")
    parser.add_argument("--players", type=int, default=None, help="Dorix: 2, 3 or 4")
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--episodes", type=int, default=20, help="self-play training games of DQN, then of PG")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--mcts-games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)  # small networks: one thread is the fastest, and leaves the other cores alone
    summary = run(args.game, args.players, args.max_turns, args.episodes, args.eval_games, args.mcts_games,
                  args.simulations, args.seed)  # fmt: skip
    print("summary:", json.dumps(summary))
