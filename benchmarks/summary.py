"""What ``boardgames bench`` prints: a table per game of our interfaces next to the comparable peers and
the ratios, then MaskablePPO and the goals, all read from the run's figures (the dict written as JSON), so
that the summary and the JSON never disagree. ``long_lines`` prints every figure, one a line."""

from __future__ import annotations

PEER_NAMES = {
    "pettingzoo connect_four_v3": "PettingZoo connect_four_v3",
    "openspiel connect_four raw": "OpenSpiel connect_four raw",
    "openspiel connect_four obs+mask": "OpenSpiel connect_four obs+mask",
}
"""How a peer's key reads in the table (pgx's keys read as they are)."""

ROWS = [
    ("PettingZoo API", "pettingzoo", ["pettingzoo connect_four_v3"]),
    ("engine", "engine", ["openspiel connect_four raw"]),
    ("clone+apply", "clone_apply", []),
    ("batched, 1 thread", "batched best", ["openspiel connect_four raw", "openspiel connect_four obs+mask"]),
    ("batched, threads", "threads best", ["openspiel connect_four raw", "pgx connect_four cpu batch {big}"]),
    ("compiled playouts", "compiled playouts", []),
]
"""The summary's rows: (label, the figure's key in a game's row, the peers it is compared with). Each
pair plays the same kind of loop: a user's PettingZoo loop; Python driving the engine one move at a
time; a batch stepped with masks and observations against OpenSpiel's single state (raw, and with its
observation tensor and mask); a batch on every core against pgx's batch on every core, at the largest
batch size measured. Our rows without a peer have no comparable figure among the peers."""

REFERENCE_MARK = "*"
WIDTH = 110
"""The summary's lines stay within this many characters."""


def best_size(row: dict, key: str) -> str:
    """Which measurement a ``... best`` figure is (``row[key + ' is']``), as a short note: '256', '1024 uint8'."""
    which = row.get(f"{key} is", "")
    return which.removeprefix("batched ").removesuffix(" threaded")


def comparisons(result: dict) -> list[dict]:
    """Every (game, our figure, peer) pair of :data:`ROWS` whose figures this run has: ours, the peer's
    (measured, or its reference figure where the peer is not installed), the ratio ours / peer and
    whether the peer's figure is a reference one."""
    peers, references = result["peers"], result.get("reference_figures", {})
    big = max(result.get("sizes") or [1024])
    out = []
    for row in result["games"]:
        for label, key, peer_keys in ROWS:
            if key not in row:
                continue
            for template in peer_keys:
                peer = template.format(big=big)
                value = peers.get(peer) or references.get(peer)
                if not value:
                    continue
                out.append(
                    {
                        "game": row["game"],
                        "ours": label,
                        "figure": key,
                        "ours_turns_per_s": row[key],
                        "peer": peer,
                        "peer_turns_per_s": value,
                        "ratio": row[key] / value,
                        "reference": peer not in peers,
                    }
                )
    return out


def _number(value: float) -> str:
    return f"{value:,.0f}"


def game_table(row: dict, pairs: list[dict]) -> list[str]:
    """One game's table: our interfaces, their turns/s and, beside them, the comparable peers and ratios."""
    lines = [f"{row['game']:38s}{'turns/s':>11s}   {'peer':33s}{'turns/s':>11s}{'ratio':>9s}"]
    for label, key, _peers in ROWS:
        if key not in row:
            continue
        which = best_size(row, key)
        name = f"{label} ({which})" if which else label
        mine = [p for p in pairs if p["game"] == row["game"] and p["figure"] == key]
        ours = f"  {name:36s}{_number(row[key]):>11s}"
        if not mine:
            lines.append(ours)
        for i, pair in enumerate(mine):
            peer = PEER_NAMES.get(pair["peer"], pair["peer"]) + (REFERENCE_MARK if pair["reference"] else "")
            start = ours if i == 0 else " " * len(ours)
            lines.append(f"{start}   {peer:33s}{_number(pair['peer_turns_per_s']):>11s}{pair['ratio']:8.2f}x")
    return lines


