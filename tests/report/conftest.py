"""Fixtures for the report tests: a synthetic dataset and predictions files."""

from __future__ import annotations

from pathlib import Path

import pytest
from report_data import (
    flawed_responses,
    read_items,
    reference_responses,
    write_predictions,
    write_report_dataset,
)


@pytest.fixture(scope="module")
def report_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The dataset and two predictions files (reference, flawed)."""
    base = tmp_path_factory.mktemp("report-inputs")
    root = write_report_dataset(base / "ds", copies=3)
    items = read_items(root)
    return {
        "dataset": root,
        "reference": write_predictions(base / "reference.jsonl", reference_responses(items)),
        "flawed": write_predictions(base / "flawed.jsonl", flawed_responses(items)),
    }
