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

import random
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.dataset.writer import DatasetWriter
from cartoqa.declarations.spec import TaskSpec
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
from cartoqa.tasks.mapiq.common import MapContext, Question, system_prompt
from cartoqa.tasks.mapiq.regional_comparison import mcq_step
from groundtruth.thematic.adjacency import queen_adjacency, restrict
from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import Classification, fisher_jenks_absorbing
from groundtruth.thematic.mapiq_variables import mapiq_variables
from groundtruth.thematic.us_states import CONTIGUOUS, us_zones
from groundtruth.thematic.variables import THEMES, Variable, read_user_table
from renderers.thematic.check import check_map
from renderers.thematic.design import MAP_TYPES, VARIATIONS, applies, design_for
from renderers.thematic.draw import IMAGE_SIZE, MapRequest, draw_map
from renderers.thematic.hexgrid import hex_adjacency, us_hex_layout

#: Journal key of a map slot (one slot holds the items of all six tasks).
SLOT_TASK = "mapiq"
#: Topics per theme that also get the design variations (MapIQ §6.1: two, drawn at random).
VARIATION_TOPICS_PER_THEME = 2
#: The splits: ``all`` (every question of every map) or MapIQ's ``test`` split.
SPLITS: tuple[str, ...] = ("all", "test")
#: Questions per (map type, task, question type, theme) in the test split (MapIQ A.2.2:
#: 15 x 342 combinations = 5,130).
TEST_PER_COMBINATION = 15
#: Tasks MapIQ drops on maps without a legend (A.3.1: they need one).
NO_LEGEND_DROPPED: tuple[str, ...] = ("mapiq_rv", "mapiq_dr")


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


def variation_variables(variables: Sequence[Variable], seed: int,
                        per_theme: int = VARIATION_TOPICS_PER_THEME) -> list[Variable]:
    """The variables that get the design variations: ``per_theme`` topics of each theme,
    drawn at random (seeded) without replacement, and one variable of each such topic.

    Examples
    --------
    >>> vs = [Variable(k, k, "crime", {}, "s", "l", topic=t)
    ...       for k, t in (("a", "x"), ("b", "x"), ("c", "y"), ("d", "z"))]
    >>> chosen = variation_variables(vs, 0)
    >>> len(chosen), len({v.topic for v in chosen})
    (2, 2)
    """
    rng = random.Random(f"mapiq-variations:{seed}")
    chosen: list[Variable] = []
    for theme in dict.fromkeys(v.theme for v in variables):
        by_topic: dict[str, list[Variable]] = {}
        for v in variables:
            if v.theme == theme:
                by_topic.setdefault(v.topic or v.key, []).append(v)
        topics = sorted(by_topic)
        for topic in sorted(rng.sample(topics, min(per_theme, len(topics)))):
            chosen.append(rng.choice(by_topic[topic]))
    return chosen


def plan_maps(variables: Sequence[Variable], variations: Sequence[str],
              map_types: Sequence[str] = MAP_TYPES, max_maps: int | None = None,
              seed: int = 0) -> list[MapPlan]:
    """Baseline maps of every variable and map type, then the variations of
    :func:`variation_variables` (two topics per theme), where they apply."""
    plans: list[tuple[Variable, str, str]] = [(v, m, "baseline") for v in variables
                                              for m in map_types]
    chosen = variation_variables(variables, seed) if variations else []
    plans += [(v, m, var) for var in variations for v in chosen for m in map_types
              if applies(var, m)]
    if max_maps is not None:
        plans = plans[:max_maps]
    return [MapPlan(i, v, m, var) for i, (v, m, var) in enumerate(plans)]


QuestionKey = tuple[int, str, str]


