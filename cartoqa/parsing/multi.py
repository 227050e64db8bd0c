"""Counts and names of many feature types at once (MTMF): JSON, a table, lines or prose."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from cartoqa.parsing.feature_types import FEATURE_TYPE_SYNONYMS, canonical_type, type_key
from cartoqa.parsing.lists import described_names, parse_names
from cartoqa.parsing.numbers import find_numbers, none_seen_as_no
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.structured import closed_truncation, find_structured
from cartoqa.parsing.text import clean, drop_notes, hedge, normalize_text


def _resolve(key: str, known: dict[str, str]) -> str | None:
    if key in known:
        return known[key]
    return canonical_type(key, known.values())


def _entry(value: Any, map_names: Collection[str] = frozenset()
           ) -> tuple[Any, list[str] | None]:
    """(count, names) from one type's value in many shapes."""
    if isinstance(value, bool):
        return None, None
    if isinstance(value, int | float):
        return value, None
    if isinstance(value, str):
        nums = find_numbers(value)
        return (nums[0].value if nums else None), None
    if isinstance(value, list):
        listed = [str(x) for x in value if isinstance(x, str | int | float)]
        return len(listed), listed
    if isinstance(value, dict):
        lower = {str(k).lower(): v for k, v in value.items()}
        count = lower.get("count", lower.get("number", lower.get("n")))
        names_raw = lower.get("names", lower.get("name"))
        names: list[str] | None = None
        if isinstance(names_raw, list):
            names = [str(x) for x in names_raw if isinstance(x, str | int | float)]
        elif isinstance(names_raw, str):
            parsed = parse_names(names_raw, map_names=map_names)
            names = parsed.value["names"] if isinstance(parsed, Parsed) else []
        if isinstance(count, str):
            nums = find_numbers(count)
            count = nums[0].value if nums else None
        if isinstance(count, bool) or not isinstance(count, int | float):
            count = len(names) if names is not None else None
        return count, names
    return None, None


def _as_mapping(data: Any) -> dict[str, Any] | None:
    if isinstance(data, dict):
        lower = {str(k).lower(): v for k, v in data.items()}
        for wrapper in ("types", "features", "answer"):
            if isinstance(lower.get(wrapper), dict | list) and len(data) <= 3:
                return _as_mapping(lower[wrapper])
        return {str(k): v for k, v in data.items()}
    if isinstance(data, list):
        out: dict[str, Any] = {}
        for row in data:
            if isinstance(row, dict):
                lower = {str(k).lower(): v for k, v in row.items()}
                name = lower.get("type", lower.get("feature", lower.get("feature_type")))
                if isinstance(name, str):
                    out[name] = row
        return out or None
    return None


__all__ = ["FEATURE_TYPE_SYNONYMS", "parse_multi", "type_key"]

# "- Park area: 2 (Kaivopuisto, Esplanadi)", "Bank: 1 - names: Nordea"
_TYPE_LINE = re.compile(
    r"^[ \t]*(?:[-*+]|\d{1,2}[.)])?[ \t]*(?P<type>[A-Za-z][^:\n]{1,40}?)[ \t]*[:=-][ \t]*"
    r"(?P<count>\d+|none|no|zero)\b[ \t]*(?P<rest>.*)$",
    re.IGNORECASE | re.MULTILINE,
)


# "knife-and-fork icons; the named ones are A, B and C": the names after the description
_NAMED_ONES = re.compile(
    r"^(?-i:[a-z])[^;:()]{0,60}?[;:,]\s*(?:the\s+)?(?:named\s+ones?|labell?ed\s+ones?|"
    r"names?|ones?\s+named)\s+(?:are|is|include)\s*:?\s+(?P<names>\S.*)$", re.IGNORECASE)


