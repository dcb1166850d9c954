"""Every game of the library as an OpenSpiel game, so that OpenSpiel's own algorithms run on them.

Importing this module (it needs the ``[openspiel]`` extra: ``pip install -e ".[openspiel]"`` in a clone)
registers each game of :mod:`boardgames.envs.registry` with OpenSpiel as a Python game named ``boardgames_<game>``::

    import pyspiel
    import boardgames.envs.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("boardgames_dorix(players=4)")
    state = game.new_initial_state()

What maps to what (``docs/openspiel.md`` has the table):

* names and parameters: ``boardgames_dorix`` (``players`` = 2, 3 or 4, OpenSpiel's usual name for the
  player count, and ``max_turns``), ``boardgames_olix``, ``boardgames_adix``, ``boardgames_barc`` (each
  with ``max_turns``; Barc also with ``start``, a name: ``boardgames_barc(start=corners)``); the defaults are
  those of the game's current environment module's ``make_game`` (``boardgames.envs.barc_v1``...).
* dynamics: the turn-based games are ``SEQUENTIAL``; Barc, whose seats act at once, is ``SIMULTANEOUS``
  (``state.apply_actions([a0, a1])``; ``pyspiel.convert_to_turn_based(game)`` gives the turn-based view
  that sequential algorithms such as ``MCTSBot`` need). All are deterministic, perfect-information
  games with terminal rewards.
* utility: returns are the engine's ``State.returns()``: +1 win, -1 loss, 0 draw or truncation, the same
  for the seats of a team. A game with two sides of equal size (every 2-player game, and 4-player Dorix,
  seats 0+2 against 1+3) is ``ZERO_SUM``; 3-player Dorix (one winner, two losers) is ``GENERAL_SUM``.
* ``max_game_length``: the most decisions a game can last, ``max_turns`` times the decisions one turn
  can take (one; four in Dorix, whose collapses ask the mover up to three more choices). A decision of
  Barc is one joint move, as OpenSpiel counts simultaneous moves.
* observations: ``observation_tensor(player)`` is the engine's ``observation(seat)`` (shape
  ``observation_shape``, flattened; ``observation_tensor_shape()`` gives the shape);
  ``observation_string(player)`` and ``str(state)`` are the position in the game's notation
  (``State.to_text()``); ``information_state_string(player)`` is the action history (perfect recall).
* actions: the engine's action indices; ``action_to_string`` is the move in the game's notation.
  Illegal actions raise :class:`boardgames.envs.core.errors.IllegalActionError` and leave the state untouched.
* serialization: OpenSpiel pickles a Python state's attributes; here that is the position in notation
  (``serialize_game_and_state`` / ``deserialize_game_and_state`` and ``pickle`` round-trip).
  ``game.new_initial_state(text)`` starts from a position written in notation.

:func:`engine_state` gives the library's :class:`~boardgames.envs.core.game.State` behind an OpenSpiel state.
"""

from __future__ import annotations

import inspect
from functools import cache

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "boardgames.envs.interop.openspiel needs OpenSpiel: pip install open_spiel dm-tree (the [openspiel] extra)"
    ) from e

from boardgames.envs import registry
from boardgames.envs.core.errors import IllegalActionError
from boardgames.envs.core.game import Game, State

PREFIX = "boardgames_"
"""OpenSpiel names are ``PREFIX + <game>`` (``boardgames_dorix``)."""

PARAMETER_NAMES = {"num_players": "players"}
"""Engine option -> OpenSpiel parameter, where OpenSpiel has a usual name (``players``); others keep theirs."""

DECISIONS_PER_TURN = {"dorix": 4}
"""The most decisions one turn can take, where it is more than one (for ``max_game_length``): a Dorix turn
is a placement or a move, then, when a stack collapses, one choice per falling pawn while two or more
lower neighbours are still to receive one (at most three: a square has at most four neighbours)."""


def openspiel_name(game: str) -> str:
    """The OpenSpiel name of the library's game ``game`` (``"dorix"`` -> ``"boardgames_dorix"``)."""
    return PREFIX + game


_TERMINAL, _SIMULTANEOUS = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.SIMULTANEOUS)

GAME_NAMES = {game: openspiel_name(game) for game in registry.game_names()}
"""The library's game name -> its OpenSpiel name, for every registered game."""


