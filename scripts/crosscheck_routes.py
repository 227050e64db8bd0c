"""Cross-check groundtruth's legal shortest routes against Routino, an independent router.

Routino (Debian package ``routino``: ``planetsplitter`` builds a routing database from
an OSM file with its own tagging rules, ``routino-router`` routes on it, turn
restrictions on) was written by people who never saw this code. For random pairs of
junctions of each extract this script asks both for the shortest car route and
compares the lengths. Routino's route is re-measured with
:func:`groundtruth.distance.polyline_length_m` along the points it prints (its own
total is printed to 10 m), so the comparison is of route choice, not of distance
formulas; Routino's own segment sum (1 m per segment) is reported beside it.

Pairs are drawn among junctions in the largest strongly connected part of the legal
graph, leaving out junctions on destination-only roads: Routino's tagging rules close
those to cars altogether (groundtruth allows them as the first or last part of a
route), so Routino cannot start there; how many were left out is printed.
Routino's database is built without its pruning of short segments and of nodes on
straight roads, which would move junctions by metres.

Routino is run for the shortest route (``--shortest``) with every drivable highway
class at 100 % preference and every road property at 50 % (no preference), so that
its route is the geometrically shortest it finds legal. A pair agrees when the
lengths differ by at most 2 m or 0.5 %. Each disagreement is explained by cause from
the OSM data along the two routes (a way, a barrier or a restriction one router
applies and the other does not, a snapped endpoint); anything else is reported as
unexplained.

Usage::

    python scripts/crosscheck_routes.py [--pairs 200] [--seed 0] [--extracts helsinki kotka]
                                       [--install] [--json report.json]

With ``--install`` the script runs ``apt-get install -y routino`` when the tools are
missing; without it, it says how to install them and exits with status 2. Exit status
1 when agreement is below 99 % or a disagreement is unexplained.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from groundtruth._osm_reader import RoadData, read_highway_ways
from groundtruth.access import DESTINATION, barrier_blocks
from groundtruth.distance import geodesic_m, polyline_length_m
from groundtruth.extracts import Extract, resolve_extract
from groundtruth.graph import build_road_graph, is_drivable
from groundtruth.routing import legal_edge_path, route_from_edges

#: Agreement: lengths within this many metres...
ABS_TOL_M = 2.0
#: ... or within this fraction of groundtruth's length.
REL_TOL = 0.005
#: Routino's highway classes a car may use (all at 100 % preference).
ROUTINO_DRIVABLE = ("motorway", "trunk", "primary", "secondary", "tertiary", "unclassified",
                    "residential", "service")
ROUTINO_CLOSED = ("track", "cycleway", "path", "steps", "ferry")
ROUTINO_PROPERTIES = ("paved", "multilane", "bridge", "tunnel", "footroute", "bicycleroute")
#: An endpoint Routino snapped farther than this from the asked node (metres).
SNAP_TOL_M = 1.0
#: A disagreement with no rule behind it, where Routino's route is longer by at most
#: this fraction, is a near tie decided by the routers' different length measures.
NEAR_TIE = 0.01


@dataclass
class PairResult:
    """One compared pair."""

    origin: int
    destination: int
    ours_m: float | None
    routino_m: float | None
    routino_own_m: float | None
    agree: bool
    causes: list[str] = field(default_factory=list)


def ensure_routino(install: bool) -> None:
    """Make sure ``planetsplitter`` and ``routino-router`` exist, or explain and exit."""
    if shutil.which("planetsplitter") and shutil.which("routino-router"):
        return
    if install:
        subprocess.run(["apt-get", "install", "-y", "routino"], check=True)
        if shutil.which("planetsplitter") and shutil.which("routino-router"):
            return
    print("Routino is not installed. It is the independent router this check compares "
          "against: install the Debian package with `apt-get install -y routino` (or run "
          "this script with --install).", file=sys.stderr)
    raise SystemExit(2)


def build_database(extract: Extract, folder: Path) -> None:
    """Run planetsplitter with Routino's own tagging rules."""
    subprocess.run(["planetsplitter", f"--dir={folder}",
                    "--tagging=/usr/share/routino/tagging.xml", "--prune-short=0",
                    "--prune-straight=0",
                    str(extract.path)],
                   check=True, capture_output=True)


