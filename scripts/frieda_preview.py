"""Render FRIEDA question plans for review: images, and the questions with answers.

Usage::

    .venv/bin/python scripts/frieda_preview.py OUT [--extract helsinki] [--seed 0]
        [--per-relation 4] [--distractor-maps 8]

Writes ``OUT/<n>-<relation>-<map>.png`` and ``OUT/questions.jsonl`` (question,
answer, images, visible shares, scale bar) and prints the plans rejected by reason
(a feature not fully visible at any zoom, a distance under three scale bars). With
``--distractor-maps N`` it also writes one contextual set: the first orientation
question's map hidden among N maps of other places of the same city, each with two
other named points drawn the same way (``OUT/contextual.json``). Not yet
``cartoqa build --suite frieda``: see docs/frieda.md.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
from pathlib import Path

import shapely
from shapely.geometry import box

from cartoqa.settings import cache_root, web_assets_dir
from cartoqa.tasks.frieda_questions import (
    MapPlan,
    QuestionPlan,
    equal_plans,
    point_plans,
    topological_plans,
)
from groundtruth import relations as rel
from groundtruth.extracts import resolve_extract
from groundtruth.named_features import load_named_features
from groundtruth.projection import View
from groundtruth.relation_pairs import topological_pairs
from renderers.compass import compass_box
from renderers.frieda_map import IMAGE_HEIGHT, IMAGE_WIDTH, FriedaMap, FriedaMapRenderer
from renderers.overlays import (
    OVERLAY_WEIGHT,
    overlay_from_geometry,
    screen_geometry,
    visible_share,
)

#: Share of a drawn polygon or line that must be visible (points: all of the dot).
MIN_VISIBLE = 0.98
#: "Whole" on the image, allowing for floating-point area sums.
WHOLE = 1.0 - 1e-6
#: A "disjoint" distractor must be at least this far from the subject on the image.
MIN_GAP_PX = 15.0
#: A drawn polygon must span at least this many pixels (its larger side).
MIN_POLYGON_PX = 14.0
#: Lines are drawn only near the subject (degrees around its bounding box), so that a
#: long road does not force a small zoom; the relation is measured on the whole line.
LINE_CLIP_DEG = 0.0015


def draw_geometry(f, subject):  # type: ignore[no-untyped-def]
    """The part of a feature drawn: lines clipped near the subject."""
    if f.kind != "line" or subject is None or f is subject:
        return f.geometry
    clipped = f.geometry.intersection(subject.geometry.envelope.buffer(LINE_CLIP_DEG))
    return clipped if not clipped.is_empty and clipped.length > 0 else f.geometry


def _blocked(n: int) -> list[tuple[float, float, float, float]]:
    legend = (IMAGE_WIDTH - 420.0, 0.0, float(IMAGE_WIDTH), 30.0 + 24.0 * n)
    return [legend, compass_box(IMAGE_WIDTH, IMAGE_HEIGHT), (0.0, 700.0, 160.0, 768.0),
            (1000.0, 740.0, 1366.0, 768.0)]


def _outlined(g):  # type: ignore[no-untyped-def]
    """A polygon with its outline's width (it must be whole on the image)."""
    return g.buffer(OVERLAY_WEIGHT) if g.area > 0 else g


def choose_zoom(plan: MapPlan, subject, gaps_m) -> tuple[tuple[float, float], int] | None:  # type: ignore[no-untyped-def]
    feats = plan.features + plan.context
    geoms = [draw_geometry(f, subject) for f in feats]
    c = shapely.union_all(geoms).envelope.centroid
    ovs = [overlay_from_geometry(f.name, "red", g) for f, g in zip(feats, geoms, strict=True)]
    for zoom in range(19, 14, -1):
        view = View(center=(c.y, c.x), zoom=zoom)
        if gaps_m and min(gaps_m) < MIN_GAP_PX * view.meters_per_pixel():
            return None
        for o in ovs:
            if o.kind == "polygon":
                x0, y0, x1, y1 = screen_geometry(view, o).bounds
                if max(x1 - x0, y1 - y0) < MIN_POLYGON_PX:
                    return None
        ok = all(
            visible_share(_outlined(screen_geometry(view, o, angle_deg=plan.angle_deg)),
                          width=IMAGE_WIDTH, height=IMAGE_HEIGHT,
                          blocked=_blocked(len(plan.features)))
            >= (WHOLE if o.kind != "line" else MIN_VISIBLE)
            for o in ovs
        )
        if ok:
            return (c.y, c.x), zoom
    return None


def render_plan(r: FriedaMapRenderer, plan: MapPlan, subject, gaps_m) -> FriedaMap | str:  # type: ignore[no-untyped-def]
    placed = choose_zoom(plan, subject, gaps_m)
    if placed is None:
        return "not visible at zooms 15-19, a gap under 15 px or a polygon under 14 px"
    center, zoom = placed
    ovs = [overlay_from_geometry(label, plan.color(i), draw_geometry(f, subject))
           for i, (f, label) in enumerate(zip(plan.features, plan.labels, strict=True))]
    m = r.render(center, zoom, ovs, angle_deg=plan.angle_deg)
    for o, share in zip(ovs, m.visible, strict=True):
        if share < (WHOLE if o.kind != "line" else MIN_VISIBLE):
            return "hidden under the legend or controls"
    return m


