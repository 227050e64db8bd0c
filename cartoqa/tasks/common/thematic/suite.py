"""A thematic suite's tasks, read from :data:`cartoqa.declarations.suites.SUITES`.

One registry serves both thematic suites (MapIQ, MapWise).

Examples
--------
>>> from cartoqa.tasks.common.thematic.suite import ThematicSuite
>>> suite = ThematicSuite("mapwise")
>>> suite.module_names[0], sorted(suite.tasks())[:2]
('cartoqa.tasks.mapwise.binary', ['mapwise_binary', 'mapwise_count'])
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from cartoqa.declarations.suites import SUITES

if TYPE_CHECKING:
    from cartoqa.declarations.spec import TaskSpec


@dataclass(frozen=True)
class ThematicSuite:
    """The tasks of one suite registered under :data:`cartoqa.declarations.suites.SUITES`.

    Attributes
    ----------
    name : str
        The suite (``"mapiq"``, ``"mapwise"``).
    """

    name: str

    @property
    def module_names(self) -> tuple[str, ...]:
        """The task modules, in the suite's order."""
        return tuple(SUITES[self.name].values())

    def modules(self) -> list[ModuleType]:
        """The task modules, imported, in order."""
        return [importlib.import_module(m) for m in self.module_names]

    def specs(self) -> list[TaskSpec]:
        """Their declarations (each module's ``SPEC``)."""
        return [m.SPEC for m in self.modules()]

    def tasks(self) -> dict[str, TaskSpec]:
        """Task name -> declaration."""
        return {s.name: s for s in self.specs()}
