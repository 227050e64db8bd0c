"""Lists of names (STMF names) and pairs of road names (MML)."""

from __future__ import annotations

import re
from collections.abc import Collection

from cartoqa.parsing.feature_types import canonical_type
from cartoqa.parsing.map_names import offers_alternatives, split_joined
from cartoqa.parsing.names import normalise_name
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import cut_off, unchain
from cartoqa.parsing.structured import find_structured
from cartoqa.parsing.tables import answer_column, find_table
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    hedge,
    nonempty_lines,
    normalize_text,
)

#: A list item longer than this many words is taken for prose, not a name.
MAX_NAME_WORDS = 8

_BULLET = re.compile(r"^(?:[-*+]|\d{1,3}[.)]|[a-z][.)]|\(\d{1,3}\))\s+")
_LABEL = re.compile(r"^(?P<label>[^:\n]{1,40}):\s*(?P<rest>.*)$")
_NONE = re.compile(
    r"^(?:none|no names?|nothing|n/?a|no (?:named|visible)\b.*|there (?:are|is) no\b.*"
    r"|i (?:cannot|can't|could not|couldn't|do not|don't) (?:see|find)\b.*|\[\s*\]|-)\W*$",
    re.IGNORECASE,
)
# first-person or apologetic prose ("I'm sorry", "I cannot tell"), never a name
_PROSE = re.compile(
    r"\bI(?:'m|\s+(?:am|cannot|can't|can|could|couldn't|do|don't|see|think|would|will|have|"
    r"believe|need))\b|\b(?:sorry|unable|apologi[sz]e|as an ai)\b",
    re.IGNORECASE,
)
_AND = re.compile(r"\s+(?:and|&|/|(?-i:x)|\u00d7|meets|crosses|intersects(?:\s+with)?)\s+",
                  re.IGNORECASE)
# "The marker is on Mikonkatu, at its junction with Vilhonkatu": two names, not one
_JUNCTION_WITH = re.compile(
    r",?\s+(?:at|near|by|where|just\s+(?:at|by))\s+(?:its|the|a)\s+(?:junction|intersection|"
    r"crossing|corner|meeting\s+point)\s+with\s+", re.IGNORECASE)
# "on X, at the corner where Y joins it", "on X where Y meets it", "on X, where it meets Y":
# the second road said in a clause (a road named by capital; "where the esplanade ends"
# names none)
_WHERE_JOINS = re.compile(
    r"\s*,?\s+(?:(?:right|just|exactly)\s+)?(?:(?:at|near|by)\s+the\s+(?:corner|junction|"
    r"intersection|crossing|spot|point|place)\s+)?where\s+(?:(?P<y>(?-i:[A-Z\u00c0-\u00de])"
    r"[^,.;:]*?)\s+(?:joins|meets|crosses|intersects|runs\s+into|branches\s+off\s+from|"
    r"comes\s+in(?:to)?)\s+it|it\s+(?:joins|meets|crosses|intersects|runs\s+into)\s+"
    r"(?P<z>(?-i:[A-Z\u00c0-\u00de])[^,.;:]*?))\s*(?=[.!]?\s*$)", re.IGNORECASE)
_MARKER_ON = re.compile(
    r"^[ \t]*(?:the\s+)?(?:red\s+|blue\s+|marked\s+)?(?:marker|pin|point|location|symbol|dot)"
    r"\s+(?:is\s+)?(?:located\s+|placed\s+|sits\s+|lies\s+)?(?:on|at|along)\s+(?:the\s+)?",
    re.IGNORECASE | re.MULTILINE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)
