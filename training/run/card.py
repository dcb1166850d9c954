"""The model card's machine-readable front matter, the same for every family: Hugging Face style YAML between
two ``---`` lines at the top of the card, which a model hub or any tool can read without parsing the prose.

It holds ``library_name``, ``tags``, the game (its name, registry id, options and environment version), the
family and algorithm, the Elo of the model (random = 0) with its 95% interval, the figures of every pair the
model played in the card's evaluation (games, wins, draws, losses, win rate and its 95% Wilson interval) and a
``model-index`` as the hub reads metrics. Elo and intervals come from the card's own games: one Bradley-Terry
fit over every pair (:func:`boardgames.training.evaluation.evaluate.fit_elo`), the interval from a seeded
parametric bootstrap of those games (:func:`boardgames.training.evaluation.leaderboard.bootstrap_elo`), so the
same games always give the same front matter.

The values are written in JSON's flow form, which YAML reads as it is: every line is ``key: <JSON>``, or
``key:`` followed by ``- <JSON>`` items. :func:`parse_front_matter` reads that form back strictly (anything else
is a :class:`CardFormatError` naming the line), so no YAML library is needed.

The families' card commands (``python -m boardgames.training.sb3.card``, ``...alphazero.card``) write it with the
card; ``python -m boardgames.training.run.card models/<name>`` writes or refreshes it on an existing card from the
figures the model folder already holds (``results.csv``, and ``meta.json``, ``alphazero.json`` or ``run.json``
for the game), without playing a game: that is how the shipped cards got theirs.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

LIBRARY = "boardgames"
BOOTSTRAP_SAMPLES = 200
"""Fits in the bootstrap of the Elo interval (seeded: the same games give the same interval)."""
CARD_NAMES = ("card.md", "README.md")
"""Where a model folder keeps its card (the RLlib models' card is their README)."""


class CardFormatError(ValueError):
    """A card whose front matter is not in the form :func:`front_matter` writes; the message names the line."""


# ----- the metadata ---------------------------------------------------------------------------------


def card_metadata(
    results: list,
    *,
    family: str,
    algorithm: str,
    game: str,
    options: dict,
    env_version: int,
    seed: int = 0,
    elo: dict | None = None,
) -> dict:
    """The front matter of a card whose evaluation played ``results`` (PairResults; the model is the first
    pair's agent A): the model's family and algorithm, the game, the Elo and every pair of the model. ``elo``:
    the ratings the card shows (``{name: Elo}``, fitted again from ``results`` when None)."""
    from boardgames.training.evaluation.evaluate import fit_elo
    from boardgames.training.evaluation.leaderboard import bootstrap_elo

    if not results:
        raise ValueError("a card's front matter needs the card's games; there are none")
    model = results[0].a
    names = list(dict.fromkeys(n for r in results for n in (r.a, r.b)))
    anchor = "random" if "random" in names else None
    elo = dict(elo) if elo is not None else fit_elo(names, results, anchor=anchor)
    low_high = bootstrap_elo(names, results, BOOTSTRAP_SAMPLES, seed, anchor=anchor) if anchor else {}
    pairs = [_pair_metrics(r, model, elo, low_high) for r in results if model in (r.a, r.b)]
    setting = ", ".join(f"{k}={v}" for k, v in options.items())
    return {
        "library_name": LIBRARY,
        "tags": ["reinforcement-learning", "board-games", "self-play", game, family, algorithm],
        "game": {
            "name": game,
            "env_id": f"{LIBRARY}/{game}-v{env_version}",
            "options": options,
            "env_version": env_version,
        },  # fmt: skip
        "family": family,
        "algorithm": algorithm,
        "elo": {
            "value": round(elo[model], 1),
            "interval_95": _interval(low_high.get(model)),
            "anchor": f"{anchor} = 0" if anchor else "mean = 0",
            "games": sum(r.games for r in results),
        },
        "metrics": pairs,
        "model-index": [
            {
                "name": model,
                "results": [
                    {
                        "task": {"type": "reinforcement-learning", "name": "self-play"},
                        "dataset": {"type": game, "name": game + (f" ({setting})" if setting else "")},
                        "metrics": [
                            {"type": "elo", "name": f"Elo ({anchor or 'mean'} = 0)", "value": round(elo[model], 1)},
                            *(
                                {"type": "win_rate", "name": f"win rate vs {p['opponent']}", "value": p["win_rate"]}
                                for p in pairs
                            ),
                        ],
                    }
                ],
            }
        ],
    }


def _pair_metrics(r, model: str, elo: dict, low_high: dict) -> dict:
    """One pair's figures, counted for ``model`` (its results flipped when the model was agent B)."""
    from boardgames.training.evaluation.evaluate import PairResult

    if r.a != model:
        r = PairResult(model, r.a, r.losses, r.draws, r.wins)
    lo, hi = r.win_interval()
    return {
        "opponent": r.b,
        "games": r.games,
        "wins": r.wins,
        "draws": r.draws,
        "losses": r.losses,
        "win_rate": round(r.win_rate, 4),
        "win_rate_95": [round(lo, 4), round(hi, 4)],
        "opponent_elo": round(elo[r.b], 1),
        "opponent_elo_95": _interval(low_high.get(r.b)),
    }


def _interval(low_high) -> list | None:
    return [round(low_high[0], 1), round(low_high[1], 1)] if low_high is not None else None


# ----- writing and reading --------------------------------------------------------------------------


def front_matter(meta: dict) -> str:
    """``meta`` as the card's front matter: ``---``, one ``key: <JSON>`` line per entry (a list of tables as
    ``- <JSON>`` items, one a line), ``---``."""
    lines = ["---"]
    for key, value in meta.items():
        _check_key(key)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            lines.append(f"{key}:")
            lines += [f"- {_json(v)}" for v in value]
        else:
            lines.append(f"{key}: {_json(value)}")
    return "\n".join([*lines, "---", ""])


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _check_key(key) -> None:
    if not isinstance(key, str) or not key or not all(c.isalnum() or c in "_-" for c in key):
        raise ValueError(f"a front matter key is letters, digits, '_' and '-', got {key!r}")


def parse_front_matter(text: str) -> tuple[dict, str]:
    """``(metadata, body)`` of a card: the front matter as :func:`front_matter` writes it, and the text after
    it; ``({}, text)`` when the card has none. :class:`CardFormatError` naming the line that is not in that
    form."""
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        return {}, text
    try:
        end = lines.index("---", 1)
    except ValueError:
        raise CardFormatError("the front matter opened by '---' on line 1 is never closed by a '---' line") from None
    meta: dict = {}
    key = None
    for number, line in enumerate(lines[1:end], start=2):
        if line.startswith("- ") and key is not None and isinstance(meta[key], list):
            meta[key].append(_value(line[2:], number))
            continue
        name, colon, rest = line.partition(":")
        if not colon or name in meta or not name or name != name.strip():
            raise CardFormatError(f"front matter line {number}: expected 'key: <JSON>' or '- <JSON>', got {line!r}")
        _check_key(name)
        key = name
        meta[key] = [] if rest == "" else _value(rest.removeprefix(" "), number)
    return meta, "\n".join(lines[end + 1 :])


def _value(text: str, number: int):
    try:
        return json.loads(text)
    except ValueError as e:
        raise CardFormatError(f"front matter line {number}: not a JSON value ({e}): {text[:80]!r}") from None


def with_front_matter(meta: dict, card: str) -> str:
    """``card`` with ``meta`` as its front matter (in place of the one it had, if any)."""
    return front_matter(meta) + parse_front_matter(card)[1]


# ----- a model folder's card ------------------------------------------------------------------------


def read_results(path: str | Path) -> list:
    """The pairs of a ``results.csv`` (as :func:`boardgames.training.evaluation.evaluate.save_results` writes
    it) as PairResults."""
    from boardgames.training.evaluation.evaluate import PairResult

    with open(path, newline="") as f:
        return [PairResult(r["agent_a"], r["agent_b"], int(r["wins"]), int(r["draws"]), int(r["losses"]))
                for r in csv.DictReader(f)]  # fmt: skip


def read_elo(path: str | Path) -> dict | None:
    """The ratings of an ``elo.csv`` (``{agent: Elo}``), None when there is no such file."""
    if not Path(path).is_file():
        return None
    with open(path, newline="") as f:
        return {r["agent"]: float(r["elo"]) for r in csv.DictReader(f)}


def stored_model(folder: str | Path) -> dict:
    """``{family, algorithm, game, options, env_version}`` of a model folder, from the files it holds: an
    AlphaZero network (``alphazero.json``), an SB3 model (``meta.json``) or an RLlib policy (``run.json`` beside
    ``policy.pt``). ValueError when it is none of them."""
    from boardgames.training.storage.model_version import model_version

    folder = Path(folder)
    if (folder / "alphazero.json").is_file():
        meta = json.loads((folder / "alphazero.json").read_text())
        family, algorithm, options = "alphazero", "alphazero", meta.get("options", {})
    elif (folder / "meta.json").is_file():
        meta = json.loads((folder / "meta.json").read_text())
        family, algorithm, options = "sb3", meta.get("algorithm") or "maskable_ppo", meta.get("game_options", {})
    elif (folder / "policy.pt").is_file() and (folder / "run.json").is_file():
        meta = json.loads((folder / "run.json").read_text())
        family, algorithm, options = "rllib", "ppo", meta.get("options", {})
    else:
        raise ValueError(f"{folder}: no model whose card this writes (alphazero.json, meta.json, or policy.pt "
                         "with run.json)")  # fmt: skip
    return {"family": family, "algorithm": algorithm, "game": meta["game"], "options": options,
            "env_version": model_version(meta)}  # fmt: skip


def card_path(folder: str | Path) -> Path:
    """The card of a model folder (``card.md``, else ``README.md``); FileNotFoundError when it has none."""
    for name in CARD_NAMES:
        if (Path(folder) / name).is_file():
            return Path(folder) / name
    raise FileNotFoundError(f"{folder}: no card ({' or '.join(CARD_NAMES)})")


def refresh_front_matter(folder: str | Path, seed: int = 0) -> Path:
    """Write (or replace) the front matter of the card of the model ``folder`` from the figures it holds
    (``results.csv``: the card's games, ``elo.csv``: the ratings it shows, when there is one); the card's text is
    left as it is. Returns the card's path."""
    folder = Path(folder)
    results, elo = read_results(folder / "results.csv"), read_elo(folder / "elo.csv")
    meta = card_metadata(results, **stored_model(folder), seed=seed, elo=elo)
    path = card_path(folder)
    path.write_text(with_front_matter(meta, path.read_text()))
    return path


def main(argv: list | None = None) -> None:
    p = argparse.ArgumentParser(
        prog="python -m boardgames.training.run.card",
        description="Write the machine-readable front matter of model cards from the figures their folders hold "
        "(results.csv), without playing a game.",
    )
    p.add_argument("folders", nargs="+", help="model folders (models/dorix_2p ...)")
    p.add_argument("--seed", type=int, default=0, help="seed of the Elo interval's bootstrap (default 0)")
    args = p.parse_args(argv)
    for folder in args.folders:
        try:
            print(f"front matter written: {refresh_front_matter(folder, args.seed)}")
        except (OSError, ValueError, KeyError) as e:
            p.error(f"{folder}: {type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
