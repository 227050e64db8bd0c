"""Parsers for MapWise's answer forms: ``My answer is [Yes]``, ``[Maharashtra]``, ``[4]``,
``[MH, UP]``, ``[1k - 2k]``, ``[MH, UP = TN, GA]``.

Each reads the text after the last "answer is" (brackets dropped) when there is one,
else the whole response. Regions may be written by name (current or older, e.g. Orissa)
or by code; they come back as codes of the item's country.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cartoqa.metrics.mapwise import parse_range
from cartoqa.parsing.mapiq import answer_part
from cartoqa.parsing.numbers import parse_count
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from groundtruth.thematic.countries import region_code

_SPLIT = re.compile(r",|;|\n|\band\b", re.IGNORECASE)


def _country(item: Mapping[str, Any]) -> str:
    return str((item.get("provenance") or {}).get("country")
               or (item.get("strata") or {}).get("country") or "usa")


def _regions(country: str, text: str) -> list[str] | None:
    tokens = [t for t in _SPLIT.split(text) if t.strip()]
    out: list[str] = []
    for t in tokens:
        key = re.sub(r"^\s*\d+[.)]\s*", "", t)  # "1. Bihar"
        key = re.sub(r"\(([A-Za-z]{2})\)", r" \1 ", key).strip(" .")
        code = region_code(country, key)
        if code is None:  # "Maharashtra (MH)": try the parts
            parts = [region_code(country, p) for p in re.split(r"\s{2,}", key) if p.strip()]
            code = next((p for p in parts if p), None)
        if code is None:
            return None
        if code not in out:
            out.append(code)
    return out


def parse_region(item: Mapping[str, Any], text: str) -> ParseResult:
    """One region (the first named, when several are).

    Examples
    --------
    >>> parse_region({"provenance": {"country": "india"}}, "My answer is [Orissa]").value
    {'regions': ['OD']}
    >>> parse_region({"provenance": {"country": "china"}}, "Guangdong (GD)").value
    {'regions': ['GD']}
    >>> parse_region({"provenance": {"country": "china"}}, "Atlantis").valid
    False
    """
    regions = _regions(_country(item), answer_part(text))
    if not regions:
        return Invalid("no region of this map")
    return Parsed({"regions": regions})


def parse_region_list(item: Mapping[str, Any], text: str) -> ParseResult:
    """A list of regions (``[]`` or "none" for the empty list).

    Examples
    --------
    >>> parse_region_list({"provenance": {"country": "usa"}}, "My answer is [TX, Ohio]").value
    {'items': ['OH', 'TX']}
    >>> parse_region_list({"provenance": {"country": "usa"}}, "My answer is []").value
    {'items': []}
    """
    part = answer_part(text)
    if not part.strip() or re.fullmatch(r"\s*none\.?\s*", part, re.IGNORECASE):
        if re.search(r"\[\s*\]|\bnone\b", text, re.IGNORECASE):
            return Parsed({"items": []})
        return Invalid("no list")
    regions = _regions(_country(item), part)
    if regions is None:
        return Invalid("a name that is no region of this map")
    return Parsed({"items": sorted(regions)})


def parse_range_answer(item: Mapping[str, Any], text: str) -> ParseResult:
    """A range ``lo - hi`` with units and suffixes normalised (``1k`` = 1000).

    Examples
    --------
    >>> parse_range_answer({}, "My answer is [1.5k - 2k]").value
    {'range': [1500.0, 2000.0]}
    """
    got = parse_range(answer_part(text))
    if got is None:
        return Invalid("no range of two numbers")
    return Parsed({"range": list(got)})


def parse_rank(item: Mapping[str, Any], text: str) -> ParseResult:
    """An order of regions, highest first; ``=`` joins regions given the same rank.

    Returns ``{"ranks": {code: rank}}`` with competition ranks (``A, B = C, D`` gives
    1, 2, 2, 4).

    Examples
    --------
    >>> parse_rank({"provenance": {"country": "india"}}, "My answer is [MH, UP = TN, GA]").value
    {'ranks': {'MH': 1, 'UP': 2, 'TN': 2, 'GA': 4}}
    >>> parse_rank({"provenance": {"country": "india"}}, "My answer is [MH > Bihar > Goa]").value
    {'ranks': {'MH': 1, 'BR': 2, 'GA': 3}}
    """
    country = _country(item)
    part = answer_part(text).replace(">", ",")
    ranks: dict[str, int] = {}
    position = 1
    for group in [g for g in re.split(r",|;|\n", part) if g.strip()]:
        members = _regions(country, group.replace("=", ","))
        if not members:
            return Invalid(f"no region in {group.strip()!r}")
        for m in members:
            if m in ranks:
                return Invalid(f"{m} ranked twice")
            ranks[m] = position
        position += len(members)
    if len(ranks) < 2:
        return Invalid("fewer than two regions ranked")
    return Parsed({"ranks": ranks})


def parse_count_answer(text: str) -> ParseResult:
    """A whole number, read from the text after "answer is" when there is one.

    Examples
    --------
    >>> parse_count_answer("My answer is [4]").value
    {'count': 4}
    """
    return parse_count(answer_part(text) or text)


def mapwise_answer_text(item: Mapping[str, Any]) -> str:
    """The item's own answer in MapWise's response format (scores 1.0).

    Examples
    --------
    >>> mapwise_answer_text({"request": "rank", "answer": {"order": ["MH", "UP"]}})
    'My answer is [MH, UP]'
    """
    request, answer = item.get("request"), item.get("answer") or {}
    if request == "binary":
        return f"My answer is [{'Yes' if answer['value'] else 'No'}]"
    if request == "single":
        return f"My answer is [{answer['accepted'][0]}]"
    if request == "count":
        return f"My answer is [{answer['count']}]"
    if request == "list":
        return f"My answer is [{', '.join(answer['items'])}]"
    if request == "range":
        return f"My answer is [{answer['text']}]"
    if request == "rank":
        return f"My answer is [{', '.join(answer['order'])}]"
    raise ValueError(f"unknown MapWise request {request!r}")
