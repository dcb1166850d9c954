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

Only checked plain values reach SB3 (:mod:`boardgames.training.storage.sb3_data`: an allow-list with types and
ranges; ``env`` refuses the file, unknown keys are ignored with a warning), and the cost of a load is bounded
before anything is inflated or built: the file's size, each archive entry's declared size (zip bombs), the
network against the weights the file holds, the rollout buffer (:func:`archive_size_reason`,
:func:`torch_archive_reason`).

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

from boardgames.training.storage.sb3_data import (
    CONV_KWARGS,
    MAX_ROLLOUT_VALUES,
    MAX_WEIGHTS,
    network_weights,
    vetted_data,
)

MAX_SPACE_SIZE = 10**7
"""The most entries an observation or action space read from a file may have (its bounds are allocated)."""

MAX_FILE_BYTES = 2**30
"""The largest model file (an SB3 zip, a torch weights file) a loader reads: 1 GiB."""

MAX_ENTRY_BYTES = 2**30
"""The most bytes one entry of a model archive may inflate to (SB3's zip, torch's own zip format)."""

MAX_DATA_BYTES = 16 * 2**20
"""The most bytes the ``data`` entry (JSON) of an SB3 zip may inflate to."""

MAX_ARCHIVE_BYTES = 2 * 2**30
"""The most bytes all the entries of one model archive may inflate to together."""

MAX_ENTRIES = 10_000
"""The most entries a model archive may list."""

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
    reason = torch_archive_reason(source)
    if reason is not None:
        return None, reason
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


def torch_archive_reason(source) -> str | None:
    """Why ``source`` (a path or a seekable binary file) cannot be a torch file this project wrote, read in
    bounded time and memory, or None: torch's zip format (every ``torch.save`` since 1.6 writes it; the
    older format declares storage sizes that are allocated before they can be checked) within the size
    limits (:data:`MAX_FILE_BYTES`, :data:`MAX_ENTRY_BYTES`, :data:`MAX_ARCHIVE_BYTES`), checked on the
    sizes the archive declares before anything is inflated."""
    try:
        if isinstance(source, (str, os.PathLike)):
            size = os.path.getsize(source)
            if size > MAX_FILE_BYTES:
                return f"it is {size} bytes, more than the {MAX_FILE_BYTES} bytes a model file may have"
            with zipfile.ZipFile(source) as archive:
                return archive_size_reason(archive)
        position = source.tell()
        try:
            with zipfile.ZipFile(source) as archive:
                return archive_size_reason(archive)
        finally:
            source.seek(position)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError):
        return "its weights cannot be read: not in torch's zip format (torch.save since 1.6), the only one read here"
    except OSError as e:
        return f"it cannot be read ({type(e).__name__})"


def archive_size_reason(archive: zipfile.ZipFile, limits: dict | None = None) -> str | None:
    """Why the zip ``archive`` is too large to read, from the sizes its entries declare (the reader never
    inflates an entry past its declared size), or None; ``limits`` gives some entries a smaller limit than
    :data:`MAX_ENTRY_BYTES`."""
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        return f"its archive lists {len(infos)} entries, more than {MAX_ENTRIES}"
    for info in infos:
        limit = (limits or {}).get(info.filename, MAX_ENTRY_BYTES)
        if info.file_size > limit:
            return f"its entry {info.filename[:80]!r} inflates to {info.file_size} bytes, more than the {limit} allowed"
    total = sum(info.file_size for info in infos)
    if total > MAX_ARCHIVE_BYTES:
        return f"its entries inflate to {total} bytes in all, more than the {MAX_ARCHIVE_BYTES} allowed"
    return None


def read_entry(archive: zipfile.ZipFile, member) -> bytes:
    """The bytes of the entry ``member`` (a name or a ``ZipInfo``) of ``archive``, inflated a megabyte at a
    time, so that no more than the size the entry declares is ever produced (checked by
    :func:`archive_size_reason`): ``ZipFile.read`` inflates all of an entry's compressed data in one call,
    which an entry declaring 1,000 bytes can make gigabytes of zeros."""
    with archive.open(member) as entry:
        return b"".join(iter(lambda: entry.read(1 << 20), b""))