def _from_lines(text: str, known: dict[str, str],
                map_names: Collection[str] = frozenset()) -> dict[str, Any] | None:
    """``Type: count (names)`` lines, when the response has no JSON."""
    out: dict[str, Any] = {}
    text = _COUNT_IN_BRACKETS.sub(r"\g<head>: \g<count>", text)
    for m in _TYPE_LINE.finditer(_one_type_a_line(text, known)):
        if _resolve(type_key(m.group("type")), known) is None:
            continue
        raw = m.group("count").lower()
        count = int(raw) if raw.isdigit() else 0
        # "9 — A, B, C (one icon has no name)": the dash before the names is no part of them
        rest = re.sub(r"^[\s(\[:;,\-\u2013\u2014]*(?:names?\s*[:=-]?\s*)?", "", m.group("rest"))
        rest = rest.rstrip(". ")
        rest = described_names(_unclosed_tail(rest))  # "A, one unnamed": A (fix24zp)
        said = _NAMED_ONES.match(rest)  # "6 icons; the named ones are A, B and C" (fix24zp)
        if said is not None:
            rest = said.group("names")
        names: list[str] = []
        if rest and not re.match(r"(?:unnamed|no names?|none|n/a)\b", rest, re.IGNORECASE):
            parsed = parse_names(rest, map_names=map_names)
            names = parsed.value["names"] if isinstance(parsed, Parsed) else []
            # "8 (..., Day & Nite Sushi Bar, Bank bar and bistro)": the count the line
            # gives says the last "and" is part of a name, not a list's last join
            parts = [q.strip(" \"'") for q in re.split(r"[;,]", rest) if q.strip(" \"'")]
            if count and len(names) > count and len(parts) == count:
                names = parts
            elif count and len(names) > count:
                joined = _rejoin_lower(names)
                if len(joined) == count:  # "3 (Rautatientori, Rautatientori, laituri 13)"
                    names = joined
        out[m.group("type")] = {"count": count, "names": names}
    return out or None


# "* **Restaurants (4):** Cantina West, ...": a bullet's header with its count in brackets,
# read as the line "Restaurants: 4 Cantina West, ..."
_COUNT_IN_BRACKETS = re.compile(
    r"^(?P<head>[ \t]*(?:[-*+]|\d{1,2}[.)])?[ \t]*[A-Za-z][^:()\n]{1,40}?)[ \t]*"
    r"\([ \t]*(?P<count>\d+)[ \t]*\)[ \t]*:", re.MULTILINE)


# "..., park: 1, parking: 1. All the other types: 0.": a catch-all closing a run of counts
_CATCH_ALL_AFTER = re.compile(
    r"[.;]\s+(?=(?:(?:all|every)\s+(?:the\s+)?(?:other|remaining)|the\s+rest\b|"
    r"everything\s+else|no\s+other|none\s+of\s+the\s+(?:other|remaining|rest)))",
    re.IGNORECASE)


def _one_type_a_line(text: str, known: dict[str, str]) -> str:
    """``text`` with a line that runs several ``type: count`` on broken before each later
    known type and before a closing catch-all, so that no type's names run over the rest.

    Examples
    --------
    >>> k = {"restaurant": "restaurant", "park": "park", "parking": "parking"}
    >>> print(_one_type_a_line("restaurant: 2 (Kuu, Toca), park: 1, parking: 1. "
    ...                        "All the other types: 0.", k))
    restaurant: 2 (Kuu, Toca)
    park: 1
    parking: 1
    All the other types: 0.
    >>> _one_type_a_line("restaurant: 2 (Kuu, park cafe)", k)
    'restaurant: 2 (Kuu, park cafe)'
    """
    types = "|".join(re.escape(n) for n in sorted(set(known.values()), key=len, reverse=True))
    if not types:
        return text
    later = re.compile(rf"[,;.]\s+(?=(?:{types})s?[ \t]*[:=][ \t]*(?:\d+|none|no|zero)\b)",
                       re.IGNORECASE)
    split = later.sub("\n", text)
    if split == text:
        return text
    return _CATCH_ALL_AFTER.sub("\n", split)


def _unclosed_tail(rest: str) -> str:
    """``rest`` less a closing bracket at its end that no bracket in it opens (the one
    the names were opened in), keeping a note's own ``(...)``.

    Examples
    --------
    >>> _unclosed_tail("Kuu, Hiisi)."), _unclosed_tail("Kuu, Toca (one has no name)")
    ('Kuu, Hiisi', 'Kuu, Toca (one has no name)')
    """
    rest = rest.rstrip(". ")
    for close, opening in ((")", "("), ("]", "[")):
        if rest.endswith(close) and rest.count(close) > rest.count(opening):
            rest = rest[:-1].rstrip(". ")
    return rest


