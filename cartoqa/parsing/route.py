"""Turn-by-turn routes (SRN): ``[blue, turn left, Road A, ..., red]``."""

from __future__ import annotations

import ast
import re
from functools import lru_cache

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.structured import closed_truncation, find_structured
from cartoqa.parsing.tables import find_table
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    block_after,
    drop_notes,
    fold,
    hedge,
    list_goes_on,
    nonempty_lines,
    normalize_text,
    retracts,
)

#: The four SRN actions, spelled exactly as in the dataset.
ACTIONS: tuple[str, ...] = (
    "continue straight",
    "make a U-turn and continue straight",
    "turn left",
    "turn right",
)
ORIGIN = "blue"
DESTINATION = "red"

_UTURN = re.compile(
    r"^(?:(?:make|do|take|perform)\s+an?\s+)?(?:u\s*-?\s*turn|uturn|turn\s+around)"
    r"(?:\s+(?:and\s+)?(?:then\s+)?(?:continue|go|head|drive|proceed)(?:\s+straight)?"
    r"(?:\s+(?:ahead|on|forward))?)?$"
)
_LEFT = re.compile(r"^(?:turn|go|make\s+a|take\s+a|bear|keep|hang\s+a)?\s*left(?:\s+turn)?$")
_RIGHT = re.compile(r"^(?:turn|go|make\s+a|take\s+a|bear|keep|hang\s+a)?\s*right(?:\s+turn)?$")
_STRAIGHT = re.compile(
    r"^(?:(?:continue|go|keep|head|drive|proceed|carry\s+on)(?:\s+straight)?|straight)"
    r"(?:\s+(?:ahead|on|forward))?$"
)
_MARKER = re.compile(
    r"^(?:(?:start(?:ing)?|begin(?:ning)?|end(?:ing)?|arrive|arriving|stop)\s+(?:at|from)\s+"
    r"|from\s+|at\s+|reach(?:ing)?\s+|getting\s+to\s+|to\s+)?(?:the\s+)?(?P<c>blue|red)(?:\s+(?:marker|pin|point|dot|circle|location))?$"
    r"|^(?P<o>start|origin)(?:\s+\(?blue\)?)?$|^(?P<d>destination|end|finish)(?:\s+\(?red\)?)?$"
)
_COMBINED = re.compile(
    r"^(?P<action>.+?)\s+(?:onto|on\s+to|on|into|to|along|via|down|up)\s+(?P<road>\S.*)$",
    re.IGNORECASE,
)
_DIRECTION = re.compile(r"\b(?:left|right|straight|u\s*-?\s*turn|uturn|around)\b")
_SEPARATORS = re.compile(r"\s*(?:,|->|=>|;|\n|\|)\s*")
_BRACKETED = re.compile(r"\[([^\[\]]*)\]")
_EMPHASIS = re.compile(r"\*\*|__|`")
# "Route:", "Start:", "Final route:" before the first element of a line
_STEP_LABEL = re.compile(
    r"^(?:the\s+)?(?:shortest\s+|final\s+)?route\s+(?:is|would\s+be|will\s+be)\s*:?\s*|^(?:(?:final|shortest|suggested|my)\s+)?(?:route|path|answer|start(?:ing\s+point)?|origin|"
    r"end(?:ing\s+point)?|destination|directions?|navigation|steps?|instructions?|"
    r"turn-by-turn(?:\s+instructions)?)\s*[:=]\s*",
    re.IGNORECASE,
)
# a line that states the route: "Route: ...", "Final route: ..."
_ROUTE_LINE = re.compile(
    r"^[ \t>*+\-]*(?:(?:final|shortest|suggested|my)\s+)?(?:route|path|navigation|directions)"
    r"[ \t]*(?:\([^()\n]{0,30}\))?[ \t]*[:=][ \t]*(?P<rest>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_HEADING_LINE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t].*$", re.MULTILINE)
_FILLER = re.compile(r"^(?:and\s+then|then|and|next|finally)\s+", re.IGNORECASE)
# an order word before a step, or alone between commas ("First, start at blue", "lastly
# reach red"); not before a capital ("Second Street" is a road)
_ORDER_WORD = re.compile(r"^(?:(?i:and)\s+)?(?i:first(?:ly)?|second(?:ly)?|third(?:ly)?|next|"
                         r"after\s+that|afterwards|last(?:ly)?|finally|then)"
                         r"(?:\s*,\s*|\s+(?=[a-z])|\s*$)")
