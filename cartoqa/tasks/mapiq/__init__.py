"""The MapIQ suite: six tasks, one module each, declared by their ``SPEC``.

Every registry that needs to know a task (parsers, scoring sections, dataset cards, the
item schema's task list, validation) reads :data:`TASKS` here, so adding a task means
adding its module to :data:`TASK_MODULE_NAMES` and nothing else.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cartoqa.tasks.mapiq.common import QUESTION_TYPES, TaskSpec

SUITE = "mapiq"

#: The task modules, in MapIQ's order.
TASK_MODULE_NAMES: tuple[str, ...] = (
    "cartoqa.tasks.mapiq.retrieve_value",
    "cartoqa.tasks.mapiq.pairwise_comparison",
    "cartoqa.tasks.mapiq.spatial_extremes",
    "cartoqa.tasks.mapiq.spatial_clusters",
    "cartoqa.tasks.mapiq.determine_range",
    "cartoqa.tasks.mapiq.regional_comparison",
)


def task_modules() -> list[ModuleType]:
    """The six task modules, in order."""
    return [importlib.import_module(m) for m in TASK_MODULE_NAMES]


def task_specs() -> list[TaskSpec]:
    """Their declarations."""
    return [m.SPEC for m in task_modules()]


#: Task name -> declaration.
TASKS: dict[str, TaskSpec] = {s.name: s for s in task_specs()}

__all__ = ["QUESTION_TYPES", "SUITE", "TASKS", "TaskSpec", "task_modules", "task_specs"]
