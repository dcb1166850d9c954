"""The engine path of the fuzz campaign: random games on the Game/State interface, checked after
every decision, with malformed inputs mixed in.

After every decision (and at the start and the end of a game) :func:`check_position` checks the
game's invariants, the notation round trip (``from_text(to_text())`` gives the same text and the same
array), every seat's observation (shape, float32, finite, in [0, 1]) and legal mask (bool, the same as
``legal_actions``, not empty exactly for the seats that act, all False once the game is over) and the
returns (0 before the end; at the end in {-1, 0, 1}, 0 on truncation, partners equal). Each decision
is played on the state with ``apply_actions`` and on a clone through another entry point (``apply``,
``apply_joint``, a sequence, ``check=False``, extra seats that must be ignored, numpy integer or 0-d
array actions); both must end equal, and the clone must not move before it is played. The names of
the chosen actions are read back to the same actions.

With probability ``rate`` per decision one malformed input is tried (:func:`try_malformed`); it must
raise the documented error and leave the state byte for byte as it was.
"""

from __future__ import annotations

import numpy as np

from boardgames.benchmarks.fuzz import inputs
from boardgames.benchmarks.fuzz.report import Probe
from boardgames.envs.core.errors import IllegalActionError, NotationError


def check_position(probe: Probe, game, state) -> None:
    """Every check of one position (see the module docstring); stops the game at the first that fails."""
    info = game.info
    need = probe.need
    text = state.to_text()
    probe.position = text
    try:
        state.check_invariants()
    except AssertionError as e:
        need(False, "invariants", f"check_invariants: {e}")
    try:
        back = game.from_text(text)
    except NotationError as e:
        need(False, "notation round trip", f"from_text(to_text()) refuses the position: {e}")
    need(back.to_text() == text, "notation round trip", lambda: f"from_text(to_text()) writes {back.to_text()!r}")
    need(np.array_equal(back.data, state.data), "notation round trip", "from_text(to_text()) has another array")
    seats = state.current_seats()
    over = state.is_terminal()
    need(over == (len(seats) == 0), "current seats", lambda: f"is_terminal()={over} but current_seats()={seats}")
    if not info.simultaneous:
        need(state.current_seat == (seats[0] if seats else -1), "current seats", "current_seat != current_seats()")
    for seat in range(info.num_seats):
        mask = state.legal_mask(seat)
        need(
            mask.dtype == np.bool_ and mask.shape == (info.num_actions,),
            "mask",
            lambda: f"seat {seat}: {mask.dtype} {mask.shape}",
        )
        acts = seat in seats
        need(
            bool(mask.any()) == acts,
            "mask",
            lambda: f"seat {seat}: mask has legal actions={mask.any()} but acts={acts}",
        )
        need(
            np.array_equal(state.legal_actions(seat), np.flatnonzero(mask)),
            "mask",
            "legal_actions != flatnonzero(mask)",
        )
        obs = state.observation(seat)
        need(
            obs.dtype == np.float32 and obs.shape == info.observation_shape,
            "observation",
            lambda: f"{obs.dtype} {obs.shape}",
        )
        need(
            np.isfinite(obs).all() and obs.min() >= 0.0 and obs.max() <= 1.0,
            "observation",
            lambda obs=obs, seat=seat: f"seat {seat}: values in [{obs.min()}, {obs.max()}], not in [0, 1]",
        )
    if seats and not info.simultaneous:
        need(np.array_equal(state.legal_mask(), state.legal_mask(seats[0])), "mask", "legal_mask() != legal_mask(seat)")
    check_returns(probe, game, state)


def check_returns(probe: Probe, game, state) -> None:
    info = game.info
    ret = state.returns()
    probe.need(
        ret.dtype == np.float32 and ret.shape == (info.num_seats,), "returns", lambda: f"{ret.dtype} {ret.shape}"
    )
    if not state.is_terminal():
        probe.need(not ret.any() and not state.is_truncated(), "returns", lambda: f"running game has returns {ret}")
        return
    probe.need(set(ret.tolist()) <= {-1.0, 0.0, 1.0}, "returns", lambda: f"returns {ret} not in {{-1, 0, 1}}")
    if state.is_truncated():
        probe.need(not ret.any(), "returns", lambda: f"truncated game has returns {ret}")
    for seat in range(info.num_seats):
        for partner in info.partners(seat):
            probe.need(ret[seat] == ret[partner], "returns", lambda: f"partners {seat}, {partner} get {ret}")


