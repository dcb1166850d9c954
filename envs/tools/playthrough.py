"""Golden playthroughs: a few seeded games of every registered game and option set, written down step by
step, which the tests replay through every way of playing a game (the engine, the batched games, the
PettingZoo adapters) to pin today's behaviour, as OpenSpiel's playthrough files do.

One file per game version and option set (:func:`variants`: each game's ``CONFORMANCE_OPTIONS``, older
versions included), ``tests/golden/<game>[-<option>=<value>...].json``, holds :data:`GAMES_PER_FILE`
games of random legal play from a fixed seed (game 1 "sticky": each seat repeats its previous action when
that is legal, three times in four, which reaches the positions a repeated move makes, such as ADIX's
repetition records), each at most :data:`MAX_DECISIONS` decisions long. Every step records:

* ``position``: the position in notation (``state.to_text()``);
* ``seats``: the seats that act now (none once the game is over);
* ``legal``: the legal actions (indices) of each acting seat, in seat order, written as increasing runs
  (``"0-3,7"`` is 0, 1, 2, 3 and 7: :func:`runs_text`, read back by :func:`parse_runs`);
* ``obs`` / ``obs_uint8``: a digest of every seat's observation, the first :data:`DIGEST_CHARS` hex
  digits of the SHA-256 of its float32 bytes, and of the same planes as the batches' uint8 observations
  (times 255, rounded: :func:`boardgames.envs.vector.loops.quantize`);
* ``actions`` (one per acting seat, in seat order) and ``move`` (the same decision in notation): what was
  played from here (absent at the last step);

and each game its ``returns``, ``terminal`` and ``truncated`` at the end. The games are played through
the engine (:class:`~boardgames.envs.core.game.State`).

Regenerate the files (after a deliberate change of behaviour, or for a new game)::

    python -m boardgames.envs.tools.playthrough --all
    python -m boardgames.envs.tools.playthrough --game dorix --players 3
    python -m boardgames.envs.tools.playthrough --check      # compare the files with the engine, write nothing
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from boardgames.envs.core.game import Game, State
from boardgames.envs.registry import OLDER_VERSIONS, env_module, game_names, make_game
from boardgames.envs.vector.loops import quantize

FORMAT = 1
"""The version of the file layout."""
GAMES_PER_FILE = 2
"""Games per file: game 0 uniformly random, game 1 sticky (see the module docstring)."""
MAX_DECISIONS = 100
"""Decisions at most per game: the files stay small (about half a megabyte for the library's games), and
most games end before (the truncated variants of each game, such as ``max_turns=40``, end every time)."""
STICKY = 0.75
"""Game 1's chance, for each acting seat, of repeating its previous action when that is legal."""
STICKY_GAME = 1
"""The index of the sticky game."""
DIGEST_CHARS = 16
"""Hex digits kept of each SHA-256 digest (64 bits: ample to tell two observations apart)."""
COMMAND = "python -m boardgames.envs.tools.playthrough"


@dataclass(frozen=True)
class Variant:
    """One game version with one option set: what one golden file holds."""

    game: str
    """The registry name: ``"dorix"``, or ``"barc-v0"`` for an older version."""
    options: dict = field(default_factory=dict)

    @property
    def stem(self) -> str:
        """The file name without ``.json``: ``dorix-num_players=3``."""
        return "-".join([self.game, *(f"{k}={v}" for k, v in self.options.items())])

    @property
    def command(self) -> str:
        """The command that writes this variant's file (with the others of its game)."""
        return f"{COMMAND} --game {self.game}"

    def make(self) -> Game:
        return make_game(self.game, **self.options)


def variants(game: str | None = None) -> list[Variant]:
    """Every registered game version (current ones, then older ones) with each option set of its
    ``CONFORMANCE_OPTIONS``; only those of ``game`` (a name, or ``"barc-v0"``) when given."""
    names = list(game_names()) + [f"{name}-v{v}" for name, versions in OLDER_VERSIONS.items() for v in versions]
    out = []
    for name in names:
        if game is not None and game not in (name, name.partition("-v")[0]):
            continue
        for options in getattr(env_module(name), "CONFORMANCE_OPTIONS", [{}]):
            out.append(Variant(name, dict(options)))
    return out


def default_directory() -> Path:
    """``tests/golden`` of the source checkout this module runs from, else of the current directory."""
    checkout = Path(__file__).resolve().parents[2]  # envs/tools/playthrough.py in a checkout
    root = checkout if (checkout / "tests").is_dir() else Path.cwd()
    return root / "tests" / "golden"


def path_of(variant: Variant, directory: Path | None = None) -> Path:
    """The golden file of ``variant`` in ``directory`` (default: :func:`default_directory`)."""
    return Path(directory or default_directory()) / f"{variant.stem}.json"


# ----- legal actions and digests -------------------------------------------------------------------------


def runs_text(actions) -> str:
    """Increasing action indices as runs: ``[0, 1, 2, 3, 7]`` -> ``"0-3,7"`` (``""`` for none)."""
    actions = [int(a) for a in actions]
    parts, i = [], 0
    while i < len(actions):
        j = i
        while j + 1 < len(actions) and actions[j + 1] == actions[j] + 1:
            j += 1
        parts.append(str(actions[i]) if i == j else f"{actions[i]}-{actions[j]}")
        i = j + 1
    return ",".join(parts)


def parse_runs(text: str) -> list[int]:
    """The action indices written by :func:`runs_text`."""
    out: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def digest(array: np.ndarray) -> str:
    """The first :data:`DIGEST_CHARS` hex digits of the SHA-256 of ``array``'s bytes (C order)."""
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:DIGEST_CHARS]


