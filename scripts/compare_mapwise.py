"""Run MapWise's own data tables through ``cartoqa build --suite mapwise --data`` and
compare cartoqa's answers with MapWise's published ones.

Usage::

    python scripts/compare_mapwise.py PATH/TO/mapwise-dataset [--maps 8] [--build]
        [--coast] [--out report.md]

``PATH/TO/mapwise-dataset`` is a checkout of github.com/map-wise/mapwise-dataset (only
``<country>/metadata/*.json`` and ``<country>/qna.csv`` are read). For each country the
first ``--maps`` maps (by file name) that have questions are taken. Each map's metadata
becomes a CSV (MapWise's region codes and values; NaN cells empty) and a spec beside it
(legend type, published class ranges, legend order, units from ``data_type``), read
through the same functions as ``--data`` (:func:`cartoqa.tasks.mapwise.build.
load_variables`, :func:`~cartoqa.tasks.mapwise.table_spec.read_spec`,
:func:`~cartoqa.tasks.mapwise.build.apply_spec`); with ``--build`` each map is also
built end to end with the CLI (drawing and pixel check).

MapWise's questions whose answer follows from the table alone are answered with
cartoqa's ground-truth rules (:class:`cartoqa.tasks.mapwise.common.MapwiseContext`):
legend class count, legend kind, overall range, percentages or absolute values, a
region in a range, a region's class range, the darkest or lightest class, higher /
lower / similar comparisons. Each is counted as a match, as a MapWise answer that
disagrees with MapWise's own data, as a question cartoqa would not ask (and why), or as
another difference with its reason. Questions about informal regions ("the west coast",
"bordering Nepal") or of other templates are counted as not compared. With ``--coast``
only the questions about the coastal regions as a whole ("coastal states", "states
along the coastline"; not "the west coast" or "the Bay of Bengal coast") are compared,
answered from the table over cartoqa's coastal regions
(:mod:`groundtruth.thematic.coast`). Nothing here runs
in the tests (they use small fixtures); the dataset is not redistributed.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cartoqa.tasks.mapwise.build import (  # noqa: E402
    MapPlan,
    apply_spec,
    colour_bar,
    load_variables,
    us_edition_for,
)
from cartoqa.tasks.mapwise.common import TICK_CLEARANCE, MapwiseContext  # noqa: E402
from cartoqa.tasks.mapwise.table_spec import read_spec  # noqa: E402
from groundtruth.thematic.adjacency import queen_adjacency  # noqa: E402
from groundtruth.thematic.classification import format_number  # noqa: E402
from groundtruth.thematic.coast import coastal_regions  # noqa: E402
from groundtruth.thematic.countries import load_country, region_code  # noqa: E402

_NUM = r"-?[\d,]*\.?\d+(?:[kKmM])?"


def number(text: str) -> float:
    """``"13,978,608.0"`` -> 13978608.0; ``"14M"`` -> 1.4e7."""
    t = text.replace(",", "").strip()
    mult = 1.0
    if t[-1:] in "kK":
        mult, t = 1e3, t[:-1]
    elif t[-1:] in "mM":
        mult, t = 1e6, t[:-1]
    return float(t) * mult


def parse_range(text: str) -> tuple[float, float] | None:
    """``"a - b"``, ``"above N"``, ``"below N"`` as an interval."""
    t = text.replace("%", "").strip().rstrip("?.")
    m = re.fullmatch(rf"\s*({_NUM})\s*(?:-|–|to)\s*({_NUM})\s*", t)
    if m:
        return number(m.group(1)), number(m.group(2))
    m = re.fullmatch(rf"\s*(?:above|over|greater than|more than|>)\s*({_NUM})\s*", t)
    if m:
        return number(m.group(1)), math.inf
    m = re.fullmatch(rf"\s*(?:below|under|less than|<)\s*({_NUM})\s*", t)
    if m:
        return -math.inf, number(m.group(1))
    return None


def fmt(x: float) -> str:
    """A number as a legend would write it (up to nine significant digits)."""
    return format_number(x, 9)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)


@dataclass
class Outcome:
    """Counts and details of one country's comparison."""

    maps: list[str] = field(default_factory=list)
    built: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    details: list[tuple[str, str, str, str, str]] = field(default_factory=list)