def game_string(game: str, **options) -> str:
    """The OpenSpiel game string of ``game`` with engine ``options`` (``game_string("dorix", num_players=4)``
    -> ``"boardgames_dorix(players=4)"``), as ``pyspiel.load_game`` takes it."""
    if game not in GAME_NAMES:
        raise ValueError(f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    params = ",".join(f"{PARAMETER_NAMES.get(k, k)}={_parameter_value(v)}" for k, v in options.items())
    return f"{openspiel_name(game)}({params})" if params else openspiel_name(game)


def _parameter_value(value) -> str:
    """An option's value as OpenSpiel's game string writes it: a name as is (``start=corners``), a number as an int."""
    return value if isinstance(value, str) else str(int(value))


def load_game(game: str, **options) -> pyspiel.Game:
    """``pyspiel.load_game`` of the library's game ``game`` with engine ``options`` (``num_players=4``...)."""
    return pyspiel.load_game(game_string(game, **options))


def _engine_defaults(game: str) -> dict:
    """The options of ``game``'s ``make_game`` with their defaults (engine names)."""
    signature = inspect.signature(registry.env_module(game).make_game)
    return {name: p.default for name, p in signature.parameters.items()}


@cache
def _engine_game(game: str, options: tuple) -> Game:
    """The rules engine of ``game`` with ``options`` (engine names, sorted pairs), made once."""
    return registry.make_game(game, **dict(options))


def _options(game: str, params) -> tuple:
    """Engine options (sorted pairs) from OpenSpiel parameters (missing ones take their defaults)."""
    options = _engine_defaults(game)
    engine_name = {PARAMETER_NAMES.get(k, k): k for k in options}
    for key, value in (params or {}).items():
        if key not in engine_name:
            known = ", ".join(engine_name)
            raise ValueError(f"{openspiel_name(game)} has no parameter {key!r}; its parameters: {known}")
        default = options[engine_name[key]]
        options[engine_name[key]] = str(value) if isinstance(default, str) else int(value)
    return tuple(sorted(options.items()))


def _configurations(game: str) -> list:
    """The engines of the configurations ``game``'s module tests (``CONFORMANCE_OPTIONS``: every player
    count), for what the registered game type says of all of them."""
    defaults = _engine_defaults(game)
    variants = getattr(registry.env_module(game), "CONFORMANCE_OPTIONS", None) or [{}]
    return [_engine_game(game, tuple(sorted({**defaults, **v}.items()))) for v in variants]


def _zero_sum(info) -> bool:
    """Whether the returns always sum to 0: +1 for the winning side's seats and -1 for the others' (0 on
    a draw) sum to 0 exactly when there are two sides of equal size."""
    sides = info.sides()
    return len(sides) == 2 and len(sides[0]) == len(sides[1])


def _game_type(game: str, utility) -> pyspiel.GameType:
    info = _engine_game(game, _options(game, {})).info
    seats = [engine.info.num_seats for engine in _configurations(game)]
    return pyspiel.GameType(
        short_name=openspiel_name(game),
        long_name=f"boardgame-rl-envs {game}",
        dynamics=(
            pyspiel.GameType.Dynamics.SIMULTANEOUS if info.simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL
        ),
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seats),
        min_num_players=min(seats),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={PARAMETER_NAMES.get(k, k): v for k, v in _engine_defaults(game).items()},
    )


