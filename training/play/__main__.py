"""``python -m boardgames.training.play``: play a game against an agent (:mod:`boardgames.training.play.cli`)."""

import sys

from boardgames.training.play.cli import main

sys.exit(main())