def select_test_split(available: Sequence[tuple[MapPlan, str, str]], seed: int,
                      per_combination: int = TEST_PER_COMBINATION) -> set[QuestionKey]:
    """MapIQ's test split: ``per_combination`` questions of each (map type, task, question
    type, theme), drawn at random (seeded) from the baseline maps' questions, each map
    topic at most once per combination (MapIQ A.2.2: stratified, topics drawn without
    replacement).

    Parameters
    ----------
    available : sequence of (plan, task, request)
        Every question the baseline maps can ask.

    Returns
    -------
    set of (slot, task, request)
    """
    groups: dict[tuple[str, str, str, str], list[tuple[MapPlan, str, str]]] = {}
    for plan, task, request in available:
        if plan.variation != "baseline":
            continue
        groups.setdefault((plan.map_type, task, request, plan.variable.theme), []).append(
            (plan, task, request))
    keep: set[QuestionKey] = set()
    for combo in sorted(groups):
        rng = random.Random(f"mapiq-test:{seed}:{'/'.join(combo)}")
        cands = sorted(groups[combo], key=lambda c: c[0].index)
        rng.shuffle(cands)
        seen: set[str] = set()
        first: list[tuple[MapPlan, str, str]] = []
        again: list[tuple[MapPlan, str, str]] = []
        for cand in cands:  # one question per topic first; other years of a topic after
            topic = cand[0].variable.topic or cand[0].variable.key
            (again if topic in seen else first).append(cand)
            seen.add(topic)
        keep |= {(p.index, t, r) for p, t, r in (first + again)[:per_combination]}
    return keep


def split_shortfall(available: Sequence[tuple[MapPlan, str, str]], keep: set[QuestionKey],
                    per_combination: int = TEST_PER_COMBINATION) -> dict[str, int]:
    """Combinations of the test split that hold fewer than ``per_combination`` questions
    (``"map_type/task/request/theme"`` -> questions drawn): the data hold no more.

    Examples
    --------
    >>> v = Variable("a", "A", "housing", {}, "s", "l")
    >>> p = MapPlan(0, v, "choropleth", "baseline")
    >>> split_shortfall([(p, "mapiq_rv", "binary")], {(0, "mapiq_rv", "binary")})
    {'choropleth/mapiq_rv/binary/housing': 1}
    """
    drawn: dict[str, int] = {}
    for plan, task, request in available:
        if plan.variation != "baseline":
            continue
        combo = f"{plan.map_type}/{task}/{request}/{plan.variable.theme}"
        drawn[combo] = drawn.get(combo, 0) + ((plan.index, task, request) in keep)
    return {k: n for k, n in sorted(drawn.items()) if n < per_combination}


