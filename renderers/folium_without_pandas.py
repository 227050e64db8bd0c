"""Folium, imported as on a machine without pandas (unless pandas is already loaded).

Folium does not depend on pandas: it imports it only if it can, to recognise the
DataFrames a caller may pass it (``folium.utilities``: ``try: import pandas``), and the
map page (:mod:`renderers.page`) never passes one. pandas, with the pyarrow it loads,
is about 0.55 s of every street build's start, in the builder before it forks its
workers (measured with ``python -X importtime``): half of Folium's import. So the
import of ``folium`` sees pandas as missing; a later ``import pandas`` anywhere (a
thematic suite, geopandas) gets the real one, and a process that loaded pandas before
gets Folium as usual.
"""

from __future__ import annotations

import sys

if "pandas" in sys.modules or "folium" in sys.modules:
    import folium
else:
    sys.modules["pandas"] = None  # type: ignore[assignment]  # import pandas: ImportError
    try:
        import folium
    finally:
        del sys.modules["pandas"]

__all__ = ["folium"]
