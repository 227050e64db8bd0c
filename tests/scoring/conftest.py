"""Fixtures for the scoring tests (the data itself is in ``scoring_data.py``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scoring_data import make_items, write_dataset, write_predictions


@pytest.fixture
def items() -> list[dict[str, Any]]:
    """The synthetic items."""
    return make_items()


@pytest.fixture
def dataset_dir(tmp_path: Path, items: list[dict[str, Any]]) -> Path:
    """A synthetic dataset folder."""
    return write_dataset(tmp_path / "dataset", items)


@pytest.fixture
def predictions_file(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """A function writing predictions to a JSONL file under ``tmp_path``."""

    def write(responses: dict[str, str]) -> Path:
        return write_predictions(tmp_path / "predictions.jsonl", responses)

    return write
