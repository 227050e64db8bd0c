"""cartoqa: map visual-question-answering benchmarks built from OpenStreetMap extracts.

Map data © OpenStreetMap contributors, available under the Open Database License (ODbL).
"""

__version__ = "0.1.0"

ATTRIBUTION = (
    "Map data © OpenStreetMap contributors, available under the Open Database License "
    "(ODbL 1.0, https://www.openstreetmap.org/copyright). Map style and symbols: "
    "OpenStreetMap Carto (symbols CC0)."
)
