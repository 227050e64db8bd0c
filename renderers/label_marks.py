"""Marked labels: OSM-Carto with chosen names drawn in colours of their own.

To learn whether (and where) Mapnik wrote a given name on a map, the tiles' style is
loaded a second time with every text rule of the :data:`MARKABLE_STYLES` preceded by
:data:`MARK_SLOTS` copies of itself. Copy *k* matches only features whose ``name``
equals the render variable ``@cartoqa_mark<k>`` and fills its text with
:data:`MARK_COLOURS` ``[k]``; the styles' filter mode is ``first``, so a feature so
named is drawn by the copy instead of the original rule, with the same font, size,
halo and placement rules. Placement does not depend on the fill colour, so the marked
names can be found by their colour where Mapnik places them
(:meth:`renderers.tiles.TileRenderer.render_label_marks`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

#: Styles whose name labels can be marked: the road names (lines and pedestrian areas),
#: waterway names, and the labels of points and areas (shops, amenities, parks).
MARKABLE_STYLES: frozenset[str] = frozenset({
    "roads-text-name", "roads-area-text-name", "paths-text-name", "water-lines-text",
    "text-point", "text-low-priority",
})
#: Fill colours of the marks, one per slot: pure colours no OSM-Carto label uses.
MARK_COLOURS: tuple[tuple[int, int, int], ...] = (
    (255, 0, 255), (0, 255, 255), (0, 255, 0), (255, 255, 0), (255, 0, 0), (0, 0, 255),
)
#: Names one render can mark.
MARK_SLOTS = len(MARK_COLOURS)
#: Symbolizers that take part in label placement (the collision detector); layers
#: whose styles hold none of them are left out of a marked render.
PLACEMENT_SYMBOLIZERS: tuple[str, ...] = (
    "TextSymbolizer", "ShieldSymbolizer", "PointSymbolizer", "MarkersSymbolizer",
    "GroupSymbolizer",
)

_STYLE_RE = re.compile(r'(<Style\b[^>]*\bname="([^"]+)"[^>]*>)(.*?)(</Style>)', re.S)
_RULE_RE = re.compile(r"<Rule>.*?</Rule>", re.S)
_LAYER_RE = re.compile(r'<Layer\b[^>]*\bname="([^"]+)"[^>]*>.*?</Layer>\s*', re.S)
_FILTER_RE = re.compile(r"<Filter>(?:<!\[CDATA\[)?(.*?)(?:\]\]>)?</Filter>", re.S)


#: Suffix of the render variable holding a marked name followed by a newline.
NEWLINE_SUFFIX = "_nl"


def mark_variable(slot: int) -> str:
    """Name of the render variable holding the name marked in ``slot``.

    Examples
    --------
    >>> mark_variable(2)
    'cartoqa_mark2'
    """
    return f"cartoqa_mark{slot}"


def _hex(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _marked_rule(rule: str, slot: int) -> str:
    """A copy of a text rule that draws only the marked name, in the slot's colour.

    The name may carry a trailing newline: OSM-Carto's point-label query (layer
    ``text-point``) builds it as ``CONCAT(name, E'\\n' || CONCAT(<ele>, <height>))``,
    and ``CONCAT`` of nothing is the empty string, not NULL, so a restaurant's label
    text is ``"Jufu\\n"``; both spellings are matched (:func:`mark_variables`).
    """
    var = mark_variable(slot)
    test = f"(([name] = @{var}) or ([name] = @{var}{NEWLINE_SUFFIX}))"
    found = _FILTER_RE.search(rule)
    if found:
        new_filter = f"<Filter><![CDATA[({found.group(1)}) and {test}]]></Filter>"
        rule = rule[:found.start()] + new_filter + rule[found.end():]
    else:
        rule = rule.replace("<Rule>", f"<Rule><Filter><![CDATA[{test}]]></Filter>", 1)

    def recolour(tag: re.Match[str]) -> str:
        text = re.sub(r'\sfill="[^"]*"', "", tag.group(0))
        fill = f'<TextSymbolizer fill="{_hex(MARK_COLOURS[slot])}"'
        return text.replace("<TextSymbolizer", fill, 1)

    return re.sub(r"<TextSymbolizer\b[^>]*>", recolour, rule)


def mark_label_rules(xml: str, styles: Collection[str] = MARKABLE_STYLES) -> str:
    """Return a style XML whose text rules in ``styles`` can draw marked names.

    Parameters
    ----------
    xml : str
        A Mapnik style XML (OSM-Carto's, patched for offline use).
    styles : collection of str
        Names of the ``<Style>`` elements to mark; their filter mode must be ``first``
        (a style in another mode is left as it is).

    Returns
    -------
    str
        The XML with :data:`MARK_SLOTS` marked copies before each text rule.

    Examples
    --------
    >>> src = ('<Style filter-mode="first" name="t"><Rule><Filter>([a] = 1)</Filter>'
    ...        '<TextSymbolizer fill="#000" size="9">[name]</TextSymbolizer></Rule></Style>')
    >>> out = mark_label_rules(src, {"t"})
    >>> out.count("<Rule>"), out.count('fill="#ff00ff"'), out.count('fill="#000"')
    (7, 1, 1)
    >>> "(([a] = 1)) and (([name] = @cartoqa_mark0) or ([name] = @cartoqa_mark0_nl))" in out
    True
    """
    def mark_style(style: re.Match[str]) -> str:
        head, name, body, tail = style.groups()
        if name not in styles or 'filter-mode="first"' not in head:
            return style.group(0)

        def mark_rule(rule: re.Match[str]) -> str:
            text = rule.group(0)
            if "<TextSymbolizer" not in text or "ElseFilter" in text:
                return text
            return "".join(_marked_rule(text, k) for k in range(MARK_SLOTS)) + text

        return head + _RULE_RE.sub(mark_rule, body) + tail

    return _STYLE_RE.sub(mark_style, xml)


def placement_layers(xml: str) -> frozenset[str]:
    """Names of the layers whose styles hold a symbolizer that takes part in placement.

    Examples
    --------
    >>> src = ('<Style name="a"><Rule><LineSymbolizer/></Rule></Style>'
    ...        '<Style name="b"><Rule><TextSymbolizer/></Rule></Style>'
    ...        '<Layer name="roads"><StyleName>a</StyleName></Layer>'
    ...        '<Layer name="labels"><StyleName><![CDATA[b]]></StyleName></Layer>')
    >>> sorted(placement_layers(src))
    ['labels']
    """
    placing = {m.group(2) for m in _STYLE_RE.finditer(xml)
               if any(f"<{sym}" in m.group(3) for sym in PLACEMENT_SYMBOLIZERS)}
    layers = set()
    for layer in re.finditer(r'<Layer\b[^>]*\bname="([^"]+)"[^>]*>(.*?)</Layer>', xml, re.S):
        names = re.findall(r"<StyleName>(?:<!\[CDATA\[)?(.*?)(?:\]\]>)?</StyleName>",
                           layer.group(2))
        if placing.intersection(names):
            layers.add(layer.group(1))
    return frozenset(layers)


def keep_layers(xml: str, names: Collection[str]) -> str:
    """Return a style XML without the ``<Layer>`` elements not named in ``names``.

    A map loaded from it draws what the full map draws with only those layers
    switched on, and its loading skips the other layers' datasources (each costs
    Mapnik a query to PostgreSQL: 43 of OSM-Carto's 78 layers for the marked map).

    Examples
    --------
    >>> src = ('<Map><Layer name="a" srs="x"><Datasource/></Layer>'
    ...        '<Layer name="b"><Datasource/></Layer></Map>')
    >>> keep_layers(src, {"b"})
    '<Map><Layer name="b"><Datasource/></Layer></Map>'
    """
    def keep(layer: re.Match[str]) -> str:
        return layer.group(0) if layer.group(1) in names else ""

    return _LAYER_RE.sub(keep, xml)


def mark_variables(names: Sequence[str]) -> dict[str, str]:
    """Render variables that mark ``names`` (slot *k* holds ``names[k]``).

    Raises
    ------
    ValueError
        For more names than :data:`MARK_SLOTS`.

    Examples
    --------
    >>> mark_variables(["Annankatu"])["cartoqa_mark0"]
    'Annankatu'
    >>> mark_variables(["Annankatu"])["cartoqa_mark0_nl"]
    'Annankatu\\n'
    >>> marks = mark_variables(["Annankatu"])
    >>> marks["cartoqa_mark1"], marks["cartoqa_mark1_nl"]
    ('', '')
    """
    if len(names) > MARK_SLOTS:
        raise ValueError(f"at most {MARK_SLOTS} names can be marked in one render")
    # An unused slot holds the empty string, which no drawn label has (OSM-Carto
    # draws no label for an empty name).
    out: dict[str, str] = {}
    for k in range(MARK_SLOTS):
        name = names[k] if k < len(names) else ""
        out[mark_variable(k)] = name
        out[mark_variable(k) + NEWLINE_SUFFIX] = name + "\n" if name else ""
    return out
