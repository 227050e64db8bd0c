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
from dataclasses import dataclass, replace
from functools import lru_cache
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
from cartoqa.tasks.mapwise.common import (
    DEFAULT_PROMPT_MODE,
    PROMPT_MODES,
    MapwiseContext,
    system_prompt,
)
from cartoqa.tasks.mapwise.table_spec import TableSpec, read_spec
from groundtruth.thematic.adjacency import queen_adjacency, shared_border_adjacency
from groundtruth.thematic.classification import (
    DEFAULT_K,
    Classification,
    fisher_jenks,
    format_number,
)
from groundtruth.thematic.coast import COAST_SOURCE, coastal_regions
from groundtruth.thematic.counterfactual_names import NAME_COUNTERFACTUALS, relabelled
from groundtruth.thematic.countries import (
    COUNTRIES,
    DEFAULT_INDIA_EDITION,
    INDIA_EDITIONS,
    US_INSETS,
    CountryRegions,
    Region,
    load_country,
    region_code,
    region_table,
)
from groundtruth.thematic.country_variables import counterfactual, country_variables, with_gaps
from groundtruth.thematic.parts import PART_SOURCES, Part, coast_parts, country_parts
from groundtruth.thematic.variables import Variable, read_user_table
from renderers.thematic.check import CONTINUOUS_TOLERANCE, check_styled
from renderers.thematic.design import HATCH_SETS, PAPERS, ColourBar, Design, ramp_classes
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
#: Which real map of each country (0-based) withholds :data:`MISSING_PER_MAP` regions'
#: values, drawn as no data (MapWise's tables have such gaps; missing-data questions).
GAPS_AT = 6
MISSING_PER_MAP = 3
#: Classes of each discrete style's legend when a plan draws none (publishers draw 3 to
#: 8); others have five. :func:`plan_maps` draws each map's count from
#: :data:`STYLE_CLASS_CHOICES` instead.
#: Each count keeps neighbouring class colours about ΔE 15 or more apart on its ramp
#: (dark: 19 at four classes, 14.7 at six, too close by eye; viridis: 30 at eight).
#: Hatched maps draw four (:data:`~renderers.thematic.design.HATCH_SETS` has patterns for
#: three to five classes).
STYLE_CLASSES: dict[str, int] = {"discrete_dark": 4, "annotated": 4, "discrete_gradient": 8,
                                 "grey": 3, "hatched": 4}
#: The class counts each discrete style may draw, one per map in turn (issue 29: with one
#: count per style, ``legend_class_count`` answered 4 or 5 on 18 of 24 maps). Smallest
#: neighbouring-class ΔE*ab of the ramps (:func:`~renderers.thematic.design.ramp_classes`):
#: light 23.4 / 15.6 / 12.0 at 3 / 4 / 5 classes (9.5 at six), dark 37.3 / 24.4 / 18.5
#: (14.6 at six, too close by eye), viridis 41.9 / 35.3 / 30.2 at 6 / 7 / 8; hatches exist
#: for three to five classes; ``grey`` (light ramp on grey paper) keeps to 3 and 4.
STYLE_CLASS_CHOICES: dict[str, tuple[int, ...]] = {
    "discrete_light": (3, 4, 5), "hatched": (3, 4, 5), "discrete_dark": (3, 4, 5),
    "annotated": (3, 4, 5), "discrete_gradient": (6, 7, 8), "grey": (3, 4)}
#: Which real maps of each country (0-based) are drawn without region labels (MapWise's
#: ``wo_annotations`` maps: no codes, no callouts; a reader knows the regions by shape
#: and position). Regions too small to see there are never asked about
#: (:func:`needs_hidden`). Styles that print values (annotated) keep their labels.
UNLABELLED_AT: frozenset[int] = frozenset({3, 7})
#: Shortest shared border (share of the country's east-west extent; about 4 pixels of a
#: map 860 pixels wide) for two regions to count as neighbours in questions.
MIN_BORDER_SHARE = 0.005
#: Styles whose legend lists the highest class first.
REVERSED_STYLES: frozenset[str] = frozenset({"discrete_dark", "grey"})
#: Counterfactual modes, each drawn once per country (on the first real variable), in
#: this order as ``--maps`` allows: MapWise's name counterfactuals (``imaginary``:
#: invented names; ``shuffled``: the real names permuted among the regions;
#: :mod:`groundtruth.thematic.counterfactual_names`), MapWise's ``jumbled`` (the values
#: permuted among the regions, the labels real) and ``invert`` (each value's rank turned
#: over).
COUNTERFACTUALS: tuple[str, ...] = ("imaginary", "shuffled", "jumbled", "invert")
#: Value counterfactual -> the mode of :func:`~groundtruth.thematic.country_variables.
#: counterfactual` that makes it.
VALUE_COUNTERFACTUALS: dict[str, str] = {"jumbled": "shuffle", "invert": "invert"}