class MapiqBuilder:
    """Everything one slot needs, loaded once: boundaries, adjacencies, variables."""

    def __init__(self, variables: Sequence[Variable], seed: int,
                 keep: set[QuestionKey] | None = None,
                 plans: Sequence[MapPlan] | None = None) -> None:
        self.seed = seed
        self.boundaries = load_us_states()
        self.queen = queen_adjacency(self.boundaries.lonlat)
        self.tiles = hex_adjacency(us_hex_layout())
        self.variables = list(variables)
        self.keep = keep
        #: Every planned map, slot after slot (before ``--maps`` or the test split):
        #: the Regional Comparisons MCQ of a slot depends on those of the slots before.
        self.plans = list(plans) if plans is not None else None
        self._rc_before: list[dict[str, float]] = [{}]
        self._classes: dict[str, Classification | None] = {}

    def context(self, plan: MapPlan, classification: Classification) -> MapContext:
        """The map a plan's questions are about."""
        return self._context(plan, classification, self.rc_before(plan.index))

    def _context(self, plan: MapPlan, classification: Classification,
                 rc_before: dict[str, float] | None) -> MapContext:
        have = set(classification.classes)
        adjacency = self.tiles if plan.map_type == "cartogram" else self.queen
        return MapContext(plan.map_type, plan.variation, plan.variable.title, classification,
                          us_zones(tuple(sorted(have))), restrict(adjacency, have),
                          no_data=tuple(c for c in CONTIGUOUS if c not in have),
                          seed=self.seed, slot=plan.index, rc_before=rc_before)

    def rc_before(self, index: int) -> dict[str, float] | None:
        """The answer balance of the RC MCQs of the slots before ``index``
        (:func:`~cartoqa.tasks.mapiq.regional_comparison.mcq_history`), replayed from the
        first slot without drawing and cached; ``None`` without the plan list."""
        if self.plans is None:
            return None
        while len(self._rc_before) <= index and len(self._rc_before) <= len(self.plans):
            plan = self.plans[len(self._rc_before) - 1]
            before = self._rc_before[-1]
            classes = self.classification(plan.variable)
            self._rc_before.append(before if classes is None else mcq_step(
                self._context(plan, classes, before), before))
        return self._rc_before[min(index, len(self._rc_before) - 1)]

    def classification(self, variable: Variable) -> Classification | None:
        """The variable's classes (Fisher-Jenks), computed once per variable for the RC
        replay, the split and the slots alike; ``None`` when it has too few distinct
        values."""
        if variable.key not in self._classes:
            try:
                self._classes[variable.key] = fisher_jenks_absorbing(variable.values)
            except ValueError:
                self._classes[variable.key] = None
        return self._classes[variable.key]

    def questions(self, plan: MapPlan, ctx: MapContext,
                  skipped: Counter[str]) -> list[tuple[TaskSpec, Question]]:
        """Every question of one map (MapIQ's legend-less rule applied), in task order.

        The seeded choices depend only on the seed and the slot, so that the questions
        of a map are the same whether it is drawn or only planned (the test split).
        """
        rng = slot_rng(self.seed, SLOT_TASK, plan.index)
        out: list[tuple[TaskSpec, Question]] = []
        for module in task_modules():
            spec = module.SPEC
            questions = module.make_questions(ctx, rng, skipped)
            if not ctx.legend and spec.name in NO_LEGEND_DROPPED:
                skipped[f"no_legend_{spec.name}"] += len(questions)
                continue
            out += [(spec, q) for q in questions]
        return out

    def available(self, plans: Sequence[MapPlan]) -> list[tuple[MapPlan, str, str]]:
        """``(plan, task, request)`` of every question the plans can ask (no drawing)."""
        out: list[tuple[MapPlan, str, str]] = []
        for plan in plans:
            classification = self.classification(plan.variable)
            if classification is None:
                continue
            ctx = self.context(plan, classification)
            out += [(plan, spec.name, q.request)
                    for spec, q in self.questions(plan, ctx, Counter())]
        return out

    def make_slot(self, plan: MapPlan, rejected: Counter[str],
                  skipped: Counter[str]) -> tuple[list[dict[str, Any]], bytes] | None:
        """Items and image of one map, or ``None`` (reason counted in ``rejected``)."""
        var = plan.variable
        classification = self.classification(var)
        if classification is None:
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
        ctx = self.context(plan, classification)
        image = f"images/mapiq-{plan.index:04d}.png"
        items: list[dict[str, Any]] = []
        for spec, q in self.questions(plan, ctx, skipped):
            if self.keep is not None and (plan.index, spec.name, q.request) not in self.keep:
                continue
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
                    "variable": var.key, "title": var.title, "unit": var.unit,
                    "year": var.year, "topic": var.topic or var.key, "source": var.source,
                    "licence": var.licence, "generated": var.generated,
                    "map_type": plan.map_type, "variation": plan.variation,
                    "classification": {"method": classification.method,
                                       "k": classification.k,
                                       "labels": list(classification.labels),
                                       "absorbed": list(classification.absorbed)},
                    "no_data": list(ctx.no_data),
                    "adjacency": "hexagon tiles sharing an edge"
                    if plan.map_type == "cartogram" else "queen (geometry)",
                    "asked_states": sorted(set(q.asked)),
                    "details": q.details,
                },
            })
        if not items:
            rejected["no_question_in_split"] += 1
            return None
        return items, drawn.png


