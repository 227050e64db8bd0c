"""Shared pytest configuration. Area-specific fixtures live in each tests/<area>/conftest.py."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.shared_builds import SharedBuilds
from helpers.synthetic_dataset import write_synthetic_dataset

if os.environ.get("CARTOQA_MUTATION"):
    # scripts/mutation.py tests each mutant in a process forked after a clean run of the
    # tests: memoised results (functools caches) of that run would hide the mutant.
    @pytest.fixture(autouse=True)
    def _forget_memoised_results() -> Iterator[None]:
        for name, module in list(sys.modules.items()):
            if module is None or not name.startswith(("cartoqa", "groundtruth")):
                continue
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
        yield


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """A synthetic dataset with two items of each task/request (for the run and export tests)."""
    return write_synthetic_dataset(tmp_path / "ds", copies=2)


@pytest.fixture(scope="session")
def shared_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedBuilds]:
    """End-to-end builds made once per configuration for the session (one PostGIS cache)."""
    from helpers.postgis_cache import postgis_cache_dir  # imported here: starts no cluster

    with postgis_cache_dir("cartoqa-test-shared-") as cache:
        yield SharedBuilds(cache, tmp_path_factory.mktemp("shared-builds"))


@pytest.fixture(scope="module")
def shared_env(shared_builds: SharedBuilds) -> Iterator[dict[str, str]]:
    """The session's cache and web assets in ``os.environ`` for a module (then restored)."""
    with shared_builds.env() as env:
        yield env


SHARED_BUILD_FIXTURES = {"shared_builds", "shared_env"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads a shared end-to-end build (or its cache) is slow, marked or not."""
    for item in items:
        uses = SHARED_BUILD_FIXTURES & set(getattr(item, "fixturenames", ()))
        if uses and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
