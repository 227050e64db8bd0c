"""Settings and cache paths, in one place.

Every path cartoqa writes outside a dataset folder comes from here. The cache root is
``$CARTOQA_CACHE`` when set, else ``$XDG_CACHE_HOME/cartoqa``, else ``~/.cache/cartoqa``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: Zoom levels a map view may use (CartoMapQA uses 15-19).
MIN_ZOOM = 15
MAX_ZOOM = 19

#: Screenshot size in CSS pixels (CartoMapQA's 1366x768).
VIEW_WIDTH = 1366
VIEW_HEIGHT = 768


def cache_root() -> Path:
    """Return the cache root folder, creating it if needed.

    Returns
    -------
    pathlib.Path
        The folder that holds the database cluster, tiles and other caches.
    """
    env = os.environ.get("CARTOQA_CACHE")
    if env:
        root = Path(env)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = Path(xdg) / "cartoqa" if xdg else Path.home() / ".cache" / "cartoqa"
    root.mkdir(parents=True, exist_ok=True)
    return root


def cache_path(*parts: str) -> Path:
    """Return a path below the cache root (its parent folder is created).

    Parameters
    ----------
    *parts : str
        Components below the cache root, e.g. ``("tiles",)``.

    Returns
    -------
    pathlib.Path
        The path; only its parent is created.
    """
    path = cache_root().joinpath(*parts)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def web_assets_dir() -> Path:
    """Return the folder with local Leaflet files (installed by ``scripts/install.sh``).

    ``$CARTOQA_WEB_ASSETS`` when set (used as given, so that a wrong setting is reported
    rather than ignored); otherwise the first of ``<python prefix>/share/cartoqa/web``
    (where ``scripts/install.sh`` puts it, inside the virtual environment, so that it
    does not depend on ``$CARTOQA_CACHE``) and ``<cache root>/web`` that holds
    ``leaflet/leaflet.js``, else the prefix folder, so that the error names where the
    files are expected.

    Returns
    -------
    pathlib.Path
        Folder expected to hold ``leaflet/leaflet.js`` and ``leaflet/leaflet.css``.
    """
    env = os.environ.get("CARTOQA_WEB_ASSETS")
    if env:
        return Path(env)
    prefix_dir = Path(sys.prefix) / "share" / "cartoqa" / "web"
    for folder in (prefix_dir, cache_root() / "web"):
        if (folder / "leaflet" / "leaflet.js").is_file():
            return folder
    return prefix_dir
