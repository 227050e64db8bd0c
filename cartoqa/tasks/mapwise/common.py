"""What the six MapWise answer-type modules share: the map a question is about, region
wording, the answer-format lines and what a reader can tell apart on a colour bar.

A MapWise *map* is one variable of one country drawn in one style (discrete or
continuous legend, colour ramp, hatches, paper, annotations), possibly with
counterfactual values. On a discrete map a reader sees each region's class; on a
continuous map each region's shade on the colour bar, to within what the eye can tell
apart. What counts is the colour difference (ΔE*ab, :func:`renderers.thematic.design.
delta_e`), since the ramps change colour at different rates (the light ramp's whole bar
spans ΔE 48, viridis' 210): two regions are compared only when their fills differ by
:data:`DISTINCT_DELTA_E` and :data:`MIN_BAR_GAP` of the bar; a region that a reader cannot
tell from the extreme in that sense ties with it (a "which region" question accepts each);
a value is asked against a tick only when its fill differs from the bar's colour at every
tick by :data:`TICK_DELTA_E` and it lies :data:`TICK_CLEARANCE` of the bar away. Ground
truth comes from the data, never from the picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundtruth.thematic.classification import Classification
from groundtruth.thematic.countries import Region
from groundtruth.thematic.parts import Part
from renderers.thematic.design import ColourBar, delta_e, lightness

__all__ = ["FORMATS", "PROMPT_MODES", "MapwiseContext", "Question", "lightness", "with_format"]

#: Smallest difference of bar positions (share of the bar) a comparison relies on.
MIN_BAR_GAP = 0.15
#: Smallest colour difference (ΔE*ab) of two fills a comparison relies on; fills closer
#: than this (or than :data:`MIN_BAR_GAP`) look tied.
DISTINCT_DELTA_E = 15.0
#: Largest difference of bar positions (share of the bar) of two regions that count as a
#: tie: a single-word answer accepts every region this close to the extreme. Pairs
#: between this and :data:`MIN_BAR_GAP` apart are neither tied nor comparable, and a
#: question that would depend on them is not asked.
TIE_BAR_GAP = 0.05
#: Smallest distance (share of the bar) between a value asked about and a tick.
TICK_CLEARANCE = 0.04
#: Smallest colour difference (ΔE*ab) between a value's fill and the bar at a tick.
TICK_DELTA_E = 10.0

#: How each country names its regions.
REGION_WORDS: dict[str, tuple[str, str]] = {
    "usa": ("state", "states"),
    "india": ("state or union territory", "states and union territories"),
    "china": ("province", "provinces"),
}
COUNTRY_NAMES: dict[str, str] = {"usa": "the USA", "india": "India", "china": "China"}

#: The answer-format line of each request. Examples are placeholders where a concrete
#: one would be a valid answer (count showed ``[3]`` until balance29d: copied, it
#: scored 0.167 against chance 0.035 on the default build, issue 29); binary shows
#: ``[Yes]``, which a copy scores only at the share of yes (balanced by the samplers).
FORMATS: dict[str, str] = {
    "binary": "Answer Yes or No. Format your response as: 'My answer is [Yes]'.",
    "single": "Answer with one region, by name or code. Format your response as: "
              "'My answer is [name]'.",
    "count": "Answer with a whole number. Format your response as: "
             "'My answer is [number]'.",
    "list": "Name each region by name or code. Format your response as: "
            "'My answer is [item1, item2, ...]', or 'My answer is []' for none.",
    "range": "Answer with the range as written on the legend. Format your response as: "
             "'My answer is [low - high]'.",
    "rank": "Order the regions from the highest value to the lowest; write '=' between "
            "regions you consider equal. Format your response as: "
            "'My answer is [A, B = C, D]'.",
}


#: MapWise's three prompt modes (§5): the line put between a question and its answer
#: format. ``direct`` asks for the answer alone, ``cot`` for step-by-step reasoning
#: first, ``extract`` for an explicit extraction of what the map shows (legend, the
#: values of the regions named) before the answer.
PROMPT_MODES: dict[str, str] = {
    "direct": "Answer directly, without explanation.",
    "cot": "Think step by step, writing your reasoning, then give the answer in the "
           "format below.",
    "extract": "First extract the information the question needs from the map: the "
               "legend's classes or colour-bar ticks, and the class, colour or value of "
               "each region involved, as a list; then answer in the format below.",
}
#: The prompt mode of a default build.
DEFAULT_PROMPT_MODE = "direct"


def with_format(text: str, request: str, mode: str = DEFAULT_PROMPT_MODE) -> str:
    """The question, the prompt mode's instruction and the answer-format line."""
    return f"{text}\n{PROMPT_MODES[mode]}\n{FORMATS[request]}"


