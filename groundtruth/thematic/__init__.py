"""Pure ground truth for thematic maps of regions (MapIQ's US states; MapWise next).

Modules, one concern each:

- :mod:`~groundtruth.thematic.classification` -- Fisher-Jenks classes and their ranges.
- :mod:`~groundtruth.thematic.adjacency` -- queen adjacency from region geometry.
- :mod:`~groundtruth.thematic.zones` -- zonings (the four US Census regions) and lookups.
- :mod:`~groundtruth.thematic.clusters` -- MapIQ's cluster rule (class 1 or 5, queen-connected,
  at least three regions).
- :mod:`~groundtruth.thematic.us_states` -- the table of US states (FIPS, code, name, zone).
- :mod:`~groundtruth.thematic.boundaries` and :mod:`~groundtruth.thematic.variables` --
  reading the packaged boundaries and tables (I/O at the edge).

Region keys are plain strings (two-letter codes for US states); nothing here draws.
"""