# "The named restaurants are Jufu, ...", "Visible cafes include: A, B"
_SENTENCE_INTRO = re.compile(
    r"^(?:(?:so|thus|therefore|overall|in\s+total|in\s+summary)\s*,?\s+)?"
    r"(?:the|these|those|its|their|visible|named|labell?ed|legible)\b(?:"
    r"[^,;:]{0,70}?\s(?:are|include|includes|were)"
    # "The supermarket shown on the map is S-Market Hakaniemi.": one name, said singly
    r"|[^,;:]{0,70}?\s(?:is|was)(?=\s+(?-i:[A-Z\u00c0-\u00de]))"
    r"|[^,;:]{0,40}?\b(?:names?|named|roads?|streets?|labell?ed|called)\b[^,;:]{0,30}?\s"
    r"(?:is|reads?))\s*:?\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
_ROAD_LABEL = re.compile(r"^(?:road|street)[ _-]?\d+\s*[:=]\s*", re.IGNORECASE)
# a sentence, not a name: "The marker is on a road"
# ("The marker sits on X", fix24zq; not "Espan lava sits wholly inside X", a name's sentence)
_VERB = re.compile(r"\b(?:is|are|was|were|seems?|appears?|shows?|located|(?:sits|lies|stands)"
                   r"(?=\s+(?:on|along)\b))\b", re.IGNORECASE)


def _is_sentence(text: str) -> bool:
    """A clause with a verb and lower-case words ("The marker is on a road")."""
    words = text.split()
    lower = sum(1 for w in words if w[:1].islower())
    return len(words) >= 3 and lower >= 2 and bool(_VERB.search(text))


_OR = re.compile(r"\s(?:or|and/or)\s", re.IGNORECASE)
# "(the road running north-south)": a description after a name, not part of it
_DESCRIPTION = re.compile(r"\s*\((?=[a-z])[^()]*\)")
_FENCE_TAG = re.compile(r"^(?:json|python|text|plaintext|yaml|markdown|md)$", re.IGNORECASE)
#: JSON keys that hold the list (CartoMapQA's MML answer is {"road_1": .., "road_2": ..})
_LIST_KEYS = ("answer", "final_answer", "names", "roads", "road_names", "streets",
              "intersection", "result")
_ROAD_KEY = re.compile(r"^(?:road|street)[ _-]?\d+$", re.IGNORECASE)
_DASH_BETWEEN = re.compile(r"(?<=\w)[ \t]*[\u2013\u2014][ \t]*(?=\w)"
                           r"|(?<=[a-z\u00e0-\u00ff])/(?=[A-Z])"
                           r"|(?<=[\w.)])[ \t]+(?:[\u2013\u2014-]{1,2})[ \t]+(?=\w)")
_PROSE_INTRO = re.compile(
    r"^(?:.*?\b(?:intersection|junction|crossing|corner|meeting)\s+(?:of|between)"
    r"|.*?\bbetween|.*?\b(?:roads?|streets?|names?)\s+(?:are|is)"
    r"|.*?\bwhere(?=\s+\S+(?:\s+\S+){0,3}\s+(?:meets?|cross(?:es)?|intersects?)\b))"
    r"\s+(?P<rest>.+)$",
    re.IGNORECASE,
)


_NAME_HEAD = re.compile(r"\bnames?\b|\blabel|\btitle", re.IGNORECASE)
_ROAD_HEAD = re.compile(r"\bnames?\b|\broads?\b|\bstreets?\b", re.IGNORECASE)
# a cell that is no name: a number, a length, a count, yes/no, a dash
_NOT_NAME = re.compile(r"^[\W\d_]*(?:(?:m|km|ft|mi|metres?|meters?|%|yes|no|n/a|none|true|false)"
                       r"\W*)?$", re.IGNORECASE)


def _table(lines: list[str], *, roads: bool) -> list[str] | Invalid | None:
    """The names in a markdown table: the column that holds names (see
    :func:`cartoqa.parsing.tables.answer_column`): headed *name* (or *road*/*street*
    for roads, the feature type for names), else the one column of name-like cells;
    ambiguous columns are invalid.

    Examples
    --------
    >>> _table(["| # | Pharmacy | Distance |", "|---|---|---|", "| 1 | Alepa | 120 m |"],
    ...        roads=False)
    ['Alepa']
    """
    table = find_table([ln.strip() for ln in lines])
    if table is None:
        return None
    if roads:  # "| Road 1 | Road 2 |": one road per column
        named = [i for i, h in enumerate(table.header) if _ROAD_HEAD.search(h)]
        if len(named) > 1:
            return [c for row in table.rows for i in named if i < len(row) and (c := row[i])]

    def heads(h: str) -> bool:
        if roads:
            return bool(_ROAD_HEAD.search(h))
        return bool(_NAME_HEAD.search(h)) or canonical_type(h) is not None

    return answer_column(table, heads=heads, reads=lambda c: not _NOT_NAME.match(c),
                         what="names")


def _tidy(name: str) -> str:
    name = _DESCRIPTION.sub("", name).strip().strip("\"'").strip()
    name = _ROAD_LABEL.sub("", name)
    name = _LEADING_AND.sub("", name)
    name = re.sub(r"^(?:the\s+)?(?:roads?|streets?|names?)\s+(?:are|is)\s+", "", name, flags=re.I)
    name = name.rstrip(".;,!").strip().strip("\"'").strip()
    return name


# one quoted name: "A", “A”, 'A' (a single-quoted one holds no quote of its own)
_QUOTED = (r"(?:\"[^\"]+\"|\u201c[^\u201c\u201d]+\u201d|'[^']+'|\u2018[^\u2018\u2019]+\u2019)")
_QUOTED_LIST = re.compile(rf"^\s*{_QUOTED}(?:\s*(?:[,;]\s*(?:(?:and|&)\s+)?|\s(?:and|&)\s)\s*"
                          rf"{_QUOTED})+\s*[.!]?\s*$", re.IGNORECASE)


def quoted_items(line: str) -> list[str] | None:
    """The names of a line that is only quoted names separated by commas, ``;`` or ``and``
    (``"Rautatientori", "Rautatientori, laituri 13"``: a comma inside quotes is part of a
    name); ``None`` otherwise.

    Examples
    --------
    >>> quoted_items('"Rautatientori", "Rautatientori, laituri 13"')
    ['Rautatientori', 'Rautatientori, laituri 13']
    >>> quoted_items("'Stefan's Steakhouse', 'Cantina West'") is None
    True
    """
    if not _QUOTED_LIST.match(line):
        return None
    return [q[1:-1].strip() for q in re.findall(_QUOTED, line)]


# a double-quoted name holding a comma, and a comma outside double quotes
_QUOTED_COMMA = re.compile(r'"[^"]*,[^"]*"')
_COMMA_OUTSIDE_QUOTES = re.compile(r',(?=(?:[^"]*"[^"]*")*[^"]*$)')


def _split_line(line: str, *, split_and: bool,
                known: Collection[str] = frozenset()) -> list[str]:
    quoted = quoted_items(line)
    if quoted is not None:
        return quoted
    # "Rautatientori, laituri 13; Rautatientori": a line that separates by ";" keeps its
    # commas inside names
    parts = line.split(";") if ";" in line else line.split(",")
    if ";" not in line and _QUOTED_COMMA.search(line) and line.count('"') % 2 == 0:
        # 'Rautatientori, "Rautatientori, laituri 13"': a comma inside quotes is in a name
        whole = _COMMA_OUTSIDE_QUOTES.split(line)
        if all('"' not in q or re.fullmatch(r'\s*"[^"]+"\W*', q) for q in whole):
            parts = whole  # each quoted part a whole item, not '"A, B" and C'
    if split_and:
        return [q for p in parts for q in _AND.split(p)]
    # "A, B and C": without the map's names, only the last item of a comma list is
    # split on "and"; with them, any item whose parts are names the map writes
    # ("Hiisi & Lost In Helsinki"), and never a name the map writes ("Fish and Chips")
    return [q for i, p in enumerate(parts)
            for q in split_joined(p, known, default=len(parts) > 1 and i == len(parts) - 1)]


# "3 (Kuu, Hiisi)", "There are 3 supermarkets (Kuu, Hiisi; one has no name).": a count,
# then the names in its bracket
_COUNT_THEN_NAMES = re.compile(
    r"^(?:(?:there\s+(?:are|is)|i\s+(?:can\s+)?(?:see|count))\s+)?"
    r"(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?:\s+(?-i:[a-z])[\w'-]*){0,4}\s*\((?=(?-i:[\"'A-Z0-9\u00c0-\u00de]))(?P<names>[^()]+)\)\W*$",
    re.IGNORECASE)


def _bracket_after_count(line: str) -> str:
    """The names in the bracket of a line that gives a count, then the names in brackets
    (``There are 3 supermarkets (Kuu, Hiisi).``); else the line.

    Examples
    --------
    >>> _bracket_after_count("There are 3 supermarkets (Kuu, Hiisi)."), _bracket_after_count(
    ...     "3 (Kuu, Hiisi; one has no name)")
    ('Kuu, Hiisi', 'Kuu, Hiisi; one has no name')
    >>> _bracket_after_count("7-Eleven (Kamppi)"), _bracket_after_count("One Piece (Kamppi)")
    ('7-Eleven (Kamppi)', 'One Piece (Kamppi)')
    >>> _bracket_after_count("There is one (it has no name)")
    'There is one (it has no name)'
    """
    m = _COUNT_THEN_NAMES.match(line.strip())
    return line if m is None else m.group("names").strip()


# "Kuu and Hiisi both appear on the map", "A, B and C all border it": names joined by "and"
# before a plural verb (lower case), whose clause is no part of the last name
_PLURAL_VERB = re.compile(
    r"(?<=\S)\s+(?:(?:both|all|each|together)\s+)?(?-i:are|were|border|touch|adjoin|abut|"
    r"overlap|intersect|lie|sit|appear|show|fit|match|qualify|meet|cross|run|stand|fall|"
    r"belong|have|contain|share|flank|neighbou?r)\b(?P<rest>[^,;:]*)$", re.IGNORECASE)
_JOINED = re.compile(r"\s(?:and|&)\s", re.IGNORECASE)
# "Lidl and Alepa are both visible, and Kuu too.": one more name added after the clause
_ONE_MORE = re.compile(r",\s*(?:and\s+)?(?:(?P<also>also)\s+)?"
                       r"(?P<name>(?-i:[A-Z\u00c0-\u00de])[^,;:.]*?)"
                       r"(?(also)|\s+(?:too|as\s+well|also))\s*[.!]?$", re.IGNORECASE)
# "Lidl and Alepa are both visible, and the park too.": a thing, not a name (lower case),
# added after the clause is no name of the list
_ONE_THING = re.compile(r",\s*(?:and\s+)?(?:also\s+)?(?-i:[a-z])[^,;:.]*?"
                        r"\s+(?:too|as\s+well|also)\s*[.!]?$", re.IGNORECASE)


def names_before_plural_verb(line: str) -> str | None:
    """The names of a line that joins them by ``and`` before a plural verb (``Kuu and
    Hiisi both appear on the map.``: ``Kuu and Hiisi``); ``None`` when the line is no
    such clause or the verb's clause is negated (``are not supermarkets``).

    Examples
    --------
    >>> names_before_plural_verb("Hotel Lilla Robert and Pohjoinen Makasiinikatu both border it.")
    'Hotel Lilla Robert and Pohjoinen Makasiinikatu'
    >>> names_before_plural_verb("Kuu and Hiisi are not supermarkets.") is None
    True
    >>> names_before_plural_verb("Pohjoinen Makasiinikatu borders it.") is None
    True
    >>> names_before_plural_verb("Lidl and Alepa are both visible, and Kuu too.")
    'Lidl and Alepa, Kuu'
    >>> names_before_plural_verb("Lidl and Alepa are both visible, and the park too.")
    'Lidl and Alepa'
    """
    more = _ONE_MORE.search(line.strip())
    cut = more or _ONE_THING.search(line.strip())
    clause = line.strip()[:cut.start()] if cut else line.strip()
    m = _PLURAL_VERB.search(clause)
    if m is None or _NEGATED.search(m.group(0)):
        return None
    names = clause[:m.start()].strip()
    if not _JOINED.search(names) or not (names[:1].isupper() or names[:1].isdigit()) \
            or _is_sentence(names):  # "The marker is where A and B meet"
        return None
    return f"{names}, {more.group('name')}" if more else names


def _from_dict(data: dict[object, object]) -> list[str] | None:
    """Names from a JSON object: ``road_1``/``road_2`` keys or a list under a known key."""
    roads = [v for k, v in data.items() if _ROAD_KEY.match(str(k))]
    if roads and all(isinstance(v, str) for v in roads):
        return [n for n in (_tidy(str(v)) for v in roads) if n]
    lower = {str(k).lower(): v for k, v in data.items()}
    for key in _LIST_KEYS:
        value = lower.get(key)
        if isinstance(value, list) and all(isinstance(x, str) for x in value):
            return [n for n in (_tidy(x) for x in value) if n]
        if isinstance(value, dict):
            return _from_dict(value)
    return None


# "(The restaurants whose names are) written on the map are A, B": the subject's own clause
# went on past the verb a lead-in stopped at, up to the verb before the first name
_SUBJECT_GOES_ON = re.compile(r"^(?-i:[a-z])[^,;:\"]{0,80}?\s(?:are|were|include|includes)"
                              r"\s*:?\s+(?=(?-i:[A-Z0-9\"'\u00c0-\u00de\u201c]))",
                              re.IGNORECASE)


def _past_subject_clause(rest: str) -> str:
    """What a lead-in left of a sentence, less the rest of its subject's own clause
    (``written on the map are Stefan's Steakhouse, ...``: the names after the last verb).

    Examples
    --------
    >>> _past_subject_clause("written on the map are Stefan's Steakhouse, Cantina West")
    "Stefan's Steakhouse, Cantina West"
    >>> _past_subject_clause("too small to read."), _past_subject_clause("Kuu and Hiisi")
    ('too small to read.', 'Kuu and Hiisi')
    """
    m = _SUBJECT_GOES_ON.match(rest)
    return rest[m.end():] if m else rest


def _line_items(ln: str, *, alone: bool, split_and: bool,
                known: Collection[str] = frozenset()) -> list[str]:
    """The raw items of one line of prose or a plain list (``[]`` for prose): a label,
    an introducing clause, a note after the names and the clause of a plural verb after
    them are no items; a sentence's ``and`` joins its last two names."""
    m = _LABEL.match(ln)
    if m and len(m.group("label").split()) <= 10 and m.group("rest").strip():
        ln = m.group("rest")
    if not split_and:  # "First Kuu, then Hiisi, and finally Alepa." (not a road's "First")
        ln = unchain(ln)
    intro = _PROSE_INTRO.match(ln) if alone else None
    if intro:
        ln = intro.group("rest")
    ln = without_semicolon_note(_bracket_after_count(ln))
    sentence = _SENTENCE_INTRO.match(ln)
    joined = None if sentence else names_before_plural_verb(ln)
    if intro or sentence:
        ln = _past_subject_clause(sentence.group("rest") if sentence else ln)
    if sentence:
        words = ln.split()
        if len(words) >= 3 and all(w[:1].islower() for w in words):
            return []  # "The labels are too small to read."
    elif joined is not None:
        ln = joined
    if _PROSE.search(ln):
        return []
    parts = _split_line(ln, split_and=split_and, known=known)
    if (intro or sentence or joined) and len(parts) == 1:
        # "The pharmacies are A and B.": a sentence lists its names with "and"
        parts = split_joined(parts[0], known, default=True)
    elif joined:  # "A and B are visible, and C too.": the joined names, then one more
        parts = [q for part in parts for q in split_joined(part, known, default=True)]
    return parts


def _alone(line: str, body: list[str]) -> bool:
    """Whether a line is the one answer line of a body: its only line, or its one line that
    introduces names (``... the corner of A and B.``) beside sentences that name nothing
    (``It is near the harbour.``)."""
    if len(body) == 1:
        return True
    return bool(_PROSE_INTRO.match(line)) and all(
        ln is line or (_is_sentence(ln.strip(" .")) and not _PROSE_INTRO.match(ln)
                       and not any(w[:1].isupper() for w in ln.split()[1:]))
        for ln in body)


def _items(seg: str, *, split_and: bool,
           known: Collection[str] = frozenset()) -> list[str] | Invalid | None:
    """The list items of a response segment; ``[]`` for an explicit none, None if no list,
    ``Invalid`` for a table whose names column is ambiguous."""
    if "{" in seg:
        data = find_structured(seg, kind=dict)
        if isinstance(data, dict):
            from_dict = _from_dict(data)
            if from_dict is not None:
                return from_dict
    structured = find_structured(seg, kind=list)
    if isinstance(structured, list) and all(isinstance(x, str) for x in structured):
        return [n for n in (_tidy(x) for x in structured) if n]
    lines = [ln for ln in nonempty_lines(seg) if not _FENCE_TAG.match(ln)]
    if not lines:
        return None
    if len(lines) == 1 and _NONE.match(lines[0].strip("*_ .")):
        return []
    bulleted = [_BULLET.sub("", ln, count=1) for ln in lines if _BULLET.match(ln)]
    table = _table(lines, roads=split_and)
    if isinstance(table, Invalid):
        return table
    if table is not None or bulleted:
        # a name on its own line or in a cell is split only by the map's names
        raw = [q for item in (table if table is not None else bulleted)
               for q in ([item] if split_and else split_joined(item, known, default=False))]
    else:
        body = without_describing_lines([ln for ln in lines if not ln.endswith(":")])
        raw = [q for ln in body
               for q in _line_items(ln, alone=_alone(ln, body), split_and=split_and,
                                    known=known)]
    items = []
    for item in raw:
        m = _LABEL.match(item.strip())
        if m and len(m.group("label").split()) <= 5 and m.group("rest").strip():
            item = m.group("rest")
        tidy = _tidy(item)
        if (tidy and len(tidy.split()) <= MAX_NAME_WORDS and not _PROSE.search(tidy)
                and not _is_sentence(tidy)):
            items.append(tidy)
    if not items and any(_NONE.match(ln.strip("*_ .")) for ln in lines):
        return []
    return items or None


# a word of a line that is only names: a capitalised word, a number, a joiner
_NAME_WORD = re.compile(r"(?-i:[A-Z\u00c0-\u00de])[\w'.-]*|\d[\w-]*|and|x|&|/|\u00d7|"
                        r"[-\u2013\u2014]", re.IGNORECASE)
_WORD = re.compile(r"[^\s,;*_]+")


def _describes(line: str) -> bool:
    """Whether a line is a describing sentence: it ends as a sentence and most of its six
    words or more are lower-case (``The red marker is on the street along the harbour,
    right where the esplanade ends.``)."""
    plain = line.strip().strip("*_ ")
    words = [w for w in _WORD.findall(plain) if w[:1].isalpha()]
    lower = sum(1 for w in words if w[:1].islower())
    return plain[-1:] in ".!?" and len(words) >= 6 and 2 * lower > len(words)


def _only_names(line: str) -> bool:
    """Whether a line is only names (``**Eteläranta x Eteläesplanadi**``, ``Kuu, Hiisi``)."""
    words = _WORD.findall(_BULLET.sub("", line.strip(), count=1).strip("*_ .").rstrip("."))
    return bool(words) and all(_NAME_WORD.fullmatch(w.strip("*_.,;")) for w in words)


def without_describing_lines(lines: list[str]) -> list[str]:
    """The lines of a cue-less answer, less its describing sentences when another line is
    only names: a clause of such a sentence is no name.

    Examples
    --------
    >>> without_describing_lines(["The marker is on the street along the harbour, right "
    ...                           "where the esplanade ends.", "**Eteläranta x Kauppatori**"])
    ['**Eteläranta x Kauppatori**']
    >>> without_describing_lines(["The marker is near the harbour, where the road ends.",
    ...                           "It is busy."])[1]
    'It is busy.'
    """
    if len(lines) < 2 or not any(_only_names(ln) for ln in lines):
        return lines
    kept = [ln for ln in lines if not _describes(ln)]
    return kept if kept else lines


_BOLD = re.compile(r"\*\*(?P<a>[^*\n]{1,80}?)\*\*|__(?P<b>[^_\n]{1,80}?)__")
# a response that says it cannot read the names: bold there is no answer
_UNREADABLE = re.compile(r"\b(?:cannot|can't|could\s*n[o']t|unable|sorry|illegible|unreadable|"
                         r"blurry|too\s+small|not\s+(?:legible|readable|clear))\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;!?](?=\s|$)")
_NEGATED = re.compile(r"\b(?:no|not|none|never|without)\b|n't\b", re.IGNORECASE)


def bold_names(text: str, map_names: Collection[str] = frozenset()) -> list[str] | None:
    """The names a response without a cue marks in bold inside its sentences, or ``None``.

    ``Of the three features, only **Asema-aukio** touches Sokos; Forum and ... are
    separated from it.`` gives ``['Asema-aukio']``; ``The park is labelled **Paasivuoren
    puistikko**.`` gives the park. Only spans inside a line of prose (a heading line that
    is only the bold span is not a name), opening with a capital or digit, of at most
    :data:`MAX_NAME_WORDS` words; with the map's names, only names of the map. A response
    with a cue, a list, or a hedge is left to the other rules.

    Examples
    --------
    >>> bold_names("The park is labelled **Paasivuoren puistikko**.")
    ['Paasivuoren puistikko']
    >>> bold_names("**Restaurants**\\nHiisi") is None, bold_names("Answer: **Hiisi**") is None
    (True, True)
    >>> bold_names("I see **no** restaurants.") is None
    True
    """
    t = normalize_text(text) if isinstance(text, str) else ""
    if "*" not in t and "__" not in t:
        return None
    plain = clean(t)
    known = frozenset(map_names)
    if answer_segments(plain) or hedge(plain) or offers_alternatives(plain, known):
        return None
    lines = nonempty_lines(t)
    if any(_BULLET.match(ln.strip()) for ln in lines) or _UNREADABLE.search(plain):
        return None
    found: list[str] = []
    for line in lines:
        spans = list(_BOLD.finditer(line))
        if not spans or not _BOLD.sub("", line).strip(" .,:;!*_"):
            continue  # a heading, not a sentence
        for m in spans:
            raw = m.group("a") or m.group("b") or ""
            if raw.rstrip().endswith(":") or line[m.end():].lstrip().startswith(":"):
                continue  # "**Names:** Alepa": a label, not a name
            start = max((k.end() for k in _CLAUSE_END.finditer(line, 0, m.start())), default=0)
            stop = _CLAUSE_END.search(line, m.end())
            if _NEGATED.search(line[start:stop.start() if stop else len(line)]):
                continue  # "There are no restaurants, only the café **Kuu**."
            name = raw.strip(" .,:;\"'")
            if (not name or not (name[:1].isupper() or name[:1].isdigit()
                                 or normalise_name(name) in known)  # "**park or garden**"
                    or len(name.split()) > MAX_NAME_WORDS
                    or (known and normalise_name(name) not in known)):
                continue
            found.append(name)
    return found or None


def parse_names(text: str, *, map_names: Collection[str] = frozenset()) -> ParseResult:
    """Parse a list of names: one per line, bulleted, numbered, comma-separated or JSON.

    The text after the last ``Answer:`` cue is used when there is one. Header lines
    ending in ``:`` are dropped; ``Label: name`` keeps the name; ``A, B and C`` gives
    three names (``and`` splits only the last item of a comma list; a name on its own
    line or bullet is never split). ``None``, ``There are no ...`` or ``[]`` give an empty
    list. Items longer than :data:`MAX_NAME_WORDS` words, or in the first person or
    apologetic (``I'm sorry``, ``I cannot tell``), are prose and are skipped; a response
    with nothing else (a refusal) is invalid.

    With the names the map writes (``map_names``), an item joined by ``&`` or ``and`` is
    read as the names of the map it is made of (``Hiisi & Lost In Helsinki`` is two
    names when the map writes *Hiisi* or *Lost In Helsinki* and not the whole), and a
    name of the map is never split (``Fish and Chips``); see
    :func:`cartoqa.parsing.map_names.split_joined`.

    Parameters
    ----------
    text : str
        The raw response.
    map_names : collection of str, optional
        Normalised names the item's map writes
        (:func:`cartoqa.parsing.map_names.item_map_names`); empty when unknown.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"names": [...]})`` with names as written (duplicates kept).

    Examples
    --------
    >>> parse_names("The cafes are:\\n- Café Engel\\n- **Ekberg**").value
    {'names': ['Café Engel', 'Ekberg']}
    >>> parse_names("Answer: A, B and C").value
    {'names': ['A', 'B', 'C']}
    >>> parse_names("Answer: Suomen Pankki (Bank of Finland)", map_names={"suomen pankki"}).value
    {'names': ['Suomen Pankki']}
    """
    read = _parse_names(text, frozenset(map_names))
    if not isinstance(read, Parsed) or not map_names:
        return read
    names = [_unglossed(n, frozenset(map_names)) for n in read.value["names"]]
    return Parsed({"names": names}, read.notes)


def _unglossed(name: str, known: frozenset[str]) -> str:
    """A name less a bracket at its end (a gloss, ``Suomen Pankki (Bank of Finland)``)
    when the map writes the name without it and not with it (``Ravintola Ragu (Italian
    kitchen)`` is a map's name and keeps it)."""
    bare = _ROAD_ALIAS.sub("", name).strip()
    if bare and bare != name and normalise_name(name) not in known \
            and normalise_name(bare) in known:
        return bare
    return name


# inside a bracket of names, since fix24zp: "Kuu, Hiisi and one without a name" (no name),
# "one labelled Hakaniemi", "another called Lidl" (the name)
_WHICH_ONE = (r"(?:one|another|the\s+other(?:\s+one)?|the\s+(?:second|third|last)(?:\s+one)?|"
              r"a\s+(?:second|third))")
_UNNAMED_ITEM = re.compile(
    rf"(?:\s*[,;]\s*(?:and\s+)?|\s+and\s+|^\s*){_WHICH_ONE}(?:\s+(?:is|that\s+is|which\s+is))?"
    r"\s+(?:unnamed|unlabell?ed|without\s+(?:a\s+)?(?:name|label)|with\s+no\s+(?:name|label)|"
    r"(?:that\s+|which\s+)?(?:has|had|shows?|bears?)\s+no\s+(?:name|label)|"
    r"not\s+(?:named|labell?ed)|no\s+name)(?=\s*(?:[,;)]|$))", re.IGNORECASE)
_DESCRIBED_NAME = re.compile(
    rf"(?P<lead>^\s*|[,;]\s*(?:and\s+)?|\s+and\s+){_WHICH_ONE}\s+(?:is\s+)?"
    r"(?:labell?ed|called|named|marked|signed)\s+(?:as\s+)?"
    r"(?=[\"'\u201c\u2018]?(?-i:[A-Z0-9\u00c0-\u00de]))", re.IGNORECASE)
_BRACKET = re.compile(r"\((?P<inner>[^()\n]*)\)")


def described_names(inner: str) -> str:
    """The names inside a bracket of names less its descriptions (since fix24zp): an
    unnamed one is no name, ``one labelled X`` is ``X``; ``unnamed`` when only unnamed
    ones are said.

    Examples
    --------
    >>> described_names("Ravintola La Mer, Sen Chay and one without a name")
    'Ravintola La Mer, Sen Chay'
    >>> described_names("one labelled Hakaniemi, another called Kauppahalli")
    'Hakaniemi, Kauppahalli'
    >>> described_names("one unnamed"), described_names("a park")
    ('unnamed', 'a park')
    """
    named = _DESCRIBED_NAME.sub(lambda m: m.group("lead"), inner)
    bare = _UNNAMED_ITEM.sub("", named).strip()
    bare = re.sub(r"^(?:[,;]\s*|and\s+)+", "", bare, flags=re.IGNORECASE).strip()
    if not bare and named.strip():
        return "unnamed"  # "(one unnamed)", "(one without a name)": no name
    return bare if re.search(r"(?-i:[A-Z0-9\u00c0-\u00de])", bare) else inner


def _without_described_items(text: str) -> str:
    """Every bracket of ``text`` that names one at least through :func:`described_names`
    (a bracket of unnamed ones only is left to the sentence rules)."""
    def names(m: re.Match[str]) -> str:
        said = described_names(m.group("inner"))
        return m.group(0) if said == "unnamed" else "(" + said + ")"
    return _BRACKET.sub(names, text)


def _parse_names(text: str, known: frozenset[str]) -> ParseResult:
    t = _without_described_items(_clean_keeping_fences(text))
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_names_in(seg, known) for seg in answer_segments(t)], key=_names_key,
                 what="lists")
    if cued is not None:
        return cued
    bold = bold_names(text, known)
    if bold is not None:
        return Parsed({"names": bold})
    body = drop_notes(t)
    cut = cut_off(body.strip())
    if cut is not None:  # "... starting from the top left:\n\n1.": the list never began
        return Invalid(f"truncated output: ends mid-sentence ('{cut}')")
    excepted = _NAMED_EXCEPT.match(body.strip())
    if excepted is not None:  # "None of the stores have names except Alepa."
        return Parsed({"names": _excepted_names(excepted.group("names"), known)})
    if _says_no_names(body):
        # "I see the icon but there is no name label next to it, so there are no names"
        return Parsed({"names": []}, ("no names, said in a sentence",))
    if len(nonempty_lines(body)) == 1 and not hedge(body):
        one = one_named_answer(body.strip())
        if one is not None:  # "The only primary road is X, ...; Z is a park, not a road."
            return Parsed({"names": [one]})
    if len(nonempty_lines(body)) == 1:
        found = _names_in(body, known)
        if isinstance(found, Invalid):
            return found
    items = _items(body, split_and=False, known=known)
    if isinstance(items, Invalid):
        return items
    if items is not None:
        return Parsed({"names": items})
    return Invalid("no list of names found")


