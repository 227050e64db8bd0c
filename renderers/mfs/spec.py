"""What one map-feature catalogue entry is: a tagged OSM feature and how OSM-Carto draws it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The three kinds of MFS features (CartoMapQA's strata).
Category = Literal["symbol", "line", "area"]
CATEGORIES: tuple[Category, ...] = ("symbol", "line", "area")

#: Side of a feature image in pixels (256: a line's width and pattern, and an area's
#: outline, span enough pixels to be told apart).
IMAGE_SIZE = 256


@dataclass(frozen=True)
class FeatureSpec:
    """One map feature as OSM-Carto draws it, before it is rendered.

    Parameters
    ----------
    feature_id : str
        Stable identifier, ``"<category>:<key>=<value>[;<key>=<value>...]"``.
    label : str
        The feature's everyday name, used as the answer option text.
    category : {"symbol", "line", "area"}
        How the feature appears on the map.
    osm_class : str
        The OSM key that makes it this feature (``amenity``, ``shop``, ``highway``...).
    tags : tuple of (str, str)
        The OSM tags that make OSM-Carto draw it (first the class tag).
    symbol : str or None
        For symbols, the SVG path relative to the OSM-Carto folder.
    fill : str or None
        For symbols, the colour OSM-Carto's ``MarkersSymbolizer`` paints it with.
    """

    feature_id: str
    label: str
    category: Category
    osm_class: str
    tags: tuple[tuple[str, str], ...]
    symbol: str | None = None
    fill: str | None = None

    @property
    def tag_dict(self) -> dict[str, str]:
        """Return the tags as a dictionary."""
        return dict(self.tags)


@dataclass(frozen=True)
class FeatureImage:
    """A rendered catalogue entry: the spec and its PNG bytes.

    Parameters
    ----------
    spec : FeatureSpec
        What is drawn.
    png : bytes
        The image, as OSM-Carto draws the feature in isolation.
    """

    spec: FeatureSpec
    png: bytes


def feature_id(category: str, tags: tuple[tuple[str, str], ...]) -> str:
    """Return the identifier of a feature from its category and tags.

    Parameters
    ----------
    category : str
        ``symbol``, ``line`` or ``area``.
    tags : tuple of (str, str)
        The feature's tags, class tag first.

    Returns
    -------
    str
        For example ``"symbol:amenity=pharmacy"``.

    Examples
    --------
    >>> feature_id("line", (("highway", "primary"),))
    'line:highway=primary'
    """
    return f"{category}:" + ";".join(f"{k}={v}" for k, v in tags)
