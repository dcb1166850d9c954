"""Make the README's pictures: a mid-game position of every registered game, ``docs/images/<game>.png``.

    python docs/make_pictures.py            # every game
    python docs/make_pictures.py dorix      # only some

Each position comes from games between greedy agents (``boardgames.training.agent_kinds``, fixed seeds, so the
pictures are reproducible): the longest of 6, at about 70% of its length (the longest of 30 random
games when greedy ones all end within 10 moves). Its notation is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from boardgames.envs.registry import game_names, make_game  # noqa: E402
from boardgames.envs.tools.replay import GameRecord, play_record, random_record  # noqa: E402

OUT = ROOT / "docs" / "images"
SEEDS = 6
MIN_MOVES = 10


def mid_game(name: str, fraction: float = 0.7) -> GameRecord:
    """The first moves of a greedy-against-greedy game of ``name``, up to about ``fraction`` of its length."""
    from boardgames.training.agent_kinds import make_agent

    game = make_game(name)
    games = [
        play_record(game, [make_agent("greedy", game, seed=seed + 10 * s) for s in range(game.info.num_seats)])
        for seed in range(SEEDS)
    ]
    full = max(games, key=len)  # the longest of a few games: the fullest board
    if len(full) < MIN_MOVES:  # greedy play ends this game too soon for a mid-game picture
        full = max((random_record(game, seed=seed) for seed in range(5 * SEEDS)), key=len)
    cut = max(1, int(len(full) * fraction))
    return GameRecord(full.start, full.moves[:cut])


def main(names=None) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names or game_names():
        record = mid_game(name)
        path = OUT / f"{name}.png"
        Image.fromarray(record.last.render_rgb()).save(path, optimize=True)
        written.append(path)
        print(f"{path.relative_to(ROOT)}: after {len(record)} moves, position {record.last.to_text()}")
    return written


if __name__ == "__main__":
    main(sys.argv[1:])
