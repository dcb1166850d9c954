"""The alternating A/B loop of the small benchmark scripts (``obs_dtype_ab``, ``pick_ab``): every variant
runs in turn, ``seconds`` of ``time.process_time`` per round, and each keeps its best round, so that a
load that comes and goes on the machine hurts every variant alike."""

from __future__ import annotations

import time


def best_rates(fns: dict, rounds: int, seconds: float) -> dict:
    """``{key: best turns per CPU second}`` of the functions ``fns`` (each returns the turns it played),
    alternating over ``rounds`` rounds of ``seconds`` each."""
    best: dict = {}
    for _ in range(rounds):
        for key, fn in fns.items():
            start, turns = time.process_time(), 0
            while time.process_time() - start < seconds:
                turns += fn()
            best[key] = max(best.get(key, 0.0), turns / (time.process_time() - start))
    return best
