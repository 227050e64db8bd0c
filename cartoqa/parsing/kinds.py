"""Readers of one answer segment by answer kind, shared by MapIQ, MapWise and FRIEDA.

Each reader takes one segment (what follows a cue, or a whole short response) and
returns ``Parsed``, ``Invalid`` (a hedge, alternatives) or ``None`` (no answer of its
kind there); :func:`cartoqa.parsing.rules.read_answer` applies the rules every suite
shares around it (the last real cue wins, corrections, sentences without a cue). The
kinds: yes/no (:func:`parse_yes_no_value`), options (:func:`read_options`), regions
and region lists (:func:`read_regions`), rank (:func:`read_rank`), ranges and class
values (:func:`read_numbers`). A new request of any suite inherits the rules by
declaring a parser built from these.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import alternatives, hedged, read_answer, unbracket
from cartoqa.parsing.tables import answer_column, find_table
from cartoqa.parsing.text import answer_segments, fold
from cartoqa.parsing.yesno import parse_yes_no
from groundtruth.thematic.region_names import RegionNames, region_names

#: The text of MapIQ's last option.
NOTA = "None of the above"

_DASHES = re.compile(r"\s*[-\u2010-\u2015\u2212]\s*")
_SPLIT = re.compile(r"\s*(?:,|;|\n|\band\b|&|\+)\s*", re.IGNORECASE)
_SPLIT_NO_AND = re.compile(r"\s*(?:,|;|\n)\s*")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)]|\(\d{1,2}\)|#\d{1,2}:?)\s+")
_CLASS = re.compile(r"\bclass\s*(?P<k>\d{1,2})\b", re.IGNORECASE)
_CLASS_PREFIX = re.compile(r"^\s*class\s*\d{1,2}\s*[:=(\-]\s*", re.IGNORECASE)
_NONE = re.compile(r"^\W*(?:none(?:\s+of\s+(?:the\s+)?(?:above|them|these|the\s+options))?|"
                   r"no\s+(?:states?|regions?|provinces?|zones?|options?)|nota|empty|"
                   r"nothing|\[\s*\])\W*$", re.IGNORECASE)
_OR_SPLIT = re.compile(r"\s+or\s+|\s*/\s*", re.IGNORECASE)
_OR_WORD = re.compile(r"\s+(?:or|and/or)\s+", re.IGNORECASE)
_LETTER_ALONE = re.compile(r"(?:(?:option|choice|letter)\s+)?[(\[]?([A-Ha-h])[)\].:]?",
                           re.IGNORECASE)
# "a. 590–705", "(c) DC", "b) West zone", "d - None of the above"
_LETTER_LABEL = re.compile(r"[(\[]?([A-Ha-h])(?:[)\].:]|\s+-)\s*(?P<label>\S.*)", re.DOTALL)
# "the area labelled B", "the one marked (b)"
_LETTER_CALLED = re.compile(r"(?:the\s+)?(?:[a-z]+\s+)?(?:labell?ed|marked|named|called)\s+"
                            r"[\"'(\[]?([A-Ha-h])[\"')\]]?", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?|(?<![\w.])-?\.\d+")


def option_key(text: str) -> str:
    """An option's text for matching: folded, dashes as ``-``, brackets and quotes gone.

    Examples
    --------
    >>> option_key(" [590 – 705]. "), option_key("None of the Above")
    ('590-705', 'none of the above')
    """
    t = fold(str(text)).strip()
    t = _DASHES.sub("-", t)
    t = re.sub(r"[\[\]\"'`*]", "", t)
    t = re.sub(r"\s+", " ", t)
    return t.strip(" .;:")


# ------------------------------------------------------------------------ yes / no
def parse_yes_no_value(text: str) -> ParseResult:
    """A yes/no or TRUE/FALSE answer as ``{"value": bool}`` (MapIQ, MapWise binary).

    The street tasks' reader (:func:`cartoqa.parsing.yesno.parse_yes_no`) with its
    hedges (``maybe TRUE``, ``Probably no``, ``[No], but I'm not sure``), on the text
    with brackets dropped.

    Examples
    --------
    >>> parse_yes_no_value("My answer is [TRUE]").value
    {'value': True}
    >>> parse_yes_no_value("It might be FALSE, but I'm not sure.").reason
    'a hedged answer (might be)'
    >>> parse_yes_no_value("My answer is [T]").value, parse_yes_no_value("[T] or [F]").valid
    ({'value': True}, False)
    """
    if not isinstance(text, str):
        return parse_yes_no(text)
    # "[T]" / "[F]": the format's brackets around TRUE/FALSE shortened to one letter
    t = re.sub(r"\[\s*([TtFf])\s*\]", lambda m: "TRUE" if m.group(1) in "Tt" else "FALSE",
               text)
    t = re.sub(r"\[\s*([A-Za-z]+)\s*\]", r"\1", t)
    parsed = parse_yes_no(t)
    if isinstance(parsed, Invalid):
        return parsed
    return Parsed({"value": bool(parsed.value["present"])}, parsed.notes)


# ------------------------------------------------------------------------ options
@dataclass
class Options:
    """An item's options, and what else may name one.

    Parameters
    ----------
    options : mapping of str to str
        Letter -> text (``{"a": "590–705", ..., "e": "None of the above"}``).
    labels : sequence of str
        The legend's class labels in order (``Class 2`` is the second), if any.
    names : RegionNames, optional
        Resolves region names and codes (an option ``DC`` is named by ``Washington, D.C.``).
    zones : sequence of str
        Zone names (an option ``West zone`` is named by ``West``).
    """

    options: Mapping[str, str]
    labels: Sequence[str] = ()
    names: RegionNames | None = None
    zones: Sequence[str] = ()
    _keys: dict[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._keys = {}
        for letter, text in self.options.items():
            self._keys.setdefault(option_key(text), letter)

    def _region(self, text: str) -> str | None:
        key = option_key(text)
        key = re.sub(r"\s+(?:zone|region)$", "", key)
        for z in self.zones:
            if key == z.lower():
                return z
        return self.names.resolve(text) if self.names is not None else None

    def letter(self, part: str) -> str | None:
        """The option one part names (by letter, text, class, code or name), or ``None``."""
        p = _unquote(_BULLET.sub("", part).strip().strip(".;:"))
        if not p:
            return None
        letters = {k.lower(): k for k in self.options}
        m = _LETTER_ALONE.fullmatch(p) or _LETTER_CALLED.fullmatch(p)
        if m and m.group(1).lower() in letters:
            return letters[m.group(1).lower()]
        m = _LETTER_LABEL.fullmatch(p)
        if m and m.group(1).lower() in letters:  # "a. 590–705": the label must be its text
            letter = letters[m.group(1).lower()]
            said, text = option_key(m.group("label")), option_key(self.options[letter])
            if said and text and (said.startswith(text) or text.startswith(said)):
                return letter
        key = option_key(p)
        if key in self._keys:
            return self._keys[key]
        bare = option_key(_CLASS_PREFIX.sub("", p))
        if bare != key and bare in self._keys:  # "Class 1: 120–266"
            return self._keys[bare]
        if _NONE.match(p):
            return next((k for k, v in self.options.items() if option_key(v) == option_key(NOTA)),
                        None)
        c = _CLASS.fullmatch(p.strip())
        if c and self.labels:
            k = int(c.group("k"))
            if 1 <= k <= len(self.labels):
                return self._keys.get(option_key(self.labels[k - 1]))
        region = self._region(p)
        if region is not None:
            hits = [k for k, v in self.options.items() if self._region(v) == region]
            if len(hits) == 1:
                return hits[0]
        return None


_LEADING_OPTION = re.compile(
    r"^\s*(?:the\s+)?(?P<x>[^,.;:\n]{1,40}?)\s+(?:is\s+(?:the\s+same|identical|exactly|"
    r"the\s+(?:correct|right|matching)\b|the\s+(?:match|answer)\b|correct|right\b|"
    r"the\s+one\b)|matches|covers\s+(?:exactly\s+)?the\s+same|corresponds\s+to|"
    r"has\s+the\s+same)", re.IGNORECASE)
_NEGATED_VERB = re.compile(r"\b(?:not|never|no\s+longer)\b|n't\b", re.IGNORECASE)
# an option named as the object: "The red outline of Kaisa-talo matches Area A."
_TRAILING_OPTION = re.compile(
    r"\b(?:matches|corresponds\s+to|is\s+(?:the\s+same\s+as|identical\s+to)|covers\s+"
    r"(?:exactly\s+)?the\s+same\s+ground\s+as)\s+(?:the\s+)?(?P<x>[^,.;:\n]{1,40}?)\s*[.!]?$",
    re.IGNORECASE)


# a description after an option: "(the one on the right)", "(left)", " - it has the notch",
# ", the L-shaped one" (lower-case: a description, not another option)
_OPTION_GLOSS = re.compile(r"\s*(?:\((?=[a-z0-9])[^()]*\)|\[(?=[a-z])[^\[\]]*\]"
                           r"|\s[\u2014\u2013-]\s+(?=[a-z]|it\b|It\b)[^\n]*"
                           r"|,\s+(?:the|which|that|as)\s+[a-z][^\n]*)\s*[.!]?\s*$")


# a comma or semicolon before another lettered option: "a. ND, b. NH", "A) 1–3; (C) 5–8"
_LABELLED_LIST = re.compile(r"\s*[,;]\s*(?:and\s+|&\s*)?(?=[(\[]?[A-Ha-h](?:[)\].:]|\s+-)\s)")


def read_options(segment: str, options: Options, *, strict: bool = False) -> ParseResult | None:
    """The letters one segment chooses: ``{"letters": [...]}`` (sorted, deduplicated).

    Options may be named by letter (``[a, c]``, ``(b)``, ``option d``), by their text
    (``[590–705]``, ``[SC, TN, AL]``, ``None of the above``, ``[Class 1: 120–266]``), by
    ``Class k`` (the k-th legend class) or by a code or name that identifies exactly one
    option. Options ruled out (``not a``) are not chosen; ``a or b`` is invalid.

    Parameters
    ----------
    segment : str
        One answer.
    options : Options
        The item's options.
    strict : bool
        Every part must name an option (for a response read whole, without a cue);
        otherwise parts that name none are left out with a note.

    Examples
    --------
    >>> o = Options({"a": "590–705", "b": "SC, TN, AL", "c": "None of the above"})
    >>> read_options("[SC, TN, AL]", o).value, read_options("[590-705]", o).value
    ({'letters': ['b']}, {'letters': ['a']})
    >>> read_options("a or b", o).reason
    "alternatives ('a' or 'b'), not one answer"
    """
    bad = hedged(segment)
    if bad is not None:
        return bad
    inner = unbracket(segment)
    inner = re.sub(r"(?:\bnot|n't|\brather\s+than|\bexcept)\s+(?:option\s+)?[(\[]?[A-Ha-h]"
                   r"[)\]]?(?![\w'])", "", inner)
    # "[a. ND, b. NH, d. SD]", "(a) ND; (b) NH": letters each followed by their option's text
    labelled = [p for p in _LABELLED_LIST.split(inner) if p.strip()]
    if len(labelled) > 1:
        each = [options.letter(p) for p in labelled]
        if all(each):
            return Parsed({"letters": sorted({x for x in each if x})})
    whole = options.letter(inner)
    if whole is None:  # "Area B (the one on the right)", "A - it has the same notch."
        bare = _OPTION_GLOSS.sub("", inner)
        whole = options.letter(bare) if bare != inner and bare.strip() else None
        if whole is not None:
            return Parsed({"letters": [whole]}, ("a description after the option left out",))
    else:
        return Parsed({"letters": [whole]})
    alt = alternatives(inner, lambda s: options.letter(s))
    if alt is not None:
        return alt
    # "[a, c, and d]": the serial "and" before the last part joins, it names nothing
    parts = [re.sub(r"^\s*(?:and|&)\s+", "", p, flags=re.IGNORECASE)
             for p in _SPLIT_NO_AND.split(inner) if p.strip()]
    if len(parts) > 1 and any(re.match(r"\s*or\s+(?P<x>.+)$", p, re.IGNORECASE)
                              and options.letter(re.sub(r"^\s*or\s+", "", p, flags=re.I))
                              for p in parts[1:]):  # "[a, c, or d]": a choice offered
        return Invalid(f"alternatives ({inner.strip()}), not one answer")
    chosen: list[str] = []
    unknown: list[str] = []
    i = 0
    while i < len(parts):
        for j in range(len(parts), i, -1):
            letter = options.letter(", ".join(parts[i:j]))
            if letter is not None:
                chosen.append(letter)
                i = j
                break
        else:
            sub = [s for s in re.split(r"\s+(?:and|&)\s+", parts[i]) if s.strip()]
            letters = [options.letter(s) for s in sub]
            if len(sub) > 1 and all(letters):
                chosen.extend(x for x in letters if x)
            else:
                unknown.append(parts[i].strip())
            i += 1
    if not chosen:
        # "Area A is the same as Hauki.": an option named as the subject of a sentence
        m = _LEADING_OPTION.match(inner)
        lead = options.letter(m.group("x")) if m else None
        if lead is None and not _NEGATED_VERB.search(inner):
            t = _TRAILING_OPTION.search(inner)
            lead = options.letter(t.group("x")) if t else None
        return Parsed({"letters": [lead]}) if lead is not None else None
    if strict and unknown:
        return None
    notes = (f"not an option, left out: {', '.join(unknown)}",) if unknown else ()
    return Parsed({"letters": sorted(set(chosen))}, notes)


def parse_options(text: str, options: Options) -> ParseResult:
    """Read a response choosing options by the shared rules (see :func:`read_options`).

    Examples
    --------
    >>> parse_options("I think... My answer is [a, c].", Options({"a": "x", "b": "y", "c": "z"})
    ...               ).value
    {'letters': ['a', 'c']}
    """
    found = read_answer(text, lambda s: read_options(s, options),
                        whole_read=lambda s: read_options(s, options, strict=True),
                        what="option sets", key=lambda p: p.value["letters"])
    if isinstance(found, Invalid) and found.reason == "no answer found":
        return _leading_option(text, options) or found
    return found


# a run of capitalised words ("New Mexico", "Tennessee"): what may name an option in prose
_PROPER = re.compile(r"[A-Z][\w.'’]*(?:\s+[A-Z][\w.'’]*){0,2}")


def _leading_option(text: str, options: Options) -> ParseResult | None:
    """The option a response names as its whole first sentence, when the sentences after
    it (a reason) name no option and hedge nothing, else ``None``.

    Examples
    --------
    >>> o = Options({"a": "WY", "b": "NE", "c": "None of the above"},
    ...             names=region_names("usa"))
    >>> _leading_option("None of the above. Tennessee is already in the top class.", o).value
    {'letters': ['c']}
    >>> _leading_option("None of the above. Wyoming is higher, though.", o) is None
    True
    >>> _leading_option("None of the above. Though I am not sure.", o) is None
    True
    """
    parts = re.split(r"(?<=[.!])\s+", text.strip(), maxsplit=1)
    if len(parts) < 2 or hedged(parts[1]) is not None or _names_an_option(parts[1], options):
        return None
    found = read_options(parts[0], options, strict=True)
    if not isinstance(found, Parsed):
        return None
    return Parsed(found.value, ("the option of the first sentence; the rest a reason",))


def _names_an_option(text: str, options: Options) -> bool:
    """Whether ``text`` names any option, by its text or by a name (runs of capitalised
    words and their parts).

    Examples
    --------
    >>> o = Options({"a": "WY", "b": "None of the above"}, names=region_names("usa"))
    >>> _names_an_option("Wyoming is higher.", o), _names_an_option("Ohio is higher.", o)
    (True, False)
    """
    folded = text.casefold()
    if any(len(v) > 2 and v.casefold() in folded for v in options.options.values()):
        return True
    for m in _PROPER.finditer(text):
        words = m.group().split()
        spans = (" ".join(words[i:j]).strip(".") for i in range(len(words))
                 for j in range(i + 1, len(words) + 1))
        if any(len(w) > 1 and options.letter(w) is not None for w in spans):
            return True
    return False


# ------------------------------------------------------------------------ regions
_DC_COMMA = re.compile(r"\bWashington\s*,\s*D\.?\s*C\.?", re.IGNORECASE)
_UNKNOWN_PREFIX = "unknown: "


def _region_parts(text: str) -> list[str]:
    text = _DC_COMMA.sub("Washington DC", text)
    return [p.strip() for p in _SPLIT_NO_AND.split(text) if p.strip()]


def _unquote(part: str) -> str:
    """``part`` less the quotes of a JSON or Python list item around it (``"a"``, ``'West'``).

    Examples
    --------
    >>> _unquote('"a"'), _unquote("'South'"), _unquote("O'Hare")
    ('a', 'South', "O'Hare")
    """
    m = re.fullmatch(r"([\"'\u201c\u2018])(?P<inner>[^\"]*)[\"'\u201d\u2019]", part.strip())
    return m.group("inner").strip() if m else part


def _resolve_region(part: str, names: RegionNames, zones: Sequence[str]) -> list[str] | None:
    """The region (or regions, ``A and B``) one part names, or ``None``."""
    p = _unquote(_BULLET.sub("", part).strip().strip(".:;*"))
    p = re.sub(r"^(?:and|&)\s+", "", p, flags=re.IGNORECASE)
    if not p:
        return None
    key = re.sub(r"\s+(?:zone|region)$", "", p.strip(), flags=re.IGNORECASE).lower()
    key = re.sub(r"^the\s+", "", key)  # "the South", "the Midwest region"
    for z in zones:
        if key == z.lower():
            return [z]
    code = names.resolve(p)
    if code is None:  # "Calif.": an abbreviation keeps its dot
        code = names.resolve(_BULLET.sub("", part).strip().strip(":;*"))
    if code is not None:
        return [code]
    # "Haryana and Jammu & Kashmir": "&" inside a region's name; cut at "and" first
    for join in (r"\s+and\s+", r"\s+(?:and|&)\s+"):
        sub = [s for s in re.split(join, p) if s.strip()]
        if len(sub) > 1:
            found = [_resolve_region(s, names, zones) for s in sub]
            if all(found):
                return [c for f in found if f for c in f]
    m = re.match(r"^(?P<name>[^:=(]+?)\s*[:=(]", p)  # "Texas: 412–530", "Kerala (dark)"
    if m:
        code = names.resolve(m.group("name"))
        if code is not None:
            return [code]
    words = p.split()
    for n in range(min(4, len(words) - 1), 0, -1):  # "Kansas has the highest value"
        head = " ".join(words[:n])
        if words[n][:1].islower() and (len(head) > 3 or head.isupper()):  # "In order" no IN
            code = names.resolve(head)
            if code is not None:
                return [code]
    return None


_REGION_HEAD = re.compile(r"\b(?:states?|regions?|provinces?|territor(?:y|ies)|names?|zones?|"
                          r"answer)\b", re.IGNORECASE)


def _table_regions(text: str, names: RegionNames, zones: Sequence[str]
                   ) -> list[str] | Invalid | None:
    """The region column of a markdown table in an answer (``| State | Value |``), in
    row order; ``Invalid`` when two columns could hold it; ``None`` without a table."""
    table = find_table([ln.strip() for ln in text.split("\n")])
    if table is None:
        return None
    return answer_column(table, heads=lambda h: bool(_REGION_HEAD.search(h)),
                         reads=lambda c: _resolve_region(c, names, zones) is not None,
                         what="regions")


def _untable(inner: str, names: RegionNames, zones: Sequence[str], joiner: str
             ) -> str | Invalid:
    """An answer with its markdown table replaced by the table's region column."""
    if "|" not in inner:
        return inner
    column = _table_regions(inner, names, zones)
    if isinstance(column, Invalid):
        return column
    return joiner.join(column) if column else inner


# "From lowest to highest: A, B", "In order: A, B", "(lowest to highest) [A, B]": words
# that introduce a list, before a colon or in brackets ahead of it
_LEAD_IN = re.compile(r"^\s*(?:(?P<label>[A-Za-z][^:\n\[\]{}\"]{0,59}?)\s*:"
                      r"|\((?P<paren>[^()\n]{1,40})\))\s*(?=\S)")


def drop_lead_in(segment: str, names: RegionNames, zones: Sequence[str] = ()) -> str:
    """A list's answer without the words that introduce it, when they name no region.

    ``From lowest to highest: Tianjin, Jiangsu`` is the list ``Tianjin, Jiangsu`` (its
    direction is read from the whole segment by the rank reader); ``Texas: 412–530``
    keeps its region.

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> usa = region_names("usa")
    >>> drop_lead_in("In order: Texas, Ohio", usa), drop_lead_in("(highest first) [TX, OH]", usa)
    ('Texas, Ohio', '[TX, OH]')
    >>> drop_lead_in("Texas: 412-530", usa), drop_lead_in("Ohio and Texas: both dark", usa)
    ('Texas: 412-530', 'Ohio and Texas: both dark')
    """
    for _ in range(2):  # "Ranking (lowest first): A, B"
        m = _LEAD_IN.match(segment)
        if m is None:
            break
        head = (m.group("label") or m.group("paren") or "").strip()
        if not head or _names_a_region(head, names, zones):
            break
        segment = segment[m.end():]
    return segment


def _names_a_region(head: str, names: RegionNames, zones: Sequence[str]) -> bool:
    """Whether words before a colon name a region (``Texas``, ``Ohio and TX``, ``Texas
    (TX)``); a short word counts only as an upper-case code (``In order`` is no
    Indiana)."""
    parts = [p.strip() for p in re.split(r"\s+(?:and|&)\s+|,|\(|\)", head) if p.strip()]
    for part in [head.strip(), *parts]:
        if len(part) <= 3 and not part.isupper():
            continue
        if part.lower() in (z.lower() for z in zones) or names.resolve(part) is not None:
            return True
    return False


def _first_region(part: str, names: RegionNames, zones: Sequence[str]) -> str | None:
    found = _resolve_region(part, names, zones)
    return found[0] if found else None


# "only"/"just" before the regions named: no part of the answer
_ONLY = re.compile(r"^\s*(?:only|just)\s+(?:the\s+)?", re.IGNORECASE)


def read_regions(segment: str, names: RegionNames, *, zones: Sequence[str] = (),
                 single: bool = False, strict: bool = False) -> ParseResult | None:
    """The regions one segment names: ``{"items": [...]}`` (or ``{"regions": [...]}``).

    Names, codes (the map's and ISO 3166-2), kinds (``Hubei Province``), exonyms and
    D.C. forms resolve through :class:`~groundtruth.thematic.region_names.RegionNames`.
    ``[]`` or ``none`` is the empty list. A part that names no region of the map is kept
    as ``"unknown: <text>"`` (a wrong item, with a note): it invalidates only itself.

    Parameters
    ----------
    segment : str
        One answer.
    names : RegionNames
        The map's regions.
    zones : sequence of str
        Zone names also accepted (MapIQ's Census zones).
    single : bool
        One region is asked: ``A or B`` is invalid and the value is ``{"regions": [...]}``.
    strict : bool
        Every part must name a region (for a response read whole, without a cue).

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> read_regions("[TX, Ohio, Atlantis]", region_names("usa")).value
    {'items': ['OH', 'TX', 'unknown: Atlantis']}
    >>> read_regions("[Hubei Province, Xizang (Tibet)]", region_names("china")).value
    {'items': ['HB', 'XZ']}
    >>> read_regions("Only Texas and Ohio.", region_names("usa")).value
    {'items': ['OH', 'TX']}
    """
    bad = hedged(segment)
    if bad is not None:
        return bad
    inner = _untable(unbracket(drop_lead_in(segment, names, zones)), names, zones, ", ")
    if isinstance(inner, Invalid):
        return inner
    inner = _ONLY.sub("", inner)  # "Only South.", "Just Texas and Ohio"
    key = "regions" if single else "items"
    if _NONE.match(inner) or not inner.strip():
        if single or (strict and not _NONE.match(inner)):
            return None
        return Parsed({key: []})
    if single:
        alt = alternatives(inner, lambda s: _first_region(s, names, zones))
        if alt is not None:
            return alt
    elif _OR_WORD.search(inner):  # "[TX, CA] or [TX, NY]", "TX, CA or NY": alternatives
        sides = [read_regions(p, names, zones=zones) for p in _OR_WORD.split(inner)]
        lists = [tuple(x.value["items"]) for x in sides if isinstance(x, Parsed)]
        if len(lists) >= 2 and len(set(lists)) > 1:
            return Invalid(f"alternatives ({inner.strip()}), not one list")
    found: list[str] = []
    unknown: list[str] = []
    parts_named = 0
    for part in _region_parts(inner):
        codes = _resolve_region(part, names, zones)
        if codes is None:
            unknown.append(part)
            continue
        parts_named += any(c not in found for c in codes)
        found.extend(c for c in codes if c not in found)
    if not found or (strict and unknown):
        return None
    if single and parts_named > 1:
        # "My answer is [Mississippi, Alabama]" where one region is asked: a hedge
        return Invalid(f"several regions ({', '.join(found)}) where one is asked")
    notes = (f"not a region of this map: {', '.join(unknown)}",) if unknown else ()
    if single:
        return Parsed({key: found}, notes)
    items = sorted(found) + [_UNKNOWN_PREFIX + u for u in unknown]
    return Parsed({key: items}, notes)


def parse_regions(text: str, names: RegionNames, *, zones: Sequence[str] = (),
                  single: bool = False) -> ParseResult:
    """Read a region or region-list answer by the shared rules (see :func:`read_regions`).

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> parse_regions("Looking at the darkest shade, it is Uttar Pradesh.",
    ...               region_names("india"), single=True).value
    {'regions': ['UP']}
    """
    key = "regions" if single else "items"
    if not single:
        text = bullets_as_answer(text)
    return read_answer(
        text, lambda s: read_regions(s, names, zones=zones, single=single),
        whole_read=lambda s: read_regions(s, names, zones=zones, single=single, strict=True),
        what="region lists", key=lambda p: sorted(p.value[key]))


_BULLET_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+(?P<item>\S.*?)\s*$")


def bullets_as_answer(text: str) -> str:
    """A response that is an introducing line (ending in ``:``) and a bullet list, with no
    answer cue, restated as ``Answer: [all, bullets]`` (else the text unchanged).

    Examples
    --------
    >>> bullets_as_answer("The states are:\\n- Colorado (CO)\\n- Montana (MT)")
    'Answer: [Colorado (CO), Montana (MT)]'
    >>> bullets_as_answer("- Colorado\\nMy answer is [MT]")
    '- Colorado\\nMy answer is [MT]'
    """
    if not isinstance(text, str):
        return text
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if len(lines) < 3 or not lines[0].rstrip().endswith(":") or answer_segments(text):
        return text
    items = [_BULLET_LINE.match(ln) for ln in lines[1:]]
    if not all(items):
        return text
    return "Answer: [" + ", ".join(m.group("item") for m in items if m) + "]"


# ------------------------------------------------------------------------ rank
_ASCENDING = re.compile(r"\b(?:lowest|smallest|least)\s+(?:value\s+)?(?:to|first)\b|\bascending\b",
                        re.IGNORECASE)


# a ranking told by its ends: "Highest: A, then B, lowest: C"
_RANK_START = re.compile(r"^\s*(?:the\s+)?(?P<end>highest|lowest|top|bottom|largest|smallest|"
                         r"most|least)\b(?:\s+(?:value|values|one|rate|share))?\s*(?:is\s+|:\s*|-\s+)",
                         re.IGNORECASE)
_RANK_LABEL = re.compile(r"\s*[,;]?\s*(?:and\s+)?(?:the\s+)?(?:highest|lowest|top|bottom|largest|"
                         r"smallest|most|least|next|second|third|fourth|fifth|middle)\b"
                         r"(?:\s+(?:highest|lowest|value|values|one))?\s*(?:is\s+|:\s*|-\s+)",
                         re.IGNORECASE)


def read_rank(segment: str, names: RegionNames, *, ascending: bool = False
              ) -> ParseResult | None:
    """An order of regions, highest first: ``{"ranks": {code: rank}}`` (competition ranks).

    ``A, B = C, D``, ``A > B > C``, ``A < B < C`` (lowest first, reversed), numbered
    lists, one region per line. A name of no region of the map is left out with a note.

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> read_rank("[MH, UP = TN, GA]", region_names("india")).value
    {'ranks': {'MH': 1, 'UP': 2, 'TN': 2, 'GA': 4}}
    >>> read_rank("Goa < Bihar < Maharashtra", region_names("india")).value
    {'ranks': {'MH': 1, 'BR': 2, 'GA': 3}}
    """
    bad = hedged(segment)
    if bad is not None:
        return bad
    chained = ">" in segment  # a chain the writer drew, not one read from "then"
    labelled = _RANK_START.match(segment)
    if labelled:  # "Highest: A, then B, lowest: C" / "Lowest: C, next B, highest: A"
        ascending = labelled.group("end").lower() in ("lowest", "bottom", "smallest", "least")
        segment = _RANK_LABEL.sub(" > ", segment[labelled.end():])
    untabled = _untable(unbracket(drop_lead_in(segment, names)), names, (), "\n")
    if isinstance(untabled, Invalid):
        return untabled
    inner = untabled
    if _OR_WORD.search(inner):  # "[A > B] or [B > A]": two rankings offered
        sides = [read_rank(p, names, ascending=ascending) for p in _OR_WORD.split(inner)]
        orders = [tuple(x.value["ranks"].items()) for x in sides if isinstance(x, Parsed)]
        if len(orders) >= 2 and len(set(orders)) > 1:
            return Invalid(f"alternatives ({inner.strip()}), not one ranking")
    inner = re.sub(r"\s*(?:->|=>)\s*", " > ", inner)
    inner = re.sub(r"\s*[,;]?\s*\b(?:followed\s+by|and\s+then|then|and\s+finally|finally)\s+",
                   " > ", inner, flags=re.IGNORECASE)
    if "<" in inner and ">" not in inner:
        groups = [g for g in inner.split("<") if g.strip()][::-1]
    elif ">" in inner:
        groups = _chain_parts([g for g in inner.split(">") if g.strip()], names)
        # "Lowest: C, then B, highest: A"; "From lowest to highest, C comes first, then B"
        if ascending and (labelled or not chained):
            groups = groups[::-1]
    else:
        groups = _last_and_split([g for g in re.split(r",|;|\n",
                                                  _DC_COMMA.sub("Washington DC", inner))
                                  if g.strip()], names)
        if ascending:
            groups = groups[::-1]
    offered = [g.strip() for g in groups if _OR_WORD.search(g)]
    if offered:  # "Highest: Texas or Ohio, lowest: Maine": a place offered two ways
        return Invalid(f"alternatives ({offered[0]}), not one ranking")
    ranks: dict[str, int] = {}
    unknown: list[str] = []
    position = 1
    for group in groups:
        members: list[str] = []
        for m in [x for x in re.split(r"=|\s+(?:tied\s+with|equals?)\s+", group) if x.strip()]:
            codes = _member_codes(m, names)
            if codes is None:
                if not _BARE_ORDER_WORD.match(m):  # "First, Ohio; second, Iowa"
                    unknown.append(m.strip())
                continue
            members.extend(codes)
        members = [m for m in members if m not in ranks]
        for m in members:
            ranks[m] = position
        position += len(members)
    if len(ranks) < 2:
        return None
    notes = (f"not a region of this map, left out: {', '.join(unknown)}",) if unknown else ()
    return Parsed({"ranks": ranks}, notes)


def _member_codes(member: str, names: RegionNames) -> list[str] | None:
    """The regions of one ranked place: named, after a lead-in or after its order word."""
    return (_resolve_region(member, names, ()) or _after_lead_in(member, names)
            or _after_order_word(member, names))


def _chain_parts(groups: list[str], names: RegionNames) -> list[str]:
    """The places of a chain, with a link that holds several places each after its
    order word or comma (``First comes Ohio, next is Iowa`` before ``then New Mexico``)
    split into them, when every part reads as a place.

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> _chain_parts(["First comes Ohio, next is Iowa", "New Mexico."], region_names("usa"))
    ['First comes Ohio', 'next is Iowa', 'New Mexico.']
    >>> _chain_parts(["From lowest to highest, first comes Utah, next is Iowa", " Ohio"],
    ...              region_names("usa"))
    ['From lowest to highest, first comes Utah', 'next is Iowa', ' Ohio']
    """
    out: list[str] = []
    for group in groups:
        parts = [p.strip() for p in re.split(r"[,;]", group) if p.strip()]
        if len(parts) > 2 and _member_codes(parts[0], names) is None:
            parts = [f"{parts[0]}, {parts[1]}", *parts[2:]]  # a lead-in stays with its place
        if len(parts) > 1 and names.resolve(group.strip(" .")) is None and all(
                _member_codes(p, names) for p in parts):
            out.extend(parts)
        else:
            out.append(group)
    return out


def _after_lead_in(member: str, names: RegionNames) -> list[str] | None:
    """The region of a ranked place written after a lead-in clause that names none
    (``From highest to lowest, Ohio comes first``: Ohio; ``..., first comes Ohio``),
    else ``None``.

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> _after_lead_in("From highest to lowest, Ohio comes first", region_names("usa"))
    ['OH']
    >>> _after_lead_in("From lowest to highest, first comes Ohio", region_names("usa"))
    ['OH']
    >>> _after_lead_in("Ohio, Iowa", region_names("usa")) is None
    True
    """
    *lead, last = member.split(",")
    if not lead or any(_resolve_region(p, names, ()) for p in lead if p.strip()):
        return None
    return _resolve_region(last, names, ()) or _after_order_word(last, names)


_ORDER_WORDS = (r"(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|fourth|fifth|next|last(?:ly)?|"
                r"finally|after\s+that|afterwards)")
# "First comes Ohio", "next is Iowa", "and last New Mexico": a place after its order word
_ORDER_WORD = re.compile(r"^\s*(?:and\s+)?" + _ORDER_WORDS + r"\s*,?\s+"
                         r"(?:(?:comes?|is|are|we\s+have|there\s+is)\s+)?", re.IGNORECASE)
_BARE_ORDER_WORD = re.compile(r"^\s*(?:and\s+)?" + _ORDER_WORDS + r"\W*$", re.IGNORECASE)


def _after_order_word(member: str, names: RegionNames) -> list[str] | None:
    """The region of a place said after its order word (``First comes Ohio``), else
    ``None``.

    Examples
    --------
    >>> from groundtruth.thematic.region_names import region_names
    >>> _after_order_word("First comes Ohio", region_names("usa"))
    ['OH']
    >>> _after_order_word("First comes a tie", region_names("usa")) is None
    True
    """
    m = _ORDER_WORD.match(member)
    return _resolve_region(member[m.end():], names, ()) if m else None


def _last_and_split(groups: list[str], names: RegionNames) -> list[str]:
    """A comma list's last place ``B and C`` (``Ohio, Iowa and New Mexico``) as two
    places, when it is no one region's name (``Daman and Diu`` stays one)."""
    if len(groups) < 2:
        return groups
    *head, last = groups
    parts = re.split(r"\s+and\s+", last.strip().rstrip("."), flags=re.IGNORECASE)
    if len(parts) != 2 or names.resolve(last.strip().rstrip(".")) is not None:
        return groups
    if not all(_resolve_region(p, names, ()) for p in parts):
        return groups
    return [*head, *parts]


# "From lowest to highest: A, B, C.": the direction words carry their own list on their line
_OWN_LIST = re.compile(r"\b(?:lowest|smallest|least)\s+(?:value\s+)?to\s+\w+\s*:\s*[^,\n]+,",
                       re.IGNORECASE)


def parse_rank_order(text: str, names: RegionNames) -> ParseResult:
    """Read a ranking by the shared rules (see :func:`read_rank`); "lowest to highest"
    in the response reverses a plain list, unless it only describes a ``<``/``>`` chain on
    its own line (``From lowest to highest: C < B < A`` then ``My answer is [A, B, C]``:
    the chain carries its own direction, the list is highest first) or a list on its own
    line (``From lowest to highest: C, B, A.`` then a cued ``[A, B, C]``: the cued list
    keeps the asked order; read alone, that line is reversed)."""
    described = "\n".join(line for line in (text or "").splitlines()
                          if not re.search(r"\S\s*[<>]\s*\S", line)
                          and not _OWN_LIST.search(line))
    ascending = bool(_ASCENDING.search(described))
    found = read_answer(text, lambda s: read_rank(
        s, names, ascending=ascending or bool(_ASCENDING.search(s))),
                        what="rankings", key=lambda p: p.value["ranks"])
    if isinstance(found, Invalid) and found.reason == "no answer found":
        return Invalid("fewer than two regions ranked")
    return found


# ------------------------------------------------------------------------ numbers
def _numbers_of(text: str) -> list[float]:
    # the dash after a number (or its unit: "17.9%-20.3%", "1.5k - 2k") joins a range:
    # it is never the minus sign of the next number
    t = re.sub(r"(\d(?:\s?(?:%|[A-Za-z]{1,5}))?)\s*[-\u2010-\u2015\u2212]\s*", r"\1 | ", text)
    t = re.sub(r"\s+to\s+", " | ", t, flags=re.IGNORECASE)
    return [float(n.replace(",", "")) for n in _NUMBER.findall(t)]


def read_numbers(segment: str, *, labels: Sequence[str] = (), by_class: bool = False,
                 parse_range: Callable[[str], Any] | None = None) -> ParseResult | None:
    """The numbers of a class or range: ``{"numbers": [...]}``.

    ``99.9–163``, ``[Class 1: 120–266]`` (the range), ``Class 2`` (the second legend
    class, or the number 2 when classes are named by number: ``by_class``), ``Class 1 to
    Class 3``, ``120–266 to 590–705`` (the first lower and last upper bound). ``A or B``
    is invalid.

    Examples
    --------
    >>> read_numbers("[Class 2]", labels=["120–266", "284–389"]).value
    {'numbers': [284.0, 389.0]}
    >>> read_numbers("[Class 2]", by_class=True).value
    {'numbers': [2.0]}
    >>> read_numbers("120–266 to 590–705").value
    {'numbers': [120.0, 705.0]}
    """
    bad = hedged(segment)
    if bad is not None:
        return bad
    inner = unbracket(segment).strip().rstrip(".")
    parts = [p for p in re.split(r"\s+or\s+", inner, flags=re.IGNORECASE) if p.strip()]
    if len(parts) > 1:
        readings = [read_numbers(p, labels=labels, by_class=by_class) for p in parts]
        values = [r.value["numbers"] for r in readings if isinstance(r, Parsed)]
        if len(values) >= 2 and any(v != values[0] for v in values[1:]):
            return Invalid(f"alternatives ({inner}), not one answer")
    classes = [int(m.group("k")) for m in _CLASS.finditer(inner)]
    rest = _CLASS.sub(" ", inner)
    rest_numbers = _numbers_of(rest)
    if classes and not rest_numbers:
        if by_class or not labels:
            nums = [float(k) for k in classes]
        else:
            if any(not 1 <= k <= len(labels) for k in classes):
                return Invalid("no such class in the legend")
            spans = [_numbers_of(labels[k - 1]) for k in classes]
            nums = [spans[0][0], spans[-1][-1]] if len(classes) > 1 else spans[0]
        return Parsed({"numbers": nums[:2]})
    nums = _numbers_of(_CLASS_PREFIX.sub("", inner) if classes else inner)
    if not nums:
        return None
    if len(nums) == 4:  # "120–266 to 590–705": from the lowest class to the highest
        nums = [nums[0], nums[3]]
    if len(nums) > 2:
        return Invalid("expected one class or one range")
    return Parsed({"numbers": nums})


def parse_class_numbers(text: str, *, labels: Sequence[str] = (), by_class: bool = False
                        ) -> ParseResult:
    """Read a class or range answer by the shared rules (see :func:`read_numbers`).

    Examples
    --------
    >>> parse_class_numbers("The state falls in the 99.9–163 range. My answer is 99.9–163.").value
    {'numbers': [99.9, 163.0]}
    """
    return read_answer(text, lambda s: read_numbers(s, labels=labels, by_class=by_class),
                       what="values", key=lambda p: p.value["numbers"])


# ------------------------------------------------------------------------ item context
def item_country(item: Mapping[str, Any]) -> str:
    """The country of a thematic item (``usa`` when it names none)."""
    return str((item.get("provenance") or {}).get("country")
               or (item.get("strata") or {}).get("country") or "usa")


def item_names(item: Mapping[str, Any]) -> RegionNames:
    """The :class:`RegionNames` of an item's map: on a MapWise name counterfactual
    (``provenance.region_labels``) the names and codes the map shows, and no real one.

    Examples
    --------
    >>> item = {"provenance": {"country": "usa", "region_labels": {
    ...     "MS": {"code": "WI", "name": "Wisconsin"},
    ...     "WI": {"code": "MS", "name": "Mississippi"}}}}
    >>> item_names(item).resolve("Wisconsin"), item_names(item).resolve("Texas")
    ('WI', None)
    """
    labels = (item.get("provenance") or {}).get("region_labels")
    if isinstance(labels, Mapping) and labels:
        return _shown_names(tuple(sorted(
            (str(v["code"]), str(v["name"]), tuple(str(a) for a in v.get("aliases") or ()))
            for v in labels.values() if isinstance(v, Mapping))))
    return region_names(item_country(item))


@lru_cache(maxsize=64)
def _shown_names(shown: tuple[tuple[str, str, tuple[str, ...]], ...]) -> RegionNames:
    """Names of a relabelled map, keyed by the codes it shows; resolved without a
    country's ISO codes (those name the real regions)."""
    return RegionNames("", {code: _Shown(code, name, aliases) for code, name, aliases in shown})


@dataclass(frozen=True)
class _Shown:
    """A region as a relabelled map shows it."""

    code: str
    name: str
    aliases: tuple[str, ...] = ()


def item_labels(item: Mapping[str, Any]) -> list[str]:
    """The legend's class labels an item records (MapIQ), else ``[]``."""
    classification = (item.get("provenance") or {}).get("classification") or {}
    labels = classification.get("labels") if isinstance(classification, Mapping) else None
    return [str(x) for x in labels] if isinstance(labels, list) else []
