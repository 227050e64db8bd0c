"""Numbers in free text: digits with separators, number words, and lengths with units."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from cartoqa.parsing.feature_types import canonical_type, type_key
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import cut_off
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    hedge,
    json_answer,
    nonempty_lines,
    normalize_text,
)

#: Metres per unit, for every unit spelling the length parser accepts.
METRES_PER_UNIT: dict[str, float] = {
    "m": 1.0,
    "km": 1000.0,
    "cm": 0.01,
    "ft": 0.3048,
    "yd": 0.9144,
    "mi": 1609.344,
}

_UNIT_SPELLINGS: dict[str, str] = {
    "km": "km",
    "kms": "km",
    "kilometer": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometres": "km",
    "m": "m",
    "meter": "m",
    "meters": "m",
    "metre": "m",
    "metres": "m",
    "cm": "cm",
    "centimeter": "cm",
    "centimeters": "cm",
    "centimetre": "cm",
    "centimetres": "cm",
    "ft": "ft",
    "feet": "ft",
    "foot": "ft",
    "yd": "yd",
    "yds": "yd",
    "yard": "yd",
    "yards": "yd",
    "mi": "mi",
    "mile": "mi",
    "miles": "mi",
}

_DIGITS = (
    r"(?<![\w.,])(?<!\d )(?:"
    r"[1-9]\d{0,2}(?: \d{3})+(?:\.\d+)?(?![\d,]| \d)"  # 1 234 (space as thousands separator)
    r"|\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])"  # 1,234 or 1,234.5
    r"|\d+\.\d+"  # 12.5
    r"|\d+,\d{1,2}(?![\d,])"  # decimal comma: 1,5
    r"|\.\d+"  # .5
    r"|\d+"  # 12
    r")"
)
_NUMBER = re.compile(_DIGITS)
_UNIT = re.compile(
    r"\s*(?P<unit>kilomet(?:er|re)s?|kms?|centimet(?:er|re)s?|cm|met(?:er|re)s?|m|"
    r"feet|foot|ft|yards?|yds?|miles?|mi)(?![A-Za-z])",
    re.IGNORECASE,
)
# "none" as a whole answer, or a sentence saying there are none
_ZERO_SENTENCE = re.compile(
    r"^\W*(?:none|no|zero|nothing|nil)\b(?!\s+(?:way|idea|one\s+can))"
    r"|\bthere\s+(?:are|is)\s+no\s+(?!way\b|idea\b)\w|\bthere\s+(?:are|is)\s+none\b"
    r"|\bno\s+\w+(?:\s+\w+)?\s+(?:are|is)\s+(?:shown|visible|present|marked|on)\b"
    # a sentence (or the clause after a lead-in) saying none relate: "No commercial land
    # areas border it.", "Looking at the map, none of the industrial and works land areas
    # overlap its outline"
    r"|(?:^|[.!?]\s+|\n|,\s+)(?:none\s+of\s+(?:them|the\s+\w+(?:\s+\w+){0,6}?)|no\s+(?:\w+\s+){0,4}?"
    r"(?:areas?|features?|dots?|places?|ones?))\s+(?:(?:do|does)\s+)?(?:border|borders|overlap|"
    r"overlaps|touch|touches|lie|lies|intersect|intersects|fall|falls)\b",
    re.IGNORECASE,
)

# a zero said as not seeing any of a kind ("I don't see any convenience store icons",
# "I can't find any banks", "There aren't any cafes"); not "any clearly", not "any labels"
# (the labels are not the features), not beside a refusal (``_REFUSED``)
_NONE_SEEN = re.compile(
    r"\b(?:(?:i|we)\s+(?:do\s+not|don't|can\s*not|can't|could\s+not|couldn't)\s+"
    r"(?:see|find|spot|locate|identify|detect)|there\s+(?:are\s+not|aren't|is\s+not|isn't))"
    r"\s+any\s+(?!(?:clearly|well|properly|clear|labels?|text|numbers?|names?|legend|"
    r"values?|details?|markings?|more|other|here|there|at|on|in|of|that|which)\b)(?=[a-z])",
    re.IGNORECASE,
)
_REFUSED = re.compile(
    r"\b(?:can\s*not|can't|could\s+not|couldn't|unable\s+to|not\s+able\s+to|impossible\s+to)"
    r"\s+(?:\w+\s+)?(?:count|tell|determine|say|read|make\s+out|be\s+sure|answer)\b"
    r"|\b(?:unclear|not\s+sure|uncertain|too\s+(?:small|blurry)|clearly|legibl[ey])\b",
    re.IGNORECASE,
)

#: a refusal to count beside "there are no ...": no count given
_CANNOT_COUNT = re.compile(
    r"\b(?:can\s*not|can't|could\s+not|couldn't|unable\s+to|not\s+able\s+to|impossible\s+to)"
    r"\s+(?:\w+\s+)?(?:count|tell|determine|say|answer)\b", re.IGNORECASE)


def none_seen(text: str) -> bool:
    """Whether a response with no number says it sees none of a kind (``I don't see any
    convenience store icons``), with no refusal beside it: a count of 0.

    Examples
    --------
    >>> none_seen("I don't see any convenience store icons on this map.")
    True
    >>> none_seen("There aren't any cafes here.")
    True
    >>> none_seen("I don't see any labels, so I can't count them.")
    False
    >>> none_seen("I can't see any clearly.")
    False
    >>> none_seen("I can't find any banks, but the icons are too small to be sure.")
    False
    """
    return bool(_NONE_SEEN.search(text)) and not _REFUSED.search(text)


_SENTENCE_END = re.compile(r"((?<=[.!?])\s+|\n)")


def none_seen_as_no(text: str) -> str:
    """``text`` with each sentence that says it sees none of a kind (:func:`none_seen`)
    said with ``no`` (``I don't see any banks`` -> ``no banks``), for readers that read
    ``no <type>`` as a count of 0 (MTMF prose).

    Examples
    --------
    >>> none_seen_as_no("I see 2 cafes. I don't see any banks. There aren't any parks.")
    'I see 2 cafes. no banks. no parks.'
    >>> none_seen_as_no("I see 2 cafes. I can't see any banks clearly.")[15:]
    "I can't see any banks clearly."
    """
    parts = _SENTENCE_END.split(text)  # sentence, separator, sentence, ...
    return "".join(_NONE_SEEN.sub("no ", p) if i % 2 == 0 and none_seen(p) else p
                   for i, p in enumerate(parts))


_UNITS_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS_WORDS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALE_WORDS = {"hundred": 100, "thousand": 1000}
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Number:
    """A number found in text.

    Parameters
    ----------
    value : float
        Its value.
    start, end : int
        Its span in the text.
    """

    value: float
    start: int
    end: int


@dataclass(frozen=True)
class Quantity:
    """A number with a length unit.

    Parameters
    ----------
    value : float
        The number as written.
    unit : str
        Canonical unit (a key of :data:`METRES_PER_UNIT`).
    start, end : int
        Span of number and unit in the text.
    """

    value: float
    unit: str
    start: int
    end: int

    @property
    def metres(self) -> float:
        """The quantity in metres."""
        return self.value * METRES_PER_UNIT[self.unit]


def _digits_value(token: str) -> float:
    if "," in token and "." not in token and re.fullmatch(r"\d+,\d{1,2}", token):
        return float(token.replace(",", "."))
    return float(token.replace(",", "").replace(" ", ""))


# where "point two" opens a number ("Answer: point two km", "about point five miles")
_POINT_LEAD = re.compile(r"(?:^|[:=]|\b(?:is|about|approximately|roughly|around))\s*$",
                         re.IGNORECASE)


def _word_numbers(text: str) -> list[Number]:
    """Find numbers written in words (``"twenty-one"``, ``"one hundred and five"``)."""
    found: list[Number] = []
    words = list(_WORD.finditer(text))
    i = 0
    while i < len(words):
        total: float = 0
        current: float = 0
        seen = False
        last = ""  # the kind of the word before: "units", "tens", "scale"
        start = words[i].start()
        end = start
        j = i
        while j < len(words):
            w = words[j].group().lower()
            gap = text[end : words[j].start()] if seen else ""
            if seen and gap.strip(" -") != "":
                break
            lead = not seen and bool(_POINT_LEAD.search(text[: words[j].start()]))
            if w == "point" and (seen or lead) and j + 1 < len(words) and \
                    _UNITS_WORDS.get(words[j + 1].group().lower(), 10) < 10:
                # "zero point three", "point two nine": the digits after the point
                digits = ""
                while j + 1 < len(words) and _UNITS_WORDS.get(
                        words[j + 1].group().lower(), 10) < 10 and not text[
                        words[j].end():words[j + 1].start()].strip(" -"):
                    j += 1
                    digits += str(_UNITS_WORDS[words[j].group().lower()])
                current += float(f"0.{digits}")
                seen = True
                end = words[j].end()
                j += 1
                break
            if w in _UNITS_WORDS:
                if last == "units" or (last == "tens" and _UNITS_WORDS[w] >= 10):
                    break  # "two nine" is two numbers, not eleven
                current += _UNITS_WORDS[w]
                last = "units"
            elif w in _TENS_WORDS:
                if last in ("units", "tens"):
                    break
                current += _TENS_WORDS[w]
                last = "tens"
            elif w in _SCALE_WORDS and seen:
                last = "scale"
                scale = _SCALE_WORDS[w]
                if scale == 100:
                    current = max(current, 1) * 100
                else:
                    total += max(current, 1) * scale
                    current = 0
            elif w == "and" and seen and j + 1 < len(words):
                nxt = words[j + 1].group().lower()
                if nxt not in _UNITS_WORDS and nxt not in _TENS_WORDS:
                    break
            else:
                break
            seen = True
            end = words[j].end()
            j += 1
        if seen:
            found.append(Number(float(total + current), start, end))
            i = j
        else:
            i += 1
    return found


def find_numbers(text: str, *, words: bool = True) -> list[Number]:
    """Find every number in text, in order.

    Parameters
    ----------
    text : str
        Cleaned text.
    words : bool
        Also find numbers written in words (``"twelve"``).

    Returns
    -------
    list of Number
        The numbers, sorted by position.

    Examples
    --------
    >>> [n.value for n in find_numbers("1,234 cafes, 2.5 km and twenty-one bars")]
    [1234.0, 2.5, 21.0]
    """
    found = [Number(_digits_value(m.group()), m.start(), m.end()) for m in _NUMBER.finditer(text)]
    if words:
        found.extend(_word_numbers(text))
    found.sort(key=lambda n: n.start)
    return found


# the unit alone in brackets after a number: "290 (metres)", "0.3 [km]"
_UNIT_IN_BRACKETS = re.compile(
    r"\s*[(\[]\s*(?:in\s+)?(?P<unit>kilomet(?:er|re)s?|kms?|met(?:er|re)s?|m|feet|ft|yards?|"
    r"yds?|miles?|mi)\s*[)\]]", re.IGNORECASE)


def find_quantities(text: str) -> list[Quantity]:
    """Find every length written with a unit (``850m``, ``1.2 km``, ``3,280 ft``).

    Parameters
    ----------
    text : str
        Cleaned text.

    Returns
    -------
    list of Quantity
        The lengths, in order.

    Examples
    --------
    >>> [(q.value, q.unit) for q in find_quantities("850m or 0.5 miles, not 3 cats")]
    [(850.0, 'm'), (0.5, 'mi')]
    >>> [(q.value, q.unit) for q in find_quantities("Answer: 290 (metres)")]
    [(290.0, 'm')]
    """
    out = []
    for number in find_numbers(text):
        unit = _UNIT.match(text, number.end) or _UNIT_IN_BRACKETS.match(text, number.end)
        if unit:
            canonical = _UNIT_SPELLINGS[unit.group("unit").lower()]
            out.append(Quantity(number.value, canonical, number.start, unit.end()))
    return out


def _single_value(values: list[float], *, rel_tol: float = 0.0) -> float | None:
    """The common value when all values agree (within a relative tolerance)."""
    if not values:
        return None
    first = values[0]
    for v in values[1:]:
        if abs(v - first) > rel_tol * max(abs(v), abs(first)):
            return None
    return first


def _pick(values_in: list[list[float]], *, rel_tol: float) -> float | None:
    """Pick the answer among candidate scopes: the first scope that has one value."""
    for values in values_in:
        if values:
            return _single_value(values, rel_tol=rel_tol)
    return None


def parse_count(text: str, *, feature: str | None = None) -> ParseResult:
    """Parse a count (a non-negative number of features).

    Rules, in order: the first number after the last ``Answer:`` cue; else the only
    number in the response (repeats allowed); else the only number on the last line;
    else, with no number at all, a response that starts with ``none``/``no``/``zero`` or
    says ``there are no ...`` gives 0. Anything else is invalid. Counts of several
    different kinds (``There are 3 banks and 5 cafes.``) are invalid, in an answer or in
    a response without a cue, unless ``feature`` (the kind the question asks about)
    picks one of them.

    Parameters
    ----------
    text : str
        The raw response.
    feature : str, optional
        The feature type asked about (a catalogue name such as ``"bank"``).

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"count": n})`` (an int when integral, else a float).

    Examples
    --------
    >>> parse_count("There are twelve pharmacies.").value
    {'count': 12}
    >>> parse_count("Answer: 1,204").value
    {'count': 1204}
    >>> parse_count("There are 3 banks and 5 cafes.").reason
    'several different counts (3 bank, 5 coffee shop), not one'
    >>> parse_count("There are 3 banks and 5 cafes.", feature="bank").value
    {'count': 3}
    """
    t = _drop_plus_minus(clean(text))
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_count_in(seg, feature) for seg in answer_segments(t)],
                 key=lambda p: p.value["count"], what="counts")
    if cued is not None:
        return cued
    data = json_answer(normalize_text(text))
    if isinstance(data, int | float) and not isinstance(data, bool):
        return _count_result(data)
    if isinstance(data, str):
        found = _count_in(data, feature)
        if found is not None:
            return found
    body = drop_notes(t)
    cut = cut_off(body.strip())
    if cut is not None:  # "Let me count ... I see one next to the": reasoning cut off
        return Invalid(f"truncated output: ends mid-sentence ('{cut}')")
    lines = nonempty_lines(body)
    values = count_candidates(body)
    if values and none_beside_values(body, values):
        # "None of the coastal provinces is above 48": 48 is the bar, not a count
        hedged = hedge(body)
        return Invalid(f"a hedged answer ({hedged})") if hedged else Parsed(
            {"count": 0}, ("'none', beside values that are no counts, read as 0",))
    first = _count_in(lines[0], feature) if lines and _BARE.match(lines[0]) else None
    if first is not None:
        return first
    if len(lines) > 1 and none_concludes(lines[-1]) and not hedge(lines[-1]):
        # "Comparing the two maps: ...\n\nNone of the three features border X.": 0
        return Parsed({"count": 0}, ("the concluding sentence says none; read as 0",))
    nums = count_candidates(body)
    listed = _enumerated_count(body)
    if listed is not None:  # "4 classes: 8.5–10.8, 11–12.9, 13.3–15.2 and 16.2–21.9"
        return _count_result(listed)
    if nums:
        alternatives = _alternatives(body, nums)
        if alternatives:
            return Invalid(alternatives)
        hedged = hedge(body if len(lines) <= 1 else lines[-1])
        if hedged and (len(lines) <= 1 or count_candidates(lines[-1])):
            # a hedge on the concluding line: "I count 3 here and 4 there.\nSo maybe 7"
            return Invalid(f"a hedged answer ({hedged})")
        ends = [n for n in nums if concluded(body, n.start, n.end)]
        if ends and len({k for n in nums if (k := _kind_of(body, n)) is not None}) <= 1 and all(
                n.value == ends[-1].value for n in nums if n.start > ends[-1].start):
            # one kind at most: "1 clothes shop in the top half and 2 in the bottom. So 3"
            return _count_result(ends[-1].value)
        kinds = _kinds_counted(body, nums, feature)
        if kinds is not None:
            return kinds
        value = _single_value([n.value for n in nums])
        if value is None and _ASIDE.search(body):  # "3 (2 north of it, 1 south)"
            value = _single_value([n.value for n in count_candidates(_ASIDE.sub(" ", body))])
        if value is None:
            value = _stated_count(body, nums)
        if value is None and not _OPENS_WITH_NONE.match(body):
            # "Three states have a value above 30.": 30 is the bar ("None ..., except 2"
            # contradicts itself)
            value = _single_value([n.value for n in nums if not compared_value(body, n)])
        if value is None:
            value = _single_value([n.value for n in count_candidates(lines[-1])])
        if value is None:
            shown = ", ".join(sorted({_fmt(n.value) for n in nums}))
            return Invalid(f"several numbers ({shown}) and no 'Answer:' line")
        return _count_result(value)
    if _ZERO_SENTENCE.search(body) and not _CANNOT_COUNT.search(body):
        # not "There are no labels, so I can't count them." (no count given: fix24zq)
        return Parsed({"count": 0}, ("no number; read 'none'/'there are no' as 0",))
    if none_seen(body):  # "I don't see any convenience store icons on this map"
        return Parsed({"count": 0}, ("no number; read 'I don't see any ...' as 0",))
    return Invalid("no number found")


#: "560 ± 20 m", "+/- 20": the uncertainty is not part of the answer
_PLUS_MINUS = re.compile(
    r"\s*(?:\u00b1|\+/-|\+-)\s*\d[\d,.]*(?:\s*(?P<u>%|percent|km|m|ft|feet|metres|meters|"
    r"mi|miles|yards?|yd)\b)?",
    re.IGNORECASE,
)


def _drop_plus_minus(text: str) -> str:
    """Remove ``± 20 m`` after a value, keeping the unit for a bare value."""

    def keep_unit(m: re.Match[str]) -> str:
        unit = m.group("u")
        before = text[: m.start()].rstrip()
        return f" {unit}" if unit and unit != "%" and before[-1:].isdigit() else ""

    return _PLUS_MINUS.sub(keep_unit, text)


_ALTERNATIVE_GAP = re.compile(r"^[\s\])]*(?:-|to|or|/|~|or\s+(?:maybe|perhaps|possibly))"
                              r"[\s\[(]*$", re.IGNORECASE)
_BETWEEN = re.compile(r"\bbetween\s*$", re.IGNORECASE)
# a line that is only a number (a bare answer before an explanation)
_BARE = re.compile(r"^\W*(?:\d[\d,. ]*|[A-Za-z]+(?:[- ][A-Za-z]+)?)\W*$")


def _alternatives(text: str, nums: list[Number]) -> str | None:
    """Why two numbers are a range or alternatives (``4 or 5``, ``4-5``), else None."""
    for a, b in pairwise(nums):
        gap = text[a.end : b.start]
        if a.value != b.value and (
            _ALTERNATIVE_GAP.match(gap)
            or (gap.strip().lower() == "and" and _BETWEEN.search(text[: a.start]))
        ):
            gap = re.sub(r"[\[\]()]", "", gap)
            return f"a range or alternatives ({_fmt(a.value)}{gap}{_fmt(b.value)}), not one count"
    return None


# "so 3 in total", "a total of 3", "Total: 3"
_TOTAL_BEFORE = re.compile(r"\b(?:in\s+total|total(?:\s+count)?(?:\s+of|\s+is|\s*[:=])|"
                           r"altogether|overall)\s*(?:about\s+|approximately\s+)?$",
                           re.IGNORECASE)
_TOTAL_AFTER = re.compile(r"\s+(?:[A-Za-z-]+\s+){0,3}(?:in\s+total|altogether|overall)\b",
                          re.IGNORECASE)
# "There are 3 ...", "I count 5 ...", "I can see 2 ..."
_STATED = re.compile(r"\b(?:there\s+(?:are|is|(?:appears?|seems?)\s+to\s+be)|i\s+(?:can\s+)?"
                     r"(?:count(?:ed)?|found|find|identified|identify))\s+(?:a\s+total\s+of\s+|"
                     r"exactly\s+|about\s+|around\s+|approximately\s+|roughly\s+)?$",
                     re.IGNORECASE)


# a concluding sentence or line after the working: "So 7", "That makes 7", "= 7",
# "Therefore the count is 7", "which gives 7 areas"
_CONCLUSION = re.compile(
    r"(?:^|[.!?;:\n]|,[ \t]*(?:and[ \t]+)?|\band[ \t]+)[ \t*_]*"
    r"(?:(?:so|thus|therefore|hence|overall|altogether|in\s+all)\b[ \t,]*"
    r"|(?:that|this|which|it)\s+(?:makes|gives|is)\b|(?:that|it)'s\b|making\b|giving\b"
    r"|(?:adding|summing)\s+(?:them\s+|these\s+|those\s+)?up\b[ \t,]*(?:gives\b)?)"
    r"(?P<rest>[^\d\n.!?;]{0,40})$",
    re.IGNORECASE)
# the words between a concluding word and its number: "so there are", "the total is"
_CONCLUSION_REST = re.compile(
    r"^[ \t,]*(?:(?:there\s+are|there\s+is|i\s+count|we\s+have|we\s+get|(?:a\s+)?total\s+of|"
    r"(?:it|that|this)(?:'s|\s+is|\s+comes\s+to)|"
    r"the\s+(?:[\w-]+\s+){0,3}?(?:count|answer|total|distance|length|number|route|walk|path|"
    r"result)(?:\s+of\s+[\w\s-]{1,30}?)?\s+(?:is|=|:|comes\s+to)|in\s+total|altogether|exactly|about|around|approximately|roughly|"
    r"approx\.?|~|\u2248|=|:)[ \t]*)*$",
    re.IGNORECASE)
# the result of a sum written out: "3 + 4 = 7", "2+1+1 = 4"
# ("120 m + 80 m = 200 m": a unit may follow each number)
_SUM_RESULT = re.compile(r"\d[\d.,]*\s*(?:[a-z]{1,11}\.?\s*)?"
                         r"(?:[+]\s*\d[\d.,]*\s*(?:[a-z]{1,11}\.?\s*)?)+=\s*$", re.IGNORECASE)
# a number that is an operand of a sum ("3 + 4", "so 120 m + 80 m"), not its result
_OPERAND = re.compile(r"^\s*(?:[a-z]{1,11}\.?\s*)?\+\s*\d", re.IGNORECASE)


def concluded(text: str, start: int, end: int) -> bool:
    r"""Whether the number at ``text[start:end]`` is the conclusion of the working before it.

    Two forms: the result of a sum written out (``3 + 4 = 7``), or a number opening a
    concluding sentence or line (``So 7``, ``That makes 7``, ``Therefore there are 7``,
    ``= 7``) that is not itself added to another (``so 3 + 4``). Shared by counts and
    lengths: after such working the concluding number is the answer.

    Examples
    --------
    >>> t = "I count 3 here and 4 there.\nSo 7"
    >>> [concluded(t, m.start(), m.end()) for m in re.finditer(r"\d", t)]
    [False, False, True]
    >>> t = "3 + 4 = 7"
    >>> [concluded(t, m.start(), m.end()) for m in re.finditer(r"\d", t)]
    [False, False, True]
    >>> concluded("There are 3 here, so maybe 4", 26, 27)
    False
    """
    if _OPERAND.match(text, end):
        return False
    before = text[max(0, start - 60):start]
    if _SUM_RESULT.search(before) or re.search(r"(?:^|\n)[ \t*_]*=\s*$", before):
        return True
    m = _CONCLUSION.search(before)
    return m is not None and bool(_CONCLUSION_REST.match(m.group("rest")))


# working in brackets beside an answer: "820 ft (map 1: 400 ft, map 2: 500 ft)"
_ASIDE = re.compile(r"\s*\([^()\n]*\)")
# a map's or a picture's number ("Map 3", "map #2", "image 4"): a label, never a count
_LABEL_NUMBER = re.compile(r"\b(?:maps?|images?|figures?|panels?|pictures?)\s*(?:no\.?\s*|#\s*)?$",
                           re.IGNORECASE)
# the whole a count is part of: "2 of the 3 dots", "2 out of 3", "out of the three, two"
_WHOLE = re.compile(r"(?:\d|\b[a-z]+)\s+(?:out\s+)?of\s+(?:the\s+|these\s+|those\s+|all\s+)?$"
                    r"|(?:^|[^\w\s]\s*|\n)\s*out\s+of\s+(?:the\s+|these\s+|those\s+|all\s+)?$",
                    re.IGNORECASE)


def count_candidates(text: str) -> list[Number]:
    """The numbers of a text that may be a count: not a map's number, not the whole.

    ``Map 3 shows it ...``: 3 names a map. ``2 of the 3 dots``, ``2 out of 3``, ``Out of
    the three, two ...``: 3 is how many were asked about, the count is 2. The whole is
    dropped only when another number is left.

    Examples
    --------
    >>> [n.value for n in count_candidates("Map 3 shows it; 2 of the 3 dots lie there.")]
    [2.0]
    >>> [n.value for n in count_candidates("Out of the three, two lie within it.")]
    [2.0]
    >>> [n.value for n in count_candidates("I count 3.")]
    [3.0]
    """
    nums = [n for n in find_numbers(text)
            if not _LABEL_NUMBER.search(text[max(0, n.start - 20):n.start])]
    parts = [n for n in nums if not _WHOLE.search(text[max(0, n.start - 30):n.start])]
    return parts if parts and len(parts) < len(nums) else nums


# a response that opens by saying there are none ("No coastal province ...", "Zero.")
_OPENS_WITH_NONE = re.compile(
    r"^\W*(?:none\b|zero\b|nothing\b|no\s+(?!way\b|idea\b|one\s+can)[a-z]|"
    r"there\s+(?:are|is)\s+(?:no|none)\b)", re.IGNORECASE)
# words before a number that make it a value compared with, not a count ("above 48")
_VALUE_BEFORE = re.compile(
    r"(?:\b(?:above|over|below|under|than|at|of|to|from|between|within|beyond|past|"
    r"exceeds?|exceeding|reach(?:es|ing)?)\s+(?:(?:a|an|the|just|only|about|around|"
    r"roughly|value|values|of)\s+){0,3}|[\u2013\u2014-]\s*)$", re.IGNORECASE)
_VALUE_AFTER = re.compile(r"^\s*(?:[\u2013\u2014-]\s*\d|%|(?:km|m|ft|mi|metres?|meters?|"
                          r"feet|miles?)\b)", re.IGNORECASE)


#: a concluding sentence that says none of the things relate ("None of the three
#: features border X.", "So none of them overlap it."); not "None ..., but two touch it"
_NONE_CONCLUDES = re.compile(
    r"^\W*(?:(?:so|thus|therefore|hence|in\s+conclusion|in\s+summary|overall)\W+)?"
    r"none\s+of\s+(?:them|these|those|the\s+(?:[\w-]+\s+){0,6}?[\w-]+)(?=[\s,]|$)",
    re.IGNORECASE)
_NONE_BUT = re.compile(r"\b(?:but|except|apart\s+from|other\s+than|though|although|while|"
                       r"whereas|however|yet|only)\b", re.IGNORECASE)


def none_concludes(line: str) -> bool:
    """Whether a response's last line says none of the things counted relate (``None
    of the three features border Marski by Scandic.``), every number on it inside the
    ``none of the N`` phrase and no ``but``/``except`` after it: a count of 0 that wins
    over number words in the reasoning above (fix24zq).

    Examples
    --------
    >>> none_concludes("None of the three features border Marski by Scandic.")
    True
    >>> none_concludes("So none of them overlap it.")
    True
    >>> none_concludes("None of the three is clearly inside, but two touch it.")
    False
    >>> none_concludes("None of the 4 areas border it; 2 are close.")
    False
    """
    m = _NONE_CONCLUDES.match(line)
    if m is None:
        return False
    rest = line[m.end():]
    return not _NONE_BUT.search(rest) and not count_candidates(rest)


def none_beside_values(text: str, nums: list[Number]) -> bool:
    """Whether a response opens by saying there are none and its every number is a value
    compared with or quoted from the map (``above 48``, ``41.8–48.5``, ``of the 4``,
    ``within 500 m``), none of them a count: then the count is 0.

    Examples
    --------
    >>> text = "None of the coastal provinces is above 48; the top class is 41.8–48.5."
    >>> none_beside_values(text, find_numbers(text))
    True
    >>> text = "No, there are 3 provinces above 48."
    >>> none_beside_values(text, find_numbers(text))
    False
    """
    if not _OPENS_WITH_NONE.match(text):
        return False
    return all(n.value == 0 or n.value != int(n.value)
               or _VALUE_BEFORE.search(text[max(0, n.start - 40):n.start])
               or _VALUE_AFTER.match(text[n.end:]) for n in nums)


# comparison words before a value of the question ("above 30", "greater than 12.5")
_COMPARED_BEFORE = re.compile(
    r"\b(?:above|over|below|under|than|exceeds?|exceeding|beyond|within)\s+"
    r"(?:(?:a|an|the|just|only|value|values|of)\s+){0,2}$", re.IGNORECASE)


def compared_value(text: str, number: Number) -> bool:
    """Whether a number is a value counted things are compared with, not a count
    (``Three states have a value above 30``: 30; ``within 200 m``: 200).

    Examples
    --------
    >>> text = "Three states have a value above 30."
    >>> [compared_value(text, n) for n in find_numbers(text)]
    [False, True]
    """
    return bool(_COMPARED_BEFORE.search(text[max(0, number.start - 30):number.start])
                or _VALUE_AFTER.match(text[number.end:]))


# "The legend shows 4 classes: a, b, c and d": a count, a noun, then what it counts
_COUNTED_NOUN = re.compile(r"[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}", re.IGNORECASE)


def _enumerated_count(text: str) -> float | None:
    """The count of a line that states a number of things and then lists exactly that
    many (``The legend shows 4 classes: 8.5–10.8, 11–12.9, 13.3–15.2 and 16.2–21.9.``),
    whose listed numbers are no counts; ``None`` when no line does so alone.

    Examples
    --------
    >>> _enumerated_count("The legend shows 4 classes: 8.5–10.8, 11–12.9, 13.3–15.2 and 16.2–21.9.")
    4.0
    >>> _enumerated_count("There are three: Texas, Ohio and Iowa.")  # no noun counted
    >>> _enumerated_count("4 classes: 1-2, 3-4")  # four announced, two listed
    """
    found = []
    for line in nonempty_lines(text):
        before, colon, rest = line.strip().partition(":")
        head = find_numbers(before)
        if not colon or not head or not _COUNTED_NOUN.fullmatch(before[head[-1].end:].strip()):
            continue
        parts = [p for p in re.split(r"\s*(?:,|;|\band\b)\s*", rest.strip().rstrip(" ."))
                 if p.strip()]
        if len(parts) == head[-1].value and len(parts) >= 2:
            found.append(head[-1].value)
    return found[0] if len(found) == 1 else None


def _stated_count(text: str, nums: list[Number]) -> float | None:
    """The count a sentence states, when the other numbers are details.

    A conclusion after the working (``So 7``, ``That makes 7``, ``3 + 4 = 7``:
    :func:`concluded`) wins, the last one when the numbers after it only repeat it;
    then a total (``so 3 in total``, ``a total of 3``); else a count stated as
    ``There are 3`` / ``I count 3`` when all such statements agree. (``I see 3 at zoom
    19`` states nothing: ``see`` is too loose a verb to pick one number.)
    """
    ends = [n for n in nums if concluded(text, n.start, n.end)]
    if ends and all(n.value == ends[-1].value for n in nums if n.start > ends[-1].start):
        return ends[-1].value
    totals = [n.value for n in nums
              if _TOTAL_BEFORE.search(text[max(0, n.start - 40) : n.start])
              or _TOTAL_AFTER.match(text, n.end)]
    stated = [n.value for n in nums if _STATED.search(text[max(0, n.start - 40) : n.start])]
    for values in (totals, stated):
        value = _single_value(values)
        if value is not None:
            return value
        if values:
            return None
    return None


# up to three words after a number: "3 fast food restaurants", "5 cafés"
_WORDS_AFTER = re.compile(r"[ \t]+([^\W\d_][\w'-]*)(?:[ \t]+([^\W\d_][\w'-]*))?"
                          r"(?:[ \t]+([^\W\d_][\w'-]*))?")
# between two counts listed side by side: "3 banks and 5 shops", "3 banks, 5 shops"
_LIST_GAP = re.compile(r"^\s*(?:,|;|\+|and|,\s*and|as\s+well\s+as|plus)\s*$", re.IGNORECASE)
# words after a number that are no kind of feature: units, times, "of", "more"
_NOT_A_KIND = re.compile(
    r"^(?:of|more|other|others|times|minutes?|seconds?|hours?|percent|per|degrees?|"
    r"blocks?|steps?|zooms?|levels?|km|kms|m|ft|mi|yds?|met(?:er|re)s?|kilomet(?:er|re)s?|"
    r"feet|foot|miles?|yards?)$", re.IGNORECASE)


def _kind_of(text: str, number: Number) -> str | None:
    """The kind of thing a number counts (``3 banks`` counts ``bank``), or ``None``.

    A feature type of the catalogue (any synonym) in the one to three words after the
    number; ``None`` when they name none.
    """
    m = _WORDS_AFTER.match(text, number.end)
    if m is None:
        return None
    words = [w for w in m.groups() if w]
    for n in range(len(words), 0, -1):
        kind = canonical_type(" ".join(words[:n]))
        if kind is not None:
            return kind
    return None


def _counts_a_kind(text: str, number: Number) -> bool:
    """Whether a number is followed by what it counts (``3 banks``, ``3 shops``)."""
    m = _WORDS_AFTER.match(text, number.end)
    return m is not None and (_kind_of(text, number) is not None or (
        m.group(1).lower().endswith("s") and not _NOT_A_KIND.match(m.group(1))))


def _kinds_counted(text: str, nums: list[Number], feature: str | None) -> ParseResult | None:
    """The count of ``feature`` among counts of several kinds, or ``Invalid`` when counts
    of different kinds disagree and nothing picks one; ``None`` when the text counts no
    more than one kind.

    Kinds are feature types of the catalogue (``3 banks ... 5 cafes``) or any two plural
    nouns listed side by side (``3 banks and 5 shops``).

    Examples
    --------
    >>> t = "I see 3 hotels and 5 shops."
    >>> _kinds_counted(t, find_numbers(t), None).reason
    'several different counts (3 hotels, 5 shops), not one'
    """
    counted: list[tuple[float, str, str]] = []  # value, kind key, as written
    for n in nums:
        kind = _kind_of(text, n)
        if kind is not None:
            counted.append((n.value, kind, f"{_fmt(n.value)} {kind}"))
    for a, b in pairwise(nums):
        wa, wb = _WORDS_AFTER.match(text, a.end), _WORDS_AFTER.match(text, b.end)
        if wa is None or wb is None:
            continue
        xa, xb = wa.group(1), wb.group(1)
        gap = text[wa.start(1) + len(xa):b.start]
        if (_LIST_GAP.match(gap) and xa.lower().endswith("s") and xb.lower().endswith("s")
                and not _NOT_A_KIND.match(xa) and not _NOT_A_KIND.match(xb)):
            for n, x in ((a, xa), (b, xb)):
                key = canonical_type(x) or type_key(x)
                if not any(c[1] == key and c[0] == n.value for c in counted):
                    counted.append((n.value, key, f"{_fmt(n.value)} {x}"))
    kinds = {c[1] for c in counted}
    if feature is not None:  # the count of the kind asked wins over other numbers
        asked = canonical_type(feature) or type_key(feature)
        values = [c[0] for c in counted if c[1] == asked]
        value = _single_value(values)
        if value is not None and (len(kinds) > 1 or len(nums) > len(values)):
            return _count_result(value)
    if len(kinds) > 1 and len({c[0] for c in counted}) > 1:
        shown = ", ".join(c[2] for c in counted)
        return Invalid(f"several different counts ({shown}), not one")
    return None


def _count_in(segment: str, feature: str | None = None) -> ParseResult | None:
    """The count in one answer segment; ``None`` when it holds no number."""
    hedged = hedge(segment)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    nums = count_candidates(segment)
    if nums:
        alternatives = _alternatives(segment, nums)
        if alternatives:
            return Invalid(alternatives)
        # "Answer: 3 banks and 5 cafes" (the answer counts kinds), not "Answer: 3 (2 banks,
        # 1 ATM)" (a bare count, then its details)
        kinds = _kinds_counted(segment, nums, feature) if _counts_a_kind(segment, nums[0]) \
            else None
        if kinds is not None:
            return kinds
        ends = [n for n in nums[1:] if concluded(segment, n.start, n.end)]
        if ends and len({n.value for n in nums}) > 1:  # "Answer: 3 + 4 = 7", "... so 7"
            return _count_result(ends[-1].value)
        return _count_result(nums[0].value)
    if _ZERO_SENTENCE.search(segment):
        return Parsed({"count": 0})
    return None


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _count_result(value: float) -> Parsed:
    if float(value).is_integer():
        return Parsed({"count": int(value)})
    return Parsed({"count": value}, ("count is not a whole number",))


def convert_length(value: float, from_unit: str, to_unit: str) -> float:
    """Convert a length between units of :data:`METRES_PER_UNIT`.

    Parameters
    ----------
    value : float
        The length in ``from_unit``.
    from_unit, to_unit : str
        Canonical unit names (``m``, ``km``, ``cm``, ``ft``, ``yd``, ``mi``).

    Returns
    -------
    float
        The length in ``to_unit``.

    Examples
    --------
    >>> round(convert_length(1, "mi", "ft"), 6)
    5280.0
    """
    return value * METRES_PER_UNIT[from_unit] / METRES_PER_UNIT[to_unit]


def parse_length(text: str, *, unit: str = "m") -> ParseResult:
    """Parse a length and express it in ``unit`` (the unit the item asks for).

    Rules, in order: the first length after the last ``Answer:`` cue; else the only
    length in the response (lengths that agree within 1 %, such as ``520 m (1,706 ft)``,
    count as one); else the first length on the last line. A number without a unit is
    read in ``unit`` (with a note) only when no length with a unit appears. Ranges and
    disagreeing lengths are invalid.

    Parameters
    ----------
    text : str
        The raw response.
    unit : str
        ``"m"`` or ``"ft"``: the unit of the reported value.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"value": v, "unit": unit, "raw_value": x, "raw_unit": u})``.

    Examples
    --------
    >>> parse_length("About 1.2 km.", unit="m").value["value"]
    1200.0
    >>> round(parse_length("3,280 ft", unit="m").value["value"], 3)
    999.744
    """
    if unit not in METRES_PER_UNIT:
        raise ValueError(f"unknown unit {unit!r}")
    t = _drop_plus_minus(clean(text))
    if not t.strip():
        return Invalid("empty response")
    cued = agree([_length_in(seg, unit) for seg in answer_segments(t)],
                  key=lambda p: round(p.value["value"], 6), what="lengths")
    if cued is not None:
        return cued
    data = json_answer(normalize_text(text))
    if isinstance(data, int | float) and not isinstance(data, bool):
        data = str(data)
    if isinstance(data, str):
        found = _length_in(_drop_plus_minus(data), unit)
        if found is not None:
            return found
    body = drop_notes(t)
    cut = cut_off(body.strip())
    if cut is not None:  # "... somewhere between 300 and": the length was never said
        return Invalid(f"truncated output: ends mid-sentence ('{cut}')")
    lines = nonempty_lines(body)
    if lines and len(lines[0]) <= 40:
        first = _length_in(lines[0], unit, bare_only=True)
        if first is not None:
            return first
    if _range(body):
        return Invalid("a range, not one length")
    qs = _answer_quantities(body)
    if qs:
        hedged = hedge(body if len(lines) <= 1 else lines[-1])
        if hedged and (len(lines) <= 1 or _answer_quantities(lines[-1])):
            # as for counts, a hedge on the concluding line: "... \nSo maybe 110 m"
            return Invalid(f"a hedged answer ({hedged})")
        chosen = _in_unit(qs, unit) if _single_value([q.metres for q in qs], rel_tol=0.01
                                                     ) is not None else None
        if chosen is None:  # "about 50 m (about 160 ft)" asked in ft: the stated 160 ft
            chosen = _converted_in_unit(body, qs, unit)
        if chosen is None:
            last = _answer_quantities(lines[-1])
            if last and _single_value([q.metres for q in last], rel_tol=0.01) is not None:
                chosen = _in_unit(last, unit)
        if chosen is None:
            chosen = _answering_sentence(lines[-1], unit)
        if chosen is None:  # "820 ft (map 1: 400 ft, map 2: 500 ft)": the working in brackets
            plain = _ASIDE.sub(" ", body)
            rest = _answer_quantities(plain) if plain != body else []
            if rest and _single_value([q.metres for q in rest], rel_tol=0.01) is not None:
                chosen = _in_unit(rest, unit)
        if chosen is None:
            chosen = _total(body, qs)
        if chosen is None:
            return Invalid(f"several different lengths ({len(qs)}) and no 'Answer:' line")
        return _length_result(chosen, unit)
    if find_quantities(body):
        return Invalid("only the scale bar's length is given")
    nums = find_numbers(body, words=False)
    if not nums:
        fractions = fraction_lengths(body)  # "roughly half a kilometre long"
        if fractions and _single_value([q.metres for q in fractions], rel_tol=0.01) is not None:
            hedged = hedge(body)
            if hedged:
                return Invalid(f"a hedged answer ({hedged})")
            if any(_WORDS_ALTERNATIVE.match(body, q.end) for q in fractions):
                return Invalid("a range, not one length")  # "half a mile or a kilometre"
            return _length_result(_in_unit(fractions, unit), unit)
        return Invalid("no length found")
    value = _single_value([n.value for n in nums])
    if value is None:
        return Invalid("several numbers without units and no 'Answer:' line")
    return _unitless(value, unit)


# "the distance from A to B is approximately 0.09 km", "the total length of the route is"
_ANSWERING = re.compile(
    r"\bthe\s+(?:\w+\s+)?(?:distance|length)\b[^.;\d]{0,80}?\b(?:is|comes\s+to|works\s+out"
    r"\s+to)\s+(?:about|approximately|approx\.|around|roughly|~)?\s*$", re.IGNORECASE)


def _answering_sentence(line: str, unit: str) -> Quantity | None:
    """The length of the last sentence when it answers (``..., the distance from A to B
    is approximately 0.09 km (about 90 m).``): its first length follows ``the distance
    ... is`` and every length in the sentence says that one value; lengths said in
    sentences before it are working.

    Examples
    --------
    >>> said = "A is about 0.23 km from B. The distance from C to D is about 0.09 km (90 m)."
    >>> _answering_sentence(said, "m").value
    90.0
    >>> _answering_sentence("The distance is 0.2 km, and C is 0.3 km away.", "m") is None
    True
    """
    sentences = [x for x in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line.strip()) if x.strip()]
    if not sentences:
        return None
    last = sentences[-1]
    qs = _answer_quantities(last)
    if not qs or _single_value([q.metres for q in qs], rel_tol=0.01) is None:
        return None
    if not _ANSWERING.search(last[:qs[0].start]) or hedge(last):
        return None
    return _in_unit(qs, unit)


# "about 240 m in total", "a total of 240 m", "total length: 240 m", "240 m altogether"
_LENGTH_TOTAL_BEFORE = re.compile(
    r"\b(?:total|overall|whole\s+route|entire\s+route|altogether|sum)\b[^.\d\n]{0,30}$",
    re.IGNORECASE)
_LENGTH_TOTAL_AFTER = re.compile(
    r"^\s*(?:in\s+total|total|altogether|overall|all\s+together|in\s+all)\b",
    re.IGNORECASE)


def _total(text: str, qs: list[Quantity]) -> Quantity | None:
    """The one length a text marks as the total (``about 240 m in total``), if any.

    Examples
    --------
    >>> _total("90 m on A, then about 240 m in total.", find_quantities(
    ...     "90 m on A, then about 240 m in total.")).value
    240.0
    """
    ends = [q for q in qs if concluded(text, q.start, q.end)]  # "so 200 m", "= 200 m"
    if ends and all(abs(q.metres - ends[-1].metres) <= 0.01 * q.metres
                    for q in qs if q.start > ends[-1].start):
        return ends[-1]
    marked = [q for q in qs if _LENGTH_TOTAL_AFTER.match(text[q.end:])
              or _LENGTH_TOTAL_BEFORE.search(text[max(0, q.start - 40):q.start])]
    if marked and _single_value([q.metres for q in marked], rel_tol=0.01) is not None:
        return marked[-1]
    return None


def _unitless(value: float, unit: str) -> Parsed:
    return Parsed(
        {"value": value, "unit": unit, "raw_value": value, "raw_unit": unit},
        (f"no unit given: read as {unit}",),
    )


# "scale bar ... 50 m": the first length after a mention of the scale bar is the bar's
_SCALE = re.compile(
    r"\bscale\s*-?\s*(?:bar|line|indicator|ruler)s?\b[^.;\n]{0,60}"
    r"|\b(?:the|map)\s+scale\s+(?:shows|reads|indicates|represents|is|of|says|:)[^.;\n]{0,60}",
    re.IGNORECASE)


# the mention itself ("scale bar", "the map scale"), and what may stand between it and
# a length for that length to be the bar's own: "scale bar (100 m)", "scale bar: 50 m",
# "the scale bar at the bottom left shows 0-50 m", "scale bar, which is 100 m",
# "scale bar's length is 200 ft". Anything else ("Using both scale bars, X and Y are
# about 230 m apart") makes the length an answer measured with the bar.
_SCALE_HEAD = re.compile(
    r"\bscale\s*-?\s*(?:bar|line|indicator|ruler)s?\b|\b(?:the|map)\s+scale\b",
    re.IGNORECASE)
_BAR_LENGTH_LINK = re.compile(
    r"^(?:'s?\s+(?:own\s+)?(?:length|size|label|value|unit))?"
    r"(?:\s+(?:at|on|in|near|along)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?[\w-]+)?"
    r"\s*(?:[(:=\u2248]|,\s*(?=(?:which|that)\b))?\s*"
    r"(?:(?:which|that|it)\s+)?"
    r"(?:(?:is|shows?|reads?|indicates?|represents?|measures?|says?|marks?|spans?|equals?|"
    r"of|for|labell?ed|covers?|corresponds\s+to|denotes?|gives?|stands\s+for)\s+)?"
    r"(?:(?:about|approximately|roughly|around|just|exactly|only)\s+|[~\u2248]\s*)?"
    r"(?:[\d.,]+\s*[-\u2013\u2014]\s*|from\s+0\s+to\s+)?$",
    re.IGNORECASE)


def _answer_quantities(text: str) -> list[Quantity]:
    """The lengths of a text, without the scale bar's own length."""
    qs = find_quantities(text)
    skip: set[int] = set()
    named: list[int] = []  # where a "50 m scale bar" names its length first
    for q in qs:
        m = _SCALE_AFTER.match(text, q.end)
        if m:
            skip.add(q.start)
            named.append(m.end())
    for m in _SCALE.finditer(text):
        if any(m.start() <= end <= m.start() + len("scale") for end in named):
            continue
        after = [q for q in qs if m.start() <= q.start < m.end()]
        head = _SCALE_HEAD.match(text, m.start())
        if after and head is not None and _BAR_LENGTH_LINK.match(
                text[head.end():after[0].start]):
            skip.add(after[0].start)  # stated as the bar's length: "the scale bar shows 50 m"
    kept = [q for q in qs if q.start not in skip]
    if any(q.unit != "cm" for q in kept):  # centimetres measured on the image, not the answer
        kept = [q for q in kept if q.unit != "cm"]
    return kept


