"""Model files mutated at random and loaded: the model-file part of the surfaces campaign.

Each try copies one shipped model of a kind into a temporary folder, mutates the copy, and loads it in a
forked child (:mod:`boardgames.benchmarks.fuzz.child`: bounded in time and memory) through the kind's own loader
and through :func:`boardgames.training.agent_kinds.make_agent` (with the game, or without one), then plays one move with
the agent it got:

* ``sb3``: a Stable-Baselines3 folder (``model.zip`` and ``meta.json``; ``models/dorix_2p``,
  ``models/barc``), loaded by :func:`boardgames.training.agent_kinds.load_model` and ``make_agent`` (the zip or the
  folder);
* ``alphazero``: an AlphaZero folder (``alphazero.json`` and ``alphazero.pt``; ``models/dorix_2p_az``),
  loaded by :func:`boardgames.training.alphazero.network.load_network` and ``make_agent`` (the folder, sometimes with
  ``@<simulations>``);
* ``rllib``: an exported RLlib policy (``policy.pt``; ``models/rllib_dorix_2p``, ``models/rllib_barc``),
  loaded by :func:`boardgames.training.rllib.policy_file.load_policy_file` and ``make_agent("rllib:<path>")``.

The mutations (one, sometimes two or three stacked): bytes flipped, the file cut at a random offset,
replaced by random bytes or emptied, a block copied over another, a file of the folder deleted; in the
zip archives (the SB3 zip, and the torch files, which are zips too) an entry removed, duplicated, renamed,
replaced by random bytes or by a pickled object whose unpickling would create a marker file, an entry
added, everything recompressed; in the JSON (``alphazero.json``, ``meta.json``, the SB3 zip's ``data``
entry) a field set to an out-of-range, wrong-typed, huge, deeply nested or non-finite value, removed or
added, ``env_version`` changed, the whole document replaced; in the torch files' content (the AlphaZero
weights, the RLlib policy's layers, weights and metadata) keys dropped or added, tensors of another shape
or type, values of another kind, layer sizes out of range; the plain values of the SB3 zip's ``data``
(:func:`mutate_plain`): any key the model holds unserialized, ``env``, keys it does not hold, and the
settings of ``policy_kwargs`` (``net_arch`` of 8192 x 8192 or 10^9, extractor, activation and optimizer
classes named by strings) set to huge, wrongly typed, code-naming (``os:system``, ``evilmod:X-v0``,
``this:X-v0``, ``subprocess:Popen``) or nested values; entry sizes in every zip (the SB3 zip, the torch
files, a torch zip inside the SB3 zip): real and lying zip bombs, too many entries
(:mod:`boardgames.benchmarks.fuzz.bombs`).

The child loads from a working folder holding ``evilmod.py`` (first on ``sys.path``), a module that records
its import (:class:`~boardgames.benchmarks.fuzz.child.ImportWatch`).

A try passes when the model loads and its agent plays a legal move, or when every call that refuses it
raises one of the project's errors (a ``ValueError`` of the project's own ``raise``: ``ModelFileError``,
``PolicyFileError``, ``SettingError``, ``ModelVersionError``, ``GameOptionError``...) with a message. It
fails on any other exception, on a ``ValueError`` that escaped from Python or a library, on an allocation
past the child's memory bound, on a hang, on a child that died, on an illegal move, whenever the
marker file exists afterwards (a payload ran), and when the load imported a module it must not
(``imported``: ``evilmod``, ``this``, ``antigravity``, or any module from outside the package, the standard
library and the installed packages).
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import pickle
import shutil
import traceback
import warnings
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from boardgames.benchmarks.fuzz.bombs import bomb, read_zip
from boardgames.benchmarks.fuzz.child import ImportWatch, describe_error, judge_error, plant_module, run_in_child
from boardgames.training.storage.safe_load import is_serialized

KINDS = ("sb3", "alphazero", "rllib")
SOURCES = {
    "sb3": ("dorix_2p", "barc"),
    "alphazero": ("dorix_2p_az",),
    "rllib": ("rllib_dorix_2p", "rllib_barc"),
}
"""The shipped models each kind's tries start from (a copy taken when the campaign starts)."""
FILES = {"sb3": ("model.zip", "meta.json"), "alphazero": ("alphazero.json", "alphazero.pt"), "rllib": ("policy.pt",)}
MOVE_SIMULATIONS = 8
"""An AlphaZero agent's move is searched with at most this many simulations (any count in range is
accepted by design; the move only shows that the agent plays)."""
LOAD_TIMEOUT = 60.0
IMPORTED = ".imported"
"""The suffix of the file (beside the marker) in which the planted module records its import."""

DEEP = "__deep__"
BIG = "__big__"
SPECIAL = "__special__"


class Trap:
    """Unpickling this object creates the file ``marker`` (by ``open``, ``exec`` or ``os.system``): the
    proof that a loader unpickled it."""

    def __init__(self, marker: str, how: str = "open"):
        self.marker, self.how = str(marker), how

    def __reduce__(self):
        if self.how == "exec":
            return (exec, (f"open({self.marker!r}, 'w').close()",))
        if self.how == "system":
            return (os.system, (f"touch '{self.marker}'",))
        return (open, (self.marker, "w"))


