"""What the six MapIQ task modules share: the map a question is about, the task
class wording, options and MapIQ's prompt structure.

A MapIQ *map* is one variable drawn as one map type with one design variation; each
task module turns it into questions (``make_questions``), one per question type it
allows (MapIQ's Table 2; 19 per map over the six tasks). Ground truth comes from the
classified data, the zones and the adjacency, never from the picture; the build keeps a
map only when the pixel check shows that the picture agrees.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cartoqa.tasks.common.base import slot_rng
from groundtruth.thematic.classification import Classification
from groundtruth.thematic.us_states import BY_CODE

if TYPE_CHECKING:
    from cartoqa.declarations.spec import TaskSpec

#: MapIQ's question types, in Table 2's order, and the request names items use.
QUESTION_TYPES: tuple[str, ...] = ("binary", "mcq", "list", "single")

#: The letter of MCQ options; the last option of every MCQ is "None of the above".
LETTERS = "abcdefgh"
NOTA = "None of the above"


@dataclass
class MapContext:
    """The map questions are asked about.

    Attributes
    ----------
    map_type : str
        ``"choropleth"``, ``"cartogram"`` or ``"proportional_symbol"``.
    variation : str
        ``"baseline"`` or one of the 15 design variations.
    title : str
        The variable's title (the map title, even when the map does not show it).
    classification : Classification
        The classes of the states that have data.
    zoning : dict
        State -> zone, for the states that have data.
    adjacency : dict
        State -> neighbours the reader sees: queen adjacency of the boundaries, or the
        tiles that share an edge on a hexbin cartogram.
    no_data : tuple of str
        States drawn without data (grey fill, or no circle): in no class, no zone list
        and no answer.
    seed, slot : int
        The build seed and the map's slot: they key the answer quotas (:func:`quota`).
    rc_before : dict, optional
        The answer balance of the Regional Comparisons MCQs of the build's earlier slots
        (:func:`cartoqa.tasks.mapiq.regional_comparison.mcq_history`), replayed by the
        builder; ``None``: none before this map.
    """

    map_type: str
    variation: str
    title: str
    classification: Classification
    zoning: dict[str, str]
    adjacency: Mapping[str, frozenset[str]] = field(repr=False)
    no_data: tuple[str, ...] = ()
    seed: int = 0
    slot: int = 0
    rc_before: dict[str, float] | None = field(default=None, repr=False)

    @property
    def classes(self) -> dict[str, int]:
        """State -> class."""
        return self.classification.classes

    @property
    def k(self) -> int:
        """Number of classes."""
        return self.classification.k

    @property
    def legend(self) -> bool:
        """Whether the map has a legend (class ranges can be read)."""
        return self.variation != "no_legend"

    def class_text(self, cls: int) -> str:
        """How questions and answers name a class: its legend range, or ``Class k``."""
        return self.classification.labels[cls - 1] if self.legend else f"Class {cls}"

    def class_numbers(self, cls: int) -> list[float]:
        """The numbers of :meth:`class_text` (``[lo, hi]`` or ``[k]``)."""
        if not self.legend:
            return [float(cls)]
        return list(self.classification.label_bounds[cls - 1])

    def zones(self) -> list[str]:
        """Zones present, in MapIQ's order."""
        order = ("West", "Midwest", "Northeast", "South")
        present = set(self.zoning.values())
        return [z for z in order if z in present] + sorted(present - set(order))

    def members(self, zone: str | None) -> list[str]:
        """States of a zone (all states for ``None``), sorted."""
        return sorted(s for s, z in self.zoning.items() if zone is None or z == zone)


@dataclass
class Question:
    """One generated question (the build adds ids, image, provenance).

    Attributes
    ----------
    request : str
        Question type.
    scale : str
        ``"local"`` or ``"global"``.
    text : str
        The question with its answer-format line.
    options : dict or None
        MCQ options, letter -> text.
    answer : dict
        The ground truth.
    asked : list of str
        States whose labels the question relies on.
    needs_zones : bool
        Whether the prompt carries the zoning instruction.
    details : dict
        What was chosen (states, zone, direction), for provenance.
    """

    request: str
    scale: str
    text: str
    options: dict[str, str] | None
    answer: dict[str, Any]
    asked: list[str]
    needs_zones: bool = False
    details: dict[str, Any] = field(default_factory=dict)


