"""The Olix picture's caption names the side to play as the rules page and the play page do (player_0 (light),
player_1 (dark)); the letters w/b stay the text board's key."""

from boardgames.envs.registry import make_game


def test_the_caption_names_the_side_by_its_colour():
    state = make_game("olix").new_initial_state()
    assert str(state).splitlines()[0] == "Olix, turn 0: player_0 (light) to play"
    state.apply(int(state.legal_actions()[0]))
    assert str(state).splitlines()[0] == "Olix, turn 1: player_1 (dark) to play"