@dataclass(frozen=True)
class MapPlan:
    """One map to draw."""

    index: int
    country: str
    variable: Variable
    style: str
    counterfactual: str = "none"
    spec: TableSpec | None = None
    labelled: bool = True
    classes: int | None = None

    @property
    def k(self) -> int:
        """Classes of a discrete legend (the spec's; else the count drawn for this map,
        :func:`class_counts`; else the style's)."""
        if self.spec is not None:
            return self.spec.k
        if self.classes is not None:
            return self.classes
        return STYLE_CLASSES.get(self.style, DEFAULT_K)

    @property
    def reversed(self) -> bool:
        """Whether the legend lists the highest class first."""
        if self.spec is not None:
            return self.spec.reversed
        return self.style in REVERSED_STYLES

    def classify(self) -> Classification:
        """The map's classes: the spec's (published ranges, breaks, k) or :attr:`k`
        Fisher-Jenks classes (fewer, down to five, when the values do not fill them)."""
        values = self.variable.values
        if self.spec is not None and (self.spec.classes or self.spec.breaks):
            return self.spec.classify(values)
        for k in dict.fromkeys((self.k, DEFAULT_K)):
            try:
                return fisher_jenks(values, k)
            except ValueError:
                continue
        raise ValueError("too few distinct values")


#: The outcome of :func:`build_mapwise_dataset` (the same record as MapIQ's).
MapwiseReport = ThematicReport


def is_percent(title: str) -> bool:
    """Whether a variable's title says its values are percentages.

    Examples
    --------
    >>> is_percent("Literacy rate (%) [generated]"), is_percent("Number of airports")
    (True, False)
    """
    low = title.lower()
    return "%" in low or "percent" in low


def parse_prompt_mode(text: str) -> str:
    """A prompt mode by name (:data:`~cartoqa.tasks.mapwise.common.PROMPT_MODES`).

    Examples
    --------
    >>> parse_prompt_mode(" CoT ")
    'cot'
    """
    name = text.strip().lower()
    if name not in PROMPT_MODES:
        raise CartoqaError(f"unknown prompt mode {text!r}",
                           fix="choose from " + ", ".join(PROMPT_MODES))
    return name


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


def class_counts(styles: Sequence[str], seed: int) -> list[int | None]:
    """The class count of each map, in plan order (``None`` for a style without a
    choice: colour bars).

    Each discrete map takes, among its style's :data:`STYLE_CLASS_CHOICES`, a count used
    least so far in the build (ties broken in a seeded order): the answer of
    ``legend_class_count`` is balanced over the build instead of fixed by the style (the
    default build's 21 light, dark, hatched, annotated and grey maps draw 3, 4 and 5
    seven times each, its three viridis maps 6, 7 and 8 once).

    Examples
    --------
    >>> ks = class_counts(["discrete_light", "hatched", "continuous_gradient",
    ...                    "discrete_dark", "grey", "annotated"], 0)
    >>> ks[2] is None, sorted(ks[i] for i in (0, 1, 3)), ks[4] in (3, 4)
    (True, [3, 4, 5], True)
    """
    rng = slot_rng(seed, "mapwise-classes")
    used: Counter[int] = Counter()
    out: list[int | None] = []
    for style in styles:
        choices = STYLE_CLASS_CHOICES.get(style)
        if choices is None:
            out.append(None)
            continue
        least = min(used[k] for k in choices)
        k = rng.choice([c for c in choices if used[c] == least])
        used[k] += 1
        out.append(k)
    return out