def _variant_apply(clone, decision: dict, rng, info) -> str:
    """Play ``decision`` on ``clone`` through a randomly chosen other entry point; its name."""
    seats = sorted(decision)
    form = {s: inputs.action_form(rng, a) for s, a in decision.items()}
    k = int(rng.integers(5))
    if k == 0:
        clone.apply_actions(form)
        return "apply_actions with numpy actions"
    if k == 1:
        clone.apply_actions(decision, check=False)
        return "apply_actions(check=False)"
    if k == 2:
        seq = [int(rng.integers(info.num_actions)) for _ in range(info.num_seats)]
        for s in seats:
            seq[s] = decision[s]
        clone.apply_actions(seq)
        return "apply_actions(sequence by seat)"
    if k == 3 and not info.simultaneous:  # the other seats do not act: ignored
        extra = {s: int(rng.integers(info.num_actions)) for s in range(info.num_seats)}
        extra.update(form)
        clone.apply_actions(extra)
        return "apply_actions with extra seats"
    if info.simultaneous:
        clone.apply_joint([form[s] for s in range(info.num_seats)])
        return "apply_joint"
    clone.apply(form[seats[0]])
    return "apply"


def play_decision(probe: Probe, game, state, decision: dict, rng) -> None:
    """Play ``decision`` on ``state`` and on a clone through another entry point; both must end equal."""
    info = game.info
    for seat, a in decision.items():
        name = state.action_to_text(a, seat)
        back = state.text_to_action(name, seat)
        probe.need(
            back == a, "move notation", lambda: f"seat {seat}: action {a} is written {name!r}, read back as {back}"
        )
    joint = state.actions_to_text(decision)
    probe.need(
        state.text_to_actions(joint) == decision, "move notation", lambda: f"decision {decision} written {joint!r}"
    )
    before = state.data.copy()
    turn = state.turn
    clone = state.clone()
    state.apply_actions(decision)
    probe.need(np.array_equal(clone.data, before), "clone", "playing the state moved its clone")
    try:
        entry = _variant_apply(clone, decision, rng, info)
    except IllegalActionError as e:  # a well-formed decision in a form that must be accepted: noted, then as ints
        probe.fail("legal action form", f"refused: {e}", repr(decision))
        entry = "apply_actions (after the refusal)"
        clone.apply_actions(decision)
    probe.need(
        np.array_equal(clone.data, state.data),
        "clone/apply equality",
        lambda: f"{entry} of {decision} gives another state than apply_actions: {clone.to_text()!r}",
    )
    probe.need(state.turn >= turn, "turn", lambda: f"turn went from {turn} to {state.turn}")


def try_malformed(probe: Probe, game, state, rng) -> None:
    """One malformed or illegal input in a running position (see :mod:`boardgames.benchmarks.fuzz.inputs`)."""
    info = game.info
    seats = state.current_seats()
    seat = seats[int(rng.integers(len(seats)))]
    mask = state.legal_mask(seat)
    legal = {s: int(rng.choice(state.legal_actions(s))) for s in seats}
    snap = state.data.copy
    refused = probe.refused
    k = int(rng.integers(10))
    if k <= 3:  # a bad action for one acting seat, through one of the entry points
        kind, bad = inputs.bad_action(rng, mask)
        decision = {**legal, seat: bad}
        seq: list = [legal.get(s, 0) for s in range(info.num_seats)]
        seq[seat] = bad
        calls = [lambda: state.apply_actions(decision), lambda: state.apply_actions(seq)]
        calls.append((lambda: state.apply_joint(seq)) if info.simultaneous else (lambda: state.apply(bad)))
        call = calls[int(rng.integers(len(calls)))]
        refused(call, IllegalActionError, f"action ({kind})", f"seat {seat}: {bad!r}", snap)
    elif k == 4:  # a decision without an acting seat's action, or not a decision at all
        others = [s for s in range(info.num_seats) if s != seat]
        partial = {s: legal.get(s, int(rng.integers(info.num_actions))) for s in others}
        case: object = [partial, {}, None, 7, [], {seat: None, **partial}][int(rng.integers(6))]
        refused(lambda: state.apply_actions(case), IllegalActionError, "missing seat", repr(case), snap)
        if info.simultaneous:
            short = [legal[s] for s in seats][: int(rng.integers(len(seats)))]
            refused(lambda: state.apply_joint(short), IllegalActionError, "missing seat", f"apply_joint({short})", snap)
    elif k == 5:  # the call of the other kind of game
        if info.simultaneous:
            refused(lambda: state.apply(legal[seat]), TypeError, "wrong kind of call", f"apply({legal[seat]})", snap)
        else:
            joint = [legal[seat]] * info.num_seats
            refused(lambda: state.apply_joint(joint), TypeError, "wrong kind of call", f"apply_joint({joint})", snap)
    elif k == 6:  # not a seat
        kind, bad = inputs.bad_seat(rng, info.num_seats)
        call = [state.legal_mask, state.observation, state.legal_actions][int(rng.integers(3))]
        refused(lambda: call(bad), ValueError, f"{call.__name__}(bad seat)", repr(bad), snap)
    elif k == 7:  # not an action's name
        kind, bad = inputs.bad_action(rng, mask)
        if not kind.startswith("illegal"):  # an illegal action in range has a name
            refused(
                lambda: state.action_to_text(bad, seat), IllegalActionError, f"action_to_text ({kind})", repr(bad), snap
            )
    elif k == 8:  # a malformed or mutated move
        kind, bad = inputs.move_text(rng, state.action_to_text(legal[seat], seat))
        _move_text_refused_or_legal(probe, state, seat, kind, bad)
    else:  # a malformed or mutated position
        kind, bad = inputs.position_text(rng, state.to_text())
        position_refused_or_valid(probe, game, kind, bad)


