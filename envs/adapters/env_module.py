"""What the environment modules ``envs/<game>_v0.py`` share, written once: the docstring sections that
follow each game's own introduction (:func:`doc_sections`), and the module functions ``make_game``,
``raw_env`` and ``env`` (and ``parallel_env`` for a game whose seats act at once) built from the game
class and its options (:func:`aec_env_functions`, :func:`parallel_env_functions`).

A ``_v0`` module is then its docstring (the game's introduction; ``SPEC.fill_doc`` fills the sections'
markers with the spec's tables), its ``CONFORMANCE_OPTIONS`` and one call::

    __doc__ = SPEC.fill_doc(__doc__ + doc_sections())
    make_game, raw_env, env = aec_env_functions(OlixGame, "Olix", __name__, max_turns=DEFAULT_MAX_TURNS)

Each function takes the game's options (by keyword or position, in the order given, each with its
default), then the adapter's ``render_mode`` and ``illegal_action`` (:mod:`boardgames.envs.adapters.illegal`), as
``inspect.signature`` shows.
"""

import inspect
from typing import Any

from boardgames.envs.adapters.aec_env import TurnBasedAECEnv, wrap_aec
from boardgames.envs.adapters.illegal import DEFAULT_ILLEGAL_ACTION
from boardgames.envs.adapters.parallel_env import SimultaneousParallelEnv, wrap_parallel_as_aec
from boardgames.envs.core.errors import GameOptionError

REWARDS = "Rewards: at the end only, +1 to the winner and -1 to the loser, 0 to both on a draw or truncation."
_ADAPTER_PARAMETERS = ("render_mode", "illegal_action")
MAX_CYCLES = "max_cycles"
"""PettingZoo's name for an episode's length in cycles (every agent acting once), which its
``max_cycles_test`` passes: in a game whose seats act at once a cycle is a turn, so ``max_cycles`` is the
game's ``max_turns`` under PettingZoo's name."""


def doc_sections(reset: str = "reset", rewards: str | None = REWARDS, history: str = "v0 (first release).") -> str:
    """The part of a ``_v0`` docstring after the game's introduction: the action, observation and
    notation sections as empty spec markers (``SPEC.fill_doc`` fills them), ``rewards`` (None: no
    such paragraph) and the version ``history``; ``reset`` is the call that takes a start position."""
    rewards_paragraph = f"{rewards}\n\n" if rewards else ""
    return (
        "\n## Action space\n\n<!-- spec:actions --><!-- /spec:actions -->\n\n"
        "## Observation\n\n<!-- spec:observation --><!-- /spec:observation -->\n\n"
        f"{rewards_paragraph}"
        f'## Notation\n\n`{reset}(options={{"position": text}})` starts from a position.\n\n'
        "<!-- spec:notation --><!-- /spec:notation -->\n\n"
        f"Version history: {history}\n"
    )


def _parameter(name: str, default, annotation) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=annotation)


def _named(obj, module: str, qualname: str, doc: str | None, signature: inspect.Signature | None = None):
    """``obj`` as ``module.qualname`` (for ``help``, ``repr`` and pickling), with its docstring and signature."""
    obj.__module__, obj.__qualname__, obj.__doc__ = module, qualname, doc
    obj.__name__ = qualname.rpartition(".")[2]
    if signature is not None:
        obj.__signature__ = signature
    return obj


