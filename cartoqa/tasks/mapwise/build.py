"""``cartoqa build --suite mapwise``: MapWise-style choropleths of the USA, India and
China and questions of six answer types.

One *slot* is one map: a country's variable drawn in one style (:data:`STYLES`:
discrete legends in light, dark and gradient ramps, black-and-white hatches, grey
paper, value annotations, colour bars), with its real values or counterfactual ones
(shuffled or inverted among the regions, flagged in every item). The build classifies
the values (Fisher-Jenks, five classes), draws the map, runs the pixel check (fills,
hatches, colour-bar values, labels) and rejects a map whose picture disagrees with its
data, counting rejections by reason; an accepted map gets the questions of the six
answer-type modules. Slots go through the staged, resumable
:class:`~cartoqa.dataset.writer.DatasetWriter`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.dataset.writer import DatasetWriter
from cartoqa.errors import CartoqaError
from cartoqa.tasks.common.base import slot_rng
from cartoqa.tasks.common.thematic.build import (
    ManifestParts,
    SlotBuilder,
    ThematicReport,
    build_key,
    card_head,
    run_thematic_build,
    variable_line,
)
from cartoqa.tasks.mapwise import SUITE, TASKS, task_modules
from cartoqa.tasks.mapwise.common import MapwiseContext, system_prompt
from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.classification import fisher_jenks, format_number
from groundtruth.thematic.countries import (
    COUNTRIES,
    DEFAULT_INDIA_EDITION,
    INDIA_EDITIONS,
    CountryRegions,
    load_country,
    region_code,
)
from groundtruth.thematic.country_variables import counterfactual, country_variables
from groundtruth.thematic.variables import Variable, read_user_table
from renderers.thematic.check import CONTINUOUS_TOLERANCE, check_styled
from renderers.thematic.design import HATCHES, PAPERS, ColourBar, Design, ramp_classes
from renderers.thematic.draw import IMAGE_SIZE, MapRequest, draw_map

SLOT_TASK = "mapwise"

#: Style name -> (legend kind, colour ramp, hatched, paper, annotated).
STYLES: dict[str, tuple[str, str, bool, str, bool]] = {
    "discrete_light": ("discrete", "light", False, "white", False),
    "continuous_gradient": ("continuous", "gradient", False, "white", False),
    "hatched": ("discrete", "light", True, "white", False),
    "discrete_dark": ("discrete", "dark", False, "white", False),
    "continuous_light": ("continuous", "light", False, "white", False),
    "annotated": ("discrete", "light", False, "white", True),
    "discrete_gradient": ("discrete", "gradient", False, "white", False),
    "continuous_dark": ("continuous", "dark", False, "grey", False),
    "grey": ("discrete", "light", False, "grey", False),
    "continuous_annotated": ("continuous", "gradient", False, "white", True),
}
#: Counterfactual modes, each drawn once per country (on the first real variable).
COUNTERFACTUALS: tuple[str, ...] = ("shuffle", "invert")


@dataclass(frozen=True)
class MapPlan:
    """One map to draw."""

    index: int
    country: str
    variable: Variable
    style: str
    counterfactual: str = "none"


#: The outcome of :func:`build_mapwise_dataset` (the same record as MapIQ's).
MapwiseReport = ThematicReport


def parse_countries(text: str) -> list[str]:
    """``"all"`` or a comma-separated list of countries.

    Examples
    --------
    >>> parse_countries("all"), parse_countries("china, india")
    (['usa', 'india', 'china'], ['india', 'china'])
    """
    text = text.strip().lower()
    if text in ("", "all"):
        return list(COUNTRIES)
    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [n for n in names if n not in COUNTRIES]
    if unknown:
        raise CartoqaError(f"unknown country {', '.join(unknown)}",
                           fix="choose from all, " + ", ".join(COUNTRIES))
    return [c for c in COUNTRIES if c in names]


def colour_bar(values: dict[str, float], ramp: str) -> ColourBar:
    """A colour bar whose end ticks enclose the values, with about five nice ticks.

    Examples
    --------
    >>> colour_bar({"a": 3.2, "b": 47.0}, "light").tick_labels
    ('0', '10', '20', '30', '40', '50')
    >>> colour_bar({"a": 3200.0, "b": 11000.0}, "light").tick_labels
    ('2k', '4k', '6k', '8k', '10k', '12k')
    """
    from matplotlib.ticker import MaxNLocator

    lo, hi = min(values.values()), max(values.values())
    ticks = [float(t) for t in MaxNLocator(nbins=5).tick_values(lo, hi)]
    ticks = [t for i, t in enumerate(ticks)
             if (i + 1 == len(ticks) or ticks[i + 1] > lo) and (i == 0 or ticks[i - 1] < hi)]
    assert ticks[0] <= lo and hi <= ticks[-1]
    labels = tuple(short_number(t) for t in ticks)
    return ColourBar(ramp, ticks[0], ticks[-1], tuple(ticks), labels)


def short_number(x: float) -> str:
    """A tick label with MapWise's suffixes: ``k`` for thousands, ``M`` for millions.

    Examples
    --------
    >>> short_number(12500.0), short_number(2e6), short_number(250.0), short_number(0.5)
    ('12.5k', '2M', '250', '0.5')
    """
    for div, suffix in ((1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{format_number(x / div, 6)}{suffix}"
    return format_number(x, 6)


def plan_maps(variables: dict[str, list[Variable]], maps_per_country: int,
              seed: int) -> list[MapPlan]:
    """Per country: ``maps_per_country`` maps cycling through the variables and the
    styles, the last :data:`COUNTERFACTUALS` of them counterfactual versions of the
    first real variable (shuffled in a discrete style, inverted on a colour bar)."""
    plans: list[MapPlan] = []
    styles = list(STYLES)
    for country, vs in variables.items():
        n_cf = min(len(COUNTERFACTUALS), max(0, maps_per_country - 1))
        for i in range(maps_per_country - n_cf):
            plans.append(MapPlan(len(plans), country, vs[i % len(vs)],
                                 styles[i % len(styles)]))
        real = next((v for v in vs if not v.generated), vs[0])
        for j, mode in enumerate(COUNTERFACTUALS[:n_cf]):
            plans.append(MapPlan(len(plans), country, counterfactual(real, mode, seed),
                                 ("discrete_light", "continuous_gradient")[j % 2], mode))
    return plans


class MapwiseBuilder:
    """Boundaries and adjacency of each country, loaded once."""

    def __init__(self, countries: Sequence[str], seed: int,
                 india_edition: str = DEFAULT_INDIA_EDITION) -> None:
        self.seed = seed
        self.regions: dict[str, CountryRegions] = {c: _load(c, india_edition)
                                                   for c in countries}
        self.queen = {c: queen_adjacency(r.lonlat) for c, r in self.regions.items()}

    def make_slot(self, plan: MapPlan, rejected: Counter[str],
                  skipped: Counter[str]) -> tuple[list[dict[str, Any]], bytes] | None:
        """Items and image of one map, or ``None`` (reason counted in ``rejected``)."""
        var = plan.variable
        regions = self.regions[plan.country]
        try:
            classification = fisher_jenks(var.values)
        except ValueError:
            rejected["too_few_distinct_values"] += 1
            return None
        legend, ramp, hatched, paper, annotated = STYLES[plan.style]
        design = Design(colours=ramp_classes(ramp), hatches=HATCHES if hatched else None,
                        paper=PAPERS[paper],
                        callout_sides=1 if plan.country == "usa" else 2)
        bar = colour_bar(var.values, ramp) if legend == "continuous" else None
        notes = {c: format_number(v, 3) for c, v in var.values.items()} if annotated else None
        geoms = dict(regions.projected)
        drawn = draw_map(MapRequest("choropleth", var.title, classification.classes,
                                    classification.labels, geoms, design, bar,
                                    dict(var.values), notes))
        problems = check_styled(drawn.png, drawn.report, classification.classes,
                                design.colours, var.values)
        if problems:
            for reason in sorted({p.reason for p in problems}):
                rejected[reason] += 1
            return None
        ctx = MapwiseContext(plan.country, regions.regions, var.title, dict(var.values),
                             classification, bar, self.queen[plan.country])
        rng = slot_rng(self.seed, SLOT_TASK, plan.index)
        image = f"images/mapwise-{plan.index:04d}.png"
        prompt = system_prompt(ctx)
        items: list[dict[str, Any]] = []
        for module in task_modules():
            spec = module.SPEC
            for n, q in enumerate(module.make_questions(ctx, rng, skipped)):
                items.append({
                    "id": f"{spec.name}-{plan.index:04d}-{n}",
                    "task": spec.name,
                    "request": q.request,
                    "image": image,
                    "system_prompt": prompt,
                    "question": q.text,
                    "options": None,
                    "answer": q.answer,
                    "strata": {"country": plan.country, "legend": legend, "style": plan.style,
                               "counterfactual": plan.counterfactual,
                               "question_type": q.request, "template": q.template,
                               "theme": var.theme, "generated_data": var.generated},
                    "provenance": {
                        "suite": SUITE, "seed": self.seed, "slot": plan.index,
                        "country": plan.country, "variable": var.key, "title": var.title,
                        "source": var.source, "licence": var.licence,
                        "generated": var.generated, "counterfactual": plan.counterfactual,
                        "style": plan.style, "map_type": "choropleth",
                        "boundaries": regions.source, "boundary_version": regions.version,
                        **({"boundary_edition": regions.edition}
                           if plan.country == "india" else {}),
                        "classification": {"method": classification.method,
                                           "k": classification.k,
                                           "labels": list(classification.labels)},
                        "colour_bar": bar.card() if bar else None,
                        "asked_regions": sorted(set(q.asked)),
                    },
                })
        return items, drawn.png


def _load(country: str, india_edition: str) -> CountryRegions:
    """A country's regions; India in the chosen boundary edition."""
    return load_country(country, india_edition if country == "india" else None)


