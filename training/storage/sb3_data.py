"""The plain values of a Stable-Baselines3 model file that a load may set, each checked against a range.

SB3's ``load`` sets every key of the archive's ``data`` JSON on the model (``model.__dict__.update(data)``)
and, without an environment, makes the one ``data["env"]`` names (Gymnasium imports the module named before
``:``). A model file can come from anyone, so :func:`vetted_data` keeps only what a PPO or MaskablePPO model
of this project holds:

* the keys of :data:`PLAIN_KEYS`, each a value of its type within its range (a network of bounded size,
  rollout sizes that fit in memory, coefficients and schedules as numbers), else the file is refused;
* the serialized values that :mod:`boardgames.training.storage.safe_load` rebuilds (passed on untouched);
* ``tensorboard_log`` is set to None (a load writes nowhere the file chooses; the trainer sets its own);
* ``env`` refuses the file: a model file names no code to run;
* **any other key is ignored, with a warning** naming it (a file written by a newer SB3 still loads).

A refusal is a :class:`~boardgames.training.storage.safe_load.ModelFileError` whose message names the key,
its value and the range.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

MAX_COUNT = 10**13
"""The most steps, updates or episodes a model file may say it has done."""
MAX_WIDTH = 65536
"""The widest layer (hidden units or channels) a model file may ask for."""
MAX_LAYERS = 64
"""The most layers a model file may ask for."""
MAX_WEIGHTS = 100_000_000
"""The most weights a model file's network may have (as AlphaZero's loader caps it)."""
MAX_ROLLOUT_VALUES = 2**27
"""The most numbers the rollout buffer of a loaded model may hold (``n_steps * n_envs`` times the observation,
mask and bookkeeping of one step): about 512 MiB of float32."""

REFUSED_KEYS = {"env": "it names an environment to make, and Gymnasium would import the module it names"}
"""Keys that refuse the file, with why."""
CLEARED_KEYS = ("tensorboard_log",)
"""Keys set to None whatever the file says (a folder that a later ``learn`` would write into)."""


class Refused(ValueError):
    """A value of ``data`` out of its type or range (the loader turns it into a ModelFileError)."""


def _whole(low: int, high: int) -> Callable:
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Refused(f"a whole number {low}..{high}")
        return value

    return check


def _number(low: float, high: float) -> Callable:
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise Refused(f"a finite number {low}..{high}")
        if not low <= value <= high:
            raise Refused(f"a finite number {low}..{high}")
        return value

    return check


def _flag(value):
    if not isinstance(value, bool):
        raise Refused("true or false")
    return value


def _nothing(value):
    if value is not None:
        raise Refused("null")
    return value


def _empty_table(value):
    if value != {}:
        raise Refused("an empty table")
    return value


def _one_of(value, choices: tuple):
    if value not in choices:
        raise Refused(" or ".join(repr(c) for c in choices))
    return value


def _optional(check: Callable) -> Callable:
    def optional(value):
        if value is None:
            return None
        try:
            return check(value)
        except Refused as e:
            raise Refused(f"null or {e}") from None

    return optional


_COUNT = _whole(0, MAX_COUNT)

PLAIN_KEYS: dict[str, Callable] = {
    "verbose": _whole(0, 2),
    "num_timesteps": _COUNT,
    "_total_timesteps": _COUNT,
    "_num_timesteps_at_start": _COUNT,
    "_episode_num": _COUNT,
    "_n_updates": _COUNT,
    "seed": _optional(_whole(-(2**63), 2**64)),
    "action_noise": _nothing,
    "start_time": _number(0, 2**64),
    "learning_rate": _number(0, 10),
    "use_sde": _flag,
    "sde_sample_freq": _whole(-1, 10**6),
    "_current_progress_remaining": _number(-1, 1),
    "_stats_window_size": _whole(1, 10**5),
    "n_steps": _whole(1, 2**20),
    "n_envs": _whole(1, 4096),
    "batch_size": _whole(1, 2**24),
    "n_epochs": _whole(1, 10**4),
    "gamma": _number(0, 1),
    "gae_lambda": _number(0, 1),
    "ent_coef": _number(0, 100),
    "vf_coef": _number(0, 100),
    "max_grad_norm": _number(0, 10**9),
    "clip_range": _number(0, 100),
    "clip_range_vf": _optional(_number(0, 10**9)),
    "normalize_advantage": _flag,
    "target_kl": _optional(_number(0, 10**9)),
    "rollout_buffer_kwargs": _empty_table,
}
"""Every plain key a model file may set, with the check of its value (a serialized ``learning_rate`` or
``clip_range`` is a schedule, rebuilt by ``safe_load``; these checks are for their plain form)."""

_WIDTHS = f"a list of at most {MAX_LAYERS} whole numbers 1..{MAX_WIDTH}"


def _widths(value) -> list:
    if not isinstance(value, list) or len(value) > MAX_LAYERS:
        raise Refused(_WIDTHS)
    for width in value:
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
            raise Refused(_WIDTHS)
    return value


def _net_arch(value) -> dict:
    """``{"pi": [...], "vf": [...]}`` of SB3's ``net_arch`` (a list of widths, a table of both, or an older
    version's list holding one such table)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    if isinstance(value, dict):
        if set(value) - {"pi", "vf"}:
            raise Refused("a list of widths or a table of pi and vf widths")
        return {"pi": _widths(value.get("pi", [])), "vf": _widths(value.get("vf", []))}
    return {"pi": _widths(value), "vf": _widths(value)}