def load_weights(source, label: str, error: type[ModelFileError] = ModelFileError):
    """What ``source`` holds, read by torch in weights-only mode (tensors, numbers, strings and containers
    of them); anything else raises ``error`` with ``label`` (what the file should be) and the reason."""
    value, reason = weights_or_reason(source)
    if reason is not None:
        raise error(f"{label}: {reason}")
    return value


def read_model_json(path: str | Path):
    """The JSON of a model folder's settings file (``alphazero.json``, ``meta.json``...), read only when it
    is at most :data:`MAX_DATA_BYTES`: :class:`ModelFileError` (a ``ValueError``) naming it otherwise."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_DATA_BYTES:
        raise ModelFileError(f"{path}: {size} bytes, more than the {MAX_DATA_BYTES} a model's settings file may have")
    return json.loads(path.read_text())


# ----- Stable-Baselines3 archives ---------------------------------------------------------------------


def load_sb3(model_class, path: str | Path, env=None, device: str = "cpu", **kwargs):
    """The SB3 model saved at ``path`` as an instance of ``model_class`` (on ``env`` when given, with the
    attributes of ``kwargs`` replacing the saved ones), read without unpickling and without letting the file
    set anything but checked plain values (see the module docstring).

    Raises :class:`ModelFileError` for a file that is not such a model, that only unpickling could read, or
    that asks for more than a model of this project may (sizes, ranges), and :class:`WrongAlgorithmError` for
    a model saved by another algorithm."""
    path = Path(path)
    not_a_model = f"{path} is not a model of this project ({SB3_MODEL})"
    raw = _model_bytes(path, not_a_model)
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError):
        raise ModelFileError(f"{not_a_model}: it is not a zip archive") from None
    with archive:
        data = _sb3_data(archive, not_a_model)
        custom_objects = rebuild_serialized(data, model_class, env, not_a_model)
        absent = [k for k in ("policy_class", "observation_space", "action_space") if k not in custom_objects]
        if absent:
            raise ModelFileError(f"{not_a_model}: its data entry records no {' and no '.join(absent)}")
        data = vetted_data(data, set(custom_objects), not_a_model, ModelFileError)
        weights = _checked_weights(archive, not_a_model)
        _check_cost(data, custom_objects, env, kwargs, weights, not_a_model)
        vetted = _archive_with(archive, data, not_a_model)
    # every serialized key of `data` is in custom_objects, so SB3 unpickles nothing; its plain keys are vetted
    return model_class.load(io.BytesIO(vetted), env=env, device=device, custom_objects=custom_objects, **kwargs)


SB3_ENTRIES = ("data", "policy.pth", "policy.optimizer.pth", "pytorch_variables.pth", "_stable_baselines3_version")
"""The entries of an SB3 zip that are passed on to SB3's load (the others are not read)."""


def _model_bytes(path: Path, not_a_model: str) -> bytes:
    """The bytes of the model file ``path``, refused past :data:`MAX_FILE_BYTES` before they are read."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ModelFileError(f"{not_a_model}: it is {size} bytes, more than the {MAX_FILE_BYTES} a model file may have")
    return path.read_bytes()


def _sb3_data(archive: zipfile.ZipFile, not_a_model: str) -> dict:
    """The parsed ``data`` entry of an SB3 zip, once the archive's declared sizes are within the limits."""
    reason = archive_size_reason(archive, {"data": MAX_DATA_BYTES})
    if reason is not None:
        raise ModelFileError(f"{not_a_model}: {reason}; refused before reading it")
    names = archive.namelist()
    missing = [n for n in ("data", "policy.pth") if n not in names]
    if missing:
        raise ModelFileError(f"{not_a_model}: the archive has no {' and no '.join(missing)}")
    try:
        data = json.loads(read_entry(archive, "data").decode())
    except (UnicodeDecodeError, ValueError, zipfile.BadZipFile, OSError, EOFError, RecursionError) as e:
        raise ModelFileError(f"{not_a_model}: its data entry is not JSON ({type(e).__name__})") from None
    if not isinstance(data, dict):
        raise ModelFileError(f"{not_a_model}: its data entry is not a JSON object")
    if not isinstance(data.get("policy_kwargs", {}), dict):
        raise ModelFileError(f"{not_a_model}: its policy_kwargs are not a table of settings")
    return data


