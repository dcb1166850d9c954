"""The adapters: PettingZoo AEC and Parallel environments, the Gymnasium single-agent environment and what
the games' environment modules share, written once over the Game/State interface for every game."""
