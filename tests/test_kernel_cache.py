"""The kernels generated from a game's kernels are written as a module and cached on disk
(:mod:`boardgames.envs.compiled.kernel_cache`): a second process reads them back instead of compiling, the file
name changes with what they are made of, the cache folder is the one named, an unwritable one means compiling
in memory (no crash), and the first compile says so once.

The subprocess tests run the AEC adapter of Dorix (its per-turn kernels) over a fresh cache folder; the
others a small closure over a plugin module written into a temporary folder."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import numba
import numpy as np
import pytest

from boardgames.envs.compiled import kernel_cache
from boardgames.envs.compiled.kernel_cache import cache_root, disk_cached, kernel_folder
from boardgames.envs.compiled.sampling import seed_rng
from boardgames.envs.core.game_kernels import kernels_of
from boardgames.envs.registry import make_game
from boardgames.envs.vector import loops

pytestmark = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled under NUMBA_DISABLE_JIT")

COLD_LINE = "boardgames: compiling the dorix kernels (once; cached in"

PLAYS = textwrap.dedent(
    """
    import json
    import numpy as np
    from boardgames.envs import dorix_v0
    from boardgames.envs.compiled.turns import turn_kernels
    from boardgames.envs.registry import make_game

    env = dorix_v0.env()
    env.reset(seed=0)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    apply = turn_kernels(make_game("dorix").new_initial_state()).apply
    path = apply.py_func.__code__.co_filename
    stats = getattr(apply, "stats", None)
    print(json.dumps({
        "path": path,
        "mtime": __import__("os").stat(path).st_mtime_ns,
        "hits": sum(stats.cache_hits.values()) if stats else 0,
        "misses": sum(stats.cache_misses.values()) if stats else 0,
    }))
    """
)


def _play(cache_dir: Path) -> tuple[dict, list[str]]:
    """Three AEC steps of Dorix in a fresh process caching in ``cache_dir``: what it reports, its stderr lines."""
    env = {**os.environ, "BOARDGAMES_CACHE_DIR": str(cache_dir)}
    done = subprocess.run([sys.executable, "-c", PLAYS], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr.splitlines()


def test_a_second_process_reads_the_generated_kernels_back_and_says_nothing(tmp_path):
    first, first_err = _play(tmp_path / "cache")
    path = Path(first["path"])
    assert path.parent == tmp_path / "cache" / "kernels" / kernel_folder().name  # the folder named, per version
    assert path.name.startswith("dorix_turn_") and path.suffix == ".py"
    assert "@njit(cache=True" in path.read_text()
    assert first["misses"] >= 1 and first["hits"] == 0  # compiled here
    assert sum(line.startswith(COLD_LINE) for line in first_err) == 1, first_err

    second, second_err = _play(tmp_path / "cache")
    assert second["path"] == first["path"] and second["mtime"] == first["mtime"]  # the same file, not rewritten
    assert second["hits"] >= 1 and second["misses"] == 0  # read from numba's disk cache
    assert not [line for line in second_err if "compiling" in line], second_err


def test_an_unwritable_cache_folder_means_compiling_in_memory_without_a_crash(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    report, err = _play(blocker / "cache")  # a folder under a file cannot be made, even by root
    assert report["path"].endswith(os.path.join("compiled", "turns.py"))  # the closures themselves
    said = [line for line in err if "compiling the dorix kernels" in line]
    assert len(said) == 1 and "in memory" in said[0], err
    assert not blocker.with_name("cache").exists()


# ----- in this process, over a plugin module ------------------------------------------------------------------

RULES = """
from numba import njit

@njit(cache=True)
def bump(x):
    return x + {step}
"""

FACTORY = """
from numba import njit

def make(kernel, k):
    @njit
    def twice(x):
        return kernel(kernel(x)) * k{extra}

    return twice
