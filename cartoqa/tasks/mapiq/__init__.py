"""The MapIQ suite: six tasks, one module each, declared by their ``SPEC``.

Each ``SPEC`` is a :class:`cartoqa.tasks.spec.TaskSpec` of suite ``"mapiq"``
(:func:`cartoqa.tasks.mapiq.requests.mapiq_spec`), registered with the other tasks in
:data:`cartoqa.tasks.SUITES`; the parsers, scoring sections, dataset cards, item schema
and exports are derived from it like any task's. Adding a MapIQ task means writing its
module and registering it under ``SUITES["mapiq"]``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cartoqa.tasks import SUITES
from cartoqa.tasks.mapiq.common import QUESTION_TYPES
from cartoqa.tasks.mapiq.requests import SUITE
from cartoqa.tasks.spec import TaskSpec

#: The task modules, in MapIQ's order.
TASK_MODULE_NAMES: tuple[str, ...] = tuple(SUITES[SUITE].values())


def task_modules() -> list[ModuleType]:
    """The six task modules, in order."""
    return [importlib.import_module(m) for m in TASK_MODULE_NAMES]


def task_specs() -> list[TaskSpec]:
    """Their declarations."""
    return [m.SPEC for m in task_modules()]


#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = {s.name: s for s in task_specs()}

__all__ = ["QUESTION_TYPES", "SUITE", "TASKS", "TaskSpec", "task_modules", "task_specs"]
