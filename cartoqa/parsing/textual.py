"""Textual answers of FRIEDA: names (``;`` lists), or one of the areas a question names.

FRIEDA's textual questions ask for the name of a drawn feature, a ``;``-separated list
of names, or, for *equal*, which of two outlined areas (``Area A``, ``Area B``) is the
named one. :func:`parse_textual` reads all of them by the shared rules
(:mod:`cartoqa.parsing.rules`): the last real cue wins, hedges and ``A or B`` are
invalid, an answer in a sentence without a cue (``It is B.``, ``Porthania is bordered
by Yliopistonkatu.``) is read from the sentence, and an option the question names may
be given by its letter or its text (``Answer: Area B``).
"""

from __future__ import annotations

import re
from collections.abc import Collection

from cartoqa.parsing.kinds import Options, parse_options
from cartoqa.parsing.lists import bold_names, parse_names
from cartoqa.parsing.map_names import (
    GENERIC_TAILS,
    category_short_form,
    offers_alternatives,
    snap_to_map,
)
from cartoqa.parsing.names import normalise_name
from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import alternatives, hedged, read_answer, sentence_answer
from cartoqa.parsing.text import answer_segments, clean, json_answer, normalize_text

# "Area A and Area B", "Map 2 outlines two areas, A and B", "Answer A or B."
_NAMED = re.compile(r"\b(?P<word>Area|Option|Feature|Place|Region|Polygon|Candidate)\s+"
                    r"(?P<letter>[A-H])\b")
_LETTERS = re.compile(r"\b(?:areas?|options?|answer)\s*,?\s+(?P<a>[A-H])\s+(?:and|or)\s+"
                      r"(?P<b>[A-H])\b", re.IGNORECASE)


def question_options(question: str) -> dict[str, str]:
    """The options a question names: ``{"A": "Area A", "B": "Area B"}``, or ``{}``.

    Examples
    --------
    >>> question_options("Map 2 outlines two areas, A and B. Which is it? Answer A or B.")
    {'A': 'Area A', 'B': 'Area B'}
    >>> question_options("Which street borders Porthania?")
    {}
    """
    found = {m.group("letter"): f"{m.group('word')} {m.group('letter')}"
             for m in _NAMED.finditer(question or "")}
    for m in _LETTERS.finditer(question or ""):
        for letter in (m.group("a"), m.group("b")):
            found.setdefault(letter, f"Area {letter}")
    return dict(sorted(found.items()))


# "Aikatalo borders Mikonkatu.": the question's own feature, a relation, the answer
_RELATION = re.compile(
    r"^\s*(?P<s>[^.?\n]+?)\s+(?:(?:partly|partially|entirely|wholly|fully|directly)\s+)?"
    r"(?:borders|overlaps|touches|intersects|adjoins|meets|crosses|contains|"
    r"is\s+(?:adjacent|next)\s+to|lies\s+(?:(?:entirely|wholly|fully)\s+)?(?:with)?in)\s+"
    r"(?:with\s+|on\s+)?(?:the\s+)?(?P<x>[^.?\n]+?)\s*[.!]?$",
    re.IGNORECASE,
)


def _object_of_relation(segment: str, question: str) -> str | None:
    """The answer of ``<question's feature> borders <answer>``, or ``None``.

    ``None`` too when the object is what the question itself names, with or without a
    generic word after it: in ``Pohjoinen Makasiinikatu borders the commercial building
    area.``, asked "which one of ... borders an area shown as commercial building", the
    answer is the subject.
    """
    m = _RELATION.match(segment) if question and "\n" not in segment.strip() else None
    if m is None:
        return None
    subject = m.group("s").strip(" *\"'")
    subject = re.sub(r"^the\s+", "", subject, flags=re.IGNORECASE)
    asked = question.casefold()
    obj = m.group("x").strip()
    bare = re.sub(r"\s+(?:" + "|".join(GENERIC_TAILS) + r")$", "", obj, flags=re.IGNORECASE)
    if subject.casefold() not in asked or obj.casefold() in asked or bare.casefold() in asked:
        return None
    return obj


