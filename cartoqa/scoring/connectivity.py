"""SRN connectivity through the road graph of :mod:`groundtruth`.

The scorer only needs a callable ``is_connected(item, steps) -> bool | None``
(:data:`~cartoqa.declarations.records.ConnectivityChecker`). :class:`RoadGraphChecker`
provides one: it loads the road graph of the item's extract (once per extract, checked
against the item's ``extract_sha256``), finds the blue and red marker nodes in the
item's provenance, maps predicted road names onto the graph's names with the scoring
name rule, and asks :func:`groundtruth.turns.steps_connect`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cartoqa.declarations.records import ConnectivityChecker
from cartoqa.metrics import normalise_name
from cartoqa.parsing import canonical_action, canonical_marker

#: ``load_graph(source) -> (graph, sha256)`` for a bundled extract name or a file path.
GraphLoader = Callable[[str], tuple[Any, str]]
#: ``steps_connect(graph, steps, origin, destination) -> bool``.
StepsConnect = Callable[[Any, Sequence[str], int, int], bool]


def marker_nodes(item: Mapping[str, Any]) -> tuple[int, int] | None:
    """The graph nodes of an SRN item's origin (blue) and destination (red).

    Taken from the ``node`` of the blue and red ``provenance.markers``, else from the
    ends of ``provenance.route_nodes``.

    Parameters
    ----------
    item : mapping
        An SRN item.

    Returns
    -------
    tuple of int or None
        ``(origin, destination)``, or ``None`` when the provenance lacks them.
    """
    provenance = item.get("provenance") or {}
    nodes: dict[str, int] = {}
    for marker in provenance.get("markers") or []:
        if isinstance(marker, Mapping) and marker.get("node") is not None:
            nodes.setdefault(str(marker.get("color")), int(marker["node"]))
    if "blue" in nodes and "red" in nodes:
        return nodes["blue"], nodes["red"]
    route = provenance.get("route_nodes") or []
    if len(route) >= 2:
        return int(route[0]), int(route[-1])
    return None


def _default_loader() -> tuple[GraphLoader, StepsConnect]:
    # imported here, not at start-up: loads osmnx, networkx, shapely (~2 s)
    from groundtruth.extracts import resolve_extract
    from groundtruth.graph import load_road_graph
    from groundtruth.turns import steps_connect

    def load(source: str) -> tuple[Any, str]:
        extract = resolve_extract(source)
        return load_road_graph(extract), extract.sha256

    return load, steps_connect


class RoadGraphChecker:
    """Connectivity of predicted SRN routes in the road graph of each item's extract.

    Parameters
    ----------
    extracts : mapping of str to str, optional
        Where to find extracts: item ``provenance.extract`` name (or its sha256) to a
        file path. Names not listed are resolved as bundled extracts (``helsinki``).
    load_graph : callable, optional
        ``load_graph(source) -> (graph, sha256)``; defaults to :mod:`groundtruth`.
    steps_connect : callable, optional
        ``steps_connect(graph, steps, origin, destination) -> bool``; defaults to
        :func:`groundtruth.turns.steps_connect`.

    Notes
    -----
    An instance is a :data:`~cartoqa.declarations.records.ConnectivityChecker`. It returns
    ``None`` (not checked) when the extract cannot be loaded, its checksum differs from
    the item's ``extract_sha256``, or the item records no marker nodes.
    """

    def __init__(
        self,
        *,
        extracts: Mapping[str, str] | None = None,
        load_graph: GraphLoader | None = None,
        steps_connect: StepsConnect | None = None,
    ) -> None:
        if load_graph is None or steps_connect is None:
            default_load, default_connect = _default_loader()
            load_graph = load_graph or default_load
            steps_connect = steps_connect or default_connect
        self._extracts = dict(extracts or {})
        self._load = load_graph
        self._connect = steps_connect
        self._graphs: dict[str, tuple[Any, str, dict[str, str]] | None] = {}
        self.problems: dict[str, str] = {}

    def _graph(self, item: Mapping[str, Any]) -> tuple[Any, dict[str, str]] | None:
        provenance = item.get("provenance") or {}
        name = str(provenance.get("extract") or "")
        sha = str(provenance.get("extract_sha256") or "")
        source = self._extracts.get(sha) or self._extracts.get(name) or name
        if not source:
            return None
        if source not in self._graphs:
            try:
                graph, loaded_sha = self._load(source)
            except Exception as exc:  # any failure to load means "cannot check"
                self.problems[source] = (f"connectivity: cannot load extract {source!r} ({exc}); "
                                         "give its file with --extract FILE")
                self._graphs[source] = None
            else:
                names: dict[str, str] = {}
                for _, _, data in graph.edges(data=True):
                    label = data.get("name")
                    if isinstance(label, list):
                        label = label[0] if label else None
                    if label:
                        names.setdefault(normalise_name(str(label)), str(label))
                self._graphs[source] = (graph, loaded_sha, names)
        entry = self._graphs[source]
        if entry is None:
            return None
        graph, loaded_sha, names = entry
        if sha and loaded_sha and sha != loaded_sha:
            self.problems[source] = (f"connectivity: extract {source!r} has sha256 "
                                     f"{loaded_sha[:12]}, the dataset was built from {sha[:12]}")
            return None
        return graph, names

    def __call__(self, item: Mapping[str, Any], steps: Sequence[str]) -> bool | None:
        """Whether ``steps`` connect the item's markers; ``None`` when it cannot tell."""
        nodes = marker_nodes(item)
        if nodes is None:
            return None
        loaded = self._graph(item)
        if loaded is None:
            return None
        graph, names = loaded
        mapped = []
        for step in steps:
            if canonical_marker(step) or canonical_action(step):
                mapped.append(canonical_marker(step) or canonical_action(step) or step)
            else:
                mapped.append(names.get(normalise_name(step), step))
        return bool(self._connect(graph, mapped, nodes[0], nodes[1]))


def groundtruth_checker(
    extracts: Mapping[str, str] | None = None,
) -> tuple[ConnectivityChecker | None, str | None]:
    """The :mod:`groundtruth` connectivity check, if that library provides it.

    Parameters
    ----------
    extracts : mapping of str to str, optional
        Extract name (or sha256) to file path, for extracts that are not bundled.

    Returns
    -------
    tuple
        ``(checker, None)``, or ``(None, reason)`` when groundtruth lacks the check.
    """
    try:
        checker = RoadGraphChecker(extracts=extracts)
    except ImportError as exc:
        return None, f"connectivity not computed: groundtruth road-graph check unavailable ({exc})"
    return checker, None


def extract_map(paths: Sequence[str | Path]) -> dict[str, str]:
    """Map extract files given on the command line to the names datasets record.

    Parameters
    ----------
    paths : sequence of str or pathlib.Path
        Extract files.

    Returns
    -------
    dict of str to str
        File name (``provenance.extract`` of a user extract) to path.
    """
    return {Path(p).name: str(p) for p in paths}
