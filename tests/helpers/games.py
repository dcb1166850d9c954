"""The shipped games and the options each is tested with: ``(name, options)`` for ``make_game``."""

GAMES = [
    ("dorix", {"num_players": 2}),
    ("dorix", {"num_players": 3}),
    ("dorix", {"num_players": 4}),
    ("olix", {}),
    ("adix", {}),
    ("barc", {}),
]
