"""The pixel check: read a drawn map back and compare it with the data it encodes.

For choropleths and cartograms every state's fill at its probe pixel (and at its
callout swatch, for small states) must be its class colour; for proportional symbols
every circle's radius, measured on the image along unobstructed rays, must map to its
class; every asked-about state's label must be drawn (ink inside its box, inside the
image, overlapping no other label). Expected colours and radii come from the data and
the design, not from the report: the report only says where to look.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from renderers.thematic.design import CIRCLE_FILL, CIRCLE_RADII, NO_DATA_FILL, ColourBar, hex_to_rgb
from renderers.thematic.draw import hatch_reference

#: Largest per-channel difference between a probed pixel and the expected colour.
COLOUR_TOLERANCE = 3
#: Largest difference in pixels between a measured and the drawn circle radius.
RADIUS_TOLERANCE = 2.0
#: Fewest label-coloured pixels that make a label "drawn".
MIN_LABEL_INK = 6

REASONS = ("fill_mismatch", "fill_not_probeable", "circle_radius_mismatch",
           "circle_not_measurable", "label_missing", "label_overlap", "label_outside",
           "hatch_mismatch", "hatch_not_probeable", "value_colour_mismatch")

#: Largest distance, as a share of the colour bar's length, between where a probed
#: continuous fill lies on the bar and where the region's value lies.
CONTINUOUS_TOLERANCE = 0.02


@dataclass(frozen=True)
class Problem:
    """One failed check.

    Attributes
    ----------
    reason : str
        One of :data:`REASONS`.
    state : str
        The state it concerns.
    detail : str
        What was found.
    """

    reason: str
    state: str
    detail: str


def _near(px: tuple[int, ...], rgb: tuple[int, int, int], tol: int) -> bool:
    return all(abs(int(a) - b) <= tol for a, b in zip(px[:3], rgb, strict=True))


def _rgb(pixels: Any, x: int, y: int) -> tuple[int, ...]:
    px = pixels[x, y]
    return tuple(px) if isinstance(px, tuple) else (int(px),) * 3


def measure_radius(pixels: Any, centre: tuple[float, float], rays: Iterable[float],
                   skip_boxes: list[list[float]], fill: tuple[int, int, int]) -> list[float]:
    """Distance from ``centre`` to the first non-fill pixel along each ray.

    Pixels inside ``skip_boxes`` (labels) are stepped over.

    Parameters
    ----------
    pixels : numpy.ndarray
        The image as an ``(height, width, 3)`` array.
    centre : (float, float)
        Circle centre in pixels.
    rays : iterable of float
        Directions in degrees (0 = east, 90 = down).
    skip_boxes : list of [x0, y0, x1, y1]
        Regions to step over.
    fill : (int, int, int)
        The circle's fill colour.

    Returns
    -------
    list of float
        One distance per ray that found an edge within 60 pixels.
    """
    import numpy as np

    t = np.arange(0.0, 60.0, 0.25)
    near = [b for b in skip_boxes
            if b[0] - 60 <= centre[0] <= b[2] + 60 and b[1] - 60 <= centre[1] <= b[3] + 60]
    height, width = pixels.shape[:2]
    out = []
    for deg in rays:
        xs = centre[0] + t * np.cos(np.radians(deg))
        ys = centre[1] + t * np.sin(np.radians(deg))
        ok = (xs >= 0) & (ys >= 0) & (xs < width) & (ys < height)
        for b in near:
            ok &= ~((xs >= b[0]) & (xs <= b[2]) & (ys >= b[1]) & (ys <= b[3]))
        xi = np.clip(xs.astype(int), 0, width - 1)
        yi = np.clip(ys.astype(int), 0, height - 1)
        diff = np.abs(pixels[yi, xi, :3].astype(int) - np.array(fill)).max(axis=1)
        edge = np.nonzero(ok & (diff > 12))[0]
        if len(edge):
            out.append(float(t[edge[0]]))
    return out


def check_map(png: bytes, report: Mapping[str, Any], classes: Mapping[str, int],
              colours: tuple[str, ...], asked: Iterable[str] | None = None) -> list[Problem]:
    """Every problem the image has (an empty list: the map shows its data).

    Parameters
    ----------
    png : bytes
        The drawn image.
    report : mapping
        :attr:`renderers.thematic.draw.RenderedMap.report`.
    classes : mapping
        State -> class, from the data.
    colours : tuple of str
        Class colours of the design, class 1 first.
    asked : iterable of str, optional
        States whose labels questions mention (default: every state).
    """
    import numpy as np
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    array = np.asarray(img)
    pixels = img.load()
    assert pixels is not None
    width, height = img.size
    states: Mapping[str, Any] = report["states"]
    problems: list[Problem] = []
    map_type = report["map_type"]

    styled = bool(report.get("hatches") or report.get("colour_bar"))  # see check_styled
    if map_type != "proportional_symbol" and not styled:
        for code, info in sorted(states.items()):
            cls = classes.get(code)
            want = hex_to_rgb(colours[cls - 1] if cls else NO_DATA_FILL)
            probes = [p for p in (info.get("probe"),) if p]
            if info.get("swatch"):
                s = info["swatch"]
                probes.append([int((s[0] + s[2]) / 2), int((s[1] + s[3]) / 2)])
            if not probes and info.get("hidden"):
                continue  # too small to see on a map without labels: never asked about
            if not probes:
                problems.append(Problem("fill_not_probeable", code, "no interior pixel"))
                continue
            for x, y in probes:
                got = _rgb(pixels, x, y)
                if not _near(got, want, COLOUR_TOLERANCE):
                    problems.append(Problem("fill_mismatch", code,
                                            f"pixel ({x},{y}) is {got[:3]}, class {cls} is {want}"))
    elif map_type == "proportional_symbol":
        fill = hex_to_rgb(CIRCLE_FILL)
        boxes = [s["label"]["bbox"] for s in states.values() if s.get("label")]
        for code, info in sorted(states.items()):
            cls = classes.get(code)
            circle = info.get("circle")
            if cls is None:
                continue
            if not circle or len(circle["rays"]) < 3:
                problems.append(Problem("circle_not_measurable", code, "fewer than 3 clear rays"))
                continue
            d = sorted(measure_radius(array, tuple(circle["centre"]), circle["rays"], boxes,
                                      fill))
            if len(d) < 3:
                problems.append(Problem("circle_not_measurable", code, "no edge found"))
                continue
            r = d[len(d) // 2] + 0.5  # the first non-fill pixel lies half a pixel inside
            nearest = min(range(len(CIRCLE_RADII)), key=lambda i: abs(CIRCLE_RADII[i] - r)) + 1
            if nearest != cls or abs(CIRCLE_RADII[cls - 1] - r) > RADIUS_TOLERANCE:
                problems.append(Problem("circle_radius_mismatch", code,
                                        f"measured {r:.1f}px, class {cls} is "
                                        f"{CIRCLE_RADII[cls - 1]}px"))

    # Maps without region labels (``region_labels`` false in the report) have none to
    # check: what a reader relies on there are the fills, checked above.
    labelled = {c for c, info in states.items() if info.get("label")}
    wanted = sorted(labelled) if asked is None else sorted(set(asked) & labelled)
    label_boxes = {c: states[c]["label"]["bbox"] for c in labelled}
    for code in wanted:
        label = states[code]["label"]
        x0, y0, x1, y1 = label["bbox"]
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            problems.append(Problem("label_outside", code, f"bbox {label['bbox']}"))
            continue
        for other, b in label_boxes.items():
            if other != code and x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1:
                problems.append(Problem("label_overlap", code, f"overlaps {other}"))
                break
        ink_rgb = hex_to_rgb(label["colour"])
        ink = sum(1 for x in range(int(x0), math.ceil(x1))
                  for y in range(int(y0), math.ceil(y1))
                  if _near(_rgb(pixels, x, y), ink_rgb, 60))
        if ink < MIN_LABEL_INK:
            problems.append(Problem("label_missing", code, f"{ink} ink pixels"))
    return problems


def _hatch_references(hatches: Iterable[str], paper: str) -> dict[str, Any]:
    import numpy as np
    from PIL import Image

    return {h: np.asarray(Image.open(io.BytesIO(hatch_reference(h, paper))).convert("RGB"))
            for h in dict.fromkeys(hatches)}


def check_styled(png: bytes, report: Mapping[str, Any], classes: Mapping[str, int],
                 colours: tuple[str, ...], values: Mapping[str, float] | None = None,
                 asked: Iterable[str] | None = None) -> list[Problem]:
    """The pixel check of MapWise's styles, on top of :func:`check_map` (labels, and the
    fills of plain classed maps).

    - Hatched maps: an 8x8-pixel window inside each region (and inside each callout
      swatch) must equal, pixel for pixel within :data:`COLOUR_TOLERANCE`, the same
      window of the class's hatch drawn over the whole image
      (:func:`renderers.thematic.draw.hatch_reference`), and must differ from every other
      class's hatch there.
    - Colour-bar maps: the colour at each region's probe is looked up on the bar (the
      nearest of 1024 positions); it must lie within :data:`CONTINUOUS_TOLERANCE` of the
      region's value's position.

    Parameters
    ----------
    png, report, classes, colours, asked
        As for :func:`check_map`.
    values : mapping, optional
        Region -> value (needed for colour-bar maps).
    """
    import numpy as np
    from PIL import Image

    problems = check_map(png, report, classes, colours, asked)
    array = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    states: Mapping[str, Any] = report["states"]
    hatches = report.get("hatches")
    bar = report.get("colour_bar")
    if hatches:
        refs = {h: r.astype(int) for h, r in _hatch_references(
            hatches, report.get("paper", "#ffffff")).items()}
        for code, info in sorted(states.items()):
            cls = classes.get(code)
            if not cls:
                continue
            windows = [w for w in (info.get("window"), info.get("swatch_window")) if w]
            if not windows and info.get("hidden"):
                continue
            if not windows:
                problems.append(Problem("hatch_not_probeable", code, "no 8x8 window inside"))
                continue
            for x0, y0, x1, y1 in windows:
                got = array[y0:y1, x0:x1]

                def same(h: str, got: Any = got, x0: int = x0, y0: int = y0, x1: int = x1,
                         y1: int = y1) -> bool:
                    diff = np.abs(got - refs[h][y0:y1, x0:x1]).max()
                    return bool(diff <= COLOUR_TOLERANCE)

                want = hatches[cls - 1]
                others = [h for h in hatches if h != want and same(h)]
                if not same(want) or others:
                    problems.append(Problem("hatch_mismatch", code,
                                            f"window {[x0, y0, x1, y1]} is not hatch "
                                            f"{want!r} of class {cls}"))
    elif bar:
        cb = ColourBar(bar["ramp"], bar["vmin"], bar["vmax"], tuple(bar["ticks"]),
                       tuple(bar["tick_labels"]))
        positions = np.linspace(0.0, 1.0, 1024)
        lut = np.array([hex_to_rgb(cb.colour_at(float(t))) for t in positions])
        for code, info in sorted(states.items()):
            if not classes.get(code) or values is None or code not in values:
                continue
            probes = [p for p in (info.get("probe"),) if p]
            if info.get("swatch"):
                sw = info["swatch"]
                probes.append([int((sw[0] + sw[2]) / 2), int((sw[1] + sw[3]) / 2)])
            if not probes and info.get("hidden"):
                continue
            if not probes:
                problems.append(Problem("fill_not_probeable", code, "no interior pixel"))
                continue
            want = cb.position(values[code])
            for x, y in probes:
                got = array[y, x]
                t = float(positions[int(np.argmin(((lut - got) ** 2).sum(axis=1)))])
                if abs(t - want) > CONTINUOUS_TOLERANCE:
                    problems.append(Problem("value_colour_mismatch", code,
                                            f"pixel ({x},{y}) reads {t:.3f} on the bar, "
                                            f"the value is at {want:.3f}"))
    return problems