def ppo_lines(ppo: dict | None) -> list[str]:
    """MaskablePPO frames/s, the batched VecEnv against DummyVecEnv, as a small table."""
    if not ppo:
        return []
    settings = (
        f"{ppo['n_envs']} games, n_steps {ppo['n_steps']}, batch {ppo['batch_size']}, "
        f"{ppo['n_epochs']} epochs, MLP {ppo['net_arch']}"
    )
    return [
        f"MaskablePPO on {ppo.get('game', 'the first game')} ({settings}), frames/s:",
        f"  {'':33s}{'BatchedVecEnv':>14s}{'DummyVecEnv':>14s}{'ratio':>9s}",
        f"  {'learn()':33s}{_number(ppo['batched']):>14s}{_number(ppo['dummy']):>14s}{ppo['ratio']:8.2f}x",
        f"  {'acting alone (no gradient step)':33s}{_number(ppo['batched rollout']):>14s}"
        f"{_number(ppo['dummy rollout']):>14s}{ppo['rollout ratio']:8.2f}x",
    ]


def goal_lines(result: dict, pairs: list[dict]) -> list[str]:
    """One line per goal of ``result['goals']`` (those docs/performance.md states): met or not met, plainly."""
    lines = []
    for goal in result.get("goals", []):
        if goal["figure"] == "ppo":
            ppo = result.get("ppo")
            found = [("MaskablePPO learn(), BatchedVecEnv / DummyVecEnv", ppo["ratio"])] if ppo else []
        else:
            found = [
                (f"{p['game']}: {p['ours']} / {PEER_NAMES.get(p['peer'], p['peer'])}", p["ratio"])
                for p in pairs
                if p["figure"] == goal["figure"] and p["peer"].startswith(goal["peer"])
            ]
        for what, ratio in found:
            verdict = "met" if ratio >= goal["at_least"] else "not met"
            lines.append(f"  {what}: {ratio:.2f}x, goal {goal['at_least']:g}x or more: {verdict}")
    return ["Goals (docs/performance.md):", *lines] if lines else []


def busy(result: dict) -> bool:
    """Whether other jobs shared the machine when the run began: a load average above half its cores."""
    load, cpus = result.get("load_before"), result.get("cpus")
    return bool(load and cpus and load[0] > cpus / 2)


def summary_lines(result: dict) -> list[str]:
    """The whole summary: a heading, a table per game, the footnote on reference figures, MaskablePPO,
    the goals, and where the full figures are."""
    pairs = result.get("ratios") or comparisons(result)
    lines = [
        f"Random legal play, turns/s, best of {result['rounds']} rounds of {result['seconds']:g} s; "
        "ratio = ours / peer (same run, same machine)",
        "",
    ]
    for row in result["games"]:
        lines += game_table(row, pairs) + [""]
    if any(p["reference"] for p in pairs):
        lines += [
            f"{REFERENCE_MARK} not installed here: its reference figure on the project's machine, not measured "
            "in this run",
            "",
        ]
    for block in (ppo_lines(result.get("ppo")), goal_lines(result, pairs)):
        lines += block + ([""] if block else [])
    if busy(result):
        lines += [
            f"Other jobs shared the machine (load average {result['load_before'][0]:.1f} before the run on "
            f"{result['cpus']} cores):",
            "the figures, the threaded ones most, are below a quiet machine's.",
        ]
    minutes, seconds = divmod(round(result.get("wall_seconds", 0)), 60)
    load = result.get("load") or [0.0]
    lines.append(
        f"Took {minutes} min {seconds:02d} s on {result.get('cpus', '?')} cores (load average {load[0]:.1f} at the "
        f"end). Every figure: {result.get('out', 'the JSON')}"
    )
    if not result.get("full"):
        lines.append("(--verbose prints them; --full also measures every batch size and variant)")
    return lines


def long_lines(result: dict) -> list[str]:
    """Every figure of the run, one a line: each game's measurements and ratios, then the peers."""
    pairs = result.get("ratios") or comparisons(result)
    lines = []
    for row in result["games"]:
        lines.append(f"{row['game']}, turns/s:")
        lines += [f"  {key:52s}{_number(value):>13s}" for key, value in row.items() if isinstance(value, float)]
        lines += [
            f"  {p['ours'] + ' / ' + p['peer']:52s}{p['ratio']:12.2f}x" for p in pairs if p["game"] == row["game"]
        ]
    lines.append("peers, turns/s:")
    lines += [f"  {key:52s}{_number(value):>13s}" for key, value in result["peers"].items()]
    lines += [
        f"  {key + ' (reference, not measured)':52s}{_number(value):>13s}"
        for key, value in result.get("reference_figures", {}).items()
        if key not in result["peers"]
    ]
    return lines
