"""Code run by this Python in a fresh process."""

import os
import subprocess
import sys


def run_python(code: str, timeout: float = 300, **env: str) -> subprocess.CompletedProcess:
    """``code`` run by this Python (``-c``) with the environment variables ``env`` added; its output as text."""
    return subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, **env), capture_output=True, text=True, timeout=timeout
    )
