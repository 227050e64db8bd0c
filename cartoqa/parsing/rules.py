"""Answer-reading rules every suite shares, whatever the answer's kind.

The street tasks, MapIQ, MapWise and FRIEDA read a response the same way
(:func:`read_answer`):

1. **The last real cue wins** (:func:`cartoqa.parsing.text.answer_segments`): ``Answer:``,
   ``Final answer:`` (also inside a line: ``The answer is 3? No, I missed two. Final
   answer: 5`` gives 5), ``My answer is [..]``, ``the answer is X``, a decision in words
   (``I'll go with E``). A cue whose answer is a question is none; an explicit
   correction (``Wait, that misses a turn.`` then a new ``Answer:``) replaces what came
   before; two different answers with nothing between them are invalid.
2. **Hedges are invalid, with the hedge as the reason** (:func:`hedged`): ``maybe TRUE``,
   ``It might be FALSE, but I'm not sure``, ``Probably no``.
3. **Alternatives are invalid** (:func:`alternatives`): ``A or B``, ``N/NE``, ``either X
   or Y`` when both sides are answers of the kind.
4. **Negated options are not chosen** (:func:`drop_negated`): ``It's not A (park) ...
   it's B`` reads B.
5. With no cue, **the answer may sit in a sentence** (:func:`sentence_answer`):
   ``... is Uttar Pradesh.``, ``Illinois (IL) has the highest ...``, ``It is B.``.

Each answer kind (yes/no, option, region, region list, rank, range, number with unit,
direction, names) supplies only how one segment is read; a new request inherits the
rules by reading its answers through :func:`read_answer`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    hedge,
    nonempty_lines,
)

T = TypeVar("T")

# "not A", "isn't B", "rather than (C)", "rule out option D (park)"
_NEGATED = re.compile(
    r"(?:\bnot|n't|\bnever|\brather\s+than|\binstead\s+of|\brule[sd]?\s+out|\bruling\s+out|"
    r"\bexclud(?:e|es|ed|ing)|\beliminat(?:e|es|ed|ing))\s+(?:(?:the\s+)?(?:option|choice|"
    r"letter|answer)\s+)?[(\[]?(?-i:[A-H])[)\]]?(?![\w'])(?:\s*\([^()\n]{0,40}\))?",
    re.IGNORECASE,
)
# "X or Y", "X/Y", "either X or Y"
_OR = re.compile(r"\s+(?:or|and/or)\s+|\s*/\s*", re.IGNORECASE)
_EITHER = re.compile(r"\beither\b", re.IGNORECASE)

# what follows a bracketed answer that offers another: "or [3k - 4k]", "/ [B]"
_OR_AFTER = re.compile(r"^(?:,\s*)?(?:or|and/or|/)\s*(?:maybe\s+|perhaps\s+)?\[", re.IGNORECASE)
#: A bracketed answer (MapIQ's and MapWise's ``My answer is [..]``), brackets dropped.
_BRACKETED = re.compile(r"^\s*\[(?P<inner>[^\[\]]*)\]\s*(?P<after>.*)$", re.DOTALL)

# Sentences that carry an answer with no cue.
_SENTENCE_FORMS = (
    # "It is B.", "It's Area B", "That would be Kerala."
    re.compile(r"^\s*(?:so\s*,?\s*|thus\s*,?\s*|therefore\s*,?\s*|hence\s*,?\s*)?"
               r"(?:it|this|that)(?:'s|\s+is|\s+would\s+be|\s+must\s+be)\s+(?P<x>[^.\n]+?)\s*[.!]?$",
               re.IGNORECASE),
    # "... is Uttar Pradesh.", "The state with the highest value is Texas (TX)."
    re.compile(r"^.*?\b(?:is|are|was|would\s+be|appears\s+to\s+be|seems\s+to\s+be)\s+"
               r"(?P<x>(?:the\s+)?[A-Z0-9\[(][^.\n]*?)\s*[.!]?$"),
    # "Porthania is bordered by Yliopistonkatu."
    re.compile(r"^.*?\b(?:is|are)\s+(?:(?:partly|partially|fully|entirely|only|also)\s+)?"
               r"[a-z]+ed\s+by\s+(?:the\s+)?(?P<x>[^.\n]+?)\s*[.!]?$", re.IGNORECASE),
    # "Illinois (IL) has the highest ...", "Kerala shows the darkest shade", "Only Maine
    # and Ohio have ..." (the "only" is no part of the answer)
    re.compile(r"^\s*(?:(?i:only|just)\s+)?(?P<x>[A-Z][^.,\n]*?)\s+(?:has|have|shows|show|records|ranks|is\s+the|"
               r"stands\s+out|leads|borders|overlaps|touches|intersects|crosses|lies|sits|runs)"
               r"\b"),
    # "Only Maharashtra is in a higher class than Gujarat.", "Only Goa and Kerala lie above
    # it": after "only", the names up to the verb are the answer, whatever the verb says
    re.compile(r"^\s*(?:.*,\s*)?(?i:only|just)\s+(?P<x>[A-Z][^.,\n]*?)\s+(?i:is|are|was|were|"
               r"has|have|lies|lie|falls?|sits?|exceeds?|ranks?|reaches|scores?|gets?|shows?)"
               r"\b"),
    # "The lowest value is in the union territory of Daman and Diu.", "... is found in Goa.",
    # "The darkest shade is on Indiana, so that region has the highest value." (a clause
    # after ", so" / ", which" / ", because" explains the answer)
    re.compile(r"^.*?\b(?:is|are|lies|lie|occurs?|(?:is\s+)?found|(?:is\s+)?located)\s+(?:in|on)\s+"
               r"(?P<x>(?:the\s+)?(?:(?:state|province|union\s+territory|territory|"
               r"municipality|autonomous\s+region|region|district)\s+of\s+)?[A-Z][^.\n]*?)"
               r"(?:\s*,\s*(?:so|which|because|as|meaning|thus|hence|and\s+so)\b[^\n]*?)?"
               r"\s*[.!]?$"),
    # "The low-value cluster covers Montana, North Dakota, ... and Mississippi.": a list said
    # as what the subject covers, includes or is made of
    re.compile(r"^.*?\b(?:covers?|includes?|contains?|consists\s+of|comprises?|spans?|"
               r"(?:is|are)\s+made\s+up\s+of)\s+(?P<x>(?:the\s+)?[A-Z][^.\n]*?)\s*[.!]?$"),
    # "First Texas, then California, and finally Florida.": a list said as a chain of
    # order words (the words are dropped by :func:`unchain`)
    re.compile(r"^\s*(?i:first(?:ly)?|to\s+start(?:\s+with)?)\s*,?\s+(?P<x>[A-Z][^.\n]*?"
               r"(?:,\s*|\s+)(?i:and\s+)?(?i:then|next|after\s+that|finally|lastly|last)"
               r"\s*,?\s+[A-Z][^.\n]*?)\s*[.!]?$"),
)

# an order word between two names of a chain ("Texas, then California, and finally ...")
_CHAIN_LINK = re.compile(r"(?:\s*,\s*|\s+)(?:and\s+)?(?:then|next|after\s+that|finally|lastly|"
                         r"last)\s*,?\s+(?=[A-Z])", re.IGNORECASE)
_CHAIN_HEAD = re.compile(r"^\s*(?:first(?:ly)?|to\s+start(?:\s+with)?)\s*,?\s+(?=[A-Z])",
                         re.IGNORECASE)


def unchain(text: str) -> str:
    """A list said as a chain of order words, as a plain comma list (else ``text``).

    Examples
    --------
    >>> unchain("First Texas, then California, and finally Florida.")
    'Texas, California, Florida.'
    >>> unchain("Texas, then California")
    'Texas, then California'
    """
    head = _CHAIN_HEAD.match(text)
    if head is None or not _CHAIN_LINK.search(text, head.end()):
        return text
    return _CHAIN_LINK.sub(", ", text[head.end():])


# A rejected answer, then the pick, without a cue (one sentence): "It's not A, which is
# too large; it's B.", "Not A but B.", "It is not A but rather B", "A is wrong, B is
# right." The pick must be stated (it's / but / rather / instead / is right): "It's not
# A." alone names no pick and stays no answer, whatever the number of options.
_SUBJ = r"(?:it|this|that|the\s+answer|the\s+match|the\s+one)"
_REJECT_THEN_PICK = (
    re.compile(r"^\s*(?:(?:so|thus|therefore|hence)\s*,?\s*)?(?:" + _SUBJ + r"(?:'s|\s+is)\s+)?"
               r"not\s+(?P<no>[^,;.\n]+?)"
               r"(?:\s*,\s*(?:which|as|since|because|being|given)\b[^;.\n]*?)?"
               r"(?:\s*(?:;|,|\u2014|\s-\s)\s*(?:(?:but|rather|instead)\s+(?:rather\s+)?)?"
               r"(?:" + _SUBJ + r"(?:'s|\s+is)\s+)|\s*,?\s+but\s+(?:rather\s+)?"
               r"(?:" + _SUBJ + r"(?:'s|\s+is)\s+)?)"
               r"(?P<x>[^,;.\n]+?)(?:\s+instead)?\s*[.!]?$", re.IGNORECASE),
    re.compile(r"^\s*(?P<no>[^,;.\n]+?)\s+is\s+(?:wrong|incorrect|not\s+(?:it|right|correct|"
               r"the\s+(?:answer|one|match)))\s*(?:[,;]|\u2014|\s-\s)\s*(?:and\s+|but\s+|so\s+)?"
               r"(?P<x>[^,;.\n]+?)\s+is\s+(?:right|correct|it|the\s+(?:answer|one|match|right\s+"
               r"one|correct\s+one))\s*[.!]?$", re.IGNORECASE),
)
# words that are never an answer on their own: "... is crossed by the" (cut off)
_FUNCTION_WORDS = frozenset((
    "the", "a", "an", "of", "by", "to", "in", "on", "at", "with", "and", "or", "is", "are",
    "was", "be", "its", "it", "this", "that", "which", "from", "for", "as", "into", "onto",
    "than"))


def is_fragment(x: str) -> bool:
    """Whether a candidate answer is only function words (a response cut off mid-sentence).

    Examples
    --------
    >>> is_fragment("the"), is_fragment("of the"), is_fragment("The Esplanade")
    (True, True, False)
    """
    words = re.findall(r"[^\W_]+", x.casefold())
    return not words or all(w in _FUNCTION_WORDS for w in words)


# the last words of a response cut off mid-sentence: "... is crossed by the"
# (only words that never end a sentence: "Yes, it is" and "the one it borders on" are whole)
_CUT_OFF = re.compile(r"(?:^|\s)(?-i:the|an|of|by|to|and|from|into|onto|than|its|their|"
                      r"between)\s*$")


# a sentence cut off after its subject's verb: "The first feature is" (not "it is")
_CUT_AFTER_VERB = re.compile(r"(?:^|[.!?:;]\s+)(?:[Tt]he|[Mm]y)\s+(?:[^\W\d_]+\s+){0,5}"
                             r"(?-i:is|are|was|were)\s*$")
# a list cut off at its first, empty marker: "... starting from the top left:\n\n1."
_CUT_AT_MARKER = re.compile(r":[ \t]*\n\s*(?:1[.)]|[-*\u2022])[ \t]*$")


def cut_off(text: str) -> str | None:
    r"""The closing words of a response that ends mid-sentence (on a lower-case function
    word, on a sentence's verb after a "the" subject, or on an empty first list marker
    after a colon, without punctuation), else ``None``: such a response gives no answer.

    Examples
    --------
    >>> cut_off("Looking at the map, the red block Hevonen is crossed by the")
    'by the'
    >>> cut_off("It is Pitkäsilta.") is None, cut_off("It's A") is None
    (True, True)
    >>> cut_off("I look at the 3 features. The first feature is")
    'feature is'
    >>> cut_off("Yes, it is") is None, cut_off("The answer is 3") is None
    (True, True)
    >>> cut_off("Let me read each label, starting from the top left:\n\n1.")
    'left: 1.'
    >>> cut_off("The count:\n\n2.") is None, cut_off("Two of them:\n1. Kuu") is None
    (True, True)
    """
    for pattern in (_CUT_OFF, _CUT_AFTER_VERB, _CUT_AT_MARKER):
        m = pattern.search(text)
        if m is not None:
            return " ".join(text[: m.end()].split()[-2:])
    return None


def rejected_then_picked(sentence: str) -> str | None:
    """The pick of a sentence that first rejects another answer, or ``None``.

    Examples
    --------
    >>> rejected_then_picked("It's not A, which is too large; it's B.")
    'B'
    >>> rejected_then_picked("Not A but B."), rejected_then_picked("A is wrong, B is right.")
    ('B', 'B')
    >>> rejected_then_picked("It's not A.") is None
    True
    """
    for form in _REJECT_THEN_PICK:
        m = form.match(sentence.strip())
        if m and not is_fragment(m.group("x")):
            return m.group("x").strip().strip("*\"'").strip()
    return None


# "The answer is B because it has the same shape.": the reason after the answer
_BECAUSE = re.compile(r"\s*[,;]?\s+(?:because|since|given\s+that|due\s+to|"
                      r"as\s+(?:it|they|its|their)|based\s+on)\b.*$",
                      re.IGNORECASE | re.DOTALL)


def drop_negated(text: str) -> str:
    """Remove option letters that the text rules out (``not A (park)``).

    Examples
    --------
    >>> drop_negated("It's not A (park), since it is grey... it's B.")
    "It's , since it is grey... it's B."
    """
    return _NEGATED.sub("", text)


def hedged(segment: str) -> Invalid | None:
    """An :class:`Invalid` naming the hedge of an answer, or ``None`` when it is firm.

    Examples
    --------
    >>> hedged("It might be FALSE, but I'm not sure.").reason
    'a hedged answer (might be)'
    >>> hedged("[No]") is None
    True
    """
    word = hedge(segment)
    return Invalid(f"a hedged answer ({word})") if word else None


def alternatives(segment: str, read: Callable[[str], T | None]) -> Invalid | None:
    """``Invalid`` when a segment offers two different answers (``A or B``, ``N/NE``).

    Parameters
    ----------
    segment : str
        One answer.
    read : callable
        Reads one part; ``None`` when the part holds no answer of the kind.

    Examples
    --------
    >>> alternatives("it could be A or B", lambda s: s.strip()[-1:] or None).reason
    "alternatives ('it could be A' or 'B'), not one answer"
    >>> alternatives("Jammu and Kashmir", lambda s: s) is None
    True
    """
    parts = [p for p in _OR.split(segment) if p.strip()]
    if len(parts) < 2:
        return None
    values = [read(p) for p in parts]
    found = [v for v in values if v is not None]
    if len(found) >= 2 and any(v != found[0] for v in found[1:]):
        shown = " or ".join(repr(p.strip()) for p in parts[:2])
        return Invalid(f"alternatives ({shown}), not one answer")
    return None


def unbracket(segment: str) -> str:
    """The inside of a bracketed answer (``[TX, CA].`` gives ``TX, CA``), with what
    follows it when that is a hedge (``[No], but I'm not sure``) or another answer.

    Examples
    --------
    >>> unbracket("[TX, CA]."), unbracket("[No], but I'm not sure.")
    ('TX, CA', "No, but I'm not sure.")
    >>> unbracket("[1k - 2k] or [3k - 4k].")
    '1k - 2k or 3k - 4k'

    A second bracketed answer offered after ``or`` is kept, so that the reader of the
    kind finds the alternatives (``[1k - 2k] or [3k - 4k]`` is invalid, not the first).
    """
    m = _BRACKETED.match(segment)
    if not m:
        return segment.strip()
    after = m.group("after").strip()
    if _OR_AFTER.match(after):  # "[1k - 2k] or [3k - 4k]": both answers, for the reader
        return re.sub(r"[\[\]]", "", segment).strip().rstrip(".")
    if after and hedge(after):
        return f"{m.group('inner').strip()}{after if after[0] in ',;' else ' ' + after}"
    return m.group("inner").strip()


def sentence_answer(text: str) -> str | None:
    """The answer a short response gives in a sentence without a cue, or ``None``.

    The last sentence is tried first (answers come last), then the first.

    Examples
    --------
    >>> sentence_answer("Looking at the darkest shade, the state is Uttar Pradesh.")
    'Uttar Pradesh'
    >>> sentence_answer("Illinois (IL) has the highest rate in the Midwest.")
    'Illinois (IL)'
    >>> sentence_answer("It is B.")
    'B'
    >>> sentence_answer("Among the states bordering Canada, only Maine has a value above 1k.")
    'Maine'
    >>> sentence_answer("Only Maharashtra is in a higher class than Gujarat.")
    'Maharashtra'
    >>> sentence_answer("The darkest shade is on Indiana, so that region has the highest value.")
    'Indiana'
    """
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n", text) if s.strip()]
    tried = (sentences[-1:] + sentences[:1]) if sentences else []
    if tried and "," in tried[0]:  # "Comparing A, B and C, Kerala is the darkest."
        tried.append(tried[0].rsplit(",", 1)[1].strip())
    for sentence in tried:
        picked = rejected_then_picked(sentence)
        if picked is not None:
            return picked
        for form in _SENTENCE_FORMS:
            m = form.match(sentence)
            if m:
                x = _BECAUSE.sub("", m.group("x")).strip().strip("*\"'").strip()
                if form is _SENTENCE_FORMS[-1]:
                    x = _CHAIN_LINK.sub(", ", x)
                if not hedge(x):  # "It's B (the L-shaped one).": a description, not the answer
                    x = re.sub(r"\s*\((?=[a-z])[^()]{3,}\)\s*$", "", x)
                x = re.sub(r"^the\s+", "", x, flags=re.IGNORECASE) if form is not \
                    _SENTENCE_FORMS[3] else x
                if x and not is_fragment(x):  # "... is crossed by the" (cut off)
                    return x
    return None


def read_answer(text: str, read: Callable[[str], ParseResult | None], *,
                what: str = "answers", whole: bool = True,
                whole_read: Callable[[str], ParseResult | None] | None = None,
                key: Callable[[Parsed], object] = lambda p: p.value) -> ParseResult:
    """Read a response by the shared rules, one answer kind's ``read`` doing the rest.

    Order: the cued segments (the last real cue wins; hedges and alternatives inside
    it are the reader's to report); else the response without notes, whole when it is
    short (``whole``) or the answer stated in a sentence; else invalid.

    Parameters
    ----------
    text : str
        The raw response.
    read : callable
        ``read(segment)``: ``Parsed``, ``Invalid`` or ``None`` (no answer of the kind).
    what : str
        Plural noun for the reason when the cued answers disagree.
    whole : bool
        Also read the whole response (without notes) when no cue holds an answer.
    whole_read : callable, optional
        Reads the response without a cue (whole, its answer sentence, its last line);
        a stricter reader than ``read`` (default ``read``).
    key : callable
        What two cued readings must share to agree.

    Returns
    -------
    Parsed or Invalid

    Examples
    --------
    >>> read = lambda s: Parsed({"v": s.strip(" .")}) if s.strip(" .") in "AB" else None
    >>> read_answer("Reasoning... Answer: B", read).value
    {'v': 'B'}
    """
    t = clean(text)
    if not t.strip():
        return Invalid("empty response")
    cued = agree([read(seg) for seg in answer_segments(t)], key=key, what=what)
    if cued is not None:
        return cued
    loose = whole_read or read
    body = drop_notes(t).strip()
    cut = cut_off(body)
    if cut is not None:  # "... is crossed by the": no name, not the name "the"
        return Invalid(f"truncated output: ends mid-sentence ('{cut}')")
    sentences = [x for x in re.split(r"(?<=[.!?])\s+|\n", body) if x.strip()]
    picked = rejected_then_picked(sentences[-1]) if sentences else None
    if picked is not None:  # "Texas is wrong, Ohio is right.": not both regions
        found = loose(picked)
        if found is not None:
            return found
    if whole and body:
        found = loose(body)
        if found is not None:
            return found
    if "?" in body.rstrip("? \n"):
        # the question repeated, then the answer: "Which ... overlaps X? Hevonen."
        tail = body.rsplit("?", 1)[1].strip()
        found = loose(tail) if tail else None
        if found is not None:
            return found
    sentence = sentence_answer(body)
    if sentence is not None:
        found = loose(sentence)
        if found is not None:
            return found
    lines = nonempty_lines(body)
    if lines and len(lines) > 1:
        found = loose(lines[-1])
        if found is not None:
            return found
    return Invalid("no answer found")
