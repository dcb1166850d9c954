"""``--set`` for the families whose settings are not the SB3 config sections: one section of the config files
(AlphaZero: ``--set alphazero.KEY=VALUE``) or the fields of a dataclass (RLlib: ``--set KEY=VALUE``).

SB3 reads every section (:func:`boardgames.training.settings.load_config`); the checks that name a setting and
its range are :func:`boardgames.training.settings.check_count` and ``check_number`` for every family.
"""

from __future__ import annotations

from dataclasses import fields

from boardgames.training.settings import SettingError, parse_sets


def section_sets(items: list | None, section: str, family: str) -> dict:
    """``{key: value}`` of ``--set SECTION.KEY=VALUE`` items that must all be of ``section``; SettingError
    naming the first of another section (``family`` names whose settings they are, for the message)."""
    out = {}
    for name, key, value in parse_sets(items):
        if name != section:
            raise SettingError(f"--set {name}.{key}: {family} settings are {section}.<key>")
        out[key] = value
    return out


def set_fields(settings, changes: list[tuple[str, object]]) -> None:
    """Set each ``(field, value)`` of ``changes`` on the dataclass ``settings``: SettingError for a field it has
    not, or a value of another type than the field's (an int is taken for a float; a bool only for a bool)."""
    known = [f.name for f in fields(settings)]
    for key, value in changes:
        if key not in known:
            raise SettingError(f"--set {key}: no such setting; the settings: {', '.join(known)}")
        current = getattr(settings, key)
        if (
            isinstance(current, bool)
            or not isinstance(value, type(current))
            and not (isinstance(current, float) and isinstance(value, int))
        ):
            raise SettingError(
                f"--set {key}={value!r}: expected a value of type {type(current).__name__}, like {current!r}"
            )
        setattr(settings, key, type(current)(value) if isinstance(current, float) else value)