# "the 50 m scale bar", "a 100 ft long scale"
_SCALE_AFTER = re.compile(r"\s*-?\s*(?:long\s+|wide\s+)?scale\b", re.IGNORECASE)


def _range(text: str) -> bool:
    """Whether the text gives a range as the length (a range from 0 is a scale bar)."""
    for m in _RANGE.finditer(text):
        if m.group("low") is not None and float(m.group("low").replace(",", "")) == 0:
            continue
        before = text[max(0, m.start() - 60) : m.start()].split(".")[-1]
        bar = list(_SCALE.finditer(before))
        # "Based on the 50 ft scale bar, the length is between 1,000 and 1,500 ft": a
        # range in a new clause after the bar is the answer's, not the bar's ticks
        if bar and not re.search(r"[,;]\s*(?:so\s+|and\s+)?(?:the|its|my)\s+(?:\w+\s+)?"
                                 r"(?:length|distance|route|path)\b",
                                 before[bar[-1].start():], re.IGNORECASE):
            continue
        return True
    return False


def _in_unit(qs: list[Quantity], unit: str) -> Quantity:
    """Of lengths that state one value in several units (``150 m, about 490 ft``), the
    one in the unit asked; else the first."""
    return next((q for q in qs if q.unit == unit), qs[0])


# "50 m (about 160 ft)": the gap between a length and its other unit's value in brackets
_CONVERTED_GAP = re.compile(r"\s*[(\[]\s*(?:(?:about|approx(?:imately|\.)?|around|roughly|"
                            r"ca\.?|~|≈)\s*)?$", re.IGNORECASE)


