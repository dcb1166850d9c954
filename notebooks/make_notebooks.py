"""Write the notebooks of this folder: one per registered game (``<game>.ipynb``) and one on
benchmarking agents (``benchmarking.ipynb``).

    python notebooks/make_notebooks.py

Every game notebook has the same sections, written once here: the rules shown on pictures
(positions in the game's notation, listed per game in ``RULE_PICTURES``), a random game (move list
and GIF), a scripted position played from notation through the PettingZoo environment, a small agent
trained with MaskablePPO, its learning curve, and a match against baselines; the random game is also
shown as an inline replay (``boardgames.play.web.notebook``). A game registered
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

from boardgames.envs.registry import env_module, game_names  # noqa: E402

START_BARC = "barc 0.1.0.1.0.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.1.0.1.0.1 turn=0"
ADIX_START = (
    "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/9/ThpsThpsThpsThpsThpsThpsThpsThpsThps/4Crps4 "
    "move=0 turn=0 quiet=0"
)
ADIX_CAPTURE = (
    "adix 9/thpsthpsthpsthpscrpsthps1thpsthps/3tpsh3tprs1/9/8Tpsr/9/9/ThpsThpsThpsThpsThpsThpsThps1Tsph/4Crsp4 "
    "move=0 turn=14 quiet=0 rep=0:i2:E:1 last=g7h7"
)
ADIX_WIN = (
    "adix 9/thpsthpsthpsthpscrpsthps1thpsthps/3Tsph5/3tpsh2Tspr2/9/9/9/ThpsThpsThpsThpsThpsThpsThps2/4Crsp2tprs1 "
    "move=1 turn=19 quiet=0 last=i4g6"
)

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
        "extra": [
            (
                "**Three and four players.** With 3 players each has 12 pawns; with 4, 10 each, and the partners "
                "sitting face to face form teams (player_0 + player_2 against player_1 + player_3): a diagonal "
                "topped by either partner wins for the team. Positions after a few random moves:",
                "three = random_record(make_game(GAME, num_players=3), seed=3, max_moves=12).last\n"
                "four = random_record(make_game(GAME, num_players=4), seed=3, max_moves=16).last\n"
                "show(three, four, titles=['3 players', '4 players, 2 teams'])",
            )
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
    "adix": {
        "options": {},
        "pictures": [
            (
                "**The start.** Each player has a captain (gold ring, rock on top) and 9 teammates showing "
                "their shelter: a sheltered cube is never captured and can only tilt. Only the top face is "
                "active; the letters on the edges are the side faces.",
                ADIX_START,
                [],
            ),
            (
                "**Tilting.** A cube rolls onto an adjacent empty square and shows a new top face: the "
                "teammate on e2 rolls north to e3 and now shows paper.",
                ADIX_START,
                ["e2~e3"],
            ),
            (
                "**Capture.** Rock moves in the 8 directions, paper orthogonally, scissors diagonally (a "
                "teammate slides any distance, the captain one square), and rock beats scissors beats paper "
                "beats rock. White's scissors on i2 slide to d7 and cut Black's paper.",
                ADIX_CAPTURE,
                ["i2xd7"],
            ),
            (
                "**Capturing the captain wins.** Black's paper on h1 slides to e1 and captures White's "
                "captain, which shows rock.",
                ADIX_WIN,
                ["h1xe1"],
            ),
        ],
        "scripted": (ADIX_START, ["e2~e3", "e8~e7"]),
        "match_games": 40,  # ADIX games last up to 300 turns
        "train_note": (
            "Expect little from so short a run on ADIX: measured on the development machine, 30,000 steps "
            "gave 7% wins, 89% draws and 4% losses against random over 100 games (most games reach the turn "
            "limit). Longer self-play runs (`boardgames train --game adix`) are needed."
        ),
    },
    "barc": {
        "options": {},
        "pictures": [
            (
                "**The start** (ruling B1, revised). Both back ranks alternate the colours: player_0 (South, "
                "light) on a1, c1, e1, a6, c6, e6, player_1 (North, dark) on b1, d1, f1, b6, d6, f6. Each turn "
                "both players give one order at the same time.",
                START_BARC,
                [],
            ),
            (
                "**Simultaneous orders, and a clash.** Turns 1 and 2: both orders succeed. Turn 3: both orders "
                "name c4, so nobody moves. The picture shows both players' last orders.",
                START_BARC,
                [
                    "player_0: c1-c2 | player_1: d6-d5",
                    "player_0: c2-c3 | player_1: d5-d4",
                    "player_0: c3-c4 | player_1: d4-c4",
                ],
            ),
            (
                "**Capture by stacking.** A stack moves onto an enemy stack and covers it: the new stack "
                "belongs to the top pawn, and a stack of h pawns may move up to h squares (here a1-b1 covers "
                "North's b1, then the stack of 2 moves two squares).",
                START_BARC,
                ["player_0: a1-b1 | player_1: stay", "player_0: b1-b3 | player_1: stay"],
            ),
            (
                "**Three in a row wins.** Three neighbouring squares in a row, column or diagonal topped by "
                "one's colour win (here b2, c2, d2).",
                START_BARC,
                [
                    "player_0: a1-b2 | player_1: stay",
                    "player_0: c1-c2 | player_1: stay",
                    "player_0: e1-d2 | player_1: stay",
                ],
            ),
        ],
        "scripted": (START_BARC, ["c1-c2 | d6-d5", "c2-c3 | d5-d4", "c3-c4 | d4-c4"]),
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
        f"Environment: `boardgames.envs.{name}_v0`.\n\n"
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

from boardgames.envs.tools.replay import GameRecord, random_record
from boardgames.envs.registry import env_module, make_game

QUICK = os.environ.get("NOTEBOOK_QUICK") == "1"
OUT = Path(tempfile.gettempdir()) / "boardgame_notebooks"
OUT.mkdir(exist_ok=True)

GAME = {game!r}
OPTIONS = {options!r}
MATCH_GAMES = {match_games}  # games against each baseline (without NOTEBOOK_QUICK)
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
    for text, code in spec.get("extra", []):
        cells += [new_markdown_cell(text), new_code_cell(code)]
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
record = random_record(game, seed=0, max_moves=16 if QUICK else None)  # the whole game unless QUICK
print(record.to_text())
show(record.last, titles=["the end of a random game"])
gif = record.save_gif(OUT / f"{GAME}_random.gif", duration_ms=300)
print("GIF:", gif, "-", len(record) + 1, "frames")
display(Image(filename=gif))"""

