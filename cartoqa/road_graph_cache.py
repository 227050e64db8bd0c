"""Road graphs of an extract, built once per machine and kept in the cache.

Building the road graph of an extract reads the extract with pyosmium and joins its
ways (it no longer imports osmnx for the street count: about 5 CPU seconds), and every build
of the same extract, every city of ``cartoqa build-many`` and every benchmark run
did it again. :func:`cached_road_graph` keeps each built graph as a pickle under
``<cache>/road-graphs/``, named by the extract's SHA-256, the kind of graph (legal,
or as a reader sees it) and a fingerprint of the code that builds it: the source of
the :mod:`groundtruth` package and the versions of osmnx, networkx and shapely. A
change to any of them builds the graph afresh under a new name; a file that does
not load (truncated, another Python) is rebuilt and replaced. A mutation run
(``CARTOQA_MUTATION``) keeps nothing: its mutants share one source.

A pickle holds the graph exactly (node and edge order, float attributes, shapely
geometries as WKB), as the one :func:`cartoqa.parallel.prepared_bundle` sends to the
workers already does, so a build from a cached graph writes the same bytes as one
that built it.

A pickle runs code when it is loaded, so no pickle is read from anything another user
could have written (:func:`open_private_folder`): every folder from ``/`` down to
``road-graphs`` is opened one at a time, relative to the one before, without following
a link (``O_NOFOLLOW``), and checked on the open descriptor (``fstat``): each must
belong to this user or root and be writable by no one else (a root-owned sticky folder
such as ``/tmp`` excepted on the way), and the cache root and ``road-graphs`` must be
this user's own. The pickle is opened relative to that descriptor, again without
following a link, and must be a regular file of this user's that no one else may
write. A name swapped by another user after the check changes nothing: the descriptors
stay on what was checked. A cache that fails any check is not used at all: the graph
is built afresh and not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import secrets
import stat
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import groundtruth
from groundtruth.extracts import Extract
from groundtruth.graph import load_road_graph

if TYPE_CHECKING:
    import networkx as nx

#: Cache sub-folder of the graphs.
SUBDIR = "road-graphs"
#: Packages whose versions are part of the fingerprint.
FINGERPRINT_PACKAGES = ("osmnx", "networkx", "shapely")


@cache
def code_fingerprint() -> str:
    """A digest of what builds a road graph: the groundtruth sources and versions.

    Returns
    -------
    str
        16 hex digits; equal in every process of one installation.

    Examples
    --------
    >>> len(code_fingerprint())
    16
    """
    digest = hashlib.sha256()
    root = Path(groundtruth.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for package in FINGERPRINT_PACKAGES:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "-"
        digest.update(f"{package}={version}\0".encode())
    return digest.hexdigest()[:16]


def graph_path(cache_dir: Path, extract: Extract, *, legal: bool) -> Path | None:
    """Where the graph of ``extract`` is kept (None: an extract without a checksum).

    Examples
    --------
    >>> from pathlib import Path
    >>> e = Extract("x", Path("x.osm"), "osm", "ab" * 32, None)
    >>> p = graph_path(Path("/c"), e, legal=False)
    >>> p.parent.as_posix(), p.name.startswith("x-abababababababab-naive-")
    ('/c/road-graphs', True)
    >>> graph_path(Path("/c"), Extract("x", Path("x.osm"), "osm", "", None), legal=True)
    """
    if not extract.sha256:
        return None
    kind = "legal" if legal else "naive"
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in extract.name)[:40]
    return (cache_dir / SUBDIR
            / f"{safe}-{extract.sha256[:16]}-{kind}-{code_fingerprint()}.pickle")


class UnsafeCacheError(PermissionError):
    """A folder or file of the cache could be written by another user."""


def _check_folder(fd: int, where: str, *, own: bool) -> None:
    info = os.fstat(fd)
    uid = os.geteuid()
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeCacheError(f"{where} is not a folder")
    if info.st_uid != uid and (own or info.st_uid != 0):
        raise UnsafeCacheError(f"{where} belongs to user id {info.st_uid}, not to this user")
    if info.st_mode & 0o022:
        sticky_root = info.st_uid == 0 and info.st_mode & stat.S_ISVTX
        if own or not sticky_root:
            raise UnsafeCacheError(f"{where} is writable by other users "
                                   f"(mode {oct(info.st_mode & 0o7777)})")


def open_private_folder(cache_dir: Path, *, create: bool = True) -> int:
    """Open ``<cache_dir>/road-graphs`` as a descriptor that no other user can affect.

    Each folder from ``/`` down is opened relative to its parent's descriptor with
    ``O_NOFOLLOW | O_DIRECTORY`` (links in the cache path are resolved once, up front,
    by :func:`os.path.realpath`; a link planted later is refused) and checked with
    ``fstat``: owned by this user or root and not writable by others, except a
    root-owned sticky folder on the way (``/tmp``); the cache root and ``road-graphs``
    must be this user's own and writable by no one else.

    Parameters
    ----------
    cache_dir : pathlib.Path
        The cache root.
    create : bool
        Create a missing cache root and ``road-graphs`` (mode 0700).

    Returns
    -------
    int
        A descriptor of ``road-graphs``; the caller closes it.

    Raises
    ------
    UnsafeCacheError
        A folder on the way fails a check (a :class:`PermissionError`).
    OSError
        A folder is missing (``create`` false) or cannot be made.
    """
    root = Path(os.path.realpath(cache_dir))
    parts = [*root.parts[1:], SUBDIR]
    own_from = len(root.parts) - 1  # the cache root and road-graphs must be ours
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open("/", flags)
    try:
        _check_folder(fd, "/", own=False)
        where = Path("/")
        for depth, name in enumerate(parts):
            where = where / name
            try:
                child = os.open(name, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o700, dir_fd=fd)
                child = os.open(name, flags, dir_fd=fd)
            except OSError as exc:
                raise UnsafeCacheError(f"{where} is a link or not a folder "
                                       f"({exc.strerror})") from None
            os.close(fd)
            fd = child
            _check_folder(fd, str(where), own=depth >= own_from)
        return fd
    except BaseException:
        os.close(fd)
        raise


def read_private_file(folder_fd: int, name: str) -> bytes | None:
    """The bytes of ``name`` in a checked folder, if it is a safe regular file.

    Opened with ``O_NOFOLLOW`` relative to ``folder_fd`` and checked on the open file:
    a regular file of this user's that no one else may write. None when it is
    missing or fails a check.
    """
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK,
                     dir_fd=folder_fd)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid()
                or info.st_mode & 0o022):
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read()
    finally:
        os.close(fd)


def write_private_file(folder_fd: int, name: str, data: bytes) -> None:
    """Write ``name`` in a checked folder atomically (a temporary file, then a rename)."""
    tmp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600, dir_fd=folder_fd)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.rename(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder_fd)
        raise


def cached_road_graph(extract: Extract, cache_dir: Path, *, legal: bool = True,
                      build: Any = None) -> nx.MultiDiGraph:
    """The road graph of an extract, from the cache or built and cached.

    Parameters
    ----------
    extract : Extract
        The extract (its SHA-256 names the file).
    cache_dir : pathlib.Path
        Cache root.
    legal : bool, optional
        The legal graph (default) or the reader's (see
        :func:`groundtruth.graph.build_road_graph`).
    build : callable, optional
        ``(extract, legal=...) -> graph`` used on a miss; default
        :func:`groundtruth.graph.load_road_graph`.

    Returns
    -------
    networkx.MultiDiGraph
        The same graph :func:`groundtruth.graph.load_road_graph` returns.
    """
    path = graph_path(cache_dir, extract, legal=legal)
    if os.environ.get("CARTOQA_MUTATION"):
        # scripts/mutation.py: mutmut keeps every mutant in one source (the fingerprint
        # cannot tell them apart), so a mutant must never read another's graph
        path = None
    folder: int | None = None
    if path is not None:
        try:
            # a pickle runs code when loaded: read and write only through descriptors of
            # folders nobody else may write (a shared $CARTOQA_CACHE is refused as a whole)
            folder = open_private_folder(cache_dir)
        except OSError:  # UnsafeCacheError included
            folder = None
    try:
        if folder is not None and path is not None:
            data = read_private_file(folder, path.name)
            if data is not None:
                try:
                    graph: nx.MultiDiGraph = pickle.loads(data)
                except Exception:  # a broken or foreign file: build it again below
                    pass
                else:
                    if graph.graph.get("extract_sha256") == extract.sha256:
                        return graph
        if build is None:
            build = load_road_graph
        graph = build(extract, legal=legal)
        if folder is not None and path is not None:
            with contextlib.suppress(OSError):  # a read-only cache: the build goes on
                write_private_file(folder, path.name,
                                   pickle.dumps(graph, protocol=pickle.HIGHEST_PROTOCOL))
        return graph
    finally:
        if folder is not None:
            os.close(folder)