def _map_table(meta: dict[str, Any], folder: Path, country: str) -> Path:
    """The map's CSV and spec, as a user of ``--data`` would write them."""
    table = folder / "table.csv"
    with table.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["region", "value"])
        for row in meta["data"]:
            v = row.get("value")
            ok = isinstance(v, int | float) and math.isfinite(v)
            w.writerow([row["region"], v if ok else ""])
    spec: dict[str, Any] = {"title": "MapWise map " + str(meta.get("map_id")),
                            "legend": str(meta["legend_type"]).lower()}
    if spec["legend"] == "discrete":
        ranges = [d for d in meta.get("class_descriptions") or [] if d != "N/A"]
        spec["classes"] = sorted(ranges, key=lambda d: number(re.split(
            r"(?<=\d)\s*%?\s*[-–]", d.replace("%", ""))[0]))
        spec["reversed"] = meta.get("legend_order") == "large_to_small"
    if meta.get("data_type") in ("Number", "Percentage"):
        spec["units"] = "%" if meta["data_type"] == "Percentage" else "count"
    (folder / "table.json").write_text(json.dumps(spec))
    return table


def _context(country: str, table: Path) -> MapwiseContext:
    """The map as cartoqa's builder sees it."""
    variables = load_variables([country], table, 0)
    spec = read_spec(table)
    assert spec is not None
    variables = {c: apply_spec(vs, spec, table) for c, vs in variables.items()}
    var = variables[country][0]
    edition = us_edition_for(variables) if country == "usa" else None
    regions = load_country(country, edition)
    style = "discrete_light" if spec.legend == "discrete" else "continuous_gradient"
    plan = MapPlan(0, country, var, style, spec=spec)
    classification = plan.classify()
    bar = colour_bar(var.values, "gradient") if spec.legend == "continuous" else None
    return MapwiseContext(country, regions.regions, var.title, dict(var.values),
                          classification, bar, queen_adjacency(regions.lonlat),
                          drawn=tuple(sorted(regions.projected)), ramp="light",
                          percent=spec.percent)


def _region(country: str, text: str) -> str | None:
    return region_code(country, text.strip().strip("'\"").replace("state ", ""))


def _alike(ctx: MapwiseContext, a: str, b: str, yes: bool, wording: str) -> tuple[str, str]:
    """cartoqa's verdict on "are A and B alike" (``wording``: the question's words) against
    MapWise's yes/no: tied is yes, clearly apart is no, anything between is not asked."""
    if ctx.tied(a, b):
        ours = "Yes"
    elif ctx.look_distinct(a, b):
        ours = "No"
    else:
        return "not asked by cartoqa: neither alike nor clearly apart", ""
    return ("match" if ours == ("Yes" if yes else "No")
            else f"differs: '{wording}' judged differently (cartoqa: same class, or "
                 "within 5% of the bar)"), ours


