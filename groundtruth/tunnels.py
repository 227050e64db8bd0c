"""Which roads OSM-Carto draws as tunnels (pure).

OSM-Carto's ``tunnels`` layer (``project.mml``) selects the ways with ``tunnel = 'yes'
OR tunnel = 'building_passage' OR covered = 'yes'`` and draws them pale with a dashed
casing; the normal road layers leave them out. A route drawn over such a way hides the
little there is to see of it: the reader sees a path crossing buildings or blocks, not
a road (rle-0007 of seed 2718, through the Kluuvi parking tunnel).
"""

from __future__ import annotations

from collections.abc import Mapping

#: ``tunnel=*`` values OSM-Carto draws in its ``tunnels`` layer (besides ``covered=yes``).
TUNNEL_VALUES: frozenset[str] = frozenset({"yes", "building_passage"})


def drawn_as_tunnel(tags: Mapping[str, str]) -> bool:
    """Whether OSM-Carto draws a road with these tags as a tunnel.

    Examples
    --------
    >>> drawn_as_tunnel({"highway": "service", "tunnel": "yes", "layer": "-2"})
    True
    >>> drawn_as_tunnel({"highway": "unclassified", "tunnel": "building_passage"})
    True
    >>> drawn_as_tunnel({"highway": "service", "covered": "yes"})
    True
    >>> drawn_as_tunnel({"highway": "primary", "tunnel": "no", "layer": "-1"})
    False
    """
    return tags.get("tunnel") in TUNNEL_VALUES or tags.get("covered") == "yes"