_ENUM = re.compile(r"^(?:[-*+]|\d{1,3}[.)]|step\s+\d+\s*[:.)])\s*", re.IGNORECASE)


# "turn left again", "turn right once more", "bear slightly left", "immediately turn
# right": an adverb in a turn phrase is no part of the action
_ADVERB = re.compile(r"(?<!\S)(?:again|once\s+more|immediately|sharply|slightly|hard)(?!\S)")


@lru_cache(maxsize=8192)
def canonical_action(text: str) -> str | None:
    """Return the canonical SRN action a phrase means, or ``None``.

    Parameters
    ----------
    text : str
        A phrase such as ``"Go straight ahead"``, ``"left"`` or ``"U-turn"``.

    Returns
    -------
    str or None
        One of :data:`ACTIONS`, or ``None`` when the phrase is not an action.

    Examples
    --------
    >>> canonical_action("Left")
    'turn left'
    >>> canonical_action("make a u-turn")
    'make a U-turn and continue straight'
    >>> canonical_action("turn left again"), canonical_action("bear slightly right")
    ('turn left', 'turn right')
    """
    key = re.sub(r"\s+", " ", fold(text).strip(" .!\"'")).strip()
    key = re.sub(r"\s+", " ", _ADVERB.sub(" ", key)).strip() if _DIRECTION.search(key) else key
    if not key:
        return None
    if _UTURN.match(key):
        return "make a U-turn and continue straight"
    if _LEFT.match(key):
        return "turn left"
    if _RIGHT.match(key):
        return "turn right"
    if _STRAIGHT.match(key):
        return "continue straight"
    return None


# "Start at blue, facing north": the way the marker faces is no part of the step
_FACING = re.compile(
    r",?\s+(?:facing|heading|pointing|going|travell?ing|oriented)\s+(?:due\s+)?"
    r"(?:north|south|east|west)(?:[- ]?(?:east|west))?(?:wards?)?$")


@lru_cache(maxsize=8192)
def canonical_marker(text: str) -> str | None:
    """Return ``"blue"`` or ``"red"`` when a phrase names the origin or destination marker.

    Parameters
    ----------
    text : str
        A phrase such as ``"Blue marker"`` or ``"destination (red)"``.

    Returns
    -------
    str or None
        ``"blue"``, ``"red"`` or ``None``.

    Examples
    --------
    >>> canonical_marker("Start at blue, facing north"), canonical_marker("destination (red)")
    ('blue', 'red')
    >>> canonical_marker("Start at blue heading south-east"), canonical_marker("blue facing")
    ('blue', None)
    """
    key = re.sub(r"\s+", " ", fold(text).strip(" .!\"'")).strip()
    m = _MARKER.match(_FACING.sub("", key))
    if not m:
        return None
    if m.group("c"):
        return m.group("c")
    return ORIGIN if m.group("o") else DESTINATION


# "continue straight onto X until you reach the red marker", "... onto X to reach red",
# "... onto X, reaching the red marker": the step, then the marker
_UNTIL_MARKER = re.compile(
    r"(?:\s+(?:until|till|before|and\s+(?:then\s+)?|(?:in\s+order\s+|so\s+as\s+)?to)\s*"
    r"(?:you\s+|it\s+|the\s+vehicle\s+)?"
    r"(?:reach(?:es)?|arrive(?:s)?\s+at|get(?:s)?\s+to|come(?:s)?\s+to|end(?:s)?\s+at|"
    r"stop(?:s)?\s+at|(?:drive|go|continue|head|proceed|walk)s?\s+(?:on\s+)?to)"
    r"|,?\s+(?:reaching|arriving\s+at|getting\s+to|ending\s+at)"
    # since fix24zp: "..., which leads/takes you to the red marker", "... where you'll
    # find the red marker", "..., and you're at red": a clause after the last road
    r"|,?\s*(?:which|that)\s+(?:lead|take|bring|get)s?\s+(?:you\s+|it\s+|us\s+|"
    r"the\s+vehicle\s+)?(?:straight\s+|directly\s+|right\s+)?(?:on\s+)?to"
    r"|,?\s+where\s+(?:you(?:'ll|\s+will)?|it(?:'ll|\s+will)?|the\s+vehicle\s+will)\s+"
    r"(?:see|find|reach|meet)"
    r"|(?:,?\s+|^)and\s+(?:then\s+)?(?:you(?:'re|\s+are)|it(?:'s|\s+is))\s+(?:right\s+)?at"
    r"|\s+(?:on\s+|up\s+|all\s+the\s+way\s+)?to)"
    r"\s+(?=(?:the\s+)?(?:red|blue)\b)",
    re.IGNORECASE,
)