@dataclass
class MapwiseContext:
    """The map questions are asked about.

    Attributes
    ----------
    country : str
        ``"usa"``, ``"india"`` or ``"china"``.
    regions : dict
        Code -> :class:`~groundtruth.thematic.countries.Region`.
    title : str
        The variable's title.
    values : dict
        Region -> value (as drawn: counterfactual values on counterfactual maps).
    classification : Classification
        Five Fisher-Jenks classes of :attr:`values`.
    colour_bar : ColourBar or None
        The continuous legend, or ``None`` on a discrete map.
    adjacency : dict
        Queen neighbours of each region.
    printed : dict, optional
        Region -> the value printed on an annotated map (what every answer then uses).
    drawn : tuple of str
        Every region on the map, with or without data (default: all of ``regions``).
    parts : dict
        Named parts (:func:`groundtruth.thematic.parts.country_parts`).
    points, bounds : dict
        Each region's interior point ``(x, y)`` and bounds ``(x0, y0, x1, y1)`` in the
        map's projected metres (north up), for north/south/east/west-most questions.
    colours : tuple of str
        Class colours of a discrete legend.
    ramp : str
        The colour ramp (``light``, ``dark``, ``gradient``).
    hatched : bool
        Black-and-white hatches instead of colours.
    percent : bool, optional
        Whether the values are percentages (None: unknown, not asked).
    prompt_mode : str
        A key of :data:`PROMPT_MODES`.
    labelled : bool
        Whether the map draws region labels (False: MapWise's ``wo_annotations`` maps).
    hidden : frozenset of str
        Regions too small to see on a map without labels (never asked about).
    """

    country: str
    regions: dict[str, Region] = field(repr=False)
    title: str
    values: dict[str, float] = field(repr=False)
    classification: Classification
    colour_bar: ColourBar | None
    adjacency: Mapping[str, frozenset[str]] = field(repr=False)
    printed: dict[str, float] | None = field(default=None, repr=False)
    drawn: tuple[str, ...] = ()
    parts: dict[str, tuple[Part, list[str]]] = field(default_factory=dict, repr=False)
    points: dict[str, tuple[float, float]] = field(default_factory=dict, repr=False)
    bounds: dict[str, tuple[float, float, float, float]] = field(default_factory=dict,
                                                                 repr=False)
    colours: tuple[str, ...] = ()
    ramp: str = ""
    hatched: bool = False
    percent: bool | None = None
    prompt_mode: str = DEFAULT_PROMPT_MODE
    labelled: bool = True
    hidden: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.drawn:
            self.drawn = tuple(sorted(self.regions))

    def ask(self, text: str, request: str) -> str:
        """The question with this build's prompt-mode line and the answer format."""
        return with_format(text, request, self.prompt_mode)

    @property
    def codes(self) -> list[str]:
        """Regions with data, sorted."""
        return sorted(self.values)

    @property
    def missing(self) -> list[str]:
        """Regions drawn without data (shown as N/A), sorted."""
        return sorted(set(self.drawn) - set(self.values))

    def neighbours(self, code: str) -> list[str]:
        """Neighbours of a region that have data."""
        return sorted(n for n in self.adjacency.get(code, ()) if n in self.values)

    def all_neighbours_have_data(self, code: str) -> bool:
        """Whether every drawn neighbour of a region has data."""
        return all(n in self.values for n in self.adjacency.get(code, ()))

    def shown(self, code: str) -> float:
        """The value a reader can know: the printed one on annotated maps, else the data."""
        return self.printed[code] if self.printed is not None else self.values[code]

    @property
    def continuous(self) -> bool:
        """Whether the legend is a colour bar."""
        return self.colour_bar is not None

    @property
    def classes(self) -> dict[str, int]:
        """Region -> class."""
        return self.classification.classes

    def region(self, code: str) -> str:
        """``"Maharashtra (MH)"``: the name and code the map shows for a region."""
        shown = self.regions[code]
        return f"{shown.name} ({shown.code})"

    @property
    def word(self) -> str:
        """``"state"``, ``"province"``."""
        return REGION_WORDS[self.country][0]

    @property
    def words(self) -> str:
        """``"states"``, ``"provinces"``."""
        return REGION_WORDS[self.country][1]

    @property
    def where(self) -> str:
        """``"India"``."""
        return COUNTRY_NAMES[self.country]

    def level(self, code: str) -> float:
        """What a reader compares: the printed value (annotated maps), else the class
        (discrete) or the bar position (continuous)."""
        if self.printed is not None:
            return self.printed[code]
        if self.colour_bar is None:
            return float(self.classes[code])
        return self.colour_bar.position(self.values[code])

    def distinct(self, a: str, b: str) -> bool:
        """Whether a reader can tell which of two regions is higher (printed values
        differ; different classes; or fills :data:`MIN_BAR_GAP` and
        :data:`DISTINCT_DELTA_E` apart)."""
        if self.printed is not None:
            return self.printed[a] != self.printed[b]
        return self.look_distinct(a, b)

    def look_distinct(self, a: str, b: str) -> bool:
        """Whether two regions' fills differ as :meth:`distinct` asks, ignoring printed
        values (different classes, or bar fills far enough apart)."""
        if self.colour_bar is None:
            return self.classes[a] != self.classes[b]
        bar = self.colour_bar
        return (abs(bar.position(self.values[a]) - bar.position(self.values[b]))
                >= MIN_BAR_GAP
                and delta_e(bar.colour(self.values[a]),
                            bar.colour(self.values[b])) >= DISTINCT_DELTA_E)

    def tied(self, a: str, b: str) -> bool:
        """Whether two regions look the same: equal printed values (annotated maps),
        the same class, or bar positions at most :data:`TIE_BAR_GAP` apart."""
        if self.printed is not None:
            return self.printed[a] == self.printed[b]
        return self.look_alike(a, b)

    def look_alike(self, a: str, b: str) -> bool:
        """Same class, or bar positions at most :data:`TIE_BAR_GAP` apart (fills only)."""
        if self.colour_bar is None:
            return self.classes[a] == self.classes[b]
        bar = self.colour_bar
        return abs(bar.position(self.values[a]) - bar.position(self.values[b])) <= TIE_BAR_GAP

    def ties_with(self, code: str) -> list[str]:
        """Regions with data that look the same as ``code`` (:meth:`tied`), itself
        included."""
        return sorted(r for r in self.values if r == code or self.tied(r, code))

    def fill_level(self, code: str) -> float:
        """The class (discrete) or bar position (continuous), ignoring printed values."""
        if self.colour_bar is None:
            return float(self.classes[code])
        return self.colour_bar.position(self.values[code])

    def extreme(self, pool: Sequence[str], highest: bool,
                by_fill: bool = False) -> list[str] | None:
        """The regions of ``pool`` a reader may name as its highest (lowest): those tied
        with the extreme; ``None`` when some region of the pool is neither tied with the
        extreme nor clearly apart from it (the answer would be a judgement call).
        ``by_fill`` judges by the fills alone (the darkest shade), not printed values."""
        pool = [c for c in pool if c in self.values]
        if not pool:
            return None
        level = self.fill_level if by_fill else self.level
        tied = self.look_alike if by_fill else self.tied
        distinct = self.look_distinct if by_fill else self.distinct
        best = (max if highest else min)(pool, key=lambda c: (level(c), c))
        accepted = sorted(c for c in pool if c == best or tied(c, best))
        if any(c not in accepted and not distinct(c, best) for c in pool):
            return None
        return accepted

    def clear_of_tick(self, code: str, tick: float) -> bool:
        """Whether a reader sees on which side of ``tick`` a region's value lies: at
        least :data:`TICK_CLEARANCE` of the bar and :data:`TICK_DELTA_E` of colour away
        (or, on annotated maps, a printed value other than the tick)."""
        assert self.colour_bar is not None
        if self.printed is not None:
            return self.printed[code] != tick
        bar, v = self.colour_bar, self.values[code]
        return (abs(bar.position(v) - bar.position(tick)) >= TICK_CLEARANCE
                and delta_e(bar.colour(v), bar.colour(tick)) >= TICK_DELTA_E)

    def clear_of_ticks(self, code: str) -> bool:
        """Whether a region's value lies clearly between two ticks of the bar."""
        assert self.colour_bar is not None
        return all(self.clear_of_tick(code, t) for t in self.colour_bar.ticks)

    def bar_interval(self, code: str) -> tuple[float, float, str]:
        """The two ticks around a region's value and their legend text."""
        assert self.colour_bar is not None
        bar, v = self.colour_bar, self.shown(code)
        for i in range(len(bar.ticks) - 1):
            if bar.ticks[i] <= v <= bar.ticks[i + 1]:
                return (bar.ticks[i], bar.ticks[i + 1],
                        f"{bar.tick_labels[i]} - {bar.tick_labels[i + 1]}")
        raise ValueError(f"{code} lies outside the colour bar")


@dataclass
class Question:
    """One generated question (the build adds ids, image and provenance).

    Attributes
    ----------
    request : str
        Answer type: ``binary``, ``single``, ``count``, ``list``, ``range``, ``rank``.
    template : str
        Which template asked it.
    text : str
        The question with its answer-format line.
    answer : dict
        The ground truth.
    asked : list of str
        Regions whose labels the question relies on.
    """

    request: str
    template: str
    text: str
    answer: dict[str, Any]
    asked: list[str]
    family: str = "classic"


def system_prompt(ctx: MapwiseContext) -> str:
    """The instruction shown with every question about a map."""
    labels = ("each labelled with its two-letter code (small ones in boxes at the sides, "
              "with a line to the region)" if ctx.labelled else
              "drawn without labels (tell the regions by their shape and position)")
    return (f"You are given a choropleth map of the {ctx.words} of {ctx.where}, "
            f"{labels}. Its legend is either a set of classes, each named by "
            f"its range as the legend writes it (every region in a class has that class's "
            f"colour or pattern), or a continuous colour bar (read a region's value from "
            f"where its colour sits on the bar). Regions drawn without data are marked as "
            f"no data. Answer only from the map.")
