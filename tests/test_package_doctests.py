"""Run the numpydoc examples of every cartoqa and renderers module as doctests.

groundtruth's examples run in tests/groundtruth/test_groundtruth_doctests.py.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cartoqa
import renderers


def _modules() -> list[str]:
    names: list[str] = []
    for package in (cartoqa, renderers):
        names.append(package.__name__)
        names += [info.name for info in pkgutil.walk_packages(package.__path__,
                                                              prefix=package.__name__ + ".")
                  if not info.name.endswith("__main__")]
    return sorted(names)


MODULES = _modules()


def test_every_package_module_is_found() -> None:
    assert "cartoqa.tasks.cartomapqa.srn" in MODULES
    assert "renderers.tiles" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
