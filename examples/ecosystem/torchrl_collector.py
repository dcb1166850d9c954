"""TorchRL: the library's PettingZoo environments in ``torchrl.envs.PettingZooWrapper``, collected by a masked
policy with TorchRL's collector.

What it shows: the one line is ``PettingZooWrapper(env, use_mask=True)`` around the environment object
(``dorix_v0.env(...)`` for a turn-based game, ``barc_v1.parallel_env()`` for the Barc duel), not
``PettingZooEnv(task=...)``, which looks the name up among PettingZoo's own games. TorchRL splits the
library's Dict observation: ``(group, "action_mask")`` (bool) and ``(group, "observation",
"observation")``, and with ``use_mask=True`` ``(group, "mask")`` marks the agents that act this step. A
``ProbabilisticActor`` with ``MaskedCategorical`` reads the mask, and ``Collector`` (TorchRL 0.14's name
for ``SyncDataCollector``) gathers the frames. The script counts the acting agents whose action the mask
forbade (0), the finished games and player_0's mean return.

What works: turn-based games in AEC form (one group per agent: ``player_0``, ``player_1``...; the agents
that do not act get an all-True mask and their action is ignored), 3- and 4-player Dorix (``--players``),
Barc's Parallel form (one group ``player`` of both seats, acting at once). What it does not: the
collector's default policy (``policy=None``, random from the action spec) ignores the masks and plays
illegal moves; the environment objects must be built first (``PettingZooEnv(task="boardgames/...")`` is for
PettingZoo's bundled games); TorchRL warns that it is tested with PettingZoo 1.24.3 (1.27 works here). With
torch 2.13 TorchRL's C++ extension does not load (0.12.0 to 0.14.1: built for another torch), so its prioritized
replay buffers raise "SumSegmentTreeFp32 is not available"; everything used here is Python and works.

    python examples/ecosystem/torchrl_collector.py --game dorix --frames 400

The last line is ``summary: {json}``: frames per second of each game's collection, games finished,
player_0's mean return and the illegal actions chosen.
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
import warnings

import torch
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.collectors import Collector
from torchrl.envs import PettingZooWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from boardgames.envs.registry import current_version, parallel_games


def pettingzoo_env(game: str, players: int | None, max_turns: int):
    """The library's environment object: Parallel for a game whose seats act at once, else AEC."""
    module = importlib.import_module(f"boardgames.envs.{game}_v{current_version(game)}")  # dorix_v0, barc_v1...
    options = {"max_turns": max_turns, "illegal_action": "raise", **({"num_players": players} if players else {})}
    return module.parallel_env(**options) if game in parallel_games() else module.env(**options)


def masked_policy(env) -> TensorDictSequential:
    """One small MLP actor per group, sampling only the actions its ``action_mask`` allows."""
    actors = []
    for group in env.group_map:
        obs_shape = env.full_observation_spec[group, "observation", "observation"].shape[1:]  # past the agents
        num_actions = env.full_action_spec[group, "action"].space.n
        layers = [nn.Flatten(-len(obs_shape)), nn.Linear(obs_shape.numel(), 64), nn.Tanh(), nn.Linear(64, num_actions)]
        net = nn.Sequential(*layers)
        logits = TensorDictModule(net, in_keys=[(group, "observation", "observation")], out_keys=[(group, "logits")])
        actors.append(
            ProbabilisticActor(
                logits,
                in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
                out_keys=[(group, "action")],
                distribution_class=MaskedCategorical,
            )
        )
    return TensorDictSequential(*actors)


def collect(game: str, players: int | None, frames: int, max_turns: int, seed: int) -> dict:
    with warnings.catch_warnings():  # "PettingZoo in TorchRL is tested using version == 1.24.3"
        warnings.simplefilter("ignore", UserWarning)
        env = PettingZooWrapper(pettingzoo_env(game, players, max_turns), use_mask=True, seed=seed)
    torch.manual_seed(seed)
    collector = Collector(
        env,
        policy=masked_policy(env),
        frames_per_batch=max(1, frames // 2),
        total_frames=frames,
        auto_register_policy_transforms=False,  # the policy needs no env transform (TorchRL 0.14 warns otherwise)
    )
    first_group = next(iter(env.group_map))
    illegal = collected = 0
    returns = []
    start = time.perf_counter()
    for batch in collector:
        collected += batch.numel()
        for group in env.group_map:
            acting = batch[group, "mask"]  # (frames, agents): who acts this step
            legal = batch[group, "action_mask"].gather(-1, batch[group, "action"].unsqueeze(-1)).squeeze(-1)
            illegal += int((acting & ~legal).sum())
        ended = batch["next", "done"].squeeze(-1)
        returns.extend(batch["next", first_group, "reward"][ended][:, 0, 0].tolist())  # player_0's
    elapsed = time.perf_counter() - start
    collector.shutdown()
    return {
        "groups": {group: agents for group, agents in env.group_map.items()},
        "frames": collected,
        "frames_per_s": round(collected / elapsed, 1),
        "games_finished": len(returns),
        "mean_return_player_0": round(sum(returns) / len(returns), 3) if returns else None,
        "min_return": min(returns, default=None),
        "max_return": max(returns, default=None),
        "illegal_moves": illegal,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="dorix", help="the turn-based game (Barc's Parallel form runs too)")
    parser.add_argument("--players", type=int, default=None, help="Dorix: 2, 3 or 4")
    parser.add_argument("--frames", type=int, default=400)
    parser.add_argument("--max-turns", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    results = {name: collect(name, args.players if name == args.game else None, args.frames, args.max_turns, args.seed)
               for name in dict.fromkeys([args.game, "barc"])}  # fmt: skip
    summary = {"client": "TorchRL PettingZooWrapper", "games": results}
    summary["illegal_moves"] = sum(r["illegal_moves"] for r in results.values())
    print("summary:", json.dumps(summary))