def _extractor(value) -> dict:
    if not isinstance(value, dict) or set(value) != {"channels", "dilations"}:
        raise Refused("a table of channels and dilations")
    _whole(1, MAX_WIDTH)(value["channels"])
    dilations = value["dilations"]
    if not isinstance(dilations, list) or not 1 <= len(dilations) <= MAX_LAYERS:
        raise Refused(f"dilations: a list of 1..{MAX_LAYERS} whole numbers 1..64")
    for d in dilations:
        _whole(1, 64)(d)
    return value


POLICY_KWARGS: dict[str, Callable] = {
    "net_arch": _net_arch,
    "head": lambda v: _one_of(v, ("square", "linear")),
    "features_extractor_kwargs": _extractor,
    "ortho_init": _flag,
    "share_features_extractor": _flag,
    "normalize_images": _flag,
}
"""The keys ``policy_kwargs`` may hold (the networks ``boardgames train`` builds), with their checks; any other
refuses the file, since it would reach the policy's constructor."""

CONV_KWARGS = ("head", "features_extractor_kwargs")
"""The keys of the convolutional policy (:class:`boardgames.training.sb3.networks.BoardPolicy`) only."""


def vetted_data(data: dict, serialized: set, label: str, error: type[ValueError]) -> dict:
    """``data`` (SB3's ``data`` JSON, parsed) with only what a load may set (see the module docstring):
    ``error`` naming the key for a value out of range or a refused key; a warning naming ignored keys."""
    out, ignored = {}, []
    for key, value in data.items():
        if key in REFUSED_KEYS:
            raise error(f"{label}: its data entry has {key!r}: {REFUSED_KEYS[key]}; refused")
        if key in serialized:
            out[key] = value
        elif key in CLEARED_KEYS:
            out[key] = None
        elif key == "policy_kwargs":
            out[key] = _vetted_policy_kwargs(value, label, error)
        elif key in PLAIN_KEYS:
            out[key] = _checked(key, value, PLAIN_KEYS[key], label, error)
        elif value is not None or not key.startswith("_"):
            ignored.append(key)
    if ignored:
        shown = ", ".join(repr(k)[:60] for k in ignored[:10]) + (" ..." if len(ignored) > 10 else "")
        warnings.warn(f"{label}: ignored keys of its data entry that this project does not set: {shown}", stacklevel=3)
    return out


def _vetted_policy_kwargs(value, label: str, error) -> dict:
    if not isinstance(value, dict):
        raise error(f"{label}: its policy_kwargs are not a table of settings")
    for key, item in value.items():
        if key == "device":
            continue  # SB3 drops it itself
        if key not in POLICY_KWARGS:
            known = ", ".join(POLICY_KWARGS)
            raise error(f"{label}: its policy_kwargs hold {repr(key)[:60]}, not one of the settings known ({known})")
        _checked(f"policy_kwargs.{key}", item, POLICY_KWARGS[key], label, error)
    return {k: v for k, v in value.items() if k != "device"}


def _checked(key: str, value, check: Callable, label: str, error):
    try:
        check(value)
    except Refused as e:
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise error(f"{label}: its data entry sets {key} to {shown}, which must be {e}; refused") from None
    return value


def network_weights(policy_kwargs: dict, observation_size: int, num_actions: int, convolutional: bool) -> int:
    """A lower bound on the weights of the network ``policy_kwargs`` describes, for an observation of
    ``observation_size`` numbers and ``num_actions`` actions: a file whose weights are fewer cannot be that
    network, and the bound is what building it would cost before that is found out."""
    arch = _net_arch(policy_kwargs.get("net_arch", []))
    if convolutional:
        extractor = policy_kwargs.get("features_extractor_kwargs", {"channels": 32, "dilations": [1, 2, 4, 2, 1]})
        channels, layers = extractor["channels"], len(extractor["dilations"])
        return 9 * channels * channels * (layers - 1) + channels * num_actions // max(observation_size, 1)
    total = 0
    for widths, outputs in ((arch["pi"], num_actions), (arch["vf"], 1)):
        sizes = [observation_size, *widths, outputs]
        total += sum(a * b for a, b in zip(sizes, sizes[1:]))
    return total
