"""Count a FRIEDA build's map styles and scales, and re-measure its one-map distance and
orientation answers from the dots on the images.

Usage::

    .venv/bin/python scripts/frieda_remeasure.py OUT

Prints the items per setting and map count, the styles of the question and distractor
maps (each image once), the zooms of every two-map direct question, and for each one-map
distance or orientation item the two dots' distance (pixels times the view's ground
resolution) and the direction from the second dot to the first (the pixel direction
minus the map's turn) beside the recorded answer. The dots are found by their colour
(:data:`renderers.overlays.OVERLAY_COLORS`) as connected blobs of a dot's size, away from
the compass and the legend.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

from groundtruth.projection import View
from renderers.overlays import OVERLAY_COLORS


def dot_centre(rgb: np.ndarray, hex_colour: str) -> tuple[float, float] | None:
    """The centre of the dot of a colour (the largest blob of a dot's size), or None."""
    target = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)
    mask = np.linalg.norm(rgb - target, axis=2) < 40
    mask[:130, :130] = False  # the compass
    mask[:110, 1100:] = False  # the legend's swatches
    labels, n = ndimage.label(mask)
    best: tuple[float, float, int] | None = None
    for k in range(1, n + 1):
        ys, xs = np.nonzero(labels == k)
        if 100 <= len(xs) <= 260 and np.ptp(xs) <= 18 and np.ptp(ys) <= 18 and \
                (best is None or len(xs) > best[2]):
            best = (float(xs.mean()) + 0.5, float(ys.mean()) + 0.5, len(xs))
    return None if best is None else (best[0], best[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="a built FRIEDA dataset folder")
    args = parser.parse_args()
    items = [json.loads(line) for line in (args.out / "items.jsonl").open(encoding="utf-8")]
    settings = collections.Counter((i["strata"]["setting"], i["strata"]["maps"]) for i in items)
    styles: dict[str, collections.Counter[str]] = {"question": collections.Counter(),
                                                   "distractor": collections.Counter()}
    seen: set[str] = set()
    for it in items:
        for m in it["provenance"]["maps"]:
            if m["image"] not in seen:
                seen.add(m["image"])
                styles[m["role"]][m["style"]] += 1
    print(f"{len(items)} items: {dict(settings)}")
    print(f"question map styles: {dict(styles['question'])}; "
          f"distractor map styles: {dict(styles['distractor'])}")
    multi = [i for i in items if i["strata"]["setting"] == "direct"
             and i["strata"]["maps"] == "multi"]
    differ = 0
    for it in multi:
        zooms = [m["zoom"] for m in it["provenance"]["maps"]]
        differ += len(set(zooms)) > 1
        print(f"  {it['id']}: zooms {zooms}, styles "
              f"{[m['style'] for m in it['provenance']['maps']]}")
    print(f"two-map direct questions: {len(multi)}, at different zooms: {differ}")
    for it in items:
        maps = it["provenance"]["maps"]
        if it["strata"]["setting"] != "direct" or len(maps) != 1 or \
                it["answer"]["type"] not in ("distance", "cardinal"):
            continue
        m = maps[0]
        rgb = np.asarray(Image.open(args.out / m["image"]).convert("RGB"), dtype=float)
        a, b = (dot_centre(rgb, OVERLAY_COLORS[f["color"]]) for f in m["features"][:2])
        if a is None or b is None:
            print(f"{it['id']}: a dot was not found")
            continue
        view = View(center=(m["center"][0], m["center"][1]), zoom=m["zoom"])
        metres = math.hypot(b[0] - a[0], b[1] - a[1]) * view.meters_per_pixel()
        bearing = (math.degrees(math.atan2(a[0] - b[0], b[1] - a[1])) - m["angle_deg"]) % 360
        truth = it["answer"].get("meters") or it["provenance"]["ground_truth"].get("bearing_deg")
        print(f"{it['id']} ({m['style']}, zoom {m['zoom']}, turn {m['angle_deg']}): "
              f"{metres:.1f} m, first dot seen from the second {bearing:.1f} deg; "
              f"recorded {truth}")


if __name__ == "__main__":
    main()