# "The only primary road, drawn in orange, is Lönnrotinkatu, which runs diagonally across
# the map; Vanha kirkkopuisto is a park, not a road.": one answer said in a sentence
_ONE_NAMED = re.compile(
    r"^(?:the|its)\s+(?:(?:only|one|single|sole)\s+(?P<kind>[^,;:.]{1,60}?)|[^,;:.]{1,60}?\s"
    r"(?:shown|visible|on\s+(?:the|this)\s+map|drawn|marked|labell?ed|named))"
    r"(?:\s*,\s*(?:drawn|shown|marked|coloured|colored|labell?ed|visible|in)\b[^,;:]{0,40},)?"
    r"\s+(?:is|was)\s+(?P<name>(?-i:[A-Z\u00c0-\u00de])[^,;:.()]{0,60}?)"
    r"(?:\s*,\s*(?:which|that|running|drawn|shown|marked)\b[^;]*)?"
    r"(?:\s*;\s*(?P<other>(?-i:[A-Z\u00c0-\u00de])[^;]*?\s(?:is|are)\s+(?:an?\s+|the\s+)?"
    r"[^;]*?,?\s+not\s+(?:an?\s+|the\s+)?[^;]*?))?\s*[.!]?$",
    re.IGNORECASE,
)


def one_named_answer(sentence: str) -> str | None:
    """The one name a cue-less sentence gives as the only one of its kind (``The only
    primary road, drawn in orange, is X, which runs ...``, ``The road shown is X``),
    beside at most a named non-answer (``; Z is a park, not a road``); ``None``
    otherwise (since fix24zp).

    Examples
    --------
    >>> one_named_answer("The only primary road, drawn in orange, is Lönnrotinkatu, which "
    ...                  "runs across the map; Vanha kirkkopuisto is a park, not a road.")
    'Lönnrotinkatu'
    >>> one_named_answer("The primary roads are Lönnrotinkatu and Annankatu.") is None
    True
    """
    m = _ONE_NAMED.match(sentence)
    if m is None or _JOINED.search(m.group("name")) or len(m.group("name").split()) > 5:
        return None
    return m.group("name").strip()