def _converted_in_unit(text: str, qs: list[Quantity], unit: str) -> Quantity | None:
    """The asked unit's length when a length in one system (metric or imperial) is
    followed by its rounded value in the asked unit of the other in brackets (since
    fix24zp); ``None`` otherwise.

    Examples
    --------
    >>> t = "Answer: ~50 m (about 160 ft)"
    >>> _converted_in_unit(t, find_quantities(t), "ft").value
    160.0
    >>> t = "Answer: 50 m (300 ft)"
    >>> _converted_in_unit(t, find_quantities(t), "ft") is None
    True
    """
    if len(qs) != 2:
        return None
    first, second = qs
    metric = {"m", "km", "cm"}
    if (second.unit != unit or first.unit == unit
            # "0.5 km (520 m)": within one system the first written counts (as before)
            or (first.unit in metric) == (second.unit in metric)
            or not _CONVERTED_GAP.fullmatch(text[first.end:second.start])
            or not re.match(r"\s*[)\]]", text[second.end:])):
        return None
    # a rounded conversion of the same length, not another length
    return second if abs(first.metres - second.metres) <= 0.1 * first.metres else None


def _length_in(segment: str, unit: str, *, bare_only: bool = False) -> ParseResult | None:
    """The length in one answer segment; ``None`` when it holds none."""
    hedged = hedge(segment)
    if hedged:
        return None if bare_only else Invalid(f"a hedged answer ({hedged})")
    if _range(segment):
        return None if bare_only else Invalid("a range, not one length")
    qs = _answer_quantities(segment) or find_quantities(segment)
    if bare_only:
        if len(qs) == 1 and re.fullmatch(r"\W*(?:(?:about|approx(?:imately|\.)?|around|roughly|"
                                         r"~|est(?:imated|\.)?)\s*)?", segment[: qs[0].start],
                                         re.IGNORECASE) and not re.search(
                                             r"[A-Za-z]{3,}", segment[qs[0].end :]):
            return _length_result(qs[0], unit)
        return None
    if qs:
        same = _single_value([q.metres for q in qs], rel_tol=0.01) is not None
        ends = [q for q in qs[1:] if concluded(segment, q.start, q.end)]
        if not same and ends:  # "Answer: 120 m + 80 m = 200 m"
            return _length_result(ends[-1], unit)
        if not same and (converted := _converted_in_unit(segment, qs, unit)) is not None:
            return _length_result(converted, unit)
        return _length_result(_in_unit(qs, unit) if same else qs[0], unit)
    nums = find_numbers(segment, words=False)
    if nums:
        if _BARE_RANGE.search(segment):  # "Answer: 0.2-0.3" with no unit: still a range
            return Invalid("a range, not one length")
        return _unitless(nums[0].value, unit)
    return None