class _Position:
    """The engine state inside an OpenSpiel state, its only Python attribute: OpenSpiel's ``Clone``
    deep-copies those attributes (here one array copy, ``State.clone()``) and its serialization
    pickles them (here the game, its options and the position in notation)."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo) -> _Position:
        return _Position(self.state.clone())

    def __reduce__(self):
        game = self.state.game
        options = tuple(sorted(game.info.options.items()))
        return _position_from_text, (game.info.name, options, self.state.to_text())


def _position_from_text(game: str, options: tuple, text: str) -> _Position:
    return _Position(_engine_game(game, options).from_text(text))


class OpenSpielGame(pyspiel.Game):
    """One of the library's games with its parameters fixed, as an OpenSpiel game (made by
    ``pyspiel.load_game("boardgames_<game>(...)")``). ``engine`` is the library's :class:`Game`."""

    def __init__(self, game: str, params=None):
        options = _options(game, params)
        engine = _engine_game(game, options)
        info = engine.info
        zero_sum = _zero_sum(info)
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_actions,
            max_chance_outcomes=0,
            num_players=info.num_seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=info.max_turns * DECISIONS_PER_TURN.get(game, 1),
        )
        parameters = {PARAMETER_NAMES.get(k, k): v for k, v in options}
        super().__init__(_game_type(game, utility), game_info, parameters)
        self.engine = engine
        self._initial = engine.new_initial_state()

    def new_initial_state(self, position: str | None = None) -> OpenSpielState:
        """The start position, or ``position`` written in the game's notation (``State.to_text()``)."""
        if position is None:
            return OpenSpielState(self, self._initial.clone())
        if not isinstance(position, str):
            raise TypeError(f"a position is a string in the game's notation, got {position!r}")
        return OpenSpielState(self, self.engine.from_text(position))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observation tensor (and the position as its string) for the default observation; the
        action history for a perfect-recall one (an information state)."""
        if isinstance(iig_obs_type, dict):  # called as make_py_observer(params)
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer(self.engine.info.observation_shape)
        from open_spiel.python.observation import IIGObserverForPublicInfoGame

        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class OpenSpielState(pyspiel.State):
    """A position of one of the library's games as an OpenSpiel state (``game.new_initial_state()``)."""

    def __init__(self, game: OpenSpielGame, state: State | None = None):
        super().__init__(game)
        self._position = _Position(game.engine.new_initial_state() if state is None else state)

    def current_player(self):
        state = self._position.state
        if state.game.info.acting_seats > 1:
            return _TERMINAL if state.is_terminal() else _SIMULTANEOUS
        seat = state.current_seat  # -1 once the game is over
        return seat if seat >= 0 else _TERMINAL

    def _legal_actions(self, player):
        if player < 0:
            raise ValueError(
                f"{self.get_game()} is a simultaneous-move game: ask each player's legal actions, legal_actions(player)"
            )
        return self._position.state.legal_actions(player).tolist()

    def _apply_action(self, action):
        state = self._position.state
        if state.game.info.acting_seats > 1 and not state.is_terminal():
            raise IllegalActionError(
                f"{self.get_game()} is a simultaneous-move game: play one action per player at once, "
                "apply_actions([a0, a1, ...])"
            )
        state.apply_actions({state.current_seat: int(action)})

    def _apply_actions(self, actions):
        state = self._position.state
        if state.game.info.acting_seats == 1:
            raise IllegalActionError(
                f"{self.get_game()} is turn-based: play the action of the player to move, apply_action(a)"
            )
        if len(actions) != state.game.info.num_seats:
            raise IllegalActionError(
                f"expected {state.game.info.num_seats} actions (one per player), got {len(actions)}: {list(actions)}"
            )
        state.apply_actions([int(a) for a in actions])

    def _action_to_string(self, player, action):
        return self._position.state.action_to_text(int(action), player if player >= 0 else None)

    def is_terminal(self):
        return self._position.state.is_terminal()

    def returns(self):
        return self._position.state.returns().tolist()

    def __str__(self):
        return self._position.state.to_text()

    @property
    def engine_state(self) -> State:
        """The library's state behind this one (modifying it modifies this state, not its history)."""
        return self._position.state


class _Observer:
    """The PyObserver of the default observation: the engine's ``observation(seat)`` in ``tensor``
    (flat) and in ``dict["observation"]`` (its shape); the position in notation as the string."""

    def __init__(self, shape: tuple):
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: OpenSpielState, player: int) -> None:
        self.dict["observation"][...] = state.engine_state.observation(player)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        return state.engine_state.to_text()


def engine_state(state: pyspiel.State) -> State:
    """The library's :class:`~boardgames.envs.core.game.State` behind an OpenSpiel state of one of its games."""
    return state.engine_state


def _register(game: str) -> type:
    """Register ``game`` with OpenSpiel; returns its OpenSpiel game class (made by ``load_game``)."""
    # the registered type speaks for every player count: zero-sum only when all of them are (an instance's
    # own type, game.get_type(), says it of its player count)
    zero_sum = all(_zero_sum(engine.info) for engine in _configurations(game))
    utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM

    def __init__(self, params=None):
        OpenSpielGame.__init__(self, game, params)

    # a class as the creator, as OpenSpiel's own Python games register: OpenSpiel keeps the creator to
    # the very end of the process, which a class outlives safely (a plain function freed then aborts it)
    cls = type(f"{game.capitalize()}OpenSpielGame", (OpenSpielGame,), {"__init__": __init__, "__module__": __name__})
    cls.__doc__ = f"{openspiel_name(game)}: {(OpenSpielGame.__doc__ or '').splitlines()[0]}"
    globals()[cls.__name__] = cls  # importable by name, as pickle finds it
    pyspiel.register_game(_game_type(game, utility), cls)
    return cls


GAME_CLASSES = {game: _register(game) for game in GAME_NAMES}
"""The library's game name -> its OpenSpiel game class (``GAME_CLASSES["dorix"]({"players": 4})`` is
``pyspiel.load_game("boardgames_dorix(players=4)")``)."""
