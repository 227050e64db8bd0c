"""Map ground truth computed from OpenStreetMap data.

Pure functions over OSM data: no database, no browser, no network. This package
imports neither :mod:`renderers` nor :mod:`cartoqa`.
"""

__version__ = "0.1.0"