def _rejoin_lower(names: list[str]) -> list[str]:
    """Names split at a comma, with a piece that opens in lower case (or a digit) put
    back onto the name before it: the rest of that name (``Rautatientori, laituri 13``).

    Examples
    --------
    >>> _rejoin_lower(["Rautatientori", "Rautatientori", "laituri 13"])
    ['Rautatientori', 'Rautatientori, laituri 13']
    >>> _rejoin_lower(["Kamppi", "Forum"])
    ['Kamppi', 'Forum']
    """
    out: list[str] = []
    for name in names:
        if out and name[:1] and (name[:1].islower() or name[:1].isdigit()):
            out[-1] = f"{out[-1]}, {name}"
        else:
            out.append(name)
    return out


_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$", re.MULTILINE)
_NO_NAMES = re.compile(r"[\s\-\u2013\u2014]*|(?:none|n/a|unnamed|no names?)\W*", re.IGNORECASE)
_NUMBERISH = re.compile(r"[\W\d_]*(?:m|km|ft|mi|metres?|meters?|%)?\W*", re.IGNORECASE)
_RULE = re.compile(r"^[\s|:\-]+$")


def _from_table(text: str, known: dict[str, str], map_names: Collection[str] = frozenset()
                ) -> dict[str, Any] | Invalid | None:
    """A markdown table ``| type | count | names |`` (columns found by their headers).

    The names are in the column headed *name*/*label*; without such a header, in the
    one other column whose cells are names (not numbers); two such columns are
    ambiguous (``Invalid``), never "the third column" by default.

    Examples
    --------
    >>> _from_table("| Type | Count | Names |\\n|---|---|---|\\n| Bank | 1 | Nordea |",
    ...             {"bank": "bank"})
    {'Bank': {'count': 1, 'names': ['Nordea']}}
    >>> _from_table("| Type | Count | Street | Example |\\n|---|---|---|---|\\n"
    ...             "| Bank | 1 | Mikonkatu | Nordea |", {"bank": "bank"}).reason
    "a table with several columns that could hold the names ('street', 'example')"
    """
    rows = [[c.strip() for c in m.group("cells").split("|")] for m in _ROW.finditer(text)
            if not _RULE.match(m.group(0))]
    if len(rows) < 2:
        return None
    header = [h.lower() for h in rows[0]]
    has_header = not any(_resolve(type_key(h), known) for h in rows[0])

    def column(words: tuple[str, ...], default: int) -> int:
        if has_header:
            for i, h in enumerate(header):
                if any(w in h for w in words):
                    return i
        return default

    kind, count, names = (column(("type", "feature", "category"), 0),
                          column(("count", "number", "how many", "#"), 1),
                          column(("name", "label"), -1))
    body_rows = rows[1:] if has_header else rows
    if names < 0:
        width = max(len(r) for r in rows)
        holding = [i for i in range(width) if i not in (kind, count) and any(
            i < len(r) and not _NO_NAMES.fullmatch(r[i]) for r in body_rows)]
        named = [i for i in holding
                 if all(i >= len(r) or not _NUMBERISH.fullmatch(r[i]) for r in body_rows)]
        if len(named) > 1:
            shown = ", ".join(repr(header[i]) if has_header else f"column {i + 1}"
                              for i in named)
            return Invalid(f"a table with several columns that could hold the names ({shown})")
        names = named[0] if named else width
    out: dict[str, Any] = {}
    for row in body_rows:
        if kind >= len(row) or _resolve(type_key(row[kind]), known) is None:
            continue
        raw = row[count] if count < len(row) else ""
        number = re.match(r"\s*(\d+)", raw)
        listed: list[str] = []
        cell = row[names] if names < len(row) else ""
        if cell and not _NO_NAMES.fullmatch(cell):
            parsed = parse_names(cell, map_names=map_names)
            listed = parsed.value["names"] if isinstance(parsed, Parsed) else []
        out[row[kind]] = {"count": int(number.group(1)) if number else len(listed),
                          "names": listed}
    return out or None


_COUNT_WORDS = {"no": 0, "zero": 0, "a": 1, "an": 1, "single": 1, "one": 1, "two": 2,
                "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_PROSE_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|\d+")