def _excepted_names(names: str, known: Collection[str]) -> list[str]:
    """The names after "except" (``Alepa and Kuu``: two unless the map writes the whole)."""
    parts = _split_line(names, split_and=False, known=known)
    if len(parts) == 1:
        parts = split_joined(parts[0], known, default=True)
    return [n for n in (_tidy(p) for p in parts) if n]


def _says_no_names(body: str) -> bool:
    """Whether a one-line answer of at most two sentences says the feature has no name,
    not of its names (a note after them, a count's bracket of names aside).

    Examples
    --------
    >>> _says_no_names("There is one cafe icon (it has no name)")
    True
    >>> _says_no_names("There are 3 cafes (Kuu, Hiisi; one has no name).")
    False
    """
    if len(nonempty_lines(body)) != 1 or hedge(body) or _EXCEPT.search(body):
        return False  # "... have names except the one in the north": one name, unsaid
    said = without_trailing_note(_bracket_after_count(body.strip()))
    return bool(_NO_NAME_SAID.search(said)) and len(re.split(r"(?<=[.!?])\s+",
                                                              body.strip())) <= 2


_EXCEPT = re.compile(r"\b(?:except|apart\s+from|other\s+than|save\s+for)\b", re.IGNORECASE)
# "None of the stores have names except Alepa.", "No store is labelled but Kuu and Hiisi.":
# the names after "except" are the answer
_NAMED_EXCEPT = re.compile(
    r"^\W*(?:none|not\s+one|no\s+(?-i:[a-z])[\w-]*(?:\s+(?-i:[a-z])[\w-]*)?)"
    r"(?:\s+of\s+[^,.;]{1,60}?)?\s+(?:(?:has|have|carries|carry|shows?|bears?)\s+(?:(?:a|an|any|"
    r"its|their)\s+)?(?:visible\s+|readable\s+|written\s+)?(?:names?|labels?)|(?:is|are)\s+"
    r"(?:named|labell?ed))\b[^,.;:]{0,40}?,?\s+(?:except(?:\s+for)?|but|other\s+than|"
    r"apart\s+from|save(?:\s+for)?)\s+(?P<names>(?-i:[A-Z0-9\u00c0-\u00de])[^.;:\n]*?)\s*[.!]?$",
    re.IGNORECASE)

