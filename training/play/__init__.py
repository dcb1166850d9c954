"""Play against an agent: the terminal and window command (:mod:`.cli`), the browser server (:mod:`.web`)."""
