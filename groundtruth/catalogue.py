"""The catalogue of the 22 CartoMapQA map-feature types (``assets/feature_types.json``).

Each type names its OSM tags, how OSM-Carto draws it (``symbol``, ``line`` or
``area``), its OSM-Carto icon and colour, and the zooms at which OSM-Carto draws it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from groundtruth.assets import asset_path
from groundtruth.errors import GroundTruthError

#: Where Debian's ``openstreetmap-carto-common`` installs the OSM-Carto icons.
OSM_CARTO_SYMBOLS_DIR = Path("/usr/share/openstreetmap-carto-common/symbols")
#: The three ways OSM-Carto draws a feature type (CartoMapQA's MFS categories).
KINDS: tuple[str, ...] = ("symbol", "line", "area")
#: Catalogue file name under ``assets/``.
CATALOGUE_FILE = "feature_types.json"


@dataclass(frozen=True)
class FeatureType:
    """One map-feature type.

    Attributes
    ----------
    name : str
        Type name as CartoMapQA words it (``"coffee shop"``, ``"ATM"``).
    kind : str
        ``"symbol"``, ``"line"`` or ``"area"``.
    tags : tuple of dict
        Alternatives; an object matches when all tags of one alternative match
        (value ``"*"`` matches any value).
    icon : str or None
        Icon file relative to :data:`OSM_CARTO_SYMBOLS_DIR` (symbols only).
    color : str
        OSM-Carto fill colour of the icon, line or area (``#rrggbb``).
    zooms : tuple of int
        Zoom levels (up to 19) at which OSM-Carto draws the type.
    osm_carto_rule : str
        Where in OSM-Carto's style the drawing rule is (for reviewers).
    label_tag : str
        The tag OSM-Carto writes as the feature's label: ``name``, except for ATMs,
        labelled with their ``operator``. A feature's name is this tag (names as written).
    """

    name: str
    kind: str
    tags: tuple[Mapping[str, str], ...]
    icon: str | None
    color: str
    zooms: tuple[int, ...]
    osm_carto_rule: str = ""
    label_tag: str = "name"

    def matches(self, tags: Mapping[str, str]) -> bool:
        """Whether an OSM object with these tags is of this type.

        Parameters
        ----------
        tags : mapping
            The object's OSM tags.

        Returns
        -------
        bool
            True when every tag of at least one alternative matches.

        Examples
        --------
        >>> ft = FeatureType("clothes shop", "symbol", ({"shop": "clothes"},
        ...                  {"shop": "fashion"}), "shop/clothes.svg", "#ac39ac", (18, 19))
        >>> ft.matches({"shop": "fashion", "name": "X"}), ft.matches({"shop": "shoes"})
        (True, False)
        """
        return any(
            all(k in tags and (v == "*" or tags[k] == v) for k, v in alt.items())
            for alt in self.tags
        )

    @property
    def min_zoom(self) -> int:
        """Lowest zoom at which OSM-Carto draws the type."""
        return min(self.zooms)

    def drawn_at(self, zoom: int) -> bool:
        """Whether OSM-Carto draws the type at a zoom.

        Parameters
        ----------
        zoom : int
            Zoom level.

        Returns
        -------
        bool
        """
        return zoom in self.zooms

    def icon_path(self) -> Path | None:
        """Absolute path of the OSM-Carto icon.

        Returns
        -------
        pathlib.Path or None
            Under :data:`OSM_CARTO_SYMBOLS_DIR`; None for lines and areas.
        """
        return OSM_CARTO_SYMBOLS_DIR / self.icon if self.icon else None


def parse_catalogue(doc: Mapping[str, object]) -> tuple[FeatureType, ...]:
    """Validate and convert a parsed catalogue document (pure).

    Parameters
    ----------
    doc : mapping
        The JSON object with a ``types`` list.

    Returns
    -------
    tuple of FeatureType

    Raises
    ------
    GroundTruthError
        If an entry lacks a field, has an unknown kind, or a name repeats.
    """
    entries = doc.get("types")
    if not isinstance(entries, list) or not entries:
        raise GroundTruthError("the feature catalogue has no 'types' list")
    out: list[FeatureType] = []
    seen: set[str] = set()
    for entry in entries:
        try:
            ft = FeatureType(
                name=str(entry["name"]),
                kind=str(entry["kind"]),
                tags=tuple(dict(alt) for alt in entry["tags"]),
                icon=entry.get("icon"),
                color=str(entry["color"]),
                zooms=tuple(int(z) for z in entry["zooms"]),
                osm_carto_rule=str(entry.get("osm_carto_rule", "")),
                label_tag=str(entry.get("label_tag", "name")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise GroundTruthError(f"malformed feature catalogue entry {entry!r}: {exc}") from exc
        if ft.kind not in KINDS or not ft.tags or not ft.zooms:
            raise GroundTruthError(f"feature type {ft.name!r}: bad kind, tags or zooms")
        if ft.name.casefold() in seen:
            raise GroundTruthError(f"feature type {ft.name!r} is listed twice")
        seen.add(ft.name.casefold())
        out.append(ft)
    return tuple(out)


@lru_cache(maxsize=4)
def load_catalogue(path: Path | None = None) -> tuple[FeatureType, ...]:
    """Read the feature catalogue.

    Parameters
    ----------
    path : pathlib.Path, optional
        A catalogue file; the shipped ``assets/feature_types.json`` by default.

    Returns
    -------
    tuple of FeatureType
        In catalogue order (22 types for the shipped file).

    Examples
    --------
    >>> len(load_catalogue())
    22
    """
    file = path or asset_path(CATALOGUE_FILE)
    try:
        doc = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise GroundTruthError(f"cannot read the feature catalogue {file}: {exc}") from exc
    return parse_catalogue(doc)


def feature_type_names(catalogue: Sequence[FeatureType] | None = None) -> list[str]:
    """Names of the feature types, in catalogue order.

    Parameters
    ----------
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    list of str

    Examples
    --------
    >>> feature_type_names()[:3]
    ['convenience store', 'supermarket', 'pharmacy']
    """
    return [ft.name for ft in (catalogue or load_catalogue())]


def get_feature_type(name: str, catalogue: Sequence[FeatureType] | None = None) -> FeatureType:
    """Look up a feature type by name, ignoring case.

    Parameters
    ----------
    name : str
        Type name, e.g. ``"coffee shop"``.
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    FeatureType

    Raises
    ------
    GroundTruthError
        For an unknown name.

    Examples
    --------
    >>> get_feature_type("atm").icon
    'amenity/atm.svg'
    """
    wanted = name.strip().casefold()
    for ft in catalogue or load_catalogue():
        if ft.name.casefold() == wanted:
            return ft
    raise GroundTruthError(
        f"unknown feature type {name!r}",
        "choose one of: " + ", ".join(feature_type_names(catalogue)),
    )


def match_feature_types(
    tags: Mapping[str, str], catalogue: Sequence[FeatureType] | None = None
) -> list[FeatureType]:
    """All catalogue types that an object with these tags belongs to.

    Parameters
    ----------
    tags : mapping
        The object's OSM tags.
    catalogue : sequence of FeatureType, optional
        Feature types; the shipped catalogue by default.

    Returns
    -------
    list of FeatureType
        In catalogue order; empty when none matches.

    Examples
    --------
    >>> [ft.name for ft in match_feature_types({"amenity": "cafe"})]
    ['coffee shop']
    """
    return [ft for ft in (catalogue or load_catalogue()) if ft.matches(tags)]
