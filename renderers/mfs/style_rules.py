"""Read OSM-Carto's Mapnik ``style.xml`` into plain rules: style name, filter, symbolizers.

The MFS catalogue is derived from these rules (see :mod:`renderers.mfs.catalogue_specs`).
Everything here is a pure function of the XML text except :func:`read_carto_keys` and
:func:`load_style_rules`, which read the installed files.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from renderers.errors import RenderError
from renderers.style import CARTO_DIR

_CONDITION = re.compile(r"\[([^\]]+)\]\s*(=|!=|>=|<=|>|<)\s*('(?:[^']*)'|[^)\s]+)")


@dataclass(frozen=True)
class Condition:
    """One comparison in a Mapnik filter, e.g. ``[feature] = 'amenity_cafe'``.

    Parameters
    ----------
    key : str
        The column compared.
    op : str
        ``=``, ``!=``, ``<``, ``<=``, ``>`` or ``>=``.
    value : str
        The right-hand side, unquoted when it was a quoted string.
    quoted : bool
        Whether the right-hand side was a quoted string.
    """

    key: str
    op: str
    value: str
    quoted: bool


@dataclass(frozen=True)
class StyleRule:
    """One ``<Rule>`` of a ``<Style>``.

    Parameters
    ----------
    style : str
        The ``name`` of the enclosing ``<Style>``.
    conditions : tuple of Condition
        The comparisons of its ``<Filter>`` (empty when it has none).
    symbolizers : tuple of (str, dict)
        Each symbolizer's element name and attributes, in document order.
    """

    style: str
    conditions: tuple[Condition, ...]
    symbolizers: tuple[tuple[str, dict[str, str]], ...]

    def equals(self) -> list[tuple[str, str]]:
        """Return the ``[key] = 'value'`` conditions as ``(key, value)`` pairs."""
        return [(c.key, c.value) for c in self.conditions if c.op == "=" and c.quoted]


def parse_filter(text: str) -> tuple[Condition, ...]:
    """Return the comparisons of a Mapnik filter expression.

    Parameters
    ----------
    text : str
        For example ``"([feature] = 'shop') and ([shop] = 'books')"``.

    Returns
    -------
    tuple of Condition
        In the order they appear; ``or``/``not`` structure is not kept.

    Examples
    --------
    >>> [(c.key, c.op, c.value) for c in parse_filter("([feature] = 'shop') and ([height] > 5)")]
    [('feature', '=', 'shop'), ('height', '>', '5')]
    """
    out = []
    for m in _CONDITION.finditer(text):
        raw = m.group(3)
        quoted = raw.startswith("'")
        out.append(Condition(m.group(1), m.group(2), raw.strip("'") if quoted else raw, quoted))
    return tuple(out)


def parse_style_rules(xml_text: str) -> list[StyleRule]:
    """Return every rule of every style in a Mapnik XML document.

    Parameters
    ----------
    xml_text : str
        The content of ``style.xml``.

    Returns
    -------
    list of StyleRule
        In document order.
    """
    root = ET.fromstring(xml_text)
    rules: list[StyleRule] = []
    for style in root.iter("Style"):
        name = style.get("name", "")
        for rule in style.iter("Rule"):
            filt = rule.find("Filter")
            conditions = parse_filter(filt.text or "") if filt is not None else ()
            syms = tuple(
                (child.tag, dict(child.attrib))
                for child in rule
                if child.tag.endswith("Symbolizer")
            )
            rules.append(StyleRule(name, conditions, syms))
    return rules


def parse_carto_keys(style_text: str) -> frozenset[str]:
    """Return the OSM keys osm2pgsql imports as columns (from ``openstreetmap-carto.style``).

    Parameters
    ----------
    style_text : str
        The osm2pgsql style file: lines ``node,way  key  type  flags``.

    Returns
    -------
    frozenset of str
        The keys, e.g. ``{"amenity", "man_made", ...}``.

    Examples
    --------
    >>> sorted(parse_carto_keys("# c\\nnode,way amenity text\\nway landuse text linear"))
    ['amenity', 'landuse']
    """
    keys = set()
    for line in style_text.splitlines():
        parts = line.split()
        if len(parts) >= 3 and not parts[0].startswith("#"):
            keys.add(parts[1])
    return frozenset(keys)


def load_style_rules(carto_dir: Path = CARTO_DIR) -> tuple[list[StyleRule], frozenset[str]]:
    """Read the installed OSM-Carto ``style.xml`` and osm2pgsql key list.

    Parameters
    ----------
    carto_dir : pathlib.Path
        Folder holding ``style.xml`` and ``openstreetmap-carto.style``.

    Returns
    -------
    rules : list of StyleRule
        Every rule of the style.
    keys : frozenset of str
        The OSM keys OSM-Carto imports.

    Raises
    ------
    RenderError
        When the style is not installed.
    """
    style = carto_dir / "style.xml"
    keys = carto_dir / "openstreetmap-carto.style"
    if not style.is_file() or not keys.is_file():
        raise RenderError(
            f"OSM-Carto style not found in {carto_dir}",
            fix="install the Debian package openstreetmap-carto-common (scripts/install.sh)",
        )
    return (
        parse_style_rules(style.read_text(encoding="utf-8")),
        parse_carto_keys(keys.read_text(encoding="utf-8")),
    )
