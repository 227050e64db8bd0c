"""The MapWise suite: six answer types (binary, single word, count, list, range, rank),
one module each, declared by their ``SPEC``, on choropleths of the USA, India and China.

Every registry that needs to know a task (parsers, scoring sections, dataset cards, the
item schema, validation) reads :data:`TASKS` here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cartoqa.tasks.mapwise.common import TaskSpec

SUITE = "mapwise"

#: The task modules, in MapWise's order of answer types.
TASK_MODULE_NAMES: tuple[str, ...] = (
    "cartoqa.tasks.mapwise.binary",
    "cartoqa.tasks.mapwise.single",
    "cartoqa.tasks.mapwise.count",
    "cartoqa.tasks.mapwise.lists",
    "cartoqa.tasks.mapwise.ranges",
    "cartoqa.tasks.mapwise.rank",
)


def task_modules() -> list[ModuleType]:
    """The six task modules, in order."""
    return [importlib.import_module(m) for m in TASK_MODULE_NAMES]


#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = {m.SPEC.name: m.SPEC for m in task_modules()}

__all__ = ["SUITE", "TASKS", "TaskSpec", "task_modules"]