def parse_labels(texts: Sequence[str], columns: Sequence[str], what: str) -> dict[str, str]:
    """``--title``/``--units`` values: ``TEXT`` (one value column) or ``COLUMN=TEXT``.

    Examples
    --------
    >>> parse_labels(["Adult obesity"], ["obesity"], "--title")
    {'obesity': 'Adult obesity'}
    >>> parse_labels(["a=Rate A", "b=Rate B"], ["a", "b"], "--title")
    {'a': 'Rate A', 'b': 'Rate B'}
    """
    out: dict[str, str] = {}
    for text in texts:
        col, sep, rest = text.partition("=")
        if sep and col.strip() in columns:
            out[col.strip()] = rest.strip()
        elif len(columns) == 1:
            out[columns[0]] = text.strip()
        else:
            raise CartoqaError(f"{what} {text!r} names no value column of the table",
                               fix=f"write {what} COLUMN=TEXT with COLUMN one of "
                                   + ", ".join(columns))
    return out


def load_variables(data: Path | None, titles: Sequence[str] = (),
                   units: Sequence[str] = ()) -> list[Variable]:
    """The packaged real variables, or the columns of a user table (with the titles and
    units given as ``--title``/``--units``; the title shown is ``"TITLE (UNITS)"``)."""
    if data is None:
        if titles or units:
            raise CartoqaError("--title and --units need --data",
                               fix="give them with your own table, or drop them")
        return mapiq_variables(load_us_states().lonlat)
    variables = read_user_table(data)
    if not variables:
        raise CartoqaError(f"{data} has no value column", fix="add one")
    columns = [v.title for v in variables]
    title_of = parse_labels(titles, columns, "--title")
    unit_of = parse_labels(units, columns, "--units")
    out = []
    for v in variables:
        title = title_of.get(v.title, v.title)
        unit = unit_of.get(v.title, "")
        shown = f"{title} ({unit})" if unit else title
        out.append(Variable(v.key, shown, v.theme, v.values, v.source, v.licence,
                            unit=unit, topic=v.key))
    return out


