"""Behaviour cloning before self-play: teach the policy network to play like a teacher agent.

``boardgames train --game adix --pretrain greedy --pretrain-games 400`` (or the ``[pretrain]``
section of a config) first plays ``games`` games of the teacher (any agent spec: ``greedy``,
``mcts:50``, a saved model) against the opponents of ``pretrain.opponents`` (default: random and the
teacher itself, in turn), records every decision the teacher makes, then trains the policy on them
before PPO starts. Nothing here depends on the game:

* **The observations are the learner's.** A decision of seat ``s`` is recorded as
  ``state.observation(s)`` and ``state.legal_mask(s)``: exactly what the policy sees in
  :class:`~boardgames.training.sb3.selfplay.SelfPlayEnv` when it plays that seat.
* **The target is the teacher's choice set.** An agent with ``choices(state, seat)`` (the greedy
  agent: every best-scoring action, ties included) gives a uniform target over that set, so the
  policy learns "one of these", not one arbitrary tie-break; any other agent gives its one action.
* **Loss**: masked cross-entropy (illegal logits set to -inf before the softmax) against the target,
  plus ``value_coef`` times the squared error of the value head against the discounted outcome of the
  game for the recorded seat (``gamma ** (decisions left) * return``; a truncated game counts 0),
  so PPO starts with a critic that matches the cloned policy.
* :func:`pretrain_policy` reports ``agreement``: the share of the recorded positions where the
  policy's arg-max legal action is one of the teacher's choices.

Simultaneous games: every acting seat chooses from the same state, then the joint action is played.
Team games: the teacher plays every seat of its side.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from boardgames.envs.agents.play import play_game
from boardgames.envs.core.game import Game
from boardgames.training.agent_kinds import make_agent


@dataclass
class Demonstrations:
    """Recorded teacher decisions. ``targets[ptr[i]:ptr[i+1]]`` are the teacher's choices at position i."""

    obs: np.ndarray  # (N, *observation_shape) float16
    masks: np.ndarray  # (N, ceil(num_actions / 8)) packed bits
    targets: np.ndarray  # concatenated choice sets
    ptr: np.ndarray  # (N + 1,)
    values: np.ndarray  # (N,) discounted outcome for the recorded seat
    num_actions: int
    games: int = 0

    def __len__(self) -> int:
        return len(self.obs)

    def mask(self, idx) -> np.ndarray:
        return np.unpackbits(self.masks[idx], axis=-1, count=self.num_actions).astype(bool)

    def target_matrix(self, idx) -> np.ndarray:
        out = np.zeros((len(idx), self.num_actions), dtype=np.float32)
        for row, i in enumerate(idx):
            choice = self.targets[self.ptr[i] : self.ptr[i + 1]]
            out[row, choice] = 1.0 / len(choice)
        return out


def _choices(agent, state, seat) -> list:
    if hasattr(agent, "choices"):
        return [int(a) for a in agent.choices(state, seat)]
    return [int(agent(state, seat))]