# a short answer saying the feature carries no name: "there is no name label", "it has no
# visible name", "is unlabelled" (a verb first, so that a name such as "No Name Bar" is
# no such answer)
_NO_NAME_SAID = re.compile(
    r"\b(?:has|have|is|are|carries|carry|shows?|bears?|with)\s+no\s+(?:visible\s+|readable\s+|"
    r"written\s+)?(?:names?|name\s+labels?|labels?)\b|\bwithout\s+(?:an?\s+)?(?:visible\s+|"
    r"readable\s+)?(?:names?|labels?)\b|\b(?:is|are)\s+(?:unnamed|unlabell?ed|not\s+"
    r"(?:labell?ed|named))\b"
    # "None of the convenience stores have a name written on the map.", "No convenience
    # store has its name written.", "None of them are named."
    r"|^\W*(?:none|not\s+one|neither|no\s+(?-i:[a-z])[\w-]*(?:\s+(?-i:[a-z])[\w-]*)?)"
    r"(?:\s+of\s+[^,.;]{1,60}?)?\s+(?:(?:has|have|carries|carry|shows?|bears?)\s+(?:(?:a|an|any|"
    r"its|their)\s+)?(?:visible\s+|readable\s+|written\s+)?(?:names?|labels?)|(?:is|are)\s+"
    r"(?:named|labell?ed))\b", re.IGNORECASE)


