"""The MapWise suite: six answer types (binary, single word, count, list, range, rank),
one task module each, declared by their ``SPEC``, on choropleths of the USA, India and
China.

Each ``SPEC`` is a :class:`cartoqa.tasks.spec.TaskSpec` of suite ``"mapwise"``
(:func:`cartoqa.tasks.mapwise.requests.mapwise_spec`), registered with the other tasks in
:data:`cartoqa.tasks.SUITES`; the parsers, scoring sections, dataset cards, item schema
and exports are derived from it like any task's. Adding a MapWise task means writing its
module and registering it under ``SUITES["mapwise"]``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cartoqa.tasks import SUITES
from cartoqa.tasks.mapwise.requests import SUITE
from cartoqa.tasks.spec import TaskSpec

#: The task modules, in MapWise's order of answer types.
TASK_MODULE_NAMES: tuple[str, ...] = tuple(SUITES[SUITE].values())


def task_modules() -> list[ModuleType]:
    """The six task modules, in order."""
    return [importlib.import_module(m) for m in TASK_MODULE_NAMES]


def task_specs() -> list[TaskSpec]:
    """Their declarations."""
    return [m.SPEC for m in task_modules()]


#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = {s.name: s for s in task_specs()}

__all__ = ["SUITE", "TASKS", "TaskSpec", "task_modules", "task_specs"]
