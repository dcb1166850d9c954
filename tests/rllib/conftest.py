"""Settings of the RLlib tests: the key that signs the runs' checkpoints
(training/storage/run_signature.py) lives in a temporary configuration folder of the test session, never in
the user's own; subprocesses inherit it."""

import os

import pytest

from boardgames.training.storage.run_signature import CONFIG_ENV


@pytest.fixture(scope="session", autouse=True)
def run_key_folder(tmp_path_factory):
    saved = os.environ.get(CONFIG_ENV)
    os.environ[CONFIG_ENV] = str(tmp_path_factory.mktemp("config"))
    yield os.environ[CONFIG_ENV]
    if saved is None:
        os.environ.pop(CONFIG_ENV, None)
    else:
        os.environ[CONFIG_ENV] = saved