def _move_text_refused_or_legal(probe: Probe, state, seat: int, kind: str, text) -> None:
    """``text_to_action(text, seat)`` raises IllegalActionError or reads a legal action of ``seat``."""
    probe.tally.inputs += 1
    before = state.data.copy()
    try:
        a = state.text_to_action(text, seat)
    except IllegalActionError:
        a = None
    except Exception as e:  # noqa: BLE001
        probe.fail(
            f"text_to_action ({kind})", f"raised {type(e).__name__}({e}) instead of IllegalActionError", repr(text)
        )
        a = None
    else:
        ok = isinstance(a, int) and not isinstance(a, bool) and state.legal_mask(seat)[a]
        if not ok:
            probe.fail(f"text_to_action ({kind})", f"read as {a!r}, not a legal action of seat {seat}", repr(text))
    probe.need(np.array_equal(state.data, before), f"text_to_action ({kind})", "the state changed")


def position_refused_or_valid(probe: Probe, game, kind: str, text) -> None:
    """``from_text(text)`` raises NotationError or gives a state that passes its invariants, writes a
    position read back to the same state, and has a legal action for every seat that acts."""
    probe.tally.inputs += 1
    try:
        state = game.from_text(text)
    except NotationError:
        return
    except Exception as e:  # noqa: BLE001
        probe.fail(f"from_text ({kind})", f"raised {type(e).__name__}({e}) instead of NotationError", repr(text))
        return
    problem = None
    try:
        state.check_invariants()
        written = state.to_text()
        again = game.from_text(written)
        if not np.array_equal(again.data, state.data) or again.to_text() != written:
            problem = f"accepted, but its notation {written!r} reads back as another state"
        elif any(not state.legal_mask(s).any() for s in state.current_seats()):
            problem = "accepted a position where a seat to act has no legal action"
    except AssertionError as e:
        problem = f"accepted a position that fails check_invariants: {e}"
    except Exception as e:  # noqa: BLE001
        problem = f"accepted, then {type(e).__name__}: {e}"
    if problem:
        probe.fail(f"from_text ({kind})", problem, repr(text))


def check_finished(probe: Probe, game, state, rng) -> None:
    """A finished game refuses every move (IllegalActionError, state unchanged)."""
    info = game.info
    snap = state.data.copy
    a = int(rng.integers(info.num_actions))
    k = int(rng.integers(4))
    if k == 0:
        probe.refused(lambda: state.apply_actions({0: a}), IllegalActionError, "finished game", f"{{0: {a}}}", snap)
    elif k == 1 and info.simultaneous:
        joint = [a, -7] + [10**6] * (info.num_seats - 2)
        probe.refused(
            lambda: state.apply_joint(joint), IllegalActionError, "finished game", f"apply_joint({joint})", snap
        )
    elif k == 1:
        probe.refused(lambda: state.apply(a), IllegalActionError, "finished game", f"apply({a})", snap)
    elif k == 2:
        name = state.action_to_text(a, 0)
        probe.refused(lambda: state.text_to_action(name, 0), IllegalActionError, "finished game", repr(name), snap)
    else:
        kind, bad = inputs.position_text(rng, state.to_text())
        position_refused_or_valid(probe, game, kind, bad)


def engine_game(probe: Probe, game, rng, rate: float) -> None:
    """One random game from the start to its end through the engine, checked as the module says."""
    state = game.new_initial_state()
    check_position(probe, game, state)
    while not state.is_terminal():
        if rng.random() < rate:
            try_malformed(probe, game, state, rng)
        decision = {s: int(rng.choice(state.legal_actions(s))) for s in state.current_seats()}
        play_decision(probe, game, state, decision, rng)
        probe.tally.turns += 1
        check_position(probe, game, state)
    check_finished(probe, game, state, rng)