def judge(ctx: MapwiseContext, meta: dict[str, Any], question: str,
          truth: str) -> tuple[str, str]:
    """(outcome, our answer) of one MapWise question."""
    q = question.strip()
    t = truth.strip()
    yes = t.lower().startswith("yes")
    discrete = ctx.colour_bar is None
    if re.search(r"how many distinct categories", q, re.I):
        ours = str(ctx.classification.k)
        entries = meta.get("class_descriptions") or []
        data = str(len([d for d in entries if d != "N/A"]))
        if t != ours and "N/A" in entries and t == str(len(entries)):
            return "differs: MapWise counts the N/A entry as a category", ours
        return _verdict(ours, t, data, same=lambda a, b: a == b)
    if re.search(r"legend (discrete or continuous|continuous or discrete)", q, re.I):
        ours = "Discrete" if discrete else "Continuous"
        return _verdict(ours, t, str(meta["legend_type"]), same=lambda a, b: a.lower() == b.lower())
    if re.search(r"overall range of the legend", q, re.I):
        got = parse_range(t)
        if discrete:
            lo, hi = ctx.classification.label_bounds[0][0], ctx.classification.label_bounds[-1][1]
        else:
            assert ctx.colour_bar is not None
            lo, hi = ctx.colour_bar.ticks[0], ctx.colour_bar.ticks[-1]
        ours = f"{fmt(lo)} - {fmt(hi)}"
        if got is not None and close(got[0], lo) and close(got[1], hi):
            return "match", ours
        if not discrete:
            return "differs: colour-bar end ticks chosen by each renderer", ours
        return "differs: overall range", ours
    m = re.search(r"map depicts (percentages|absolute values)", q, re.I)
    if m:
        if ctx.percent is None:
            return "not compared: the metadata gives no data_type", ""
        ans = ctx.percent if m.group(1).lower() == "percentages" else not ctx.percent
        return _verdict("Yes" if ans else "No", "Yes" if yes else "No",
                        "Yes" if ans else "No", same=lambda a, b: a == b)
    m = re.search(r"does (?:the value of )?(?:state |province )?(.+?) fall in (?:the )?range "
                  r"(.+?)\??$", q, re.I)
    if m:
        code, rng = _region(ctx.country, m.group(1)), parse_range(m.group(2))
        if code is None or rng is None:
            return "not compared: region or range not read", ""
        if code not in ctx.values:
            return "not asked by cartoqa: the region has no data", ""
        v = ctx.values[code]
        data_yes = rng[0] <= v <= rng[1]
        if not discrete:
            assert ctx.colour_bar is not None
            bar = ctx.colour_bar
            ends = [e for e in rng if math.isfinite(e)]
            if any(abs(bar.position(v) - bar.position(e)) < TICK_CLEARANCE for e in ends):
                return ("not asked by cartoqa: the value lies within 4% of the bar of a "
                        "range end"), ""
        ours = "Yes" if data_yes else "No"
        return _verdict(ours, "Yes" if yes else "No", ours, same=lambda a, b: a == b)
    m = re.search(r"what value range does (?:state |province )?(.+?) fall in", q, re.I)
    if m and discrete:
        code = _region(ctx.country, m.group(1))
        if code is None:
            return "not compared: region not read", ""
        if code not in ctx.values:
            return "not asked by cartoqa: the region has no data", ""
        lo, hi = ctx.classification.label_bounds[ctx.classes[code] - 1]
        got = parse_range(t)
        ours = f"{fmt(lo)} - {fmt(hi)}"
        if got is not None and close(got[0], lo) and close(got[1], hi):
            return "match", ours
        return ("differs: MapWise's answer is not the region's class as its own legend "
                "writes it"), ours
    m = re.search(r"value range does the (darkest|lightest|second lightest) shade", q, re.I)
    if m and discrete:
        return "not compared: the publisher's palette direction is not drawn by cartoqa", ""
    m = re.search(r"value of (?:the )?(?:state |province )?(.+?) is (higher|lower|similar)"
                  r"(?: to| than)? (?:its neighbouring (?:state|province) )?(?:state )?(.+?)\.?$",
                  q, re.I)
    if m:
        a, how, b = _region(ctx.country, m.group(1)), m.group(2).lower(), _region(
            ctx.country, m.group(3))
        if a is None or b is None:
            return "not compared: regions not read", ""
        if a not in ctx.values or b not in ctx.values:
            return "not asked by cartoqa: a region has no data", ""
        if how == "similar":
            return _alike(ctx, a, b, yes, "similar")
        higher = ctx.values[a] > ctx.values[b]
        if not ctx.distinct(a, b):
            data = "Yes" if (higher if how == "higher" else not higher) else "No"
            agrees = "agrees" if data == ("Yes" if yes else "No") else "disagrees"
            return (f"not asked by cartoqa: the two look tied (MapWise's answer {agrees} "
                    "with its data)"), ""
        ans = higher if how == "higher" else not higher
        ours = "Yes" if ans else "No"
        return _verdict(ours, "Yes" if yes else "No", ours, same=lambda x, y: x == y)
    if re.search(r"which class has the largest range", q, re.I) and discrete:
        widths = [hi - lo for lo, hi in ctx.classification.label_bounds]
        i = max(range(len(widths)), key=lambda j: widths[j])
        lo, hi = ctx.classification.label_bounds[i]
        got = parse_range(t)
        ours = f"{fmt(lo)} - {fmt(hi)}"
        if got is not None and close(got[0], lo) and close(got[1], hi):
            return "match", ours
        if got is not None and any(abs(got[0] - a) <= 0.02 and abs(got[1] - b) <= 0.02
                                   for a, b in ctx.classification.label_bounds):  # rounded
            return "differs: MapWise's answer is not the widest class of its own legend", ours
        return "differs: widest class", ours
    if re.search(r"which range has the (highest|most|largest) number of states", q, re.I) \
            and discrete:
        counts = Counter(ctx.classes.values())
        top = sorted(counts.values(), reverse=True)
        if len(top) > 1 and top[0] == top[1]:
            return "not asked by cartoqa: two classes hold the most regions", ""
        cls = max(counts, key=lambda c: counts[c])
        lo, hi = ctx.classification.label_bounds[cls - 1]
        got = parse_range(t)
        ours = f"{fmt(lo)} - {fmt(hi)}"
        if got is not None and close(got[0], lo) and close(got[1], hi):
            return "match", ours
        return "differs: fullest class", ours
    if re.search(r"which states? (?:have|has) missing data", q, re.I):
        names = {ctx.regions[c].name.lower() for c in ctx.missing}
        got = {_region(ctx.country, x) for x in re.split(r",| and ", t) if x.strip()}
        ours = ", ".join(ctx.regions[c].name for c in ctx.missing) or "None"
        if got == set(ctx.missing) or (not ctx.missing and t.lower() in ("none", "no")):
            return "match", ours
        if not t:
            return "differs: MapWise's published answer is empty", ours
        return ("differs: the table's empty cells are not the answer's regions"
                if names else "differs: missing data"), ours
    m = re.search(r"(?:does|is) (?:the value of )?(?:state )?(.+?) (?:have )?(?:the )?same value "
                  r"(?:to|as) (?:state )?(.+?)[?.]?$", q, re.I)
    if m:
        a, b = _region(ctx.country, m.group(1)), _region(ctx.country, m.group(2))
        if a is None or b is None:
            return "not compared: regions not read", ""
        if a not in ctx.values or b not in ctx.values:
            return "not asked by cartoqa: a region has no data", ""
        return _alike(ctx, a, b, yes, "same value")
    m = re.search(r"is the value of (?:state )?(.+?) closer to (?:state )?(.+?) or "
                  r"(?:state )?(.+?)\?", q, re.I)
    if m:
        x, a, b = (_region(ctx.country, g) for g in m.groups())
        if None in (x, a, b):
            return "not compared: regions not read", ""
        assert x is not None and a is not None and b is not None
        if not {x, a, b} <= set(ctx.values):
            return "not asked by cartoqa: a region has no data", ""
        da, db = abs(ctx.values[x] - ctx.values[a]), abs(ctx.values[x] - ctx.values[b])
        ours = ctx.regions[a if da < db else b].name
        theirs = _region(ctx.country, t)
        data = a if da < db else b
        if theirs == data:
            return "match", ours
        return "differs: MapWise's answer disagrees with its own data", ours
    return "not compared: template not answered from the table alone", ""