def trap_pickle(marker, r) -> bytes:
    return pickle.dumps(Trap(marker, str(r.choice(["open", "exec", "system"]))), protocol=int(r.integers(2, 5)))


def trap_torch(marker, r, plain: dict | None = None) -> bytes:
    """A torch file (``torch.save``) holding ``plain`` and a :class:`Trap`."""
    import torch

    buffer = io.BytesIO()
    torch.save({**(plain or {}), "trap": Trap(marker, str(r.choice(["open", "exec", "system"])))}, buffer)
    return buffer.getvalue()


# ----- the sources -------------------------------------------------------------------------------------
class Sources:
    """Copies of the shipped models the tries start from (taken once: a model retrained meanwhile does not
    change a run), and the game each is for."""

    def __init__(self, root: Path, names: dict | None = None):
        from boardgames.training.storage.shipped import SHIPPED_MODELS

        self.root = Path(root) / "sources"
        self.names = {k: tuple(v) for k, v in (names or SOURCES).items()}
        self.games = {}
        for kind, names_ in self.names.items():
            for name in names_:
                folder = self.root / name
                if not folder.exists():
                    folder.mkdir(parents=True)
                    for file in FILES[kind]:
                        shutil.copy2(SHIPPED_MODELS / name / file, folder / file)
                self.games[name] = source_game(kind, folder)

    def folder(self, name: str) -> Path:
        return self.root / name


def source_game(kind: str, folder: Path) -> tuple[str, dict]:
    """``(game name, options)`` of a pristine model folder."""
    if kind == "sb3":
        meta = json.loads((folder / "meta.json").read_text())
        return meta["game"], dict(meta.get("game_options", {}))
    if kind == "alphazero":
        meta = json.loads((folder / "alphazero.json").read_text())
        return meta["game"], dict(meta.get("options", {}))
    import torch

    data = torch.load(folder / "policy.pt", weights_only=True)
    return data["game"], dict(data.get("options", {}))


# ----- hostile values ----------------------------------------------------------------------------------
HOSTILE = [
    -1,
    0,
    1,
    2,
    3,
    4,
    7,
    64,
    4096,
    10**5,
    10**6,
    10**9,
    2**31,
    2**63,
    10**30,
    -(10**30),
    -(2**63),
    0.5,
    1.5,
    -0.0,
    1e-300,
    1e308,
    -1e308,
    True,
    False,
    None,
    "",
    "0",
    "1",
    "x",
    "linear",
    "square",
    "dorix",
    "barc",
    "olix",
    "adix",
    "nonsuch",
    "../../etc/passwd",
    "A" * 10_000,
    "\u0000",
    "\ud800",
    [],
    [0],
    [1, 2, 3],
    [4, 4, 22],
    [10**9, 10**9, 10**9],
    [-1, 4, 4],
    [[1]],
    {},
    {"a": 1},
    {"num_players": 2},
    {"num_players": 10**9},
    {"max_turns": -5},
    {"start": "nonsuch"},
]
SPECIALS = ["NaN", "Infinity", "-Infinity", "1e999", "-1e999", "1E400"]


def hostile_value(r):
    """A value for a JSON field: one of :data:`HOSTILE`, or a marker later written as a deeply nested
    list, a number of thousands of digits or a non-finite number."""
    pick = r.random()
    if pick < 0.12:
        return DEEP
    if pick < 0.22:
        return BIG
    if pick < 0.3:
        return SPECIAL
    return HOSTILE[int(r.integers(len(HOSTILE)))]


def dump_json(obj, r) -> bytes:
    """``obj`` as JSON, its :data:`DEEP`, :data:`BIG` and :data:`SPECIAL` markers written out."""
    text = json.dumps(obj)
    while f'"{DEEP}"' in text:
        depth = int(r.choice([50, 900, 1000, 3000, 100_000]))
        text = text.replace(f'"{DEEP}"', "[" * depth + "]" * depth, 1)
    while f'"{BIG}"' in text:
        digits = "7" * int(r.choice([25, 400, 4000, 4299, 4301, 20_000]))
        text = text.replace(f'"{BIG}"', ("-" if r.random() < 0.3 else "") + digits, 1)
    while f'"{SPECIAL}"' in text:
        text = text.replace(f'"{SPECIAL}"', str(r.choice(SPECIALS)), 1)
    return text.encode()