def build_mapiq_dataset(*, out: Path, seed: int = 0, data: Path | None = None,
                        variations: Sequence[str] = (), max_maps: int | None = None,
                        split: str = "all", titles: Sequence[str] = (),
                        units: Sequence[str] = (), progress: bool = True,
                        log: Callable[[str], None] | None = None) -> MapiqReport:
    """Build (or resume, or confirm) a MapIQ dataset folder.

    Parameters
    ----------
    out : pathlib.Path
        Dataset folder.
    seed : int
        Seed of every random choice (questions, variation topics, test split).
    data : pathlib.Path, optional
        A user CSV (``state`` column and value columns) instead of the packaged variables.
    variations : sequence of str
        Design variations to add (see :data:`renderers.thematic.design.VARIATIONS`).
    max_maps : int, optional
        Stop after this many planned maps (default: all).
    split : str
        ``"all"`` (every question) or ``"test"`` (MapIQ's theme-balanced test split:
        :data:`TEST_PER_COMBINATION` questions per map type, task, question type and
        theme, from the baseline maps; variations are not part of it).
    titles, units : sequence of str
        With ``data``: map titles and units (``TEXT`` or ``COLUMN=TEXT``).
    progress : bool
        Show a progress bar.
    log : callable, optional
        One-line notices; default stderr.

    Returns
    -------
    MapiqReport
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    if split not in SPLITS:
        raise CartoqaError(f"unknown split {split!r}", fix="choose all or test")
    if split == "test" and variations:
        raise CartoqaError("the test split is drawn from the baseline maps",
                           fix="drop --variations with --split test")
    variables = load_variables(data, titles, units)
    plans = plan_maps(variables, variations, seed=seed)
    every_plan = plans
    keep: set[QuestionKey] | None = None
    short: dict[str, int] = {}
    if split == "test":
        available = MapiqBuilder(variables, seed, plans=every_plan).available(plans)
        keep = select_test_split(available, seed)
        short = split_shortfall(available, keep)
        slots = {k[0] for k in keep}
        plans = [p for p in plans if p.index in slots]
    if max_maps is not None:
        plans = plans[:max_maps]
    writer = DatasetWriter(out, build_key=build_key(
        SUITE, [[v.key, v.title, v.values] for v in variables],
        variables=[v.key for v in variables], seed=seed, variations=list(variations),
        max_maps=max_maps, split=split))
    return run_thematic_build(
        writer, suite=SUITE, task=SLOT_TASK, plans=plans,
        make_builder=lambda: MapiqBuilder(variables, seed, keep, every_plan),
        manifest_parts=lambda builder: _manifest_parts(builder, variables, split, keep,
                                                       short),
        card_for=render_mapiq_card, progress=progress, say=say)


def _manifest_parts(builder: SlotBuilder, variables: Sequence[Variable], split: str,
                    keep: set[QuestionKey] | None,
                    short: Mapping[str, int] | None = None) -> ManifestParts:
    """MapIQ's sources (us-atlas, the variables), split and drawing for the manifest."""
    assert isinstance(builder, MapiqBuilder)
    sources = sorted({(v.source.split(";")[0], v.licence) for v in variables})
    boundary = builder.boundaries.source
    split_info: dict[str, Any] = {"name": split}
    if keep is not None:
        split_info.update(per_combination=TEST_PER_COMBINATION, questions=len(keep),
                          rule="per (map type, task, question type, theme): seeded draw "
                               "from the baseline maps, one question per topic first",
                          short_combinations=dict(short or {}))
    return ManifestParts(
        attribution="; ".join([boundary] + [f"{s} ({lic})" for s, lic in sources]),
        sources={"boundaries": boundary, "variables": [v.card() for v in variables],
                 "split": split_info,
                 "variation_topics": [v.key for v in variation_variables(variables,
                                                                         builder.seed)]},
        rendering={"library": "matplotlib (Agg)", "size": list(IMAGE_SIZE),
                   "projection": "Conus Albers (EPSG:5070)",
                   "classes": "Fisher-Jenks, 5 (mapclassify); a region alone in the "
                              "lowest or highest class joins the next class (up to 2 a "
                              "side)",
                   "colours": "ColorBrewer Blues (baseline)"})


def split_lines(manifest: Mapping[str, Any]) -> list[str]:
    """The card's lines about the test split: its size and the combinations the data
    leave short of :data:`TEST_PER_COMBINATION`.

    Examples
    --------
    >>> split_lines({"sources": {"split": {"name": "test", "questions": 20,
    ...     "per_combination": 15, "short_combinations": {"choropleth/mapiq_rv/binary/"
    ...     "housing": 5}}}})[0]
    '- test split: 20 questions, up to 15 per map type, task, question type and theme'
    """
    info = manifest.get("sources", {}).get("split", {})
    if info.get("name") != "test":
        return []
    per = info.get("per_combination")
    short = info.get("short_combinations") or {}
    lines = [f"- test split: {info.get('questions')} questions, up to {per} per map type, "
             "task, question type and theme"]
    if short:
        themes = sorted({k.rsplit("/", 1)[-1] for k in short})
        lines.append(f"- {len(short)} combinations hold fewer than {per} (the packaged data "
                     f"have no more; themes: {', '.join(themes)}): "
                     + ", ".join(f"{k} {n}" for k, n in short.items()))
    return lines


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
        facts=[f"- seed: {build.get('seed')}, variations: {variations}, split: "
               f"{build.get('split', 'all')}", *split_lines(manifest)],
        blurbs={t: s.blurb for t, s in TASKS.items()}, request_column=True)
    lines += ["", "## Data sources and licences", "",
              f"- boundaries: {manifest.get('sources', {}).get('boundaries')}"]
    lines += [variable_line(v, f"`{v['key']}` ({v['theme']}; unit: {v.get('unit') or '?'}; "
                               f"year: {v.get('year') or '?'})")
              for v in manifest.get("sources", {}).get("variables", [])]
    lines += ["", f"Themes: {', '.join(THEMES)}.", ""]
    return "\n".join(lines)