#: MapWise's wordings of "the coastal regions" (not "the west coast", "the Bay of Bengal
#: coast": which stretch of coast those mean is not in any packaged source).
_COASTAL = (r"(?:coastal (?:states?|provinces?)|(?:states?|provinces?) (?:with coasts|along the "
            r"coastline|located on the coastline|in the coastline|on the coastline|in coastal "
            r"region|amongst the coastal states))")
_DIRECTIONAL = re.compile(r"west|east|north|south|bay of|arabian|indian ocean|gulf|pacific|"
                          r"atlantic", re.I)


def is_coastal_question(question: str) -> bool:
    """Whether a MapWise question is about the coastal regions as a whole."""
    return bool(re.search(r"coast", question, re.I)) and not _DIRECTIONAL.search(question)


def judge_coast(ctx: MapwiseContext, coastal: list[str], question: str,
                truth: str) -> tuple[str, str]:
    """(outcome, our answer) of a MapWise question about the coastal regions, answered
    from the table over cartoqa's coastal set (:mod:`groundtruth.thematic.coast`)."""
    q, t = question.strip(), truth.strip()
    # MapWise's India tables leave the coastal union territories empty: the questions
    # are compared over the coastal regions with data (cartoqa would not ask them).
    pool = [c for c in coastal if c in ctx.values]
    val = ctx.values

    def names(codes: list[str]) -> str:
        return ", ".join(ctx.regions[c].name for c in codes)

    def their_set() -> set[str | None]:
        return {_region(ctx.country, x) for x in re.split(r",|\n| and ", t) if x.strip()}

    def as_set(codes: list[str]) -> tuple[str, str]:
        got = their_set()
        if None in got:
            return "not compared: regions of the answer not read", names(codes)
        if got == set(codes):
            return "match", names(codes)
        return "differs: another set of coastal regions or values", names(codes)

    m = re.search(r"list the (\d+) .*?highest|which coastal (?:state|province) has the "
                  r"(highest|lowest)", q, re.I)
    if m:
        n = int(m.group(1)) if m.group(1) else 1
        way = (m.group(2) or "highest").lower() == "highest"
        ranked = sorted(pool, key=lambda c: val[c], reverse=way)
        if n == 1:  # every region tied with the extreme (its class on discrete maps)
            return as_set(ctx.extreme(pool, way) or [])
        return as_set(ranked[:n])
    m = re.search(rf"(?:how many|count) .*?(?:value|values) (higher|lower|greater|less) than "
                  rf"({_NUM})", q, re.I)
    if m:
        x = number(m.group(2))
        hits = [c for c in pool if (val[c] > x if m.group(1).lower() in ("higher", "greater")
                                    else val[c] < x)]
        return ("match" if t == str(len(hits)) else
                "differs: another count of coastal regions"), str(len(hits))
    m = re.search(rf"(?:how many|count) .*?range\s*({_NUM})\s*-\s*({_NUM})", q, re.I)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        hits = [c for c in pool if lo <= val[c] <= hi]
        return ("match" if t == str(len(hits)) else
                "differs: another count of coastal regions"), str(len(hits))
    m = re.search(rf"which .*?(?:value|values) (higher|lower) than ({_NUM})\s*\??$", q, re.I)
    if m:
        x = number(m.group(2))
        return as_set(sorted(c for c in pool if (val[c] > x if m.group(1).lower() == "higher"
                                                 else val[c] < x)))
    m = re.search(rf"which .*?belong to range\s*({_NUM})\s*-\s*({_NUM})", q, re.I)
    if m:
        lo, hi = number(m.group(1)), number(m.group(2))
        return as_set(sorted(c for c in pool if lo <= val[c] <= hi))
    if re.search(r"coastal states have higher values on average than inland", q, re.I):
        inland = [c for c in ctx.values if c not in coastal]
        ans = (sum(val[c] for c in pool) / len(pool)) > (sum(val[c] for c in inland)
                                                         / len(inland))
        ours = "Yes" if ans else "No"
        return ("match" if t.lower().startswith(ours.lower())
                else "differs: averages over another coastal set"), ours
    m = re.search(rf"all coastal states have values (below|above) ({_NUM})", q, re.I)
    if m:
        x = number(m.group(2))
        ans = all(val[c] < x if m.group(1).lower() == "below" else val[c] > x for c in pool)
        ours = "Yes" if ans else "No"
        return ("match" if t.lower().startswith(ours.lower()) else "differs: all"), ours
    return "not compared: coastal template not answered from the table alone", ""