# "Kauppatori (Market Square)": a translation or gloss of two or more words in brackets at
# the end of a name is not part of a FRIEDA legend name (a one-word bracket is kept). Not
# applied to the street tasks: OSM names carry such brackets ("Ravintola Aino (Finnish
# cuisine)", "Turistibussit (Tourist buses)" on the Helsinki map).
_GLOSS = re.compile(r"(?<=\S)\s+\((?=[A-Z])[^()\s]+(?:\s+[^()\s]+)+\)\s*$")


# an answer that is only a marker's colour: "The blue dot.", "It's the purple dot."
_COLOUR_ONLY = re.compile(r"(?:(?:it|that)(?:'s|\s+is)\s+)?(?:the\s+)?(?P<colour>[a-z]+)\s+"
                          r"(?P<mark>dot|marker|point|circle)\s*[.!]?", re.IGNORECASE)


def colour_key_name(segment: str, question: str,
                    map_names: Collection[str] = frozenset()) -> str | None:
    """The one name the question marks with the colour an answer names instead of a name.

    ``The blue dot.`` answers ``Which of Bik Bok (blue dot), Pihlajalinna (purple dot) ...``
    with Bik Bok: the question itself keys the colour to one name of the legend. Only an
    answer that is nothing but the marker is read so, and only when exactly one legend
    name stands before ``(<colour> dot)`` in the question.

    Examples
    --------
    >>> q = "Which of Bik Bok (blue dot), Pihlajalinna (purple dot) lies within X?"
    >>> names = {"bik bok", "pihlajalinna"}
    >>> colour_key_name("The blue dot.", q, names), colour_key_name("It's the purple dot", q, names)
    ('bik bok', 'pihlajalinna')
    >>> colour_key_name("The green dot.", q, names), colour_key_name("blue", q, names)
    (None, None)
    >>> colour_key_name("The blue dot is Bik Bok.", q, names) is None
    True
    """
    m = _COLOUR_ONLY.fullmatch(segment.strip())
    if m is None or not map_names:
        return None
    key = re.compile(rf"([^()]*?)\(\s*(?:the\s+)?{re.escape(m['colour'])}\s+{m['mark']}\s*\)",
                     re.IGNORECASE)
    hits = {k for km in key.finditer(question) for k in map_names
            if f" {normalise_name(km.group(1))}".endswith(f" {k}")}
    return hits.pop() if len(hits) == 1 else None


def _slashed_names(whole: str, map_names: Collection[str]) -> bool:
    """Whether a whole answer is two or more of the map's names joined by ``/`` (and is
    not itself one name the map writes): a choice left open, not an answer.

    Examples
    --------
    >>> known = {"gigantti", "at lastenturva", "rautatientori / ita kaupunkipyoraasema"}
    >>> _slashed_names("Gigantti / AT Lastenturva", known)
    True
    >>> _slashed_names("Gigantti / Kamppi", known), _slashed_names("Gigantti", known)
    (False, False)
    """
    parts = [p.strip() for p in re.split(r"\s*/\s*", whole)]
    return (len(parts) > 1 and normalise_name(whole) not in map_names
            and all(p and normalise_name(p) in map_names for p in parts))


