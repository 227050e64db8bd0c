"""The MapWise suite: six answer types (binary, single word, count, list, range, rank),
one task module each, declared by their ``SPEC``, on choropleths of the USA, India and
China.

Each ``SPEC`` is a :class:`cartoqa.declarations.spec.TaskSpec` of suite ``"mapwise"``
(:func:`cartoqa.tasks.mapwise.requests.mapwise_spec`), registered with the other
tasks in :data:`cartoqa.declarations.suites.SUITES`; the parsers, scoring sections,
dataset cards, item schema and exports are derived from it like any task's. Adding a
MapWise task means writing its module and registering it under ``SUITES["mapwise"]``.
"""

from __future__ import annotations

from cartoqa.declarations.spec import TaskSpec
from cartoqa.tasks.common.thematic.suite import ThematicSuite
from cartoqa.tasks.mapwise.requests import SUITE

_SUITE = ThematicSuite(SUITE)
#: The task modules, in the suite's order (``SUITES["mapwise"]``).
TASK_MODULE_NAMES: tuple[str, ...] = _SUITE.module_names
#: The six task modules, imported, in order.
task_modules = _SUITE.modules
#: Their declarations.
task_specs = _SUITE.specs
#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = _SUITE.tasks()

__all__ = ["SUITE", "TASKS", "TaskSpec", "task_modules", "task_specs"]