def _checked_weights(archive: zipfile.ZipFile, not_a_model: str) -> int:
    """Read every ``.pth`` entry of the archive in weights-only mode (what SB3 reads with torch.load: weights
    or refused); returns how many numbers ``policy.pth`` holds."""
    weights = 0
    for info in archive.infolist():
        if os.path.splitext(info.filename)[1] != ".pth":
            continue
        value, reason = weights_or_reason(_entry(archive, info, not_a_model))
        if reason is not None:
            raise ModelFileError(f"{not_a_model}: {reason} (in {info.filename})")
        if info.filename == "policy.pth":
            weights = _numbers_in(value)
    return weights


def _numbers_in(value) -> int:
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel()
    if isinstance(value, dict):
        return sum(_numbers_in(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(_numbers_in(v) for v in value)
    return 0


def _check_cost(data: dict, objects: dict, env, kwargs: dict, weights: int, not_a_model: str) -> None:
    """Refuse a file whose network or rollout buffer would cost more to build than a model of this project
    may (:data:`~boardgames.training.storage.sb3_data.MAX_WEIGHTS`, ``MAX_ROLLOUT_VALUES``), or whose network
    needs more weights than its ``policy.pth`` holds: found before SB3 builds (and initialises) anything."""
    import gymnasium

    obs_space = objects.get("observation_space")
    act_space = objects.get("action_space")
    if obs_space is None or not isinstance(act_space, gymnasium.spaces.Discrete):
        return  # SB3 refuses it itself (no spaces), before building anything
    obs_size, actions = int(math.prod(obs_space.shape)), int(act_space.n)
    policy_kwargs = data.get("policy_kwargs", {})
    convolutional = objects["policy_class"].__name__ == "BoardPolicy"  # of POLICY_CLASSES: the convolutional one
    if not convolutional and any(key in policy_kwargs for key in CONV_KWARGS):
        raise ModelFileError(f"{not_a_model}: its policy_kwargs hold settings of the convolutional policy only")
    need = network_weights(policy_kwargs, obs_size, actions, convolutional)
    if need > MAX_WEIGHTS or need > weights:
        raise ModelFileError(
            f"{not_a_model}: its policy_kwargs describe a network of at least {need} weights, but its policy.pth "
            f"holds {weights} (at most {MAX_WEIGHTS} are loaded); refused before building it"
        )
    n_envs = env.num_envs if env is not None and hasattr(env, "num_envs") else data.get("n_envs", 1)
    steps = kwargs.get("n_steps", data.get("n_steps", 1)) * n_envs
    if steps * (obs_size + actions + 8) > MAX_ROLLOUT_VALUES:
        raise ModelFileError(
            f"{not_a_model}: its rollout buffer (n_steps x n_envs = {steps} steps of {obs_size} observation numbers "
            f"and {actions} mask entries) would hold more than {MAX_ROLLOUT_VALUES} numbers; refused"
        )


def _entry(archive: zipfile.ZipFile, member, not_a_model: str) -> bytes:
    """:func:`read_entry`, or :class:`ModelFileError` naming the entry when it cannot be read (damaged data,
    a CRC that does not match)."""
    try:
        return read_entry(archive, member)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as e:
        name = getattr(member, "filename", member)
        raise ModelFileError(f"{not_a_model}: its {name} entry cannot be read ({type(e).__name__})") from None


def _archive_with(archive: zipfile.ZipFile, data: dict, not_a_model: str) -> bytes:
    """A new SB3 zip in memory: the vetted ``data`` and the archive's other entries that SB3 reads."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as new:
        new.writestr("data", json.dumps(data))
        for name in SB3_ENTRIES[1:]:
            if name in archive.namelist():
                new.writestr(name, _entry(archive, name, not_a_model))
    return out.getvalue()


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
    if isinstance(module, str):
        module = FORMER_MODULES.get(module, module)
    names = {m.group(1) for v in value.values() if isinstance(v, str) for m in [_METHOD.fullmatch(v)] if m}
    name = names.pop() if len(names) == 1 else None
    if not isinstance(module, str) or name is None or name not in allowed.get(module, ()):
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
        n, start = int(value["n"]), int(value.get("start", 0))
        if not 0 < n <= MAX_SPACE_SIZE or abs(start) > 2**31:
            raise ValueError(f"a Discrete space of {str(n)[:20]} actions (1..{MAX_SPACE_SIZE})")
        return gymnasium.spaces.Discrete(n, start=start)
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
