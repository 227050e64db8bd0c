"""MFS feature images: the OSM-Carto catalogue of point symbols, line styles and area fills.

:func:`renderers.mfs.catalogue.build_catalogue` derives the entries from the installed
``style.xml`` (:mod:`~renderers.mfs.catalogue_specs`), draws symbols with Mapnik
(:mod:`~renderers.mfs.symbols`) and lines and areas with the tile pipeline on a
synthetic extract (:mod:`~renderers.mfs.swatches`).
"""

from renderers.mfs.spec import CATEGORIES, Category, FeatureImage, FeatureSpec

__all__ = ["CATEGORIES", "Category", "FeatureImage", "FeatureSpec"]