# "the red marker is just there", "where the red marker sits", "you'll see the red pin":
# a closing clause that names the marker is the step "red"
_MARKER_CLAUSE = re.compile(
    r"^(?:and\s+|then\s+|which\s+is\s+)?(?:where\s+|there\s+)?"
    r"(?:(?:you(?:'ll|\s+will)?|it)\s+(?:see|find|reach|hit|meet)\s+)?"
    r"(?:the\s+)?(?P<c>red|blue)\s+(?:marker|pin|point|dot|circle|location)"
    r"(?:\s+(?:is|lies|sits|appears|stands|will\s+be)\b[^,;]*)?$",
    re.IGNORECASE,
)


# "Fabianinkatu (southbound)", "Kaivokatu (one-way)": a note in lower case after a road
# is no part of its name; nor, since fix24zs, its other-language name ("Rautatientori
# (Järnvägstorget)", "Eteläesplanadi (Södra esplanaden)": the roads carry no brackets)
_ROAD_NOTE = re.compile(r"(?<=\S)\s*\((?:[^\W\d_][\w'.-]*)(?:\s+[^\W\d_][\w'.-]*){0,5}\)$")


# "turn left onto X and then right onto Y": a second step joined by "and" to a road;
# only before a lower-case action word ("Left and Right Bank" keeps its name)
_AND_STEP = re.compile(
    r"\s+and\s+(?:then\s+)?(?=(?:turn|bear|keep|go|make\s+a|take\s+a|hang\s+a|continue|head|"
    r"proceed|left|right)\b)"
    # "... onto Annankatu and go to the red marker": the way to the marker, not a step
    r"(?!(?:drive|go|continue|head|proceed|walk)s?\s+(?:on\s+)?to\s+(?:the\s+)?(?:red|blue)\b)"
)
# "Kaivokatu or turn right onto Liisankatu", "Kaivokatu or Liisankatu": two routes offered
_OR_WORD = re.compile(r"\b(?:and/)?or\b")


def _and_steps(element: str) -> list[str]:
    """An element split where ``and`` joins a second step to a road (``turn left onto X
    and then right onto Y``); an action joined so (``make a U-turn and continue
    straight``) stays one.

    Examples
    --------
    >>> _and_steps("Turn left onto Kaivokatu and then right onto Liisankatu")
    ['Turn left onto Kaivokatu', 'right onto Liisankatu']
    >>> _and_steps("make a U-turn and continue straight")
    ['make a U-turn and continue straight']
    """
    parts = _AND_STEP.split(element, maxsplit=1)
    if len(parts) == 1 or canonical_action(_ENUM.sub("", parts[0].strip())) is not None:
        return [element]
    return [parts[0], *_and_steps(parts[1])]


def _road(text: str) -> str:
    """A road step as written, less a note or another name in brackets at its end.

    Examples
    --------
    >>> _road("Fabianinkatu (southbound)"), _road("Rautatientori (Järnvägstorget)")
    ('Fabianinkatu', 'Rautatientori')
    """
    bare = _ROAD_NOTE.sub("", text)
    return bare if bare else text


