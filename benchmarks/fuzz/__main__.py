"""``python -m boardgames.benchmarks.fuzz``: see :mod:`boardgames.benchmarks.fuzz.run`."""

from boardgames.benchmarks.fuzz.run import main

raise SystemExit(main())
