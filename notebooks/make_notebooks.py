"""Write the notebooks of this folder: one per registered game (``<game>.ipynb``) and one on
benchmarking agents (``benchmarking.ipynb``).

    python notebooks/make_notebooks.py

Every game notebook has the same sections, written once here: the rules shown on pictures
(positions in the game's notation, listed per game in ``RULE_PICTURES``), a random game (move list
and GIF), a scripted position played from notation through the PettingZoo environment, a small agent
trained with MaskablePPO, its learning curve, and a match against baselines. A game registered
without an entry in ``RULE_PICTURES`` still gets a notebook (its start and a mid-game position).

With ``NOTEBOOK_QUICK=1`` in the environment the notebooks use tiny step and game counts (the test
suite runs them that way); without it they train for a few minutes on a CPU.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from envs.registry import env_module, game_names  # noqa: E402

# Per game: options for the notebook, positions that show the rules (markdown, position, moves to play
# from it), a scripted position for the environment section, and training settings.
RULE_PICTURES = {
    "dorix": {
        "options": {"num_players": 2},
        "pictures": [
            (
                "**The start.** Each player has 15 pawns in hand (12 with 3 players, 10 with 4). The long "
                "diagonals a1-d4 and a4-d1 are outlined: top all four stacks of one of them to win.",
                "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0",
                [],
            ),
            (
                "**Placing and the collapse.** player_0 places on b2, its own stack (height 2 after the "
                "placement). Its lower neighbours a2, c2 and b3 (height 1) each receive one pawn from the top "
                "of b2 (two pawns for three neighbours), the mover choosing where each falls: `>a2`, then `>c2`; "
                "b3 receives nothing. The collapsing stack is outlined in red, the neighbours still to receive in "
                "green.",
                "dorix -.-.-.-/-.1.-.-/1.0.1.-/-.-.-.- hands=14,12 move=0 turn=0",
                ["b2", ">a2", ">c2"],
            ),
            (
                "**Winning, whoever moved.** Here player_0's placement on b2 collapses b2 onto its lower "
                "neighbours and leaves player_1 on top of a1, b2, c3 and d4: player_1 wins.",
                "dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0",
                ["b2"],
            ),
        ],
        "scripted": ("dorix -.-.-.-/-.1.-.-/1.0.1.-/-.-.-.- hands=14,12 move=0 turn=0", ["b2"]),
    },
    "olix": {
        "options": {},
        "pictures": [
            (
                "**The start.** An empty 11x11 grid; each player places 46 pawns, one per turn. The four "
                "score columns O, L, I and X are on the right, lowest value at the top.",
                "olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0",
                [],
            ),
            (
                "**Patterns.** player_0 (light) holds a1, b1, c1, a2 and a3. Playing d1 makes an I-4 (a line of "
                "four) and an L-6 (arms a1-d1 and a1-a3) with one pawn: both columns get player_0's marker.",
                "olix 11/11/11/11/11/11/11/11/w10/w10/www5bbb move=0 turn=8",
                ["d1"],
            ),
            (
                "**Rectangles (O) and diagonals (X).** player_0 closes a 2x2 square with b2 (O-4), player_1 "
                "answers c9, then player_0 completes the diagonal e5-f6-g7-h8 (X-4).",
                "olix 11/11/9b1/11/6w4/5w5/4w4b1/11/8b1b/w10/ww6b1b move=0 turn=12",
                ["b2", "c9", "h8"],
            ),
        ],
        "scripted": ("olix 11/11/11/11/11/11/11/11/w10/w10/www5bbb move=0 turn=8", ["d1", "j2"]),
    },
}

TRAIN_STEPS = {"quick": 512, "full": 30_000}


def _intro(name: str) -> str:
    doc = (env_module(name).__doc__ or name).strip()
    title, _, rest = doc.partition("\n")
    paragraphs = [p.strip() for p in rest.split("\n\n") if p.strip() and not p.strip().startswith("|")]
    body = paragraphs[0] if paragraphs else ""
    return (
        f"# {title}\n\n{body}\n\nFull rules: [`docs/rules/{name}.md`](../docs/rules/{name}.md). "
        f"Environment: `envs.{name}_v0`.\n\n"
        "This notebook shows the rules on pictures, a random game, a position played from notation, a small "
        "agent trained with MaskablePPO and a match against baselines. Set `NOTEBOOK_QUICK=1` to run it in "
        "seconds (tiny step counts, as the test suite does)."
    )


SETUP = """\
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path.cwd() if (Path.cwd() / "envs").is_dir() else Path.cwd().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Image, display

from envs.core.replay import GameRecord, random_record
from envs.registry import env_module, make_game

QUICK = os.environ.get("NOTEBOOK_QUICK") == "1"
OUT = Path(tempfile.gettempdir()) / "boardgame_notebooks"
OUT.mkdir(exist_ok=True)

GAME = {game!r}
OPTIONS = {options!r}
game = make_game(GAME, **OPTIONS)
print(game, game.info.num_seats, "seats,", game.info.num_actions, "actions, observation", game.info.observation_shape)


