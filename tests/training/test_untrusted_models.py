"""Loading a model never runs code from the file: every loader (SB3 zips through make_agent, evaluate,
the web table and train --resume; AlphaZero networks; RLlib policy files) reads weights and plain data
only, refuses a booby-trapped file with a message saying that it would need unpickling, and the trap's
marker file is never created. The traps are built here at test time (none is kept in the repository).
A shipped model's name always loads the shipped model, never a folder of the working directory."""

import base64
import json
import os
import pickle
import shutil
import zipfile
from pathlib import Path

import pytest
import torch
from helpers.runs import as_flags, evaluate_command, ppo_command

from boardgames.envs.registry import make_game
from boardgames.training.agent_kinds import ModelFileError, load_model, make_agent
from boardgames.training.evaluation import evaluate
from boardgames.training.rllib.policy_file import FORMAT, PolicyFileError, load_policy_file
from boardgames.training.sb3 import train as train_cli
from boardgames.training.storage.model_version import model_game
from boardgames.training.storage.safe_load import NEVER_UNPICKLED, load_weights
from boardgames.training.storage.shipped import SHIPPED_MODELS, resolve_model, shipped_folder

SB3_MODEL = SHIPPED_MODELS / "dorix_2p" / "model.zip"
AZ_MODEL = SHIPPED_MODELS / "dorix_2p_az"
RLLIB_MODEL = SHIPPED_MODELS / "rllib_dorix_2p" / "policy.pt"
SMALL = [
    "train.n_envs=2",
    "algo.n_steps=128",
    "algo.batch_size=128",
    "algo.n_epochs=1",
    "train.eval_every=0",
    "algo.net_arch=[256, 256]",
]


class Trap:
    """Unpickling this object creates the file ``marker`` (``open(marker, "w")``): the proof that a loader
    unpickled it."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _payload(marker: Path) -> str:
    return base64.b64encode(pickle.dumps(Trap(marker))).decode()


def _copy_zip(source: Path, out: Path, replace: dict) -> Path:
    """``source`` (a zip) copied to ``out`` with the members of ``replace`` (name -> bytes) replaced or added."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(out, "w") as dst:
        for member in src.namelist():
            dst.writestr(member, replace.get(member, src.read(member)))
        for member, data in replace.items():
            if member not in src.namelist():
                dst.writestr(member, data)
    return out


def trapped_sb3_zip(out: Path, marker: Path, key: str = "booby") -> Path:
    """The shipped dorix_2p model with one added entry in its ``data`` JSON: a ``":serialized:"`` value
    (SB3's cloudpickle form) whose unpickling creates ``marker``. With ``key`` an existing serialized key,
    that key's payload is replaced instead (its plain fields kept)."""
    with zipfile.ZipFile(SB3_MODEL) as src:
        data = json.loads(src.read("data"))
    entry = data.get(key, {":type:": "<class 'object'>"})
    data[key] = {**entry, ":serialized:": _payload(marker)}
    return _copy_zip(SB3_MODEL, out, {"data": json.dumps(data).encode()})


def _trapped_torch_file(marker: Path, **plain) -> bytes:
    import io

    buffer = io.BytesIO()
    torch.save({**plain, "trap": Trap(marker)}, buffer)
    return buffer.getvalue()


def trapped_az_folder(out: Path, marker: Path) -> Path:
    """A copy of the shipped dorix_2p_az network whose ``alphazero.pt`` holds a pickled trap."""
    shutil.copytree(AZ_MODEL, out)
    (out / "alphazero.pt").write_bytes(_trapped_torch_file(marker, **torch.load(AZ_MODEL / "alphazero.pt")))
    return out


