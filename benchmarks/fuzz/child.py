"""Running one fuzzed try in a forked child: bounded in time and memory, its answer sent back as JSON.

The surfaces campaign (:mod:`boardgames.benchmarks.fuzz.surfaces`) loads hostile model files and resumes damaged
training runs. Each of those runs in a child forked from the campaign's process (which has imported and
compiled everything once, so a child starts at once), so that:

* a hang is found and stopped: the child is killed after ``timeout`` seconds;
* a file that asks for terabytes cannot take the machine down: the child's address space is bounded
  (``RLIMIT_AS``, :data:`MEMORY_BOUND` above what the campaign's process already maps), and an allocation
  past the bound is seen as such (:func:`hit_memory_bound`);
* a payload that would run on unpickling runs, if it ever does, in the child only (the campaign checks the
  marker file such a payload would create);
* a trainer killed by the fault injector (``BOARDGAMES_KILL_AT_WRITE``) is just a child that died of
  SIGKILL.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import sys
import time
import traceback

MEMORY_BOUND = 2 * 2**30
"""How many bytes of address space a child may map beyond what the campaign's process maps when it forks."""

# the checkout (or the installed package): the real folder, where the laid-out package links (boardgames.layout)
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
PROJECT_DIRS = tuple(os.path.join(REPO, d) + os.sep for d in ("envs", "training"))


def _mapped_bytes() -> int:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class ChildResult:
    """What came back from a child: ``status`` (its exit status, ``-N`` when signal N ended it, None when
    it was killed for running past its time), ``answer`` (the JSON object it sent, or None) and ``seconds``."""

    def __init__(self, status, answer, seconds: float):
        self.status, self.answer, self.seconds = status, answer, seconds

    @property
    def timed_out(self) -> bool:
        return self.status is None


def run_in_child(
    fn,
    *args,
    timeout: float = 60.0,
    output: str | None = None,
    env: dict | None = None,
    memory: int | None = MEMORY_BOUND,
) -> ChildResult:
    """``fn(*args)`` in a forked child. ``output``: a file for the child's stdout and stderr (else
    discarded); ``env``: variables set in the child; ``memory``: its address-space bound beyond the
    parent's (None: none). ``fn`` may return a JSON-serialisable value, sent back as ``answer``; the
    child's exit status is 0 after a return, the code of a ``SystemExit``, 1 after any other exception
    (its traceback printed to ``output``)."""
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    started = time.monotonic()
    base = _mapped_bytes()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        code = 1
        try:
            os.close(read_end)
            sink = os.open(output or os.devnull, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            os.dup2(sink, 1)
            os.dup2(sink, 2)
            sys.stdout = sys.stderr = open(sink, "w", buffering=1, closefd=False)  # noqa: SIM115 - the child's end
            for key, value in (env or {}).items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
            if memory is not None and base:
                _, hard = resource.getrlimit(resource.RLIMIT_AS)
                limit = base + memory
                resource.setrlimit(
                    resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard)
                )
            answer = fn(*args)
            with os.fdopen(write_end, "w") as pipe:
                pipe.write(json.dumps(answer))
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:  # noqa: BLE001 - reported through the exit status and the output
            with contextlib.suppress(Exception):
                traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)
    os.close(write_end)
    chunks = []
    deadline = started + timeout
    status = None
    os.set_blocking(read_end, False)
    while True:
        with contextlib.suppress(BlockingIOError):
            while chunk := os.read(read_end, 1 << 16):
                chunks.append(chunk)
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = -os.WTERMSIG(raw) if os.WIFSIGNALED(raw) else os.WEXITSTATUS(raw)
            with contextlib.suppress(BlockingIOError):
                while chunk := os.read(read_end, 1 << 16):
                    chunks.append(chunk)
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    os.close(read_end)
    answer = None
    if chunks and status == 0:
        with contextlib.suppress(ValueError):
            answer = json.loads(b"".join(chunks).decode())
    return ChildResult(status, answer, time.monotonic() - started)


# ----- imports -----------------------------------------------------------------------------------------
WATCHED_MODULES = ("evilmod", "this", "antigravity")
"""Modules a file may name but no load may import (``evilmod`` is planted by :func:`plant_module`; the
others are the standard library's modules with side effects)."""
IMPORTED_ENV = "BOARDGAMES_FUZZ_IMPORTED"
EVIL_MODULE = f"""# planted by the surfaces campaign: importing it is a failure of the loader that did
import os

_marker = os.environ.get({IMPORTED_ENV!r})
if _marker:
    with open(_marker, "a") as f:
        f.write(__name__ + "\\n")
"""