def routino_route(folder: Path, a: tuple[float, float], b: tuple[float, float],
                  ) -> tuple[list[tuple[float, float]], float] | None:
    """Routino's shortest car route: its points ``(lat, lon)`` and its segment sum (m)."""
    cmd = ["routino-router", f"--dir={folder}", "--profile=motorcar", "--shortest",
           "--exact-nodes-only", "--turns=1", "--oneway=1", "--output-text-all",
           "--output-stdout", "--quiet",
           f"--lat1={a[0]:.7f}", f"--lon1={a[1]:.7f}", f"--lat2={b[0]:.7f}",
           f"--lon2={b[1]:.7f}"]
    cmd += [f"--highway-{h}=100" for h in ROUTINO_DRIVABLE]
    cmd += [f"--highway-{h}=0" for h in ROUTINO_CLOSED]
    cmd += [f"--property-{p}=50" for p in ROUTINO_PROPERTIES]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None
    points: list[tuple[float, float]] = []
    total = 0.0
    for line in proc.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        cols = line.split("\t")
        points.append((float(cols[0]), float(cols[1])))
        total += float(cols[4]) * 1000.0
    return (points, total) if len(points) >= 2 else None


class OsmIndex:
    """OSM node ids by rounded position, and the way joining two consecutive nodes."""

    def __init__(self, data: RoadData) -> None:
        self.by_pos = {(round(lat, 6), round(lon, 6)): n for n, (lat, lon) in data.coords.items()}
        self.way_of: dict[tuple[int, int], int] = {}
        self.tags = {w.id: w.tags for w in data.ways}
        for w in data.ways:
            for run in w.runs:
                for a, b in itertools.pairwise(run):
                    self.way_of.setdefault((a, b), w.id)
                    self.way_of.setdefault((b, a), w.id)
        self.barriers = data.barriers

    def nodes(self, points: list[tuple[float, float]]) -> list[int | None]:
        return [self.by_pos.get((round(lat, 6), round(lon, 6))) for lat, lon in points]

    def ways(self, nodes: list[int | None]) -> list[int]:
        out = []
        for a, b in itertools.pairwise(nodes):
            if a is not None and b is not None and (a, b) in self.way_of:
                out.append(self.way_of[(a, b)])
        return out


def _describe(tags: dict[str, str]) -> str:
    keys = ("highway", "service", "access", "vehicle", "motor_vehicle", "motorcar", "bus",
            "psv", "oneway", "junction", "area")
    return ", ".join(f"{k}={tags[k]}" for k in keys if k in tags)


def explain(graph: nx.MultiDiGraph, index: OsmIndex, ours: list[tuple[int, int, int]] | None,
            points: list[tuple[float, float]] | None, origin: int, destination: int,
            ) -> list[str]:
    """Causes of a disagreement, read off the OSM data along both routes."""
    causes: list[str] = []
    if points is None:
        causes.append("Routino found no route")
    if ours is None:
        causes.append("groundtruth found no legal route")
    if points is not None:
        for node, point in ((origin, points[0]), (destination, points[-1])):
            d = graph.nodes[node]
            off = geodesic_m(d["y"], d["x"], point[0], point[1])
            if off > SNAP_TOL_M:
                causes.append(f"Routino snapped node {node} to a point {off:.1f} m away")
        nodes = index.nodes(points)
        for way in dict.fromkeys(index.ways(nodes)):
            tags = index.tags[way]
            if not is_drivable(tags):
                causes.append(f"Routino drives way {way} ({_describe(tags)}), which "
                              "groundtruth's rules close to cars")
        for n in nodes:
            if n is not None and n in index.barriers and barrier_blocks(index.barriers[n]):
                causes.append(f"Routino passes barrier node {n} "
                              f"({_describe(index.barriers[n]) or index.barriers[n]})")
        for a, b, c in zip(nodes, nodes[1:], nodes[2:], strict=False):
            if a is not None and a == c and b is not None:
                causes.append(f"Routino makes a U-turn at node {b}")
        causes.extend(_broken_restrictions(graph, index, nodes))
        if not causes and ours is not None:
            mine = route_from_edges(graph, ours, origin).length_m
            theirs = polyline_length_m(points)
            if mine <= theirs <= mine * (1 + NEAR_TIE):
                causes.append(
                    f"near tie: Routino's route obeys groundtruth's rules too and is "
                    f"{theirs - mine:.1f} m ({(theirs - mine) / mine:.2%}) longer by WGS84 "
                    "geodesics; Routino chooses on its own distances (printed to whole "
                    "metres per segment)")
    if ours is not None:
        for u, v, k in ours:
            data = graph.edges[u, v, k]
            if data.get("access") == DESTINATION:
                causes.append(f"groundtruth's route starts or ends on destination-only way "
                              f"{data['osmid']}; Routino closes destination roads")
                break
        ways = {graph.edges[e]["osmid"] for e in ours}
        for way in sorted(ways):
            tags = index.tags.get(way, {})
            if tags.get("highway") in {"living_street", "road"}:
                causes.append(f"groundtruth's route uses way {way} (highway="
                              f"{tags['highway']}), which Routino's tagging rules treat "
                              "differently")
    return list(dict.fromkeys(causes))