def trapped_rllib_file(out: Path, marker: Path) -> Path:
    """An RLlib policy file (the shipped rllib_dorix_2p's contents) with a pickled trap added."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(_trapped_torch_file(marker, **torch.load(RLLIB_MODEL, weights_only=True)))
    return out


def _says_why(message: str) -> None:
    assert "unpickl" in message and NEVER_UNPICKLED in message, message
    assert "weights_only" not in message, message  # never torch's advice to load with weights_only=False


def _refused_agent(path, game) -> str:
    """The message of the ModelFileError that loading ``path`` as an agent raises, which says why."""
    with pytest.raises(ModelFileError) as error:
        make_agent(str(path), game)
    _says_why(str(error.value))
    return str(error.value)


@pytest.fixture
def game():
    return make_game("dorix", num_players=2)


def test_the_traps_are_armed(tmp_path):
    # the same payloads do run when unpickled the usual way (SB3's own load, plain torch.load): the tests
    # below would prove nothing otherwise
    from sb3_contrib import MaskablePPO

    marker = tmp_path / "sb3_marker"
    MaskablePPO.load(trapped_sb3_zip(tmp_path / "trap.zip", marker), device="cpu")
    assert marker.exists()
    marker = tmp_path / "torch_marker"
    (tmp_path / "trap.pt").write_bytes(_trapped_torch_file(marker))
    torch.load(tmp_path / "trap.pt", weights_only=False)
    assert marker.exists()


def test_an_sb3_zip_with_an_added_pickled_entry_runs_nothing(tmp_path, game):
    marker = tmp_path / "marker"
    trap = trapped_sb3_zip(tmp_path / "trap.zip", marker)
    message = _refused_agent(trap, game)
    assert "'booby'" in message and str(trap) in message
    for algo in ("maskable_ppo", "ppo"):  # whichever algorithm is asked to read it
        with pytest.raises(ModelFileError, match="unpickl"):
            load_model(trap, algo)
    assert not marker.exists()


def test_a_pickled_payload_under_a_rebuilt_key_is_never_read(tmp_path, game):
    # the keys SB3 pickles (policy class, spaces, schedules...) are rebuilt from their plain fields: the
    # payload beside them is ignored, so the model loads and plays, and the trap never runs
    marker = tmp_path / "marker"
    for key in ("policy_class", "observation_space", "clip_range", "_last_obs"):
        agent = make_agent(str(trapped_sb3_zip(tmp_path / f"{key}.zip", marker, key)), game)
        state = game.new_initial_state()
        seat = state.current_seat
        assert state.legal_mask(seat)[agent(state, seat)]
    assert not marker.exists()


def test_an_sb3_zip_whose_weights_hold_a_pickled_object_runs_nothing(tmp_path, game):
    marker = tmp_path / "marker"
    for entry in ("policy.pth", "policy.optimizer.pth", "pytorch_variables.pth"):
        trap = _copy_zip(SB3_MODEL, tmp_path / f"{entry}.zip", {entry: _trapped_torch_file(marker)})
        assert entry in _refused_agent(trap, game)
    assert not marker.exists()


def test_evaluate_and_the_web_table_refuse_a_trapped_model(tmp_path, capsys):
    marker = tmp_path / "marker"
    trap = trapped_sb3_zip(tmp_path / "trap.zip", marker)
    with pytest.raises(SystemExit) as stop:
        evaluate.main(evaluate_command(tmp_path / "eval", 1, str(trap), "random"))
    assert stop.value.code == 2
    _says_why(capsys.readouterr().err.replace("\n", " "))
    from boardgames.play.web.session import Table

    with pytest.raises(ModelFileError, match="unpickl"):
        Table(make_game("dorix", num_players=2), str(trap))
    assert not marker.exists()


def test_train_resume_refuses_a_trapped_checkpoint(tmp_path, capsys):
    marker = tmp_path / "marker"
    trap = trapped_sb3_zip(tmp_path / "trap.zip", marker)
    with pytest.raises(SystemExit) as stop:
        train_cli.main(ppo_command(tmp_path / "run", 900000, "--resume", str(trap), *as_flags(SMALL)))
    assert stop.value.code == 2
    err = capsys.readouterr().err.replace("\n", " ")
    assert "--resume" in err
    _says_why(err)
    assert not marker.exists()


def test_a_trapped_alphazero_network_runs_nothing(tmp_path, game):
    marker = tmp_path / "marker"
    folder = trapped_az_folder(tmp_path / "az", marker)
    message = _refused_agent(folder, game)
    assert "is not an AlphaZero network of this project" in message
    assert not marker.exists()


def test_a_trapped_rllib_policy_file_runs_nothing(tmp_path, game):
    marker = tmp_path / "marker"
    trap = trapped_rllib_file(tmp_path / "rllib" / "policy.pt", marker)
    assert torch.load(RLLIB_MODEL, weights_only=True)["format"] == FORMAT
    for load in (
        lambda: make_agent(f"rllib:{trap}", game),
        lambda: make_agent(f"rllib:{trap.parent}", game),
        lambda: load_policy_file(trap),
    ):
        with pytest.raises(PolicyFileError) as error:
            load()
        assert isinstance(error.value, ModelFileError)
        _says_why(str(error.value))
    assert not marker.exists()


def test_load_weights_names_the_refused_object_without_torchs_advice(tmp_path):
    marker = tmp_path / "marker"
    (tmp_path / "trap.pt").write_bytes(_trapped_torch_file(marker, weights=torch.zeros(2)))
    with pytest.raises(ModelFileError) as error:
        load_weights(tmp_path / "trap.pt", "trap.pt is not a model")
    _says_why(str(error.value))
    assert "open" in str(error.value)  # the object it would have called
    (tmp_path / "garbage.pt").write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ModelFileError, match="its weights cannot be read") as error:
        load_weights(tmp_path / "garbage.pt", "garbage.pt is not a model")
    assert "weights_only" not in str(error.value)
    assert not marker.exists()


# ----- shipped names ----------------------------------------------------------------------------------


def test_a_shipped_name_never_loads_the_working_directorys_folder(tmp_path, monkeypatch, game):
    # an untrusted checkout: models/dorix_2p, models/dorix_2p_az and models/rllib_dorix_2p of its own
    marker = tmp_path / "marker"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models" / "dorix_2p").mkdir(parents=True)
    trapped_sb3_zip(tmp_path / "models" / "dorix_2p" / "model.zip", marker)
    trapped_az_folder(tmp_path / "models" / "dorix_2p_az", marker)
    trapped_rllib_file(tmp_path / "models" / "rllib_dorix_2p" / "policy.pt", marker)
    for spec in ("models/dorix_2p", "dorix_2p", "models/dorix_2p/", "models\\dorix_2p"):
        agent = make_agent(spec, game)
        assert os.path.samefile(agent.path, SB3_MODEL), spec
    for spec in ("models/dorix_2p_az", "dorix_2p_az@4"):
        assert make_agent(spec, game).name.startswith("dorix_2p_az")
    assert os.path.samefile(make_agent("rllib:models/rllib_dorix_2p", game).path, RLLIB_MODEL)
    assert not marker.exists()
    # written as a path, the working directory's folder is what is meant: read safely, and refused
    for spec in (
        "./models/dorix_2p",
        str(tmp_path / "models" / "dorix_2p"),
        "models/dorix_2p/model.zip",
        "./models/dorix_2p_az",
        "rllib:./models/rllib_dorix_2p",
    ):
        with pytest.raises(ModelFileError, match="unpickl"):
            make_agent(spec, game)
    assert not marker.exists()


def test_the_shipped_name_rule():
    assert shipped_folder("models/dorix_2p") == shipped_folder("dorix_2p") == SHIPPED_MODELS / "dorix_2p"
    assert shipped_folder("models/rllib_barc") == SHIPPED_MODELS / "rllib_barc"
    for path in (
        "./models/dorix_2p",
        "../models/dorix_2p",
        "/models/dorix_2p",
        "models/dorix_2p/model.zip",
        "runs/dorix_2p",
        "no_such_model",
        "models/..",
        "..",
    ):
        assert shipped_folder(path) is None, path
    assert resolve_model("./models/dorix_2p") == Path("./models/dorix_2p")
    assert resolve_model("runs/x/final.zip") == Path("runs/x/final.zip")


# ----- every shipped model still loads -----------------------------------------------------------------


def _shipped_specs():
    for folder in sorted(d for d in SHIPPED_MODELS.iterdir() if d.is_dir()):
        if (folder / "meta.json").is_file():
            meta = json.loads((folder / "meta.json").read_text())
            yield pytest.param(f"models/{folder.name}", meta["game"], meta["game_options"], meta, id=folder.name)
        elif (folder / "alphazero.json").is_file():
            meta = json.loads((folder / "alphazero.json").read_text())
            yield pytest.param(f"models/{folder.name}@4", meta["game"], meta.get("options", {}), meta, id=folder.name)
        elif (folder / "policy.pt").is_file():
            _, meta = load_policy_file(folder / "policy.pt")
            yield pytest.param(f"rllib:models/{folder.name}", meta["game"], meta["options"], meta, id=folder.name)


@pytest.mark.parametrize("spec, name, options, meta", list(_shipped_specs()))
def test_every_shipped_model_loads_safely_and_plays_a_move(spec, name, options, meta, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # by name, from any folder
    game = model_game(name, options, meta)
    agent = make_agent(spec, game, seed=0)
    state = game.new_initial_state()
    seat = state.current_seats()[0]
    assert state.legal_mask(seat)[agent(state, seat)]
