"""Measuring agents of every family against each other: matches with win rates and Elo (:mod:`.evaluate`,
``boardgames evaluate``), the per-game leaderboards (:mod:`.leaderboard`, ``boardgames leaderboard``) and
win rates measured while an SB3 agent trains (:mod:`.strength`). Agents are built from specs by
:func:`boardgames.training.agent_kinds.make_agent`, so any registered kind can play."""
