"""Make the pictures of the README and the documentation site: a mid-game position of every registered
game, ``docs/images/<game>.png``, and a whole game as a small animated GIF, ``docs/images/<game>.gif``.

    python docs/make_pictures.py                 # every game, both pictures
    python docs/make_pictures.py dorix           # only some
    python docs/make_pictures.py --only gif      # only the GIFs (or only the PNGs: --only png)

Each position comes from games between greedy agents (``boardgames.training.agent_kinds``, fixed seeds, so the
pictures are reproducible): the longest of 6, at about 70% of its length (the longest of 30 random
games when greedy ones all end within 10 moves). Its notation is printed.

Each GIF is the replay tool's own frames (:mod:`boardgames.envs.tools.replay`: a captioned picture per
position) of the first greedy-against-greedy game, by seed, of 12 to 40 moves (else the first such random
game), scaled down to 480 pixels wide and limited to 64 colours, so each stays well under a megabyte.
"""

from __future__ import annotations

import argparse
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
GIF_MOVES = (12, 40)  # the shortest and longest game shown as a GIF
GIF_WIDTH = 480
GIF_COLOURS = 64
GIF_FRAME_MS = 600


def mid_game(name: str, fraction: float = 0.7, **options) -> GameRecord:
    """The first moves of a greedy-against-greedy game of ``name`` (made with the game's ``options``), up to
    about ``fraction`` of its length."""
    from boardgames.training.agent_kinds import make_agent

    game = make_game(name, **options)
    games = [
        play_record(game, [make_agent("greedy", game, seed=seed + 10 * s) for s in range(game.info.num_seats)])
        for seed in range(SEEDS)
    ]
    full = max(games, key=len)  # the longest of a few games: the fullest board
    if len(full) < MIN_MOVES:  # greedy play ends this game too soon for a mid-game picture
        full = max((random_record(game, seed=seed) for seed in range(5 * SEEDS)), key=len)
    cut = max(1, int(len(full) * fraction))
    return GameRecord(full.start, full.moves[:cut])


def whole_game(name: str, seeds: int = 30) -> GameRecord:
    """A complete game of ``name`` of ``GIF_MOVES`` length: greedy against greedy, else random players."""
    from boardgames.training.agent_kinds import make_agent

    game = make_game(name)
    low, high = GIF_MOVES
    for seed in range(seeds):
        record = play_record(game, [make_agent("greedy", game, seed=seed + 10 * s) for s in range(game.info.num_seats)])
        if low <= len(record) <= high and record.last.is_terminal():
            return record
    for seed in range(seeds):
        record = random_record(game, seed=seed)
        if low <= len(record) <= high and record.last.is_terminal():
            return record
    raise SystemExit(f"{name}: no game of {low} to {high} moves in {seeds} seeds")


def save_small_gif(record: GameRecord, path: Path) -> Path:
    """``record`` as an animated GIF of the replay tool's captioned frames, scaled to ``GIF_WIDTH``."""
    frames = [Image.fromarray(frame) for frame in record.frames()]
    height = round(frames[0].height * GIF_WIDTH / frames[0].width)
    scaled = [f.resize((GIF_WIDTH, height), Image.LANCZOS) for f in frames]
    # one palette for every frame (that of the last, fullest position), so that each frame after the first
    # stores only the squares that changed
    palette = scaled[-1].quantize(GIF_COLOURS)
    small = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in scaled]
    durations = [GIF_FRAME_MS] * (len(small) - 1) + [3 * GIF_FRAME_MS]  # a longer look at the end
    small[0].save(path, save_all=True, append_images=small[1:], duration=durations, loop=0, optimize=True)
    return path


def main(argv=None) -> list[Path]:
    parser = argparse.ArgumentParser(prog="python docs/make_pictures.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to draw (default: every registered game)")
    parser.add_argument("--only", choices=("png", "gif"), help="draw only one kind of picture")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    for name in args.games or game_names():
        if args.only != "gif":
            record = mid_game(name)
            path = OUT / f"{name}.png"
            Image.fromarray(record.last.render_rgb()).save(path, optimize=True)
            written.append(path)
            print(f"{path.relative_to(ROOT)}: after {len(record)} moves, position {record.last.to_text()}")
        if args.only != "png":
            record = whole_game(name)
            path = save_small_gif(record, OUT / f"{name}.gif")
            written.append(path)
            print(f"{path.relative_to(ROOT)}: {len(record)} moves, {path.stat().st_size // 1024} KB")
    return written


if __name__ == "__main__":
    main()
