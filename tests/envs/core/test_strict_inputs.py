"""Options, notation numbers and action values that used to be wrapped or silently accepted are refused
with an error naming them: the reported inputs, one by one."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.core.errors import GameOptionError, IllegalActionError, NotationError
from boardgames.envs.core.kernel_state import MAX_TURNS_LIMIT
from boardgames.envs.core.squares import parse_int
from boardgames.envs.registry import game_names, make_game

START = {
    "dorix": "dorix -.-.-.-/-.-.-.-/-.-.-.-/-.-.-.- hands=15,15 move=0 turn=0",
    "olix": "olix 11/11/11/11/11/11/11/11/11/11/11 move=0 turn=0",
    "adix": "adix 4crps4/4thps4/9/9/9/9/9/4Thps4/4Crps4 move=0 turn=0 quiet=0",
    "barc": "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0",
}
# a move of each game from its start position above, and its action
FIRST_MOVE = {"dorix": ("b2", 5), "olix": ("f6", 60), "barc": ("a2-a3", 240)}


# ----- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("max_turns", [2**32 + 5, 2**31, MAX_TURNS_LIMIT + 1, 0, -1])
def test_a_turn_limit_out_of_range_is_refused_not_wrapped(name, max_turns):
    # 2**32 + 5 was stored as 5, 2**31 as a negative limit (Olix then ended after one move)
    with pytest.raises(GameOptionError, match=rf"max_turns must be in 1\.\.2147483647.*got {max_turns}"):
        make_game(name, max_turns=max_turns)


@pytest.mark.parametrize("name", game_names())
def test_the_largest_turn_limit_is_kept_and_a_game_runs_under_it(name):
    game = make_game(name, max_turns=2**31 - 1)
    assert game.info.max_turns == MAX_TURNS_LIMIT == 2_147_483_647
    state = game.new_initial_state()
    state.apply_actions({s: int(state.legal_actions(s)[0]) for s in state.current_seats()})
    assert not state.is_terminal() and state.turn == 1
    assert game.from_text(state.to_text()) == state


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("max_turns", [5.0, "50", True, 1e3])
def test_a_turn_limit_that_is_not_an_integer_is_refused(name, max_turns):
    with pytest.raises(GameOptionError, match="max_turns must be an integer"):
        make_game(name, max_turns=max_turns)


def test_a_numpy_integer_turn_limit_is_an_integer():
    assert make_game("olix", max_turns=np.int64(50)).info.max_turns == 50


@pytest.mark.parametrize("players", [2.0, 3.0, True, "2", 5, 1, 2**32 + 2])
def test_dorix_player_count_must_be_the_integer_2_3_or_4(players):
    with pytest.raises(GameOptionError, match="num_players must be the integer 2, 3 or 4"):
        make_game("dorix", num_players=players)
    assert make_game("dorix", num_players=np.int8(3)).info.num_seats == 3


# ----- notation numbers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("99999999999999", r"turn must be in 0\.\.2147483647, got 99999999999999"),  # was OverflowError
        ("2147483648", r"turn must be in 0\.\.2147483647, got 2147483648"),
        ("9" * 5000, r"turn must be in 0\.\.2147483647, got 99999999999999999999\.\.\. \(5000 digits\)"),
        ("²", "turn must be an integer written with the digits 0-9, got '²'"),  # was a bare ValueError
        ("٣", "turn must be an integer written with the digits 0-9, got '٣'"),  # was read as 3
        ("３", "digits 0-9"),  # fullwidth
        ("1_0", "digits 0-9"),  # int() reads 10
        ("+3", "digits 0-9"),
        (" 3", "digits 0-9"),
        ("", "digits 0-9"),
        ("-1", r"turn must be in 0\.\.2147483647, got -1"),
    ],
)
def test_parse_int_takes_ascii_digits_in_range_and_names_the_field(text, message):
    with pytest.raises(NotationError, match=message):
        parse_int(text, "turn")


def test_parse_int_reads_ascii_numbers_with_bounds():
    assert parse_int("0", "turn") == 0 and parse_int("007", "turn") == 7
    assert parse_int("2147483647", "turn") == 2**31 - 1
    assert parse_int("4", "seat", 0, 4) == 4
    with pytest.raises(NotationError, match=r"seat must be in 0\.\.3, got 4"):
        parse_int("4", "seat", 0, 3)


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize(
    "field, message",
    [
        ("turn=4294967301", r"turn must be in 0\.\.2147483647"),
        ("turn=²", "turn must be an integer written with the digits 0-9"),
        ("turn=٣", "turn must be an integer written with the digits 0-9"),
        ("limit=4294967297", r"limit must be in 1\.\.2147483647"),
        ("limit=0", r"limit must be in 1\.\.2147483647"),
        ("limit=٥٠", "limit must be an integer written with the digits 0-9"),
    ],
)
def test_every_parser_refuses_wrapped_or_foreign_numbers(name, field, message):
    key = field.partition("=")[0]
    tokens = [t for t in START[name].split() if not t.startswith(key + "=")]
    with pytest.raises(NotationError, match=message):
        make_game(name).from_text(" ".join(tokens + [field]))


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("dorix", START["dorix"].replace("-.-.-.- hands", "-.-.-.٠ hands").replace("15,15", "15,14"), "not a stack"),
        ("dorix", START["dorix"].replace("-.-.-.- hands", "-.-.-.² hands"), "not a stack"),
        ("dorix", START["dorix"].replace("hands=15,15", "hands=15,١٥"), "hand of seat 1 must be an integer"),
        ("dorix", START["dorix"] + " last=b٣", "not a square name"),
        ("olix", "olix 11/11/11/11/11/11/11/11/11/11/١1 move=0 turn=0", "'١' is not a cell"),
        ("olix", START["olix"].replace("move=0", "move=٠"), r"move \(seat to act\) must be an integer"),
        ("adix", START["adix"].replace("quiet=0", "quiet=٠"), "quiet .* must be an integer"),
        ("adix", START["adix"].replace("/9/9/9/", "/٩/9/9/"), "cannot read"),
        ("barc", START["barc"].replace("turn=0", "turn=1") + " last=a2-a³,stay", "straight line|cannot read order"),
        ("barc", START["barc"] + " over=win:٠", "winning seat must be an integer"),
    ],
)
def test_digits_of_other_scripts_are_refused_in_boards_and_fields(name, text, message):
    with pytest.raises(NotationError, match=message):
        make_game(name).from_text(text)


# ----- actions and moves ------------------------------------------------------------------------


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("action", [2.7, 5.0, "5", True, np.bool_(True), None, np.array([5]), np.array(5.0)])
def test_action_to_text_refuses_what_is_not_an_integer(name, action):
    # Dorix action_to_text(2.7) and action_to_text("5") returned squares
    state = make_game(name).from_text(START[name])
    with pytest.raises(IllegalActionError, match=r"an action is an integer in 0\.\.\d+, got "):
        state.action_to_text(action)


@pytest.mark.parametrize("name", game_names())
def test_action_to_text_takes_python_and_numpy_integers_and_0d_integer_arrays(name):
    state = make_game(name).from_text(START[name])
    seat = state.current_seats()[0]
    action = int(state.legal_actions(seat)[0])
    text = state.action_to_text(action, seat)
    for same in (np.int64(action), np.int32(action), np.uint16(action), np.array(action), np.array(action, np.int16)):
        assert state.action_to_text(same, seat) == text
    with pytest.raises(IllegalActionError, match="out of range"):
        state.action_to_text(np.array(10**6))


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("value", [None, 5, 2.5, b"b2", ["b2"]])
def test_text_to_action_refuses_what_is_not_text(name, value):
    # Dorix text_to_action(None) raised AttributeError
    state = make_game(name).from_text(START[name])
    with pytest.raises(IllegalActionError, match="is text \\(a string\\) like"):
        state.text_to_action(value)


@pytest.mark.parametrize("name", ["dorix", "olix", "barc"])
def test_moves_with_foreign_digits_are_refused(name):
    state = make_game(name).from_text(START[name])
    text, action = FIRST_MOVE[name]
    assert state.text_to_action(text) == action
    foreign = text.replace("2", "٢").replace("6", "۶").replace("3", "³")
    with pytest.raises(IllegalActionError, match="cannot read"):
        state.text_to_action(foreign)


def test_adix_moves_with_foreign_digits_are_refused():
    state = make_game("adix").from_text(START["adix"])
    assert state.action_to_text(state.text_to_action("e1L")) == "e1L"
    for foreign in ("e١L", "e¹L", "e١-e٢"):
        with pytest.raises(IllegalActionError, match="cannot read"):
            state.text_to_action(foreign)


@pytest.mark.parametrize("value", ["[" * 100_000, "9" * 100_000])
def test_a_huge_option_value_is_refused_naming_the_flag(value):
    """``--option max_turns=`` with 100,000 characters gave a raw MemoryError from the literal parser."""
    from boardgames.envs.core.options import parse_options

    with pytest.raises(SystemExit, match=r"--option max_turns=\.\.\.: the value has 100000 characters, more than 1000"):
        parse_options([f"max_turns={value}"])
