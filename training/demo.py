"""The main job: train a Dorix agent for a few minutes on a CPU, then measure it.

``boardgames demo`` trains a 2-player Dorix agent by self-play with MaskablePPO (progress bar; about 200,000 steps,
2 to 3 minutes on 2 CPU cores), starting from a copy of the greedy agent's play (behaviour cloning of 400 of its
games, :mod:`boardgames.training.sb3.pretrain`, about 15 s: without it the agent's strength after 200,000 steps
depended on the seed, 28% to 98% against greedy), then plays it against the random and the greedy baselines (100
games each, seats swapped) and prints the win/draw/loss table with 95% confidence intervals and Elo ratings. While
it trains, the progress bar shows the learner's win rates against random and greedy, measured every 50,000 steps
(:mod:`boardgames.training.evaluation.strength`; 20 games against each, about 5% of the training time, half of it
in the greedy agent's moves). Everything goes to ``runs/demo/`` (TensorBoard logs, checkpoints, the model,
strength.csv, results.csv and results.png: the final table and the win-rate curve during training). Options:
``--steps``, ``--games``, ``--seed``, ``--players``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from boardgames.training.torch_threads import add_torch_threads_argument, apply_torch_threads

EVAL_EVERY = 50_000  # steps between strength measurements while the demo trains (5 points over 200k steps)
DEMO_SETTINGS = [f"train.eval_every={EVAL_EVERY}", "pretrain.teacher=greedy", "pretrain.games=400"]
"""The demo's ``--set`` entries over Dorix's training config (training/configs/dorix.toml)."""


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(prog="boardgames demo", description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=200_000, help="training steps (default 200000)")
    p.add_argument("--games", type=int, default=100, help="evaluation games per opponent (default 100)")
    p.add_argument("--players", type=int, default=2, help="Dorix player count (default 2)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/demo")
    add_torch_threads_argument(p)
    args = p.parse_args(argv)
    apply_torch_threads(p, args)

    from boardgames.envs.registry import make_game
    from boardgames.training.evaluation.evaluate import format_table as table
    from boardgames.training.evaluation.evaluate import round_robin, save_results
    from boardgames.training.evaluation.strength import read_strength
    from boardgames.training.sb3.train import train

    options = {"num_players": args.players}
    out = Path(args.out)
    print(f"Training a {args.players}-player Dorix agent by self-play for {args.steps} steps (MaskablePPO, CPU)...")
    start = time.time()
    model, run = train(
        "dorix",
        options,
        total_steps=args.steps,
        seed=args.seed,
        run_dir=str(out),
        sets=DEMO_SETTINGS,
        command=f"boardgames demo --steps {args.steps} --seed {args.seed}",
    )
    print(f"trained in {time.time() - start:.0f} s; model saved to {run / 'final.zip'}")
    print(f"Evaluating against random and greedy ({args.games} games each, seats swapped)...")
    game = make_game("dorix", **options)
    results, elo = round_robin(
        game,
        [str(run / "final.zip"), "random", "greedy"],
        args.games,
        seed=args.seed,
        first_only=True,
        names=["trained", "random", "greedy"],
    )
    print()
    print(f"Dorix, {args.players} players: trained agent ({model.num_timesteps} steps) against the baselines")
    print(table(results, elo))
    save_results(
        out,
        results,
        elo,
        f"Dorix {args.players}p: demo agent, {model.num_timesteps} steps",
        strength=read_strength(run / "strength.csv"),
    )
    print(f"\nsaved {out / 'results.csv'} and {out / 'results.png'}; TensorBoard: tensorboard --logdir {out}")


if __name__ == "__main__":
    main()
