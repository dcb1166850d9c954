"""What the surfaces campaign found in training/storage/ after issue 45's fixes (docs/reliability.md), kept:

* a checkpoint manifest nested 100,000 deep raised ``RecursionError`` (a traceback, status 1) where any other
  unreadable manifest is refused naming it (``--replay runs alphazero-names 66`` in the exploratory runs);
* a zip entry declaring 1,000 bytes whose data inflates to 3 GiB passed the declared-size check, then
  ``ZipFile.read`` inflated all of it at once: 2.3 GB for a 3 MB SB3 model (``--replay models sb3 301``:
  ``pytorch_variables.pth`` declaring 1,000 bytes; here ``policy.pth``);
* an SB3 zip whose ``_stable_baselines3_version`` entry does not match its CRC raised zipfile's
  ``BadZipFile`` from ``safe_load`` (found reading the code; the campaign's bombs now break CRCs too).
"""

from __future__ import annotations

import json
import tracemalloc
import zipfile
import zlib

import pytest

from boardgames.benchmarks.fuzz import bombs
from boardgames.training.agent_kinds import ModelFileError, load_model
from boardgames.training.alphazero.train import SET_FILES
from boardgames.training.storage.durable import CheckpointError, open_set
from boardgames.training.storage.shipped import SHIPPED_MODELS


@pytest.mark.parametrize("where", ["files", "manifest"])
def test_a_manifest_nested_too_deeply_is_refused_naming_it(tmp_path, where):
    deep = "[" * 100_000 + "]" * 100_000
    text = json.dumps({"format": 1, "files": "DEEP"}).replace('"DEEP"', deep) if where == "files" else deep
    (tmp_path / "checkpoint.json").write_text(text)
    with pytest.raises(CheckpointError, match=r"checkpoint.json: the checkpoint's manifest cannot be read"):
        open_set(tmp_path, "checkpoint.json", SET_FILES)


def test_an_entry_that_inflates_past_its_declared_size_costs_no_more_than_it_declares(tmp_path):
    with zipfile.ZipFile(SHIPPED_MODELS / "dorix_2p" / "model.zip") as z:
        entries = [(i.filename, z.read(i)) for i in z.infolist()]
    lying = ("policy.pth", bombs.deflated_zeros(192), bombs.DEFLATED, bombs.zeros_crc(1000), 1000)
    path = tmp_path / "model.zip"
    path.write_bytes(bombs.raw_zip([lying if n == "policy.pth" else bombs.as_is(n, d) for n, d in entries]))
    assert path.stat().st_size < 8 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(ModelFileError, match="policy.pth"):
            load_model(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 2**20, f"{peak / 2**20:.0f} MiB allocated for a 1,000-byte entry"


def test_an_entry_whose_crc_does_not_match_is_refused_naming_it(tmp_path):
    with zipfile.ZipFile(SHIPPED_MODELS / "dorix_2p" / "model.zip") as z:
        entries = [(i.filename, z.read(i)) for i in z.infolist()]
    path = tmp_path / "model.zip"
    lie = [
        (n, d, bombs.STORED, zlib.crc32(d) ^ 1, len(d)) if n == "_stable_baselines3_version" else bombs.as_is(n, d)
        for n, d in entries
    ]
    path.write_bytes(bombs.raw_zip(lie))
    with pytest.raises(ModelFileError, match=r"its _stable_baselines3_version entry cannot be read \(BadZipFile\)"):
        load_model(path)


def test_an_alphazero_json_without_its_game_is_refused_naming_it(tmp_path):
    """``--replay models alphazero 8526920``: ``game`` removed from alphazero.json gave KeyError: 'game'."""
    import shutil

    from boardgames.envs.registry import make_game
    from boardgames.training.agent_kinds import make_agent

    folder = tmp_path / "net"
    shutil.copytree(SHIPPED_MODELS / "dorix_2p_az", folder)
    meta = json.loads((folder / "alphazero.json").read_text())
    del meta["game"]
    (folder / "alphazero.json").write_text(json.dumps(meta))
    for game in (None, make_game("dorix", num_players=2)):
        with pytest.raises(ModelFileError, match=r"net is not an AlphaZero network .*names no game"):
            make_agent(str(folder), game)


def test_a_run_file_nested_too_deeply_reads_as_unreadable(tmp_path):
    from boardgames.training.storage.durable import read_json

    (tmp_path / "run.json").write_text("[" * 100_000 + "]" * 100_000)
    assert read_json(tmp_path / "run.json", {"unreadable": True}) == {"unreadable": True}