def plan_maps(variables: dict[str, list[Variable]], maps_per_country: int,
              seed: int, spec: TableSpec | None = None) -> list[MapPlan]:
    """Per country: ``maps_per_country`` maps cycling through the variables and the
    styles, the last :data:`COUNTERFACTUALS` of them counterfactual versions of the
    first real variable (shuffled in a discrete style, inverted on a colour bar); the
    map at :data:`GAPS_AT` withholds :data:`MISSING_PER_MAP` regions' values. Discrete
    maps take their class counts from :func:`class_counts`."""
    plans: list[MapPlan] = []
    styles = list(STYLES)
    if spec is not None:  # a publisher's legend: its kind; hatches only with five classes
        styles = [s for s in STYLES if _style_fits(s, spec)]
    for country, vs in variables.items():
        n_cf = min(len(COUNTERFACTUALS), max(0, maps_per_country - 1))
        for i in range(maps_per_country - n_cf):
            var = vs[i % len(vs)]
            if i == GAPS_AT and len(var.values) > 2 * MISSING_PER_MAP:
                var = with_gaps(var, MISSING_PER_MAP, seed)
            style = styles[i % len(styles)]
            plans.append(MapPlan(len(plans), country, var, style, spec=spec,
                                 labelled=i not in UNLABELLED_AT or STYLES[style][4]))
        real = next((v for v in vs if not v.generated), vs[0])
        for j, mode in enumerate(COUNTERFACTUALS[:n_cf]):
            cf_styles = [s for s in ("discrete_light", "continuous_gradient") if s in styles]
            cf_var = (counterfactual(real, VALUE_COUNTERFACTUALS[mode], seed)
                      if mode in VALUE_COUNTERFACTUALS else real)
            plans.append(MapPlan(len(plans), country, cf_var,
                                 (cf_styles or styles)[j % len(cf_styles or styles)], mode,
                                 spec=spec))
    if spec is None:  # a publisher's legend keeps its own classes
        ks = class_counts([p.style for p in plans], seed)
        plans = [p if k is None else replace(p, classes=k) for p, k in zip(plans, ks,
                                                                           strict=True)]
    return plans


#: Kinds of named part that a reader can find by position alone (along the border with
#: Canada, on a coast): the only parts asked about on a name-counterfactual map, where an
#: administrative group ("the South Census region") would leave open whether it means
#: the real states or the states the labels name.
POSITIONAL_PART_KINDS: frozenset[str] = frozenset({"border", "coast"})


def _parts_for(country: str, geoms: dict[str, Any], mode: str,
               coastal: Sequence[str] = ()) -> dict[str, tuple[Part, list[str]]]:
    """The named parts questions may use on a map (positional ones only on a name
    counterfactual): the official groupings, and the coastal and inland regions."""
    parts = {**country_parts(country, geoms), **coast_parts(country, coastal, geoms)}
    if mode in NAME_COUNTERFACTUALS:
        parts = {k: v for k, v in parts.items() if v[0].kind in POSITIONAL_PART_KINDS}
    return parts


def shown_answer(answer: dict[str, Any], shown: dict[str, Region]) -> dict[str, Any]:
    """An answer written in the codes a name-counterfactual map shows: the region codes
    in ``accepted``, ``items``, ``order`` and the keys of ``levels`` become the codes
    drawn on those regions (``text`` already names what the map shows).

    Examples
    --------
    >>> shown_answer({"items": ["MS"], "count": 1}, {"MS": Region("WI", "Wisconsin")})
    {'items': ['WI'], 'count': 1}
    """
    out = dict(answer)
    for key in ("accepted", "items", "order"):
        if isinstance(out.get(key), list):
            out[key] = [shown[c].code if c in shown else c for c in out[key]]
    if isinstance(out.get("levels"), dict):
        out["levels"] = {shown[c].code if c in shown else c: v
                         for c, v in out["levels"].items()}
    return out


def region_labels(shown: dict[str, Region]) -> dict[str, dict[str, Any]]:
    """``provenance.region_labels``: each region's real code -> the code and name drawn
    on it (what :func:`cartoqa.parsing.kinds.item_names` resolves answers by)."""
    return {c: {"code": r.code, "name": r.name, **({"aliases": list(r.aliases)}
                                                   if r.aliases else {})}
            for c, r in sorted(shown.items())}


