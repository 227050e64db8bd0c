"""Zonings: which zone each region belongs to, and the regions of a zone.

A zoning is a plain ``dict`` region -> zone name (for US states see
:func:`groundtruth.thematic.us_states.us_zones`). A *scope* is either a zone name or
``None`` for the whole map (MapIQ's global scale).
"""

from __future__ import annotations

from collections.abc import Mapping


def zone_members(zoning: Mapping[str, str], zone: str | None) -> list[str]:
    """The regions of ``zone`` (all regions when ``zone`` is None), sorted.

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

    Examples
    --------
    >>> zone_names({"a": "N", "b": "S", "c": "N"})
    ['N', 'S']
    """
    return list(dict.fromkeys(zoning.values()))


def zone_mean_class(classes: Mapping[str, int], zoning: Mapping[str, str], zone: str) -> float:
    """Mean class of the regions of a zone (MapIQ's "generally higher" comparison).

    Examples
    --------
    >>> zone_mean_class({"a": 1, "b": 5, "c": 4}, {"a": "N", "b": "S", "c": "N"}, "N")
    2.5
    """
    members = zone_members(zoning, zone)
    return sum(classes[r] for r in members) / len(members)
