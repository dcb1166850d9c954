"""Barc duel: action encoding, observation, notation, the Parallel environment and its AEC form,
PettingZoo's own tests, and random playouts with the game's invariants."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from boardgames.envs import barc_v0, barc_v1
from boardgames.envs.barc import observe as O
from boardgames.envs.barc import rules as R
from boardgames.envs.barc.game import START_NAMES, BarcGame
from boardgames.envs.core.errors import GameOptionError, IllegalActionError

START = "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=0"


# --- action encoding --------------------------------------------------------------------------------


def test_action_encoding_is_egocentric():
    s = BarcGame(start="corners").new_initial_state()
    # South a2-a3: origin a2 = 6, direction N = 0, distance 1 -> 6 * 40 + 0 + 0
    assert s.text_to_action("a2-a3", seat=0) == 240
    # North f5-f4 is the same move seen from North's side: origin 35 - 29 = 6, forward = 0
    assert s.text_to_action("f5-f4", seat=1) == 240
    assert s.action_to_text(240, seat=0) == "a2-a3" and s.action_to_text(240, seat=1) == "f5-f4"
    # South b1-c1: origin 1, E = 2 -> 40 + 10; North e6-d6 mirrors it
    assert s.text_to_action("b1-c1", seat=0) == 50 == s.text_to_action("e6-d6", seat=1)
    assert s.text_to_action("stay") == R.STAY == 1440 and s.action_to_text(1440) == "stay"
    # without a seat, the owner of the origin square decides
    assert s.text_to_action("f5-f4") == 240 and s.action_to_text(s.text_to_action("e6-d6")) == "b1-c1"
    assert s.action_to_text(s.text_to_action("e6-d6"), seat=1) == "e6-d6"


def test_orders_round_trip_for_both_seats():
    s = BarcGame().from_text("barc 1.1.-.-.-.1/-.-.-.-.-.-/-.-.-.111.-.-/-.-.000.-.-.-/0.-.-.-.-.-/0.0.-.-.-.- turn=5")
    for seat in (0, 1):
        for a in s.legal_actions(seat):
            assert s.text_to_action(s.action_to_text(int(a), seat=seat), seat=seat) == a


def test_malformed_orders_are_named():
    s = BarcGame(start="corners").new_initial_state()
    for bad, msg in [
        ("a2a3", "cannot read"),
        ("a2-a2", "goes nowhere"),
        ("a2-g3", "off the board"),
        (7, "an order is text"),
        ("a2-b4", "straight line"),
    ]:
        with pytest.raises(IllegalActionError, match=msg):
            s.text_to_action(bad, seat=0)
    with pytest.raises(IllegalActionError, match="seat must be 0 or 1"):
        s.text_to_action("a2-a3", seat=2)


def test_illegal_joint_action_leaves_the_state_alone():
    s = BarcGame(start="corners").new_initial_state()
    text = s.to_text()
    bad = s.text_to_action("a2-a3", seat=0)
    with pytest.raises(IllegalActionError, match="player_1"):
        s.apply_joint([bad, R.encode(1, 0, 0, 1)])  # North ordering South's a1
    with pytest.raises(IllegalActionError):
        s.apply_joint([bad])
    assert s.to_text() == text


# --- observation ----------------------------------------------------------------------------------


def test_start_observation_is_the_same_from_both_sides():
    s = BarcGame(start="corners").new_initial_state()
    o0, o1 = s.observation(0), s.observation(1)
    assert o0.shape == (6, 6, O.OBS_CHANNELS) and o0.dtype == np.float32
    assert np.array_equal(o0, o1)  # the start is symmetric under a half turn
    assert o0[0, 0, O.OBS_OWN] == 1 and o0[5, 0, O.OBS_OPP] == 1 and o0[0, 0, O.OBS_HEIGHT] == 1 / 12


def test_observation_is_egocentric_and_shows_both_last_orders():
    s = BarcGame(start="corners").new_initial_state()
    s.apply_joint([s.text_to_action("a2-b3", seat=0), s.text_to_action("f5-e4", seat=1)])
    o0, o1 = s.observation(0), s.observation(1)
    # South sees the board as it is: b3 = row 2, file 1
    assert o0[2, 1, O.OBS_OWN] == 1 and o0[1, 0, O.OBS_OWN_FROM] == 1 and o0[2, 1, O.OBS_OWN_TO] == 1
    assert o0[4, 5, O.OBS_OPP_FROM] == 1 and o0[3, 4, O.OBS_OPP_TO] == 1
    # North sees it turned: e4 (index 22) at 35 - 22 = 13 -> row 2, file 1; f5 (29) at 6 -> row 1, file 0
    assert o1[2, 1, O.OBS_OWN] == 1 and o1[1, 0, O.OBS_OWN_FROM] == 1 and o1[2, 1, O.OBS_OWN_TO] == 1
    assert np.array_equal(o0, o1)  # mirrored moves from a symmetric start
    assert o0[0, 0, O.OBS_TURN] == pytest.approx(1 / 200)
    s.apply_joint([R.STAY, s.text_to_action("e4-d4", seat=1)])
    o0 = s.observation(0)
    assert o0[:, :, O.OBS_OWN_STAYED].all() and not o0[:, :, O.OBS_OPP_STAYED].any()
    assert not o0[:, :, O.OBS_OWN_FROM].any() and o0[3, 3, O.OBS_OPP_TO] == 1


def test_observation_counts_pawns_in_stacks():
    s = BarcGame().from_text("barc 1.1.-.-.-.1/-.-.-.-.-.-/-.-.-.11.-.-/-.-.010.-.-.-/0.-.-.-.-.-/0.0.-.-.-.0 turn=5")
    o0, o1 = s.observation(0), s.observation(1)
    # c3 = "010": South on top, 2 South pawns and 1 North pawn, height 3
    assert o0[2, 2, O.OBS_OWN] == 1 and o0[2, 2, O.OBS_HEIGHT] == pytest.approx(3 / 12)
    assert o0[2, 2, O.OBS_OWN_PAWNS] == pytest.approx(2 / 6) and o0[2, 2, O.OBS_OPP_PAWNS] == pytest.approx(1 / 6)
    # for North, c3 (index 14) is at 21 -> row 3, file 3
    assert o1[3, 3, O.OBS_OPP] == 1 and o1[3, 3, O.OBS_OWN_PAWNS] == pytest.approx(1 / 6)


# --- notation -------------------------------------------------------------------------------------


def test_notation_round_trips_with_every_field():
    g = BarcGame(max_turns=50)
    for text in [
        START,
        "barc 1.1.-.-.1.1/1.-.-.-.-.-/-.-.-.-.1.-/-.0.-.-.-.-/-.-.-.-.-.0/0.0.-.-.0.0 turn=1 last=a2-b3,f5-e4",
        "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=7 limit=9 last=stay,stay",
        "barc 1.1.-.-.1.1/1.-.-.-.-.1/-.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=9 limit=9 over=limit",
    ]:
        assert g.from_text(text).to_text() == text
    cancelled = g.from_text(
        "barc 1.1.-.-.1.1/-.-.-.-.-.1/1.-.-.-.-.-/-.-.-.-.-.-/0.-.-.-.-.0/0.0.-.-.0.0 turn=3 last=a2-a3,a4-a3"
    )
    assert cancelled.last_cancelled


def test_a_finished_position_reads_back():
    text = "barc 0.0.0.1.-.-/1.-.-.1.-.-/-.-.-.1.1.1/-.-.-.0.0.0/-.-.-.-.-.-/-.-.-.-.-.- turn=4 over=draw"
    s = BarcGame().from_text(text)
    assert s.is_terminal() and s.to_text() == text and list(s.returns()) == [0.0, 0.0]


# --- environments ---------------------------------------------------------------------------------


def test_parallel_env_plays_both_orders_together():
    e = barc_v0.parallel_env()
    obs, infos = e.reset(seed=1)
    assert set(obs) == {"player_0", "player_1"} and obs["player_0"]["action_mask"].dtype == np.int8
    state = e.unwrapped.game_state
    acts = {"player_0": state.text_to_action("a2-b3", seat=0), "player_1": state.text_to_action("f5-e4", seat=1)}
    obs, rewards, terms, truncs, infos = e.step(acts)
    assert state.to_text().endswith("turn=1 last=a2-b3,f5-e4")
    assert rewards == {"player_0": 0.0, "player_1": 0.0} and not any(terms.values())
    assert infos["player_0"] == {"turn": 1, "void_action": False}


def test_parallel_env_reward_and_agents_at_the_end():
    e = barc_v0.parallel_env()
    e.reset(options={"position": "barc 0.1.1.-.-.0/-.-.-.-.-.-/-.-.-.-.-.0/1.0.0.-.-.-/-.-.-.0.-.-/1.-.-.-.1.1 turn=3"})
    state = e.unwrapped.game_state
    obs, rewards, terms, truncs, infos = e.step({"player_0": state.text_to_action("d2-d3"), "player_1": R.STAY})
    assert rewards == {"player_0": 1.0, "player_1": -1.0}  # b3-c3-d3
    assert terms == {"player_0": True, "player_1": True} and not any(truncs.values())
    assert e.agents == [] and set(obs) == {"player_0", "player_1"}
    with pytest.raises(IllegalActionError, match="game is over"):
        e.step({"player_0": R.STAY, "player_1": R.STAY})


def test_an_impossible_order_is_void_or_raises_as_asked():
    e = barc_v0.parallel_env()
    e.reset(seed=0)
    state = e.unwrapped.game_state
    impossible = int(R.encode(0, 0, 0, 1))  # South a1-a2: onto its own pawn
    ok = state.text_to_action("f5-f4", seat=1)
    obs, _, _, _, infos = e.step({"player_0": impossible, "player_1": ok})
    assert infos["player_0"]["void_action"] and not infos["player_1"]["void_action"]
    assert state.last_orders() == ("stay", "f5-f4") and state.stack("a1") == (0,) and state.stack("f4") == (1,)
    with pytest.raises(IllegalActionError, match="out of range"):
        e.step({"player_0": 5000, "player_1": ok})
    with pytest.raises(IllegalActionError, match="no action given"):
        e.step({"player_0": R.STAY})
    strict = barc_v0.parallel_env(illegal_action="raise")
    strict.reset(seed=0)
    text = strict.unwrapped.game_state.to_text()
    with pytest.raises(IllegalActionError, match="illegal for player_0"):
        strict.step({"player_0": impossible, "player_1": R.STAY})
    assert strict.unwrapped.game_state.to_text() == text
    with pytest.raises(GameOptionError):
        barc_v0.parallel_env(illegal_action="ignore")


def test_aec_form_hides_the_first_order_until_both_are_in():
    e = barc_v0.env(render_mode="ansi")
    e.reset(seed=0)
    assert e.agent_selection == "player_0"
    before = e.observe("player_1")
    state = e.unwrapped.game_state
    e.step(state.text_to_action("a2-b3", seat=0))
    assert e.agent_selection == "player_1"
    assert np.array_equal(e.observe("player_1")["observation"], before["observation"])
    assert state.turn == 0 and state.stack("a2") == (0,)
    assert "orders in: player_0; waiting for: player_1" in e.render()
    e.step(state.text_to_action("f5-e4", seat=1))
    assert state.turn == 1 and state.stack("b3") == (0,) and state.stack("e4") == (1,)
    assert "waiting for: player_0, player_1" in e.render()
    strict = barc_v0.env(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="player_0"):
        strict.step(int(R.encode(0, 0, 0, 1)))
    assert strict.agent_selection == "player_0"


def test_render_modes_show_the_last_orders():
    e = barc_v0.parallel_env(render_mode="rgb_array")
    e.reset(seed=0)
    first = e.render()
    state = e.unwrapped.game_state
    e.step({"player_0": state.text_to_action("a2-b3", seat=0), "player_1": state.text_to_action("f5-e4", seat=1)})
    frame = e.render()
    assert frame.dtype == np.uint8 and frame.shape == first.shape and not np.array_equal(frame, first)
    text = state.render_text()
    assert "last orders: South a2-b3, North f5-e4" in text
    with pytest.raises(GameOptionError):
        barc_v0.parallel_env(render_mode="video")


def test_pettingzoo_parallel_api_and_seed():
    for module in (barc_v1, barc_v0):
        parallel_api_test(module.parallel_env(), num_cycles=1000)
        parallel_seed_test(module.parallel_env, num_cycles=100)


def test_pettingzoo_aec_api_seed_and_render():
    for module in (barc_v1, barc_v0):
        api_test(module.env(), num_cycles=1000)
        seed_test(module.env, num_cycles=100)
        render_test(partial(module.env))


# --- random playouts ------------------------------------------------------------------------------


@pytest.mark.parametrize("start", START_NAMES)
def test_random_playouts_keep_the_invariants(start):
    game = BarcGame(max_turns=60, start=start)
    rng = np.random.default_rng(7)
    results = {"win0": 0, "win1": 0, "draw": 0, "limit": 0}
    for _ in range(150):
        s = game.new_initial_state()
        while not s.is_terminal():
            s.check_invariants()
            assert sum(len(s.stack(q)) for q in range(36)) == 12
            assert game.from_text(s.to_text()) == s
            joint = []
            for seat in (0, 1):
                legal = s.legal_actions(seat)
                assert R.STAY in legal
                a = int(rng.choice(legal))
                assert s.text_to_action(s.action_to_text(a, seat=seat), seat=seat) == a
                joint.append(a)
            s.apply_joint(joint)
        s.check_invariants()
        assert game.from_text(s.to_text()) == s
        key = "limit" if s.is_truncated() else "draw" if s.winner < 0 else f"win{s.winner}"
        results[key] += 1
    assert results["win0"] > 10 and results["win1"] > 10, results
    if start == "corners":  # both aligning at once is rare; from this start random play reaches it
        assert results["draw"] > 0, results


# --- hostile input ---------------------------------------------------------------------------------

FINISHED = "barc 0.1.0.1.-.1/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/-.-.-.-.-.-/0.10.0.1.0.1 turn=5 over=win:0"


def test_the_aec_form_resets_to_a_finished_position():
    # as the turn-based games do: every agent is listed as terminated with its result, then steps None out
    e = barc_v1.env()
    e.reset(options={"position": FINISHED})
    assert e.agents == ["player_0", "player_1"] and all(e.terminations.values()) and not any(e.truncations.values())
    assert e.rewards == {"player_0": 1.0, "player_1": -1.0}  # South tops a1, b1, c1
    seen = []
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        seen.append((agent, reward, terminated))
        e.step(None)
    assert seen == [("player_0", 1.0, True), ("player_1", -1.0, True)] and e.agents == []
    p = barc_v1.parallel_env()
    p.reset(options={"position": FINISHED})
    assert p.agents == []


def test_bad_action_containers_and_values_are_named():
    p = barc_v1.parallel_env()
    p.reset(seed=0)
    text = p.unwrapped.game_state.to_text()
    for bad in (None, [R.STAY, R.STAY], (R.STAY, R.STAY), R.STAY, "stay"):
        with pytest.raises(IllegalActionError, match="step\\(\\) takes a dict \\{agent: action\\}"):
            p.step(bad)
    for value in (np.timedelta64(1), True, np.bool_(False), 1.0, "1"):
        with pytest.raises(IllegalActionError, match="an action is an integer in 0..1440"):
            p.step({"player_0": value, "player_1": R.STAY})
    assert p.unwrapped.game_state.to_text() == text
    e = barc_v1.env()
    e.reset(seed=0)
    with pytest.raises(IllegalActionError, match="an action is an integer"):
        e.step(np.timedelta64(1))
