"""Score model answers: parse each response, measure it, and report every metric.

>>> from cartoqa.scoring import score_dataset  # doctest: +SKIP
>>> report = score_dataset("out/helsinki", "predictions.jsonl")  # doctest: +SKIP
>>> report["sections"]["mfs"]["metrics"]["accuracy"]  # doctest: +SKIP
{'all': 0.8, 'valid_only': 0.9, 'n': 50, 'n_valid': 45, 'n_invalid': 5}
"""

from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.declarations.records import ConnectivityChecker, Record
from cartoqa.scoring.connectivity import RoadGraphChecker, groundtruth_checker, marker_nodes
from cartoqa.scoring.core import (
    VARIANTS,
    build_report,
    score_dataset,
    score_predictions,
    score_records,
    summarise_section,
)
from cartoqa.scoring.io import load_items, load_predictions, read_predictions, write_json_atomic
from cartoqa.scoring.sections import Section, metric_labels, n_steps, section_for, sections

__all__ = [
    "VARIANTS",
    "ConnectivityChecker",
    "Record",
    "RoadGraphChecker",
    "Section",
    "answer_as_text",
    "build_report",
    "groundtruth_checker",
    "load_items",
    "load_predictions",
    "marker_nodes",
    "metric_labels",
    "n_steps",
    "read_predictions",
    "score_dataset",
    "score_predictions",
    "score_records",
    "section_for",
    "sections",
    "summarise_section",
    "write_json_atomic",
]
