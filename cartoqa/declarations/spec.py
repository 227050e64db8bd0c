"""The declaration of a task: :class:`TaskSpec`, with one :class:`RequestSpec` per request.

A task module declares everything about its task in one ``SPEC = TaskSpec(...)``, in the
way lm-evaluation-harness declares a task's prompt, target, metrics, aggregation and
direction in one config: how the build samples it (``prepare``, ``make_scenario``,
``items_per_scenario``, ``image_size``, ``needs_roads``), what its items look like
(strata, options, per request the answer's JSON schema), how an answer is read and
written (per request the parser and the reference answer text), how it is scored (per
request the measures, the aggregation and the metrics, named from the one metric
registry :data:`cartoqa.metrics.METRICS`) and how it is described (the card blurb).

The registries that used to be kept by hand are derived from the declarations (see
:mod:`cartoqa.declarations.registry`): the item schema, the parser table, the scoring
sections, the dataset card's task lines, ``cartoqa validate``'s map tasks and the
lmms-eval metric list.

This module imports nothing heavy: generic code (parsing, scoring, dataset checks) may
import it at any time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cartoqa.declarations.records import ConnectivityChecker, Record
    from cartoqa.parsing.result import ParseResult

#: The suite of the CartoMapQA tasks (the others: MapIQ, MapWise, FRIEDA).
CARTOMAPQA = "cartomapqa"
#: How the build log counts a scenario turned down by a task's ``near_duplicate``.
NEAR_DUPLICATE_REASON = "near-duplicate of an item already accepted (same answer, same place)"
#: How the build log counts a scenario turned down by a task's ``overused``.
OVERUSED_REASON = "reuses a place (a junction) already in the most items allowed"
#: The Mapnik maps a task may declare it renders with (``TaskSpec.mapnik_maps``).
MAPNIK_MAPS = ("osm-carto", "road-names")

#: ``parse(item, text)``: a model's response to an item, read into the answer's shape.
Parser = Callable[[Mapping[str, Any], str], "ParseResult"]
#: ``answer_text(answer)``: the item's own answer written as a model would answer.
AnswerText = Callable[[Mapping[str, Any]], str]
#: ``measure(record, checker)``: per-item measures of a valid answer.
Measure = Callable[["Record", "ConnectivityChecker | None"], dict[str, Any]]
#: ``aggregate(records)``: ``(metrics, notes)`` of a group of scored answers.
Aggregate = Callable[[list["Record"]], tuple[dict[str, dict[str, Any]], list[str]]]


@dataclass(frozen=True, eq=False)
class RequestSpec:
    """One request of a task: its answer, how it is read and written, how it is scored.

    Parameters
    ----------
    name : str
        The request (an item's ``request``), e.g. ``"count"``.
    answer_schema : dict
        JSON schema (draft 2020-12) of the item's ``answer`` for this request.
    parse : callable
        ``parse(item, text) -> Parsed | Invalid``; normally a parser of
        :mod:`cartoqa.parsing` (which never raises on any text).
    answer_text : callable
        ``answer_text(answer) -> str``: the answer written the way the prompt asks for
        it; parsing and scoring it gives a perfect score (the reference response).
    metrics : tuple of str
        The metrics reported, in report order; each a name in
        :data:`cartoqa.metrics.METRICS` (its label and direction live there).
    measure, aggregate : callable
        Per-item measures of a valid answer, and the metrics of a group of answers
        (usually from :mod:`cartoqa.scoring.sections`).
    sample_answer : dict
        An answer of this request, valid for ``answer_schema``, for the registry's
        self-checks (tests build one item per request from it).
    headline : tuple of str
        Metrics in [0, 1] drawn in the per-task bar chart of ``cartoqa score --plots``.
    extra_strata : tuple of tuple of str
        Strata reported crossed with each other, e.g. ``(("difficulty", "unit"),)``.
    uses_connectivity : bool
        The measures use the road-graph connectivity check (SRN): the scorer passes it
        one and reports why it could not when it cannot.
    section : str, optional
        Key of the scoring section in reports; default the task name when the task has
        one request, else ``"task/request"``.
    extract_format : str, optional
        The answer format the optional LLM extractor (``cartoqa score
        --extractor-endpoint``) is asked for, e.g. ``"one distance with its unit"``;
        empty: the extractor's own table, else "the answer".
    prompt : str, optional
        Name of the request's prompt template in ``assets/prompts/`` (``"mml_roads"``);
        empty for a request whose questions are not written from a template file.
    sample_prompt : mapping, optional
        Values of the template's placeholders for the sample item. The registry fills
        the template with them when it loads the task, and parses the filled prompt's
        example answer line (its last line) with ``parse``: a missing file, a missing
        value or an example the parser cannot read stops the load, naming the task.
    example_elided : bool, optional
        The template's example answer line is deliberately incomplete (MTMF's JSON object
        ends in ``...``): the registry checks that the prompt fills, not that the
        example parses.
    """

    name: str
    answer_schema: dict[str, Any]
    parse: Parser
    answer_text: AnswerText
    metrics: tuple[str, ...]
    measure: Measure
    aggregate: Aggregate
    sample_answer: dict[str, Any]
    headline: tuple[str, ...] = ()
    extra_strata: tuple[tuple[str, ...], ...] = ()
    uses_connectivity: bool = False
    section: str | None = None
    extract_format: str = ""
    prompt: str = ""
    sample_prompt: Mapping[str, object] = field(default_factory=dict)
    example_elided: bool = False


@dataclass(frozen=True, eq=False)
class TaskSpec:
    """Everything about one task, declared once in its module as ``SPEC``.

    Parameters
    ----------
    name : str
        The task name used in ``--tasks``, item ids and items' ``task`` (``"mml"``).
    blurb : str
        One line describing the task, for the dataset card.
    requests : tuple of RequestSpec
        Its requests, in report order.
    prepare : callable
        ``prepare(ctx) -> state``: candidates computed once per build; may raise
        :class:`~cartoqa.errors.CartoqaError` when the extract cannot support the task.
    make_scenario : callable
        ``make_scenario(ctx, state, slot) -> Scenario | None``: scenario number
        ``slot`` (see :mod:`cartoqa.tasks`), or ``None`` when none was acceptable.
    image_size : tuple of int
        ``(width, height)`` of the task's images; ``cartoqa validate`` checks it.
    items_per_scenario : int
        Items one scenario yields; ``--per-task N`` asks for
        ``ceil(N / items_per_scenario)`` scenarios.
    needs_roads : bool
        The task needs drivable roads (the build refuses extracts without them).
    map_task : bool
        The images are map screenshots of the standard viewport (``cartoqa validate``
        expects that size when a manifest does not say).
    mapnik_maps : tuple of str
        The Mapnik maps its scenarios render with (:data:`MAPNIK_MAPS`): ``"osm-carto"``
        (the style itself: reference renders, styled tiles) and ``"road-names"`` (its
        placement layers with marked names, :mod:`renderers.label_marks`). A
        ``--workers`` builder loads them before it forks its workers, which start with
        them (:func:`cartoqa.parallel.load_maps_ahead`); a map left out is loaded by
        each process at its first use.
    strata : tuple of str
        Strata every item of the task carries (the schema requires them).
    options_schema : dict, optional
        JSON schema of the items' ``options`` when the task has options (MFS).
    sample_strata, sample_options : dict, optional
        Strata and options of the sample items built for the self-checks.
    suite : str
        The benchmark the task rebuilds (``"cartomapqa"``, ``"mapiq"``, ``"mapwise"``,
        ``"frieda"``); the key of
        :data:`cartoqa.declarations.suites.SUITES` it is registered under.
    title : str
        The source benchmark's own name of the task (MapIQ's ``"Retrieve Value"``, used
        in its prompts); empty when it has none.
    provenance_required : tuple of str
        Keys every item's ``provenance`` carries (the schema requires them), e.g. MapIQ's
        ``suite``, ``variable``, ``map_type``; street-map tasks leave it empty.
    sample_provenance : dict, optional
        Provenance of the self-check sample items; default a synthetic street-map one
        (extract, zoom, centre, bounds). A suite whose items have no zoom (MapIQ)
        declares its own, holding ``provenance_required``.
    near_duplicate : callable, optional
        ``near_duplicate(item, earlier) -> bool``: whether a new scenario's first item
        asks the same question as an item the task already accepted (SRN, RLE). The
        builder walks the slots in order and turns such a slot into a failed one,
        counted as a rejection with :data:`NEAR_DUPLICATE_REASON`; the journal keeps
        the verdict, so resumed and ``--workers N`` builds agree.
    overused : callable, optional
        ``overused(item, accepted, planned) -> bool``: whether a new scenario's first
        item reuses a place that the accepted items (first items, in slot order)
        already use as often as a build of ``planned`` scenarios allows (SRN: a
        junction in at most 2 items or 10 % of the build); turned down like a
        near-duplicate, counted with :data:`OVERUSED_REASON`, or with the string it
        returns instead of True (SRN: a marker on the junction and road of an
        accepted item's marker).
    remake_avoiding : callable, optional
        ``remake_avoiding(ctx, state, slot, avoid, after) -> Scenario | None``: the
        slot's scenario made again from its candidates after attempt ``after`` (the
        turned-down one's ``provenance.attempt``; -1: all of them), skipping every
        candidate for which ``avoid(item)`` gives a reason (near-duplicate or
        overused; counted with it) before drawing it. With it, the builder does not
        lose a whole slot to one repeat: it asks for the slot's next acceptable
        candidate instead (SRN); and it makes each slot skipping the repeats of the
        items accepted so far (:meth:`make_slot`), so that no repeat is drawn. The
        result depends only on the seed, the slot and the items accepted before it,
        so ``--workers N`` builds agree.
    """

    name: str
    blurb: str
    requests: tuple[RequestSpec, ...]
    prepare: Callable[..., Any]
    make_scenario: Callable[..., Any]
    image_size: tuple[int, int]
    items_per_scenario: int = 1
    needs_roads: bool = False
    map_task: bool = True
    mapnik_maps: tuple[str, ...] = ()
    strata: tuple[str, ...] = ()
    options_schema: dict[str, Any] | None = None
    sample_strata: dict[str, Any] = field(default_factory=dict)
    sample_options: dict[str, str] | None = None
    suite: str = CARTOMAPQA
    title: str = ""
    provenance_required: tuple[str, ...] = ()
    sample_provenance: dict[str, Any] | None = None
    near_duplicate: Callable[[Mapping[str, Any], Mapping[str, Any]], bool] | None = None
    overused: Callable[[Mapping[str, Any], Sequence[Mapping[str, Any]], int],
                       bool | str] | None = None
    remake_avoiding: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        names = [r.name for r in self.requests]
        if not names or len(set(names)) != len(names):
            raise ValueError(f"task {self.name!r} must declare distinct requests, not {names}")
        unknown = [m for m in self.mapnik_maps if m not in MAPNIK_MAPS]
        if unknown or ("road-names" in self.mapnik_maps and "osm-carto" not in self.mapnik_maps):
            raise ValueError(f"task {self.name!r}: mapnik_maps must be among {MAPNIK_MAPS} "
                             f"(road-names with osm-carto), not {self.mapnik_maps}")
        missing = [s for s in self.strata if s not in self.sample_strata]
        if missing:
            raise ValueError(f"task {self.name!r}: sample_strata lacks {missing}")
        if self.provenance_required:
            lacking = [k for k in self.provenance_required
                       if k not in (self.sample_provenance or {})]
            if lacking:
                raise ValueError(f"task {self.name!r}: sample_provenance lacks {lacking}")

    def repeat_reason(self, item: Mapping[str, Any], accepted: Sequence[Mapping[str, Any]],
                      planned: int) -> str | None:
        """Why a new scenario's first item repeats the accepted ones, or None.

        A near-duplicate (:attr:`near_duplicate`, :data:`NEAR_DUPLICATE_REASON`) or a
        place used too often in a build of ``planned`` scenarios (:attr:`overused`: its
        own reason where it gives one, else :data:`OVERUSED_REASON`), as the build log
        counts them. Both only grow with ``accepted``: an item that repeats some of the
        accepted items repeats all of them.

        Parameters
        ----------
        item : dict
            The new scenario's first item.
        accepted : sequence of dict
            The first items of the scenarios accepted before it, in slot order.
        planned : int
            Scenarios the build plans for the task.

        Returns
        -------
        str or None
            The reason, or None when the item repeats nothing.
        """
        if self.near_duplicate is not None and any(self.near_duplicate(item, earlier)
                                                   for earlier in accepted):
            return NEAR_DUPLICATE_REASON
        if self.overused is not None:
            why = self.overused(item, accepted, planned)
            if why:
                return why if isinstance(why, str) else OVERUSED_REASON
        return None

    def make_slot(self, ctx: Any, state: Any, slot: int,
                  accepted: Sequence[Mapping[str, Any]], planned: int) -> Any:
        """Make a slot's scenario, skipping the candidates that repeat ``accepted``.

        With :attr:`remake_avoiding`, the first of the slot's candidates that passes the
        task's rules and repeats none of the ``accepted`` items (:meth:`repeat_reason`)
        before it is drawn; otherwise :attr:`make_scenario`. Where ``accepted`` are all
        the items accepted before the slot, the scenario is the one the slot would
        give if made first and, were that a repeat, made again avoiding them (as the
        builder does); where they are only the first of them (a worker's view of a
        build in progress, which may grow meanwhile: the scenario is checked again once
        drawn, and made again if it now repeats them), the builder still checks it and
        remakes a repeat, with the same result, since a candidate that repeats some of
        them repeats all of them.

        Parameters
        ----------
        ctx, state, slot
            As for :attr:`make_scenario`.
        accepted : sequence of dict
            First items of scenarios accepted before the slot, in slot order (read at
            each candidate: a sequence that grows meanwhile, as a worker's
            :class:`cartoqa.parallel.PostedItems`, is checked against as it stands).
        planned : int
            Scenarios the build plans for the task.

        Returns
        -------
        Scenario or None
            The scenario, or None when the slot gives none.
        """
        if self.remake_avoiding is None:
            return self.make_scenario(ctx, state, slot)
        first = self.remake_avoiding(
            ctx, state, slot, lambda item: self.repeat_reason(item, accepted, planned), -1)
        # a worker's items may have grown while it was drawn
        return self.without_repeats(ctx, state, slot, first, accepted, planned)

    def without_repeats(self, ctx: Any, state: Any, slot: int, scenario: Any,
                        accepted: Sequence[Mapping[str, Any]], planned: int) -> Any:
        """A slot's scenario, or what the build takes instead when it repeats ``accepted``.

        A scenario whose first item repeats the items (:meth:`repeat_reason`) is counted
        with its reason and made again from its next candidates, skipping repeats
        (:attr:`remake_avoiding`); a task without it loses the slot (None), and so does a
        remade scenario that still repeats the same items. One that repeats items
        accepted while it was remade (a worker's view grows, see :meth:`make_slot`) is
        made again.

        Parameters
        ----------
        ctx, state, slot
            As for :attr:`make_scenario`.
        scenario : Scenario or None
            What the slot gave.
        accepted : sequence of dict
            First items of scenarios accepted before the slot, in slot order.
        planned : int
            Scenarios the build plans for the task.

        Returns
        -------
        Scenario or None
            A scenario that repeats none of ``accepted``, or None for a failed slot.
        """

        def avoid(item: Mapping[str, Any]) -> str | None:
            return self.repeat_reason(item, accepted, planned)

        remade_against = -1  # how many accepted items the last remake avoided
        while scenario is not None and scenario.items:
            why = avoid(scenario.items[0])
            if why is None:
                break
            ctx.reject(self.name, why)
            if self.remake_avoiding is None or len(accepted) == remade_against:
                return None
            remade_against = len(accepted)
            scenario = self.remake_avoiding(ctx, state, slot, avoid,
                                            int(scenario.items[0]["provenance"]["attempt"]))
        return scenario

    def request(self, name: str) -> RequestSpec | None:
        """Return the declaration of one request, or ``None`` if the task has no such request.

        Parameters
        ----------
        name : str
            The request name.

        Returns
        -------
        RequestSpec or None
            The request's declaration.
        """
        for spec in self.requests:
            if spec.name == name:
                return spec
        return None

    def section_key(self, request: RequestSpec) -> str:
        """Return the report key of a request's scoring section.

        Parameters
        ----------
        request : RequestSpec
            One of the task's requests.

        Returns
        -------
        str
            ``request.section`` if set, else the task name for a one-request task and
            ``"task/request"`` otherwise.
        """
        if request.section:
            return request.section
        return self.name if len(self.requests) == 1 else f"{self.name}/{request.name}"


def text_parser(parser: Callable[[str], ParseResult]) -> Parser:
    """Adapt a parser of the response text alone to the ``parse(item, text)`` shape.

    Parameters
    ----------
    parser : callable
        ``parser(text) -> Parsed | Invalid``, e.g. :func:`cartoqa.parsing.parse_count`.

    Returns
    -------
    callable
        ``parse(item, text)`` that ignores the item.

    Examples
    --------
    >>> from cartoqa.parsing import parse_count
    >>> text_parser(parse_count)({}, "Answer: 4").value
    {'count': 4}
    """

    def parse(item: Mapping[str, Any], text: str) -> ParseResult:
        return parser(text)

    parse.__name__ = getattr(parser, "__name__", "parse")
    parse.__doc__ = f"Read the response with {parse.__name__} (the item is not needed)."
    return parse