def _broken_restrictions(graph: nx.MultiDiGraph, index: OsmIndex,
                         nodes: list[int | None]) -> list[str]:
    """Restrictions of groundtruth's graph that Routino's route does not obey."""
    path = [n for n in nodes if n is not None and n in graph]
    edges = []
    for a, b in itertools.pairwise(path):
        way = index.way_of.get((a, b))
        keys = [k for k, d in graph.get_edge_data(a, b, default={}).items()
                if way is None or d["osmid"] == way]
        if keys:
            edges.append((a, b, keys[0]))
    out = []
    for r in graph.graph.get("restrictions", []):
        n = len(r.prefix)
        for i in range(len(edges) - n):
            if tuple(edges[i:i + n]) == r.prefix and r.forbids(edges[i + n]):
                via = "way" if n > 1 else "node"
                out.append(f"Routino's route breaks restriction relation {r.relation} "
                           f"({r.kind}_*, via {via})")
    return out


def routino_reachable(graph: nx.MultiDiGraph, node: int) -> bool:
    """Whether Routino can start or end at a junction: not on a destination-only road,
    which Routino's tagging rules close to cars altogether."""
    return all(d.get("access") != DESTINATION
               for _, _, d in [*graph.out_edges(node, data=True),
                               *graph.in_edges(node, data=True)])


def junction_pairs(graph: nx.MultiDiGraph, n: int, seed: int) -> list[tuple[int, int]]:
    """``n`` random pairs of junctions (3+ streets) joined by a legal route, neither on
    a destination-only road (see :func:`routino_reachable`)."""
    largest = max(nx.strongly_connected_components(graph), key=len)
    junctions = sorted(v for v in largest if graph.nodes[v].get("street_count", 0) >= 3
                       and routino_reachable(graph, v))
    rng = random.Random(seed)
    pairs: list[tuple[int, int]] = []
    tries = 0
    while len(pairs) < n and tries < 20 * n:
        tries += 1
        a, b = rng.sample(junctions, 2)
        if legal_edge_path(graph, a, b) is not None:
            pairs.append((a, b))
    return pairs