def _verdict(ours: str, theirs: str, data: str, same: Any) -> tuple[str, str]:
    if same(ours, theirs):
        return "match", ours
    if not same(theirs, data):
        return "differs: MapWise's answer disagrees with its own data", ours
    return "differs: other", ours


def compare(dataset: Path, maps: int, build: bool, coast: bool = False) -> dict[str, Outcome]:
    out: dict[str, Outcome] = {}
    coastal = ({c: coastal_regions(load_country(c).lonlat) for c in ("usa", "india", "china")}
               if coast else {})
    for country in ("usa", "india", "china"):
        res = out.setdefault(country, Outcome())
        with (dataset / country / "qna.csv").open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        by_map: dict[str, list[dict[str, str]]] = {}
        for r in rows:
            if not coast or is_coastal_question(r["question"]):
                by_map.setdefault(r["map_id"], []).append(r)
        files = sorted((dataset / country / "metadata").glob("map*.json"),
                       key=lambda p: [int(x) if x.isdigit() else x
                                      for x in re.split(r"(\d+)", p.stem)])
        for path in files:
            map_id = path.stem[3:].lstrip("_")  # map1_0C -> 1_0C; map_104 -> 104
            if map_id not in by_map or len(res.maps) >= maps:
                continue
            meta = json.loads(path.read_text())
            with tempfile.TemporaryDirectory() as tmp:
                table = _map_table(meta, Path(tmp), country)
                try:
                    ctx = _context(country, table)
                except Exception as exc:  # counted, with its one-line reason
                    res.counts[f"map refused: {str(exc).splitlines()[0][:80]}"] += 1
                    continue
                res.maps.append(map_id)
                if build:
                    run = subprocess.run(
                        [sys.executable, "-m", "cartoqa", "build", "--suite", "mapwise",
                         "--countries", country, "--data", str(table), "--maps", "1",
                         "--no-progress", "--out", str(Path(tmp) / "ds")],
                        capture_output=True, text=True, cwd=ROOT)
                    ok = run.returncode == 0 and "rejected by the pixel check: none" in run.stdout
                    res.built["built" if ok else "failed"] += 1
            for r in by_map[map_id]:
                verdict, ours = (judge_coast(ctx, coastal[country], r["question"],
                                             r["ground_truth"]) if coast else
                                 judge(ctx, meta, r["question"], r["ground_truth"]))
                res.counts[verdict] += 1
                if not verdict.startswith(("match", "not compared")):
                    res.details.append((map_id, r["question"], r["ground_truth"], ours, verdict))
    return out