def parse_india_edition(text: str) -> str:
    """India's boundary edition by name (:data:`~groundtruth.thematic.countries.INDIA_EDITIONS`).

    Examples
    --------
    >>> parse_india_edition(" 2014 "), parse_india_edition("PRE2014")
    ('2014', 'pre2014')
    """
    name = text.strip().lower()
    if name not in INDIA_EDITIONS:
        raise CartoqaError(f"unknown India boundary edition {text!r}",
                           fix="choose from " + ", ".join(INDIA_EDITIONS))
    return name


def load_variables(countries: Sequence[str], data: Path | None, seed: int,
                   india_edition: str = DEFAULT_INDIA_EDITION) -> dict[str, list[Variable]]:
    """The packaged variables per country, or the columns of a user table (one country:
    a ``region`` column of names or codes, or ``state``, and value columns)."""
    if data is not None:
        if len(countries) != 1:
            raise CartoqaError("a user table (--data) describes one country",
                               fix="pass --countries with exactly one country")
        country = countries[0]
        keep = tuple(_load(country, india_edition).regions)

        def resolve(text: str) -> str | None:
            code = region_code(country, text)
            if code is not None and code not in keep:  # Telangana on the pre-2014 map
                raise CartoqaError(f"{data}: {text!r} is not a region of the "
                                   f"{india_edition} map of {country}",
                                   fix="use --india-boundaries 2014, or leave the row out")
            return code

        variables = read_user_table(data, resolve=resolve, keep=keep)
        if not variables:
            raise CartoqaError(f"{data} has no value column", fix="add one")
        return {country: variables}
    return {c: country_variables(_load(c, india_edition), seed=seed) for c in countries}