def _read_names(segment: str, question: str = "",
                map_names: Collection[str] = frozenset()) -> ParseResult | None:
    bad = hedged(segment)
    if bad is not None:
        return bad
    keyed = colour_key_name(segment, question, map_names)
    if keyed is not None:
        return Parsed({"names": [keyed]},
                      (f"{segment.strip()!r} read as the name the question marks so",))
    whole = _WRAPPING.sub("", segment.strip())
    if map_names and normalise_name(whole) in map_names:
        # the legend writes the whole answer as one name: "park or garden" is a category,
        # not a choice between two (an "or" inside a name the map shows)
        return Parsed({"names": [whole]}, ("the legend writes the whole answer as one name",))
    if _slashed_names(whole, map_names):
        return Invalid(f"two names joined by '/', a choice between answers ({whole!r})")
    # an "or" inside a legend name ("industrial or works land") is no choice
    alt = alternatives(segment, lambda s: s.strip(" .") or None) if offers_alternatives(
        segment, map_names) else None
    if alt is not None:
        return alt
    text = segment
    related = _object_of_relation(segment, question)
    sentence = sentence_answer(segment) if len(segment.split("\n")) == 1 else None
    if related is not None:
        text = related
    elif sentence is not None and re.search(r"\b(?:is|are|has|have|lies|borders?)\b"
                                            r"|\b(?:it|that|this)'s\b", segment, re.IGNORECASE):
        text = sentence
    if _NONE_NAMED.match(text.strip()):  # "None of them borders it.", "Neither A nor B."
        return Parsed({"names": []}, ("the answer names none of the features",))
    found = parse_names(text, map_names=map_names)
    if isinstance(found, Invalid):
        return None
    if not found.value["names"] and _NONE_NAMED.match(_WRAPPING.sub("", text.strip()) + "."):
        return Parsed({"names": []}, ("the answer names none of the features",))
    names = [n for part in found.value["names"] for n in part.split(";") if n.strip()]
    names = [snap_to_map(_GLOSS.sub("", n.strip()), map_names) for n in names]
    notes = list(found.notes)
    if map_names:
        names = [_legend_form(n, map_names) for n in names]
        markers = [n for n in names if _MARKER.fullmatch(n.strip(" .")) and
                   normalise_name(n) not in map_names]
        if markers and len(markers) < len(names):  # "The purple dot, Grand Shanghai."
            names = [n for n in names if n not in markers]
            notes.append("a marker named beside its name is no second name: "
                         + "; ".join(repr(m) for m in markers))
    described = [n for n in names[1:] if _APPOSITIVE.match(n)
                 and normalise_name(n) not in map_names]
    if described:  # "Kaivokatu, the street running along its south side": one name
        names = [n for n in names if n not in described]
        notes.append("a description after a name is not a second name: "
                     + "; ".join(repr(d) for d in described))
    for i, name in enumerate(names):  # "residential" for the legend's "residential land"
        means = category_short_form(name, map_names, question)
        if len(means) > 1:
            return Invalid(f"a short category that names several of the legend's "
                           f"({', '.join(means)})")
        if means:
            names[i] = means[0]
            notes.append(f"{name!r} read as the legend's category {means[0]!r}")
    return Parsed({"names": names}, tuple(notes)) if names else None


#: An answer that names no feature: "None", "None of them borders it.", "No feature
#: borders Makasiinit.", "Neither Eteläranta nor Kaivokatu borders it."
_NONE_NAMED = re.compile(
    r"^(?:nothing|none(?:\s+of\s+(?:them|these|those|the\s+\w+(?:\s+\w+)?))?|neither\b[^.\n]*\bnor\b"
    r"|no\s+(?:feature|features|one|name|names|area|areas|other\s+feature)"
    r"|there\s+(?:is|are)\s+no\s+(?:such\s+)?(?:feature|features|area|areas))"
    r"(?:\s+(?:of\s+them\s+)?(?:\w+\s+){0,2}(?:borders?|overlaps?|touches|touch|lies?|intersects?|"
    r"is|are|does|do|fits?|matches?|qualif(?:y|ies))\b[^\n]*)?[.!]?$", re.IGNORECASE)
#: a marker named instead of or beside a name: "The purple dot", "the red outline"
_MARKER = re.compile(r"(?:the\s+)?(?:[a-z]+\s+)?(?:dot|marker|point|circle|outline|pin)",
                     re.IGNORECASE)
#: a word before a name that is no part of it: "Only Grand Shanghai", "Both Vanha kirkko"
_LEAD_WORD = re.compile(r"^(?:only|just|solely|both|also)\s+", re.IGNORECASE)


def _legend_form(name: str, map_names: Collection[str]) -> str:
    """A name read as the legend's when it differs only by a leading ``only``/``both`` or by
    ``/`` for the ``or`` of a legend name (``park/garden`` for *park or garden*).

    Examples
    --------
    >>> known = {"grand shanghai", "park or garden"}
    >>> _legend_form("Only Grand Shanghai", known), _legend_form("park/garden", known)
    ('Grand Shanghai', 'park or garden')
    >>> _legend_form("Only Fans", known)
    'Only Fans'
    """
    if normalise_name(name) in map_names:
        return name
    bare = _LEAD_WORD.sub("", name)
    if bare != name and normalise_name(bare) in map_names:
        return bare
    slashed = re.sub(r"\s*/\s*", " or ", name)
    if slashed != name and normalise_name(slashed) in map_names:
        return slashed
    return name