def uint8_planes(obs: np.ndarray) -> np.ndarray:
    """The float32 planes ``obs`` as the batches' uint8 observations hold them (times 255, rounded)."""
    out = np.empty(obs.shape, dtype=np.uint8)
    quantize(np.ascontiguousarray(obs, dtype=np.float32), out)
    return out


def observation_digests(state: State) -> tuple[list, list]:
    """The float32 and uint8 digests of every seat's observation of ``state``."""
    observations = [state.observation(seat) for seat in range(state.game.info.num_seats)]
    return [digest(o) for o in observations], [digest(uint8_planes(o)) for o in observations]


def step_record(state: State) -> dict:
    """What a golden file records of ``state`` (the actions played from it are added by the caller)."""
    seats = [int(s) for s in state.current_seats()]
    obs, obs_uint8 = observation_digests(state)
    return {
        "position": state.to_text(),
        "seats": seats,
        "legal": [runs_text(state.legal_actions(s)) for s in seats],
        "obs": obs,
        "obs_uint8": obs_uint8,
    }


# ----- playing and writing ---------------------------------------------------------------------------


def seed_of(variant: Variant, index: int) -> list:
    """The seed of game ``index`` of ``variant``'s file (NumPy's ``default_rng`` takes the list)."""
    return [index, zlib.crc32(variant.stem.encode())]


def policy_of(index: int) -> str:
    return "sticky" if index == STICKY_GAME else "uniform"


def play(variant: Variant, index: int) -> dict:
    """Game ``index`` of ``variant``: random legal play from its seed, recorded step by step."""
    game = variant.make()
    rng = np.random.default_rng(seed_of(variant, index))
    sticky = policy_of(index) == "sticky"
    previous: dict = {}
    state = game.new_initial_state()
    steps = []
    while True:
        step = step_record(state)
        steps.append(step)
        if state.is_terminal() or len(steps) > MAX_DECISIONS:
            break
        actions = {}
        for seat, runs in zip(step["seats"], step["legal"]):
            legal = parse_runs(runs)
            again = previous.get(seat)
            if sticky and again in legal and rng.random() < STICKY:
                actions[seat] = again
            else:
                actions[seat] = int(legal[rng.integers(len(legal))])
        previous.update(actions)
        step["actions"] = [actions[s] for s in step["seats"]]
        step["move"] = state.actions_to_text(actions)
        state.apply_actions(actions)
    return {
        "index": index,
        "policy": policy_of(index),
        "seed": seed_of(variant, index),
        "terminal": bool(state.is_terminal()),
        "truncated": bool(state.is_truncated()),
        "returns": [float(r) for r in state.returns()],
        "steps": steps,
    }


def generate(variant: Variant) -> dict:
    """The content of ``variant``'s golden file."""
    info = variant.make().info
    return {
        "format": FORMAT,
        "game": variant.game,
        "options": variant.options,
        "command": variant.command,
        "num_seats": info.num_seats,
        "num_actions": info.num_actions,
        "observation_shape": list(info.observation_shape),
        "games": [play(variant, i) for i in range(GAMES_PER_FILE)],
    }


