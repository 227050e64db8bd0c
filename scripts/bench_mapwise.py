"""Benchmark the MapWise suite: draw and pixel-check time per style and country.

Usage::

    .venv/bin/python scripts/bench_mapwise.py [--maps 3] [--countries usa,india,china]

Measured side by side in one run, for each country and style: drawing alone and the
pixel check alone (seconds per map), and each style's cost relative to the plain
discrete map (``discrete_light``) of the same country.
"""

from __future__ import annotations

import argparse
import time

from cartoqa.tasks.mapwise.build import STYLES, colour_bar, parse_countries
from groundtruth.thematic.classification import fisher_jenks, format_number
from groundtruth.thematic.countries import load_country
from groundtruth.thematic.country_variables import country_variables
from renderers.thematic.check import check_styled
from renderers.thematic.design import HATCHES, PAPERS, Design, ramp_classes
from renderers.thematic.draw import MapRequest, draw_map


def main() -> None:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=3, help="maps per measurement")
    ap.add_argument("--countries", default="all", help="all or a comma-separated list")
    args = ap.parse_args()
    print(f"{'country':8} {'style':22} {'draw s/map':>10} {'check s/map':>11} {'x plain':>8}")
    for country in parse_countries(args.countries):
        regions = load_country(country)
        variables = [v for v in country_variables(regions) if not v.generated][: args.maps]
        plain = 0.0
        for style, (legend, ramp, hatched, paper, annotated) in STYLES.items():
            design = Design(colours=ramp_classes(ramp), hatches=HATCHES if hatched else None,
                            paper=PAPERS[paper], callout_sides=1 if country == "usa" else 2)
            draw_s = check_s = 0.0
            for var in variables:
                c = fisher_jenks(var.values)
                bar = colour_bar(var.values, ramp) if legend == "continuous" else None
                notes = ({k: format_number(v, 3) for k, v in var.values.items()}
                         if annotated else None)
                req = MapRequest("choropleth", var.title, c.classes, c.labels,
                                 dict(regions.projected), design, bar, dict(var.values), notes)
                t0 = time.perf_counter()
                drawn = draw_map(req)
                t1 = time.perf_counter()
                problems = check_styled(drawn.png, drawn.report, c.classes, design.colours,
                                        var.values)
                t2 = time.perf_counter()
                draw_s += t1 - t0
                check_s += t2 - t1
                if problems:
                    print(f"  {country} {style} {var.key}: {len(problems)} problem(s)")
            total = (draw_s + check_s) / len(variables)
            if style == "discrete_light":
                plain = total
            print(f"{country:8} {style:22} {draw_s / len(variables):10.2f} "
                  f"{check_s / len(variables):11.2f} {total / plain:8.2f}")


if __name__ == "__main__":
    main()
