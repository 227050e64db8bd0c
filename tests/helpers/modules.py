"""Load a Python file as a module: a script of ``scripts/`` or a file a test wrote
(an export's ``utils.py``), neither of which is on the import path."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def load_module(name: str, path: Path) -> ModuleType:
    """Execute ``path`` as a new module called ``name`` and return it."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_script(stem: str) -> ModuleType:
    """``scripts/<stem>.py`` of this checkout, as a module."""
    return load_module(stem, ROOT / "scripts" / f"{stem}.py")
