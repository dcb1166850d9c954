"""Reading saved models without running code from them: weights and plain data only, never unpickling.

A model file can come from anyone (a download, a pull request, an untrusted checkout), and unpickling
runs whatever code the file names. So every loader of this project reads a model as tensors and plain
data, and refuses, with a :class:`ModelFileError` that says why, a file that only unpickling could read:

* **weights** (SB3's ``policy.pth``, ``policy.optimizer.pth`` and ``pytorch_variables.pth``, AlphaZero's
  ``alphazero.pt``, an RLlib ``policy.pt``): :func:`load_weights`, ``torch.load(..., weights_only=True)``,
  which admits tensors, numbers, strings and containers of them and refuses any other object;
* **Stable-Baselines3 ``.zip``** (the shipped PPO models, ``boardgames.training.sb3.train``'s checkpoints and final
  models, ``--resume``): :func:`load_sb3`. SB3 keeps the model's attributes in the archive's ``data``
  entry as JSON, where the values that are not plain data are base64 cloudpickle under a ``":serialized:"``
  key. Those values are never unpickled: each one is rebuilt from the plain fields SB3 writes beside it
  (:data:`REBUILT`), and a serialized value of any other key, or one whose fields do not describe an object
  that can be rebuilt so, refuses the file. The rebuilt objects go to SB3's own ``load`` as
  ``custom_objects`` (for which SB3 unpickles nothing), from the same bytes that were checked, and every
  ``.pth`` entry is first read in weights-only mode, so that SB3's own load can meet nothing else.

What is rebuilt (the keys SB3 2.x writes for PPO and MaskablePPO):

* ``policy_class`` and ``rollout_buffer_class``: a class of an allow-list (:data:`POLICY_CLASSES`,
  :data:`BUFFER_CLASSES`) named by the record's ``__module__`` and its methods' qualified names; the policy
  class must belong to the algorithm loading the file (a MaskablePPO policy is not a PPO one);
* ``observation_space`` and ``action_space``: a ``Box`` (shape, dtype, uniform bounds) or a ``Discrete``
  (``n``, ``start``); when an environment is given (resuming) and its observation space has the saved
  shape and dtype, that space;
* the schedules (``learning_rate``, ``lr_schedule``, ``clip_range``, ``clip_range_vf``) when constant or
  linear (SB3 writes their parameters in the record);
* the state of an unfinished rollout (``_last_obs``, ``_last_original_obs``, ``_last_episode_starts``,
  ``ep_info_buffer``, ``ep_success_buffer``): dropped; training resets the environments first anyway.

The shipped models and every model ``boardgames.training.sb3.train`` writes load this way as they are: no conversion.
"""

from __future__ import annotations

import importlib
import io
import json
import math
import os
import pickle
import re
import zipfile
from pathlib import Path

MAX_SPACE_SIZE = 10**7
"""The most entries an observation or action space read from a file may have (its bounds are allocated)."""

NEVER_UNPICKLED = "unpickling runs code chosen by the file, and model files are never unpickled here"
"""Why a file that needs unpickling is refused (every refusal says it)."""

SB3_MODEL = "a Stable-Baselines3 .zip saved by boardgames.training.sb3.train"

POLICY_CLASSES = {
    "sb3_contrib.common.maskable.policies": (
        "MaskableActorCriticPolicy",
        "MaskableActorCriticCnnPolicy",
        "MaskableMultiInputActorCriticPolicy",
    ),
    "stable_baselines3.common.policies": ("ActorCriticPolicy", "ActorCriticCnnPolicy", "MultiInputActorCriticPolicy"),
    "boardgames.training.sb3.networks": ("BoardPolicy",),
}
"""The policy classes a saved SB3 model may name, by module."""

BUFFER_CLASSES = {
    "sb3_contrib.common.maskable.buffers": ("MaskableRolloutBuffer", "MaskableDictRolloutBuffer"),
    "stable_baselines3.common.buffers": ("RolloutBuffer", "DictRolloutBuffer"),
}
"""The rollout buffer classes a saved SB3 model may name, by module."""