# "... onto Kasarmikatu and drive south until ...": the heading on a road is no step
_HEADING = re.compile(
    r"\s+(?:and\s+)?(?:then\s+)?(?:drive|go|head|continue|travel|proceed)s?\s+(?:due\s+)?"
    r"(?:north|south|east|west)(?:[- ]?(?:east|west))?(?:wards?)?"
    r"(?:\s+for\s+(?:about\s+|around\s+|roughly\s+)?\d[\d.,]*\s*(?:km|m|metres|meters|"
    r"kilometres|kilometers|blocks?)\b)?"
    r"(?=\s*(?:[.,;!]|$|(?:until|till|to|and|then)\b))", re.IGNORECASE)
# "... and continue north on Y": the heading is no step, the road is (fix24zq)
_HEADING_ON = re.compile(
    r"^(?:then\s+)?(?:drive|go|head|continue|travel|proceed)s?\s+(?:due\s+)?"
    r"(?:north|south|east|west)(?:[- ]?(?:east|west))?(?:wards?)?\s+(?:on|along)\s+"
    r"(?P<road>(?-i:[A-Z\u00c0-\u00de])\S*(?:\s+(?-i:[A-Z\u00c0-\u00de])\S*){0,3})$",
    re.IGNORECASE)
# "The vehicle should turn left onto ...", "You need to turn right": who drives is no step
_SUBJECT = re.compile(
    r"^(?:the\s+(?:vehicle|car|driver)|you|we)\s+(?:should|must|will|would|can|(?:needs?|"
    r"has|have)\s+to)\s+(?:first\s+)?(?=(?:turn|make|take|bear|keep|go|continue|head|drive)\b)",
    re.IGNORECASE)


def _elements(raw: list[str]) -> list[str]:
    raw = [part for element in raw for piece in _and_steps(_HEADING.sub("", element))
           for part in _UNTIL_MARKER.split(piece)]
    steps: list[str] = []
    for element in raw:
        element = _ENUM.sub("", _ENUM.sub("", element.strip(), count=1), count=1)
        element = _SUBJECT.sub("", _STEP_LABEL.sub("", element, count=1), count=1)
        element = _FILLER.sub("", _ORDER_WORD.sub("", element, count=1), count=1)
        # a list cut before its "]" leaves its "[" on the first element ('["blue"')
        element = element.strip().strip("[]").strip().strip("\"'").strip().rstrip(".").strip()
        if not element:
            continue
        marker = canonical_marker(element)
        clause = _MARKER_CLAUSE.match(element) if marker is None else None
        if clause is not None:
            marker = clause.group("c").lower()
        if marker is not None:
            steps.append(marker)
            continue
        action = canonical_action(element)
        if action is not None:
            steps.append(action)
            continue
        heading = _HEADING_ON.match(element)
        if heading is not None:
            steps.append(_road(heading.group("road")))
            continue
        combined = _COMBINED.match(element)
        if combined and _DIRECTION.search(fold(combined.group("action"))):
            action = canonical_action(combined.group("action"))
            if action is not None:
                steps.append(action)
                steps.append(_road(combined.group("road").strip().strip("\"'")))
                continue
        steps.append(_road(element))
    return steps


def _split(inner: str) -> list[str]:
    try:
        literal = ast.literal_eval("[" + inner + "]") if len(inner) < 20_000 else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        literal = None
    if isinstance(literal, list) and literal and all(isinstance(x, str) for x in literal):
        return list(literal)
    return _SEPARATORS.split(inner)


