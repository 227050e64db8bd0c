"""Hand formulas for geodesic lengths on WGS84, independent of pyproj (for the tests)."""

from __future__ import annotations

import math

# WGS84, for the hand computations below.
A = 6378137.0
F = 1 / 298.257223563
E2 = F * (2 - F)


def meridian_m(lat1: float, lat2: float) -> float:
    """Hand formula: length of a meridian arc, M(mid-latitude) * dphi.

    M = a (1 - e^2) / (1 - e^2 sin^2 phi)^(3/2). Over a few hundred metres the
    midpoint rule is exact to well under a micrometre.
    """
    phi = math.radians((lat1 + lat2) / 2)
    m = A * (1 - E2) / (1 - E2 * math.sin(phi) ** 2) ** 1.5
    return m * abs(math.radians(lat2 - lat1))


def parallel_m(lat: float, lon1: float, lon2: float) -> float:
    """Hand formula: east-west distance at one latitude, N cos(phi) * dlambda.

    N = a / sqrt(1 - e^2 sin^2 phi). Over a few hundred metres the geodesic is
    shorter than the parallel by far less than a micrometre.
    """
    phi = math.radians(lat)
    n = A / math.sqrt(1 - E2 * math.sin(phi) ** 2)
    return n * math.cos(phi) * abs(math.radians(lon2 - lon1))


def flat_m(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Hand formula for a short diagonal: Pythagoras on M dphi and N cos(phi) dlambda."""
    phi = math.radians((lat1 + lat2) / 2)
    w = 1 - E2 * math.sin(phi) ** 2
    m = A * (1 - E2) / w**1.5
    n = A / math.sqrt(w)
    dy = m * math.radians(lat2 - lat1)
    dx = n * math.cos(phi) * math.radians(lon2 - lon1)
    return math.hypot(dx, dy)
