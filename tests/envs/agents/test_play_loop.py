"""The one entry point for a decision (``State.apply_actions``), its text forms, and the one game loop
(``boardgames.envs.agents.play``), on every game."""

from __future__ import annotations

import numpy as np
import pytest

from boardgames.envs.agents.play import decide, play_game
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.registry import game_names, make_game

GAMES = game_names()


def _random_agent(seed):
    rng = np.random.default_rng(seed)
    return lambda state, seat: int(rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("name", GAMES)
def test_acting_seats_says_how_many_seats_one_decision_has(name):
    game = make_game(name)
    state = game.new_initial_state()
    assert game.info.acting_seats == len(state.current_seats())
    assert game.info.acting_seats == (game.info.num_seats if game.info.simultaneous else 1)


@pytest.mark.parametrize("name", GAMES)
def test_apply_actions_is_what_the_shorthands_do(name):
    game = make_game(name)
    agent = _random_agent(0)
    a, b = game.new_initial_state(), game.new_initial_state()
    for _ in range(10):
        if a.is_terminal():
            break
        decision = decide(a, lambda seat: agent)
        a.apply_actions(decision)
        if game.info.simultaneous:
            b.apply_joint([decision[s] for s in range(game.info.num_seats)])
        else:
            (action,) = decision.values()
            b.apply(action)
        assert a == b


@pytest.mark.parametrize("name", GAMES)
def test_apply_actions_refuses_a_missing_or_illegal_action_and_changes_nothing(name):
    state = make_game(name).new_initial_state()
    before = state.clone()
    seat = state.current_seats()[0]
    with pytest.raises(IllegalActionError, match=f"seat {seat}"):
        state.apply_actions({})
    forbidden = np.flatnonzero(~state.legal_mask(seat))  # none on Olix's empty grid: out of range then
    illegal = int(forbidden[0]) if len(forbidden) else state.game.info.num_actions
    decision = {s: int(state.legal_actions(s)[0]) for s in state.current_seats()}
    decision[seat] = illegal
    with pytest.raises(IllegalActionError, match="illegal|out of range"):
        state.apply_actions(decision)
    assert state == before


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_game_refuses_every_decision(name):
    game = make_game(name)
    final = play_game(game, [_random_agent(s) for s in range(game.info.num_seats)])
    assert final.is_terminal() and final.current_seats() == ()
    before = final.clone()
    for decision in ({}, {0: 0}, [0] * game.info.num_seats):
        with pytest.raises(IllegalActionError, match="over"):
            final.apply_actions(decision)
    if game.info.simultaneous:  # used to pass silently: no seat acts, so nothing was checked
        with pytest.raises(IllegalActionError, match="over"):
            final.apply_joint([-7, 10**6])
    assert final == before


@pytest.mark.parametrize("name", GAMES)
def test_play_game_asks_every_acting_seat_from_the_same_state_and_records(name):
    game = make_game(name)
    seen = []

    def recording(seat_agent):
        def agent(state, seat):
            seen.append((state.to_text(), seat))
            return seat_agent(state, seat)

        return agent

    decisions = []
    final = play_game(
        game,
        [recording(_random_agent(s)) for s in range(game.info.num_seats)],
        on_decision=lambda state, actions: decisions.append((state.to_text(), dict(actions))),
    )
    assert final.is_terminal()
    # every decision: the acting seats in seat order, all asked on the position the decision starts from
    asked = iter(seen)
    for position, actions in decisions:
        for seat in sorted(actions):
            assert next(asked) == (position, seat)
    assert next(asked, None) is None
    assert all(len(actions) == game.info.acting_seats for _, actions in decisions)


@pytest.mark.parametrize("name", GAMES)
def test_play_game_until_stops_before_the_decision(name):
    game = make_game(name)
    agents = [_random_agent(s) for s in range(game.info.num_seats)]
    state = play_game(game, agents, until=lambda s: s.turn >= 3)
    assert state.turn == 3 and not state.is_terminal()


def test_play_game_stops_a_game_that_does_not_end():
    game = make_game("dorix")
    with pytest.raises(RuntimeError, match="did not end within 5"):
        play_game(game, [_random_agent(0), _random_agent(1)], max_steps=5)


@pytest.mark.parametrize("name", GAMES)
def test_decisions_in_notation_read_back(name):
    game = make_game(name)
    state = game.new_initial_state()
    agent = _random_agent(3)
    for _ in range(6):
        if state.is_terminal():
            break
        decision = decide(state, lambda seat: agent)
        text = state.actions_to_text(decision)
        assert state.text_to_actions(text) == decision
        assert text.count("|") == game.info.acting_seats - 1
        state.apply_actions(decision)


def test_a_decision_in_notation_needs_one_move_per_acting_seat():
    state = make_game("barc").new_initial_state()
    with pytest.raises(IllegalActionError, match="expected 2 moves"):
        state.text_to_actions("stay")


def test_games_side_by_side_batch_the_agents_that_can_and_end_like_one_by_one():
    from boardgames.envs.agents.play import play_games_side_by_side

    class First:
        """Plays the lowest legal action; one by one."""

        def __call__(self, state, seat):
            return int(state.legal_actions(seat)[0])

    class LastBatched:
        """Plays the highest legal action; all its moves of a round in one call."""

        def __init__(self):
            self.calls = []

        def __call__(self, state, seat):
            return int(state.legal_actions(seat)[-1])

        def act_batch(self, states, seats):
            self.calls.append(len(states))
            return [self(s, k) for s, k in zip(states, seats)]

    for name, options in (("dorix", {"num_players": 3}), ("barc", {})):
        game = make_game(name, **options)
        first, last = First(), LastBatched()
        seatings = [[first if (seat + g) % 2 else last for seat in range(game.info.num_seats)] for g in range(5)]
        ends = play_games_side_by_side(game, seatings)
        for seating, end in zip(seatings, ends):
            alone = play_game(game, seating)  # the same deterministic agents, one game at a time
            assert end.is_terminal() and end.to_text() == alone.to_text()
        assert max(last.calls) > 1  # several games' moves in one call
