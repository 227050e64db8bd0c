"""What the two thematic-map suites share: MapIQ (:mod:`cartoqa.tasks.mapiq`) and MapWise
(:mod:`cartoqa.tasks.mapwise`).

Both draw choropleth-like maps of regions from a table, check every picture against its
data before asking about it, and declare their tasks as
:class:`~cartoqa.declarations.spec.TaskSpec` of their own suite. The parts they share live here,
once:

- :mod:`cartoqa.tasks.common.thematic.suite`: a suite's task modules, declarations and
  name -> declaration table, read from :data:`cartoqa.declarations.suites.SUITES`;
- :mod:`cartoqa.tasks.common.thematic.requests`: answer schemas, the binary question type,
  the answer-text writer, mean aggregation and :func:`~cartoqa.tasks.common.thematic.requests.
  thematic_spec`, the ``TaskSpec`` every thematic task module's ``SPEC`` is;
- :mod:`cartoqa.tasks.common.thematic.build`: the build record, the staged slot loop, the build
  key, the manifest and the common part of the dataset card.

What differs stays in the suite's package: MapIQ's four question types and 19 templates,
MapWise's six answer types, countries and styles, and each suite's map plan and builder
(``make_slot``). The geometry, data and classification are in ``groundtruth/thematic``,
the drawing and the pixel check in ``renderers/thematic``.
"""
