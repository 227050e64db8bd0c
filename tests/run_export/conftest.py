"""Fixtures for the run and export tests: a small synthetic dataset folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.synthetic_dataset import write_synthetic_dataset


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """A synthetic dataset with two items of each task/request (16 items)."""
    return write_synthetic_dataset(tmp_path / "ds", copies=2)