def needs_hidden(q: Any, hidden: frozenset[str]) -> bool:
    """Whether a question needs a region a map without labels does not show: one it
    names or relies on (``asked``), or one in its answer (``accepted``, ``items``,
    ``order``, ``levels``).

    Examples
    --------
    >>> from cartoqa.tasks.mapwise.common import Question
    >>> q = Question("list", "in_class", "?", {"items": ["DC", "MD"]}, ["DC", "MD"])
    >>> needs_hidden(q, frozenset({"DC"})), needs_hidden(q, frozenset({"RI"}))
    (True, False)
    """
    regions = set(q.asked)
    for key in ("accepted", "items", "order"):
        if isinstance(q.answer.get(key), list):
            regions |= set(q.answer[key])
    if isinstance(q.answer.get("levels"), dict):
        regions |= set(q.answer["levels"])
    return bool(regions & hidden)


def _width(geoms: dict[str, Any]) -> float:
    """East-west extent of a set of projected geometries."""
    bounds = [g.bounds for g in geoms.values()]
    return max(b[2] for b in bounds) - min(b[0] for b in bounds)


def _style_fits(style: str, spec: TableSpec) -> bool:
    """Whether a style can draw a table as its spec asks (legend kind; hatches need three
    to five classes, :data:`~renderers.thematic.design.HATCH_SETS`)."""
    legend, _, hatched, _, _ = STYLES[style]
    if spec.legend is not None and legend != spec.legend:
        return False
    k = (len(spec.classes) if spec.classes else len(spec.breaks) - 1 if spec.breaks
         else spec.k)
    return not (hatched and k not in HATCH_SETS)