# "..., Toca, Zucchini (one restaurant icon has no name)": a note in brackets after the names
_TRAILING_NOTE = re.compile(r"\s*\((?P<note>[a-z][^()]*)\)\W*$")


def without_trailing_note(text: str) -> str:
    """``text`` less a note at its end (lower case, three words or more, no hedge), in
    brackets or after a ``;`` (then with a verb: ``Kuu, Hiisi; one has no name``), that
    follows names rather than a sentence: what a note says ("has no name") is not said
    of the list.

    Examples
    --------
    >>> without_trailing_note("Goodwin, Toca, Zucchini (one restaurant icon has no name)")
    'Goodwin, Toca, Zucchini'
    >>> without_trailing_note("Kuu, Hiisi; one supermarket has no name.")
    'Kuu, Hiisi'
    >>> without_trailing_note("There is one cafe icon (it has no name)")
    'There is one cafe icon (it has no name)'
    >>> without_trailing_note("Kuu, Hiisi (not sure about the second)")
    'Kuu, Hiisi (not sure about the second)'
    >>> without_trailing_note("Kuu; mr. big"), without_trailing_note("There is one; it has no name")
    ('Kuu; mr. big', 'There is one; it has no name')
    """
    m = _TRAILING_NOTE.search(text)
    if m is None or len(m.group("note").split()) < 3 or hedge(m.group("note")):
        return without_semicolon_note(text)
    before = text[:m.start()]
    return text if not before.strip() or _is_sentence(before) else before


