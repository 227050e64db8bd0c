"""Road graphs of an extract, built once per machine and kept in the cache.

Building the road graph of an extract reads the extract with pyosmium and imports
osmnx for its street count (about 1.3 CPU seconds of imports alone), and every build
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
that built it. A pickle runs code when it is loaded, so the ``road-graphs`` folder
must belong to this user and be writable by nobody else
(:func:`renderers.scratch.ensure_private_folder`); otherwise nothing is cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import groundtruth
from groundtruth.extracts import Extract
from groundtruth.graph import load_road_graph
from renderers.files import write_atomic
from renderers.scratch import ensure_private_folder

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
    if path is not None:
        try:
            # a pickle runs code when loaded: read and write only a folder of this
            # user's that nobody else may write (a shared $CARTOQA_CACHE is refused)
            path.parent.parent.mkdir(parents=True, exist_ok=True)
            ensure_private_folder(path.parent)
        except OSError:  # PermissionError included: a folder others may write
            path = None
    if path is not None and path.is_file():
        try:
            graph: nx.MultiDiGraph = pickle.loads(path.read_bytes())
        except Exception:  # a broken or foreign file: build it again below
            pass
        else:
            if graph.graph.get("extract_sha256") == extract.sha256:
                return graph
    if build is None:
        build = load_road_graph
    graph = build(extract, legal=legal)
    if path is not None:
        with contextlib.suppress(OSError):  # a read-only cache: the build goes on
            write_atomic(path, pickle.dumps(graph, protocol=pickle.HIGHEST_PROTOCOL))
    return graph
