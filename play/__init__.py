"""A person playing against an agent of any kind (:func:`boardgames.training.agent_kinds.make_agent`): in the
terminal or a pygame window (:mod:`.cli`, ``boardgames play``) or in the browser (:mod:`.web`, ``boardgames
web``), with the moves written in each game's notation (:mod:`.moves`)."""

if __name__ != "boardgames.play":  # the folder imported by its own name, from the repository root
    raise ImportError(f"play/ is the package boardgames.play: import boardgames.play, not {__name__}")
