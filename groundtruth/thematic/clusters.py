"""MapIQ's spatial clusters.

A cluster is a set of at least ``min_size`` (3) regions of class 1 (lowest) or class
``k`` (highest), connected under queen adjacency without leaving the set; several
clusters may exist in one class. Local (zone) clusters use only the zone's regions and
the adjacency among them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

#: MapIQ's minimum cluster size.
MIN_CLUSTER_SIZE = 3


@dataclass(frozen=True)
class Cluster:
    """One spatial cluster.

    Attributes
    ----------
    cls : int
        Its class (1 or k).
    regions : tuple of str
        Its regions, sorted.
    """

    cls: int
    regions: tuple[str, ...]


def components(regions: Iterable[str], adjacency: Mapping[str, Iterable[str]]) -> list[
        tuple[str, ...]]:
    """Connected components of ``regions`` using only edges inside the set.

    Parameters
    ----------
    regions : iterable of str
        The regions grouped.
    adjacency : mapping of str to iterable of str
        Region -> its neighbours.

    Returns
    -------
    list of tuple of str
        Each component's regions, sorted; the components sorted.

    Examples
    --------
    >>> adj = {"a": {"b"}, "b": {"a", "c"}, "c": {"b"}, "d": set()}
    >>> components(["a", "c", "d"], adj)
    [('a',), ('c',), ('d',)]
    >>> components(["a", "b", "c"], adj)
    [('a', 'b', 'c')]
    """
    todo = set(regions)
    out: list[tuple[str, ...]] = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        stack, comp = [start], [start]
        while stack:
            r = stack.pop()
            for n in adjacency.get(r, ()):
                if n in todo:
                    todo.discard(n)
                    stack.append(n)
                    comp.append(n)
        out.append(tuple(sorted(comp)))
    return sorted(out)


def extreme_clusters(classes: Mapping[str, int], adjacency: Mapping[str, Iterable[str]],
                     k: int = 5, scope: Iterable[str] | None = None,
                     min_size: int = MIN_CLUSTER_SIZE,
                     which: tuple[int, ...] | None = None) -> list[Cluster]:
    """Clusters of class 1 and class ``k`` regions within ``scope`` (all regions if None).

    Parameters
    ----------
    classes : mapping
        Region -> class 1..k.
    adjacency : mapping
        Region -> queen neighbours.
    k : int
        Highest class.
    scope : iterable of str, optional
        Regions considered (a zone's members); edges leaving it are not used.
    min_size : int
        Smallest cluster.
    which : tuple of int, optional
        Classes to look at; default ``(1, k)``.

    Returns
    -------
    list of Cluster
        Sorted by class, then regions.

    Examples
    --------
    >>> adj = {"a": {"b"}, "b": {"a", "c"}, "c": {"b", "d"}, "d": {"c"}, "e": set()}
    >>> extreme_clusters({"a": 5, "b": 5, "c": 5, "d": 1, "e": 5}, adj)
    [Cluster(cls=5, regions=('a', 'b', 'c'))]
    >>> extreme_clusters({"a": 5, "b": 5, "c": 5, "d": 1, "e": 5}, adj, scope="abde")
    []
    """
    inside = set(classes) if scope is None else set(scope)
    out: list[Cluster] = []
    for cls in which or (1, k):
        members = [r for r in inside if classes[r] == cls]
        out.extend(Cluster(cls, comp) for comp in components(members, adjacency)
                   if len(comp) >= min_size)
    return sorted(out, key=lambda c: (c.cls, c.regions))


def clustered_regions(clusters: Iterable[Cluster], cls: int | None = None) -> list[str]:
    """Regions in any of ``clusters`` (of class ``cls`` when given), sorted.

    Parameters
    ----------
    clusters : iterable of Cluster
        The clusters.
    cls : int, optional
        Keep only the clusters of this class.

    Returns
    -------
    list of str
        Their regions, sorted.

    Examples
    --------
    >>> clustered_regions([Cluster(5, ("a", "b", "c")), Cluster(1, ("x", "y", "z"))], 5)
    ['a', 'b', 'c']
    """
    return sorted({r for c in clusters if cls is None or c.cls == cls for r in c.regions})