def build_mapwise_dataset(*, out: Path, seed: int = 0, countries: Sequence[str] = COUNTRIES,
                          data: Path | None = None, maps_per_country: int = 12,
                          india_edition: str = DEFAULT_INDIA_EDITION, progress: bool = True,
                          log: Callable[[str], None] | None = None) -> MapwiseReport:
    """Build (or resume, or confirm) a MapWise dataset folder.

    Parameters
    ----------
    out : pathlib.Path
        Dataset folder.
    seed : int
        Seed of every random choice.
    countries : sequence of str
        Countries to map.
    data : pathlib.Path, optional
        A user CSV for one country instead of the packaged variables.
    maps_per_country : int
        Maps per country (the last two counterfactual).
    india_edition : str
        India's boundary edition: ``"2014"`` (36 units, Telangana separate; default) or
        ``"pre2014"`` (35 units); see :data:`groundtruth.thematic.countries.INDIA_EDITIONS`.
    progress : bool
        Show a progress bar.
    log : callable, optional
        One-line notices; default stderr.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    variables = load_variables(countries, data, seed, india_edition)
    plans = plan_maps(variables, maps_per_country, seed)
    editions = {"india_boundaries": india_edition} if "india" in variables else {}
    writer = DatasetWriter(out, build_key=build_key(
        SUITE, {c: [[v.key, v.values] for v in vs] for c, vs in variables.items()},
        countries=list(variables), seed=seed, maps_per_country=maps_per_country, **editions))
    return run_thematic_build(
        writer, suite=SUITE, task=SLOT_TASK, plans=plans,
        make_builder=lambda: MapwiseBuilder(list(variables), seed, india_edition),
        manifest_parts=lambda builder: _manifest_parts(builder, variables),
        card_for=render_mapwise_card, progress=progress, say=say)


def _manifest_parts(builder: SlotBuilder,
                    variables: dict[str, list[Variable]]) -> ManifestParts:
    """MapWise's sources (boundaries per country, the variables) and styles."""
    assert isinstance(builder, MapwiseBuilder)
    boundaries = {c: {"source": r.source, "version": r.version, "edition": r.edition}
                  for c, r in builder.regions.items()}
    sources = sorted({(v.source, v.licence) for vs in variables.values() for v in vs})
    return ManifestParts(
        attribution="; ".join([b["source"] for b in boundaries.values()]
                              + [f"{s} ({lic})" for s, lic in sources]),
        sources={"boundaries": boundaries,
                 "variables": [{**v.card(), "country": c}
                               for c, vs in variables.items() for v in vs]},
        rendering={"library": "matplotlib (Agg)", "size": list(IMAGE_SIZE),
                   "classes": "Fisher-Jenks, 5 (mapclassify)",
                   "styles": {k: dict(zip(("legend", "ramp", "hatched", "paper", "annotated"),
                                          v, strict=True)) for k, v in STYLES.items()},
                   "continuous_tolerance": CONTINUOUS_TOLERANCE})


