"""The docs and the code agree on observation planes, action encoding and notation.

Each game's spec (``envs/<game>/spec.py``) is the one written source of the three; here it is checked
against the code (plane and action counts, value ranges over random games, hand-built observations,
every notation example), and the docs against the spec (the tables of ``docs/rules/<game>.md`` are the
generated ones; the ``_v0`` module docstring is built from them)."""

from __future__ import annotations

import importlib
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from boardgames.envs.core.spec import SECTIONS, fill_sections, marked_sections
from boardgames.envs.registry import env_module, game_names, make_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = game_names()


def spec_of(name: str):
    return importlib.import_module(f"boardgames.envs.{name}.spec").SPEC


def option_sets(name: str) -> list:
    """Every option set the conformance suite builds the game with (Dorix: 2, 3 and 4 players)."""
    return [dict(o) for o in getattr(env_module(name), "CONFORMANCE_OPTIONS", [{}])]


def game_cases():
    return [pytest.param(name, opts, id=f"{name}-{opts}") for name in GAMES for opts in option_sets(name)]


# ----- docs against the spec ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_rules_page_tables_are_the_generated_ones(name):
    path = ROOT / "docs" / "rules" / f"{name}.md"
    text = path.read_text(encoding="utf-8")
    assert sorted(marked_sections(text)) == sorted(SECTIONS), f"{path.name}: expected one marked block per section"
    assert fill_sections(text, spec_of(name)) == text, (
        f"{path.name}: the spec tables are stale; run python -m docs.make_spec_tables"
    )


