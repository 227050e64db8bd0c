"""Versions of the software that drew a dataset, for its manifest."""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache

from cartoqa import __version__
from renderers.browser import default_chromium
from renderers.style import package_version

#: Debian package that ships OSM-Carto's style.xml and symbols.
OSM_CARTO_PACKAGE = "openstreetmap-carto-common"


def _run(cmd: list[str]) -> str | None:
    if shutil.which(cmd[0]) is None:
        return None
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    text = done.stdout.strip()
    return text if done.returncode == 0 and text else None


def osm_carto_version() -> str | None:
    """Return the Debian version of OSM-Carto (e.g. ``"5.7.0-1"``), or ``None``."""
    version = package_version(OSM_CARTO_PACKAGE)
    return None if version == "unknown" else version


def mapnik_version() -> str | None:
    """Return the Mapnik library version (from the Python binding), or ``None``."""
    try:
        import mapnik
    except ImportError:
        return None
    fn = getattr(mapnik, "version_string", None)
    if callable(fn):
        return str(fn())
    try:
        from importlib.metadata import version

        return version("mapnik")
    except Exception:  # metadata missing: an unusual install
        return None


def chromium_version() -> str | None:
    """Return the version of the Chromium a build starts (its headless shell where
    installed, else the full browser: ``--version``), or ``None``."""
    text = _run([str(default_chromium()), "--version"])
    if text is None:
        return None
    match = re.search(r"(\d+(?:\.\d+)+)", text)
    return match.group(1) if match else text


@cache
def software_versions() -> dict[str, str | None]:
    """Return the versions recorded in every manifest.

    Returns
    -------
    dict
        ``cartoqa``, ``openstreetmap_carto``, ``mapnik`` and ``chromium``; ``None`` for a
        component that is not installed.
    """
    return {
        "cartoqa": __version__,
        "openstreetmap_carto": osm_carto_version(),
        "mapnik": mapnik_version(),
        "chromium": chromium_version(),
    }
