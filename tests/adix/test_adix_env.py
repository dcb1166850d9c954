"""ADIX through PettingZoo (api, seed and render tests), the egocentric observation and actions, the
notation (round trips and errors), and random playouts with the game's invariants."""

from __future__ import annotations

import numpy as np
import pytest
from adix_helpers import notation, play, position

from boardgames.envs import adix_v0
from boardgames.envs.adix import observe as O
from boardgames.envs.adix import rules as R
from boardgames.envs.adix.game import AdixGame
from boardgames.envs.core.errors import IllegalActionError

KINGS = "Crps@a1 crps@i9 thps@i7"


# --- PettingZoo ---------------------------------------------------------------------------------


# api_test, seed_test and render_test run for every game in tests/test_conformance.py.


def test_env_spaces_and_start_from_a_position():
    e = adix_v0.env(render_mode="ansi")
    e.reset(options={"position": notation(f"Tprs@e5 {KINGS} crps@e6".replace("crps@i9 ", ""))})
    obs, reward, term, trunc, info = e.last()
    assert obs["observation"].shape == (9, 9, O.OBS_CHANNELS) and obs["action_mask"].shape == (5670,)
    state = e.unwrapped.game_state
    e.step(state.text_to_action("e5xe6"))  # paper takes the rock captain: White wins
    assert e.terminations["player_0"] and e.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert "ADIX! White" in e.render()


def test_rgb_picture():
    e = adix_v0.env(render_mode="rgb_array")
    e.reset()
    frame = e.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    state = e.unwrapped.game_state
    e.step(state.text_to_action("e2~e3"))
    assert not np.array_equal(frame, e.render())


# --- egocentric observation and actions -----------------------------------------------------------


def test_observation_faces_for_both_seats():
    # White teammate on a2: paper up, scissors north (and south), rock east (so shelter west)
    s = position(f"Tpsr@a2 {KINGS}")
    white = s.observation(0)
    black = s.observation(1)
    on = lambda obs, r, f: set(np.flatnonzero(obs[r, f, : O.OBS_OWN_REP]))  # noqa: E731
    # White sees a2 at row 1, file 0: own teammate (1), top paper (4+1), up scissors (8+2),
    # right rock (12+0), down scissors (16+2), left shelter (20+3), bottom paper (24+1)
    assert on(white, 1, 0) == {1, 5, 10, 12, 18, 23, 25}
    # Black sees the board turned: a2 is at row 7, file 8; enemy teammate (3); its "up" is the
    # board's south (scissors), "right" the board's west (shelter), "left" the board's east (rock)
    assert on(black, 7, 8) == {3, 5, 10, 15, 18, 20, 25}
    # White's captain a1 is Black's enemy captain at (8, 8); Black's own captain i9 is at (0, 0)
    assert black[8, 8, O.OBS_OPP_CAPTAIN] == 1 and black[0, 0, O.OBS_OWN_CAPTAIN] == 1
    assert white[0, 0, O.OBS_OWN_CAPTAIN] == 1 and white[8, 8, O.OBS_OPP_CAPTAIN] == 1
    assert white[0, 0, O.OBS_TO_MOVE] == 1 and black[0, 0, O.OBS_TO_MOVE] == 0


def test_the_start_looks_the_same_to_both_players():
    s = AdixGame().new_initial_state()
    w, b = s.observation(0), s.observation(1)
    assert np.array_equal(w[:, :, : O.OBS_TO_MOVE], b[:, :, : O.OBS_TO_MOVE])
    # egocentric actions: after a White move far from Black's cubes, Black's legal action indices
    # are exactly White's at the start
    white_actions = set(s.legal_actions().tolist())
    play(s, "a2~a3")
    assert set(s.legal_actions().tolist()) == white_actions


def test_repetition_and_quiet_planes():
    s = position(f"Thps@e3 {KINGS}", quiet=12)
    play(s, "e3~e4", "i9L")
    white, black = s.observation(0), s.observation(1)
    # White's record: tilt north (up for White) once, on e4 (row 3, file 4) -> 0.5
    assert white[3, 4, O.OBS_OWN_REP + 2] == 0.5
    # Black sees it as the enemy's tilt "down", on its row 5, file 4
    assert black[5, 4, O.OBS_OPP_REP + 4] == 0.5
    # Black's left rotation of i9: its own record on its (0, 0)
    assert black[0, 0, O.OBS_OWN_REP + 0] == 0.5 and white[8, 8, O.OBS_OPP_REP + 0] == 0.5
    assert white[0, 0, O.OBS_QUIET] == pytest.approx(14 / 30)