def check_extract(name: str, n_pairs: int, seed: int, work: Path) -> dict[str, Any]:
    """Compare the two routers on one extract."""
    extract = resolve_extract(name)
    data = read_highway_ways(extract.path)
    graph = build_road_graph(data, name=extract.name, extract_sha256=extract.sha256)
    index = OsmIndex(data)
    folder = work / extract.name
    folder.mkdir(parents=True, exist_ok=True)
    build_database(extract, folder)
    results: list[PairResult] = []
    for origin, destination in junction_pairs(graph, n_pairs, seed):
        edges = legal_edge_path(graph, origin, destination)
        ours = route_from_edges(graph, edges, origin).length_m if edges is not None else None
        a = (graph.nodes[origin]["y"], graph.nodes[origin]["x"])
        b = (graph.nodes[destination]["y"], graph.nodes[destination]["x"])
        found = routino_route(folder, a, b)
        theirs = polyline_length_m(found[0]) if found else None
        agree = (ours is not None and theirs is not None
                 and abs(ours - theirs) <= max(ABS_TOL_M, REL_TOL * ours))
        causes = [] if agree else explain(graph, index, edges, found[0] if found else None,
                                          origin, destination)
        results.append(PairResult(origin, destination, ours, theirs,
                                  found[1] if found else None, agree, causes))
    agreed = sum(r.agree for r in results)
    all_junctions = [v for v in graph if graph.nodes[v].get("street_count", 0) >= 3]
    by_cause: Counter[str] = Counter()
    for r in results:
        if not r.agree:
            by_cause[_cause_kind(r.causes)] += 1
    return {
        "extract": extract.name, "pairs": len(results), "agree": agreed,
        "agreement": agreed / len(results) if results else 0.0,
        "restrictions_applied": len(graph.graph["restrictions"]),
        "restrictions_dropped": graph.graph["restrictions_dropped"],
        "junctions_on_destination_roads_skipped": sum(
            not routino_reachable(graph, v) for v in all_junctions),
        "junctions": len(all_junctions),
        "disagreements_by_cause": dict(by_cause),
        "max_abs_diff_agreeing_m": max((abs(r.ours_m - r.routino_m) for r in results
                                        if r.agree and r.ours_m is not None
                                        and r.routino_m is not None), default=0.0),
        "disagreements": [r.__dict__ for r in results if not r.agree],
    }


def _cause_kind(causes: list[str]) -> str:
    if not causes:
        return "unexplained"
    first = causes[0]
    for key, kind in (("snapped", "Routino snapped an endpoint"),
                      ("breaks restriction", "Routino ignores a turn restriction"),
                      ("closes destination", "Routino closes destination-only roads"),
                      ("which groundtruth's rules close", "Routino drives a way closed here"),
                      ("barrier", "Routino passes a barrier"),
                      ("U-turn", "Routino makes a U-turn"),
                      ("near tie", "near tie under the routers' length measures"),
                      ("no route", "one router found no route")):
        if key in first:
            return kind
    return first


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extracts", nargs="+", default=["helsinki", "kotka"])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--install", action="store_true",
                        help="apt-get install routino when it is missing")
    parser.add_argument("--json", type=Path, help="write the full report here")
    args = parser.parse_args(argv)
    ensure_routino(args.install)
    reports = []
    with tempfile.TemporaryDirectory(prefix="crosscheck-") as tmp:
        for name in args.extracts:
            reports.append(check_extract(name, args.pairs, args.seed, Path(tmp)))
    ok = True
    print(f"{'extract':<10} {'pairs':>5} {'agree':>5} {'rate':>7}  restrictions "
          "applied/dropped  max diff when agreeing")
    for rep in reports:
        print(f"{rep['extract']:<10} {rep['pairs']:>5} {rep['agree']:>5} "
              f"{rep['agreement']:>7.1%}  {rep['restrictions_applied']:>3}/"
              f"{rep['restrictions_dropped']:<3}"
              f"                {rep['max_abs_diff_agreeing_m']:.2f} m")
        print(f"    junctions on destination-only roads left out (Routino closes those "
              f"roads): {rep['junctions_on_destination_roads_skipped']} of {rep['junctions']}")
        for cause, n in sorted(rep["disagreements_by_cause"].items(), key=lambda c: -c[1]):
            print(f"    {n:>3} x {cause}")
        for d in rep["disagreements"]:
            print(f"      {d['origin']} -> {d['destination']}: groundtruth "
                  f"{d['ours_m'] if d['ours_m'] is None else round(d['ours_m'], 1)} m, Routino "
                  f"{d['routino_m'] if d['routino_m'] is None else round(d['routino_m'], 1)} m; "
                  + "; ".join(d["causes"] or ["unexplained"]))
        if rep["agreement"] < 0.99 or rep["disagreements_by_cause"].get("unexplained"):
            ok = False
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1, default=str), encoding="utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