FORMER_MODULES = {"training.networks": "boardgames.training.sb3.networks"}
"""Where a module that saved models name lives now: models saved before the library took the single import
name ``boardgames`` (the shipped ones among them) name the policy class by its module of that time."""

DROPPED = ("_last_obs", "_last_original_obs", "_last_episode_starts", "ep_info_buffer", "ep_success_buffer")
"""Serialized values of an unfinished rollout, not kept (training resets the environments first)."""

SCHEDULES = ("learning_rate", "lr_schedule", "clip_range", "clip_range_vf")
"""The keys whose serialized value is a schedule, rebuilt when constant or linear."""

REBUILT = ("policy_class", "rollout_buffer_class", "observation_space", "action_space", *SCHEDULES, *DROPPED)
"""Every key whose serialized value :func:`load_sb3` rebuilds (or drops); any other refuses the file."""


class ModelFileError(ValueError):
    """A file given as a model that is not a model of this project, or that only unpickling could read
    (refused: see :data:`NEVER_UNPICKLED`); the message says which and why."""


class WrongAlgorithmError(ValueError):
    """A model of this project saved by another algorithm than the one asked to load it."""


# ----- weights ----------------------------------------------------------------------------------------


def weights_or_reason(source) -> tuple[object, str | None]:
    """``(object, None)`` read from ``source`` (a path, bytes or a file object) by torch in weights-only
    mode, or ``(None, reason)`` saying why it cannot be read without unpickling or at all. Torch's own
    message is not passed on: it advises ``weights_only=False``, which is never right for a model file."""
    import torch

    if isinstance(source, (bytes, bytearray)):
        source = io.BytesIO(source)
    try:
        return torch.load(source, map_location="cpu", weights_only=True), None
    except pickle.UnpicklingError as e:
        found = re.search(r"GLOBAL ([\w.]{1,200})", str(e))
        if found is not None:
            return None, (
                f"it holds a pickled Python object ({found.group(1)}) besides tensors and plain data, "
                f"which only unpickling could read: {NEVER_UNPICKLED}"
            )
        return None, "its weights cannot be read (UnpicklingError)"
    except Exception as e:  # any other failure of torch's reader: a damaged or foreign file
        return None, f"its weights cannot be read ({type(e).__name__})"


def load_weights(source, label: str, error: type[ModelFileError] = ModelFileError):
    """What ``source`` holds, read by torch in weights-only mode (tensors, numbers, strings and containers
    of them); anything else raises ``error`` with ``label`` (what the file should be) and the reason."""
    value, reason = weights_or_reason(source)
    if reason is not None:
        raise error(f"{label}: {reason}")
    return value


# ----- Stable-Baselines3 archives ---------------------------------------------------------------------


