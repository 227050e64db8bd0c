"""Derive the MFS feature catalogue from OSM-Carto's own style rules.

The rules (also written down in ``docs/mfs.md``):

Symbols
    Every SVG in a sub-folder of ``symbols/`` (except ``shields/``) that a
    ``MarkersSymbolizer`` uses. Of the rules that use a file, the one whose tag value
    equals the file's stem (else the first in the style) gives the OSM tags, and its
    ``fill`` is the colour the symbol is painted with. The tag comes from the rule's
    filter: ``[feature] = 'amenity_cafe'`` is split at the longest OSM key that
    osm2pgsql imports (``man_made_tower`` -> ``man_made=tower``), ``[feature] = 'shop'``
    takes the value of ``[shop]``; other string equalities (``[religion] = 'muslim'``)
    are kept as extra tags. The label is the file stem in words, unless
    :mod:`renderers.mfs.labels` names it better.
Lines
    The ``highway_*`` and ``railway_*`` features of the road fill style (without
    OSM-Carto's internal ``INT-`` and composite values and the platform/turntable
    areas), the ``[waterway]`` values of ``water-lines``, the ``barriers`` features,
    the power line layers and the administrative boundary levels that have an
    everyday name (2, 4, 6, 8).
Areas
    The features of ``landcover-high-zoom``, the water areas of ``water-areas`` and
    ``water-areas-natural``, and ``building=yes``.

Features whose tags or label repeat an earlier one are dropped (``historic=citywalls``
after ``barrier=city_wall``; the variant drawings ``level_crossing2.svg`` and
``power_tower_small.svg``) so that labels identify features.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from renderers.mfs.labels import label_for
from renderers.mfs.spec import Category, FeatureSpec, feature_id
from renderers.mfs.style_rules import StyleRule

#: ``symbols/`` sub-folders that hold no map features (road reference shields).
EXCLUDED_SYMBOL_DIRS = frozenset({"shields"})
#: Filter columns that are OSM-Carto internals or thresholds, not tags.
_NOT_TAGS = frozenset({"feature", "way_pixels", "access", "name", "height", "icao", "iata"})
#: Administrative levels kept as lines (those with an everyday name in labels.py).
ADMIN_LEVELS = ("2", "4", "6", "8")
#: Line layers without a filter: the tag each draws (from the layer's SQL in style.xml).
POWER_LINES = (("power", "line"), ("power", "minor_line"))


def split_feature(value: str, keys: Iterable[str]) -> tuple[str, str]:
    """Split an OSM-Carto ``feature`` value into an OSM key and value.

    Parameters
    ----------
    value : str
        For example ``"man_made_tower"`` or ``"amenity_cafe"``.
    keys : iterable of str
        Known OSM keys; the longest that prefixes ``value`` followed by ``_`` wins.

    Returns
    -------
    (str, str)
        Key and value. Without a known key the value is split at its first ``_``;
        without any ``_`` it is ``(value, "yes")``.

    Examples
    --------
    >>> split_feature("man_made_tower", ["man_made", "man"])
    ('man_made', 'tower')
    >>> split_feature("diplomatic_embassy", ["amenity"])
    ('diplomatic', 'embassy')
    """
    best = ""
    for key in keys:
        if value.startswith(key + "_") and len(key) > len(best):
            best = key
    if best:
        return best, value[len(best) + 1 :]
    if "_" in value:
        head, tail = value.split("_", 1)
        return head, tail
    return value, "yes"


def rule_tags(rule: StyleRule, keys: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """Return the OSM tags a rule's filter selects, class tag first.

    Parameters
    ----------
    rule : StyleRule
        A style rule.
    keys : iterable of str
        Known OSM keys (see :func:`split_feature`).

    Returns
    -------
    tuple of (str, str)
        Empty when the filter selects no tag.
    """
    eqs = rule.equals()
    tags: list[tuple[str, str]] = []
    feature = next((v for k, v in eqs if k == "feature"), None)
    if feature is not None:
        if feature in ("shop", "office"):
            value = next((v for k, v in eqs if k == feature), None)
            if value is None:
                return ()
            tags.append((feature, value))
        else:
            tags.append(split_feature(feature, list(keys)))
    for key, value in eqs:
        if key in _NOT_TAGS or key.startswith("int_") or any(key == k for k, _ in tags):
            continue
        tags.append((key, value))
    return tuple(tags)


def _symbol_stem(path: str) -> str:
    return PurePosixPath(path).stem


def symbol_specs(rules: Sequence[StyleRule], keys: Iterable[str]) -> list[FeatureSpec]:
    """Return one catalogue entry per map-feature symbol of the style.

    Parameters
    ----------
    rules : sequence of StyleRule
        The style's rules.
    keys : iterable of str
        Known OSM keys.

    Returns
    -------
    list of FeatureSpec
        Sorted by symbol path; category ``symbol``.
    """
    keys = list(keys)
    uses: dict[str, list[tuple[tuple[tuple[str, str], ...], str | None]]] = {}
    for rule in rules:
        for name, attrs in rule.symbolizers:
            path = attrs.get("file", "")
            parts = PurePosixPath(path).parts
            if name != "MarkersSymbolizer" or len(parts) != 3 or parts[0] != "symbols":
                continue
            if parts[1] in EXCLUDED_SYMBOL_DIRS or not path.endswith(".svg"):
                continue
            tags = rule_tags(rule, keys)
            if tags:
                uses.setdefault(path, []).append((tags, attrs.get("fill")))
    specs = []
    for path in sorted(uses):
        stem = _symbol_stem(path)
        candidates = uses[path]
        matching = [c for c in candidates if c[0][0][1] == stem]
        tags, fill = min(matching, key=lambda c: len(c[0])) if matching else candidates[0]
        specs.append(
            FeatureSpec(
                feature_id=feature_id("symbol", tags),
                label=label_for("symbol", tags, stem=stem),
                category="symbol",
                osm_class=tags[0][0],
                tags=tags,
                symbol=path,
                fill=fill,
            )
        )
    return _unique(specs)


def _feature_values(rules: Sequence[StyleRule], style: str) -> list[str]:
    seen: list[str] = []
    for rule in rules:
        if rule.style != style:
            continue
        for key, value in rule.equals():
            if key == "feature" and value not in seen:
                seen.append(value)
    return seen


def _column_values(rules: Sequence[StyleRule], style: str, column: str) -> list[str]:
    seen: list[str] = []
    for rule in rules:
        if rule.style == style:
            for key, value in rule.equals():
                if key == column and value not in seen:
                    seen.append(value)
    return seen


def _spec(category: Category, tags: tuple[tuple[str, str], ...]) -> FeatureSpec:
    return FeatureSpec(
        feature_id=feature_id(category, tags),
        label=label_for(category, tags),
        category=category,
        osm_class=tags[0][0],
        tags=tags,
    )


def line_specs(rules: Sequence[StyleRule], keys: Iterable[str]) -> list[FeatureSpec]:
    """Return one catalogue entry per line style (roads, railways, waterways, ...).

    Parameters
    ----------
    rules : sequence of StyleRule
        The style's rules.
    keys : iterable of str
        Known OSM keys.

    Returns
    -------
    list of FeatureSpec
        Category ``line``, in style order.
    """
    keys = list(keys)
    out: list[FeatureSpec] = []
    for value in _feature_values(rules, "roads-fill-fill"):
        key, val = split_feature(value, keys)
        if key not in ("highway", "railway") or "-" in val or val in ("platform", "turntable"):
            continue
        out.append(_spec("line", ((key, val),)))
    for val in _column_values(rules, "water-lines", "waterway"):
        out.append(_spec("line", (("waterway", val),)))
    for value in _feature_values(rules, "barriers"):
        out.append(_spec("line", (split_feature(value, keys),)))
    for tag in POWER_LINES:
        out.append(_spec("line", (tag,)))
    levels = _column_values(rules, "admin-high-zoom-firstline", "admin_level")
    for level in ADMIN_LEVELS:
        if level in levels:
            out.append(_spec("line", (("boundary", "administrative"), ("admin_level", level))))
    return _unique(out)


def area_specs(rules: Sequence[StyleRule], keys: Iterable[str]) -> list[FeatureSpec]:
    """Return one catalogue entry per area fill (land uses, parks, water, buildings, ...).

    Parameters
    ----------
    rules : sequence of StyleRule
        The style's rules.
    keys : iterable of str
        Known OSM keys.

    Returns
    -------
    list of FeatureSpec
        Category ``area``, in style order.
    """
    keys = list(keys)
    out: list[FeatureSpec] = []
    for value in _feature_values(rules, "landcover-high-zoom"):
        key, val = split_feature(value, keys)
        if key == "wetland":
            tags: tuple[tuple[str, str], ...] = (("natural", "wetland"), ("wetland", val))
        else:
            tags = ((key, val),)
        out.append(_spec("area", tags))
    for style in ("water-areas", "water-areas-natural"):
        for rule in rules:
            if rule.style != style:
                continue
            for key, val in rule.equals():
                if key in ("natural", "landuse", "waterway"):
                    out.append(_spec("area", ((key, val),)))
    out.append(_spec("area", (("building", "yes"),)))
    return _unique(out)


def _unique(specs: Iterable[FeatureSpec]) -> list[FeatureSpec]:
    """Drop entries whose id or label repeats an earlier one."""
    seen_ids: set[str] = set()
    seen_labels: set[str] = set()
    out = []
    for spec in specs:
        if spec.feature_id in seen_ids or spec.label in seen_labels:
            continue
        seen_ids.add(spec.feature_id)
        seen_labels.add(spec.label)
        out.append(spec)
    return out


def catalogue_specs(
    rules: Sequence[StyleRule],
    keys: Iterable[str],
    *,
    categories: Iterable[str] = ("symbol", "line", "area"),
) -> list[FeatureSpec]:
    """Return the whole catalogue for the chosen categories.

    Parameters
    ----------
    rules : sequence of StyleRule
        The style's rules.
    keys : iterable of str
        Known OSM keys.
    categories : iterable of str
        Any of ``symbol``, ``line``, ``area``.

    Returns
    -------
    list of FeatureSpec
        Symbols, then lines, then areas; labels are unique within a category.
    """
    keys = list(keys)
    wanted = set(categories)
    out: list[FeatureSpec] = []
    if "symbol" in wanted:
        out += symbol_specs(rules, keys)
    if "line" in wanted:
        out += line_specs(rules, keys)
    if "area" in wanted:
        out += area_specs(rules, keys)
    return out
