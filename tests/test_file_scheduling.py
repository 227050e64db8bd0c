"""tests/helpers/file_scheduling.py decides as xdist's ``--dist loadfile`` does.

The same events (workers joining with their collections, tests reported done in
random orders, a worker dying with tests left, the others finishing) are played
through xdist's :class:`~xdist.scheduler.LoadFileScheduling` and through
:class:`CountingFileScheduling`; every message each worker is sent, and every answer
the controller reads back (``tests_finished``, ``has_pending``, the crashed test), must
be the same. The counts are checked against a recount, and tests/conftest.py's hook
against a plugin registered after it, as xdist's own is.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pluggy
import pytest
import xdist.newhooks
from helpers.file_scheduling import CountingFileScheduling
from xdist.remote import Producer
from xdist.scheduler import LoadFileScheduling


class _Worker:
    """What the scheduler sees of a worker: what it was sent."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[Any] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(list(indices))

    def shutdown(self) -> None:
        self.shutting_down = True
        self.sent.append("shutdown")

    def __repr__(self) -> str:
        return self.name

    def indices(self) -> list[int]:
        """Every test index it was sent, in order."""
        return [i for batch in self.sent if batch != "shutdown" for i in batch]


_QUIET = Producer("test", enabled=False)


def _config(workers: int, dist: str = "loadfile") -> Any:
    values = {"tx": [f"{workers}*popen"], "dist": dist}
    return SimpleNamespace(getvalue=values.get, option=SimpleNamespace(loadscopereorder=False))


def _collection(rng: random.Random) -> list[str]:
    tests = []
    for f in range(rng.randint(1, 12)):
        for t in range(rng.choice([1, 1, 2, 3, 5, 9, 40])):
            tests.append(f"tests/test_{f}.py::test_{t}")
    if rng.random() < 0.2:  # a file given twice (pytest --keep-duplicates)
        tests += [t for t in tests if t.startswith("tests/test_0.py::")]
    return tests


def _play(scheduler_type: type, seed: int) -> list[Any]:
    """One run of events on a fresh scheduler; what it did, in order."""
    rng = random.Random(seed)
    workers = rng.choice([1, 2, 2, 3])
    collection = _collection(rng)
    sched = scheduler_type(_config(workers), _QUIET)
    nodes = [_Worker(f"gw{i}") for i in range(workers)]
    seen: list[Any] = []
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    crash_after = rng.randrange(len(collection) + 1) if rng.random() < 0.4 else None
    done = 0
    while True:
        seen.append((sched.tests_finished, sched.has_pending))
        # a worker runs the next test it was sent; the order between workers is random
        busy = []
        for node in sched.nodes:
            left = [i for i in node.indices() if not sched.assigned_work[node][
                collection[i].split("::")[0]][collection[i]]]
            if left:
                busy.append((node, left[0]))
        if not busy:
            break
        node, index = rng.choice(busy)
        if crash_after is not None and done == crash_after:
            seen.append(("crash", node.name, sched.remove_node(node)))
            crash_after = None
            continue
        sched.mark_test_complete(node, index)
        done += 1
    for node in list(sched.nodes):
        seen.append(("down", node.name, sched.remove_node(node)))
    seen.append([(n.name, n.sent) for n in nodes])
    return seen


@pytest.mark.parametrize("seed", range(60))
def test_counting_scheduler_decides_as_xdist_does(seed: int) -> None:
    assert _play(CountingFileScheduling, seed) == _play(LoadFileScheduling, seed)


def test_counts_follow_the_tables() -> None:
    """The counted pending tests equal a recount, after every report."""
    collection = [f"tests/test_{f}.py::test_{t}" for f in range(4) for t in range(f + 2)]
    sched = CountingFileScheduling(_config(2), _QUIET)
    nodes = [_Worker("gw0"), _Worker("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()

    def recount(node: _Worker) -> int:
        return sum(not done for unit in sched.assigned_work[node].values()
                   for done in unit.values())

    for node in nodes:
        assert sched._pending_of(sched.assigned_work[node]) == recount(node) > 0
        for index in node.indices():
            sched.mark_test_complete(node, index)
            sched.mark_test_complete(node, index)  # a second report changes nothing
            assert sched._pending_of(sched.assigned_work[node]) == recount(node)


@pytest.mark.parametrize(("dist", "expected"), [("loadfile", CountingFileScheduling),
                                                 ("load", str)])
def test_the_conftest_answers_before_xdist_for_loadfile_only(
        dist: str, expected: type, pytestconfig: pytest.Config) -> None:
    """tests/conftest.py's ``pytest_xdist_make_scheduler`` is asked before xdist's own
    (registered after the conftests, as xdist's controller plugin is) and answers for
    ``--dist loadfile`` alone."""
    class XdistOwn:
        @pytest.hookimpl
        def pytest_xdist_make_scheduler(self, config: Any, log: Any) -> str:
            return "xdist's own"

    manager = pluggy.PluginManager("pytest")
    manager.add_hookspecs(xdist.newhooks)
    conftest = Path(__file__).with_name("conftest.py")
    (ours,) = [p for p in pytestconfig.pluginmanager.get_plugins()
               if getattr(p, "__file__", None) == str(conftest)]
    manager.register(ours)
    manager.register(XdistOwn())
    made = manager.hook.pytest_xdist_make_scheduler(config=_config(2, dist),
                                                    log=_QUIET)
    assert isinstance(made, expected)