def parse_route(text: str) -> ParseResult:
    """Parse a route into its list of steps.

    The list is taken from, in order: a JSON or Python list of strings; the last
    ``[...]`` that names a marker (else the last ``[...]``); the text after the last
    ``Answer:`` cue (or ``Route:`` label, unless that sums the route up in prose above a
    list on a line of its own: then the list); the last line that names both markers;
    numbered sentences from ``blue`` to ``red``; lines holding one step each. Elements
    are separated by commas, arrows (``->``, ``→``), semicolons, bars or line breaks,
    may be quoted, numbered or bulleted, and are normalised: actions to
    :data:`ACTIONS` (``left`` → ``turn left``, ``go straight`` → ``continue
    straight``, ``U-turn`` → the U-turn action), markers to ``blue``/``red``, and
    ``turn left onto X`` into two steps. Road names are kept as written, less a
    note or another name in brackets (``Fabianinkatu (southbound)``, ``Eteläesplanadi
    (Södra esplanaden)``).

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"steps": [...]})``; invalid when no list is found, it is empty, or it
        names neither a marker nor an action.

    Examples
    --------
    >>> parse_route("Route: [ Blue , Left, 'Main St' , RED ]").value
    {'steps': ['blue', 'turn left', 'Main St', 'red']}
    >>> parse_route("blue -> go straight -> Mannerheimintie -> red").value["steps"][1]
    'continue straight'
    """
    t = _HEADING_LINE.sub("", _EMPHASIS.sub("", normalize_text(text)))
    if not t.strip():
        return Invalid("empty response")
    segments = answer_segments(t) or _list_below_summary(t) or _route_lines(t)
    cued = agree([_route_in(seg) for seg in segments], key=lambda p: p.value["steps"],
                 what="routes")
    if cued is not None:
        return cued
    data = _json_route(t)
    if data is not None:
        return _result(data)
    body = drop_notes(t)
    found = _route_in(body, whole=True)
    if found is not None:
        return found
    tabled = _table_route(body)
    if tabled is not None:
        return tabled
    return Invalid("no route list found")


_ACTION_HEAD = re.compile(r"^(?:action|turn|manoeuvre|maneuver|direction|instruction)s?$",
                          re.IGNORECASE)
_ROAD_HEAD = re.compile(r"^(?:(?:onto\s+)?(?:road|street)(?:\s+name)?|onto)s?$", re.IGNORECASE)


def _table_route(text: str) -> ParseResult | None:
    """The route of a markdown table with an action column and a road column (``| Step |
    Action | Road |``) and no list: ``blue``, each row's action and road, ``red`` (the
    markers added where the table leaves them out); ``None`` when there is no such table
    or a row's action is none of the four; a hedge around it is invalid.

    Examples
    --------
    >>> _table_route("| Step | Action | Road |\\n|---|---|---|\\n"
    ...              "| 1 | turn right | Kaivokatu |").value
    {'steps': ['blue', 'turn right', 'Kaivokatu', 'red']}
    >>> _table_route("| Road | Length |\\n|---|---|\\n| Kaivokatu | 200 m |") is None
    True
    """
    lines = text.split("\n")
    table = find_table(lines)
    if table is None or not table.header:
        return None
    head = [h.strip().strip("*_ ") for h in table.header]
    acts = [i for i, h in enumerate(head) if _ACTION_HEAD.match(h)]
    roads = [i for i, h in enumerate(head) if _ROAD_HEAD.match(h)]
    if len(acts) != 1 or len(roads) != 1 or not table.rows:
        return None
    steps: list[str] = []
    for row in table.rows:
        cells = [row[i].strip() if i < len(row) else "" for i in (acts[0], roads[0])]
        action = canonical_action(cells[0])
        if action is None:
            return None
        steps.append(action)
        if cells[1] and cells[1] not in ("-", "\u2014"):
            steps.append(_road(cells[1]))
    outside = "\n".join(ln for ln in lines if not ln.lstrip().startswith("|"))
    hedged = hedge(outside)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    return _steps([ORIGIN, *steps, DESTINATION])


def _route_lines(text: str) -> list[str]:
    """What follows each ``Route:`` label (its line, or the block below an empty one);
    a route after words that take the one before back (``Oops, I forgot a turn.``)
    replaces it."""
    lines = text.split("\n")
    out: list[str] = []
    between: list[str] = []
    for i, line in enumerate(lines):
        m = _ROUTE_LINE.match(line)
        if m:
            rest = m.group("rest").strip() or block_after(lines, i + 1)
            more = list_goes_on(lines, i + 1, rest)  # "Route: ['blue', 'turn left',\n ..."
            rest = f"{rest}\n{more}" if more else rest
            if rest:
                if out and retracts("\n".join(between)):
                    out = []
                out.append(rest)
                between = []
        else:
            between.append(line)
    return out