def render_mapwise_card(manifest: dict[str, Any]) -> str:
    """The dataset card (README.md) of a MapWise dataset."""
    lines = card_head(
        manifest,
        title="cartoqa dataset: MapWise-style choropleths of the USA, India and China",
        summary="Choropleth maps with discrete (classed, hatched) and continuous (colour bar) "
        "legends, generated by `cartoqa build --suite mapwise`, with questions of six "
        "answer types. Ground truth comes from the data; every map passed the pixel check "
        "(fills, hatches, colour-bar values, labels) before its questions were kept. "
        "Counterfactual maps (values shuffled or inverted among regions) are flagged in "
        "`strata.counterfactual`.",
        facts=[], blurbs={t: s.blurb for t, s in TASKS.items()}, request_column=False)
    lines += ["", "## Boundaries", ""]
    for country, b in (manifest.get("sources", {}).get("boundaries") or {}).items():
        edition = f" (edition `{b['edition']}`)" if b.get("edition", "default") != "default" else ""
        lines.append(f"- {country}: {b['source']}. Version{edition}: {b['version']}.")
    lines += ["", "## Data sources and licences", ""]
    lines += [variable_line(v, f"{v.get('country')} `{v['key']}`")
              for v in manifest.get("sources", {}).get("variables", [])]
    lines.append("")
    return "\n".join(lines)


__all__ = ["STYLES", "MapPlan", "MapwiseReport", "build_mapwise_dataset", "colour_bar",
           "parse_countries", "parse_india_edition", "plan_maps"]
