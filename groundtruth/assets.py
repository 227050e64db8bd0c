"""Locate the project's hand-made data: the repository's ``assets/`` folder.

Installed from a wheel, ``assets/`` is the package ``cartoqa_assets``. Run from a
working copy (an editable install, or ``PYTHONPATH`` pointing at a checkout), the
files come from that checkout's own ``assets/`` folder, so that an edited prompt or
fixture in a second clone is what that clone uses, whichever clone is installed.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

#: ``assets/`` beside this package when ``groundtruth`` is imported from a source tree.
SOURCE_ASSETS = Path(__file__).resolve().parent.parent / "assets"


def assets_root() -> Path:
    """The folder that holds the assets: the source tree's, else the installed package's.

    Returns
    -------
    pathlib.Path
        ``<checkout>/assets`` when ``groundtruth`` was imported from a checkout (the
        folder holds ``__init__.py`` and sits beside ``pyproject.toml``), otherwise the
        installed ``cartoqa_assets`` package folder.
    """
    if (SOURCE_ASSETS / "__init__.py").is_file() and (
        SOURCE_ASSETS.parent / "pyproject.toml"
    ).is_file():
        return SOURCE_ASSETS
    return Path(str(resources.files("cartoqa_assets")))


def asset_path(*parts: str) -> Path:
    """Return the filesystem path of a shipped asset.

    Parameters
    ----------
    *parts : str
        Path components below ``assets/``, for example ``("osm", "grid.osm")``.

    Returns
    -------
    pathlib.Path
        Absolute path of the asset (see :func:`assets_root`). It is not checked for
        existence.

    Examples
    --------
    >>> asset_path("README.md").name
    'README.md'
    """
    return assets_root().joinpath(*parts)