def state_text(code: str) -> str:
    """``"Texas (TX)"``.

    Examples
    --------
    >>> state_text("TX")
    'Texas (TX)'
    """
    return f"{BY_CODE[code].name} ({code})" if code in BY_CODE else code


def scope_text(zone: str | None) -> str:
    """``"the West zone"`` or ``"the USA"``.

    Examples
    --------
    >>> scope_text("West"), scope_text(None)
    ('the West zone', 'the USA')
    """
    return "the USA" if zone is None else f"the {zone} zone"


#: The answer-format line of each question type. The MCQ line shows placeholders, not
#: letters: a concrete example (``[a, c]``, until balance29d) is a valid answer that a
#: reader copying it scores on (F1 0.27-0.32 against chance 0.16-0.19 on the default
#: build, issue 29); ``[letter1, letter2, ...]`` names no option, so a copy is invalid.
FORMATS: dict[str, str] = {
    "binary": "Answer TRUE or FALSE. Format your response as: 'My answer is [TRUE]' or "
              "'My answer is [FALSE]'.",
    "mcq": "One or more options may be correct; choose every correct option, or only the "
           "last option when none is correct. Format your response as: "
           "'My answer is [letter1, letter2, ...]', with the letter of each option you "
           "choose.",
    "list": "Format your response as: 'My answer is [item1, item2, ...]'.",
    "single": "Format your response as: 'My answer is [value]'.",
}


def with_format(text: str, request: str, options: Mapping[str, str] | None = None,
                list_hint: str = "") -> str:
    """The question followed by its options and the answer-format line."""
    parts = [text]
    if options:
        parts.append("\n".join(f"{k}. {v}" for k, v in options.items()))
    fmt = FORMATS[request]
    if list_hint:
        fmt = f"{fmt} {list_hint}"
    parts.append(fmt)
    return "\n".join(parts)


#: Strata of a yes/no quota (each pair of consecutive slots: one TRUE, one FALSE) and
#: of a letter quota with four choices and NOTA (each five consecutive slots: a-e once).
BINARY_STRATA = 2
LETTER_STRATA = 5


