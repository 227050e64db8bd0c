"""Zonings: which zone each region belongs to, and the regions of a zone.

A zoning is a plain ``dict`` region -> zone name (for US states see
:func:`groundtruth.thematic.us_states.us_zones`). A *scope* is either a zone name or
``None`` for the whole map (MapIQ's global scale).
"""

from __future__ import annotations

from collections.abc import Mapping


def zone_members(zoning: Mapping[str, str], zone: str | None) -> list[str]:
    """The regions of ``zone`` (all regions when ``zone`` is None), sorted.

    Parameters
    ----------
    zoning : mapping of str to str
        Region -> its zone.
    zone : str or None
        The zone.

    Returns
    -------
    list of str
        Its regions, sorted.

    Raises
    ------
    ValueError
        For a zone with no region.

    Examples
    --------
    >>> zone_members({"a": "N", "b": "S", "c": "N"}, "N")
    ['a', 'c']
    >>> zone_members({"a": "N", "b": "S"}, None)
    ['a', 'b']
    """
    members = sorted(r for r, z in zoning.items() if zone is None or z == zone)
    if not members:
        raise ValueError(f"zone {zone!r} has no region")
    return members


def zone_names(zoning: Mapping[str, str]) -> list[str]:
    """Zone names in order of first appearance.

    Parameters
    ----------
    zoning : mapping of str to str
        Region -> its zone.

    Returns
    -------
    list of str
        The distinct zones.

    Examples
    --------
    >>> zone_names({"a": "N", "b": "S", "c": "N"})
    ['N', 'S']
    """
    return list(dict.fromkeys(zoning.values()))


def zone_mean_class(classes: Mapping[str, int], zoning: Mapping[str, str], zone: str) -> float:
    """Mean class of the regions of a zone (MapIQ's "generally higher" comparison).

    Parameters
    ----------
    classes : mapping of str to int
        Region -> its class.
    zoning : mapping of str to str
        Region -> its zone.
    zone : str
        The zone.

    Returns
    -------
    float
        The mean class of the zone's regions.

    Examples
    --------
    >>> zone_mean_class({"a": 1, "b": 5, "c": 4}, {"a": "N", "b": "S", "c": "N"}, "N")
    2.5
    """
    members = zone_members(zoning, zone)
    return sum(classes[r] for r in members) / len(members)
