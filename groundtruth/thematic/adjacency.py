"""Queen adjacency from geometry: two regions are neighbours when they share a border
or only a vertex (e.g. the Four Corners: Utah and New Mexico, Arizona and Colorado).

Boundaries drawn from one topology (TopoJSON arcs, as in us-atlas) share exact
vertices, so an exact intersection test finds every neighbour; ``tolerance`` (in the
geometry's units) widens it for boundaries from separate sources.
"""

from __future__ import annotations

from collections.abc import Mapping

from shapely import STRtree
from shapely.geometry.base import BaseGeometry


def queen_adjacency(geoms: Mapping[str, BaseGeometry], tolerance: float = 0.0) -> dict[
        str, frozenset[str]]:
    """Queen neighbours of each region.

    Parameters
    ----------
    geoms : mapping
        Region -> polygon or multipolygon.
    tolerance : float
        Regions closer than this count as touching (0: they must intersect).

    Returns
    -------
    dict
        Region -> frozenset of neighbours (symmetric, no self-loops).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> adj = queen_adjacency({"a": box(0, 0, 1, 1), "b": box(1, 0, 2, 1),
    ...                        "c": box(1, 1, 2, 2), "d": box(5, 5, 6, 6)})
    >>> sorted(adj["a"]), sorted(adj["c"]), sorted(adj["d"])
    (['b', 'c'], ['a', 'b'], [])
    """
    keys = sorted(geoms)
    shapes = [geoms[k] for k in keys]
    tree = STRtree(shapes)
    out: dict[str, set[str]] = {k: set() for k in keys}
    for i, shape in enumerate(shapes):
        query = shape.buffer(tolerance) if tolerance > 0 else shape
        for j in tree.query(query, predicate="intersects"):
            j = int(j)
            if j != i:
                out[keys[i]].add(keys[j])
                out[keys[j]].add(keys[i])
    return {k: frozenset(v) for k, v in out.items()}


def restrict(adjacency: Mapping[str, frozenset[str]], regions: set[str] | frozenset[str]) -> dict[
        str, frozenset[str]]:
    """The adjacency among ``regions`` only (edges leaving the set are dropped).

    Parameters
    ----------
    adjacency : mapping of str to frozenset of str
        Region -> its neighbours.
    regions : set of str
        The regions kept.

    Returns
    -------
    dict of str to frozenset of str
        Each kept region -> its neighbours among the kept regions.

    Examples
    --------
    >>> restrict({"a": frozenset("b"), "b": frozenset("ac"), "c": frozenset("b")}, {"a", "b"})
    {'a': frozenset({'b'}), 'b': frozenset({'a'})}
    """
    return {r: frozenset(n & regions) for r, n in adjacency.items() if r in regions}


def shared_border_adjacency(geoms: Mapping[str, BaseGeometry], min_length: float,
                            adjacency: Mapping[str, frozenset[str]] | None = None) -> dict[
        str, frozenset[str]]:
    """Neighbours that share a border at least ``min_length`` long (in the geometry's
    units): what a reader sees as bordering. Corner contacts (the Four Corners) and
    slivers (an enclave's few-kilometre border, such as Mahe of Puducherry inside
    Kerala) drop out.

    Parameters
    ----------
    geoms : mapping
        Region -> polygon or multipolygon, in a projected CRS.
    min_length : float
        Shortest shared border that counts.
    adjacency : mapping, optional
        Queen adjacency to filter (default: computed from ``geoms``).

    Examples
    --------
    >>> from shapely.geometry import box
    >>> adj = shared_border_adjacency({"a": box(0, 0, 1, 1), "b": box(1, 0, 2, 1),
    ...                                "c": box(1, 1, 2, 2)}, 0.5)
    >>> sorted(adj["a"]), sorted(adj["c"])
    (['b'], ['b'])
    """
    queen = adjacency if adjacency is not None else queen_adjacency(geoms)
    out: dict[str, set[str]] = {k: set() for k in geoms}
    for a in sorted(geoms):
        for b in queen.get(a, frozenset()):
            if a < b and b in geoms:
                shared = geoms[a].boundary.intersection(geoms[b].boundary).length
                if shared >= min_length:
                    out[a].add(b)
                    out[b].add(a)
    return {k: frozenset(v) for k, v in out.items()}
