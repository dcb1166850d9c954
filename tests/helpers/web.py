"""Checks and fixtures shared by the web server's tests (tests/play/web)."""

from boardgames.envs.registry import make_game

WIN_IN_ONE = "dorix -.-.-.1/-.111.1.-/1.10.1.-/1.111.-.- hands=14,3 move=0 turn=0"  # b2 ends the game


def refused(response, status: int, *words) -> str:
    """The error message of ``response``, which must have the status ``status`` and name every one of ``words``."""
    assert response.status_code == status, (response.status_code, response.text)
    message = response.json()["error"]
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    return message


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def dorix_table(start: str | None = None):
    """A table of two-player Dorix against the random agent, from ``start`` (notation) or the start."""
    from boardgames.play.web.session import Table

    game = make_game("dorix", num_players=2)
    return Table(game, "random", start=game.from_text(start) if start else None)


def play_session(table, finished=False):
    """A game at ``table``; ``finished``: already won with b2 (the table starts at :data:`WIN_IN_ONE`)."""
    from boardgames.play.web.session import PlaySession

    session = PlaySession(table)
    if finished:
        session.play({"move": "b2"})
        assert session.finished
    return session
