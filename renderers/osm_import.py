"""Import an OSM extract into the project's PostGIS cluster with osm2pgsql and OSM-Carto.

One database per extract checksum (``osm_<first 16 hex digits>``). The import runs
``osm2pgsql --create --slim -G --hstore`` with OSM-Carto's tag-transform script and style
file, then OSM-Carto's ``indexes.sql``; creates empty tables for the external data
Debian's package lacks (ocean, ice sheet and Natural Earth layers); and fills the ocean
table with sea polygons built from the extract's ``natural=coastline`` ways (see
:mod:`renderers.coastline`). A table ``cartoqa_import`` records that the import finished;
an unfinished database from a killed run is dropped and imported again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import shapely
from pyproj import Transformer
from shapely.geometry import box

from groundtruth.extracts import Extract
from renderers.children import die_with_parent
from renderers.coastline import sea_polygons
from renderers.errors import RenderError
from renderers.postgis import PostgisCluster, find_pg_binary
from renderers.scratch import private_tempdir
from renderers.style import carto_file
from renderers.waiting import exclusive_lock

#: Bumped when the import recipe changes, so old databases are imported again.
IMPORT_VERSION = "1"

#: Tables OSM-Carto reads that come from downloaded external data in a full setup.
EXTERNAL_TABLES: dict[str, str] = {
    "water_polygons": "way geometry(Geometry, 3857)",
    "simplified_water_polygons": "way geometry(Geometry, 3857)",
    "icesheet_polygons": "way geometry(Geometry, 3857)",
    "icesheet_outlines": "way geometry(Geometry, 3857), ice_edge text",
    "ne_110m_admin_0_boundary_lines_land": "way geometry(Geometry, 3857)",
}

_OSM2PGSQL_FIX = "install the Debian package osm2pgsql (bash scripts/install.sh does it)"


def database_name(extract: Extract) -> str:
    """Return the database name for an extract (keyed by its checksum).

    Examples
    --------
    >>> from pathlib import Path
    >>> e = Extract("x", Path("/x.osm"), "osm", "ab" * 32, None)
    >>> database_name(e)
    'osm_abababababababab'
    """
    return f"osm_{extract.sha256[:16]}"


def psql(
    cluster: PostgisCluster,
    database: str,
    sql: str,
    *,
    timeout: float = 600.0,
) -> str:
    """Run SQL with ``psql`` against the cluster and return its unaligned output.

    Parameters
    ----------
    cluster : PostgisCluster
        A started cluster.
    database : str
        Database to connect to.
    sql : str
        One or more statements; the first error stops the script.
    timeout : float, optional
        Seconds before giving up.

    Returns
    -------
    str
        Standard output (``psql -At``: fields separated by ``|``).

    Raises
    ------
    RenderError
        If psql is missing or a statement fails.
    """
    exe = find_pg_binary("psql")
    env = {**os.environ, **cluster.env(database)}
    try:
        result = subprocess.run(
            [str(exe), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-f", "-"],
            input=sql, env=env, capture_output=True, text=True, timeout=timeout, check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise RenderError(f"a PostgreSQL statement in {database} took over {timeout:.0f} s",
                          f"see {cluster.log_path}") from exc
    if result.returncode != 0:
        raise RenderError(
            f"PostgreSQL statement failed in {database}: {result.stderr.strip()[-500:]}",
            f"see {cluster.log_path}",
        )
    return result.stdout


def _database_exists(cluster: PostgisCluster, database: str) -> bool:
    out = psql(cluster, "postgres",
               f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    return out.strip() == "1"


def _import_complete(cluster: PostgisCluster, database: str) -> bool:
    if not _database_exists(cluster, database):
        return False
    has_table = psql(cluster, database,
                     "SELECT to_regclass('cartoqa_import') IS NOT NULL;").strip()
    if has_table != "t":
        return False
    version = psql(cluster, database,
                   "SELECT value FROM cartoqa_import WHERE key = 'version';").strip()
    return version == IMPORT_VERSION


def ensure_imported(cluster: PostgisCluster, extract: Extract, *, verbose: bool = False) -> str:
    """Import an extract into its own database unless that was done before.

    Parameters
    ----------
    cluster : PostgisCluster
        A started cluster.
    extract : Extract
        The extract (its checksum names the database).
    verbose : bool, optional
        Print progress to standard error.

    Returns
    -------
    str
        The database name.

    Raises
    ------
    RenderError
        If osm2pgsql or the OSM-Carto files are missing, or the import fails.
    """
    osm2pgsql = _osm2pgsql_path()  # before touching the database
    carto_file("openstreetmap-carto.lua")
    carto_file("openstreetmap-carto.style")
    if not cluster.started:
        cluster.start()
    database = database_name(extract)
    with exclusive_lock(cluster.lock_file(database), remove=True):
        if _import_complete(cluster, database):
            return database
        started = time.monotonic()
        _create_database(cluster, database)
        _run_osm2pgsql(cluster, database, extract, osm2pgsql)
        psql(cluster, database, carto_file("indexes.sql").read_text(encoding="utf-8"))
        _create_external_tables(cluster, database)
        bounds = _extract_bounds(cluster, database, extract)
        n_sea = _load_sea(cluster, database, bounds)
        south, west, north, east = bounds
        psql(cluster, database, (
            "CREATE TABLE cartoqa_import (key text PRIMARY KEY, value text);\n"
            "INSERT INTO cartoqa_import VALUES "
            f"('extract_sha256', '{extract.sha256}'), "
            f"('bounds', '{south!r},{west!r},{north!r},{east!r}'), "
            f"('sea_polygons', '{n_sea}'), "
            f"('version', '{IMPORT_VERSION}');\nANALYZE;\n"
        ))
        if verbose:
            print(f"[cartoqa] imported {extract.name} into {database} in "
                  f"{time.monotonic() - started:.1f} s", file=sys.stderr)
    return database


def imported_bounds(cluster: PostgisCluster, database: str) -> tuple[float, float, float, float]:
    """Return the ``(south, west, north, east)`` recorded for an imported extract."""
    out = psql(cluster, database, "SELECT value FROM cartoqa_import WHERE key = 'bounds';")
    south, west, north, east = (float(v) for v in out.strip().split(","))
    return south, west, north, east


def _create_database(cluster: PostgisCluster, database: str) -> None:
    psql(cluster, "postgres", f"DROP DATABASE IF EXISTS {database} WITH (FORCE);\n"
                              f"CREATE DATABASE {database};")
    psql(cluster, database, "CREATE EXTENSION IF NOT EXISTS postgis;\n"
                            "CREATE EXTENSION IF NOT EXISTS hstore;")


def _osm2pgsql_path() -> str:
    exe = shutil.which("osm2pgsql")
    if exe is None:
        raise RenderError("osm2pgsql is not installed", _OSM2PGSQL_FIX)
    return exe


def _run_osm2pgsql(cluster: PostgisCluster, database: str, extract: Extract, exe: str) -> None:
    lua = carto_file("openstreetmap-carto.lua")
    style = carto_file("openstreetmap-carto.style")
    env = {**os.environ, **cluster.env(database)}
    argv = [
        exe, "--create", "--slim", "--drop", "-G", "--hstore",
        "--tag-transform-script", str(lua), "--style", str(style),
        "--cache", "256", "--number-processes", "2", "--log-level", "warn",
        "-d", database, "-H", env["PGHOST"], "-P", env["PGPORT"], "-U", env["PGUSER"],
        str(extract.path),
    ]
    work = private_tempdir("import")
    parent = os.getpid()
    try:
        result = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True,
                                check=False, preexec_fn=lambda: die_with_parent(parent))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if result.returncode != 0:
        tail = " / ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise RenderError(
            f"osm2pgsql could not import {extract.path}: {tail}",
            "check that the extract is a complete OSM file",
        )


def _create_external_tables(cluster: PostgisCluster, database: str) -> None:
    statements = []
    for table, columns in EXTERNAL_TABLES.items():
        statements.append(f"CREATE TABLE IF NOT EXISTS {table} ({columns});")
        statements.append(f"CREATE INDEX IF NOT EXISTS {table}_way ON {table} USING GIST (way);")
    psql(cluster, database, "\n".join(statements))


def _extract_bounds(
    cluster: PostgisCluster, database: str, extract: Extract
) -> tuple[float, float, float, float]:
    """The extract's header bounds, or else the extent of the imported data."""
    if extract.bounds is not None:
        return extract.bounds
    out = psql(cluster, database, (
        "SELECT ST_YMin(e), ST_XMin(e), ST_YMax(e), ST_XMax(e) FROM ("
        "SELECT ST_Transform(ST_SetSRID(ST_Extent(way)::geometry, 3857), 4326) AS e FROM ("
        "SELECT way FROM planet_osm_point UNION ALL SELECT way FROM planet_osm_line "
        "UNION ALL SELECT way FROM planet_osm_polygon) AS g) AS x;"
    )).strip()
    if not out or out.startswith("|"):
        raise RenderError(
            f"the extract {extract.path} holds nothing OSM-Carto draws",
            "use an extract with roads, buildings or other map features",
        )
    south, west, north, east = (float(v) for v in out.split("|"))
    return south, west, north, east