# "Kuu, Hiisi; one has no name": a clause after the names, set off by ";"
_SEMICOLON_NOTE = re.compile(r";\s*(?P<note>[a-z][^;()]*?)\W*$")
_NOTE_VERB = re.compile(r"\b(?:has|have|is|are|was|were|shows?|carr(?:y|ies)|lacks?|bears?|"
                        r"seems?|appears?|looks?)\b", re.IGNORECASE)


def without_semicolon_note(text: str) -> str:
    """``text`` less a note after a ``;`` at its end: a lower-case clause of three words
    or more with a verb and no hedge, after names rather than a sentence
    (``Kuu, Hiisi; one has no name``); else ``text``.

    Examples
    --------
    >>> without_semicolon_note("Bank bar, Goodwin; the other seven have no names")
    'Bank bar, Goodwin'
    >>> without_semicolon_note("Kuu, Hiisi; possibly one more has no name")
    'Kuu, Hiisi; possibly one more has no name'
    """
    m = _SEMICOLON_NOTE.search(text)
    if m is None:
        return text
    note = m.group("note")
    if len(note.split()) < 3 or not _NOTE_VERB.search(note) or hedge(note):
        return text
    before = text[:m.start()]
    if not before.strip() or (_is_sentence(before)
                              and not _SENTENCE_INTRO.match(before.strip())):
        return text  # "There is one cafe; it has no name.", not "The cafes are A, B; ..."
    return before.rstrip()


def _names_in(segment: str, known: Collection[str] = frozenset()) -> ParseResult | None:
    """The names of one answer segment; on one line, a hedge or ``A or B`` is invalid."""
    if len(nonempty_lines(segment)) == 1:
        hedged = hedge(segment)
        if hedged:
            return Invalid(f"a hedged answer ({hedged})")
        if offers_alternatives(segment, known):  # not the "or" of "park or garden"
            return Invalid(f"alternatives ({segment.strip()}), not one list")
    return _as_result(_items(segment, split_and=False, known=known), "names")


def parse_roads(text: str) -> ParseResult:
    """Parse the names of the roads at a junction (MML): a list as in :func:`parse_names`.

    Unlike names, every item is also split on ``and``, ``&``, `` / `` and `` x ``
    (``Kaivokatu x Mannerheimintie``), and prose such as ``the intersection of X and Y``
    or ``The marker is on X, at its junction with Y`` is reduced to the names.

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"roads": [...]})``; at least one name, else invalid.

    Examples
    --------
    >>> parse_roads("It is at the intersection of Mannerheimintie and Lönnrotinkatu.").value
    {'roads': ['Mannerheimintie', 'Lönnrotinkatu']}
    """
    t = _clean_keeping_fences(_DASH_BETWEEN.sub(" / ", text) if isinstance(text, str) else "")
    t = "\n".join(_MARKER_ON.sub("", _JUNCTION_WITH.sub(" and ", line))
                  if _JUNCTION_WITH.search(line) else line for line in t.split("\n"))
    t = "\n".join(_MARKER_ON.sub("", _WHERE_JOINS.sub(_second_road, line))
                  if _WHERE_JOINS.search(line) else line for line in t.split("\n"))
    t = "\n".join(without_place_after_one_road(without_trailing_place(line))
                  for line in t.split("\n"))
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_roads_in(seg) for seg in answer_segments(t)], key=_names_key,
                 what="road pairs")
    if cued is not None:
        return cued
    body = drop_notes(t)
    cut = cut_off(body.strip())
    if cut is not None:  # "... from north to south:\n\n1.": the list never began
        return Invalid(f"truncated output: ends mid-sentence ('{cut}')")
    if len(nonempty_lines(body)) == 1:
        found = _roads_in(body)
        return found if found is not None else Invalid("no road names found")
    items = _items(body, split_and=True)
    if isinstance(items, Invalid):
        return items
    offered = _offered(nonempty_lines(body)[-1], items)
    if offered is not None:
        return offered
    if items:
        return Parsed({"roads": [road_name(i) for i in items]})
    return Invalid("no road names found")


# ", at the north-west corner of the Esplanadi park", ", just south of Stockmann": a place
# said after the pair of roads
_TRAILING_PLACE = re.compile(
    r",\s*(?:(?:just|right|directly)\s+)?(?:at|near|next\s+to|by|beside|opposite|outside|"
    r"in\s+front\s+of|close\s+to|across\s+from|(?:north|south|east|west)(?:-?(?:east|west))?"
    r"\s+of|in|on|along)\s+[^,;]*$", re.IGNORECASE)
# what joins two roads: "A and B", "A x B", "A meets B", "the corner of A and B"
_PAIR_JOIN = re.compile(r"\s(?:and|&|(?-i:x)|/|meets?|cross(?:es)?|intersects?)\s",
                        re.IGNORECASE)
_PAIR_PLACE = re.compile(r"\b(?:junction|corner|intersection|crossing)\s+(?:of|with)\s+"
                         r"(?-i:[A-Z\u00c0-\u00de])", re.IGNORECASE)
# two names joined ("Stockmann and Kauppatori"), not a name and a thing ("Stockmann and
# the theatre", "the market square and the harbour")
_ROAD_PAIR = re.compile(r"(?-i:[A-Z\u00c0-\u00de])[\w'-]*\s(?:and|&|(?-i:x)|/|meets?|"
                        r"cross(?:es)?|intersects?)\s(?-i:[A-Z\u00c0-\u00de])", re.IGNORECASE)
_HERE = re.compile(r"\s+(?:here|there)(?=\s*[.!]?\s*$)", re.IGNORECASE)


def without_trailing_place(line: str) -> str:
    """A line that names two roads, less the clauses after them that name another place
    (``where Pohjoisesplanadi meets Mannerheimintie, at the north-west corner of the
    Esplanadi park.``) and a closing ``here``; a clause that itself joins two roads (``...,
    at the corner of A and B``) is kept, and so is a line that joins none.

    Examples
    --------
    >>> without_trailing_place("Where A meets B, at the north-west corner of the park.")
    'Where A meets B'
    >>> without_trailing_place("A crosses B here, near Stockmann.")
    'A crosses B'
    >>> without_trailing_place("It sits near the park, at the corner of A and B.")
    'It sits near the park, at the corner of A and B.'
    >>> without_trailing_place("A meets B, next to Stockmann and the theatre.")
    'A meets B'
    """
    while True:
        m = _TRAILING_PLACE.search(line)
        if m is None or not _PAIR_JOIN.search(line[:m.start()]) or _ROAD_PAIR.search(
                line[m.start():]) or _PAIR_PLACE.search(line[m.start():]):
            break
        line = line[:m.start()]
    return _HERE.sub("", line) if _PAIR_JOIN.search(line) else line


