"""Render FRIEDA question plans for review: images, and the questions with answers.

Usage::

    .venv/bin/python scripts/frieda_preview.py OUT [--extract helsinki] [--seed 0]
        [--per-relation 4] [--distractor-maps 8]

Writes ``OUT/<n>-<relation>-<map>.png`` and ``OUT/questions.jsonl`` (question,
answer, images, visible shares, scale bar) and prints the plans rejected by reason
(a feature not fully visible at any zoom, a distance under three scale bars). With
``--distractor-maps N`` it also writes one contextual set: the first orientation
question's map hidden among N maps of other places of the same city, each with two
other named points drawn the same way (``OUT/contextual.json``). The maps are chosen
and checked by :mod:`cartoqa.tasks.frieda.maps`, as in ``cartoqa build --suite frieda``
(docs/frieda.md), which is what builds datasets; this script is for looking at plans.
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
from cartoqa.tasks.frieda.maps import REJECT_REASONS, WHOLE, RenderedMap, render_map
from cartoqa.tasks.frieda.questions import (
    QuestionPlan,
    equal_plans,
    legend_plans,
    point_plans,
    topological_plans,
    two_relation_plans,
)
from groundtruth import relations as rel
from groundtruth.extracts import resolve_extract
from groundtruth.legend_areas import load_category_areas
from groundtruth.named_features import load_named_features
from groundtruth.relation_pairs import topological_pairs
from renderers.frieda_map import FriedaMapRenderer, bar_meters
from renderers.overlays import overlay_from_geometry
from renderers.tiles import TileRenderer


def _render_question(r: FriedaMapRenderer, plan: QuestionPlan, n: int, out: Path,
                     rejected: collections.Counter[str]) -> dict[str, object] | None:
    subject = (plan.maps[0].features[0]
               if plan.relation in ("border", "within", "intersect")
               and "relations" in plan.meta else None)
    gaps_m = []
    if subject is not None:
        frame = rel.LocalFrame.around([subject.geometry])
        sm = frame.to_metric(subject.geometry)
        for f in plan.maps[-1].features:
            if plan.meta["relations"].get(f.key) == "disjoint":
                gaps_m.append(sm.distance(frame.to_metric(f.geometry)))
    maps = [render_map(r, mp, subject, gaps_m) for mp in plan.maps]
    reasons = [m for m in maps if isinstance(m, str)]
    if reasons:
        rejected[f"{plan.relation}: {REJECT_REASONS[reasons[0]]}"] += 1
        return None
    rendered = [m.map for m in maps if isinstance(m, RenderedMap)]
    if plan.relation == "distance":
        scale = bar_meters(rendered[0].scale_bar)
        if plan.answer["meters"] < rel.DISTANCE_MIN_SCALE_BARS * scale:
            rejected[f"distance: {REJECT_REASONS['scale_bars']}"] += 1
            return None
    images = []
    for k, m in enumerate(rendered):
        name = f"{n:02d}-{plan.relation}-{plan.meta.get('template', '')}-{k + 1}.png"
        (out / name).write_bytes(m.png)
        images.append(name)
    return {
        "relation": plan.relation, "maps": plan.map_count,
        "question": plan.question, "answer": plan.answer, "images": images,
        "zoom": [m.view.zoom for m in rendered], "style": [m.style for m in rendered],
        "legend": [m.categories for m in rendered],
        "angle": [m.angle_deg for m in rendered],
        "scale_bar": [(m.scale_bar.get("bar") or m.scale_bar.get("metric") or {}).get("label")
                      for m in rendered], "north": [m.north for m in rendered],
        "visible": [m.visible for m in rendered], "meta": plan.meta,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--extract", default="helsinki")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-relation", type=int, default=4)
    parser.add_argument("--distractor-maps", type=int, default=8)
    parser.add_argument("--legend-only", action="store_true",
                        help="render only within/category (legend) and "
                        "within/two_relations questions")
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
    legend = legend_plans(feats, load_category_areas(extract), rng=rng,
                          count=3 * args.per_relation)
    print(f"within (legend): {len(legend)} plans")
    rng.shuffle(legend)
    # categories in turn, so the preview shows several
    by_cat: dict[str, list[QuestionPlan]] = collections.defaultdict(list)
    for p in legend:
        by_cat[p.meta["category"]].append(p)
    legend = [p for k in range(len(legend)) for c in sorted(by_cat)
              for p in by_cat[c][k:k + 1]]
    groups.append(("within (legend)", legend, args.per_relation))
    both = two_relation_plans(pairs, rng=rng)
    print(f"within (two relations): {len(both)} plans")
    groups.append(("within (two relations)", both, args.per_relation))
    if args.legend_only:
        groups = groups[-2:]
    plans: list[QuestionPlan] = []
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