def json_paths(obj, prefix=()) -> list:
    """Every path (tuple of keys and indices) into a JSON value, the root excluded."""
    paths = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            paths.append((*prefix, k))
            paths.extend(json_paths(v, (*prefix, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:20]):
            paths.append((*prefix, i))
            paths.extend(json_paths(v, (*prefix, i)))
    return paths


def _parent(obj, path):
    for key in path[:-1]:
        obj = obj[key]
    return obj


TARGETS: dict[str, Any] = {
    "alphazero.json": [
        ("network",),
        ("network", "obs_shape"),
        ("network", "num_actions"),
        ("network", "num_seats"),
        ("network", "channels"),
        ("network", "blocks"),
        ("network", "head"),
        ("network", "value_hidden"),
        ("simulations",),
        ("c",),
        ("game",),
        ("options",),
        ("env_version",),
    ],
    "meta.json": [("game",), ("game_options",), ("env_version",), ("algorithm",)],
    "data": [
        ("policy_kwargs", "net_arch"),
        ("policy_kwargs",),
        ("n_steps",),
        ("n_envs",),
        ("batch_size",),
        ("observation_space", "_shape"),
        ("observation_space", "dtype"),
        ("observation_space", "low_repr"),
        ("observation_space", "high_repr"),
        ("observation_space", ":type:"),
        ("action_space", "n"),
        ("action_space", "start"),
        ("action_space", ":type:"),
        ("policy_class", "__module__"),
        ("policy_class", ":type:"),
        ("clip_range", "value_schedule"),
        ("learning_rate",),
        ("gamma",),
        ("num_timesteps",),
        ("seed",),
        ("n_epochs",),
        ("rollout_buffer_kwargs",),
    ],
}
"""Fields of each JSON document that the loaders read (chosen more often than the others)."""


def mutate_json(raw: bytes, name: str, r, marker) -> tuple[bytes, str]:
    """``raw`` (a JSON document: ``alphazero.json``, ``meta.json`` or the SB3 zip's ``data``) with one
    field changed, removed or added, or the whole document replaced; the description."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return raw[: len(raw) // 2], "JSON already broken: cut in half"
    op = r.random()
    if op < 0.06 or not isinstance(obj, dict):
        value = hostile_value(r)
        return dump_json(value, r), f"the whole document replaced by {_show(value)}"
    if name == "data" and op < 0.2:  # a pickled payload where SB3 would unpickle
        key = str(r.choice(["booby", "policy_class", "observation_space", "lr_schedule", "_last_obs", "verbose"]))
        entry = obj[key] if isinstance(obj.get(key), dict) else {":type:": "<class 'object'>"}
        obj[key] = {**entry, ":serialized:": base64.b64encode(trap_pickle(marker, r)).decode()}
        return dump_json(obj, r), f"data[{key!r}] given a pickled payload (':serialized:') that creates the marker"
    if name != "data" and op < 0.3:
        value = hostile_value(r) if r.random() < 0.5 else int(r.choice([0, 1, 2, 99]))
        obj["env_version"] = value
        return dump_json(obj, r), f"env_version = {_show(value)}"
    targets = [t for t in TARGETS.get(name, []) if _exists(obj, t[:-1])]
    paths = json_paths(obj)
    path = (
        tuple(targets[int(r.integers(len(targets)))])
        if targets and r.random() < 0.7
        else (paths[int(r.integers(len(paths)))] if paths else ("x",))
    )
    parent = _parent(obj, path)
    if r.random() < 0.15 and isinstance(parent, dict):
        parent.pop(path[-1], None)
        return dump_json(obj, r), f"{_name(path)} removed"
    value = hostile_value(r)
    if isinstance(parent, dict) or (isinstance(parent, list) and isinstance(path[-1], int) and path[-1] < len(parent)):
        parent[path[-1]] = value
    return dump_json(obj, r), f"{_name(path)} = {_show(value)}"


def _exists(obj, path) -> bool:
    for key in path:
        if not isinstance(obj, dict) or key not in obj:
            return False
        obj = obj[key]
    return isinstance(obj, dict)


def _name(path) -> str:
    return "".join(f"[{k!r}]" if isinstance(k, str) else f"[{k}]" for k in path)


def _show(value) -> str:
    if value == DEEP:
        return "a list nested thousands deep"
    if value == BIG:
        return "a number of thousands of digits"
    if value == SPECIAL:
        return "a non-finite number (NaN, Infinity, 1e999)"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# ----- the plain values of SB3's data ------------------------------------------------------------------
CODE_NAMES = [
    "os:system",
    "evilmod:X-v0",
    "this:X-v0",
    "subprocess:Popen",
    "evilmod",
    "evilmod:Env",
    "evilmod.sub:Env-v0",
    "antigravity:X-v0",
    "builtins:eval",
    "__import__('evilmod')",
    "<class 'evilmod.Policy'>",
    "evilmod.Policy",
    "gymnasium.envs.classic_control:CartPole-v1",
]
"""Strings that name code: a module to import (``evilmod`` is planted where the loading child looks for
modules; ``this`` prints the Zen of Python), a callable, a class."""
HUGE = [10**9, 2**31, 2**63, 2**64, -(2**63), 10**30, 1e308, -1e308, 1e-320, "A" * 10_000, "9" * 5_000, BIG, SPECIAL]
WRONG_TYPES = ["256", "0.99", [256], [], {}, {"value": 1}, True, False, None, 0.5, -1, 0, "", "nan", DEEP]
NESTED = [
    {"env": "evilmod:X-v0"},
    {":type:": "<class 'evilmod.X'>", "__module__": "evilmod"},
    {"__class__": "os.system", "args": ["touch evil"]},
    {"a": {"b": {"c": ["evilmod:X-v0"]}}},
    [{"env": "this:X-v0"}],
    {":serialized:": "not base64 at all"},
    {":type:": "<class 'function'>", ":serialized:": ""},
]
PLAIN_KINDS: dict[str, Any] = {"huge": HUGE, "wrong type": WRONG_TYPES, "code name": CODE_NAMES, "nested": NESTED}
UNKNOWN_KEYS = [
    "env_id",
    "_evil",
    "policy",
    "device",
    "__dict__",
    "__class__",
    "learn",
    "_vec_normalize_env",
    "replay_buffer",
    "_logger",
    "_custom_logger",
    "eval_env",
    "x" * 300,
    "",
    "evilmod:X-v0",
]
"""Keys a model of this project does not hold (SB3 would set each on the model)."""
POLICY_KWARGS: dict[str, Any] = {
    "net_arch": [
        [8192, 8192],
        [10**9],
        [65536] * 64,
        [1] * 100,
        {"pi": [10**6], "vf": [10**6]},
        [{"pi": [8192, 8192], "vf": [8192]}],
        [],
        [0],
        [-1],
        ["64"],
        {"pi": "evilmod"},
        {"pi": [64], "qf": [64]},
    ],
    "features_extractor_class": [*CODE_NAMES, "torch.nn.Flatten"],
    "activation_fn": [*CODE_NAMES, "torch.nn.Tanh"],
    "optimizer_class": [*CODE_NAMES, "torch.optim.SGD"],
    "features_extractor_kwargs": [
        {"channels": 10**6, "dilations": [1, 2]},
        {"channels": 65536, "dilations": [1] * 64},
        {"channels": 32, "dilations": [64] * 64},
        {"channels": "evilmod", "dilations": [1]},
        {},
    ],
    "optimizer_kwargs": [{"lr": 1e308}, {"eps": "evilmod"}, {"foreach": True}],
    "head": ["square", "linear", "evilmod:X", 7],
    "ortho_init": [True, "yes", 1],
    "normalize_images": [False, "evilmod"],
    "share_features_extractor": [False, None],
    "log_std_init": [1e308],
    "squash_output": [True],
    "device": ["cuda:9", "evilmod"],
}
"""Settings a ``policy_kwargs`` may name, each with values to try (besides those of :data:`PLAIN_KINDS`)."""


def plain_value(r) -> tuple[object, str]:
    """A value of one of :data:`PLAIN_KINDS`, and which."""
    kind = str(r.choice(list(PLAIN_KINDS)))
    values = PLAIN_KINDS[kind]
    return values[int(r.integers(len(values)))], kind


def mutate_plain(raw: bytes, r) -> tuple[bytes, str]:
    """SB3's ``data`` JSON with one to three of its plain keys changed: a key it holds that is not
    serialized, ``env``, a key it does not hold, or a setting of ``policy_kwargs``; set to a huge, wrongly
    typed, code-naming or nested value (a setting of ``policy_kwargs`` often to one of its own
    :data:`POLICY_KWARGS` values). The description."""
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return raw, "data already broken: left as is"
    if not isinstance(obj, dict):
        return raw, "data is no table: left as is"
    plain = sorted(k for k, v in obj.items() if not is_serialized(v) and k != "policy_kwargs")
    done = []
    for _ in range(int(r.choice([1, 1, 2, 3]))):
        pick = r.random()
        value, kind = plain_value(r)
        if pick < 0.3 and plain:
            key = plain[int(r.integers(len(plain)))]
        elif pick < 0.5:
            key = "env"
            if r.random() < 0.7:
                value, kind = CODE_NAMES[int(r.integers(len(CODE_NAMES)))], "code name"
        elif pick < 0.65:
            key = UNKNOWN_KEYS[int(r.integers(len(UNKNOWN_KEYS)))]
        else:
            kwargs = obj.get("policy_kwargs")
            if not isinstance(kwargs, dict) or r.random() < 0.08:
                obj["policy_kwargs"] = value
                done.append(f"policy_kwargs = {_show(value)} ({kind})")
                continue
            setting = str(r.choice(list(POLICY_KWARGS)))
            if r.random() < 0.7:
                own = POLICY_KWARGS[setting]
                value, kind = own[int(r.integers(len(own)))], "a setting's value"
            kwargs[setting] = value
            done.append(f"policy_kwargs[{setting!r}] = {_show(value)} ({kind})")
            continue
        obj[key] = value
        done.append(f"[{_show(key)}] = {_show(value)} ({kind})")
    return dump_json(obj, r), "; ".join(done)


# ----- bytes and zips ----------------------------------------------------------------------------------
def mutate_bytes(raw: bytes, r) -> tuple[bytes | None, str]:
    """A byte-level mutation of a file's content (None: the file deleted); the description."""
    op = str(r.choice(["flip", "flip", "truncate", "truncate", "garbage", "empty", "splice", "delete"]))
    n = len(raw)
    if op == "flip" and n:
        data = bytearray(raw)
        k = int(r.integers(1, 17))
        for p in r.integers(0, n, k):
            data[p] ^= int(r.integers(1, 256))
        return bytes(data), f"{k} bytes flipped"
    if op == "truncate" and n:
        cut = int(r.integers(0, n))
        return raw[:cut], f"cut to {cut} of {n} bytes"
    if op == "garbage":
        size = int(r.integers(1, 4096))
        return r.bytes(size), f"replaced by {size} random bytes"
    if op == "splice" and n > 2:
        a, b = (int(x) for x in r.integers(0, n, 2))
        size = int(r.integers(1, 257))
        data = bytearray(raw)
        block = raw[a : a + size]
        data[b : b + len(block)] = block
        return bytes(data[:n]), f"{len(block)} bytes at {a} copied over {b}"
    if op == "delete":
        return None, "deleted"
    return b"", "emptied"


def write_zip(entries: list, compression=zipfile.ZIP_STORED) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are the point
        with zipfile.ZipFile(buffer, "w", compression=compression) as z:
            for name, data in entries:
                z.writestr(name, data)
    return buffer.getvalue()


def mutate_zip(raw: bytes, file: str, r, marker) -> tuple[bytes, str]:
    """A mutation of a zip archive's entries (the SB3 zip, or a torch file); the description."""
    entries = read_zip(raw)
    if not entries:
        data, what = mutate_bytes(raw, r)
        return data or b"", what
    i = int(r.integers(len(entries)))
    name, data = entries[i]
    op = str(r.choice(["remove", "duplicate", "random", "trap", "trap", "add", "rename", "compress", "json"]))
    torch_file = file != "model.zip"
    if op == "json" and not torch_file:
        changed = change_data(entries, lambda data: mutate_json(data, "data", r, marker))
        if changed is not None:
            return changed
    if op == "json":
        op = "trap"
    if op == "remove":
        del entries[i]
        return write_zip(entries), f"entry {name!r} removed"
    if op == "duplicate":
        how = str(r.choice(["same", "random", "trap"]))
        extra = (
            data
            if how == "same"
            else r.bytes(max(1, len(data) // 2))
            if how == "random"
            else _trap_for(name, torch_file, r, marker)
        )
        entries.insert(int(r.integers(len(entries) + 1)), (name, extra))
        return write_zip(entries), f"entry {name!r} duplicated ({how} content)"
    if op == "random":
        entries[i] = (name, r.bytes(int(r.integers(0, max(2, len(data) + 1)))))
        return write_zip(entries), f"entry {name!r} replaced by random bytes"
    if op == "trap":
        j = next((k for k, (n, _) in enumerate(entries) if n.endswith("data.pkl") or n.endswith(".pth")), i)
        if not torch_file and r.random() < 0.5:
            j = next((k for k, (n, _) in enumerate(entries) if n == "data"), j)
        target = entries[j][0]
        entries[j] = (target, _trap_for(target, torch_file, r, marker, entries[j][1]))
        return write_zip(entries), f"entry {target!r} replaced by a pickled payload that creates the marker"
    if op == "add":
        prefix = name.split("/")[0] + "/" if torch_file and "/" in name else ""
        new = prefix + str(r.choice(["data.pkl", "evil.pth", "data/999", "policy.pth", "../escape", "x" * 200]))
        entries.append((new, _trap_for(new, torch_file, r, marker)))
        return write_zip(entries), f"entry {new[:60]!r} added, holding a pickled payload"
    if op == "rename":
        new = str(r.choice([name + ".bak", name.upper(), "/" + name, name.replace("/", "\\"), ""]))
        entries[i] = (new or "renamed", data)
        return write_zip(entries), f"entry {name!r} renamed {new!r}"
    return write_zip(entries, zipfile.ZIP_DEFLATED), "every entry recompressed (deflate)"


def change_data(entries: list, change) -> tuple[bytes, str] | None:
    """The SB3 zip of ``entries`` with its ``data`` entry replaced by ``change(data)`` (which returns the new
    bytes and a description); None when there is no ``data`` entry."""
    j = next((k for k, (n, _) in enumerate(entries) if n == "data"), None)
    if j is None:
        return None
    changed, what = change(entries[j][1])
    entries[j] = ("data", changed)
    return write_zip(entries), f"entry 'data': {what}"


def _trap_for(name: str, torch_file: bool, r, marker, original: bytes | None = None) -> bytes:
    """A payload for a zip entry: a pickle for a torch file's ``data.pkl``; a torch file holding a trap for
    an SB3 ``.pth``; SB3's ``data`` JSON with a serialized trap."""
    if torch_file:
        return trap_pickle(marker, r)
    if name == "data" and original is not None:
        return mutate_json(original, "data", _ForcePayload(r), marker)[0]
    return trap_torch(marker, r)


class _ForcePayload:
    """A generator whose first draw chooses the 'pickled payload' mutation of the ``data`` JSON."""

    def __init__(self, r):
        self.r, self.first = r, True

    def random(self):
        if self.first:
            self.first = False
            return 0.1
        return self.r.random()

    def __getattr__(self, name):
        return getattr(self.r, name)


# ----- torch content -----------------------------------------------------------------------------------
def hostile_tensor(r):
    import torch

    pick = int(r.integers(8))
    if pick == 0:
        return torch.zeros(*(int(d) for d in r.integers(0, 9, int(r.integers(1, 5)))))
    if pick == 1:
        return torch.zeros(
            3, dtype=[torch.int64, torch.bool, torch.uint8, torch.float16, torch.complex64][int(r.integers(5))]
        )
    if pick == 2:
        return torch.tensor(float("nan"))
    if pick == 3:
        return torch.zeros(0)
    return HOSTILE[int(r.integers(len(HOSTILE)))]


def mutate_weights(state, r) -> tuple[object, str]:
    """An AlphaZero state dict (``alphazero.pt``) with keys dropped, added or renamed, tensors of another
    shape or type, values that are no tensors, or the whole object replaced; the description."""
    import torch

    if not isinstance(state, dict) or not state:
        return {"x": torch.zeros(1)}, "replaced by a one-tensor dict"
    keys = list(state)
    key = keys[int(r.integers(len(keys)))]
    op = str(r.choice(["drop", "add", "rename", "retensor", "retensor", "whole", "scale"]))
    state = dict(state)
    if op == "drop":
        del state[key]
        return state, f"weight {key!r} removed"
    if op == "add":
        state[str(r.choice(["extra.weight", key + ".x", ""]))] = hostile_tensor(r)
        return state, "a weight added"
    if op == "rename":
        state[key + "_"] = state.pop(key)
        return state, f"weight {key!r} renamed"
    if op == "scale":
        state[key] = state[key] * float(r.choice([float("nan"), float("inf"), 1e30, 0.0]))
        return state, f"weight {key!r} made non-finite, huge or zero"
    if op == "whole":
        value = r.choice([0, 1])
        return ([state] if value else torch.zeros(3)), "the whole state dict replaced"
    value = hostile_tensor(r)
    state[key] = value
    return state, f"weight {key!r} = {_show(value) if not isinstance(value, torch.Tensor) else _tensor(value)}"


def _tensor(t) -> str:
    return f"tensor of shape {tuple(t.shape)}, {str(t.dtype).replace('torch.', '')}"


def mutate_policy(data, r) -> tuple[object, str]:
    """An RLlib policy file's content (format tag, game, options, env_version, layers, weights) with one
    part changed; the description."""
    if not isinstance(data, dict):
        return {"format": "x"}, "replaced by a dict"
    data = dict(data)
    op = str(r.choice(["top", "top", "layer", "layer", "layer", "layers", "weights", "weights"]))
    if op == "top":
        key = str(r.choice(["format", "game", "options", "env_version", "extra", "layers", "state_dict"]))
        if r.random() < 0.2:
            data.pop(key, None)
            return data, f"{key!r} removed"
        value = hostile_value(r) if r.random() < 0.8 else int(r.choice([0, 1, 2]))
        data[key] = _concrete(value, r)
        return data, f"{key!r} = {_show(value)}"
    layers = data.get("layers")
    if op == "layer" and isinstance(layers, list) and layers:
        layers = [dict(x) if isinstance(x, dict) else x for x in layers]
        i = int(r.integers(len(layers)))
        layer = layers[i]
        if not isinstance(layer, dict):
            layers[i] = {"type": "tanh"}
        else:
            key = str(r.choice(["type", "in", "out", "in", "out"]))
            value = hostile_value(r)
            if r.random() < 0.15:
                layer.pop(key, None)
                what = f"layer {i}: {key!r} removed"
            else:
                layer[key] = _concrete(value, r)
                what = f"layer {i}: {key!r} = {_show(value)}"
            data["layers"] = layers
            return data, what
    if op in ("layer", "layers") and isinstance(layers, list):
        pick = int(r.integers(5))
        if pick == 0:
            data["layers"] = []
            return data, "no layers"
        if pick == 1:
            data["layers"] = [*layers, *([{"type": "tanh"}] * int(r.choice([1, 100, 5000])))]
            return data, "activation layers appended"
        if pick == 2 and layers:
            data["layers"] = [layers[-1], *layers[:-1]]
            return data, "layers reordered"
        if pick == 3:
            data["layers"] = [_concrete(hostile_value(r), r), *layers]
            return data, "a layer that is no table"
        data["layers"] = {"0": layers}
        return data, "layers given as a dict"
    weights = data.get("state_dict")
    if isinstance(weights, dict) and weights:
        new, what = mutate_weights(weights, r)
        data["state_dict"] = new
        return data, f"state_dict: {what}"
    data["state_dict"] = _concrete(hostile_value(r), r)
    return data, "state_dict replaced"


def _concrete(value, r):
    """A Python value for a torch file (the JSON markers made real: a deeply nested list, a huge int, a
    non-finite float)."""
    if value == DEEP:
        deep: list = []
        for _ in range(int(r.choice([50, 200, 400]))):  # deeper would exceed the pickler's own recursion
            deep = [deep]
        return deep
    if value == BIG:
        return int("7" * int(r.choice([25, 400, 4000])))
    if value == SPECIAL:
        return float(r.choice([float("nan"), float("inf"), float("-inf")]))
    return value


def mutate_torch_content(path: Path, kind: str, r) -> str:
    """Rewrite the torch file ``path`` with its content mutated (:func:`mutate_weights` for AlphaZero,
    :func:`mutate_policy` for RLlib); the description."""
    import torch

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = torch.load(path, weights_only=True)
    except Exception:  # noqa: BLE001 - already damaged by an earlier mutation: leave it
        return "content not readable (already damaged): left as is"
    new, what = mutate_weights(data, r) if kind == "alphazero" else mutate_policy(data, r)
    torch.save(new, path)
    return what


# ----- one try -----------------------------------------------------------------------------------------
LAYERS = ("bytes", "zip", "json", "content", "plain", "bomb")
"""The kinds of mutation: of a file's bytes, of a zip's entries, of a JSON document's fields, of a torch
file's content, of the plain values of an SB3 zip's ``data`` (:func:`mutate_plain`), of a zip's entry sizes
(:func:`boardgames.benchmarks.fuzz.bombs.bomb`)."""


def prepare(kind: str, seed: int, sources: Sources, work: Path, layer: str | None = None) -> dict:
    """Copy a source model of ``kind`` into ``work`` and mutate it as seed ``seed`` says (the first mutation of
    the kind ``layer`` when given: one of :data:`LAYERS`, of the kind's zip file for ``plain`` and ``bomb``);
    what the load needs (the spec, the game, the marker file) and the mutations done."""
    r = np.random.default_rng(seed)
    names = sources.names[kind]
    name = names[int(r.integers(len(names)))]
    folder = work / name
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(sources.folder(name), folder)
    marker = work / f"marker-{seed}"
    marker.unlink(missing_ok=True)
    done: list = []
    forced, bombed = layer, False
    for _ in range(int(r.choice([1, 1, 1, 2, 3]))):
        file = FILES[kind][int(r.integers(len(FILES[kind])))]
        if forced in ("plain", "bomb") and not done:
            file = next(f for f in FILES[kind] if not f.endswith(".json"))
        path = folder / file
        if not path.exists():
            continue
        raw = path.read_bytes()
        pick = r.random()
        if forced and not done:
            layer = forced
        elif bombed and not file.endswith(".json"):
            layer = "bytes"  # a bomb is not read again here (the fuzzer's own memory and time)
        elif file.endswith(".json"):
            layer = "json" if pick < 0.7 else "bytes"
        elif file == "model.zip":
            layer = "plain" if pick < 0.3 else "bomb" if pick < 0.42 else "zip" if pick < 0.8 else "bytes"
        else:
            layer = "content" if pick < 0.35 else "bomb" if pick < 0.47 else "zip" if pick < 0.8 else "bytes"
        if layer == "bytes":
            data, what = mutate_bytes(raw, r)
            if data is None and kind != "alphazero" and file != "meta.json":
                data, what = b"", "emptied"  # the main file stays: the loaders are given its path
        elif layer == "zip":
            data, what = mutate_zip(raw, file, r, marker)
        elif layer == "json":
            data, what = mutate_json(raw, file, r, marker)
        elif layer == "plain":
            data, what = change_data(read_zip(raw) or [], lambda d: mutate_plain(d, r)) or (raw, "no data entry")
        elif layer == "bomb":
            data, what = bomb(raw, file != "model.zip", r)
            data, bombed = (raw, bombed) if data is None else (data, True)
        else:
            what = mutate_torch_content(path, kind, r)
            data = path.read_bytes()
        if data is None:
            path.unlink()
        else:
            path.write_bytes(data)
        done.append(f"{file}: {what}")
    game = sources.games[name]
    with_game = r.random() < 0.75
    if kind == "sb3":
        spec = str(folder / "model.zip") if r.random() < 0.6 else str(folder)
    elif kind == "alphazero":
        spec = str(folder) + (f"@{int(r.choice([1, 3, 8]))}" if r.random() < 0.3 else "")
    else:
        spec = "rllib:" + str(folder / "policy.pt" if r.random() < 0.6 else folder)
    return {
        "kind": kind,
        "source": name,
        "folder": str(folder),
        "spec": spec,
        "game": game,
        "with_game": with_game,
        "marker": str(marker),
        "modules": str(work / "modules"),
        "mutations": done,
    }


def load_and_play(plan: dict, verbose: bool = False) -> dict:
    """Load the mutated model of ``plan`` with the kind's loader and with ``make_agent``, then play one move;
    each call's result (run in the child)."""
    from boardgames.envs.registry import make_game

    kind, folder = plan["kind"], Path(plan["folder"])
    name, options = plan["game"]
    game = make_game(name, **options)
    steps = []
    watch = ImportWatch(plan["modules"], plan["marker"] + IMPORTED) if plan.get("modules") else None

    def attempt(call, fn):
        try:
            value = fn()
        except Exception as e:  # noqa: BLE001 - judged by the campaign
            if verbose:
                traceback.print_exc()
            steps.append({"call": call, "ok": False, "error": describe_error(e)})
            return None
        steps.append({"call": call, "ok": True})
        return value

    if kind == "sb3":
        from boardgames.training.agent_kinds import load_model

        attempt("load_model", lambda: load_model(folder / "model.zip"))
    elif kind == "alphazero":
        from boardgames.training.alphazero.network import load_network

        attempt("load_network", lambda: load_network(folder))
    else:
        from boardgames.training.rllib.policy_file import load_policy_file

        attempt("load_policy_file", lambda: load_policy_file(folder / "policy.pt"))
    from boardgames.training.agent_kinds import make_agent

    agent = attempt("make_agent", lambda: make_agent(plan["spec"], game if plan["with_game"] else None, seed=0))
    legal = None
    if agent is not None:
        play_game = game if plan["with_game"] else getattr(agent, "game", None)
        if hasattr(agent, "simulations"):
            agent.simulations = min(agent.simulations, MOVE_SIMULATIONS)
        if play_game is not None:

            def move():
                state = play_game.new_initial_state()
                seat = int(state.current_seats()[0])
                return bool(state.legal_mask(seat)[int(agent(state, seat))])

            legal = attempt("move", move)
    return {"steps": steps, "legal": legal, "imported": watch.imported() if watch else []}


def judge(plan: dict, result, marker_exists: bool) -> tuple[str, list]:
    """``(outcome, problems)`` of a try from the child's result. The outcome is ``loaded`` or how
    ``make_agent`` (or the move) answered; problems are ``(check, text)`` pairs, from every call."""
    problems = []
    if marker_exists:
        problems.append(("payload ran", "the marker file exists: something in the file was unpickled and run"))
    imported = list((result.answer or {}).get("imported") or [])
    if plan.get("modules") and os.path.exists(plan["marker"] + IMPORTED):
        imported.append("evilmod (its marker file exists)")
    if imported:
        problems.append(("imported", f"the load imported a module it must not: {', '.join(imported[:5])}"))
    if result.timed_out:
        return "hang", [*problems, ("hang", f"no answer in {LOAD_TIMEOUT:.0f} s")]
    if result.answer is None:
        return "child died", [*problems, ("child died", f"the loading process ended with status {result.status}")]
    outcome = "loaded"
    for step in result.answer["steps"]:
        if step["ok"]:
            continue
        verdict, problem = judge_error(step["error"])
        if problem:
            problems.append((f"{step['call']}: {verdict}", problem))
        if step["call"] == "make_agent":
            outcome = verdict
        elif step["call"] == "move":
            outcome = f"move: {verdict}"
    if result.answer["legal"] is False:
        problems.append(("illegal move", "the agent played an illegal move"))
    return outcome, problems


def run_try(
    kind: str, seed: int, sources: Sources, work: Path, verbose: bool = False, layer: str | None = None
) -> tuple[str, list, dict]:
    """One try: prepare (``layer``: see :func:`prepare`), load in a child, judge; ``(outcome, problems,
    plan)``. The copy is removed after."""
    (work / "modules").mkdir(exist_ok=True)
    plant_module(work / "modules")
    plan = prepare(kind, seed, sources, work, layer)
    output = str(work / f"output-{seed}.txt") if verbose else None
    result = run_in_child(load_and_play, plan, verbose, timeout=LOAD_TIMEOUT, output=output)
    marker = Path(plan["marker"])
    outcome, problems = judge(plan, result, marker.exists())
    if verbose and output and os.path.exists(output):
        print(Path(output).read_text()[-6000:])
    with contextlib.suppress(OSError):
        marker.unlink(missing_ok=True)
        Path(plan["marker"] + IMPORTED).unlink(missing_ok=True)
        if output:
            os.unlink(output)
    shutil.rmtree(plan["folder"], ignore_errors=True)
    return outcome, problems, plan


def warm_up(sources: Sources) -> None:
    """Load every source model once, unmutated, and play a move (imports, compiled search): the children
    forked afterwards start at once. A source that does not load stops the campaign."""
    from boardgames.envs.registry import make_game
    from boardgames.training.agent_kinds import make_agent

    for kind, names in sources.names.items():
        for name in names:
            folder = sources.folder(name)
            game_name, options = sources.games[name]
            game = make_game(game_name, **options)
            spec = {"sb3": str(folder / "model.zip"), "alphazero": f"{folder}@2", "rllib": f"rllib:{folder}"}[kind]
            agent = make_agent(spec, game, seed=0)
            state = game.new_initial_state()
            seat = int(state.current_seats()[0])
            if not state.legal_mask(seat)[int(agent(state, seat))]:
                raise RuntimeError(f"the unmutated source {name} plays an illegal move")
