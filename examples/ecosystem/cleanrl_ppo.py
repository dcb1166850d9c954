"""CleanRL-style masked PPO in one file (plain torch) on ``gymnasium.make_vec("boardgames/<game>-v<N>")``.

What it shows: the compiled vector environment (N games, one learning seat each, the other seats played
by random opponents inside the step) driving a single-file PPO whose policy samples only legal actions:
the legal moves of every game come in ``infos["action_mask"]`` (bool ``(num_envs, num_actions)``, also
``envs.action_masks()``), and the logits of the illegal ones are pushed to -1e8 before sampling.

What works: every game (turn-based Dorix at 2, 3 or 4 players, Olix, ADIX; the Barc duel with the other
seat's order drawn from the same position); observations are one Box (float32 planes, no Dict), so
CleanRL's flat networks take them as they are; autoreset is asked for as Gymnasium's ``SAME_STEP`` (the
step that ends a game already returns the next game's observation and mask), which is what a CleanRL loop
assumes (``make_vec``'s default is ``NEXT_STEP``, as in Gymnasium, where the step after an end only restarts
the game: a loop written for it must leave that step out of its rollouts).
What it does not: the learner plays one seat against fixed opponents (self-play against itself needs
the PettingZoo form or ``opponent=`` a callable); truncation at the turn limit is treated as an ending,
as CleanRL does.

    python examples/ecosystem/cleanrl_ppo.py --game dorix --total-steps 4096

The last line is ``summary: {json}``: steps per second of the training loop, episodes, their mean
return, the illegal moves chosen (0: the mask is honoured) and the win rate of the greedy policy
against random opponents afterwards.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

from boardgames.envs.registration import env_id  # importing boardgames.envs registers the games with Gymnasium

AUTORESET = AutoresetMode.SAME_STEP  # CleanRL's loop: the step that ends a game hands out the next one


class Agent(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128):
        super().__init__()
        layers = [nn.Flatten(), nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()]
        self.body = nn.Sequential(*layers)
        self.actor = nn.Linear(hidden, num_actions)
        self.critic = nn.Linear(hidden, 1)

    def value(self, obs):
        return self.critic(self.body(obs)).squeeze(-1)

    def act(self, obs, mask, action=None, greedy=False):
        """Action, its log-probability, the entropy and the value; ``mask`` (bool) keeps the legal actions."""
        hidden = self.body(obs)
        logits = torch.where(mask, self.actor(hidden), torch.tensor(-1e8))
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = logits.argmax(-1) if greedy else dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(hidden).squeeze(-1)


def win_rate(agent, game: str, games: int, seed: int) -> float:
    """Share of ``games`` the greedy masked policy wins against random opponents."""
    envs = gymnasium.make_vec(env_id(game), num_envs=min(games, 64), autoreset_mode=AUTORESET)
    obs, infos = envs.reset(seed=seed)
    results = []
    while len(results) < games:
        with torch.no_grad():
            action, *_ = agent.act(torch.as_tensor(obs), torch.as_tensor(infos["action_mask"]), greedy=True)
        obs, reward, terminated, truncated, infos = envs.step(action.numpy())
        results.extend(reward[terminated | truncated].tolist())
    return float(np.mean(np.array(results[:games]) > 0))


def train(game: str, num_envs: int, num_steps: int, total_steps: int, seed: int, eval_games: int) -> dict:
    torch.manual_seed(seed)
    # "boardgames/dorix-v0": the compiled batch, random opponents
    envs = gymnasium.make_vec(env_id(game), num_envs=num_envs, autoreset_mode=AUTORESET)
    obs_shape, num_actions = envs.single_observation_space.shape, envs.single_action_space.n
    agent = Agent(int(np.prod(obs_shape)), num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=2.5e-4, eps=1e-5)
    gamma, gae_lambda, clip, epochs, minibatches = 0.99, 0.95, 0.2, 4, 4

    buf_obs = torch.zeros((num_steps, num_envs, *obs_shape))
    buf_mask = torch.zeros((num_steps, num_envs, num_actions), dtype=torch.bool)
    buf_action, buf_logp, buf_reward, buf_done, buf_value = (torch.zeros((num_steps, num_envs)) for _ in range(5))
    obs, infos = envs.reset(seed=seed)
    next_obs, next_mask = torch.as_tensor(obs), torch.as_tensor(infos["action_mask"])
    next_done = torch.zeros(num_envs)
    episode_return, returns, illegal, steps = np.zeros(num_envs), [], 0, 0
    start = time.perf_counter()
    for _ in range(max(1, total_steps // (num_envs * num_steps))):
        for t in range(num_steps):
            buf_obs[t], buf_mask[t], buf_done[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            illegal += int((~next_mask.gather(1, action[:, None])).sum())  # never: the mask is honoured
            buf_action[t], buf_logp[t], buf_value[t] = action, logp, value
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            done = terminated | truncated
            illegal += int(infos.get("illegal_action", np.zeros(num_envs, bool)).sum())  # games forfeited
            episode_return += reward
            returns.extend(episode_return[done].tolist())
            episode_return[done] = 0
            buf_reward[t] = torch.as_tensor(reward)
            next_obs, next_mask = torch.as_tensor(obs), torch.as_tensor(infos["action_mask"])
            next_done = torch.as_tensor(done, dtype=torch.float32)
            steps += num_envs
        with torch.no_grad():  # generalized advantage estimation
            next_value, advantages, last = agent.value(next_obs), torch.zeros_like(buf_reward), 0
            for t in reversed(range(num_steps)):
                not_done = 1.0 - (next_done if t == num_steps - 1 else buf_done[t + 1])
                following = next_value if t == num_steps - 1 else buf_value[t + 1]
                delta = buf_reward[t] + gamma * following * not_done - buf_value[t]
                advantages[t] = last = delta + gamma * gae_lambda * not_done * last
            targets = advantages + buf_value
        b_obs, b_mask = buf_obs.flatten(0, 1), buf_mask.flatten(0, 1)
        b_action, b_logp = buf_action.flatten().long(), buf_logp.flatten()
        b_adv, b_target = advantages.flatten(), targets.flatten()
        size = b_obs.shape[0]
        for _ in range(epochs):
            for idx in torch.randperm(size).split(size // minibatches):
                _, logp, entropy, value = agent.act(b_obs[idx], b_mask[idx], b_action[idx])
                ratio = (logp - b_logp[idx]).exp()
                adv = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - clip, 1 + clip)).mean()
                loss = pg_loss + 0.5 * ((value - b_target[idx]) ** 2).mean() - 0.01 * entropy.mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
    elapsed = time.perf_counter() - start
    return {
        "client": "cleanrl-style PPO",
        "game": game,
        "steps": steps,
        "steps_per_s": round(steps / elapsed, 1),
        "episodes": len(returns),
        "mean_return": round(float(np.mean(returns)), 3) if returns else None,
        "illegal_moves": illegal,
        "win_rate_vs_random": round(win_rate(agent, game, eval_games, seed + 1), 3),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="dorix")
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--num-steps", type=int, default=64, help="steps per environment between updates")
    parser.add_argument("--total-steps", type=int, default=4096)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    summary = train(args.game, args.num_envs, args.num_steps, args.total_steps, args.seed, args.eval_games)
    print("summary:", json.dumps(summary))