def collect(
    game: Game,
    teacher="greedy",
    opponents=None,
    games: int = 100,
    seed: int = 0,
    gamma: float = 0.99,
    max_steps: int = 100000,
) -> Demonstrations:
    """Play ``games`` games of ``teacher`` against ``opponents`` (agent specs, used in turn; default
    random and the teacher) and record each teacher decision from the deciding seat's point of view."""
    opponents = list(opponents) if opponents else ["random", teacher]
    rng = np.random.default_rng(seed)
    teacher_agent = make_agent(teacher, game, seed=seed)
    opp_agents = [make_agent(o, game, seed=seed + 1 + i) for i, o in enumerate(opponents)]
    side_list = game.info.sides()
    n_seats = game.info.num_seats
    obs: list = []
    masks, targets, ptr, values = [], [], [0], []
    recorded: dict = {}

    def teacher_move(state, s) -> int:
        """The teacher's move for seat ``s``, its decision recorded from ``s``'s point of view."""
        choice = _choices(teacher_agent, state, s)
        recorded[s].append(len(obs))
        obs.append(state.observation(s).astype(np.float16))
        masks.append(np.packbits(state.legal_mask(s)))
        targets.extend(choice)
        ptr.append(len(targets))
        values.append(0.0)
        return choice[0] if len(choice) == 1 else int(teacher_agent.rng.choice(choice))

    for g in range(games):
        k = g % len(opponents)
        opponent = opp_agents[k]
        side = side_list[(g // len(opponents)) % len(side_list)]
        everyone = opponents[k] == teacher  # teacher against itself: every seat is a demonstration
        for agent in (teacher_agent, opponent):
            if hasattr(agent, "seed"):
                agent.seed(int(rng.integers(2**31)))
        recorded = {s: [] for s in range(n_seats)}  # per seat: indices of its decisions
        seat_agents = [teacher_move if s in side or everyone else opponent for s in range(n_seats)]
        state = play_game(game, seat_agents, max_steps=max_steps)
        if not state.is_truncated():
            returns = state.returns()
            for s, idx in recorded.items():
                for left, i in enumerate(reversed(idx)):
                    values[i] = float(returns[s]) * gamma**left
    return Demonstrations(
        np.stack(obs),
        np.stack(masks),
        np.asarray(targets, dtype=np.int64),
        np.asarray(ptr, dtype=np.int64),
        np.asarray(values, dtype=np.float32),
        game.info.num_actions,
        games,
    )


def _forward(policy, obs_t):
    """Masked-logit-free forward pass of an SB3 actor-critic policy: (logits, values)."""
    features = policy.extract_features(obs_t)
    if getattr(policy, "share_features_extractor", True):
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        pi_features, vf_features = features
        latent_pi = policy.mlp_extractor.forward_actor(pi_features)
        latent_vf = policy.mlp_extractor.forward_critic(vf_features)
    return policy.action_net(latent_pi), policy.value_net(latent_vf).squeeze(-1)


def agreement(policy, data: Demonstrations, batch_size: int = 1024) -> float:
    """Share of the positions where the policy's arg-max legal action is one of the teacher's choices."""
    import torch

    hits = 0
    with torch.no_grad():
        for start in range(0, len(data), batch_size):
            idx = np.arange(start, min(start + batch_size, len(data)))
            logits, _ = _forward(policy, torch.as_tensor(data.obs[idx], dtype=torch.float32))
            logits = logits.masked_fill(~torch.as_tensor(data.mask(idx)), -torch.inf)
            best = logits.argmax(-1).numpy()
            hits += sum(best[r] in data.targets[data.ptr[i] : data.ptr[i + 1]] for r, i in enumerate(idx))
    return hits / max(len(data), 1)


def pretrain_policy(
    policy,
    data: Demonstrations,
    epochs: int = 10,
    learning_rate: float = 1e-3,
    batch_size: int = 256,
    value_coef: float = 0.5,
    seed: int = 0,
    log=None,
    optimizer=None,
) -> dict:
    """Fit ``policy`` (an SB3 actor-critic policy) to ``data``; returns loss and agreement figures.
    ``optimizer``: an existing one to continue with (default: a fresh Adam)."""
    import torch

    from boardgames.training.torch_threads import ensure_torch_threads

    ensure_torch_threads()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    policy.set_training_mode(True)
    optimizer = optimizer or torch.optim.Adam(policy.parameters(), lr=learning_rate)
    n = len(data)
    history = []
    for epoch in range(epochs):
        order = rng.permutation(n)
        total_ce = total_v = 0.0
        for start in range(0, n, batch_size):
            idx = np.sort(order[start : start + batch_size])
            obs_t = torch.as_tensor(data.obs[idx], dtype=torch.float32)
            mask_t = torch.as_tensor(data.mask(idx))
            target_t = torch.as_tensor(data.target_matrix(idx))
            logits, values = _forward(policy, obs_t)
            log_probs = torch.log_softmax(logits.masked_fill(~mask_t, -torch.inf), dim=-1)
            ce = -(target_t * log_probs.masked_fill(~mask_t, 0.0)).sum(-1).mean()
            v_loss = torch.mean((values - torch.as_tensor(data.values[idx])) ** 2)
            loss = ce + value_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            total_ce += ce.item() * len(idx)
            total_v += v_loss.item() * len(idx)
        history.append({"epoch": epoch + 1, "cross_entropy": total_ce / n, "value_mse": total_v / n})
        if log:
            log(f"pretrain epoch {epoch + 1}/{epochs}: cross-entropy {total_ce / n:.3f}, value mse {total_v / n:.3f}")
    policy.set_training_mode(False)
    return {"positions": n, "epochs": epochs, "history": history, "agreement": agreement(policy, data)}


DEFAULTS = {
    "teacher": "greedy",
    "games": 200,
    "opponents": None,
    "epochs": 10,
    "learning_rate": 1e-3,
    "batch_size": 256,
    "value_coef": 0.5,
}


def pretrain(model, game: Game, settings: dict, seed: int = 0, log=print) -> dict:
    """Collect demonstrations with ``settings`` (the ``[pretrain]`` config section, see :data:`DEFAULTS`)
    and fit ``model.policy`` to them; returns what happened (stored in the run's ``run.json``)."""
    cfg = {**DEFAULTS, **(settings or {})}
    start = time.time()
    gamma = float(getattr(model, "gamma", 0.99))
    data = collect(game, cfg["teacher"], cfg["opponents"], int(cfg["games"]), seed=seed, gamma=gamma)
    collected = time.time() - start
    if log:
        log(
            f"pretrain: {len(data)} positions from {data.games} games of {cfg['teacher']} "
            f"against {cfg['opponents'] or ['random', cfg['teacher']]} in {collected:.0f} s"
        )
    stats = pretrain_policy(
        model.policy,
        data,
        int(cfg["epochs"]),
        float(cfg["learning_rate"]),
        int(cfg["batch_size"]),
        float(cfg["value_coef"]),
        seed=seed,
        log=log,
    )
    stats.update(
        {
            "teacher": cfg["teacher"],
            "games": data.games,
            "opponents": cfg["opponents"],
            "collect_s": round(collected, 1),
            "wall_time_s": round(time.time() - start, 1),
        }
    )
    if log:
        log(
            f"pretrain: the policy's arg-max is one of the teacher's choices on {100 * stats['agreement']:.1f}% "
            f"of the positions ({stats['wall_time_s']:.0f} s in all)"
        )
    return stats


def main(argv: list | None = None) -> None:
    """``python -m boardgames.training.sb3.pretrain``: pretraining runs inside the trainer; this prints how."""
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m boardgames.training.sb3.pretrain",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__,
        epilog="Pretraining runs inside the trainer, before self-play; for example:\n"
        "  boardgames train --game adix --pretrain greedy --pretrain-games 400 --steps 300000\n"
        "  boardgames train --game dorix --players 2 --set pretrain.teacher=mcts:50 "
        "--set pretrain.games=200\n"
        "The [pretrain] settings and their defaults: "
        + ", ".join(f"{k}={v!r}" for k, v in DEFAULTS.items())
        + ".\nThe cloned model is saved as <run>/pretrained.zip (see boardgames train --help).",
    )
    p.parse_args(argv)
    p.print_usage()
    p.exit(
        2,
        f"{p.prog}: this module has no command of its own; run the trainer with --pretrain TEACHER "
        "(python -m boardgames.training.sb3.pretrain --help shows how)\n",
    )


if __name__ == "__main__":
    main()
