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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from groundtruth.thematic.classification import Classification
from groundtruth.thematic.countries import Region
from renderers.thematic.design import ColourBar, delta_e

__all__ = ["FORMATS", "MapwiseContext", "Question", "with_format"]

#: Smallest difference of bar positions (share of the bar) a comparison relies on.
MIN_BAR_GAP = 0.15
#: Smallest colour difference (ΔE*ab) of two fills a comparison relies on; fills closer
#: than this (or than :data:`MIN_BAR_GAP`) look tied.
DISTINCT_DELTA_E = 15.0
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

FORMATS: dict[str, str] = {
    "binary": "Answer Yes or No. Format your response as: 'My answer is [Yes]'.",
    "single": "Answer with one region, by name or code. Format your response as: "
              "'My answer is [name]'.",
    "count": "Answer with a whole number. Format your response as: 'My answer is [3]'.",
    "list": "Name each region by name or code. Format your response as: "
            "'My answer is [item1, item2, ...]', or 'My answer is []' for none.",
    "range": "Answer with the range as written on the legend. Format your response as: "
             "'My answer is [low - high]'.",
    "rank": "Order the regions from the highest value to the lowest; write '=' between "
            "regions you consider equal. Format your response as: "
            "'My answer is [A, B = C, D]'.",
}


def with_format(text: str, request: str) -> str:
    """The question followed by its answer-format line."""
    return f"{text}\n{FORMATS[request]}"


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
    """

    country: str
    regions: dict[str, Region] = field(repr=False)
    title: str
    values: dict[str, float] = field(repr=False)
    classification: Classification
    colour_bar: ColourBar | None
    adjacency: Mapping[str, frozenset[str]] = field(repr=False)

    @property
    def continuous(self) -> bool:
        """Whether the legend is a colour bar."""
        return self.colour_bar is not None

    @property
    def classes(self) -> dict[str, int]:
        """Region -> class."""
        return self.classification.classes

    def region(self, code: str) -> str:
        """``"Maharashtra (MH)"``."""
        return f"{self.regions[code].name} ({code})"

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
        """What a reader compares: the class (discrete) or the bar position (continuous)."""
        if self.colour_bar is None:
            return float(self.classes[code])
        return self.colour_bar.position(self.values[code])

    def distinct(self, a: str, b: str) -> bool:
        """Whether a reader can tell which of two regions is higher."""
        if self.colour_bar is None:
            return self.classes[a] != self.classes[b]
        bar = self.colour_bar
        return (abs(self.level(a) - self.level(b)) >= MIN_BAR_GAP
                and delta_e(bar.colour(self.values[a]),
                            bar.colour(self.values[b])) >= DISTINCT_DELTA_E)

    def ties_with(self, code: str) -> list[str]:
        """Regions that look the same as ``code`` (same class, or fills a reader cannot
        tell from it: not :meth:`distinct`), itself included."""
        if self.colour_bar is None:
            return sorted(r for r in self.classes if self.classes[r] == self.classes[code])
        return sorted(r for r in self.values if r == code or not self.distinct(r, code))

    def clear_of_tick(self, code: str, tick: float) -> bool:
        """Whether a reader sees on which side of ``tick`` a region's value lies: at
        least :data:`TICK_CLEARANCE` of the bar and :data:`TICK_DELTA_E` of colour away."""
        assert self.colour_bar is not None
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
        bar, v = self.colour_bar, self.values[code]
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


def system_prompt(ctx: MapwiseContext) -> str:
    """The instruction shown with every question about a map."""
    legend = ("a continuous colour bar: read a region's value from where its colour sits "
              "on the bar" if ctx.continuous else
              "a legend of five classes: every region in a class has that class's colour "
              "or pattern, and the class is named by its range as the legend writes it")
    return (f"You are given a choropleth map of the {ctx.words} of {ctx.where}, each "
            f"labelled with its two-letter code (small ones in boxes at the sides, with a "
            f"line to the region). The map has {legend}. Answer only from the map.")