# "None of the other feature types appear", "no other types", "all other types: 0", "I
# don't see any of the other listed types"
_REST_ABSENT = re.compile(
    r"\b(?:none\s+of\s+the\s+(?:other|remaining|rest)|no\s+other|nothing\s+else|"
    r"(?:everything|anything)\s+else\s*(?:is|are|:|=|-)\s*(?:0|zero|none|absent)\b|"
    r"(?:all|every)\s+(?:the\s+)?(?:other|remaining)|the\s+rest\b|"
    r"(?:don't|do\s+not|cannot|can't|didn't|did\s+not|couldn't|could\s+not)\s+"
    r"(?:see|find|spot|notice)\s+any\s+(?:of\s+the\s+)?(?:other|remaining)|"
    r"(?:aren't|are\s+not|there\s+are\s+no(?:ne)?)\s+(?:any\s+)?(?:of\s+the\s+)?"
    r"(?:other|remaining)\b|"
    r"(?:the\s+)?(?:other|remaining)\s+(?:\d+\s+|\w+\s+)?(?:feature\s+)?types?\s+"
    r"(?:are|have|show|do|does|don't|aren't|were)\b)", re.IGNORECASE)
# "the other types are hard to read": the rest is unanswered, not absent
_REST_UNREAD = re.compile(
    r"\b(?:other|remaining|rest)\b[^.;\n]{0,40}?\b(?:hard|difficult|impossible|too\s+small|"
    r"unclear|illegible|unreadable|blurry|not\s+(?:readable|legible|clear)|(?:can't|cannot|"
    r"could\s+not|couldn't)\s+(?:tell|read|make\s+out|identify))", re.IGNORECASE)
_NAMES_AFTER = re.compile(r"^\s*\((?P<names>[^()]*)\)")
_NO_NAME = re.compile(r"^\s*(?:unnamed|no\s+names?|not\s+named|none|n/a|no\s+label\w*|"
                      r"name\s+not\s+(?:visible|legible|readable)|without\s+(?:a\s+)?names?)"
                      r"\W*$", re.IGNORECASE)


# names after a colon, to the sentence's end or to ", and <count> ...": "3 restaurants: Jufu,
# Ravintola Hausman and Woolshed. ..."
_NAMES_AFTER_COLON = re.compile(
    r"^:[ \t]*(?P<names>[^.;\n()]+?)(?=[ \t]*(?:[.;](?:\s|$)|$|\n|,?\s+and\s+(?:\d+|an?|one|two|"
    r"three|four|five|six|seven|eight|nine|ten)\s))", re.IGNORECASE)


def _prose_names(after: str, map_names: Collection[str], count: int = 0) -> list[str]:
    """The names said right after a count and its type in prose: in brackets, or after a
    colon when every one is a proper name (capitalised), else none. After a colon, one
    item ``A and B`` is two names when the count is two.

    Examples
    --------
    >>> _prose_names(": Jufu, Ravintola Hausman and Woolshed. All others are 0.", ())
    ['Jufu', 'Ravintola Hausman', 'Woolshed']
    >>> _prose_names(" (Kuu, Hiisi) and one park.", ()), _prose_names(": one is unnamed.", ())
    (['Kuu', 'Hiisi'], [])
    >>> _prose_names(": Jufu and Woolshed, and 1 bank", (), 2)
    ['Jufu', 'Woolshed']
    """
    bracket = _NAMES_AFTER.match(after)
    if bracket:
        said = described_names(bracket.group("names"))  # "Kuu and one unnamed": Kuu
        if _NO_NAME.match(said):
            return []
        parsed = parse_names(said, map_names=map_names)
        return parsed.value["names"] if isinstance(parsed, Parsed) else []
    colon = _NAMES_AFTER_COLON.match(after)
    if colon is None or _NO_NAME.match(colon.group("names")):
        return []
    parsed = parse_names(colon.group("names"), map_names=map_names)
    names = parsed.value["names"] if isinstance(parsed, Parsed) else []
    if len(names) == 1 and count == 2 and " and " in names[0]:
        names = [n.strip() for n in names[0].split(" and ", 1)]
    return names if all(n[:1].isupper() or n[:1].isdigit() for n in names) else []