def show(*states, titles=None, width=6):
    \"\"\"Draw positions side by side with their rgb pictures.\"\"\"
    fig, axes = plt.subplots(1, len(states), figsize=(width * len(states), width * 0.8))
    axes = np.atleast_1d(axes)
    for i, (ax, s) in enumerate(zip(axes, states)):
        ax.imshow(s.render_rgb())
        ax.set_axis_off()
        if titles:
            ax.set_title(titles[i])
    plt.tight_layout()
    plt.show()"""


def _rule_cells(name: str, spec: dict) -> list:
    cells = [
        new_markdown_cell(
            "## The rules on pictures\n\nEach picture is a position written in the game's "
            "notation (`game.from_text`); where moves follow, the position after them is "
            "shown beside it."
        )
    ]
    for text, position, moves in spec.get("pictures", []):
        cells.append(new_markdown_cell(text))
        if moves:
            code = (
                f"record = GameRecord.from_moves(game, {moves!r}, start={position!r})\n"
                "print(record.to_text())\n"
                "picks = sorted({0, len(record) - 1, len(record)})  # before, before the last move, after\n"
                "labels = ['before'] + [f'after {i}. {t}' for i, t in enumerate(record.move_texts(), 1)]\n"
                "states = record.states()\n"
                "show(*[states[i] for i in picks], titles=[labels[i] for i in picks])"
            )
        else:
            code = f"state = game.from_text({position!r})\nprint(state.render_text())\nshow(state)"
        cells.append(new_code_cell(code))
    if not spec.get("pictures"):
        cells.append(new_markdown_cell("The start, and a position after a few random moves:"))
        cells.append(
            new_code_cell(
                "mid = random_record(game, seed=1, max_moves=12).last\n"
                "print(mid.to_text())\nshow(game.new_initial_state(), mid, titles=['start', 'mid-game'])"
            )
        )
    return cells


RANDOM_GAME = """\
record = random_record(game, seed=0)
print(record.to_text())
show(record.last, titles=["the end of a random game"])
gif = record.save_gif(OUT / f"{GAME}_random.gif", duration_ms=300)
print("GIF:", gif, "-", len(record) + 1, "frames")
display(Image(filename=gif))"""

SCRIPTED = """\
POSITION = {position!r}
MOVES = {moves!r}
module = env_module(GAME)
if game.info.simultaneous:
    env = module.parallel_env(render_mode="rgb_array", **OPTIONS)
    observations, infos = env.reset(seed=0, options={{"position": POSITION}})
    state = env.unwrapped.game_state if hasattr(env.unwrapped, "game_state") else game.from_text(POSITION)
    print(state.render_text())
else:
    env = module.env(render_mode="rgb_array", **OPTIONS)
    env.reset(seed=0, options={{"position": POSITION}})
    for text in MOVES:
        agent = env.agent_selection
        state = env.unwrapped.game_state
        action = state.text_to_action(text)
        print(f"{{agent}} plays {{text}} (action {{action}})")
        env.step(action)
    print(env.unwrapped.game_state.render_text())
    plt.imshow(env.render())
    plt.axis("off")
    plt.show()
    env.close()"""


def game_notebook(name: str) -> nbformat.NotebookNode:
    spec = RULE_PICTURES.get(name, {})
    options = spec.get("options", {})
    cells = [new_markdown_cell(_intro(name)), new_code_cell(SETUP.format(game=name, options=options))]
    cells += _rule_cells(name, spec)
    cells.append(
        new_markdown_cell(
            "## A random game\n\nBoth sides play uniformly random legal moves. The game "
            "is printed as a move list in notation and saved as an animated GIF, one frame "
            "per turn (`envs.core.replay`)."
        )
    )
    cells.append(new_code_cell(RANDOM_GAME))
    scripted = spec.get("scripted")
    if scripted is None:
        cells.append(new_markdown_cell("## A position from notation\n\nAny position can be written and read back:"))
        cells.append(
            new_code_cell(
                "mid = random_record(game, seed=2, max_moves=8).last\ntext = mid.to_text()\n"
                "print(text)\nassert game.from_text(text) == mid\nshow(game.from_text(text))"
            )
        )
    else:
        position, moves = scripted
        cells.append(
            new_markdown_cell(
                "## A scripted position from notation\n\nThe PettingZoo environment starts "
                'from any position (`reset(options={"position": ...})`); moves are '
                "read from notation with `state.text_to_action`."
            )
        )
        cells.append(new_code_cell(SCRIPTED.format(position=position, moves=moves)))
    cells += training_cells(name)
    return new_notebook(cells=cells, metadata=_metadata())


def training_cells(name: str) -> list:
    """Train a small agent, its learning curve, a match against baselines."""
    return []


def benchmark_notebook() -> nbformat.NotebookNode:
    cells = [new_markdown_cell("# Benchmarking agents on these games")]
    return new_notebook(cells=cells, metadata=_metadata())


def _metadata() -> dict:
    return {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }


def main() -> list[Path]:
    written = []
    for name in game_names():
        path = HERE / f"{name}.ipynb"
        nbformat.write(game_notebook(name), path)
        written.append(path)
    for p in written:
        print(p.relative_to(ROOT))
    return written


if __name__ == "__main__":
    main()
