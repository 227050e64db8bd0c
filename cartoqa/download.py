"""Extracts of new cities by name: looked up in pyrosm's catalogue, downloaded, cached.

``cartoqa build --extract Tallinn`` (or ``--place Tallinn``) names a city or region that
is neither a bundled extract nor a file. :func:`obtain_extract` looks the name up in
pyrosm's catalogue of Geofabrik regions and BBBike cities
(:func:`pyrosm.data.search_source`), downloads the ``.osm.pbf`` once into
``<cache>/downloads/``, names it by its SHA-256 and remembers the URL in
``<cache>/downloads/index.json``, so the next build (online or not) reuses it. With a
bounding box the file is clipped (:func:`clip_extract`) and the clipped file is cached
by the checksum of its source and the box. Where the file came from is recorded in the
dataset's manifest (``extract.source``).

The download server can be replaced for tests and mirrors: the setting
``CARTOQA_DOWNLOAD_BASE`` (e.g. ``http://127.0.0.1:8000``) keeps the path of the
catalogue's URL and swaps its scheme and host. Offline, the download fails at once
with one line saying so and how to pass a file instead.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cartoqa.errors import CartoqaError
from cartoqa.settings import cache_root
from groundtruth.extracts import BUNDLED_EXTRACTS, resolve_extract
from renderers.files import write_atomic

#: Environment variable: base URL that replaces the catalogue's scheme and host.
DOWNLOAD_BASE_ENV = "CARTOQA_DOWNLOAD_BASE"
#: Seconds to wait for the server to connect or send (an offline machine fails at once).
TIMEOUT_S = 30.0
BBox = tuple[float, float, float, float]


def parse_bbox(text: str) -> BBox:
    """Parse ``"WEST,SOUTH,EAST,NORTH"`` in degrees.

    Examples
    --------
    >>> parse_bbox("26.70,58.36,26.76,58.39")
    (26.7, 58.36, 26.76, 58.39)
    """
    try:
        west, south, east, north = (float(v) for v in text.split(","))
    except ValueError:
        raise CartoqaError(f"--bbox {text!r} is not WEST,SOUTH,EAST,NORTH in degrees",
                           fix="e.g. --bbox 26.70,58.36,26.76,58.39") from None
    if not (-180 <= west < east <= 180 and -90 <= south < north <= 90):
        raise CartoqaError(f"--bbox {text!r} is empty or outside the globe",
                           fix="give WEST,SOUTH,EAST,NORTH with west < east, south < north")
    return west, south, east, north


def catalogue_url(name: str) -> tuple[str, str]:
    """The file name and URL of a named extract in pyrosm's catalogue.

    Raises
    ------
    CartoqaError
        If the name is unknown or ambiguous (the message says how to qualify it).

    Examples
    --------
    >>> catalogue_url("estonia")
    ('estonia-latest.osm.pbf', 'https://download.geofabrik.de/europe/estonia-latest.osm.pbf')
    """
    from pyrosm.data import search_source

    try:
        found = search_source(name.strip().lower())
    except ValueError as exc:
        raise CartoqaError(f"no extract named {name!r}: {exc}",
                           fix="give a name from pyrosm.data.available, or an .osm.pbf "
                               "file with --extract FILE") from None
    return str(found["name"]), str(found["url"])


def mirrored(url: str, base: str | None) -> str:
    """The URL with its scheme and host replaced by ``base`` (its path kept).

    Examples
    --------
    >>> mirrored("https://download.bbbike.org/osm/bbbike/Tallinn/Tallinn.osm.pbf",
    ...          "http://127.0.0.1:8000/mirror")
    'http://127.0.0.1:8000/mirror/osm/bbbike/Tallinn/Tallinn.osm.pbf'
    >>> mirrored("https://download.geofabrik.de/europe/estonia-latest.osm.pbf", None)
    'https://download.geofabrik.de/europe/estonia-latest.osm.pbf'
    """
    if not base:
        return url
    return base.rstrip("/") + urllib.parse.urlsplit(url).path


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _read_index(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_index(path: Path, index: dict[str, Any]) -> None:
    write_atomic(path, (json.dumps(index, indent=1, sort_keys=True) + "\n").encode("utf-8"))


def _fetch(url: str, target: Path, *, name: str, timeout: float) -> None:
    """Download ``url`` to ``target`` (through a temporary file)."""
    # A name of its own per process: two builds may fetch the same city at once.
    tmp = target.with_name(f"{target.name}.{os.getpid()}.part")
    request = urllib.request.Request(url, headers={"User-Agent": "cartoqa"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response, \
                open(tmp, "wb") as fh:
            shutil.copyfileobj(response, fh, 1 << 20)
    except urllib.error.HTTPError as exc:
        tmp.unlink(missing_ok=True)
        raise CartoqaError(f"cannot download the extract {name!r} from {url}: "
                           f"HTTP {exc.code} {exc.reason}",
                           fix="pass a downloaded .osm.pbf file with --extract FILE") from None
    except OSError as exc:  # URLError, timeouts, refused connections
        tmp.unlink(missing_ok=True)
        reason = getattr(exc, "reason", exc)
        raise CartoqaError(f"cannot download the extract {name!r}: this machine seems to "
                           f"be offline ({reason})",
                           fix="download the .osm.pbf elsewhere and pass the file with "
                               "--extract FILE") from None
    os.replace(tmp, target)


def clip_extract(source: Path, target: Path, bbox: BBox) -> None:
    """Write the part of an extract inside a bounding box (pyosmium, two passes).

    Nodes inside the box are kept, with every way that has one of them (its references
    to nodes outside are kept: readers split such a clipped way, see
    :mod:`groundtruth._osm_reader`) and every relation with a kept member.

    Parameters
    ----------
    source : pathlib.Path
        An ``.osm.pbf``/``.osm`` file.
    target : pathlib.Path
        The file to write (``.osm.pbf``); replaced if it exists.
    bbox : (west, south, east, north)
        Degrees.
    """
    import osmium

    west, south, east, north = bbox
    inside: set[int] = set()
    nodes: Any = osmium.FileProcessor(str(source), osmium.osm.NODE)
    for obj in nodes:
        loc = obj.location
        if loc.valid() and west <= loc.lon <= east and south <= loc.lat <= north:
            inside.add(obj.id)
    ways: set[int] = set()
    all_ways: Any = osmium.FileProcessor(str(source), osmium.osm.WAY)
    for obj in all_ways:
        if any(n.ref in inside for n in obj.nodes):
            ways.add(obj.id)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.part.osm.pbf")
    tmp.unlink(missing_ok=True)
    writer = osmium.SimpleWriter(str(tmp))
    try:
        everything: Any = osmium.FileProcessor(str(source))
        for obj in everything:
            if obj.is_node():
                if obj.id in inside:
                    writer.add_node(obj)
            elif obj.is_way():
                if obj.id in ways:
                    writer.add_way(obj)
            elif obj.is_relation() and any(
                    (m.type == "n" and m.ref in inside) or (m.type == "w" and m.ref in ways)
                    for m in obj.members):
                writer.add_relation(obj)
    finally:
        writer.close()
    os.replace(tmp, target)


def obtain_extract(name: str, *, cache_dir: Path, bbox: BBox | None = None,
                   base_url: str | None = None,
                   timeout: float = TIMEOUT_S) -> tuple[Path, dict[str, Any]]:
    """The extract file of a named city or region, downloaded once and cached.

    Parameters
    ----------
    name : str
        A name in pyrosm's catalogue (``"Tallinn"``, ``"estonia"``, ``"cities/berlin"``).
    cache_dir : pathlib.Path
        Cache root; files go to ``<cache_dir>/downloads/``.
    bbox : (west, south, east, north), optional
        Clip the extract to this box.
    base_url : str, optional
        Replaces the catalogue URL's scheme and host; default the environment variable
        ``CARTOQA_DOWNLOAD_BASE``, else the catalogue's own server.
    timeout : float, optional
        Seconds to wait for the server.

    Returns
    -------
    (pathlib.Path, dict)
        The file, and its provenance for the manifest: ``name``, ``url``,
        ``sha256`` of the downloaded file, ``downloaded`` (UTC date), and ``bbox``
        when clipped.

    Raises
    ------
    CartoqaError
        Unknown name, offline, or a server error (one line with the fix).
    """
    file_name, url = catalogue_url(name)
    url = mirrored(url, base_url if base_url is not None else os.environ.get(DOWNLOAD_BASE_ENV))
    folder = Path(cache_dir) / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    index_path = folder / "index.json"
    index = _read_index(index_path)
    entry = index.get(url)
    path: Path | None = None
    if isinstance(entry, dict):
        candidate = folder / str(entry.get("file", ""))
        if candidate.is_file() and _sha256(candidate) == entry.get("sha256"):
            path = candidate
    if path is None:
        download = folder / (file_name + ".download")
        _fetch(url, download, name=name, timeout=timeout)
        digest = _sha256(download)
        path = folder / f"{digest[:12]}-{file_name}"
        os.replace(download, path)
        entry = {"file": path.name, "sha256": digest, "name": file_name,
                 "downloaded": datetime.now(UTC).strftime("%Y-%m-%d")}
        index[url] = entry
        _write_index(index_path, index)
    assert isinstance(entry, dict)
    source: dict[str, Any] = {"name": name, "url": url, "sha256": entry["sha256"],
                              "downloaded": entry["downloaded"],
                              "licence": "ODbL 1.0, (c) OpenStreetMap contributors"}
    if bbox is None:
        return path, source
    box = ",".join(f"{v:.6f}" for v in bbox)
    key = hashlib.sha256(f"{entry['sha256']}:{box}".encode()).hexdigest()[:12]
    clipped = folder / f"{key}-clip-{file_name}"
    if not clipped.is_file():
        clip_extract(path, clipped, bbox)
    source["bbox"] = list(bbox)
    return clipped, source


def _named(text: str) -> bool:
    """Whether ``--extract`` names a place to download (not bundled, not a file)."""
    if text.lower() in BUNDLED_EXTRACTS or Path(text).exists():
        return False
    return not text.lower().endswith((".pbf", ".osm", ".bz2"))


def resolve_source(extract: str, place: str | None,
                   bbox: str | None) -> tuple[str | Path, dict[str, Any] | None]:
    """The extract to build from, downloading or clipping it first when asked.

    Parameters
    ----------
    extract : str
        ``--extract``: a bundled extract's name, a file, or a place to download.
    place : str or None
        ``--place``: a place to download.
    bbox : str or None
        ``--bbox``: ``west,south,east,north`` to clip the extract to.

    Returns
    -------
    tuple
        The extract (name or path) and the record of its source (``None`` for a
        bundled extract or a file used whole).
    """
    box = parse_bbox(bbox) if bbox else None
    name = place or (extract if _named(extract) else None)
    if name is not None:
        path, source = obtain_extract(name, cache_dir=cache_root(), bbox=box)
        return path, source
    if box is None:
        return extract, None
    ext = resolve_extract(extract)
    key = ext.sha256[:12] + "-" + "_".join(f"{v:.6f}" for v in box)
    folder = cache_root() / "downloads"
    folder.mkdir(parents=True, exist_ok=True)
    clipped = folder / f"{key}-clip.osm.pbf"
    if not clipped.is_file():
        clip_extract(ext.path, clipped, box)
    return clipped, {"name": ext.name, "sha256": ext.sha256, "bbox": list(box)}
