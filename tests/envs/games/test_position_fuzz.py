"""Property test of every position parser: mutated valid positions give either a clear NotationError or a
state whose invariants hold and whose notation reads back to the same state.

The valid positions come from seeded random playouts of every game and player count (running, won,
drawn and truncated ones: a short turn limit is among the options); the mutator (seeded, so a failure
is reproduced by its seed) substitutes characters, deletes, duplicates and swaps fields, changes
numbers (to huge ones too), writes digits of other scripts, adds and removes ``over=`` fields and
splices fields of another position of the same game in, one to three of these at a time.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers.games import GAMES

from boardgames.envs.core.errors import NotationError
from boardgames.envs.registry import make_game

SHORT_LIMIT = 12  # a second game per case with this turn limit, for truncated positions
MUTANTS = 800  # mutated positions per case (a second or two each case with the JIT)

OVERS = {
    "dorix": ["over=win:0", "over=win:1", "over=win:2", "over=draw", "over=limit"],
    "olix": ["over=win:0", "over=win:1", "over=draw", "over=limit", "over=super:0:L9", "over=super:1:I8"],
    "adix": ["over=win:0:captain", "over=win:1:team", "over=win:0:stuck", "over=draw", "over=limit"],
    "barc": ["over=win:0", "over=win:1", "over=draw", "over=limit"],
}
NUMBERS = ["0", "1", "2", "7", "12", "30", "200", "-1", "2147483647", "2147483648", "4294967301", "9" * 40, "1_0", "+3"]
FOREIGN_DIGITS = "٠١٢٣٤٥٦٧٨٩²³¹０１２۳߃"
ALPHABET = "0123456789abcdefkwbCTctrpsh-./,:=x~ " + FOREIGN_DIGITS


def _positions(name: str, options: dict, seed: int) -> list:
    """Notation of positions of seeded random playouts: every few turns and each game's end."""
    rng = np.random.default_rng(seed)
    out = []
    for limit in (None, SHORT_LIMIT):
        game = make_game(name, **options) if limit is None else make_game(name, max_turns=limit, **options)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                seats = state.current_seats()
                state.apply_actions({s: int(rng.choice(state.legal_actions(s))) for s in seats})
                if rng.random() < 0.15:
                    out.append(state.to_text())
            out.append(state.to_text())
    return out


def _mutate_once(text: str, rng: np.random.Generator, pool: list, overs: list) -> str:
    tokens = text.split(" ")
    kind = int(rng.integers(9))
    if kind == 0 and text:  # substitute a character
        i = int(rng.integers(len(text)))
        return text[:i] + ALPHABET[int(rng.integers(len(ALPHABET)))] + text[i + 1 :]
    if kind == 1 and len(tokens) > 1:  # delete a field (or the board)
        del tokens[int(rng.integers(1, len(tokens)))]
    elif kind == 2:  # duplicate a field
        tokens.append(tokens[int(rng.integers(len(tokens)))])
    elif kind == 3 and len(tokens) > 2:  # swap two fields (the board among them)
        i, j = rng.choice(np.arange(1, len(tokens)), size=2, replace=False)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 4:  # change a number
        runs = [(k, t) for k, t in enumerate(tokens) if any(c.isdigit() for c in t)]
        if runs:
            k, t = runs[int(rng.integers(len(runs)))]
            digits = [i for i, c in enumerate(t) if c.isdigit()]
            i = digits[int(rng.integers(len(digits)))]
            j = i
            while j < len(t) and t[j].isdigit():
                j += 1
            tokens[k] = t[:i] + NUMBERS[int(rng.integers(len(NUMBERS)))] + t[j:]
    elif kind == 5:  # a digit of another script
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            i = digits[int(rng.integers(len(digits)))]
            return text[:i] + FOREIGN_DIGITS[int(rng.integers(len(FOREIGN_DIGITS)))] + text[i + 1 :]
    elif kind == 6:  # add, replace or remove the result
        tokens = [t for t in tokens if not t.startswith("over=")]
        if rng.random() < 0.7:
            tokens.append(overs[int(rng.integers(len(overs)))])
    elif kind == 7:  # a field (or the board) of another position of the same game
        other = pool[int(rng.integers(len(pool)))].split(" ")
        k = int(rng.integers(1, len(other)))
        key = other[k].partition("=")[0]
        same = [i for i, t in enumerate(tokens) if i > 0 and (t.partition("=")[0] == key if "=" in t else k == 1)]
        if same:
            tokens[same[0]] = other[k]
        else:
            tokens.append(other[k])
    elif kind == 8:  # a field's value emptied or made huge
        k = int(rng.integers(1, len(tokens)))
        key, eq, _ = tokens[k].partition("=")
        tokens[k] = key + eq + ("" if rng.random() < 0.5 else "9" * 25)
    return " ".join(tokens)


def _mutate(text: str, rng: np.random.Generator, pool: list, overs: list) -> str:
    for _ in range(1 if rng.random() < 0.5 else int(rng.integers(2, 4))):
        text = _mutate_once(text, rng, pool, overs)
    return text


@pytest.mark.parametrize("name,options", GAMES, ids=[f"{n}-{o.get('num_players', 2)}p" for n, o in GAMES])
def test_mutated_positions_are_refused_clearly_or_read_as_possible_states(name, options):
    seed = sum(map(ord, name)) + options.get("num_players", 2)
    pool = _positions(name, options, seed)
    games = [make_game(name, **options), make_game(name, max_turns=SHORT_LIMIT, **options)]
    rng = np.random.default_rng(seed)
    refused = accepted = 0
    for _ in range(MUTANTS):
        text = _mutate(pool[int(rng.integers(len(pool)))], rng, pool, OVERS[name])
        game = games[int(rng.integers(2))]
        try:
            state = game.from_text(text)
        except NotationError as e:
            assert str(e).strip(), f"empty NotationError message for {text!r}"
            refused += 1
            continue
        except Exception as e:  # noqa: BLE001 - anything else is the failure this test looks for
            pytest.fail(f"{type(e).__name__} (not a NotationError) from {text!r}: {e}")
        accepted += 1
        try:
            state.check_invariants()
        except AssertionError as e:
            pytest.fail(f"from_text({text!r}) gave a state breaking an invariant: {e}")
        again = game.from_text(state.to_text())
        assert again == state, f"{text!r} -> {state.to_text()!r} does not read back to the same state"
        assert again.to_text() == state.to_text()
    # the mutations reach both outcomes: the test exercises the parser, not only its first check
    assert refused > MUTANTS // 10 and accepted > MUTANTS // 50, (refused, accepted)


@pytest.mark.parametrize("name,options", GAMES, ids=[f"{n}-{o.get('num_players', 2)}p" for n, o in GAMES])
def test_playout_positions_read_back(name, options):
    """The unmutated positions (the pool of the test above) all parse back to themselves."""
    games = [make_game(name, **options), make_game(name, max_turns=SHORT_LIMIT, **options)]
    for text in _positions(name, options, 1):
        states = []
        for game in games:
            try:
                states.append(game.from_text(text))
            except NotationError:  # a position of the other turn limit (its turn past this one's limit)
                continue
        assert states, f"{text!r} is refused by both games"
        assert all(s.to_text() == text for s in states)
