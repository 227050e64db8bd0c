"""How a thematic map looks: colour schemes, sizes, and MapIQ's 15 design variations (§6.1).

The baseline follows MapIQ: five classes in ColorBrewer's sequential Blues (choropleth,
cartogram) or range-graded circles (proportional symbols), two-letter labels, a title
and a legend. A variation changes one thing; :data:`VARIATIONS` says which map types
each applies to (colour schemes do not apply to proportional symbols).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

#: Map types, in MapIQ's order.
MAP_TYPES: tuple[str, ...] = ("choropleth", "cartogram", "proportional_symbol")

#: ColorBrewer 5-class schemes (Harrower & Brewer 2003), class 1 first.
BLUES = ("#eff3ff", "#bdd7e7", "#6baed6", "#3182bd", "#08519c")
DIVERGENT = ("#ca0020", "#f4a582", "#f7f7f7", "#92c5de", "#0571b0")  # RdBu
SPECTRAL = ("#d7191c", "#fdae61", "#ffffbf", "#abdda4", "#2b83ba")  # Spectral

#: Circle radii in pixels by class (range-graded), and the circles' colours.
CIRCLE_RADII = (5.0, 9.0, 13.0, 17.0, 21.0)
CIRCLE_FILL = "#6baed6"
CIRCLE_EDGE = "#08306b"
#: Fill of the states under proportional symbols, and of states without data.
BASE_FILL = "#f0f0f0"
NO_DATA_FILL = "#bdbdbd"
#: State borders: grey, so that the lightest classes (Blues class 1, the divergent
#: middle class) stand out from the white background.
EDGE_COLOUR = "#969696"


@dataclass(frozen=True)
class Design:
    """Everything a variation can change.

    Attributes
    ----------
    colours : tuple of str
        Class colours, class 1 first.
    label_size : float
        State-label font size in points.
    legend_scale : float
        Size of legend swatches and circles relative to the baseline.
    legend_font : float
        Legend font size in points.
    legend_horizontal : bool
        Legend entries side by side instead of stacked.
    legend_loc : str
        ``"lower right"`` (baseline) or ``"lower left"``.
    flip_x : bool
        Map rotated 180° about the X axis (north at the bottom).
    flip_y : bool
        Map rotated 180° about the Y axis (east on the left).
    title : bool
        Title drawn.
    legend : bool
        Legend drawn.
    hatches : tuple of str, optional
        Black-and-white hatch pattern of each class (MapWise), instead of colours.
    paper : str
        Background colour of the page (MapWise: white or grey).
    callout_sides : int
        1: callouts of small regions on the east (Atlantic) side, as MapIQ's US maps;
        2: on the nearer of both sides (India, China).
    legend_reversed : bool
        Legend classes listed from the highest down (as many publishers draw them);
        the no-data entry stays last.
    region_labels : bool
        Region codes drawn (with callout boxes for small regions). ``False`` draws a map
        without region labels (MapWise's ``wo_annotations`` maps): no codes, no
        callouts, no value annotations; a reader must know the regions by shape and
        position, and regions too small to see are reported as ``hidden``.
    """

    colours: tuple[str, ...] = BLUES
    label_size: float = 8.0
    legend_scale: float = 1.0
    legend_font: float = 9.0
    legend_horizontal: bool = False
    legend_loc: str = "lower right"
    flip_x: bool = False
    flip_y: bool = False
    title: bool = True
    legend: bool = True
    hatches: tuple[str, ...] | None = None
    paper: str = "#ffffff"
    callout_sides: int = 1
    legend_reversed: bool = False
    region_labels: bool = True


BASELINE = Design()

#: Variation name -> (what it changes, map types it applies to). MapIQ §6.1: label size
#: (2), legend size (2), legend font (2), legend orientation, legend placement, three
#: colour schemes, two 180° rotations, no title, no legend = 15.
_ALL = MAP_TYPES
_COLOUR = ("choropleth", "cartogram")
VARIATIONS: dict[str, tuple[Design, tuple[str, ...]]] = {
    "label_large": (replace(BASELINE, label_size=11.0), _ALL),
    "label_small": (replace(BASELINE, label_size=6.0), _ALL),
    "legend_large": (replace(BASELINE, legend_scale=1.5), _ALL),
    "legend_small": (replace(BASELINE, legend_scale=0.7), _ALL),
    "legend_font_large": (replace(BASELINE, legend_font=12.0), _ALL),
    "legend_font_small": (replace(BASELINE, legend_font=7.0), _ALL),
    "legend_horizontal": (replace(BASELINE, legend_horizontal=True), _ALL),
    "legend_placement": (replace(BASELINE, legend_loc="lower left"), _ALL),
    "color_divergent": (replace(BASELINE, colours=DIVERGENT), _COLOUR),
    "color_spectral": (replace(BASELINE, colours=SPECTRAL), _COLOUR),
    "color_flipped": (replace(BASELINE, colours=tuple(reversed(BLUES))), _COLOUR),
    "rotate_x180": (replace(BASELINE, flip_x=True), _ALL),
    "rotate_y180": (replace(BASELINE, flip_y=True), _ALL),
    "no_title": (replace(BASELINE, title=False), _ALL),
    "no_legend": (replace(BASELINE, legend=False), _ALL),
}


def design_for(variation: str | None) -> Design:
    """The design of a variation (``None`` or ``"baseline"``: the baseline).

    Examples
    --------
    >>> design_for("label_large").label_size
    11.0
    >>> design_for(None) == BASELINE
    True
    """
    if variation in (None, "baseline"):
        return BASELINE
    if variation not in VARIATIONS:
        raise ValueError(f"unknown variation {variation!r}")
    return VARIATIONS[variation][0]


def applies(variation: str | None, map_type: str) -> bool:
    """Whether a variation makes sense for a map type.

    Examples
    --------
    >>> applies("color_spectral", "proportional_symbol"), applies("no_title", "cartogram")
    (False, True)
    """
    return variation in (None, "baseline") or map_type in VARIATIONS[str(variation)][1]


def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    """``"#08519c"`` -> ``(8, 81, 156)``.

    Examples
    --------
    >>> hex_to_rgb("#08519c")
    (8, 81, 156)
    """
    c = colour.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (relative luminance).

    Examples
    --------
    >>> text_colour("#08519c"), text_colour("#eff3ff")
    ('#ffffff', '#000000')
    """
    r, g, b = (v / 255 for v in hex_to_rgb(fill))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#ffffff" if lum < 0.45 else "#000000"


# --- MapWise styles: colour ramps, hatches, paper, colour bars ---

#: MapWise's colormap variants: matplotlib colormap and the part of it used.
COLOUR_RAMPS: dict[str, tuple[str, float, float]] = {
    "light": ("Blues", 0.05, 0.6),
    "dark": ("Purples", 0.45, 1.0),
    "gradient": ("viridis", 0.0, 1.0),
}
#: Black-and-white hatch of each of five classes, sparse to dense (class 1 blank).
HATCHES: tuple[str, ...] = ("", "..", "///", "xxx", "++++")
#: Hatches of a legend of 3 to 5 classes: subsets of :data:`HATCHES` that keep the
#: blank first and the dense grid last, so the order still runs sparse to dense. More
#: than five classes are not hatched (no further pattern reads as denser than the grid
#: and sparser than the next one at a glance).
HATCH_SETS: dict[int, tuple[str, ...]] = {
    3: ("", "///", "++++"),
    4: ("", "..", "xxx", "++++"),
    5: HATCHES,
}
#: MapWise's paper backgrounds.
PAPERS: dict[str, str] = {"white": "#ffffff", "grey": "#d9d9d9"}


@lru_cache(maxsize=65536)
def ramp_colour(ramp: str, t: float) -> str:
    """Colour of position ``t`` in [0, 1] of a ramp, as ``#rrggbb``.

    Examples
    --------
    >>> ramp_colour("gradient", 0.0), ramp_colour("gradient", 1.0)
    ('#440154', '#fde725')
    """
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    name, lo, hi = COLOUR_RAMPS[ramp]
    t = min(1.0, max(0.0, t))
    return str(to_hex(colormaps[name](lo + (hi - lo) * t)))


@lru_cache(maxsize=4096)
def _lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB ``#rrggbb`` colour."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    xyz = (
        (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047,
        0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2],
        (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883,
    )
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def lightness(colour: str) -> float:
    """CIE L* of a colour (0 black .. 100 white).

    Examples
    --------
    >>> round(lightness("#000000")), round(lightness("#ffffff"))
    (0, 100)
    """
    return _lab(colour)[0]


def delta_e(a: str, b: str) -> float:
    """Colour difference ΔE*ab (CIE 1976) of two ``#rrggbb`` colours: about 2.3 is just
    noticeable side by side; ten and more is clear at a glance.

    Examples
    --------
    >>> round(delta_e("#ffffff", "#000000"), 1), delta_e("#336699", "#336699")
    (100.0, 0.0)
    """
    la, lb = _lab(a), _lab(b)
    return float(sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5)


@lru_cache(maxsize=16)
def ramp_classes(ramp: str, k: int = 5) -> tuple[str, ...]:
    """``k`` class colours along a ramp, class 1 first, spaced evenly in colour difference
    (ΔE*ab), so that no two neighbouring classes are closer than the others (Blues'
    light end changes slowly: evenly spaced positions put classes 1 and 2 at ΔE 8.9).

    Examples
    --------
    >>> ramp_classes("gradient")[0], ramp_classes("gradient")[-1]
    ('#440154', '#fde725')
    >>> steps = [delta_e(a, b) for a, b in zip(ramp_classes("light"), ramp_classes("light")[1:])]
    >>> round(min(steps), 1) >= 11.0
    True
    """
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    n = 1024
    name, lo_t, hi_t = COLOUR_RAMPS[ramp]
    cmap = colormaps[name]
    colours = [str(to_hex(cmap(lo_t + (hi_t - lo_t) * i / n))) for i in range(n + 1)]

    def walk(step: float) -> list[int]:
        """Positions reached by steps of ``step`` ΔE from the light end (greedy)."""
        picked = [0]
        for i in range(1, n + 1):
            if delta_e(colours[picked[-1]], colours[i]) >= step:
                picked.append(i)
        return picked

    lo, hi = 0.0, delta_e(colours[0], colours[-1])
    for _ in range(30):  # the largest even step that still makes k classes
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if len(walk(mid)) >= k else (lo, mid)
    picked = [*walk(lo)[:k - 1], n]
    return tuple(colours[i] for i in picked)


@dataclass(frozen=True)
class ColourBar:
    """A continuous legend: values from ``vmin`` to ``vmax`` along a colour ramp.

    Attributes
    ----------
    ramp : str
        A key of :data:`COLOUR_RAMPS`.
    vmin, vmax : float
        The values at the two ends.
    ticks : tuple of float
        Values labelled on the bar (the first and last are ``vmin`` and ``vmax``).
    tick_labels : tuple of str
        Their text.
    """

    ramp: str
    vmin: float
    vmax: float
    ticks: tuple[float, ...]
    tick_labels: tuple[str, ...]

    def position(self, value: float) -> float:
        """Where a value sits on the bar, 0 (``vmin``) to 1 (``vmax``)."""
        return min(1.0, max(0.0, (value - self.vmin) / (self.vmax - self.vmin)))

    def colour_at(self, t: float) -> str:
        """Colour at position ``t``."""
        return ramp_colour(self.ramp, t)

    def colour(self, value: float) -> str:
        """Colour of a value."""
        return self.colour_at(self.position(value))

    def card(self) -> dict[str, object]:
        """JSON form for reports."""
        return {"ramp": self.ramp, "vmin": self.vmin, "vmax": self.vmax,
                "ticks": list(self.ticks), "tick_labels": list(self.tick_labels)}