def test_black_actions_are_mirrored_but_notation_is_absolute():
    s = AdixGame().new_initial_state()
    play(s, "e2~e3")
    a = s.text_to_action("e9L")
    # e9 is Black's own square 80 - 76 = 4, like e1 for White: action 4 * 70 + 64
    assert a == 4 * 70 + 64
    b = s.text_to_action("e9-d9")  # the board's west is Black's east: direction 2, one square
    assert b == 4 * 70 + 2 * 8 + 0
    assert s.action_to_text(b) == "e9-d9"


# --- notation ------------------------------------------------------------------------------------


def test_start_notation():
    s = AdixGame().new_initial_state()
    assert s.to_text() == (
        "adix 4crps4/thpsthpsthpsthpsthpsthpsthpsthpsthps/9/9/9/9/9/ThpsThpsThpsThpsThpsThpsThpsThpsThps/4Crps4"
        " move=0 turn=0 quiet=0"
    )
    assert AdixGame().from_text(s.to_text()) == s


def test_notation_round_trip_with_every_field():
    text = "adix 4crps4/9/4thps4/9/4Tprs4/9/9/9/Crps8 move=1 turn=17 quiet=5 limit=90 rep=0:e5:L:2,1:e7:N:1 last=e5e5"
    s = AdixGame().from_text(text)
    assert s.to_text() == text and AdixGame().from_text(s.to_text()) == s
    assert s.repetition(0) == ("e5", "L", 2) and s.repetition(1) == ("e7", "N", 1)
    over = "adix 4Tprs4/9/9/9/9/9/9/9/Crps8 move=1 turn=3 quiet=0 last=e8e9 over=win:0:captain"
    assert AdixGame().from_text(over).to_text() == over


@pytest.mark.parametrize(
    "move,message",
    [
        ("e1", "cannot read"),
        ("z1-e2", "cannot read"),
        ("e1-f3", "not along"),
        ("e1-e1", "same square"),
        ("e2~e4", "adjacent"),
        ("e5L", "e5 is empty"),
        ("e9L", "Black's"),
        ("e1-e2", "your own cube"),
        ("a2-a3", "under shelter"),
        ("e1~e2", "empty square"),
        (17, "string"),
    ],
)
def test_bad_moves_are_named_and_leave_the_state_alone(move, message):
    s = AdixGame().new_initial_state()
    before = s.to_text()
    with pytest.raises(IllegalActionError, match=message):
        s.text_to_action(move)
    for bad in (-1, R.NUM_ACTIONS, "e1L", 1.5):
        with pytest.raises(IllegalActionError):
            s.apply(bad)
    assert s.to_text() == before


def test_moves_after_the_end_are_refused():
    s = position("Tprs@e5 Crps@a1 crps@e6 thps@i7")
    play(s, "e5xe6")
    with pytest.raises(IllegalActionError, match="over"):
        s.text_to_action("a1L")


# --- random playouts --------------------------------------------------------------------------------


def test_random_playouts_keep_the_invariants():
    game = AdixGame(max_turns=300)
    rng = np.random.default_rng(7)
    endings = set()
    for _ in range(12):
        s = game.new_initial_state()
        counts = [s.pieces(0), s.pieces(1)]
        while not s.is_terminal():
            s.check_invariants()
            assert game.from_text(s.to_text()) == s
            for a in s.legal_actions()[::5]:
                assert s.text_to_action(s.action_to_text(int(a))) == a
            s.apply(int(rng.choice(s.legal_actions())))
            d = s.data
            for sq in range(R.CELLS):  # every cube has one of the valid orientations
                if R.owner_of(d, sq) >= 0:
                    assert R.valid_orientation(R.kind_of(d, sq), R.top_of(d, sq), R.north_of(d, sq), R.east_of(d, sq))
            now = [s.pieces(0), s.pieces(1)]
            for seat in range(2):  # pieces never increase; a captured piece never comes back
                assert now[seat][0] <= counts[seat][0] and now[seat][1] <= counts[seat][1]
            counts = now
        s.check_invariants()
        assert game.from_text(s.to_text()) == s
        endings.add(s.end_reason)
        ret = s.returns()
        if s.winner >= 0:
            assert ret[s.winner] == 1 and ret[1 - s.winner] == -1
        else:
            assert not ret.any()
    assert endings & {"captain", "team", "draw", "limit"}
