"""``python -m boardgames``: the same command line as ``boardgames`` (:mod:`boardgames.cli`)."""

import sys

from boardgames.cli import main

sys.exit(main())
