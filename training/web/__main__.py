"""``python -m training.web``: serve the game (and replays) in the browser; see :mod:`training.web`."""

import sys

from training.web import main

sys.exit(main())
