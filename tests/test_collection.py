"""A plain ``pytest`` (``testpaths = ["tests"]``) collects every test file under tests/.

pytest's default ``norecursedirs`` skips any folder named ``build``, so tests/build (the
end-to-end build tests, mirroring cartoqa/build) silently dropped out of the whole-suite
run once the layout of issue 25 named it so; pyproject.toml now sets the list itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _pytest.pathlib import fnmatch_ex

TESTS = Path(__file__).resolve().parent


def test_no_test_folder_matches_norecursedirs(pytestconfig: pytest.Config) -> None:
    patterns = pytestconfig.getini("norecursedirs")
    folders = {p.parent for p in TESTS.rglob("test_*.py")}
    skipped = sorted(str(f.relative_to(TESTS)) for f in folders
                     for pat in patterns
                     if any(fnmatch_ex(pat, part)
                            for part in [TESTS / q for q in f.relative_to(TESTS).parts]))
    assert not skipped, f"pytest would not collect tests in {skipped} (norecursedirs)"
    assert (TESTS / "build") in folders  # the folder this guards holds tests


def test_tests_build_is_collected_by_default(pytestconfig: pytest.Config) -> None:
    """The collection hook pytest itself uses says tests/build is not ignored."""
    ignored = pytestconfig.hook.pytest_ignore_collect(collection_path=TESTS / "build",
                                                      config=pytestconfig)
    assert not ignored
