"""Settings of the whole test run."""

import os
from pathlib import Path

# The engines rendered at run time (test-only games; envs/compiled/engines.py) are written in the checkout's
# build/ folder, not in the user's ~/.cache/boardgames; subprocesses inherit it.
os.environ.setdefault("BOARDGAMES_CACHE_DIR", str(Path(__file__).resolve().parents[1] / "build" / "kernel-cache"))
# stable-baselines3 makes an empty folder in the system's temporary folder for every model that learns without a
# log folder (its logger's default); the tests' models share one in build/ instead of leaving hundreds in /tmp.
os.environ.setdefault("SB3_LOGDIR", str(Path(__file__).resolve().parents[1] / "build" / "sb3-logs"))