def quota(ctx: MapContext, task: str, request: str, strata: int = LETTER_STRATA) -> float:
    """A map's stratified draw in [0, 1) for one template (task and question type).

    Each block of ``strata`` consecutive slots takes every stratum
    ``(i + 0.5) / strata`` once, in a seeded order: with ``strata=2`` the draw is below
    0.5 (TRUE asked) on exactly one map of every two, with ``strata=5``
    ``int(quota * 5)`` names each of five letters once in every five maps, so even a
    small build is balanced. It depends only on seed, slot and template, so a resumed
    or parallel build agrees.

    Examples
    --------
    >>> from groundtruth.thematic.classification import fisher_jenks
    >>> c = fisher_jenks({s: float(i) for i, s in enumerate("ABCDEF")})
    >>> ctx = [MapContext("choropleth", "baseline", "T", c, {}, {}, slot=i) for i in range(10)]
    >>> sum(quota(x, "mapiq_rv", "binary", BINARY_STRATA) < 0.5 for x in ctx)
    5
    >>> sorted(int(quota(x, "mapiq_rv", "mcq") * 5) for x in ctx)
    [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    """
    block = list(range(strata))
    slot_rng(ctx.seed, "mapiq-quota", task, request, ctx.slot // strata).shuffle(block)
    return (block[ctx.slot % strata] + 0.5) / strata


def wants_nota(target: float, n: int = 4) -> bool:
    """Whether a quota draw asks for "None of the above" on an MCQ of ``n`` choices
    (the last of ``n + 1`` letters: a share ``1 / (n + 1)``, a uniform guess's rate).

    Examples
    --------
    >>> wants_nota(0.9), wants_nota(0.7), wants_nota(0.7, n=2)
    (True, False, True)
    """
    return int(target * (n + 1)) >= n


#: Relative weights of 1, 2 and 3 correct options in an MCQ that may hold several. With
#: four choices each letter a-d then answers E[k] / 4 of the non-NOTA items: 30 % at
#: 6:3:1 (E[k] = 1.5), within the writer's letter limit (fair 20 % + 15 %), where a
#: uniform 1-3 (E[k] = 2) gave 40 %; 4 in 10 MCQs with an answer still have several.
CORRECT_COUNT_WEIGHTS: tuple[int, ...] = (6, 3, 1)


def correct_count(rng: random.Random, lo: int, hi: int) -> int:
    """How many correct options to offer, ``lo`` to ``hi``, drawn with
    :data:`CORRECT_COUNT_WEIGHTS` (counts past them weigh as the last).

    Examples
    --------
    >>> r = random.Random(0)
    >>> counts = [correct_count(r, 1, 3) for _ in range(1000)]
    >>> [round(counts.count(k) / 1000, 1) for k in (1, 2, 3)]
    [0.6, 0.3, 0.1]
    >>> correct_count(r, 2, 2)
    2
    """
    ks = list(range(lo, hi + 1))
    weights = [CORRECT_COUNT_WEIGHTS[min(k, len(CORRECT_COUNT_WEIGHTS)) - 1] for k in ks]
    return rng.choices(ks, weights=weights)[0]


def mcq(rng: random.Random, correct: Sequence[str], wrong: Sequence[str], n: int = 4, *,
        target: float) -> tuple[dict[str, str], list[str]]:
    """MCQ options: up to ``n`` choices then "None of the above" (NOTA, always last, as
    in MapIQ's answer format).

    ``target`` (a :func:`quota` draw) places the answer: letter ``int(target * (m + 1))``
    of the ``m`` choices holds a correct option, the last letter meaning NOTA is the
    answer (no correct choice offered). How many correct options are offered is drawn
    by :func:`correct_count`; the further ones go to seeded places. NOTA is also the
    answer when nothing is correct; when NOTA is asked for but there are too few wrong
    choices, a correct one goes to a seeded letter.

    Returns
    -------
    (options, letters)
        Letter -> text, and the correct letters.

    Examples
    --------
    >>> opts, letters = mcq(random.Random(1), ["TX"], ["CA", "NY", "OR"], target=0.3)
    >>> list(opts.values())[-1], letters, opts["b"]
    ('None of the above', ['b'], 'TX')
    >>> mcq(random.Random(1), ["TX"], ["CA", "NY", "OR", "WA"], target=0.95)[1]
    ['e']
    """
    wrong = list(wrong)
    correct = list(correct)
    size = min(n, len(correct) + len(wrong))
    pos = min(int(target * (size + 1)), size)
    if not correct or (pos == size and len(wrong) >= size):
        chosen = rng.sample(wrong, min(size, len(wrong)))
        right: set[str] = set()
    else:
        if pos == size:
            pos = rng.randrange(size)
        lo = max(1, size - len(wrong))
        hi = max(lo, min(len(correct), size - 1 if wrong else size))
        right_list = rng.sample(correct, correct_count(rng, lo, hi))
        rest = right_list[1:] + rng.sample(wrong, size - len(right_list))
        rng.shuffle(rest)
        chosen = [*rest[:pos], right_list[0], *rest[pos:]]
        right = set(right_list)
    options = {LETTERS[i]: c for i, c in enumerate(chosen)}
    nota = LETTERS[len(chosen)]
    options[nota] = NOTA
    letters = [k for k, v in options.items() if v in right] or [nota]
    return options, letters


def pick(rng: random.Random, values: Sequence[Any]) -> Any:
    """A seeded choice (``rng.choice`` on a sorted copy for set-like inputs)."""
    return rng.choice(list(values))


def class_order_words(ctx: MapContext) -> str:
    """How a reader tells classes apart without a legend (MapIQ's prompt edits)."""
    if ctx.map_type == "proportional_symbol":
        return "larger circles indicate higher classes"
    if ctx.variation == "color_flipped":
        return "lighter shades indicate higher classes"
    return "darker shades indicate higher classes"


def zoning_instruction(zoning: Mapping[str, str], zones: Sequence[str]) -> str:
    """MapIQ's zoning instruction, with each zone's states."""
    lines = ["In the provided data, the states in the USA are classified into four zones: "
             f"{', '.join(zones[:-1])}, and {zones[-1]}. Use this classification to answer "
             "a question based on a map."]
    for z in zones:
        members = sorted(s for s, zz in zoning.items() if zz == z)
        lines.append(f"{z}: {', '.join(members)}.")
    return "\n".join(lines)


CLUSTER_DEFINITION = (
    "A spatial cluster consists of geographically proximate locations sharing the same "
    "attribute class. You will be shown a map with data categorized into five classes and "
    "asked to identify spatial clusters. Only Class 1 (lowest) and Class 5 (highest) "
    "qualify as clusters, while Classes 2-4 do not. Clusters follow the Queen adjacency "
    "rule, meaning all states in the cluster must be connected without leaving the set. "
    "Each cluster must contain at least three states, with no upper limit, and multiple "
    "clusters can exist within the same class.")


def general_instruction(ctx: MapContext, spec: TaskSpec, request: str) -> str:
    """MapIQ's general instruction for a task and question type, with the edits for maps
    without a title or legend."""
    kind = {"choropleth": "a choropleth map", "cartogram": "a hexbin cartogram (one "
            "hexagon per state)", "proportional_symbol": "a proportional symbol map "
            "(range-graded circles)"}[ctx.map_type]
    parts = [f"You are given {kind} of the contiguous United States, labelled with "
             "two-letter state abbreviations. The data are classified into five classes "
             "(Fisher-Jenks); the attribute class of a state is the class its "
             f"{'circle size' if ctx.map_type == 'proportional_symbol' else 'colour'} "
             "shows. Task: " + spec.title + "."]
    if ctx.variation == "no_title":
        parts.append(f"The map shows: {ctx.title}.")
    if not ctx.legend:
        parts.append("The map has no legend: classes are numbered Class 1 (lowest) to "
                     f"Class 5 (highest), and {class_order_words(ctx)}. Name classes as "
                     "'Class 1' ... 'Class 5'.")
    else:
        parts.append("Name a class by its range as written in the legend, e.g. '10–20'.")
    if ctx.no_data:
        parts.append(no_data_note(ctx))
    if spec.name == "mapiq_sc":
        parts.append(CLUSTER_DEFINITION)
    parts.append("Answer only from the map. " + FORMATS[request])
    return " ".join(parts)


def no_data_note(ctx: MapContext) -> str:
    """What a reader is told about states without data (grey fill, or no circle).

    Examples
    --------
    >>> from groundtruth.thematic.classification import fisher_jenks
    >>> c = fisher_jenks({s: float(i) for i, s in enumerate("ABCDEF")})
    >>> ctx = MapContext("choropleth", "no_legend", "T", c, {}, {}, no_data=("DC",))
    >>> no_data_note(ctx)[:48]
    'States filled grey (DC) have no data: they have '
    """
    shown = "drawn without a circle" if ctx.map_type == "proportional_symbol" \
        else "filled grey"
    return (f"States {shown} ({', '.join(ctx.no_data)}) have no data: they have no "
            "attribute class, belong to no cluster and are not part of any answer.")


def system_prompt(ctx: MapContext, spec: TaskSpec, q: Question) -> str:
    """The zoning instruction (when needed) followed by the general instruction."""
    general = general_instruction(ctx, spec, q.request)
    if q.needs_zones:
        return zoning_instruction(ctx.zoning, ctx.zones()) + "\n\n" + general
    return general


def extreme_classes(ctx: MapContext, zone: str | None) -> tuple[int, int]:
    """Lowest and highest class present in a scope."""
    present = [ctx.classes[s] for s in ctx.members(zone)]
    return min(present), max(present)
