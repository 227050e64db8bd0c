"""``cartoqa build --suite mapiq``: MapIQ-style thematic maps and their 19 questions.

One *slot* is one map: a variable drawn as one map type with one design variation. For
each slot the build classifies the values (Fisher-Jenks, five classes), draws the map,
runs the pixel check (every fill at its probe equals its class colour, every circle's
measured radius maps to its class, every label is drawn) and rejects the map when the
picture disagrees with the data, counting rejections by reason; an accepted map gets
the questions of the six task modules. Slots go through the same staged, resumable
:class:`~cartoqa.dataset.writer.DatasetWriter` as street-map builds.
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
from cartoqa.tasks.mapiq import SUITE, TASKS, task_modules
from cartoqa.tasks.mapiq.common import MapContext, system_prompt
from groundtruth.thematic.adjacency import queen_adjacency, restrict
from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.us_states import us_zones
from groundtruth.thematic.variables import THEMES, Variable, packaged_variables, read_user_table
from renderers.thematic.check import check_map
from renderers.thematic.design import MAP_TYPES, VARIATIONS, applies, design_for
from renderers.thematic.draw import IMAGE_SIZE, MapRequest, draw_map
from renderers.thematic.hexgrid import hex_adjacency, us_hex_layout

#: Journal key of a map slot (one slot holds the items of all six tasks).
SLOT_TASK = "mapiq"
#: Variables that also get the design variations: this many per theme (MapIQ: 2).
VARIATION_VARIABLES_PER_THEME = 1


@dataclass(frozen=True)
class MapPlan:
    """One map to draw."""

    index: int
    variable: Variable
    map_type: str
    variation: str


#: The outcome of :func:`build_mapiq_dataset`.
MapiqReport = ThematicReport


def parse_variations(text: str) -> list[str]:
    """``"none"``, ``"all"`` or a comma-separated list of variation names.

    Examples
    --------
    >>> parse_variations("none"), len(parse_variations("all"))
    ([], 15)
    >>> parse_variations("no_title, label_small")
    ['label_small', 'no_title']
    """
    text = text.strip().lower()
    if text in ("", "none"):
        return []
    if text == "all":
        return list(VARIATIONS)
    names = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [n for n in names if n not in VARIATIONS]
    if unknown:
        raise CartoqaError(f"unknown variation {', '.join(unknown)}",
                           fix="choose from all, none, " + ", ".join(VARIATIONS))
    return [v for v in VARIATIONS if v in names]


def plan_maps(variables: Sequence[Variable], variations: Sequence[str],
              map_types: Sequence[str] = MAP_TYPES, max_maps: int | None = None) -> list[MapPlan]:
    """Baseline maps of every variable and map type, then the variations of the first
    :data:`VARIATION_VARIABLES_PER_THEME` variable(s) of each theme, where they apply."""
    plans: list[tuple[Variable, str, str]] = [(v, m, "baseline") for v in variables
                                              for m in map_types]
    per_theme: Counter[str] = Counter()
    chosen = []
    for v in variables:
        if per_theme[v.theme] < VARIATION_VARIABLES_PER_THEME:
            per_theme[v.theme] += 1
            chosen.append(v)
    plans += [(v, m, var) for var in variations for v in chosen for m in map_types
              if applies(var, m)]
    if max_maps is not None:
        plans = plans[:max_maps]
    return [MapPlan(i, v, m, var) for i, (v, m, var) in enumerate(plans)]


class MapiqBuilder:
    """Everything one slot needs, loaded once: boundaries, adjacencies, variables."""

    def __init__(self, variables: Sequence[Variable], seed: int) -> None:
        self.seed = seed
        self.boundaries = load_us_states()
        self.queen = queen_adjacency(self.boundaries.lonlat)
        self.tiles = hex_adjacency(us_hex_layout())
        self.variables = list(variables)

    def make_slot(self, plan: MapPlan, rejected: Counter[str],
                  skipped: Counter[str]) -> tuple[list[dict[str, Any]], bytes] | None:
        """Items and image of one map, or ``None`` (reason counted in ``rejected``)."""
        var = plan.variable
        try:
            classification = fisher_jenks(var.values)
        except ValueError:
            rejected["too_few_distinct_values"] += 1
            return None
        design = design_for(plan.variation)
        drawn = draw_map(MapRequest(plan.map_type, var.title, classification.classes,
                                    classification.labels, self.boundaries.albers, design))
        problems = check_map(drawn.png, drawn.report, classification.classes, design.colours)
        if problems:
            for reason in sorted({p.reason for p in problems}):
                rejected[reason] += 1
            return None
        have = set(classification.classes)
        adjacency = self.tiles if plan.map_type == "cartogram" else self.queen
        ctx = MapContext(plan.map_type, plan.variation, var.title, classification,
                         us_zones(tuple(sorted(have))), restrict(adjacency, have))
        rng = slot_rng(self.seed, SLOT_TASK, plan.index)
        image = f"images/mapiq-{plan.index:04d}.png"
        items: list[dict[str, Any]] = []
        for module in task_modules():
            spec = module.SPEC
            for q in module.make_questions(ctx, rng, skipped):
                items.append({
                    "id": f"{spec.name}-{plan.index:04d}-{q.request}",
                    "task": spec.name,
                    "request": q.request,
                    "image": image,
                    "system_prompt": system_prompt(ctx, spec, q),
                    "question": q.text,
                    "options": q.options,
                    "answer": q.answer,
                    "strata": {"map_type": plan.map_type, "question_type": q.request,
                               "theme": var.theme, "variation": plan.variation,
                               "scale": q.scale, "generated_data": var.generated},
                    "provenance": {
                        "suite": SUITE, "seed": self.seed, "slot": plan.index,
                        "variable": var.key, "title": var.title, "source": var.source,
                        "licence": var.licence, "generated": var.generated,
                        "map_type": plan.map_type, "variation": plan.variation,
                        "classification": {"method": classification.method,
                                           "k": classification.k,
                                           "labels": list(classification.labels)},
                        "adjacency": "hexagon tiles sharing an edge"
                        if plan.map_type == "cartogram" else "queen (geometry)",
                        "asked_states": sorted(set(q.asked)),
                        "details": q.details,
                    },
                })
        return items, drawn.png


def load_variables(data: Path | None, seed: int) -> list[Variable]:
    """The packaged variables, or the columns of a user table."""
    if data is not None:
        variables = read_user_table(data)
        if not variables:
            raise CartoqaError(f"{data} has no value column", fix="add one")
        return variables
    queen = queen_adjacency(load_us_states().lonlat)
    return packaged_variables(queen, seed=seed)


def build_mapiq_dataset(*, out: Path, seed: int = 0, data: Path | None = None,
                        variations: Sequence[str] = (), max_maps: int | None = None,
                        progress: bool = True,
                        log: Callable[[str], None] | None = None) -> MapiqReport:
    """Build (or resume, or confirm) a MapIQ dataset folder.

    Parameters
    ----------
    out : pathlib.Path
        Dataset folder.
    seed : int
        Seed of every random choice (questions; generated variables).
    data : pathlib.Path, optional
        A user CSV (``state`` column and value columns) instead of the packaged variables.
    variations : sequence of str
        Design variations to add (see :data:`renderers.thematic.design.VARIATIONS`).
    max_maps : int, optional
        Stop after this many planned maps (default: all).
    progress : bool
        Show a progress bar.
    log : callable, optional
        One-line notices; default stderr.

    Returns
    -------
    MapiqReport
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    variables = load_variables(data, seed)
    plans = plan_maps(variables, variations, max_maps=max_maps)
    writer = DatasetWriter(out, build_key=build_key(
        SUITE, [[v.key, v.values] for v in variables], variables=[v.key for v in variables],
        seed=seed, variations=list(variations), max_maps=max_maps))
    return run_thematic_build(
        writer, suite=SUITE, task=SLOT_TASK, plans=plans,
        make_builder=lambda: MapiqBuilder(variables, seed),
        manifest_parts=lambda builder: _manifest_parts(builder, variables),
        card_for=render_mapiq_card, progress=progress, say=say)


