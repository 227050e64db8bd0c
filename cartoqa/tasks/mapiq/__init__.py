"""The MapIQ suite: six tasks, one module each, declared by their ``SPEC``.

Each ``SPEC`` is a :class:`cartoqa.declarations.spec.TaskSpec` of suite ``"mapiq"``
(:func:`cartoqa.tasks.mapiq.requests.mapiq_spec`), registered with the other
tasks in :data:`cartoqa.declarations.suites.SUITES`; the parsers, scoring sections,
dataset cards, item schema and exports are derived from it like any task's. Adding a
MapIQ task means writing its module and registering it under ``SUITES["mapiq"]``.
"""

from __future__ import annotations

from cartoqa.declarations.spec import TaskSpec
from cartoqa.tasks.common.thematic.suite import ThematicSuite
from cartoqa.tasks.mapiq.common import QUESTION_TYPES
from cartoqa.tasks.mapiq.requests import SUITE

_SUITE = ThematicSuite(SUITE)
#: The task modules, in the suite's order (``SUITES["mapiq"]``).
TASK_MODULE_NAMES: tuple[str, ...] = _SUITE.module_names
#: The six task modules, imported, in order.
task_modules = _SUITE.modules
#: Their declarations.
task_specs = _SUITE.specs
#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = _SUITE.tasks()

__all__ = ["QUESTION_TYPES", "SUITE", "TASKS", "TaskSpec", "task_modules", "task_specs"]