INLINE_REPLAY = """\
from boardgames.play.web.notebook import InlineReplay

InlineReplay(random_record(game, seed=0, max_moves=30), scale=0.4)  # the same seed: the same first moves"""

SCRIPTED = """\
POSITION = {position!r}
MOVES = {moves!r}
module = env_module(GAME)
if game.info.simultaneous:
    from boardgames.envs.tools.replay import parse_move

    env = module.parallel_env(render_mode="rgb_array", **OPTIONS)
    env.reset(seed=0, options={{"position": POSITION}})
    for text in MOVES:
        state = env.unwrapped.game_state
        orders = [order.split(":")[-1].strip() for order in text.split("|")]
        agents = env.agents
        actions = {{agent: parse_move(state, order, seat) for seat, (agent, order) in enumerate(zip(agents, orders))}}
        print("orders:", orders)
        observations, rewards, terminations, truncations, infos = env.step(actions)
    print(env.unwrapped.game_state.render_text())
    plt.imshow(env.render())
    plt.axis("off")
    plt.show()
    env.close()
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
    cells = [
        new_markdown_cell(_intro(name)),
        new_code_cell(SETUP.format(game=name, options=options, match_games=spec.get("match_games", 100))),
    ]
    cells += _rule_cells(name, spec)
    cells.append(
        new_markdown_cell(
            "## A random game\n\nBoth sides play uniformly random legal moves. The game "
            "is printed as a move list in notation and saved as an animated GIF, one frame "
            "per turn (`boardgames.envs.tools.replay`)."
        )
    )
    cells.append(new_code_cell(RANDOM_GAME))
    cells.append(
        new_markdown_cell(
            "The first moves of the same game as an inline replay: step with the buttons, the slider, the arrow "
            "keys or a click on a move (`boardgames.play.web.notebook`: plain HTML and JavaScript in the output, no "
            "server). `boardgames web --replay FILE` shows a saved move list the same way in the browser, "
            "and `boardgames play --game GAME --web` plays against an agent there."
        )
    )
    cells.append(new_code_cell(INLINE_REPLAY))
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


TRAIN = """\
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor

from boardgames.envs.adapters.single_agent import SingleAgentEnv

torch.set_num_threads(1)
STEPS = 512 if QUICK else {steps}
train_env = Monitor(SingleAgentEnv(game=GAME, game_options=OPTIONS, opponent="random"))
model = MaskablePPO("MlpPolicy", train_env, n_steps=256 if QUICK else 1024, batch_size=64, seed=0, verbose=0)
model.learn(total_timesteps=STEPS)
print(f"trained {{STEPS}} steps, {{len(train_env.get_episode_rewards())}} games")"""

CURVE = """\
rewards = np.asarray(train_env.get_episode_rewards(), dtype=float)
steps = np.cumsum(train_env.get_episode_lengths())
window = max(1, min(50, len(rewards) // 5))
smooth = np.convolve(rewards, np.ones(window) / window, mode="valid")
plt.figure(figsize=(7, 3.5))
plt.plot(steps, rewards, ".", alpha=0.25, label="one game")
plt.plot(steps[window - 1 :], smooth, label=f"mean of {window} games")
plt.xlabel("training steps")
plt.ylabel("reward of the learner (+1 win, -1 loss)")
plt.title(f"MaskablePPO on {GAME} against a random opponent")
plt.legend()
plt.show()"""

MATCH = """\
from boardgames.envs.tools.replay import play_record
from boardgames.training.agent_kinds import PolicyAgent, make_agent
from boardgames.training.evaluation.evaluate import fit_elo, format_table, play_match

GAMES = 4 if QUICK else MATCH_GAMES
learner = PolicyAgent(model.policy, name="ppo")
results = [
    play_match(game, learner, make_agent(baseline, game, seed=1), GAMES, seed=0, name_a="ppo", name_b=baseline)
    for baseline in ("random", "greedy")
]
print(format_table(results, fit_elo(["ppo", "random", "greedy"], results)))

# one game of the trained agent (seat 0) against greedy, as a move list and a GIF
seat_agents = [learner] + [make_agent("greedy", game, seed=2)] * (game.info.num_seats - 1)
record = play_record(game, seat_agents, max_moves=16 if QUICK else 150)  # at most 150 moves in the GIF
print(record.to_text()[-400:])
display(Image(filename=record.save_gif(OUT / f"{GAME}_ppo_vs_greedy.gif", duration_ms=300)))"""


def training_cells(name: str) -> list:
    """Train a small agent, its learning curve, a match against baselines."""
    steps = RULE_PICTURES.get(name, {}).get("train_steps", TRAIN_STEPS["full"])
    note = RULE_PICTURES.get(name, {}).get("train_note", "")
    return [
        new_markdown_cell(
            "## Training a small agent\n\nOne learning seat (chosen at random each game) plays "
            "against random opponents through the single-agent wrapper `boardgames.envs.adapters.single_agent`; "
            "sb3-contrib's MaskablePPO reads the legal moves from `action_masks()`. A few minutes on "
            "a CPU (seconds with `NOTEBOOK_QUICK=1`). `boardgames train` does the same with "
            "self-play, checkpoints and TensorBoard logs (see `docs/training.md`)." + ("\n\n" + note if note else "")
        ),
        new_code_cell(TRAIN.format(steps=steps)),
        new_markdown_cell(
            "## Its learning curve\n\nThe learner's reward per training game (+1 win, -1 loss, 0 "
            "draw or turn limit) and its running mean."
        ),
        new_code_cell(CURVE),
        new_markdown_cell(
            "## A match against the baselines\n\nThe trained agent plays the random and the greedy "
            "baselines (`boardgames.training.evaluation.evaluate.play_match`, sides swapped from game to game); the table "
            "gives 95% confidence intervals on its win rate. One game against greedy is shown as a "
            "move list and a GIF. `boardgames evaluate` plays whole round robins with Elo "
            "ratings (see the benchmarking notebook)."
        ),
        new_code_cell(MATCH),
    ]


BENCH_SETUP = """\
import os
import sys
import time
from pathlib import Path

ROOT = Path.cwd() if (Path.cwd() / "envs").is_dir() else Path.cwd().parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import matplotlib.pyplot as plt
import numpy as np
import torch

from boardgames.envs.tools.replay import random_record
from boardgames.envs.registry import game_names, make_game
from boardgames.training.agent_kinds import make_agent
from boardgames.training.evaluation.evaluate import format_table, round_robin, wilson_interval

torch.set_num_threads(1)
QUICK = os.environ.get("NOTEBOOK_QUICK") == "1"
# games per pair of agents, MCTS simulations per move, game options; ADIX games are long and its MCTS
# rollouts too, so it gets fewer games, fewer simulations and a shorter turn limit (a draw when reached)
DEFAULT = {"games": 20, "mcts": 50, "options": {}}
SETTINGS = {"adix": {"games": 10, "mcts": 10, "options": {"max_turns": 120}}}
QUICK_SETTINGS = {"games": 2, "mcts": 4}


def settings(name):
    conf = {**DEFAULT, **SETTINGS.get(name, {})}
    if QUICK:
        conf.update(QUICK_SETTINGS)
        conf["options"] = {k: min(v, 40) if k == "max_turns" else v for k, v in conf["options"].items()}
    return conf


def baselines(name):
    return ["random", "greedy", f"mcts:{settings(name)['mcts']}"]


def shipped_model(name):
    \"\"\"The trained model shipped for the game's default options, if any (models/<game>_2p or models/<game>).\"\"\"
    for folder in (ROOT / "models" / f"{name}_2p", ROOT / "models" / name):
        if list(folder.glob("*.zip")):
            return str(folder)
    return None


print("games:", game_names())"""

BENCH_SPEED = """\
rows = []
for name in game_names():
    game = make_game(name, **settings(name)["options"])
    # a position a few random moves in, still running (a Barc game can end within ten moves)
    state = [s for s in random_record(game, seed=0, max_moves=10).states() if not s.is_terminal()][-1]
    specs = baselines(name) + ([shipped_model(name)] if shipped_model(name) else [])
    for spec in specs:
        try:
            agent = make_agent(spec, game, seed=0)
        except ValueError as e:  # a model trained for other options
            print(f"{name}: skipping {spec}: {e}")
            continue
        seat = state.current_seats()[0]
        agent(state.clone(), seat)  # warm-up (compilation, model load)
        n = 3 if QUICK else 20
        start = time.perf_counter()
        for _ in range(n):
            agent(state.clone(), seat)
        rows.append((name, Path(spec).name if "/" in spec else spec, 1000 * (time.perf_counter() - start) / n))
print(f"{'game':<8}{'agent':<14}{'ms per move':>12}")
for name, spec, ms in rows:
    print(f"{name:<8}{spec:<14}{ms:>12.2f}")"""

BENCH_RR = """\
tables = {}
for name in game_names():
    conf = settings(name)
    game = make_game(name, **conf["options"])
    specs = baselines(name)
    model = shipped_model(name)
    if model:
        try:
            make_agent(model, game)
            specs.append(model)
        except ValueError as e:
            print(f"{name}: skipping {model}: {e}")
    results, elo = round_robin(game, specs, games=conf["games"], seed=0, show_progress=False)
    tables[name] = (results, elo)
    label = f"{name} {conf['options']}" if conf["options"] else name
    print(f"== {label}: {conf['games']} games per pair ==")
    print(format_table(results, elo))
    print()"""

BENCH_PLOT = """\
names = list(tables)
# one bar per kind of agent (the MCTS budget differs from game to game, each game has its own model)
def kind(agent):
    return "mcts" if agent.startswith("mcts") else agent if agent in ("random", "greedy") else "trained model"


tables = {g: (res, {kind(a): v for a, v in elo.items()}) for g, (res, elo) in tables.items()}
for g, (res, _) in tables.items():
    for p in res:
        p.a, p.b = kind(p.a), kind(p.b)
agents = sorted({a for _, elo in tables.values() for a in elo}, key=lambda a: (a != "random", a))
fig, axes = plt.subplots(1, 2, figsize=(12, 4))
width = 0.8 / max(1, len(agents))
for k, agent in enumerate(agents):
    values = [tables[g][1].get(agent, np.nan) for g in names]
    axes[0].bar(np.arange(len(names)) + k * width, values, width, label=agent, color=f"C{k}")
axes[0].set_xticks(np.arange(len(names)) + width * (len(agents) - 1) / 2, names)
axes[0].axhline(0, color="black", linewidth=0.8)
axes[0].set_ylabel("Elo (random = 0)")
axes[0].set_title("Elo rating per game")
axes[0].legend(fontsize=8)

# win rate of each agent against random, with 95% confidence intervals
for k, agent in enumerate([a for a in agents if a != "random"]):
    rates, lows, highs = [], [], []
    for g in names:
        pair = next((p for p in tables[g][0] if {p.a, p.b} == {agent, "random"}), None)
        wins = 0 if pair is None else (pair.wins if pair.a == agent else pair.losses)
        games = 0 if pair is None else pair.games
        rate = wins / games if games else np.nan
        lo, hi = wilson_interval(wins, games) if games else (0.0, 0.0)
        rates.append(rate)
        lows.append(rate - lo if games else 0.0)
        highs.append(hi - rate if games else 0.0)
    x = np.arange(len(names)) + k * width
    axes[1].bar(x, rates, width, yerr=[lows, highs], capsize=3, label=agent, color=f"C{agents.index(agent)}")
axes[1].set_xticks(np.arange(len(names)) + width * (len(agents) - 2) / 2, names)
axes[1].set_ylim(0, 1)
axes[1].set_ylabel("wins against random")
axes[1].set_title("Win rate against the random agent")
axes[1].legend(fontsize=8)
plt.tight_layout()
plt.show()"""


def benchmark_notebook() -> nbformat.NotebookNode:
    cells = [
        new_markdown_cell(
            "# Benchmarking agents on these games\n\nThe baseline agents of `boardgames.training.agent_kinds` (uniform "
            "random, greedy one-move lookahead, MCTS with random rollouts) and the trained models shipped in "
            "`models/` are compared on every registered game with `boardgames.training.evaluation.evaluate`: each pair plays "
            "a number of games with the sides swapped from game to game; the tables give wins, draws and "
            "losses with 95% confidence intervals, and an Elo rating per agent (random = 0). The same runs "
            "from the command line: `boardgames evaluate --game dorix --agents random greedy mcts "
            "--games 200`.\n\nWith `NOTEBOOK_QUICK=1` every count is tiny (the test suite runs it that way); "
            "without it the notebook takes a few minutes on a CPU."
        ),
        new_code_cell(BENCH_SETUP),
        new_markdown_cell("## Thinking time\n\nMilliseconds per decision on a position after 10 random moves."),
        new_code_cell(BENCH_SPEED),
        new_markdown_cell("## Round robins"),
        new_code_cell(BENCH_RR),
        new_markdown_cell("## Plot"),
        new_code_cell(BENCH_PLOT),
    ]
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
    path = HERE / "benchmarking.ipynb"
    nbformat.write(benchmark_notebook(), path)
    written.append(path)
    for p in written:
        print(p.relative_to(ROOT))
    return written


if __name__ == "__main__":
    main()
