"""Locate files shipped in the ``cartoqa_assets`` package (the repository's ``assets/``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def asset_path(*parts: str) -> Path:
    """Return the filesystem path of a shipped asset.

    Parameters
    ----------
    *parts : str
        Path components below ``assets/``, for example ``("osm", "grid.osm")``.

    Returns
    -------
    pathlib.Path
        Absolute path of the asset. It is not checked for existence.

    Examples
    --------
    >>> asset_path("README.md").name
    'README.md'
    """
    root = Path(str(resources.files("cartoqa_assets")))
    return root.joinpath(*parts)
