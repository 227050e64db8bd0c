"""Shared pytest configuration. Area-specific fixtures live in each tests/<area>/conftest.py."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.file_order import file_order
from helpers.shared_builds import SharedBuilds
from helpers.synthetic_dataset import write_synthetic_dataset

if os.environ.get("CARTOQA_MUTATION"):
    # scripts/mutation.py tests each mutant in a process forked after a clean run of the
    # tests: memoised results (functools caches) of that run would hide the mutant.
    @pytest.fixture(autouse=True)
    def _forget_memoised_results() -> Iterator[None]:
        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith(("cartoqa", "groundtruth")):
                continue
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
        yield


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """A synthetic dataset with two items of each task/request (for the run and export tests)."""
    return write_synthetic_dataset(tmp_path / "ds", copies=2)


_CONFTEST = time.time()
try:  # the process's start, before pytest's own imports (for the collection figure)
    import psutil

    _START = psutil.Process().create_time()
except ImportError:
    _START = _CONFTEST
_CONFIG: list[pytest.Config] = []

SHARED_CACHE = pytest.StashKey[Path]()
"""The run's PostGIS cache for shared builds (one for all xdist workers)."""


def pytest_configure(config: pytest.Config) -> None:
    """The controller (or a run without xdist) makes the shared cache; workers are told it."""
    _CONFIG[:] = [config]
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:  # an xdist worker: the controller made it
        config.stash[SHARED_CACHE] = Path(workerinput["cartoqa_shared_cache"])
        return
    from helpers.postgis_cache import postgis_cache_dir  # imported here: starts no cluster

    stack = contextlib.ExitStack()
    config.stash[SHARED_CACHE] = stack.enter_context(postgis_cache_dir("cartoqa-test-shared-"))
    config.add_cleanup(stack.close)  # after every worker has finished: cluster destroyed


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: object) -> None:
    """pytest-xdist, controller side: each worker builds into the controller's cache."""
    node.workerinput["cartoqa_shared_cache"] = str(  # type: ignore[attr-defined]
        node.config.stash[SHARED_CACHE])  # type: ignore[attr-defined]


@pytest.hookimpl(optionalhook=True, tryfirst=True)  # before xdist's own
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """pytest-xdist, controller side: ``--dist loadfile`` by a scheduler that decides as
    xdist's does without recounting every test after each report
    (tests/helpers/file_scheduling.py); other modes as xdist has them."""
    if config.getvalue("dist") != "loadfile":
        return None
    from helpers.file_scheduling import CountingFileScheduling  # imports xdist: only here

    return CountingFileScheduling(config, log)


@pytest.fixture(scope="session")
def shared_builds(request: pytest.FixtureRequest,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedBuilds]:
    """End-to-end builds made once per configuration for the run (one PostGIS cache,
    its server held from the first build to the end of the session)."""
    base = tmp_path_factory.getbasetemp()
    if hasattr(request.config, "workerinput"):
        base = base.parent  # xdist: the controller's folder, above each worker's
    builds = SharedBuilds(request.config.stash[SHARED_CACHE], base / "shared-builds")
    try:
        yield builds
    finally:
        builds.release_server()


@pytest.fixture(scope="module")
def shared_env(shared_builds: SharedBuilds) -> Iterator[dict[str, str]]:
    """The session's cache and web assets in ``os.environ`` for a module (then restored)."""
    with shared_builds.env() as env:
        yield env


SHARED_BUILD_FIXTURES = {"shared_builds", "shared_env"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that reads a shared end-to-end build (or its cache) is slow, marked or not.

    In a pytest-xdist worker, the longest files come first (the same stable order in
    every worker, as xdist requires; tests/helpers/file_order.py): ``--dist loadfile``
    hands files out in this order, so the long end-to-end files start early and the
    short ones fill in at the end, instead of one worker starting a long build while the
    other has nothing left.
    """
    for item in items:
        uses = SHARED_BUILD_FIXTURES & set(getattr(item, "fixturenames", ()))
        if uses and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    if hasattr(config, "workerinput"):
        slow_files = {item.path for item in items if item.get_closest_marker("slow")}
        files = list(dict.fromkeys(item.path for item in items))
        rank = file_order(files, slow_files, config.rootpath)
        items.sort(key=lambda item: rank[item.path])  # stable: a file's tests keep order
    _record(config, {"event": "collected", "t": time.time(), "cpu": _cpu_s(),
                     "files": [str(f) for f in dict.fromkeys(i.nodeid.split("::")[0]
                                                             for i in items)],
                     "slow": sorted({i.nodeid.split("::")[0] for i in items
                                     if i.get_closest_marker("slow")})})


#: The cyclic garbage collector's thresholds while tests run (Python's default: 700, 10,
#: 10): a test process holds a large, long-lived heap (every collected test, the parsed
#: answer corpora, module fixtures), which each full collection walks again.
GC_THRESHOLDS = (20_000, 10, 10)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """In a process that runs tests (an xdist worker, or pytest alone): what pytest's
    collection left alive (the modules, the test items, the corpora parsed to
    parametrize them, about 270,000 objects) is moved out of the garbage collector's
    reach (``gc.freeze``), and its young collections are made rarer
    (:data:`GC_THRESHOLDS`). Measured with a ``gc.callbacks`` probe on ``tests/tasks``
    and ``tests/groundtruth``, two workers: 9.0 CPU s of garbage collection before, 2.9 s
    after. Objects freed by reference counting are freed as before; the frozen ones
    live as long as the process anyway."""
    if session.config.pluginmanager.hasplugin("dsession"):  # the xdist controller
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


# CARTOQA_TEST_TIMES=DIR: every process that runs tests (each xdist worker, or pytest
# alone) writes its test phases to DIR/<worker>.jsonl, for scripts/test_schedule.py.
def _recording(config: pytest.Config) -> bool:
    """Whether this process records its test phases (not the xdist controller, which
    runs none: it would read the clocks below once per phase of every worker's test)."""
    return bool(os.environ.get("CARTOQA_TEST_TIMES")) \
        and not config.pluginmanager.hasplugin("dsession")


def _record(config: pytest.Config, event: dict[str, Any]) -> None:
    if not _recording(config):
        return
    folder = os.environ["CARTOQA_TEST_TIMES"]
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    path = Path(folder) / f"{worker}.jsonl"
    lines = []
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        lines.append(json.dumps({"event": "start", "t": _START, "conftest": _CONFTEST}))
    lines.append(json.dumps(event))
    with path.open("a", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _cpu_s() -> float:
    """User + system seconds of this process and of the children it has waited for."""
    own, children = (resource.getrusage(resource.RUSAGE_SELF),
                     resource.getrusage(resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _machine_cpu_s() -> float | None:
    """Busy seconds of the whole machine since boot (Linux ``/proc/stat``), daemons
    included; ``None`` where that file is missing."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()[1:]
    except OSError:
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """With CARTOQA_TEST_TIMES set: one line per test phase (start, stop, seconds, and
    the process's CPU seconds so far: the difference between two lines is what the
    phase cost, less daemons such as the PostgreSQL server; and the machine's busy
    seconds, whose difference in a one-process run counts the daemons too)."""
    config = _CONFIG[0] if _CONFIG else None
    if config is not None and _recording(config):
        _record(config, {"nodeid": report.nodeid, "when": report.when, "start": report.start,
                         "stop": report.stop, "duration": report.duration,
                         "outcome": report.outcome, "cpu": _cpu_s(),
                         "machine_cpu": _machine_cpu_s()})
