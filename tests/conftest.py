"""Shared pytest configuration. Area-specific fixtures live in each tests/<area>/conftest.py."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
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