# "The marker is on Eteläranta, right where the esplanade ends.": one road, then a clause
# naming no other place by name (no capital: "near the market square and the harbour")
_ON_ONE_ROAD = re.compile(
    r"^(?P<head>\W*(?:the\s+)?(?:(?:red|blue)\s+)?(?:marker|pin|point|dot|location)\s+(?:is|lies|"
    r"sits|stands)\s+(?:(?:located|situated|right|just|directly)\s+)?(?:on|along)\s+"
    r"(?-i:[A-Z\u00c0-\u00de])[^,.;:]*?)"
    r"\s*,\s*(?:(?-i:[^A-Z\u00c0-\u00de,;:.]*)"
    # "..., near Stockmann.", "..., opposite the Kauppatori market": a landmark by a
    # place word (not a second road: "where it meets Kauppatori", "at the corner of ...")
    r"|(?:(?:just|right|directly)\s+)?(?:near|next\s+to|by|beside|opposite|outside|behind|"
    r"in\s+front\s+of|close\s+to|across\s+from|(?:north|south|east|west)(?:-?(?:east|west))?"
    r"\s+of)\s+(?![^,;:.]*\b(?:where|meets?|joins?|cross(?:es)?|corner|junction|"
    r"intersection)\b)[^,;:.]*)\s*[.!]?$", re.IGNORECASE)
# "The marker is on Eteläranta and the harbour.": a place noun phrase is no road (fix24zq)
_ON_ROAD_AND_THING = re.compile(
    r"^(?P<head>\W*(?:the\s+)?(?:(?:red|blue)\s+)?(?:marker|pin|point|dot|location)\s+(?:is|lies|"
    r"sits|stands)\s+(?:(?:located|situated|right|just|directly)\s+)?(?:on|along)\s+"
    r"(?-i:[A-Z\u00c0-\u00de])[^,.;:]*?)\s+and\s+(?:the|a|an)\s+(?-i:[a-z][a-z\s-]*?)\s*[.!]?$",
    re.IGNORECASE)
# "The marker is on Eteläranta and Kauppatori.": the names after the marker's place
_ON_NAMES = re.compile(
    r"^(?P<names>(?-i:[A-Z\u00c0-\u00de])[\w'.-]*(?:\s+(?-i:[A-Z\u00c0-\u00de])[\w'.-]*)*"
    r"(?:\s+(?:and|&)\s+(?-i:[A-Z\u00c0-\u00de])[\w'.-]*(?:\s+(?-i:[A-Z\u00c0-\u00de])"
    r"[\w'.-]*)*)+)\s*[.!]?\s*$")


def without_place_after_one_road(line: str) -> str:
    """A line that puts the marker on one road, less a clause after it naming no place by
    name (``The marker is on Eteläranta, right where the esplanade ends.``: ``The marker
    is on Eteläranta.``, read as the sentence alone is) or a landmark by a place word
    (``..., near Stockmann.``); a line that puts it on names joined by ``and`` (``The
    marker is on Eteläranta and Kauppatori.``), those names; any other line as it is.

    Examples
    --------
    >>> without_place_after_one_road("The marker is on Eteläranta, near the square and the pier.")
    'The marker is on Eteläranta.'
    >>> without_place_after_one_road("The marker is on Eteläranta, where it meets Kauppatori.")
    'The marker is on Eteläranta, where it meets Kauppatori.'
    >>> without_place_after_one_road("The marker is on Eteläranta, near Stockmann.")
    'The marker is on Eteläranta.'
    >>> without_place_after_one_road("The marker is on Eteläranta and Kauppatori.")
    'Eteläranta and Kauppatori.'
    >>> without_place_after_one_road("The marker is on Eteläranta and the harbour.")
    'The marker is on Eteläranta.'
    """
    m = _ON_ONE_ROAD.match(line.strip()) or _ON_ROAD_AND_THING.match(line.strip())
    if m:
        return f"{m.group('head')}."
    on = _MARKER_ON.match(line)
    named = _ON_NAMES.match(line[on.end():]) if on else None
    return named.group("names") if named else line


def _second_road(m: re.Match[str]) -> str:
    """`` and Y`` for a clause that names the second road (:data:`_WHERE_JOINS`)."""
    return f" and {m.group('y') or m.group('z')}"


def _offered(last: str, items: list[str] | None) -> Invalid | None:
    """A hedge or ``A or B`` on the last line of a cue-less answer over several lines, or
    ``or`` inside a road read from it (``...\n\nEteläranta or Kauppatori``)."""
    hedged = hedge(last) or ((_OR.search(last) or any(_OR.search(i) for i in items or []))
                             and "or")
    return Invalid(f"a hedged answer ({hedged})") if hedged else None


def _roads_in(segment: str) -> ParseResult | None:
    """The roads of one answer segment; a hedge (``A or B``, ``maybe``) is invalid."""
    hedged = hedge(segment) or (_OR.search(segment) and "or")
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    return _as_result(_items(segment, split_and=True) or None, "roads")


def _clean_keeping_fences(text: str) -> str:
    """:func:`clean`, but with code fences still marked, so a fence tag is not a name."""
    return clean(_FENCE_OPEN.sub("\n", normalize_text(text)))


_FENCE_OPEN = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*(?:\n|$)")


# "Eteläesplanadi (Södra esplanaden)", "Kasarmikatu (Kaserngatan)": a road's other-language
# name (or a gloss) in brackets after it; the roads of the street maps (OSM ``name``) carry
# none, so the bracket is no part of the road
_ROAD_ALIAS = re.compile(r"(?<=\S)\s*\((?P<alt>[^()]+)\)\s*$")


def road_name(road: str) -> str:
    """A road as written, less another name or a note in brackets at its end.

    Examples
    --------
    >>> road_name("Eteläesplanadi (Södra esplanaden)"), road_name("Kaivokatu (one-way)")
    ('Eteläesplanadi', 'Kaivokatu')
    >>> road_name("(Kaserngatan)")
    '(Kaserngatan)'
    """
    return _ROAD_ALIAS.sub("", road).strip() or road


def _as_result(items: list[str] | Invalid | None, key: str) -> ParseResult | None:
    if items is None or isinstance(items, Invalid):
        return items
    return Parsed({key: [road_name(i) for i in items] if key == "roads" else items})


def _names_key(parsed: Parsed) -> tuple[str, ...]:
    return tuple(sorted(normalise_name(n) for n in next(iter(parsed.value.values()))))