#: Quotes, bold and a closing period around a whole answer.
_WRAPPING = re.compile(r"^[\s*_\"'`]+|[\s*_\"'`.]+$")
#: A part of a name list that describes the name before it ("the street running along
#: its south side", "which borders it"): an article or relative word, then a lower-case
#: word. "the Esplanade" (a capital after the article) stays a name.
_APPOSITIVE = re.compile(r"(?:the|a|an|which|that|where|whose|located|running)\s+[a-z]")


_NEGATION = re.compile(r"\b(?:not|no|none|neither|nor|never|without)\b|n't\b", re.IGNORECASE)


def legend_name_in_sentence(text: str, question: str,
                            map_names: Collection[str]) -> str | None:
    """The one legend name a cue-less answer sentence names, besides the question's own.

    ``The feature inside Esplanadinpuisto is "Espan lava".``: the last sentence names
    two legend labels; Esplanadinpuisto is the feature the question asks about, so the
    answer is Espan lava. ``None`` when no name or several remain, or when the sentence
    negates, hedges or offers alternatives.

    Examples
    --------
    >>> legend_name_in_sentence('The feature inside Espa is "Espan lava".',
    ...                         "Which feature lies within Espa?", {"espa", "espan lava", "x"})
    'Espan lava'
    >>> legend_name_in_sentence("Espan lava and X are inside Espa.", "... within Espa?",
    ...                         {"espa", "espan lava", "x"}) is None
    True
    """
    if not map_names:
        return None
    sentences = [x.strip() for x in re.split(r"(?<=[.!?])\s+|\n", text) if x.strip()]
    if not sentences:
        return None
    keys = legend_names_in_sentence(sentences[-1], question, map_names)
    return keys[0] if len(keys) == 1 else None


def legend_names_in_sentence(sentence: str, question: str,
                             map_names: Collection[str]) -> list[str]:
    """The legend names a sentence names besides the question's own, in their order.

    Empty when the sentence negates, hedges or offers alternatives (an ``or`` inside a
    legend name, as in *park or garden*, is no alternative). A name inside a longer name
    found is not counted apart.

    Examples
    --------
    >>> legend_names_in_sentence("Eteläranta and Pohjoinen Makasiinikatu border Makasiinit.",
    ...     "Which border Makasiinit?", {"etelaranta", "pohjoinen makasiinikatu", "makasiinit"})
    ['Eteläranta', 'Pohjoinen Makasiinikatu']
    >>> legend_names_in_sentence("The area is park or garden.", "Which category?",
    ...                          {"park or garden", "grass"})
    ['park or garden']
    >>> legend_names_in_sentence("It is not grass.", "Which category?", {"grass"})
    []
    """
    if hedged(sentence) or _NEGATION.search(sentence) or offers_alternatives(
            sentence, map_names) or "/" in sentence:
        return []
    asked = f" {normalise_name(question)} "
    words = sentence.split()
    found: dict[str, str] = {}
    for i in range(len(words)):
        for j in range(min(len(words), i + 8), i, -1):
            span = " ".join(words[i:j]).strip(" \"'*.,;:!?()[]\u201c\u201d")
            key = normalise_name(span)
            if key in map_names and f" {key} " not in asked:
                found.setdefault(key, span)
    keys = [k for k in found if not any(k != o and f" {k} " in f" {o} " for o in found)]
    return [found[k] for k in keys]


#: the features a question offers to pick from: "Which one of A (blue outline), B (purple
#: outline) and C (orange line) borders ...", "Of A (blue dot), B (purple dot) and C ..."
_OFFERED = re.compile(r"\b(?:which\s+(?:one\s+)?of|of)\s+(?P<series>[^()?,.]+?\s*\([^()]*\)"
                      r"(?:\s*(?:,\s*(?:and\s+)?|and\s+)[^()?,.]+?\s*\([^()]*\))+)",
                      re.IGNORECASE)