class _EnvFunctions:
    """The functions of one ``_v0`` module: ``options`` (name -> default) are the game's options."""

    def __init__(self, game_class: type, title: str, module: str, options: dict, *adapter: inspect.Parameter):
        self.title, self.module = title, module
        self.cycles_are_turns = MAX_CYCLES in {p.name for p in adapter}
        options_only = [_parameter(k, v, type(v)) for k, v in options.items()]
        self.game_signature = inspect.Signature(options_only, return_annotation=game_class)
        self.signature = inspect.Signature([*options_only, _parameter("render_mode", None, str | None), *adapter])

        def make_game(*args, **kwargs):
            bound = self.game_signature.bind(*args, **kwargs)
            bound.apply_defaults()
            return game_class(**bound.arguments)

        self.make_game = self.named(make_game, "make_game", f"The {title} rules engine alone.", self.game_signature)

    def named(self, obj, qualname: str, doc: str | None, signature: inspect.Signature | None = None):
        return _named(obj, self.module, qualname, doc, signature)

    def raw_env(self, adapter_class: type[Any], kind: str) -> type:
        """The subclass of ``adapter_class`` that takes the game's options (``raw_env``)."""
        signature, make_game, env_name = self.signature, self.make_game, self.module.rpartition(".")[2]
        cycles_are_turns = self.cycles_are_turns

        class raw_env(adapter_class):
            metadata = {**adapter_class.metadata, "name": env_name}

            def __init__(self, *args, **kwargs):
                bound = signature.bind(*args, **kwargs)
                given = set(bound.arguments)
                bound.apply_defaults()
                options = dict(bound.arguments)
                adapter = {k: options.pop(k) for k in _ADAPTER_PARAMETERS if k in options}
                if cycles_are_turns:
                    cycles = options.pop(MAX_CYCLES)
                    if cycles is not None:
                        if "max_turns" in given and options["max_turns"] != cycles:
                            raise GameOptionError(
                                f"{env_name}: max_cycles={cycles!r} and max_turns={options['max_turns']!r} "
                                "name the same limit (a cycle is a turn here): give one"
                            )
                        options["max_turns"] = cycles
                super().__init__(make_game(**options), **adapter)

        self_parameter = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
        init_signature = signature.replace(parameters=[self_parameter, *signature.parameters.values()])
        self.named(raw_env.__init__, "raw_env.__init__", None, init_signature)
        return self.named(raw_env, "raw_env", f"{self.title} as a PettingZoo {kind} environment (unwrapped).")


def aec_env_functions(game_class: type, title: str, module: str, **options) -> tuple:
    """``make_game``, ``raw_env`` and ``env`` of the turn-based game ``game_class`` (called ``title`` in
    the docstrings) for the module named ``module`` (its ``__name__``); ``options`` are the game's
    options with their defaults, in order. ``raw_env`` is a :class:`TurnBasedAECEnv` with the module's
    name in its metadata, ``env`` it with the standard wrappers (:func:`wrap_aec`)."""
    f = _EnvFunctions(game_class, title, module, options, _parameter("illegal_action", DEFAULT_ILLEGAL_ACTION, str))
    raw_env = f.raw_env(TurnBasedAECEnv, "AEC")

    def env(*args, **kwargs):
        return wrap_aec(raw_env(*args, **kwargs))

    doc = f"{title} as a PettingZoo AEC environment with the standard wrappers."
    return f.make_game, raw_env, f.named(env, "env", doc, f.signature)


def parallel_env_functions(
    game_class: type, title: str, module: str, illegal_action: str = DEFAULT_ILLEGAL_ACTION, **options
) -> tuple:
    """``make_game``, ``raw_env``, ``parallel_env`` and ``env`` of the game ``game_class`` whose seats
    act at once (see :func:`aec_env_functions`): ``raw_env`` is a :class:`SimultaneousParallelEnv` whose
    ``illegal_action`` defaults to ``illegal_action``, ``parallel_env`` returns it and ``env`` is its
    AEC form (:func:`wrap_parallel_as_aec`)."""
    adapter = [_parameter("illegal_action", illegal_action, str)]
    if "max_turns" in options:
        adapter.append(_parameter(MAX_CYCLES, None, int | None))
    f = _EnvFunctions(game_class, title, module, options, *adapter)
    raw_env = f.raw_env(SimultaneousParallelEnv, "Parallel")

    def parallel_env(*args, **kwargs):
        return raw_env(*args, **kwargs)

    def env(*args, **kwargs):
        return wrap_parallel_as_aec(raw_env(*args, **kwargs))

    parallel_doc = f"{title} as a PettingZoo Parallel environment (every seat acts at once)."
    aec_doc = (
        f"{title} as a PettingZoo AEC environment (PettingZoo's parallel_to_aec form: the actions are given "
        "one after the other and resolved together once all are in)."
    )
    return (
        f.make_game,
        raw_env,
        f.named(parallel_env, "parallel_env", parallel_doc, f.signature.replace(return_annotation=raw_env)),
        f.named(env, "env", aec_doc, f.signature),
    )
