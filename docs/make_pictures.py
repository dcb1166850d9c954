"""Make the README's pictures: a mid-game position of every registered game, ``docs/images/<game>.png``.

    python docs/make_pictures.py            # every game
    python docs/make_pictures.py dorix      # only some

Each position comes from a game of random moves with a fixed seed, taken at about 60% of its length
(so the pictures are reproducible); the move list of the game up to that point is printed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from envs.core.replay import GameRecord, random_record  # noqa: E402
from envs.registry import game_names, make_game  # noqa: E402

OUT = ROOT / "docs" / "images"
SEED = 2


def mid_game(name: str, seed: int = SEED, fraction: float = 0.6) -> GameRecord:
    """The first moves of a random game of ``name``, up to about ``fraction`` of its length."""
    game = make_game(name)
    full = random_record(game, seed=seed)
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
