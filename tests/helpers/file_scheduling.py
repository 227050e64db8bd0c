"""pytest-xdist's ``--dist loadfile`` scheduler, with its bookkeeping kept in counts.

xdist's :class:`~xdist.scheduler.LoadFileScheduling` answers "how many tests has this
worker left?" by counting every test it has ever handed that worker (each file's
``{nodeid: done}`` table, read whole), and it does so after every test report and on
every turn of the controller's loop; it finds each test's position in the collection by
a linear search. Both grow with the square of the number of tests: with 9,600 tests the
controller spent some 1.3 CPU s on them (a cProfile of the controller, 2 workers),
seconds taken from the two cores the workers run on.

:class:`CountingFileScheduling` keeps the same decisions (which file goes to which worker,
when, what a crashed worker's tests become) and only keeps the counts as it goes: each
worker's workload holds the number of its tests not yet done, which a file's table
changes as its tests are marked done, and each worker's collection is indexed once.
``tests/conftest.py`` uses it for ``--dist loadfile`` (``pytest_xdist_make_scheduler``);
``tests/test_file_scheduling.py`` plays the same events through both schedulers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xdist.scheduler import LoadFileScheduling


class _File(dict[str, bool]):
    """One file's tests (``nodeid -> done``) handed to a worker: their pending count
    is added to the worker's workload, and kept there as tests are marked done."""

    def __init__(self, tests: Mapping[str, bool], workload: _Workload) -> None:
        super().__init__(tests)
        self.workload = workload
        workload.pending += sum(1 for done in self.values() if not done)

    def __setitem__(self, nodeid: str, done: bool) -> None:
        self.workload.pending += (not done) - (self.get(nodeid, True) is False)
        super().__setitem__(nodeid, done)


class _Workload(dict[str, dict[str, bool]]):
    """A worker's files (``file -> tests``), with the number of tests it has left."""

    pending = 0


class CountingFileScheduling(LoadFileScheduling):
    """:class:`~xdist.scheduler.LoadFileScheduling` without its recounting (module doc)."""

    def __init__(self, config: Any, log: Any = None) -> None:
        super().__init__(config, log)
        self._positions: dict[Any, dict[str, int]] = {}

    def add_node(self, node: Any) -> None:
        assert node not in self.assigned_work
        self.assigned_work[node] = _Workload()

    def _pending_of(self, workload: dict[str, dict[str, bool]]) -> int:
        if isinstance(workload, _Workload):
            return workload.pending
        return int(super()._pending_of(workload))

    def _assign_work_unit(self, node: Any) -> None:
        """The next file in the queue to ``node``: its tests not yet done, by their
        positions in that worker's collection (as xdist does, found by a table)."""
        assert self.workqueue
        scope, tests = self.workqueue.popitem(last=False)
        workload = self.assigned_work.setdefault(node, _Workload())
        assert isinstance(workload, _Workload)
        unit = workload[scope] = _File(tests, workload)
        positions = self._positions.get(node)
        if positions is None:
            collection = self.registered_collections[node]
            positions = {}
            for index, nodeid in enumerate(collection):
                positions.setdefault(nodeid, index)  # the first, as list.index finds
            self._positions[node] = positions
        node.send_runtest_some([positions[nodeid] for nodeid, done in unit.items()
                                if not done])
