"""Barc duel, version 0: replaced by :mod:`boardgames.envs.barc_v1`; kept so that older results can be reproduced.

`barc_v0` is the Barc duel from the first ruling's start, now named `"corners"`: South on a1, b1, a2,
e1, f1, f2 and North on the half-turn image. From that start each side has first moves that reach
victory on turn 2 whatever the other side does (`tests/barc/test_barc_opening.py`), so competent
play always draws on turn 2. `barc_v1` starts from the alternating start of ruling B1 (revised) and
is the version to use; its docstring and `docs/rules/barc.md` have the full rules. `barc_v0`'s
functions are `barc_v1`'s with `start="corners"` as the default: `barc_v0.parallel_env()` is
`barc_v1.parallel_env(start="corners")`, and models trained on one version are refused on the other.
"""

from boardgames.envs.adapters.env_module import parallel_env_functions
from boardgames.envs.barc.game import DEFAULT_MAX_TURNS, BarcGame

CONFORMANCE_OPTIONS = [dict(), dict(max_turns=12)]

make_game, raw_env, parallel_env, env = parallel_env_functions(
    BarcGame, "Barc duel (v0)", __name__, illegal_action="void", start="corners", max_turns=DEFAULT_MAX_TURNS
)
