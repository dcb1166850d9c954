"""Evaluation: matches between agents with win rates and Elo, the leaderboards, and strength estimates."""