def _load_sea(
    cluster: PostgisCluster, database: str, bounds: tuple[float, float, float, float]
) -> int:
    """Build sea polygons from the coastline ways and store them as the ocean layers."""
    out = psql(cluster, database, (
        "SELECT encode(ST_AsBinary(way), 'hex') FROM planet_osm_line "
        "WHERE \"natural\" = 'coastline' UNION ALL "
        "SELECT encode(ST_AsBinary(ST_ExteriorRing(way)), 'hex') FROM planet_osm_polygon "
        "WHERE \"natural\" = 'coastline' AND GeometryType(way) = 'POLYGON';"
    ))
    lines = [shapely.from_wkb(bytes.fromhex(h)) for h in out.split()]
    if not lines:
        return 0
    to_merc = Transformer.from_crs(4326, 3857, always_xy=True)
    south, west, north, east = bounds
    x0, y0 = to_merc.transform(west, south)
    x1, y1 = to_merc.transform(east, north)
    clip = box(x0, y0, x1, y1)
    polygons = sea_polygons(lines, clip)
    if not polygons:
        return 0
    values = ",\n".join(
        f"(ST_SetSRID('{shapely.to_wkb(p, hex=True)}'::geometry, 3857))" for p in polygons
    )
    psql(cluster, database,
         f"INSERT INTO water_polygons (way) VALUES {values};\n"
         f"INSERT INTO simplified_water_polygons (way) SELECT way FROM water_polygons;")
    return len(polygons)


__all__ = ["IMPORT_VERSION", "database_name", "ensure_imported", "imported_bounds", "psql"]
