"""A game's environment spec as data: its observation planes, its action encoding and its notation.

Each game writes its spec once, in ``envs/<game>/spec.py`` (``SPEC``, a :class:`GameSpec`): pure
data, no numba. Everything that documents these three things comes from it:

* ``SPEC.markdown(section)`` renders the ``"observation"``, ``"actions"`` or ``"notation"`` section as
  Markdown (tables, formulas, examples);
* the rules pages ``docs/rules/<game>.md`` hold each section between marker comments,
  ``<!-- spec:observation -->`` ... ``<!-- /spec:observation -->``, which ``python -m
  docs.make_spec_tables`` rewrites (:func:`fill_sections`);
* the environment modules ``envs/<game>_v0.py`` build their docstring at import from a template with
  the same (empty) markers (:meth:`GameSpec.fill_doc`), so ``help(boardgames.envs.dorix_v0)`` shows the tables.

``tests/package/test_spec_docs.py`` checks the spec against the code: plane and action counts, value ranges,
hand-built observations and every notation example.

Formulas (plane indices, actions, variable bounds, value scales) are small Python expressions over
the spec's :class:`Symbol` values (e.g. ``n``, the number of players) and the row's :class:`Var`
values; they are shown as written and evaluated by :meth:`GameSpec.planes` and
:meth:`GameSpec.action_ranges`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace
from typing import overload

from boardgames.envs.core.markdown import fill_sections, marked_sections
from boardgames.envs.core.markdown import paragraph as _para
from boardgames.envs.core.markdown import table as _table

__all__ = ["SECTIONS", "GameSpec", "fill_sections", "marked_sections"]

SECTIONS = ("observation", "actions", "notation")


def _eval(expr, env: dict) -> int | float:
    """Value of a spec formula (an int, or a Python expression over ``env``'s names)."""
    if isinstance(expr, (int, float)):
        return expr
    return eval(expr, {"__builtins__": {}}, dict(env))  # noqa: S307 - the spec's own formulas


def _compact(expr) -> str:
    """A bound as shown in a range: ``n-1`` rather than ``n - 1``."""
    return str(expr).replace(" ", "")


@dataclass(frozen=True)
class Symbol:
    """A name the formulas use, computed from the game's options (``expr`` over the option names and
    the symbols before it), e.g. ``Symbol("n", "the number of players", "num_players")``."""

    name: str
    meaning: str
    expr: str


@dataclass(frozen=True)
class Var:
    """A variable of a formula: the integers ``low..high`` (bounds may be expressions over the
    symbols); ``labels`` name each value (in plane names and in the rendered ranges)."""

    name: str
    low: int | str
    high: int | str
    labels: tuple = ()

    def values(self, env: dict) -> range:
        return range(int(_eval(self.low, env)), int(_eval(self.high, env)) + 1)

    def label(self, value: int) -> str:
        return str(self.labels[value - int(self.low)]) if self.labels else str(value)

    def markdown(self) -> str:
        text = f"{self.name} = {_compact(self.low)}..{_compact(self.high)}"
        return text + (f" ({', '.join(map(str, self.labels))})" if self.labels else "")


def _vars_markdown(formula: str, variables: tuple) -> str:
    text = f"`{formula}`"
    return text + ("; " + ", ".join(v.markdown() for v in variables) if variables else "")


def _assignments(variables: tuple, env: dict):
    """Every combination of the variables' values, the first variable outermost."""
    for values in itertools.product(*(v.values(env) for v in variables)):
        yield dict(zip((v.name for v in variables), values))


# ----- observation ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Planes:
    """One row of the observation table: the channels ``index`` (a formula over ``vars``, the first
    variable outermost, so the channels come in the order the formula gives them).

    ``name`` is a template of each channel's name (``"face_{f}_{w}"``, variables replaced by their
    labels); ``scale`` is empty for a 0-or-1 plane, else the divisor (an expression) of a count: the
    values are multiples of ``1/scale`` in [0, 1]; ``constant`` planes have one value on every square."""

    index: str
    name: str
    meaning: str
    vars: tuple = ()
    scale: str = ""
    constant: bool = False

    def values_markdown(self) -> str:
        values = "0 or 1" if not self.scale else f"multiples of 1/{self.scale}"
        return values + ("; constant plane" if self.constant else "")


@dataclass(frozen=True)
class Plane:
    """One channel of the observation, as :meth:`GameSpec.planes` lists them."""

    index: int
    name: str
    row: Planes
    at: dict = field(default_factory=dict)
    scale: float = 0.0  # 0: the plane is 0 or 1

    @property
    def binary(self) -> bool:
        return not self.scale

    @property
    def constant(self) -> bool:
        return self.row.constant


@dataclass(frozen=True)
class Observation:
    """``board`` (rows, columns) of the observation tensor, then ``channels`` planes (a formula);
    ``layout`` says how squares map to cells and what "own" means; for the seats in ``turned_for``
    the board is turned half a turn (cell ``(r, f)`` shows square ``last - (r * width + f)``)."""

    board: tuple
    channels: str
    layout: str
    planes: tuple
    turned_for: tuple = ()

    def shape_markdown(self) -> str:
        return f"`({self.board[0]}, {self.board[1]}, {self.channels})`"


# ----- actions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Actions:
    """One kind of action: the indices ``formula`` takes over ``vars`` (``name`` links the notation's
    moves to it)."""

    name: str
    formula: str
    meaning: str
    vars: tuple = ()


@dataclass(frozen=True)
class ActionSpace:
    """The action kinds, which together number the actions ``0 .. num_actions-1`` once each;
    ``intro`` explains the squares and frames the formulas use."""

    intro: str
    kinds: tuple


# ----- notation -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """A ``key=value`` field of a position: ``syntax`` as written (``"hands=<h0>,<h1>,.."``)."""

    syntax: str
    meaning: str
    required: bool = False

    @property
    def key(self) -> str:
        return self.syntax.partition("=")[0]


@dataclass(frozen=True)
class Position:
    """A position in notation that ``game.from_text`` reads and ``to_text`` writes back as it is,
    with the options of the game it belongs to (e.g. ``{"num_players": 3}``)."""

    text: str
    comment: str
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class MoveExample:
    """A move ``text`` that is legal in ``position`` (None: the start) and names ``action`` (for
    ``seat``); ``action`` is a ``{seat: action}`` dict for a whole decision of several seats."""

    text: str
    action: int | dict
    position: str | None = None
    seat: int | None = None
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    """A way of writing a move: ``syntax``, what it does, examples (a tuple of :class:`MoveExample`, or
    one of them) and the action kind it names (``kind``, None for a whole decision; :class:`Notation`
    sets it from the kind its moves are listed under)."""

    syntax: str
    meaning: str
    examples: tuple | MoveExample  # one example is made a tuple of it
    kind: str | None = None

    def __post_init__(self):
        if isinstance(self.examples, MoveExample):
            object.__setattr__(self, "examples", (self.examples,))


@dataclass(frozen=True)
class Notation:
    """The position notation (``<game> <board> key=value ..``) and the move notation: ``moves`` maps each
    action kind (None: a whole decision) to its :class:`Move` or a tuple of them; the attribute is then
    the tuple of every move, in that order, each with its ``kind``."""

    board: str
    fields: tuple
    positions: tuple
    moves: dict
    moves_note: str = ""

    def __post_init__(self):
        if isinstance(self.moves, dict):
            moves = tuple(
                replace(move, kind=kind)
                for kind, listed in self.moves.items()
                for move in (listed if isinstance(listed, tuple) else (listed,))
            )
            object.__setattr__(self, "moves", moves)


# ----- pieces several games share -------------------------------------------------------------------

TURN_LIMIT = Symbol("T", "the turn limit (`max_turns`, or the position's `limit=`)", "max_turns")
LIMIT_FIELD = Field("limit=<n>", "The turn limit, written when it differs from the game's `max_turns`.")
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # directions 0..7, clockwise from north


def text(paragraph: str) -> str:
    """A paragraph of the spec written across lines (a triple-quoted string): its words joined by
    single spaces."""
    return " ".join(paragraph.split())


def turn_plane(index: str) -> Planes:
    """The constant plane "turns played / T" at channel ``index`` (its game's spec has a
    ``turn_limit``, which gives it the symbol T)."""
    return Planes(index, "turn", "turns played / T", scale="T", constant=True)


def move_field(meaning: str) -> Field:
    """The required field ``move=<seat>``: the seat to act."""
    return Field("move=<seat>", meaning, required=True)


def turn_field(meaning: str) -> Field:
    """The required field ``turn=<n>``: the turns played."""
    return Field("turn=<n>", meaning, required=True)


def limit_example(text: str, about: str = "", options: dict | None = None) -> Position:
    """The example position ``text`` with a ``limit=<n>`` field (for a game made with ``options``), its
    comment ``about`` followed by what the field says."""
    found = re.search(r"\blimit=(\d+)", text)
    if found is None:
        raise ValueError(f"example position {text!r} has no limit=<n> field")
    limit = found.group(1)
    comment = f"{about}with a turn limit of {limit} (for a game made with another `max_turns`)"
    return Position(text, comment, options or {})


# ----- the spec -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """Observation planes, action encoding and notation of one game (see the module docstring):
    ``symbols`` are computed from the game's options (``defaults`` where none are given), and
    ``seat_names`` name the seats in the rendered examples. ``turn_limit`` is the default
    ``max_turns`` of a game with a :func:`turn_plane`: it adds the symbol T (:data:`TURN_LIMIT`)."""

    game: str
    observation: Observation
    actions: ActionSpace
    notation: Notation
    symbols: tuple = ()
    defaults: dict = field(default_factory=dict)
    seat_names: tuple = ("player_0", "player_1")
    turn_limit: int | None = None

    def __post_init__(self):
        if self.turn_limit is not None:  # the symbol T of the turn plane, the option's default
            object.__setattr__(self, "symbols", (*self.symbols, TURN_LIMIT))
            object.__setattr__(self, "defaults", {**self.defaults, "max_turns": self.turn_limit})

    # evaluation ------------------------------------------------------------------------------
    def env(self, options: dict | None = None) -> dict:
        """The symbols' values for a game built with ``options`` (its ``info.options``; the spec's
        ``defaults`` fill in the options not given)."""
        env = {**self.defaults, **(options or {})}
        for s in self.symbols:
            env[s.name] = _eval(s.expr, env)
        return env

    def num_channels(self, options: dict | None = None) -> int:
        return int(_eval(self.observation.channels, self.env(options)))

    def planes(self, options: dict | None = None) -> list:
        """Every channel as the spec describes it, in the order of the rows and their variables."""
        env = self.env(options)
        out = []
        for row in self.observation.planes:
            for at in _assignments(row.vars, env):
                labels = {v.name: v.label(at[v.name]) for v in row.vars}
                local = {**env, **at}
                scale = float(_eval(row.scale, local)) if row.scale else 0.0
                out.append(Plane(int(_eval(row.index, local)), row.name.format(**labels), row, at, scale))
        return out

    def plane(self, name: str, options: dict | None = None) -> Plane:
        """The channel called ``name`` (KeyError naming the known ones when there is none)."""
        planes = self.planes(options)
        for p in planes:
            if p.name == name:
                return p
        raise KeyError(f"{self.game} has no plane {name!r}; planes: {', '.join(p.name for p in planes)}")

    def cell(self, square: int, seat: int) -> tuple:
        """The observation cell ``(row, column)`` that shows board square ``square`` to ``seat``."""
        rows, cols = self.observation.board
        if seat in self.observation.turned_for:
            square = rows * cols - 1 - square
        return divmod(square, cols)

    def action_ranges(self, options: dict | None = None) -> dict:
        """``{kind name: sorted list of its actions}``."""
        env = self.env(options)
        return {
            k.name: sorted(int(_eval(k.formula, {**env, **at})) for at in _assignments(k.vars, env))
            for k in self.actions.kinds
        }

    def num_actions(self, options: dict | None = None) -> int:
        return sum(len(a) for a in self.action_ranges(options).values())

    def position_syntax(self) -> str:
        """The one-line grammar of a position, from the fields (optional ones in brackets)."""
        parts = [self.game, "<board>"]
        parts += [f.syntax if f.required else f"[{f.syntax}]" for f in self.notation.fields]
        return " ".join(parts)

    # rendering -------------------------------------------------------------------------------
    def markdown(self, section: str | None = None) -> str:
        """Section ``"observation"``, ``"actions"`` or ``"notation"`` as Markdown; all three, each
        under a heading, when ``section`` is None."""
        if section is None:
            titles = {"observation": "Observation", "actions": "Action encoding", "notation": "Notation"}
            return "\n\n".join(f"## {titles[s]}\n\n{self.markdown(s)}" for s in SECTIONS)
        if section not in SECTIONS:
            raise ValueError(f"unknown spec section {section!r}; sections: {', '.join(SECTIONS)}")
        return getattr(self, f"_{section}_markdown")()

    def _observation_markdown(self) -> str:
        obs = self.observation
        intro = f"{obs.shape_markdown()} float32, every value in [0, 1]. {obs.layout}"
        if any(row.constant for row in obs.planes):
            intro += " A constant plane holds one value on every square."
        parts = [_para(intro)]
        if self.symbols:
            parts.append(_para("; ".join(f"*{s.name}* = {s.meaning}" for s in self.symbols) + "."))
        rows = [
            [_vars_markdown(row.index, row.vars), f"`{row.name}`", row.meaning, row.values_markdown()]
            for row in obs.planes
        ]
        parts.append(_table(["plane", "name", "content", "values"], rows))
        return "\n\n".join(parts)

    def _actions_markdown(self) -> str:
        ranges = self.action_ranges()
        syntax: dict[str | None, list[str]] = {}
        for move in self.notation.moves:
            syntax.setdefault(move.kind, []).append(f"`{move.syntax}`")
        rows = []
        for k in self.actions.kinds:
            r = ranges[k.name]
            span = str(r[0]) if len(r) == 1 else f"{r[0]}..{r[-1]}"
            rows.append([_vars_markdown(k.formula, k.vars), span, k.meaning, ", ".join(syntax.get(k.name, []))])
        intro = f"`Discrete({self.num_actions()})`, with an `action_mask` marking the legal actions. "
        return _para(intro + self.actions.intro) + "\n\n" + _table(["actions", "range", "meaning", "notation"], rows)

    def _notation_markdown(self) -> str:
        nota = self.notation
        fields = [[f"`{f.syntax}`", ("Required. " if f.required else "") + f.meaning] for f in nota.fields]
        moves = [[f"`{m.syntax}`", m.meaning, "; ".join(map(self._example_markdown, m.examples))] for m in nota.moves]
        parts = [
            _para(
                "A position is one line of space-separated fields (`game.from_text(text)` reads it, "
                "`state.to_text()` writes it):"
            ),
            f"```text\n{self.position_syntax()}\n```",
            _para(nota.board),
            _table(["field", "meaning"], fields),
            "Examples:",
            "\n".join(_para(f"- {p.comment}:", "  ") + f"\n  `{p.text}`" for p in nota.positions),
            _para(
                "Moves (`state.text_to_action(text, seat)` reads one, `state.action_to_text(action, seat)` writes it):"
            ),
            _table(["move", "meaning", "example"], moves),
        ]
        if nota.moves_note:
            parts.append(_para(nota.moves_note))
        return "\n\n".join(parts)

    def _example_markdown(self, ex: MoveExample) -> str:
        if isinstance(ex.action, dict):
            what = ", ".join(f"{self.seat_names[s]} {a}" for s, a in sorted(ex.action.items()))
            return f"`{ex.text}`: actions {what}"
        who = f" by {self.seat_names[ex.seat]}" if ex.seat is not None else ""
        return f"`{ex.text}`{who}: action {ex.action}"

    @overload
    def fill_doc(self, doc: str) -> str: ...
    @overload
    def fill_doc(self, doc: None) -> None: ...

    def fill_doc(self, doc: str | None) -> str | None:
        """A docstring template with its marker pairs filled by the sections, markers removed (None
        stays None, as under ``python -OO``)."""
        return None if doc is None else fill_sections(doc, self, keep_markers=False)