def load_sb3(model_class, path: str | Path, env=None, device: str = "cpu", **kwargs):
    """The SB3 model saved at ``path`` as an instance of ``model_class`` (on ``env`` when given, with the
    attributes of ``kwargs`` replacing the saved ones), read without unpickling (see the module docstring).

    Raises :class:`ModelFileError` for a file that is not such a model or that only unpickling could read,
    and :class:`WrongAlgorithmError` for a model saved by another algorithm."""
    path = Path(path)
    not_a_model = f"{path} is not a model of this project ({SB3_MODEL})"
    raw = path.read_bytes()
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise ModelFileError(f"{not_a_model}: it is not a zip archive") from None
    with archive:
        names = archive.namelist()
        missing = [n for n in ("data", "policy.pth") if n not in names]
        if missing:
            raise ModelFileError(f"{not_a_model}: the archive has no {' and no '.join(missing)}")
        try:
            data = json.loads(archive.read("data").decode())
        except (UnicodeDecodeError, ValueError, zipfile.BadZipFile, OSError, EOFError, RecursionError) as e:
            raise ModelFileError(f"{not_a_model}: its data entry is not JSON ({type(e).__name__})") from None
        if not isinstance(data, dict):
            raise ModelFileError(f"{not_a_model}: its data entry is not a JSON object")
        if not isinstance(data.get("policy_kwargs", {}), dict):
            raise ModelFileError(f"{not_a_model}: its policy_kwargs are not a table of settings")
        custom_objects = rebuild_serialized(data, model_class, env, not_a_model)
        for info in archive.infolist():  # what SB3 reads with torch.load: weights-only readable, or refused
            if os.path.splitext(info.filename)[1] == ".pth":
                try:
                    entry = archive.read(info)
                except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as e:
                    raise ModelFileError(
                        f"{not_a_model}: its {info.filename} entry cannot be read ({type(e).__name__})"
                    ) from None
                _, reason = weights_or_reason(entry)
                if reason is not None:
                    raise ModelFileError(f"{not_a_model}: {reason} (in {info.filename})")
    # every serialized key of `data` is in custom_objects, so SB3 unpickles nothing; same bytes as checked
    return model_class.load(io.BytesIO(raw), env=env, device=device, custom_objects=custom_objects, **kwargs)


def is_serialized(value) -> bool:
    """Whether a value of SB3's ``data`` JSON is one SB3 would unpickle (a dict with ``":serialized:"``)."""
    return isinstance(value, dict) and ":serialized:" in value


def rebuild_serialized(data: dict, model_class, env=None, label: str = "the model") -> dict:
    """``{key: object}`` for every serialized value of ``data`` (SB3's ``data`` JSON, parsed), rebuilt from
    its plain fields; :class:`ModelFileError` naming the key for one that only unpickling could give
    (checked for every key before anything is rebuilt, so that such a file is refused whichever algorithm
    reads it), :class:`WrongAlgorithmError` for a policy class of another algorithm."""
    serialized = [key for key, value in data.items() if is_serialized(value)]

    def refusal(key) -> str:
        return (
            f"{label}: its data entry holds a pickled Python object under {_short(key)} that this "
            f"project does not rebuild from plain data, so only unpickling could read it: {NEVER_UNPICKLED}"
        )

    for key in serialized:
        if key not in REBUILT:
            raise ModelFileError(refusal(key))
    out = {}
    for key in sorted(serialized, key=lambda k: k == "policy_class"):  # the algorithm's own check last
        try:
            out[key] = _rebuild(key, data[key], model_class, env)
        except WrongAlgorithmError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError, ImportError, OverflowError) as e:
            raise ModelFileError(f"{refusal(key)} ({e})") from None
    return out


def _short(key) -> str:
    text = repr(key)
    return text if len(text) <= 60 else text[:57] + "..."


def _rebuild(key: str, value: dict, model_class, env):
    if key in DROPPED:
        return None
    if key == "policy_class":
        cls = _allowed_class(value, POLICY_CLASSES, "policy class")
        base = model_class.policy_aliases["MlpPolicy"]
        if not issubclass(cls, base):
            raise WrongAlgorithmError(f"its policy {cls.__name__} is not one of {model_class.__name__}")
        return cls
    if key == "rollout_buffer_class":
        return _allowed_class(value, BUFFER_CLASSES, "rollout buffer class")
    if key in SCHEDULES:
        return _schedule(value)
    return _space(value, env.observation_space if env is not None and key == "observation_space" else None)


_METHOD = re.compile(r"<function ([A-Za-z_]\w*)\.\w+ at 0x[0-9a-fA-F]+>")


def _allowed_class(value: dict, allowed: dict, what: str):
    """The class of ``allowed`` that SB3's record of a class names: its ``__module__`` and the class name in
    the qualified names of its methods; the module is imported only when it is in the allow-list."""
    module = value.get("__module__")
    module = FORMER_MODULES.get(module, module)
    names = {m.group(1) for v in value.values() if isinstance(v, str) for m in [_METHOD.fullmatch(v)] if m}
    name = names.pop() if len(names) == 1 else None
    if not isinstance(module, str) or name not in allowed.get(module, ()):
        known = "; ".join(f"{m}: {', '.join(n)}" for m, n in allowed.items())
        raise ValueError(f"a {what} other than those known ({known})")
    return getattr(importlib.import_module(module), name)


