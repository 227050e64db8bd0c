"""Fixture scopes that widen to one call per test in a mutation run.

mutmut (``scripts/mutation.py``) learns which test calls which function once, and then
tests a mutant only with the tests that called its function. A session- or
module-scoped fixture is built during the first test that uses it, so the graph builder
or reader it calls would be credited to that test alone, and a mutant of the builder
would never meet the tests that check what it built. In a mutation run
(``CARTOQA_MUTATION`` set) these fixtures are therefore built again for every test.
"""

from __future__ import annotations

import os

import pytest


def _scope(wide: str) -> str:
    return "function" if os.environ.get("CARTOQA_MUTATION") else wide


def session_scope(fixture_name: str, config: pytest.Config) -> str:
    """``session``, or ``function`` in a mutation run."""
    return _scope("session")


def module_scope(fixture_name: str, config: pytest.Config) -> str:
    """``module``, or ``function`` in a mutation run."""
    return _scope("module")
