"""Draw what cartoqa.visibility decided on a built dataset's maps, for checking by eye.

For each zoom-19 map image (STMF/MTMF) it writes ``<out>/<image>`` with a box per data
feature near the view: green = counted as drawn, red = in the data but judged not
drawn, orange = on an edge (ambiguous); a ``✓`` after the type means the name was
judged legible. For each MML/SRN image it draws a box around each label of the road
names in the view: green = written, red = not (with the reason: cut, hidden, ...). Then
open the overlays and compare with what you see.

Usage::

    python scripts/review_visibility.py DATASET OUT [--limit N]
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from PIL import Image, ImageDraw

from cartoqa.settings import cache_root, web_assets_dir
from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.common.drawing import Drawn, MarkerSpec, scene_exclusion
from cartoqa.tasks.common.roads import RoadIndex, name_instances
from cartoqa.visibility import analyse_view, decode_png, render_reference
from cartoqa.visibility.written import written_names
from groundtruth.extracts import resolve_extract
from groundtruth.junctions import road_names_at
from groundtruth.projection import View


def main() -> int:
    """Write the overlays; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--tasks", default="stmf,mtmf,mml,srn",
                        help="tasks whose images to review")
    args = parser.parse_args()
    args.tasks = set(args.tasks.split(","))
    items = [json.loads(line) for line in
             (args.dataset / "items.jsonl").read_text("utf-8").splitlines()]
    manifest = json.loads((args.dataset / "manifest.json").read_text("utf-8"))
    extract = resolve_extract(manifest["build"]["extract"])
    ctx = BuildContext(extract, seed=0, per_task=1, cache_dir=cache_root(),
                       assets_dir=web_assets_dir())
    args.out.mkdir(parents=True, exist_ok=True)
    done: set[str] = set()
    roads = RoadIndex(ctx.graph())
    report: list[str] = []
    try:
        for it in items:
            image = it["image"]
            if image in done or len(done) >= args.limit or it["task"] not in args.tasks:
                continue
            done.add(image)
            prov = it["provenance"]
            view = View(center=(prov["center"][0], prov["center"][1]), zoom=prov["zoom"])
            png = (args.dataset / image).read_bytes()
            ctx.renderer()
            reference = render_reference(ctx.renderer().tiles, view)
            screen = decode_png(png)
            markers = [MarkerSpec(m["color"], m["lat"], m["lon"]) for m in prov["markers"]]
            path = [(p[0], p[1]) for p in prov.get("path", [])] if it["task"] == "rle" else None
            if it["task"] in ("stmf", "mtmf"):
                vf = analyse_view(view, screen, reference, ctx.features(),
                                  exclude=scene_exclusion(view, markers, path))
                im = Image.open(io.BytesIO(png)).convert("RGB")
                draw = ImageDraw.Draw(im)
                for ftype, sightings in vf.by_type.items():
                    for s in sightings:
                        x, y = s.px
                        colour = (255, 140, 0) if s.edge else \
                            (0, 170, 0) if s.drawn else (230, 0, 0)
                        draw.rectangle((x - 9, y - 9, x + 9, y + 9), outline=colour, width=2)
                        mark = "✓" if s.name_legible else ""
                        draw.text((x + 11, y - 14), f"{ftype[:8]}{mark}", fill=colour)
                        report.append(f"{image}\t{ftype}\t{s.feature.name}\tdrawn={s.drawn}"
                                      f"\tlegible={s.name_legible}\tedge={s.edge}"
                                      f"\tpx={round(x)},{round(y)}")
                    for ox, oy in vf.orphans.get(ftype, []):
                        draw.ellipse((ox - 11, oy - 11, ox + 11, oy + 11), outline=(200, 0, 200))
                im.save(args.out / Path(image).name)
            elif it["task"] in ("mml", "srn"):
                scene_names = sorted({n for m in prov["markers"] if m.get("node")
                                      for n in road_names_at(ctx.graph(), m["node"])})
                lines = roads.lines_px(view, list(roads.lines))
                candidates = [n for n, ls in lines.items() if ls]
                scene = Drawn(view=view, png=png, screen=screen, reference=reference, drawn={})
                judged = name_instances(ctx, scene, candidates, roads=roads, markers=markers)
                im = Image.open(io.BytesIO(png)).convert("RGB")
                draw = ImageDraw.Draw(im)
                for name, parts in judged.items():
                    for part in parts:
                        colour = (0, 170, 0) if part.reason is None else (230, 0, 0)
                        draw.rectangle(part.box, outline=colour, width=2)
                        draw.text((part.box[0], part.box[3] + 2),
                                  f"{name[:14]} {part.reason or ''}", fill=colour)
                im.save(args.out / Path(image).name)
                report.append(f"{image}\tnames judged written: {sorted(written_names(judged))}"
                              f"\tat markers: {scene_names}")
    finally:
        ctx.close()
    (args.out / "decisions.tsv").write_text("\n".join(report) + "\n", encoding="utf-8")
    print(f"wrote {len(done)} overlays and decisions.tsv to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