def _from_prose(text: str, known: dict[str, str], map_names: Collection[str] = frozenset()
                ) -> dict[str, Any] | Invalid | None:
    """Counts told in prose: ``I can see one restaurant (Family), one coffee shop
    (Espresso edge) and one park. None of the other feature types appear.``

    Each ``<count> <type> (<names>)`` (a digit or number word, ``a``/``an``/``no``;
    types as in :func:`canonical_type`) gives that type's count and names. Read only
    when the prose covers every type: it names them all, or says the others are absent
    (``none of the other``, ``no other``, ``all other types``, ``the rest``). A hedge, a
    count given as alternatives (``2 or 3 parks``) or two different counts of one type
    make it invalid.

    Examples
    --------
    >>> k = {"restaurant": "restaurant", "park": "park", "bank": "bank"}
    >>> _from_prose("I see two restaurants (Kuu, Hiisi) and one park. No other types.", k)
    {'restaurant': {'count': 2, 'names': ['Kuu', 'Hiisi']}, 'park': {'count': 1, 'names': []}}
    >>> _from_prose("I see two restaurants (Kuu, Hiisi) and one park.", k).reason
    'counts in prose that leave types unsaid (bank)'
    """
    text = none_seen_as_no(text)  # "I don't see any banks": no banks
    words = list(_PROSE_WORD.finditer(text))
    out: dict[str, Any] = {}
    for i, w in enumerate(words):
        token = w.group().lower()
        if not (token.isdigit() or token in _COUNT_WORDS):
            continue
        for size in (4, 3, 2, 1):
            if i + size >= len(words):
                continue
            first, last = words[i + 1], words[i + size]
            phrase = text[first.start():last.end()]
            if "\n" in phrase or re.search(r"[.,;:()]", phrase):
                continue
            canonical = canonical_type(phrase, known.values())
            if canonical is None:
                continue
            before = text[max(0, w.start() - 12):w.start()]
            if re.search(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten))"
                         r"\s*(?:or|to|-|\u2013)\s*$", before, re.IGNORECASE):
                return Invalid(f"a range or alternatives ({before.strip()} {token} {phrase})")
            count = int(token) if token.isdigit() else _COUNT_WORDS[token]
            names = _prose_names(text[last.end():], map_names, count)
            seen = out.get(canonical)
            if seen is not None and seen["count"] != count:
                return Invalid(f"several different counts of {canonical} "
                               f"({seen['count']}, {count})")
            out[canonical] = {"count": count, "names": names or (seen or {}).get("names", [])}
            break
    if not out:
        return None
    doubt = hedge(text)
    if doubt:
        return Invalid(f"a hedged answer ({doubt})")
    unsaid = [name for name in known.values() if name not in out]
    if unsaid and (not _REST_ABSENT.search(text) or _REST_UNREAD.search(text)):
        return Invalid(f"counts in prose that leave types unsaid ({', '.join(unsaid[:5])})")
    return out


def _before_cut_json(text: str) -> str | None:
    """The text before a JSON object that the response opens and never closes (cut off
    by the token limit), when there is text before it; ``None`` otherwise.

    Examples
    --------
    >>> _before_cut_json('- bank: 1\\n\\n```json\\n{"bank": {"count": 1, "na')
    '- bank: 1\\n\\n'
    >>> _before_cut_json('- bank: 1\\n{"bank": 1}') is None
    True
    """
    depth, start, quoted, escaped = 0, -1, False, False
    for i, ch in enumerate(text):
        if quoted:
            escaped, quoted = (not escaped and ch == "\\"), quoted and (escaped or ch != '"')
            continue
        if ch == '"':
            quoted = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
    if depth == 0 or start <= 0:
        return None
    before = re.sub(r"```[A-Za-z]*\s*$", "", text[:start])
    return before if before.strip() else None


