"""A browsable, self-contained static HTML report of a dataset and of models' answers.

``cartoqa report DATASET [PREDICTIONS ...] --out DIR`` (docs/report.md): an overview
with items per task and stratum and the scores and figures of every predictions file,
and one page per task listing every item with its image(s), the prompt, the ground
truth and each model's response, reading and outcome, with filters and an optional
overlay of what the ground truth is made of.

>>> from cartoqa.report import write_report  # doctest: +SKIP
>>> write_report("out/helsinki", ["model.jsonl"], out="report").out  # doctest: +SKIP
PosixPath('report')
"""

from cartoqa.report.items import OUTCOMES, answer_text, item_images, outcome
from cartoqa.report.overlay import overlay_shapes
from cartoqa.report.writer import ReportSummary, write_report

__all__ = [
    "OUTCOMES",
    "ReportSummary",
    "answer_text",
    "item_images",
    "outcome",
    "overlay_shapes",
    "write_report",
]
