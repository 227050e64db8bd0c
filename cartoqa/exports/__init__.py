"""Hand a dataset to the harnesses people use: one module per format.

:func:`export_dataset` is the entry point; ``cartoqa export`` calls it.
"""

from cartoqa.exports.export import FORMATS, ExportResult, export_dataset

__all__ = ["FORMATS", "ExportResult", "export_dataset"]