def _manifest_parts(builder: SlotBuilder, variables: Sequence[Variable]) -> ManifestParts:
    """MapIQ's sources (us-atlas, the variables) and drawing for the manifest."""
    assert isinstance(builder, MapiqBuilder)
    sources = sorted({(v.source, v.licence, v.generated) for v in variables})
    boundary = builder.boundaries.source
    return ManifestParts(
        attribution="; ".join([boundary] + [f"{s} ({lic})" for s, lic, _ in sources]),
        sources={"boundaries": boundary, "variables": [v.card() for v in variables]},
        rendering={"library": "matplotlib (Agg)", "size": list(IMAGE_SIZE),
                   "projection": "Conus Albers (EPSG:5070)",
                   "classes": "Fisher-Jenks, 5 (mapclassify)",
                   "colours": "ColorBrewer Blues (baseline)"})


def render_mapiq_card(manifest: dict[str, Any]) -> str:
    """The dataset card (README.md) of a MapIQ dataset."""
    build = manifest.get("build", {})
    variations = ", ".join(build.get("variations") or []) or "none"
    lines = card_head(
        manifest, title="cartoqa dataset: MapIQ-style thematic maps of US states",
        summary="Choropleth, hexbin cartogram and proportional-symbol maps of the 48 "
        "contiguous states and DC with MapIQ's six visual-analytics tasks, generated by "
        "`cartoqa build --suite mapiq`. Ground truth comes from the classified data "
        "(Fisher-Jenks, five classes), the Census zones and the adjacency; every map passed "
        "the pixel check (fills, circle radii, labels) before its questions were kept.",
        facts=[f"- seed: {build.get('seed')}, variations: {variations}"],
        blurbs={t: s.blurb for t, s in TASKS.items()}, request_column=True)
    lines += ["", "## Data sources and licences", "",
              f"- boundaries: {manifest.get('sources', {}).get('boundaries')}"]
    lines += [variable_line(v, f"`{v['key']}` ({v['theme']})")
              for v in manifest.get("sources", {}).get("variables", [])]
    lines += ["", f"Themes: {', '.join(THEMES)}.", ""]
    return "\n".join(lines)