"""


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A package ``kcplugin`` (``rules.bump`` and ``factory.make``) importable from ``tmp_path``, a fresh cache
    folder, and no game announced yet; ``write(step, extra)`` rewrites and reloads both modules."""
    package = tmp_path / "src" / "kcplugin"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path / "src"))
    monkeypatch.setenv("BOARDGAMES_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(kernel_cache, "_ANNOUNCED", set())
    modules = SimpleNamespace()

    def write(step=1, extra=""):
        (package / "rules.py").write_text(RULES.format(step=step))
        (package / "factory.py").write_text(FACTORY.format(extra=extra))
        for name in ("rules", "factory"):
            full = f"kcplugin.{name}"
            module = importlib.reload(sys.modules[full]) if full in sys.modules else importlib.import_module(full)
            setattr(modules, name, module)
        return modules

    write()
    yield write
    for name in ("kcplugin", "kcplugin.rules", "kcplugin.factory"):
        sys.modules.pop(name, None)


def _cached(modules, k=3, variant="twice"):
    fn = modules.factory.make(modules.rules.bump, k)
    out = disk_cached(SimpleNamespace(rules=modules.rules), variant, {"twice": fn, "k": k})
    return fn, out


def test_the_closures_become_a_module_of_cached_functions_in_the_cache_folder(plugin, tmp_path, capsys):
    modules = plugin()
    fn, out = _cached(modules)
    assert out["k"] == 3  # what is not a closure is kept
    assert out["twice"] is not fn and out["twice"](1) == fn(1) == 9
    path = Path(out["twice"].py_func.__code__.co_filename)
    assert cache_root() == tmp_path / "cache" and path.parent == kernel_folder()
    assert path.name.startswith("kcplugin_twice_")
    text = path.read_text()
    assert "from kcplugin.rules import bump" in text and "k = 3" in text and "@njit(cache=True)" in text
    err = capsys.readouterr().err
    assert err.count("boardgames: compiling the kcplugin kernels (once; cached in") == 1  # a cold cache says so


def test_the_file_name_changes_with_the_captured_values_the_template_and_the_rules(plugin):
    names = set()
    modules = plugin()
    names.add(Path(_cached(modules, k=3)[1]["twice"].py_func.__code__.co_filename).name)
    names.add(Path(_cached(modules, k=4)[1]["twice"].py_func.__code__.co_filename).name)  # another captured value
    modules = plugin(extra=" + 0")  # the generator's source changes
    names.add(Path(_cached(modules, k=3)[1]["twice"].py_func.__code__.co_filename).name)
    modules = plugin(step=2)  # the rules it compiles change (a file numba's own cache would not check)
    fn, out = _cached(modules, k=3)
    names.add(Path(out["twice"].py_func.__code__.co_filename).name)
    assert len(names) == 4
    assert out["twice"](1) == fn(1) == 15
    assert len(list(kernel_folder().glob("kcplugin_twice_*.py"))) == kernel_cache.KEEP


def test_the_same_closures_find_the_same_file(plugin):
    modules = plugin()
    first = Path(_cached(modules)[1]["twice"].py_func.__code__.co_filename)
    mtime = first.stat().st_mtime_ns
    modules = plugin()  # rewritten with the same text: the same digest
    second = Path(_cached(modules)[1]["twice"].py_func.__code__.co_filename)
    assert second == first and second.stat().st_mtime_ns == mtime


def test_an_unwritable_cache_folder_keeps_the_closures(plugin, tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("BOARDGAMES_CACHE_DIR", str(blocker / "cache"))
    fn, out = _cached(plugin())
    assert out["twice"] is fn and out["twice"](1) == 9
    err = capsys.readouterr().err
    assert "boardgames: compiling the kcplugin kernels (compiled in memory, every run: cannot write" in err


def test_without_the_jit_nothing_is_generated(plugin, monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "DISABLE_JIT", True)
    fn, out = _cached(plugin())
    assert out["twice"] is fn
    assert not (tmp_path / "cache").exists()


def test_the_cache_folder_is_the_one_named(monkeypatch, tmp_path):
    monkeypatch.delenv("BOARDGAMES_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "boardgames"
    monkeypatch.setenv("BOARDGAMES_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    assert kernel_folder().parent == tmp_path / "mine" / "kernels"


def test_the_cached_batch_loops_play_as_the_closures_do():
    """The same source, compiled from a module instead of closures: the same games."""
    kernels = kernels_of(make_game("dorix"))
    closures = loops._turn_loops(
        kernels, loops._emitter(kernels.observe, "float32"), (1,), loops._MaskWriters(kernels, 0)
    )
    cached = loops.batch_loops(kernels, 1)
    assert cached.random_playouts.py_func.__code__.co_filename != closures.random_playouts.py_func.__code__.co_filename
    template = make_game("dorix").new_initial_state().data
    results = []
    for namespace in (closures, cached):
        states = np.tile(template, (8, 1))
        rng = seed_rng(0, 8)
        mask = np.zeros(kernels.num_actions, dtype=np.bool_)
        ended = namespace.random_playouts(states, template, rng, mask, 200)
        results.append((ended, states))
    assert results[0][0] == results[1][0] > 0
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_a_threaded_form_of_a_function_is_cached_under_a_name_of_its_own():
    from boardgames.envs.vector.packed import sample_packed, sample_packed_threaded

    assert sample_packed_threaded.py_func.__qualname__ == "_sample_packed_threaded"
    assert sample_packed_threaded.targetoptions.get("parallel") is True
    assert type(sample_packed_threaded._cache).__name__ == "FunctionCache"  # numba's disk cache, not its null one
    packed = np.random.default_rng(0).integers(0, 256, size=(130, 13), dtype=np.uint8)
    out, expected = np.zeros(130, np.int64), np.zeros(130, np.int64)
    sample_packed_threaded(packed, seed_rng(1, 130), out)
    sample_packed(packed, seed_rng(1, 130), expected)
    np.testing.assert_array_equal(out, expected)
