"""Training, baseline agents and evaluation for the games in :mod:`envs`."""