_BARE_RANGE = re.compile(r"(?<![\d.,])\d[\d,]*(?:\.\d+)?\s*(?:-|to|or)\s*\d", re.IGNORECASE)
_RANGE_UNIT = r"(?:km|kilomet(?:er|re)s?|m|met(?:er|re)s?|ft|feet|foot|mi|miles?|yards?|yd)"
_RANGE = re.compile(
    rf"(?<![\d.,])(?P<low>\d[\d,]*(?:\.\d+)?)\s*(?:{_RANGE_UNIT}\s*)?[\])]?\s*(?:-|to|or)\s*"
    rf"[\[(]?\s*\d[\d,.]*\s*"
    rf"{_RANGE_UNIT}(?![A-Za-z])"
    r"|\bbetween\s+(?:about\s+|approximately\s+)?\d",
    re.IGNORECASE,
)


_FRACTION_UNIT = (r"(?P<unit>kilomet(?:er|re)s?|kms?|met(?:er|re)s?|miles?|mi|feet|foot|ft|"
                  r"yards?|yds?)(?![A-Za-z])")
_FRACTION_WORDS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
_WHOLE_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
# a length said in words with a fraction and no digit: "half a kilometre", "a quarter of
# a mile", "three quarters of a km", "a kilometre and a half", "one and a half miles"
_FRACTION_LENGTH = re.compile(
    r"\b(?:(?P<parts>a|an|one|two|three)\s+)?(?P<frac>half|quarters?|thirds?)\s+(?:of\s+)?an?\s+"
    + _FRACTION_UNIT.replace("unit", "u1")
    + r"|\b(?P<whole>an?|one|two|three|four|five)\s+(?:(?P<u2pre>"
    + _FRACTION_UNIT.replace("?P<unit>", "").replace("(?![A-Za-z])", "")
    + r")\s+and\s+an?\s+(?P<frac2>half|quarter|third)|and\s+an?\s+(?P<frac3>half|quarter|third)\s+"
    + _FRACTION_UNIT.replace("unit", "u3") + r")(?![A-Za-z])",
    re.IGNORECASE,
)