def dumps(content: dict) -> str:
    """``content`` as JSON with one step per line (small diffs when behaviour changes)."""
    header = {k: v for k, v in content.items() if k != "games"}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
    lines.append('  "games": [')
    for g, record in enumerate(content["games"]):
        lines.append("    {")
        lines += [f"      {json.dumps(k)}: {json.dumps(v)}," for k, v in record.items() if k != "steps"]
        lines.append('      "steps": [')
        steps = record["steps"]
        lines += [
            f"        {json.dumps(s, separators=(',', ':'))}{',' if i < len(steps) - 1 else ''}"
            for i, s in enumerate(steps)
        ]
        lines.append("      ]")
        lines.append("    }" + ("," if g < len(content["games"]) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def write(variant: Variant, directory: Path | None = None) -> Path:
    """Play ``variant``'s games and write its golden file; returns its path."""
    path = path_of(variant, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(generate(variant)))
    return path


def read(path: Path) -> dict:
    """A golden file's content (see the module docstring)."""
    content = json.loads(Path(path).read_text())
    if content.get("format") != FORMAT:
        raise ValueError(f"{path}: golden file format {content.get('format')!r}, this library reads {FORMAT}")
    return content


# ----- comparing ---------------------------------------------------------------------------------------


def where(variant: Variant | str, index: int, step: int) -> str:
    """How a mismatch names its place: ``dorix-num_players=3.json, game 1, step 12``."""
    stem = variant.stem if isinstance(variant, Variant) else variant
    return f"{stem}.json, game {index}, step {step}"


def compare_step(expected: dict, state: State) -> list[str]:
    """What differs between a recorded step and ``state`` as the engine has it (empty when nothing)."""
    got = step_record(state)
    problems = []
    for key in ("position", "seats", "legal"):
        if got[key] != expected[key]:
            problems.append(f"{key}: expected {expected[key]!r}, got {got[key]!r}")
    for key in ("obs", "obs_uint8"):
        for seat, (want, have) in enumerate(zip(expected[key], got[key])):
            if want != have:
                problems.append(f"{key} of seat {seat}: expected digest {want}, got {have}")
    idle = [s for s in range(state.game.info.num_seats) if s not in got["seats"] and state.legal_mask(s).any()]
    if idle:
        problems.append(f"seats {idle} do not act but have legal actions")
    return problems


def replay_engine(variant: Variant, content: dict) -> list[str]:
    """Every difference between ``content`` (a golden file of ``variant``) and the engine replaying it:
    each step's position, acting seats, legal actions and observation digests, the notation read back
    (``Game.from_text``) and each move read back (``State.text_to_actions``), and each game's outcome.
    The first difference of each game ends its replay."""
    game = variant.make()
    problems = []
    for record in content["games"]:
        index = record["index"]
        state = game.new_initial_state()
        for t, expected in enumerate(record["steps"]):
            here = where(variant, index, t)
            found = compare_step(expected, state)
            if not found and not np.array_equal(game.from_text(expected["position"]).data, state.data):
                found.append("the position read back from its notation differs from the one played")
            if "actions" in expected and not found:
                actions = dict(zip(expected["seats"], expected["actions"]))
                if state.text_to_actions(expected["move"]) != actions:
                    found.append(f"move {expected['move']!r} reads as {state.text_to_actions(expected['move'])}")
                state.apply_actions(actions)
            if found:
                problems += [f"{here}: engine: {p}" for p in found]
                break
        else:
            outcome = {
                "terminal": bool(state.is_terminal()),
                "truncated": bool(state.is_truncated()),
                "returns": [float(r) for r in state.returns()],
            }
            for key, value in outcome.items():
                if record[key] != value:
                    problems.append(
                        f"{where(variant, index, len(record['steps']) - 1)}: engine: {key}: "
                        f"expected {record[key]!r}, got {value!r}"
                    )
    return problems


# ----- command line ------------------------------------------------------------------------------------


def _selected(args) -> list[Variant]:
    chosen = variants(None if args.all else args.game)
    if args.players is not None:
        chosen = [v for v in chosen if v.options.get("num_players") == args.players]
    if not chosen:
        raise SystemExit(f"no registered game and option set matches (games: {', '.join(game_names())})")
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--all", action="store_true", help="every registered game and option set")
    which.add_argument("--game", help="one game, its option sets and older versions (barc), or one version (barc-v0)")
    parser.add_argument("--players", type=int, help="only the option sets with this num_players")
    parser.add_argument("--out", type=Path, default=None, help="folder of the files (default: tests/golden)")
    parser.add_argument("--check", action="store_true", help="compare the files with the engine, write nothing")
    args = parser.parse_args(argv)
    failed = 0
    for variant in _selected(args):
        path = path_of(variant, args.out)
        if args.check:
            problems = replay_engine(variant, read(path)) if path.exists() else [f"{path} is missing"]
            failed += bool(problems)
            print(f"{path}: {'ok' if not problems else problems[0]}")
        else:
            write(variant, args.out)
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