_OFFERED_NAME = re.compile(r"(?:^|,|\band\b)\s*(?P<name>[^()?,]+?)\s*\([^()]*\)")


def offered_names(question: str) -> list[str]:
    """The features a question offers to pick from, each followed by its marker in
    brackets (``Which one of A (blue outline), B (purple outline) and C (orange line)``);
    ``[]`` when it offers none.

    Examples
    --------
    >>> offered_names("Of Ooster (blue dot), Minuuttibaari (purple dot) and Kitty's Public "
    ...               "House (orange dot), which one is closest to mr. big (red dot)?")
    ['Ooster', 'Minuuttibaari', "Kitty's Public House"]
    >>> offered_names("Which one of these 3 features borders Aikatalo?")
    []
    """
    m = _OFFERED.search(question)
    if m is None:
        return []
    return [n.group("name").strip() for n in _OFFERED_NAME.finditer(m.group("series"))]


def offered_name_in_answer(text: str, offered: Collection[str]) -> str | None:
    """The one offered feature a cue-less answer's last sentence naming any of them names
    (``..., while the blue and purple outlines sit next to public buildings.\n\nPohjoinen
    Makasiinikatu borders the commercial building area.``); ``None`` when it names several,
    negates, hedges or offers alternatives.

    Examples
    --------
    >>> offered_name_in_answer("Of the three dots, Ooster is the nearest to mr. big.",
    ...                        ["Ooster", "Minuuttibaari"])
    'Ooster'
    >>> offered_name_in_answer("Ooster is nearer than Minuuttibaari.",
    ...                        ["Ooster", "Minuuttibaari"]) is None
    True
    """
    last = _last_offered_sentence(text, offered)
    if last is None:
        return None
    sentence, named = last
    bad = hedged(sentence) or _NEGATION.search(sentence) or re.search(
        r"\bor\b", sentence, re.IGNORECASE)
    return named[0] if len(named) == 1 and not bad else None


_CLAUSE_BREAK = re.compile(r";\s*|,\s*(?:while|whereas|but)\s+", re.IGNORECASE)
_STOP = frozenset(["which", "that", "this", "these", "those", "with", "from", "shown", "area",
                   "areas", "their", "there", "answer", "name", "does", "what"])


def _asked_words(question: str, offered: Collection[str]) -> set[str]:
    """The content words the question asks after its offered features (``borders an area
    shown as residential building``)."""
    m = _OFFERED.search(question)
    tail = question[m.end():] if m else ""
    tail = re.split(r"[?\n]", tail)[0]
    return {w for w in re.findall(r"[a-z]{4,}", tail.casefold()) if w not in _STOP}


def offered_name_in_clause(text: str, offered: Collection[str], question: str) -> str | None:
    """The offered feature of the one clause of the last sentence that says what the
    question asks of one feature alone (``A (the blue line) borders the area shaded as
    residential building; B and C are surrounded by public buildings and park.``), when
    the sentence names several; ``None`` when no clause, or more than one, does, or the
    clause negates or hedges.

    Examples
    --------
    >>> q = ("Which one of A (blue line), B (purple outline) and C (orange outline) borders "
    ...      "an area shown as residential building? Answer with its name.")
    >>> said = "A (the blue line) borders the residential building area; B and C do not."
    >>> offered_name_in_clause(said, ["A", "B", "C"], q)
    'A'
    >>> offered_name_in_clause("A borders a park; B borders a residential building.",
    ...                        ["A", "B", "C"], q) is None
    True
    """
    last = _last_offered_sentence(text, offered)
    asked = _asked_words(question, offered)
    if last is None or len(last[1]) < 2 or len(asked) < 2:
        return None
    keys = {normalise_name(n): n for n in offered}
    fits = []
    for clause in _CLAUSE_BREAK.split(last[0]):
        named = [n for k, n in keys.items() if f" {k} " in f" {normalise_name(clause)} "]
        words = set(re.findall(r"[a-z]{4,}", clause.casefold()))
        if len(named) == 1 and len(asked & words) * 2 >= len(asked):
            if hedged(clause) or _NEGATION.search(clause) or re.search(r"\bor\b", clause):
                return None
            fits.append(named[0])
    return fits[0] if len(fits) == 1 else None


