"""The warnings the README's PettingZoo and Gymnasium/SB3 examples print are the ones the README explains, and
no other: a new one (ours or a client's) must be silenced where we cause it or explained beside the example."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _block(heading: str) -> str:
    """The first Python example under the README's ``## heading``."""
    section = README.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def _warnings_of(block: str) -> list[tuple[str, str]]:
    """(category, first line of the message) of every warning the example raises that a user running it sees:
    each occurrence kept, but not the deprecations raised inside libraries, which Python's default filters hide
    (e.g. PettingZoo's own classic modules, imported by its test tools)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(compile(block, "README example", "exec"), {"__name__": "__main__"})
    hidden = (DeprecationWarning, PendingDeprecationWarning)
    return [(w.category.__name__, str(w.message).splitlines()[0]) for w in caught if not issubclass(w.category, hidden)]


def test_the_sb3_example_warns_only_of_the_checkers_illegal_actions():
    block = _block("Gymnasium and Stable-Baselines3")
    assert "warn=False" in block
    seen = {category for category, _ in _warnings_of(block)}
    assert seen <= {"IllegalActionWarning"}, seen  # SB3's "image" hints are off; the README says why
    assert "IllegalActionWarning" in README.split("## Gymnasium and Stable-Baselines3", 1)[1].split("\n## ")[0]


def test_the_pettingzoo_api_test_warns_only_of_the_dict_observation_it_does_not_know():
    expected = {
        "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
        "Observation is not a NumPy array",
    }
    seen = {message for _, message in _warnings_of(_block("PettingZoo"))}
    assert seen == expected, seen
    section = README.split("\n## PettingZoo\n", 1)[1].split("\n## ", 1)[0]
    for message in expected:  # each explained beside the example
        assert " ".join(message.split()) in " ".join(section.split()).replace('"', "")
