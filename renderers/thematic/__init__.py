"""Thematic maps of US states drawn with matplotlib (Agg): choropleth, hexbin cartogram
and proportional symbols, MapIQ's three map types.

- :mod:`~renderers.thematic.design` -- colour schemes, sizes and MapIQ's 15 design variations.
- :mod:`~renderers.thematic.hexgrid` -- the hand-made hexbin tile layout (``assets/thematic``).
- :mod:`~renderers.thematic.draw` -- draws one map and reports what was drawn where.
- :mod:`~renderers.thematic.check` -- reads the PNG back and checks it against the data.
"""