def plant_module(folder) -> None:
    """Write ``evilmod.py`` into ``folder``: a module that records its import in the file named by the
    environment variable :data:`IMPORTED_ENV`."""
    path = os.path.join(folder, "evilmod.py")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(EVIL_MODULE)


def _allowed_roots() -> tuple:
    import site
    import sysconfig

    roots = {sysconfig.get_path(k) for k in ("stdlib", "platstdlib", "purelib", "platlib")}
    roots.update(site.getsitepackages() + [site.getusersitepackages()])
    roots.update(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))
    roots.add(REPO)
    return tuple(os.path.realpath(p) + os.sep for p in roots if p)


class ImportWatch:
    """In a child about to load a file: ``folder`` (holding :func:`plant_module`'s module) made the working
    folder and the first place imports look, imports recorded in ``marker``, and the modules already
    imported noted; :meth:`imported` then names the modules imported since that a load must not import: a
    watched one (:data:`WATCHED_MODULES`), or one from outside the package, the standard library and the
    installed packages."""

    def __init__(self, folder, marker: str):
        self.folder = os.path.realpath(folder) + os.sep
        os.environ[IMPORTED_ENV] = marker
        sys.path.insert(0, folder)
        os.chdir(folder)
        self.roots = _allowed_roots()
        self.before = set(sys.modules)

    def imported(self) -> list:
        found = []
        for name in sorted(set(sys.modules) - self.before):
            module = sys.modules.get(name)
            file = getattr(module, "__file__", None)
            where = os.path.realpath(file) if isinstance(file, str) else None
            outside = where is not None and (where.startswith(self.folder) or not where.startswith(self.roots))
            if name.split(".")[0] in WATCHED_MODULES or outside:
                found.append(f"{name} ({file})" if file else name)
        return found


# ----- classifying an exception ------------------------------------------------------------------------
def hit_memory_bound(error: BaseException) -> bool:
    """Whether ``error`` (or an exception it was raised from or while handling) is an allocation that
    failed: a ``MemoryError`` or torch's ``can't allocate memory``, the sign that the code tried to map
    more than the child's bound."""
    seen = set()
    e: BaseException | None = error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, MemoryError) or "can't allocate memory" in str(e) or "std::bad_alloc" in str(e):
            return True
        e = e.__cause__ or e.__context__
    return False


def describe_error(error: BaseException) -> dict:
    """An exception as the campaign judges it: its type, message, where it was raised (file and line),
    whether that place is a ``raise`` statement of the project's own code (``envs/``, ``training/``), and
    whether an allocation failed on the way (:func:`hit_memory_bound`)."""
    frames = traceback.extract_tb(error.__traceback__)
    last = frames[-1] if frames else None
    filename = (os.path.realpath(last.filename) if os.path.isfile(last.filename) else last.filename) if last else ""
    line = (last.line or "") if last else ""
    return {
        "type": type(error).__name__,
        "module": type(error).__module__,
        "message": str(error).split("\nException raised from")[0][:600],  # torch appends its C++ frames
        "where": f"{os.path.relpath(filename, REPO) if filename.startswith(REPO) else filename}:{last.lineno}"
        if last
        else "?",
        "project_raise": filename.startswith(PROJECT_DIRS) and line.lstrip().startswith("raise"),
        "value_error": isinstance(error, ValueError),
        "file_not_found": isinstance(error, FileNotFoundError),
        "memory": hit_memory_bound(error),
    }


def judge_error(info: dict) -> tuple[str, str | None]:
    """``(outcome, problem)`` for an exception described by :func:`describe_error`: a refusal of the
    project (a ``ValueError`` of its own, or its ``FileNotFoundError`` for a missing file, raised by one
    of its ``raise`` statements with a message) is ``("refused <Type>", None)``; anything else is a
    problem: an allocation past the bound, another exception type, a ``ValueError`` that escaped from
    Python or a library instead of a refusal, an empty message."""
    name = info["type"]
    if info["memory"]:
        return "memory", (
            f"tried to allocate past the bound ({MEMORY_BOUND // 2**30} GiB) before answering: "
            f"{name}: {info['message'][:200]} (at {info['where']})"
        )
    if not (info["value_error"] or info["file_not_found"]):
        return "crash", f"{name}: {info['message'][:300]} (at {info['where']})"
    if not info["project_raise"]:
        return "unchecked", (f"{name} from {info['where']}, not a refusal of the project's: {info['message'][:300]}")
    if not info["message"].strip():
        return "empty message", f"{name} at {info['where']} has no message"
    return f"refused {name}", None