def _list_below_summary(text: str) -> list[str]:
    """A route list on a line of its own below the last ``Route:`` line when that line
    sums the route up in prose (``**Route:** turn left onto X, then left again onto
    Y.``, then a fenced JSON list): the list is the answer; ``[]`` when there is none.

    Examples
    --------
    >>> _list_below_summary("Route: turn left onto X.\\n\\n['blue', 'turn left', 'X', 'red']")
    ["'blue', 'turn left', 'X', 'red'"]
    >>> _list_below_summary("Route: turn left onto X.\\nI ruled out ['blue', 'red'] early.")
    []
    """
    labels = list(_ROUTE_LINE.finditer(text))
    last = labels[-1] if labels else None
    if last is None or "[" in last.group("rest") or not last.group("rest").strip():
        return []
    listed = [m for m in _BRACKETED.finditer(text, last.end())
              if _own_line(text, m.start(), m.end())]
    complete = [m.group(1) for m in listed if _is_complete(_elements(_split(m.group(1))))]
    return complete[-1:]


def _own_line(text: str, start: int, end: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return not text[line_start:start].strip() and not text[end:line_end if line_end >= 0
                                                          else len(text)].strip()


def _is_complete(steps: list[str]) -> bool:
    return len(steps) >= 2 and steps[0] == ORIGIN and steps[-1] == DESTINATION


def _json_route(text: str) -> list[str] | None:
    """A route under a ``route``/``answer``/``steps`` key of a JSON object."""
    if "{" not in text:
        return None
    data = closed_truncation(text, kind=dict) or find_structured(text, kind=dict)
    if not isinstance(data, dict):
        return None
    lower = {str(k).lower(): v for k, v in data.items()}
    for key in ("route", "answer", "final_answer", "steps", "path", "navigation"):
        value = lower.get(key)
        if isinstance(value, list) and value and all(isinstance(x, str) for x in value):
            return list(value)
    return None


def _result(raw: list[str]) -> ParseResult:
    steps = _elements(raw)
    if not steps:
        return Invalid("empty route")
    if not any(s in (ORIGIN, DESTINATION) or s in ACTIONS for s in steps):
        return Invalid("no route: the list names no marker and no action")
    return _steps(steps)


def _steps(steps: list[str]) -> ParseResult:
    """The route read, unless a road step offers two (``Kaivokatu or Liisankatu``)."""
    if any(_OR_WORD.search(s) for s in steps if s not in ACTIONS):
        return Invalid("a hedged answer (or): two routes offered")
    return Parsed({"steps": steps})


def _is_route(steps: list[str]) -> bool:
    return len(steps) >= 2 and any(s in (ORIGIN, DESTINATION) or s in ACTIONS for s in steps)


def _candidates(text: str) -> list[list[str]]:
    """Every list in the text that reads as a route (two or more steps), in order."""
    found: list[tuple[int, list[str]]] = []
    for m in _BRACKETED.finditer(text):
        steps = _elements(_split(m.group(1)))
        if _is_route(steps):
            found.append((m.start(), steps))
    return [steps for _, steps in sorted(found, key=lambda x: x[0])]


def _route_in(segment: str, *, whole: bool = False) -> ParseResult | None:
    """The route of one answer segment (or of the whole response); ``None`` if none."""
    candidates = _candidates(segment)
    if candidates:
        complete = [c for c in candidates if c[0] == ORIGIN and c[-1] == DESTINATION]
        distinct = {tuple(c) for c in complete}
        if len(distinct) > 1:
            return Invalid(f"several different routes ({len(distinct)})")
        if whole:
            last = list(_BRACKETED.finditer(segment))[-1]
            line_start = segment.rfind("\n", 0, last.start()) + 1
            hedged = hedge(segment[line_start : last.start()])
            if hedged:
                return Invalid(f"a hedged answer ({hedged})")
        if not whole:
            # doubt around the list of a cued answer: "[...] (not fully sure about ...)"
            doubt = hedge(_BRACKETED.sub(" ", segment))
            if doubt:
                return Invalid(f"a hedged answer ({doubt})")
        if complete:
            return _steps(complete[-1])
        if not whole:
            return _steps(candidates[-1])
        distinct = {tuple(c) for c in candidates}
        if len(distinct) > 1:
            return Invalid(f"several different partial routes ({len(distinct)})")
        return _steps(candidates[-1])
    if not whole:
        hedged = hedge(segment)
        if hedged:
            return Invalid(f"a hedged answer ({hedged})")
    lines = [ln for ln in nonempty_lines(segment) if ln[-1] != ":"]
    both = [ln for ln in lines if {"blue", "red"} <= set(re.findall(r"[a-z]+", fold(ln)))]
    raw: list[str] | None = None
    if both:
        routes = {tuple(_elements(_split(ln))) for ln in both}
        if len(routes) > 1 and whole:
            return Invalid(f"several different routes ({len(routes)})")
        raw = _split(both[-1])
        hedged = hedge(both[-1])
        if hedged:  # "From blue, maybe turn left onto X, then reach red."
            return Invalid(f"a hedged answer ({hedged})")
    elif not whole and lines:
        raw = _split("\n".join(lines))
    elif whole and (numbered := _numbered_steps(lines)) is not None:
        return _steps(numbered)
    elif whole and (told := _told_from_blue(lines)) is not None:
        return _steps(told)
    elif whole and len(lines) >= 2 and all(len(ln.split()) <= 8 for ln in lines):
        raw = lines
    if raw is None:
        return None
    result = _result(raw)
    offered = isinstance(result, Invalid) and result.reason.startswith("a hedged answer")
    return result if isinstance(result, Parsed) or not whole or offered else None


def _told_from_blue(lines: list[str]) -> list[str] | None:
    """The route of a one-sentence answer that starts with a turn and ends at the red
    marker without naming the blue one (``The vehicle should turn left onto X and drive
    west, then turn left onto Y until it reaches the red marker.``): the route starts at
    blue, as every route does; ``None`` unless every other step is an action or a road of
    a few capitalised words.

    Examples
    --------
    >>> _told_from_blue(["Turn left onto Kaivokatu until you reach the red marker."])
    ['blue', 'turn left', 'Kaivokatu', 'red']
    >>> _told_from_blue(["The red marker is east of Kaivokatu."])
    """
    if len(lines) != 1:
        return None
    steps = _elements(_split(lines[0]))
    roads = [s for s in steps if s not in ACTIONS and s not in (ORIGIN, DESTINATION)]
    if (len(steps) < 3 or steps[0] not in ACTIONS or steps[-1] != DESTINATION
            or ORIGIN in steps or steps.count(DESTINATION) != 1 or not roads
            or any(len(r.split()) > 5 or not r[:1].isupper() for r in roads)):
        return None
    return [ORIGIN, *steps]


# "1. Start at the blue marker and turn left onto X": the marker, then the step
_AFTER_MARKER = re.compile(r"(?:(?<=marker)|(?<=blue))\s+and\s+(?:then\s+)?", re.IGNORECASE)


def _numbered_steps(lines: list[str]) -> list[str] | None:
    """The route a run of numbered (or bulleted) sentences gives, one or two steps a
    line (``1. At the blue marker, turn left onto Lönnrotinkatu.``, ``2. Turn right onto
    Annankatu.``, ``3. Arrive at the red marker.``): read only when the last such run
    goes from ``blue`` to ``red`` with an action, every other step a road of a few words
    (so numbered reasoning is no route); ``None`` otherwise.

    Examples
    --------
    >>> _numbered_steps(["1. At the blue marker, turn left onto Kaivokatu.",
    ...                  "2. Arrive at the red marker."])
    ['blue', 'turn left', 'Kaivokatu', 'red']
    >>> _numbered_steps(["1. The blue marker is on Kaivokatu.", "2. The red one is east."])
    """
    runs: list[list[str]] = [[]]
    for line in lines:
        if _ENUM.match(line.strip()):
            runs[-1].append(line)
        elif runs[-1]:
            runs.append([])
    run = next((r for r in reversed(runs) if r), [])
    if len(run) < 2:
        return None
    raw = [part for line in run for piece in _AFTER_MARKER.split(line)
           for part in _split(piece)]
    steps = _elements(raw)
    roads = [s for s in steps if s not in ACTIONS and s not in (ORIGIN, DESTINATION)]
    if (len(steps) < 3 or steps[0] != ORIGIN or steps[-1] != DESTINATION
            or not any(s in ACTIONS for s in steps)
            or any(len(r.split()) > 5 or r[:1].islower() for r in roads)):
        return None
    return steps
