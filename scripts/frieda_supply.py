"""How many FRIEDA questions an extract supports: clear relations between named features.

Usage::

    .venv/bin/python scripts/frieda_supply.py [helsinki|kotka|liechtenstein|FILE] [--scale-bar 50]
        [--max-distance 600]

Prints the named features by kind and category, then the number of feature pairs
whose relation holds clearly (``groundtruth.relations``' margins): polygon-polygon
and line-polygon pairs per topological relation (``disjoint`` pairs near each
other are the clear *no* answers), and pairs of small features whose distance (at
the given scale bar) or orientation is clear, with the reasons pairs were left out.
"""

from __future__ import annotations

import argparse
import collections
import time

from groundtruth.named_features import load_named_features
from groundtruth.relation_pairs import point_pairs, topological_pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extract", nargs="?", default="helsinki")
    parser.add_argument("--scale-bar", type=float, default=50.0,
                        help="scale bar of the maps, metres (50 m at zoom 17 in Helsinki)")
    parser.add_argument("--max-distance", type=float, default=600.0,
                        help="longest distance asked, metres")
    args = parser.parse_args()
    t0 = time.perf_counter()
    feats = load_named_features(args.extract)
    t1 = time.perf_counter()
    kinds = collections.Counter(f.kind for f in feats)
    print(f"{args.extract}: {len(feats)} named features ({dict(kinds)}), "
          f"{sum(f.at_edge for f in feats)} at the edge; read in {t1 - t0:.1f} s")
    cats = collections.Counter((f.kind, f.category) for f in feats if f.kind != "point")
    print("  polygons and lines:", ", ".join(f"{c} {n}" for (_, c), n in cats.most_common()))
    topo = topological_pairs(feats, include_disjoint=True)
    counts = collections.Counter(
        ("line-polygon" if p.a.kind == "line" else "polygon-polygon", p.relation) for p in topo
    )
    for (kind, relation), n in sorted(counts.items()):
        print(f"  {kind:16s} {relation:10s} {n:6d}")
    pts = point_pairs(feats, scale_bar_m=args.scale_bar, max_distance_m=args.max_distance)
    dist = sum(p.distance.clear(args.scale_bar) for p in pts)
    orient = collections.Counter(p.orientation.direction for p in pts if p.orientation.clear)
    print(f"  distance   (ordered pairs, {3 * args.scale_bar:.0f}-{args.max_distance:.0f} m)"
          f" {dist:6d}")
    print(f"  orientation (ordered pairs) {sum(orient.values()):6d}  {dict(orient)}")
    print(f"  in {time.perf_counter() - t1:.1f} s")


if __name__ == "__main__":
    main()
