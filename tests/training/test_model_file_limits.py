"""A model file imports nothing, sets only what it may, and costs bounded time and memory (issue 45, items
2 and 3). Each file is the shipped Dorix model with one plain value of its ``data`` entry changed, or an
archive built here whose entries declare more than the limits."""

from __future__ import annotations

import io
import json
import sys
import time
import warnings
import zipfile
from pathlib import Path

import pytest
import torch

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import ModelFileError, make_agent
from boardgames.training.storage import safe_load
from boardgames.training.storage.shipped import SHIPPED_MODELS

SB3_MODEL = SHIPPED_MODELS / "dorix_2p" / "model.zip"


def with_data(out: Path, **changes) -> Path:
    """The shipped Dorix model with keys of its ``data`` JSON set (a value ``...`` removes the key)."""
    with zipfile.ZipFile(SB3_MODEL) as src:
        data = json.loads(src.read("data"))
        data.update(changes)
        data = {k: v for k, v in data.items() if v is not ...}
        with zipfile.ZipFile(out, "w") as dst:
            for name in src.namelist():
                dst.writestr(name, json.dumps(data) if name == "data" else src.read(name))
    return out


def refused(path: Path, match: str) -> str:
    with pytest.raises(ModelFileError, match=match) as e:
        make_agent(str(path))
    return str(e.value)


def test_a_model_naming_a_module_to_import_is_refused_and_imports_nothing(tmp_path, monkeypatch):
    """The reproducers: ``"env": "this:X-v0"`` printed the Zen of Python; ``evilmod:X-v0`` beside the
    working directory ran that module."""
    (tmp_path / "evilmod.py").write_text("open('imported', 'w').close()\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for env in ("this:X-v0", "evilmod:X-v0"):
        message = refused(with_data(tmp_path / "m.zip", env=env), r"'env'.*Gymnasium would import the module")
        assert str(tmp_path / "m.zip") in message
    assert "this" not in sys.modules and "evilmod" not in sys.modules
    assert not (tmp_path / "imported").exists()


@pytest.mark.parametrize(
    "key, value, must",
    [
        ("n_steps", 10**9, r"n_steps to 1000000000, which must be a whole number 1\.\.1048576"),
        ("n_steps", "256", r"n_steps to '256', which must be a whole number"),
        ("gamma", float("nan"), r"gamma to nan, which must be a finite number 0\.\.1"),
        ("n_envs", -3, r"n_envs to -3"),
        ("use_sde", "yes", r"use_sde to 'yes', which must be true or false"),
        ("action_noise", {"a": 1}, r"action_noise to .*which must be null"),
        ("rollout_buffer_kwargs", {"handle_timeout_termination": True}, r"rollout_buffer_kwargs"),
        ("policy_kwargs", {"net_arch": [256, 256], "features_extractor_class": "os:system"}, r"features_extractor_cl"),
        ("policy_kwargs", {"net_arch": [0]}, r"policy_kwargs\.net_arch to \[0\]"),
        ("policy_kwargs", {"net_arch": {"pi": [64], "qf": [64]}}, r"policy_kwargs\.net_arch"),
    ],
)
def test_a_plain_value_out_of_its_type_or_range_is_refused_naming_it(tmp_path, key, value, must):
    refused(with_data(tmp_path / "m.zip", **{key: value}), must)


def test_a_network_larger_than_its_weights_is_refused_before_it_is_built(tmp_path):
    """The reproducer: ``net_arch = [8192, 8192]`` in a 1.5 MB zip kept make_agent busy over 420 s."""
    start = time.perf_counter()
    message = refused(
        with_data(tmp_path / "m.zip", policy_kwargs={"net_arch": [8192, 8192]}), r"network of at least \d+ weights"
    )
    assert "refused before building it" in message
    assert time.perf_counter() - start < 60  # not a speed test: 420 s before; a bound on hangs only


def test_unknown_keys_are_ignored_with_a_warning_and_the_log_folder_is_never_the_files(tmp_path):
    path = with_data(tmp_path / "m.zip", some_future_key=3, tensorboard_log="/etc/elsewhere")
    with pytest.warns(UserWarning, match=r"ignored keys of its data entry .*'some_future_key'"):
        agent = make_agent(str(path))
    assert agent.model.tensorboard_log is None
    assert not hasattr(agent.model, "some_future_key")
    state = make_game("dorix", num_players=2).new_initial_state()
    assert state.legal_mask()[agent.act(state, state.current_seat)]


def test_the_shipped_models_load_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in ("dorix_2p", "olix", "barc", "adix"):
            assert make_agent(name) is not None


def bomb(path: Path, entry: str, declared: int) -> Path:
    """The shipped model whose ``entry`` declares ``declared`` bytes inflated in the archive's central
    directory (what a zip bomb shows, and what the check reads; the file stays small)."""
    raw = bytearray(SB3_MODEL.read_bytes())
    index = -1
    while True:
        index = raw.find(b"PK\x01\x02", index + 1)  # a central directory record
        assert index >= 0, entry
        name_length = int.from_bytes(raw[index + 28 : index + 30], "little")
        if raw[index + 46 : index + 46 + name_length] == entry.encode():
            break
    raw[index + 24 : index + 28] = declared.to_bytes(4, "little")  # its uncompressed size
    path.write_bytes(bytes(raw))
    return path


@pytest.mark.parametrize(
    "entry, declared, limit", [("data", 6 * 10**8, "16777216"), ("policy.pth", 4_000_000_000, "1073741824")]
)
def test_a_zip_bomb_is_refused_from_its_declared_sizes_before_anything_is_inflated(tmp_path, entry, declared, limit):
    path = bomb(tmp_path / "bomb.zip", entry, declared)
    message = refused(path, rf"entry '{entry}' inflates to {declared} bytes, more than the {limit}")
    assert "refused before reading it" in message


def test_a_torch_file_inside_that_declares_too_much_is_refused(tmp_path):
    buffer = io.BytesIO()
    torch.save({"w": torch.zeros(3)}, buffer)
    with zipfile.ZipFile(buffer) as z:
        names = z.namelist()
    limits = dict.fromkeys(names, 1)  # every entry over a 1-byte limit: the reason names one
    assert "inflates to" in safe_load.archive_size_reason(zipfile.ZipFile(buffer), limits)
    buffer.seek(0)
    assert safe_load.torch_archive_reason(buffer) is None  # the same file within the real limits reads
    legacy = io.BytesIO()
    torch.save({"w": torch.zeros(3)}, legacy, _use_new_zipfile_serialization=False)
    legacy.seek(0)
    assert "not in torch's zip format" in safe_load.weights_or_reason(legacy)[1]


def test_a_model_file_past_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(safe_load, "MAX_FILE_BYTES", 1000)
    message = refused(with_data(tmp_path / "m.zip"), r"it is \d+ bytes, more than the 1000 a model file may have")
    assert str(tmp_path / "m.zip") in message


def test_convolutional_settings_on_an_mlp_policy_are_refused(tmp_path):
    path = with_data(tmp_path / "m.zip", policy_kwargs={"net_arch": [256, 256], "head": "square"})
    refused(path, r"settings of the convolutional policy only")
