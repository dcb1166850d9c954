"""``python -m benchmarks.fuzz``: see :mod:`benchmarks.fuzz.run`."""

from benchmarks.fuzz.run import main

raise SystemExit(main())