_CONSTANT = re.compile(r"ConstantSchedule\(val=(\S+)\)")
_LINEAR = re.compile(r"LinearSchedule\(start=(\S+), end=(\S+), end_fraction=(\S+)\)")


def _schedule(value: dict):
    """A constant (a float) or linear schedule from SB3's record of a FloatSchedule / ConstantSchedule /
    LinearSchedule."""
    kind = value.get(":type:")
    text = value.get("value_schedule") if kind == "<class 'stable_baselines3.common.utils.FloatSchedule'>" else None
    if kind == "<class 'stable_baselines3.common.utils.ConstantSchedule'>":
        text = f"ConstantSchedule(val={value.get('val')})"
    if kind == "<class 'stable_baselines3.common.utils.LinearSchedule'>":
        text = (
            f"LinearSchedule(start={value.get('start')}, end={value.get('end')}, "
            f"end_fraction={value.get('end_fraction')})"
        )
    if isinstance(text, str):
        if (m := _CONSTANT.fullmatch(text)) is not None:
            return float(m.group(1))
        if (m := _LINEAR.fullmatch(text)) is not None:
            from stable_baselines3.common.utils import LinearSchedule

            return LinearSchedule(*(float(g) for g in m.groups()))
    raise ValueError("a schedule that is neither constant nor linear")


_DTYPE = re.compile(r"(float(16|32|64)|u?int(8|16|32|64)|bool)")
_NUMBER = re.compile(r"[-+]?(?:inf|nan|\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)")


def _space(value: dict, env_space=None):
    """A gymnasium ``Box`` or ``Discrete`` from SB3's record of it (``env_space`` instead of a Box of the
    same shape and dtype: the environment's own bounds)."""
    import gymnasium
    import numpy as np

    kind = value.get(":type:")
    if kind == "<class 'gymnasium.spaces.discrete.Discrete'>":
        return gymnasium.spaces.Discrete(int(value["n"]), start=int(value.get("start", 0)))
    if kind == "<class 'gymnasium.spaces.box.Box'>":
        dtype = value.get("dtype")
        shape = value.get("_shape")
        if not isinstance(dtype, str) or not _DTYPE.fullmatch(dtype):
            raise ValueError(f"a Box of dtype {dtype!r}")
        if (
            not isinstance(shape, list)
            or not all(isinstance(d, int) and not isinstance(d, bool) and 0 < d < 2**31 for d in shape)
            or len(shape) > 8
            or math.prod(shape) > MAX_SPACE_SIZE
        ):
            raise ValueError("a Box without a valid shape")
        if (
            isinstance(env_space, gymnasium.spaces.Box)
            and list(env_space.shape) == shape
            and env_space.dtype == np.dtype(dtype)
        ):
            return env_space
        low, high = (_uniform(value, side) for side in ("low", "high"))
        return gymnasium.spaces.Box(low, high, tuple(shape), np.dtype(dtype))
    raise ValueError(f"a space of type {str(kind)[:80]!r} (known: Box, Discrete)")


def _uniform(value: dict, side: str) -> float:
    """The one bound a Box record shows on ``side`` (``low``/``high``): its ``<side>_repr`` when it is a
    number, else the numbers printed in its array, when they are all the same."""
    text = value.get(f"{side}_repr")
    if isinstance(text, str) and _NUMBER.fullmatch(text.strip()):
        return float(text)
    text = value.get(side)
    numbers = set(_NUMBER.findall(text)) if isinstance(text, str) else set()
    values = {float(n) for n in numbers}
    if len(values) != 1:
        raise ValueError(f"a Box whose {side} bound is not one number")
    return values.pop()