def negates_offered(text: str, offered: Collection[str]) -> bool:
    """Whether a cue-less answer's last sentence naming an offered feature names one and
    says it does not fit (``Of the three dots, Ooster is not in a public building.``): it
    picks none.

    Examples
    --------
    >>> negates_offered("Of the three dots, Ooster is not in a public building.", ["Ooster"])
    True
    >>> negates_offered("Ooster is the only one not outside it.", ["Ooster", "Kitty"])
    False
    >>> negates_offered("Ooster is the nearest.", ["Ooster"])
    False
    """
    last = _last_offered_sentence(text, offered)
    if last is None:
        return False
    sentence, named = last
    return len(named) == 1 and bool(re.search(re.escape(named[0]) + _NOT_AFTER_NAME, sentence,
                                              re.IGNORECASE)) \
        and not hedged(sentence) and not re.search(r"\bor\b", sentence, re.IGNORECASE)


# "Ooster is not in ...", "X doesn't border it": the name's own verb negated
_NOT_AFTER_NAME = (r"\s+(?:(?:is|are|was|does|do|did|lies|sits)\s+not\b|isn't\b|doesn't\b|"
                   r"does\s+not\b|never\b)")


def _last_offered_sentence(text: str, offered: Collection[str]
                           ) -> tuple[str, list[str]] | None:
    """The last sentence naming any offered feature, with the offered features it names."""
    keys = {normalise_name(n): n for n in offered}
    # (a sentence ends before a capital: "mr. big" is one name)
    for sentence in reversed([x for x in re.split(r"(?<=[.!?])\s+(?![a-z])|\n", text)
                              if x.strip()]):
        named = [n for k, n in keys.items() if f" {k} " in f" {normalise_name(sentence)} "]
        if named:
            return sentence, named
    return None


#: a question asking for every name that fits ("Name every one that does (one or more),
#: separated by semicolons"), not for one
_ASKS_SEVERAL = re.compile(r"\bname\s+every\s+one\b|\bone\s+or\s+more\b|"
                           r"\bseparated\s+by\s+semicolons\b", re.IGNORECASE)


def _all_offered(names: list[str], offered: Collection[str]) -> bool:
    keys = {normalise_name(n) for n in offered}
    return all(normalise_name(n) in keys for n in names)


def _last_sentence(text: str) -> str:
    parts = [x for x in re.split(r"(?<=[.!?])\s+|\n", text.strip()) if x.strip()]
    return parts[-1] if parts else ""


# a last sentence that declines to choose: "so I can't say with confidence which one is closer"
_UNDECIDED = re.compile(
    r"\b(?:can(?:no|['’])?t|could\s*n['’o]?t|unable\s+to)\s+(?:really\s+)?(?:say|tell|decide|"
    r"determine|be\s+sure)\b|\bcould\s+be\s+either\b|\btoo\s+close\s+to\s+call\b",
    re.IGNORECASE)
# ... but a pick after it: "I can't say how far the orange dot is, but Kämp is the closest."
_YET = re.compile(r"\b(?:but|however|though|still|yet)\b", re.IGNORECASE)


