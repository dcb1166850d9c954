"""Tools above the environments: game records, move lists in notation and GIFs (:mod:`.replay`)."""
