"""Geography to pixels: OSM-Carto tiles, the Folium map page, headless Chromium screenshots.

May import :mod:`groundtruth` (projection maths), never :mod:`cartoqa`.
"""

__version__ = "0.1.0"