def report(results: dict[str, Outcome]) -> str:
    lines = ["| country | maps | built | compared | match | other outcomes |",
             "|---|---|---|---|---|---|"]
    for country, res in results.items():
        compared = sum(n for k, n in res.counts.items()
                       if not k.startswith(("not compared", "map refused")))
        other = "; ".join(f"{k} {n}" for k, n in sorted(res.counts.items())
                          if k != "match")
        built = ", ".join(f"{k} {n}" for k, n in sorted(res.built.items())) or "-"
        lines.append(f"| {country} | {len(res.maps)} ({', '.join(res.maps)}) | {built} | "
                     f"{compared} | {res.counts['match']} | {other} |")
    lines += ["", "| country | map | question | MapWise | cartoqa | reason |",
              "|---|---|---|---|---|---|"]
    for country, res in results.items():
        for map_id, q, theirs, ours, why in res.details:
            lines.append(f"| {country} | {map_id} | {q} | {theirs} | {ours} | {why} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="checkout of map-wise/mapwise-dataset")
    parser.add_argument("--maps", type=int, default=8, help="maps per country (default 8)")
    parser.add_argument("--build", action="store_true",
                        help="also build each map with the CLI (draw and pixel check)")
    parser.add_argument("--coast", action="store_true",
                        help="compare only the questions about the coastal regions as a whole "
                             "(the first --maps maps per country that ask them)")
    parser.add_argument("--out", type=Path, help="write the report here (default: stdout)")
    args = parser.parse_args(argv)
    if not (args.dataset / "usa" / "qna.csv").is_file():
        print(f"{args.dataset}: not a MapWise dataset checkout (no usa/qna.csv)",
              file=sys.stderr)
        return 2
    text = report(compare(args.dataset, args.maps, args.build, args.coast))
    if args.out:
        args.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