# a second length offered after one said in words: "half a mile or a kilometre", "... to 1"
_WORDS_ALTERNATIVE = re.compile(
    r"\s*,?\s*(?:or|to)\s+(?:so\s+)?(?:about\s+|maybe\s+)?(?:an?|one|two|three|half|\d)\b",
    re.IGNORECASE)


def fraction_lengths(text: str) -> list[Quantity]:
    """Lengths said in words with a fraction (``half a kilometre``, ``a quarter of a
    mile``, ``a kilometre and a half``, ``two and a half miles``); no digit is read here.

    Examples
    --------
    >>> [(q.value, q.unit) for q in fraction_lengths("roughly half a kilometre long")]
    [(0.5, 'km')]
    >>> [(q.value, q.unit) for q in fraction_lengths("about a kilometre and a half")]
    [(1.5, 'km')]
    >>> [(q.value, q.unit) for q in fraction_lengths("three quarters of a km")]
    [(0.75, 'km')]
    >>> [(q.value, q.unit) for q in fraction_lengths("two and a half miles")]
    [(2.5, 'mi')]
    >>> fraction_lengths("half of the path, half way along")
    []
    """
    out: list[Quantity] = []
    for m in _FRACTION_LENGTH.finditer(text):
        if m.group("frac"):
            frac = _FRACTION_WORDS[m.group("frac").lower().rstrip("s")]
            parts = m.group("parts")
            plural = m.group("frac").lower().endswith("s")
            n = _WHOLE_WORDS[parts.lower()] if parts else 1
            if plural != (n > 1) and not (plural is False and parts is None):
                continue  # "a quarters of", "three quarter of": not a fraction said so
            value, spelt = n * frac, m.group("u1")
        else:
            whole = _WHOLE_WORDS[m.group("whole").lower()]
            frac_word = m.group("frac2") or m.group("frac3")
            value = whole + _FRACTION_WORDS[frac_word.lower()]
            spelt = m.group("u2pre") or m.group("u3")
        out.append(Quantity(value, _UNIT_SPELLINGS[spelt.lower()], m.start(), m.end()))
    return out


def _length_result(q: Quantity, unit: str) -> Parsed:
    value = convert_length(q.value, q.unit, unit)
    notes = () if q.unit == unit else (f"converted {_fmt(q.value)} {q.unit} to {unit}",)
    return Parsed({"value": value, "unit": unit, "raw_value": q.value, "raw_unit": q.unit}, notes)