class MapwiseBuilder:
    """Boundaries and adjacency of each country, loaded once."""

    def __init__(self, countries: Sequence[str], seed: int,
                 india_edition: str = DEFAULT_INDIA_EDITION,
                 prompt_mode: str = DEFAULT_PROMPT_MODE,
                 us_edition: str | None = None) -> None:
        self.seed = seed
        self.prompt_mode = prompt_mode
        self.regions: dict[str, CountryRegions] = {c: _load(c, india_edition, us_edition)
                                                   for c in countries}
        # Neighbours as a reader sees them: a shared border of at least
        # MIN_BORDER_SHARE of the country's width (about 4 pixels on the map).
        self.queen = {c: shared_border_adjacency(
            r.projected, MIN_BORDER_SHARE * _width(r.projected), queen_adjacency(r.lonlat))
            for c, r in self.regions.items()}
        self.points = {c: {k: (p.x, p.y) for k, g in r.projected.items()
                           for p in [g.representative_point()]}
                       for c, r in self.regions.items()}
        self.all_regions = {f"{c}:{k}": r for c, cr in self.regions.items()
                            for k, r in region_table(c).items()}
        self.bounds = {c: {k: tuple(g.bounds) for k, g in r.projected.items()}
                       for c, r in self.regions.items()}
        # Coastal regions from land and sea (groundtruth.thematic.coast).
        self.coastal = {c: list(_coastal(c, india_edition, us_edition)) for c in countries}

    def make_slot(self, plan: MapPlan, rejected: Counter[str],
                  skipped: Counter[str]) -> tuple[list[dict[str, Any]], bytes] | None:
        """Items and image of one map, or ``None`` (reason counted in ``rejected``)."""
        var = plan.variable
        regions = self.regions[plan.country]
        try:
            classification = plan.classify()
        except ValueError:
            rejected["too_few_distinct_values"] += 1
            return None
        legend, ramp, hatched, paper, annotated = STYLES[plan.style]
        k = classification.k
        design = Design(colours=ramp_classes(ramp, k),
                        hatches=HATCH_SETS.get(k) if hatched else None,
                        paper=PAPERS[paper], legend_reversed=plan.reversed,
                        callout_sides=1 if plan.country == "usa" and regions.edition != "insets"
                        else 2, region_labels=plan.labelled)
        hatched = design.hatches is not None
        bar = colour_bar(var.values, ramp) if legend == "continuous" else None
        notes = ({c: format_number(v, 3) for c, v in var.values.items()}
                 if annotated and plan.labelled else None)
        geoms = dict(regions.projected)
        shown = (relabelled(plan.counterfactual, {c: regions.regions[c] for c in geoms},
                            self.seed + plan.index,
                            avoid=self.all_regions)
                 if plan.counterfactual in NAME_COUNTERFACTUALS and plan.labelled else None)
        drawn = draw_map(MapRequest("choropleth", var.title, classification.classes,
                                    classification.labels, geoms, design, bar,
                                    dict(var.values), notes,
                                    {c: r.code for c, r in shown.items()} if shown else None))
        problems = check_styled(drawn.png, drawn.report, classification.classes,
                                design.colours, var.values)
        if problems:
            for reason in sorted({p.reason for p in problems}):
                rejected[reason] += 1
            return None
        ctx = MapwiseContext(
            plan.country, shown or regions.regions, var.title, dict(var.values),
            classification, bar,
            self.queen[plan.country],
            printed={c: float(t) for c, t in notes.items()} if notes else None,
            drawn=tuple(sorted(geoms)),
            parts=_parts_for(plan.country, geoms, plan.counterfactual,
                             self.coastal[plan.country]),
            points=self.points[plan.country], bounds=self.bounds[plan.country],
            colours=design.colours, ramp=ramp, hatched=hatched,
            percent=(plan.spec.percent if plan.spec is not None and plan.spec.units
                     else is_percent(var.title) if var.theme != "user" or "%" in var.title
                     else None),
            prompt_mode=self.prompt_mode, labelled=plan.labelled,
            hidden=frozenset(c for c, info in drawn.report["states"].items()
                             if info.get("hidden")))
        rng = slot_rng(self.seed, SLOT_TASK, plan.index)
        image = f"images/mapwise-{plan.index:04d}.png"
        prompt = system_prompt(ctx)
        items: list[dict[str, Any]] = []
        for module in task_modules():
            spec = module.SPEC
            asked = module.make_questions(ctx, rng, skipped)
            if ctx.hidden:
                for q in asked:
                    if needs_hidden(q, ctx.hidden):
                        skipped[f"{q.template}_hidden_region"] += 1
                asked = [q for q in asked if not needs_hidden(q, ctx.hidden)]
            for n, q in enumerate(asked):
                items.append({
                    "id": f"{spec.name}-{plan.index:04d}-{n}",
                    "task": spec.name,
                    "request": q.request,
                    "image": image,
                    "system_prompt": prompt,
                    "question": q.text,
                    "options": None,
                    "answer": shown_answer(q.answer, shown) if shown else q.answer,
                    "strata": {"country": plan.country, "legend": legend, "style": plan.style,
                               "counterfactual": plan.counterfactual,
                               "question_type": q.request, "template": q.template,
                               "family": q.family, "prompt_mode": self.prompt_mode,
                               "missing_data": bool(ctx.missing),
                               "region_labels": plan.labelled,
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
                                           "labels": list(classification.labels),
                                           "reversed": plan.reversed},
                        "colour_bar": bar.card() if bar else None,
                        "no_data_regions": ctx.missing,
                        "region_labels_drawn": plan.labelled,
                        **({"hidden_regions": sorted(ctx.hidden)} if not plan.labelled
                           else {}),
                        "prompt_mode": self.prompt_mode,
                        "parts_source": f"{PART_SOURCES[plan.country]}; coasts: "
                                        f"{COAST_SOURCE}",
                        "asked_regions": sorted(set(q.asked)),
                        **({"region_labels": region_labels(shown)} if shown else {}),
                    },
                })
        return items, drawn.png


def apply_spec(variables: list[Variable], spec: TableSpec, data: Path | None) -> list[Variable]:
    """The table's variables as its spec asks: one column, its title, its classes checked
    against the values (one line naming the first value in no class)."""
    from dataclasses import replace

    if spec.column is not None:
        variables = [v for v in variables if v.title == spec.column]
        if not variables:
            raise CartoqaError(f"{data}: the spec's column {spec.column!r} is not in the "
                               "table", fix="name a value column of the CSV")
    if spec.title is not None:
        variables = [replace(v, title=spec.title) for v in variables]
    for v in variables:
        try:
            spec.classify(v.values)
        except ValueError as exc:
            raise CartoqaError(f"{data}: {exc}", fix="fix the spec's classes, breaks or k") \
                from None
    return variables


def _load(country: str, india_edition: str, us_edition: str | None = None) -> CountryRegions:
    """A country's regions; India in the chosen boundary edition, the USA contiguous or
    with Alaska and Hawaii as insets."""
    if country == "usa":
        return load_country(country, us_edition)
    return load_country(country, india_edition if country == "india" else None)


