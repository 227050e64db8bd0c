"""cartoqa: map visual-question-answering benchmarks built from OpenStreetMap extracts.

Map data © OpenStreetMap contributors, available under the Open Database License (ODbL).
"""

__version__ = "0.1.0"
