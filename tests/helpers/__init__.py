"""Helpers shared by the test folders (``tests/`` is on ``sys.path`` through its conftest.py): the game
variants every per-game test runs over, and the command lines and settings of the tiny training runs."""