@lru_cache(maxsize=8)
def _coastal(country: str, india_edition: str, us_edition: str | None) -> tuple[str, ...]:
    """The coastal regions of a country's boundaries (a few seconds of geometry: each
    builder of the same boundaries in a process reuses them)."""
    return tuple(coastal_regions(_load(country, india_edition, us_edition).lonlat))


def us_edition_for(variables: dict[str, list[Variable]]) -> str | None:
    """``"insets"`` when a US variable has a value for Alaska or Hawaii, else None (the
    contiguous map)."""
    vs = variables.get("usa", [])
    return "insets" if any(set(US_INSETS) & set(v.values) for v in vs) else None


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


#: Chinese regions a table may list that the packaged map does not draw (their rows are
#: left out): Hong Kong, Macau and Taiwan, by ISO 3166-2 code and name.
NOT_DRAWN_CHINA: frozenset[str] = frozenset({
    "hk", "mo", "tw", "hong kong", "macau", "macao", "taiwan", "cn-hk", "cn-mo", "cn-tw"})


def _key_of(text: str) -> str:
    return " ".join(text.split()).lower()


def load_variables(countries: Sequence[str], data: Path | None, seed: int,
                   india_edition: str = DEFAULT_INDIA_EDITION) -> dict[str, list[Variable]]:
    """The packaged variables per country, or the columns of a user table (one country:
    a ``region`` column of names or codes, or ``state``, and value columns)."""
    if data is not None:
        if len(countries) != 1:
            raise CartoqaError("a user table (--data) describes one country",
                               fix="pass --countries with exactly one country")
        country = countries[0]
        keep = tuple(region_table(country, "insets" if country == "usa" else
                                  india_edition if country == "india" else None))

        def resolve(text: str) -> str | None:
            if country == "china" and _key_of(text) in NOT_DRAWN_CHINA:
                return ""  # Hong Kong, Macau, Taiwan: not on the packaged map
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
                          data: Path | None = None, maps_per_country: int = 14,
                          india_edition: str = DEFAULT_INDIA_EDITION,
                          prompt_mode: str = DEFAULT_PROMPT_MODE, progress: bool = True,
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
        Maps per country (the last four counterfactual, :data:`COUNTERFACTUALS`).
    india_edition : str
        India's boundary edition: ``"2014"`` (36 units, Telangana separate; default) or
        ``"pre2014"`` (35 units); see :data:`groundtruth.thematic.countries.INDIA_EDITIONS`.
    prompt_mode : str
        MapWise's prompt mode of every question: ``"direct"``, ``"cot"`` (chain of
        thought) or ``"extract"`` (explicit extraction); recorded in each item.
    progress : bool
        Show a progress bar.
    log : callable, optional
        One-line notices; default stderr.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    variables = load_variables(countries, data, seed, india_edition)
    spec = read_spec(data) if data is not None else None
    if spec is not None:
        variables = {c: apply_spec(vs, spec, data) for c, vs in variables.items()}
    plans = plan_maps(variables, maps_per_country, seed, spec)
    editions = {"india_boundaries": india_edition} if "india" in variables else {}
    writer = DatasetWriter(out, build_key=build_key(
        SUITE, {c: [[v.key, v.values] for v in vs] for c, vs in variables.items()},
        countries=list(variables), seed=seed, maps_per_country=maps_per_country,
        prompt_mode=prompt_mode, **editions,
        **({"table_spec": repr(spec)} if spec is not None else {})))
    return run_thematic_build(
        writer, suite=SUITE, task=SLOT_TASK, plans=plans,
        make_builder=lambda: MapwiseBuilder(list(variables), seed, india_edition,
                                            prompt_mode, us_edition_for(variables)),
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
                              + [f"{s} ({lic})" for s, lic in sources]
                              + [f"coasts: {COAST_SOURCE}"]),
        sources={"boundaries": boundaries, "coasts": COAST_SOURCE,
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
    if manifest.get("sources", {}).get("coasts"):
        lines.append(f"- coastal regions (named parts): {manifest['sources']['coasts']}.")
    lines += ["", "## Data sources and licences", ""]
    lines += [variable_line(v, f"{v.get('country')} `{v['key']}`")
              for v in manifest.get("sources", {}).get("variables", [])]
    lines.append("")
    return "\n".join(lines)


__all__ = ["STYLES", "MapPlan", "MapwiseReport", "build_mapwise_dataset", "colour_bar",
           "parse_countries", "parse_india_edition", "parse_prompt_mode", "plan_maps"]
