"""``python -m boardgames.play``: play a game against an agent (:mod:`boardgames.play.cli`)."""

import sys

from boardgames.play.cli import main

sys.exit(main())