def test_make_spec_tables_check_passes():
    done = subprocess.run(
        [sys.executable, "-m", "docs.make_spec_tables", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name", GAMES)
def test_env_docstring_is_built_from_the_spec(name):
    spec = spec_of(name)
    doc = env_module(name).__doc__
    for section in SECTIONS:
        assert spec.markdown(section) in doc, f"{name}_v0's docstring lacks the spec's {section} section"
    assert "<!-- spec:" not in doc
    # the summary table at the top says the same sizes
    assert f"Discrete({spec.num_actions()})" in doc
    assert f"({', '.join(map(str, spec.observation.board))}, {spec.observation.channels})" in doc


# ----- the spec against the code -------------------------------------------------------------------------


@pytest.mark.parametrize("name, options", game_cases())
def test_plane_count_and_order(name, options):
    spec = spec_of(name)
    game = make_game(name, **options)
    rows, cols, channels = game.info.observation_shape
    assert (rows, cols) == spec.observation.board
    planes = spec.planes(game.info.options)
    assert spec.num_channels(game.info.options) == channels
    assert [p.index for p in planes] == list(range(channels)), "plane formulas must number the channels in order"
    assert len({p.name for p in planes}) == channels, "plane names must be unique"


@pytest.mark.parametrize("name, options", game_cases())
def test_action_ranges_cover_the_action_space(name, options):
    spec = spec_of(name)
    game = make_game(name, **options)
    ranges = spec.action_ranges(game.info.options)
    every = sorted(a for r in ranges.values() for a in r)
    assert every == list(range(game.info.num_actions)), "the action kinds must number 0..num_actions-1 once each"
    assert spec.num_actions(game.info.options) == game.info.num_actions


def _random_observations(game, rng, games: int):
    """The observations of every seat along a few random games."""
    for _ in range(games):
        state = game.new_initial_state()
        while True:
            for seat in range(game.info.num_seats):
                yield state.observation(seat)
            if state.is_terminal():
                break
            decision = {}
            for seat in state.current_seats():
                decision[seat] = int(rng.choice(np.flatnonzero(state.legal_mask(seat))))
            state.apply_actions(decision)


@pytest.mark.parametrize("name, options", game_cases())
def test_plane_values_over_random_games(name, options):
    """0-or-1 planes hold 0 or 1, counted planes multiples of their 1/scale, constant planes one value."""
    spec = spec_of(name)
    game = make_game(name, **options)
    planes = spec.planes(game.info.options)
    rng = np.random.default_rng(7)
    for obs in _random_observations(game, rng, games=3):
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        for p in planes:
            values = obs[:, :, p.index]
            if p.binary:
                assert np.isin(values, (0.0, 1.0)).all(), f"{p.name} is not 0 or 1"
            else:
                scaled = values.astype(np.float64) * p.scale
                assert np.allclose(scaled, np.round(scaled), atol=1e-4), f"{p.name} is not a multiple of 1/{p.scale}"
            if p.constant:
                assert (values == values[0, 0]).all(), f"{p.name} is not constant"


# Hand-built positions: game -> [(options, position, [(seat, plane name, square, value), ..])]; the square is
# named on the board and found in the observer's frame through the spec (spec.cell).
HAND_CHECKS = {
    "dorix": [
        (
            {},
            "dorix -.-.-.-/-.01.-.-/-.-.-.-/0.-.-.1 hands=13,13 move=0 turn=4",
            [
                (0, "depth0_rel0", "a1", 1.0),
                (0, "depth0_rel1", "b3", 1.0),  # b3 holds seat 0's pawn under seat 1's
                (0, "depth1_rel0", "b3", 1.0),
                (0, "depth0_rel0", "b3", 0.0),
                (0, "height", "b3", 2 / 40),
                (0, "hand_rel0", "c2", 13 / 15),
                (0, "team_rel0", "c2", 1.0),
                (0, "team_rel1", "c2", 0.0),
                (1, "depth0_rel0", "b3", 1.0),
                (1, "depth1_rel1", "b3", 1.0),
                (1, "depth0_rel1", "a1", 1.0),
            ],
        ),
        (
            {},
            "dorix -.-.-.-/-.-.-.-/-.-.-.-/00000000.-.-.- hands=7,15 move=1 turn=8",
            [(0, "deep_rel0", "a1", 2 / 15), (0, "depth5_rel0", "a1", 1.0), (1, "deep_rel1", "a1", 2 / 15)],
        ),
        (
            {"num_players": 4},
            "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=10,10,10,10 move=0 turn=0",
            [(1, "team_rel2", "a1", 1.0), (1, "team_rel1", "a1", 0.0), (3, "team_rel0", "a1", 1.0)],
        ),
        (
            {"num_players": 3},
            "dorix 2.-.-.-/-.-.-.-/-.1.-.-/0.-.-.- hands=11,11,11 move=0 turn=3",
            [(1, "depth0_rel1", "a4", 1.0), (1, "depth0_rel2", "a1", 1.0), (1, "hand_rel2", "a4", 11 / 12)],
        ),
        (
            {},
            "dorix -.-.-.-/-.1.-.-/1.00.1.-/-.-.-.- hands=13,12 move=0 turn=0 last=b2 collapse=b2:2:b3,c2,a2",
            [
                (0, "collapsing", "b2", 1.0),
                (0, "collapse_targets", "b3", 1.0),
                (0, "collapse_targets", "a2", 1.0),
                (0, "collapse_targets", "b1", 0.0),
                (0, "must_choose", "d4", 1.0),
                (1, "must_choose", "d4", 0.0),
            ],
        ),
    ],
    "olix": [
        (
            {},
            "olix 11/11/11/11/11/11/11/11/w10/w10/wwww4bbb move=1 turn=9 last=d1 marks=O-,L6w,I4w,X-",
            [
                (0, "own_pawns", "a3", 1.0),
                (0, "opp_pawns", "k1", 1.0),
                (0, "own_pawns", "k1", 0.0),
                (1, "own_pawns", "k1", 1.0),
                (0, "own_left", "f6", 40 / 46),
                (0, "opp_left", "f6", 43 / 46),
                (0, "own_marker_L_row2", "f6", 1.0),  # L6 is the L column's second value
                (0, "own_marker_I_row1", "f6", 1.0),
                (0, "opp_marker_L_row2", "f6", 0.0),
                (1, "opp_marker_L_row2", "f6", 1.0),
                (0, "last", "d1", 1.0),
                (1, "last", "d1", 1.0),
            ],
        ),
    ],
    "adix": [
        (
            {},
            "adix trps3crps4/9/9/9/4thps4/9/9/Tpsr8/4Crps4 move=0 turn=0 quiet=0",
            [
                (0, "own_captain", "e1", 1.0),
                (0, "own_teammate", "a2", 1.0),
                (0, "opp_captain", "e9", 1.0),
                (0, "opp_teammate", "a9", 1.0),
                (1, "own_teammate", "a9", 1.0),
                (1, "opp_captain", "e1", 1.0),
                (0, "face_top_paper", "a2", 1.0),  # Tpsr: paper on top, scissors north, rock east
                (0, "face_up_scissors", "a2", 1.0),
                (0, "face_right_rock", "a2", 1.0),
                (0, "face_left_shelter", "a2", 1.0),  # a teammate's west face is its east face's opposite
                (0, "face_top_rock", "a9", 1.0),  # trps, seen by White: north p, east s
                (0, "face_up_paper", "a9", 1.0),
                (0, "face_right_scissors", "a9", 1.0),
                (1, "face_right_scissors", "a9", 1.0),  # by Black: its right is the board's west
                (0, "face_bottom_shelter", "e5", 0.0),
                (0, "face_top_shelter", "e5", 1.0),
                (0, "to_act", "a1", 1.0),
                (1, "to_act", "a1", 0.0),
            ],
        ),
        (
            {},
            "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/4Tphs4/ThpsThpsThpsThps1ThpsThpsThpsThps/"
            "4Crps4 move=1 turn=1 quiet=1 rep=0:e3:N:1 last=e2e3",
            [
                (0, "own_a9_tilt_up", "e3", 0.5),
                (1, "opp_a9_tilt_down", "e3", 0.5),  # Black sees White's northward tilt as a tilt down
                (0, "quiet", "a1", 1 / 30),
                (0, "turn", "a1", 1 / 300),
            ],
        ),
        (
            {},
            "adix 4crps4/9/9/4thps4/9/9/9/4Thps4/4Crps4 move=1 turn=3 quiet=3 limit=40",
            [(0, "turn", "c3", 3 / 40), (1, "quiet", "c3", 3 / 30)],  # T is the position's turn limit
        ),
        (
            {},
            "adix 4Tpsr4/thps8/9/9/9/9/9/9/4Crps4 move=1 turn=11 quiet=0 last=e8e9 over=win:0:captain",
            [(1, "to_act", "a1", 0.0), (0, "own_teammate", "e9", 1.0)],  # over: nobody is to act
        ),
    ],
    "barc": [
        (
            {},
            "barc 1.1.-.-.1.1/1.-.-.-.-.-/-.-.-.-.1.-/-.0.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 last=a2-b3,f5-e4",
            [
                (0, "own_top", "b3", 1.0),
                (0, "opp_top", "e4", 1.0),
                (1, "own_top", "e4", 1.0),
                (0, "height", "b3", 1 / 12),
                (0, "own_pawns", "b3", 1 / 6),
                (0, "own_from", "a2", 1.0),
                (0, "own_to", "b3", 1.0),
                (0, "opp_from", "f5", 1.0),
                (0, "opp_to", "e4", 1.0),
                (1, "own_from", "f5", 1.0),
                (1, "opp_to", "b3", 1.0),
                (0, "own_stayed", "a1", 0.0),
                (0, "turn", "a1", 1 / 200),
            ],
        ),
        (
            {},
            "barc 1.1.-.-.1.1/1.-.-.-.-.-/-.-.-.-.1.-/-.0.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 limit=50 "
            "last=a2-b3,f5-e4",
            [(1, "turn", "c3", 1 / 50)],  # T is the position's turn limit
        ),
        (
            {},
            "barc 1.1.-.-.1.01/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=2 last=e3-f2,stay",
            [
                (0, "own_pawns", "f6", 1 / 6),  # f6: a South pawn under a North pawn
                (0, "opp_pawns", "f6", 1 / 6),
                (0, "height", "f6", 2 / 12),
                (1, "own_top", "f6", 1.0),
                (0, "opp_stayed", "a1", 1.0),
                (1, "own_stayed", "a1", 1.0),
            ],
        ),
    ],
}


def _hand_cases():
    for name in GAMES:
        for options, position, checks in HAND_CHECKS[name]:
            for seat, plane, square, value in checks:
                case_id = f"{name}-{plane}@{square}-seat{seat}"
                yield pytest.param(name, options, position, seat, plane, square, value, id=case_id)


@pytest.mark.parametrize("name, options, position, seat, plane, square, value", list(_hand_cases()))
def test_hand_built_observations(name, options, position, seat, plane, square, value):
    spec = spec_of(name)
    game = make_game(name, **options)
    state = game.from_text(position)
    width = spec.observation.board[1]
    sq = (int(square[1:]) - 1) * width + ord(square[0]) - ord("a")
    r, f = spec.cell(sq, seat)
    got = float(state.observation(seat)[r, f, spec.plane(plane, game.info.options).index])
    assert math.isclose(got, value, abs_tol=1e-6), f"{plane} on {square} for seat {seat}: {got}, spec says {value}"


def test_every_game_has_hand_checks():
    assert set(HAND_CHECKS) == set(GAMES)


@pytest.mark.parametrize(
    "name, position",
    [pytest.param(n, p, id=f"{n}-{i}") for n in GAMES for i, p in enumerate(spec_of(n).notation.positions)],
)
def test_position_examples_parse_and_write_back(name, position):
    game = make_game(name, **position.options)
    assert game.from_text(position.text).to_text() == position.text


@pytest.mark.parametrize("name", GAMES)
def test_every_field_has_an_example_and_no_other_field_is_written(name):
    spec = spec_of(name)
    keys = [f.key for f in spec.notation.fields]
    used = set()
    for p in spec.notation.positions:
        assert p.text.split()[0] == spec.game
        used |= {tok.partition("=")[0] for tok in p.text.split()[2:]}
    assert used == set(keys), f"fields without an example: {set(keys) - used}; not in the spec: {used - set(keys)}"
    # the positions random games go through write no field the spec does not list
    rng = np.random.default_rng(3)
    for opts in option_sets(name):
        game = make_game(name, **opts)
        state = game.new_initial_state()
        while not state.is_terminal():
            fields = {tok.partition("=")[0] for tok in state.to_text().split()[2:]}
            assert fields <= set(keys), f"{state.to_text()!r} writes a field the spec lacks"
            state.apply_actions(
                {s: int(rng.choice(np.flatnonzero(state.legal_mask(s)))) for s in state.current_seats()}
            )


@pytest.mark.parametrize("name", GAMES)
def test_required_fields_are_required(name):
    spec = spec_of(name)
    start = spec.notation.positions[0]
    game = make_game(name, **start.options)
    for f in spec.notation.fields:
        if f.required:
            text = " ".join(tok for tok in start.text.split() if not tok.startswith(f.key + "="))
            with pytest.raises(Exception, match=f.key):
                game.from_text(text)


def _move_cases():
    for name in GAMES:
        spec = spec_of(name)
        for move in spec.notation.moves:
            for ex in move.examples:
                yield pytest.param(name, move, ex, id=f"{name}-{ex.text}-{ex.seat}")


@pytest.mark.parametrize("name, move, example", list(_move_cases()))
def test_move_examples_read_and_write_back(name, move, example):
    spec = spec_of(name)
    game = make_game(name, **example.options)
    state = game.from_text(example.position) if example.position else game.new_initial_state()
    if isinstance(example.action, dict):
        assert move.kind is None
        assert state.text_to_actions(example.text) == example.action
        assert state.actions_to_text(example.action) == example.text
        return
    assert example.action in spec.action_ranges(game.info.options)[move.kind], f"not a {move.kind} action"
    assert state.text_to_action(example.text, example.seat) == example.action
    assert state.action_to_text(example.action, example.seat) == example.text
    assert state.legal_mask(example.seat if example.seat is not None else state.current_seats()[0])[example.action]


@pytest.mark.parametrize("name", GAMES)
def test_every_action_kind_has_a_move_example(name):
    spec = spec_of(name)
    kinds = {m.kind for m in spec.notation.moves if m.examples}
    assert {k.name for k in spec.actions.kinds} <= kinds