def parse_multi(text: str, *, types: Sequence[str],
                map_names: Collection[str] = frozenset()) -> ParseResult:
    """Parse counts and names of many feature types from a JSON answer.

    A markdown table (``| type | count | names |``) or ``Type: count (names)`` lines
    are read when there is no JSON, else counts told in prose that cover every type
    (:func:`_from_prose`). The JSON may sit in a code fence or among other
    text, use single quotes or
    trailing commas, wrap the types in ``{"types": ...}``, or be a list of
    ``{"type": ..., "count": ..., "names": [...]}`` rows. Each type's value may be
    ``{"count": n, "names": [...]}``, a bare number, or a list of names (its length is
    the count). Type names are matched with :func:`type_key` and the synonym table
    :data:`~cartoqa.parsing.feature_types.FEATURE_TYPE_SYNONYMS` (CartoMapQA's names
    such as ``Car parking lot`` and common variants). A type the response leaves out
    counts as 0 with no names (with a note); unknown keys are ignored (with a note).

    Parameters
    ----------
    text : str
        The raw response.
    types : sequence of str
        The item's feature types (the keys of its answer's ``types``).
    map_names : collection of str, optional
        Normalised names the map writes, to tell ``A & B`` from one name
        (:func:`cartoqa.parsing.lists.parse_names`).

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"types": {type: {"count": n, "names": [...]}}})`` over all ``types``.

    Examples
    --------
    >>> r = parse_multi('```json\\n{"Restaurants": {"count": 2, "names": ["A"]}}\\n```',
    ...                 types=["restaurant", "bank"])
    >>> r.value["types"]["restaurant"], r.value["types"]["bank"]
    ({'count': 2, 'names': ['A']}, {'count': 0, 'names': []})
    """
    t = normalize_text(text)
    if not t.strip():
        return Invalid("empty response")
    known = {type_key(name): name for name in types}
    mappings: list[dict[str, Any]] = []
    body = drop_notes(t)
    for scope in (body, t) if body != t else (t,):  # JSON in a note after the answer is not it
        for kind in (dict, list):
            # a JSON answer cut off before its closing brackets: what is complete
            found = _as_mapping(closed_truncation(scope, kind=kind)
                                or find_structured(scope, kind=kind))
            if found is not None:
                mappings.append(found)
                if any(_resolve(type_key(k), known) is not None for k in found):
                    break  # an object naming known types: no need to look for a list
        if mappings:
            break
    cut = _before_cut_json(t) if mappings else None
    if cut is not None:
        # since fix24zp: a JSON cut off by the token limit after a fuller answer in lines
        # or a table: the fuller answer
        def known_in(m: dict[str, Any]) -> int:
            return sum(_resolve(type_key(k), known) is not None for k in m)
        earlier = _from_table(clean(cut), known, map_names) or _from_lines(
            clean(cut), known, map_names)
        if isinstance(earlier, dict) and known_in(earlier) > max(known_in(m) for m in mappings):
            mappings = [earlier]
    if not mappings:
        plain = clean(t)
        lines = (_from_table(plain, known, map_names) or _from_lines(plain, known, map_names)
                 or _from_prose(drop_notes(plain), known, map_names))
        if isinstance(lines, Invalid):
            return lines
        if lines is None:
            return Invalid("no JSON object found")
        mappings = [lines]
    data = max(
        mappings, key=lambda m: sum(_resolve(type_key(k), known) is not None for k in m)
    )
    out: dict[str, dict[str, Any]] = {}
    unknown = []
    for key, value in data.items():
        canonical = _resolve(type_key(key), known)
        if canonical is None:
            unknown.append(key)
            continue
        count, names = _entry(value, map_names)
        if count is None:
            continue
        if float(count).is_integer():
            count = int(count)
        out[canonical] = {"count": count, "names": names or []}
    if not out:
        return Invalid("no known feature type in the JSON")
    notes = []
    missing = [name for name in types if name not in out]
    if missing and _REST_UNREAD.search(clean(t)):
        # "Restaurant: 2 ... The other types are hard to read.": those types are
        # unanswered, not absent (as in prose)
        return Invalid(f"types said to be unreadable ({', '.join(missing[:5])})")
    for name in missing:
        out[name] = {"count": 0, "names": []}
    if missing:
        notes.append(f"{len(missing)} types missing: read as 0")
    if unknown:
        notes.append(f"ignored unknown keys: {', '.join(map(str, unknown[:5]))}")
    return Parsed({"types": {name: out[name] for name in types}}, tuple(notes))