def parse_textual(text: str, *, question: str = "",
                  map_names: Collection[str] = frozenset()) -> ParseResult:
    """Read a FRIEDA textual answer.

    Parameters
    ----------
    text : str
        The raw response.
    question : str
        The item's question: the options it names (``Area A``/``Area B``) may be given
        by letter or text, and come back as the letter.
    map_names : collection of str, optional
        Normalised names the maps' legends write
        (:func:`cartoqa.parsing.map_names.item_map_names`): ``Soopeli and Porthania`` is
        two names when a legend writes one of them and not the whole.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"names": [...]})``.

    Examples
    --------
    >>> q = "Map 2 outlines two areas, A and B... Answer A or B."
    >>> parse_textual("Final answer: Area B", question=q).value
    {'names': ['B']}
    >>> parse_textual("It is B.", question=q).value
    {'names': ['B']}
    >>> parse_textual("it could be A or B", question=q).valid
    False
    >>> parse_textual("Porthania is bordered by Yliopistonkatu.").value
    {'names': ['Yliopistonkatu']}
    >>> parse_textual("Aikatalo borders Mikonkatu.", question="Which feature borders "
    ...               "Aikatalo (the building)?").value
    {'names': ['Mikonkatu']}
    """
    options = question_options(question)
    if options:
        found = parse_options(text, Options(options))
        if isinstance(found, Parsed):
            return Parsed({"names": list(found.value["letters"])}, found.notes)
        return found
    data = json_answer(normalize_text(text))
    if isinstance(data, str):  # '{"answer": "Kasvimuseo"}': its value
        if not data.strip():
            return Invalid("the JSON answer is empty")
        text = data
    undecided = _UNDECIDED.search(_last_sentence(text))
    if undecided and not answer_segments(clean(text)) and not _YET.search(
            _last_sentence(text)[undecided.end():]):
        # "A and B both look about equally close, so I can't say which one is closer."
        return Invalid("the answer leaves the choice open (a hedge between names)")
    bold = bold_names(text, map_names)  # no cue: "only **Asema-aukio** touches Sokos; ..."
    if bold is not None:
        return Parsed({"names": [snap_to_map(n, map_names) for n in bold]})
    found = read_answer(text, lambda s: _read_names(s, question, map_names), what="name lists",
                        key=lambda p: sorted(n.casefold() for n in p.value["names"]))
    offered = offered_names(question) if not answer_segments(clean(text)) else []
    if offered and (isinstance(found, Parsed) or found.reason == "no answer found") and (
            not isinstance(found, Parsed) or not _all_offered(found.value["names"], offered)):
        # no cue, and the reading is no pick of the offered features: the one the last
        # sentence naming them names ("Of the three dots ..., Ooster is the nearest.")
        picked = offered_name_in_answer(text, offered)
        if picked is None:
            picked = offered_name_in_clause(text, offered, question)
        if picked is not None:
            return Parsed({"names": [snap_to_map(picked, map_names)]},
                          ("the one offered feature the answer sentence names",))
        if negates_offered(text, offered):
            return Invalid("the answer says an offered feature does not fit and picks none")
    if isinstance(found, Parsed) and map_names and not answer_segments(clean(text)):
        # no cue, and the sentence was taken as names the legend does not write, though it
        # holds legend names: "Inside Esplanadinpuisto you find Espan lava."
        read = [normalise_name(n) for n in found.value["names"]]
        # (or the legend name stood in a description dropped after the subject: "The dot
        # sits in a green area, which the legend calls park or garden.")
        if not any(n in map_names for n in read) and (any(
                f" {m} " in f" {n} " for n in read for m in map_names) or any(
                "description after a name" in note for note in found.notes)):
            named = legend_name_in_sentence(text, question, map_names)
            if named is not None:
                return Parsed({"names": [snap_to_map(named, map_names)]},
                              ("the one legend name in the answer sentence",))
        # a legend name with the sentence's verb still on it, beside another legend name
        # or on a question asking for several: "Eteläranta and Pohjoinen Makasiinikatu
        # border Makasiinit.", "Both A and B border it."
        if (any(n in map_names for n in read) or _ASKS_SEVERAL.search(question)) and any(
                n not in map_names and any(f" {m} " in f" {n} " for m in map_names)
                for n in read):
            names = legend_names_in_sentence(_last_sentence(text), question, map_names)
            if len(names) >= max(1, len([n for n in read if n in map_names])):
                return Parsed({"names": [snap_to_map(n, map_names) for n in names]},
                              ("the legend names in the answer sentence",))
    if isinstance(found, Invalid) and found.reason == "no answer found":
        named = legend_name_in_sentence(text, question, map_names)
        if named is not None:  # 'The feature inside Espa is "Espan lava".'
            return Parsed({"names": [snap_to_map(named, map_names)]},
                          ("the one legend name in the answer sentence",))
        names = legend_names_in_sentence(_last_sentence(text), question, map_names) \
            if _ASKS_SEVERAL.search(question) else []
        if names:  # "Name every one": "The ones bordering it are A and B."
            return Parsed({"names": [snap_to_map(n, map_names) for n in names]},
                          ("the legend names in the answer sentence",))
        return Invalid("no list of names found")
    return found