def _render_question(r: FriedaMapRenderer, plan: QuestionPlan, n: int, out: Path,
                     rejected: collections.Counter[str]) -> dict[str, object] | None:
    subject = (plan.maps[0].features[0]
               if plan.relation in ("border", "within", "intersect") else None)
    gaps_m = []
    if subject is not None:
        frame = rel.LocalFrame.around([subject.geometry])
        sm = frame.to_metric(subject.geometry)
        for f in plan.maps[-1].features:
            if plan.meta["relations"].get(f.key) == "disjoint":
                gaps_m.append(sm.distance(frame.to_metric(f.geometry)))
    maps = [render_plan(r, mp, subject, gaps_m) for mp in plan.maps]
    reasons = [m for m in maps if isinstance(m, str)]
    if reasons:
        rejected[f"{plan.relation}: {reasons[0]}"] += 1
        return None
    rendered = [m for m in maps if isinstance(m, FriedaMap)]
    if plan.relation == "distance":
        scale = rendered[0].scale_bar["metric"]["meters"]
        if plan.answer["meters"] < rel.DISTANCE_MIN_SCALE_BARS * scale:
            rejected["distance: under three scale bars"] += 1
            return None
    images = []
    for k, m in enumerate(rendered):
        name = f"{n:02d}-{plan.relation}-{k + 1}.png"
        (out / name).write_bytes(m.png)
        images.append(name)
    return {
        "relation": plan.relation, "maps": plan.map_count,
        "question": plan.question, "answer": plan.answer, "images": images,
        "zoom": [m.view.zoom for m in rendered],
        "angle": [m.angle_deg for m in rendered],
        "scale_bar": [m.scale_bar.get("metric", {}).get("label") for m in rendered],
        "visible": [m.visible for m in rendered], "meta": plan.meta,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--extract", default="helsinki")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-relation", type=int, default=4)
    parser.add_argument("--distractor-maps", type=int, default=8)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    extract = resolve_extract(args.extract)
    feats = load_named_features(extract)
    pairs = topological_pairs(feats, include_disjoint=True)
    groups: list[tuple[str, list[QuestionPlan], int]] = []
    for relation in ("border", "within", "intersect"):
        single = topological_plans(pairs, relation, rng=rng)
        multi = topological_plans(pairs, relation, rng=rng, multi=True)
        print(f"{relation}: {len(single)} plans")
        groups.append((relation, single, args.per_relation))
        groups.append((f"{relation} (two maps)", multi, 1))
    eq = equal_plans(feats, rng=rng)
    print(f"equal: {len(eq)} two-map plans")
    groups.append(("equal", eq, args.per_relation))
    pts = point_plans(feats, rng=rng, count=3 * args.per_relation)
    groups.append(("distance", [p for p in pts if p.relation == "distance"], args.per_relation))
    groups.append(("orientation", [p for p in pts if p.relation == "orientation"],
                   args.per_relation))
    plans: list[QuestionPlan] = []
    from renderers.tiles import TileRenderer

    tiles = TileRenderer(extract, cache_dir=cache_root())
    r = FriedaMapRenderer(tiles, assets_dir=web_assets_dir())
    rejected: collections.Counter[str] = collections.Counter()
    with open(args.out / "questions.jsonl", "w", encoding="utf-8") as fh:
        try:
            n = 0
            for group, candidates, quota in groups:
                rng.shuffle(candidates)
                got = 0
                for plan in candidates:
                    if got >= quota:
                        break
                    row = _render_question(r, plan, n, args.out, rejected)
                    if row is not None:
                        fh.write(json.dumps(row, ensure_ascii=False) + "\n")
                        plans.append(plan)
                        got += 1
                        n += 1
                print(f"  {group}: kept {got}")
            orient = [p for p in plans if p.relation == "orientation"]
            if orient and args.distractor_maps:
                west, south, east, north = shapely.total_bounds([f.geometry for f in feats])
                target = orient[0].maps[0].features
                keep_out = shapely.union_all([f.geometry for f in target]).buffer(0.004)
                names = []
                tries = 0
                while len(names) < args.distractor_maps and tries < 200:
                    tries += 1
                    lat = rng.uniform(south + 0.002, north - 0.002)
                    lon = rng.uniform(west + 0.004, east - 0.004)
                    if keep_out.intersects(box(lon - 0.001, lat - 0.001, lon + 0.001, lat + 0.001)):
                        continue
                    # two other named points near the centre, drawn like the question's
                    near = [f for f in feats if f.kind == "point" and not f.at_edge
                            and abs(f.geometry.y - lat) < 0.0012
                            and abs(f.geometry.x - lon) < 0.0025]
                    if len(near) < 2:
                        continue
                    a, b = rng.sample(near, 2)
                    dots = [overlay_from_geometry(a.name, "red", a.geometry),
                            overlay_from_geometry(b.name, "blue", b.geometry)]
                    m = r.render((lat, lon), 17, dots,
                                 angle_deg=float(rng.choice([0, 30, 75, 120, 160, 210, 300])))
                    if min(m.visible) < WHOLE:
                        continue
                    name = f"contextual-distractor-{len(names) + 1}.png"
                    (args.out / name).write_bytes(m.png)
                    names.append(name)
                (args.out / "contextual.json").write_text(json.dumps(
                    {"question": orient[0].question, "answer": orient[0].answer,
                     "distractors": names}, ensure_ascii=False, indent=1))
        finally:
            r.close()
    print(f"kept {len(plans)} questions; rejected: {dict(rejected)}")


if __name__ == "__main__":
    main()
