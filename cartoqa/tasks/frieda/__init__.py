"""FRIEDA (Pyo et al., ICLR 2026): spatial relations over OSM maps, one task per relation.

``cartoqa build --suite frieda`` builds the six tasks ``frieda_border``,
``frieda_equal``, ``frieda_intersect``, ``frieda_within``, ``frieda_distance`` and
``frieda_orientation`` from an OSM extract, through the same builder as the
CartoMapQA tasks (resumable, atomic, the manifest's checksums and OSM credit).
The sampler is :mod:`cartoqa.tasks.frieda.build`, the maps and their checks
:mod:`cartoqa.tasks.frieda.maps`, the declarations :mod:`cartoqa.tasks.frieda.spec`;
the ground truth is :mod:`groundtruth.relations` (docs/frieda.md).
"""
