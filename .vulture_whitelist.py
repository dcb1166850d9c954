# ruff: noqa
"""Names that vulture (``vulture``, configured in pyproject.toml) reports as unused but that are used: called by
a framework, found by name, or part of the public API. Not imported by anything; vulture reads it as code
that uses these names. A new entry says who uses the name."""

# numba: @overload / @intrinsic implementations are registered by their decorator, and an intrinsic takes
# the typing context first whether it uses it or not; llvmlite reads the alignment of a load or store
_lowest_bit  # envs/compiled/bits.py
_highest_bit
_bit_count
_index
_store_bytes
_write_run
_write_cell  # envs/compiled/cells.py
_obs_scale
_obs_value
_obs_flag
_borrowed  # envs/compiled/views.py
_pack_bools  # envs/vector/packed.py
typingctx
_.align

# Python's data model and the standard library: function metadata for help() and pickling, deepcopy's
# memo argument, reprlib's limits
_.__qualname__
_.__signature__
_.__call__  # envs/agents/base.py: agent(state, seat) is agent.act(state, seat)
memo
_.maxdict
_.maxlevel
_.maxlist
_.maxother
_.maxstring

# found by name: GameSpec.markdown(section) calls _<section>_markdown
_._observation_markdown
_._actions_markdown
_._notation_markdown

# OpenSpiel calls these on a Python game, state and observer (envs/interop/openspiel.py)
_.make_py_observer
_._legal_actions
_._apply_action
_._apply_actions
_._action_to_string
_.set_from
_.string_from
_.evaluate  # benchmarks/alphazero_search.py: an MCTSBot evaluator

# Gymnasium, Stable-Baselines3 and torch call these (envs/vector/, training/)
_.np_random_seed  # gymnasium.Env's attribute, set by the AEC environment's reset(seed)
_.close_extras
_.step_async
_.step_wait
_.get_attr
_.set_attr
_.has_attr
_.env_is_wrapped
method_args
method_kwargs
wrapper_class
_.forward
_._on_training_start
_._init_callback

# Starlette and uvicorn (play/web/): exception handlers take the exception; stopping the server
exc
_.should_exit

# public API: documented, or used by the notebooks (which vulture does not read)
START_DESCRIPTIONS  # envs/barc/game.py: the starts, for users
OBS_CANCELLED  # envs/barc/observe.py: one of the observation's plane indices
GAME_CLASSES  # envs/interop/openspiel.py: the OpenSpiel game class of each game
_.move_texts  # envs/tools/replay.py: GameRecord.move_texts(), used by the notebooks

# pytest: fixtures are found by name, a test's stand-in functions keep the signature they replace
short_batches
_quiet_illegal_moves
prompt
Broken  # tests/envs/core/test_game_kernels.py: a class whose creation must fail

# PettingZoo: parallel_to_aec_wrapper (the base of the Barc AEC form) reads these in observe() and step()
_observations
new_agents
new_values

# numba: its event listeners are called by name (numba.core.event.Listener.on_end)
on_end
on_start
# Gymnasium: the vector entry point is registered by its dotted name
batched_vector_env
# pytest: a module's marks
pytestmark
