"""Multiple-choice answers (MFS): one letter A-E."""

from __future__ import annotations

import re
from collections.abc import Mapping

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.rules import drop_negated
from cartoqa.parsing.text import (
    agree,
    answer_segments,
    clean,
    drop_notes,
    fold,
    hedge,
    json_answer,
    nonempty_lines,
    normalize_text,
)

LETTERS = "ABCDE"

_ALONE = re.compile(r"^\W*(?:option\s+|choice\s+)?([A-Ea-e])\W*$", re.IGNORECASE)
# A letter after an answer cue. The cue words are matched whole, so the "A" of
# "Answer" can never be taken for the letter A (a defect of the published scorer).
_AFTER_CUE = re.compile(
    r"\b(?:final\s+answer|answer|correct\s+(?:option|choice|answer|letter)"
    r"|i\s+(?:would\s+)?(?:choose|pick|select|go\s+with))\b"
    r"(?:\s+is|\s+would\s+be|\s+will\s+be|\s+should\s+be)?"
    r"\s*(?:[:=]|-|\bis\b)?\s*(?:option|choice|letter)?\s*"
    r"(?P<open>[(\[])?\s*(?P<letter>[A-Ea-e])\s*(?P<close>[)\]])?(?![A-Za-z0-9'])"
    r"(?P<after>\s*[^\s])?",
    re.IGNORECASE,
)
_WEAK = [
    # "C) pharmacy", "C. Pharmacy", "(c) pharmacy" at the start of a line
    re.compile(r"^\s*(?:[(\[]\s*([A-Ea-e])\s*[)\]]|([A-E])[.):])(?=\s|$)", re.MULTILINE),
    # "(C)" or "[c]" anywhere
    re.compile(r"[(\[]\s*([A-Ea-e])\s*[)\]]"),
    # "option C", "choice C"
    re.compile(r"\b(?:option|choice|letter)\s+([A-E])\b", re.IGNORECASE),
    # "C is correct", "C is the answer"
    re.compile(r"\b([A-E])\s+is\s+(?:the\s+)?(?:correct|right|answer|best)\b"),
    # "... is C." at the end of a sentence, "it's B."
    re.compile(r"\b(?:is|it's|it\s+is)\s+([A-E])\s*(?:[.!]|$)", re.MULTILINE),
    # "... fits a stream, so B.", "Therefore (C)." : a letter concluding a sentence
    re.compile(r"\b(?:[Ss]o|[Tt]hus|[Tt]herefore|[Hh]ence)\s*,?\s*[(\[]?([A-E])[)\]]?\s*(?:[.!]|$)",
               re.MULTILINE),
]


def _letter_from_cue(text: str) -> str | None:
    found = None
    for m in _AFTER_CUE.finditer(text):
        letter = m.group("letter")
        bracketed = m.group("open") or m.group("close")
        after = (m.group("after") or "").strip()
        # a lower-case letter followed by a word is an article ("the answer is a pharmacy")
        if letter.islower() and not bracketed and after[:1].isalpha():
            continue
        found = letter.upper()
    return found


# words that rule out the label after them: "not a drain", "isn't the ditch", "rather
# than a stream"
_NEGATED_BEFORE = re.compile(
    r"(?:\bnot|n't|\bnever|\brather\s+than|\binstead\s+of|\bno)\s+(?:(?:an?|the|just)\s+)?$")


def _letter_from_label(text: str, options: Mapping[str, str]) -> str | None:
    """The one option whose label the text names (a label it rules out is not named).

    Examples
    --------
    >>> opts = {"B": "stream", "D": "drain", "E": "ditch"}
    >>> _letter_from_label("It's not a drain; it looks like a stream", opts)
    'B'
    >>> _letter_from_label("It's not a drain.", opts) is None
    True
    """
    folded = fold(text)
    spans: dict[str, list[tuple[int, int]]] = {}
    for letter, label in options.items():
        key = fold(str(label)).strip()
        if not key:
            continue
        pattern = re.compile(r"(?<!\w)" + re.escape(key) + r"(?!\w)")
        hits = [(m.start(), m.end()) for m in pattern.finditer(folded)
                if not _NEGATED_BEFORE.search(folded[max(0, m.start() - 40):m.start()])]
        if hits:
            spans[letter.upper()] = hits
    # drop a label whose every mention sits inside a longer label ("park" in "parking lot")
    keep = []
    for letter, hits in spans.items():
        inside = all(
            any(o[0] <= h[0] and h[1] <= o[1] and o != h for other, oh in spans.items()
                if other != letter for o in oh)
            for h in hits
        )
        if not inside:
            keep.append(letter)
    return keep[0] if len(keep) == 1 else None


def parse_choice(text: str, *, options: Mapping[str, str] | None = None) -> ParseResult:
    """Parse a multiple-choice answer into one letter A-E.

    Rules, in order: a response that is only a letter (``C``, ``(c)``, ``**C**``); the
    last letter after an answer cue (``Answer: C``, ``The answer is (c).``,
    ``Final answer: C``, ``I choose C``); a last line that is only a letter; letters
    marked as options (``C) pharmacy``, ``(C)``, ``option C``, ``C is correct``,
    ``... is C.``) when they all agree; the one option label named in the text. Options
    the response rules out (``not A (park)``) are dropped first. Several
    different letters without a cue, or no letter, make the response invalid. A
    lower-case ``a`` followed by a word is an article, not the letter A.

    Parameters
    ----------
    text : str
        The raw response.
    options : mapping of str to str, optional
        The item's options (``{"A": "pharmacy", ...}``) for matching a label.

    Returns
    -------
    Parsed or Invalid
        ``Parsed({"letter": "C"})``.

    Examples
    --------
    >>> parse_choice("Answer: C").value
    {'letter': 'C'}
    >>> parse_choice("The answer is a pharmacy.", options={"A": "bank", "C": "pharmacy"}).value
    {'letter': 'C'}
    """
    t = clean(text)
    if not t.strip():
        return Invalid("empty response")
    m = _ALONE.match(t)
    if m:
        return Parsed({"letter": m.group(1).upper()})
    t = drop_negated(t)
    cued = agree([_choice_in(seg, options) for seg in answer_segments(t)],
                 key=lambda p: p.value["letter"], what="letters")
    if cued is not None:
        return cued
    data = json_answer(normalize_text(text))
    if isinstance(data, str):
        found = _choice_in(data, options)
        if found is not None:
            return found
    t = drop_notes(t)
    picked = _picked_after_either_or(t, options)
    if picked is not None:
        return Parsed({"letter": picked}, ("chosen after an either/or",))
    lines = nonempty_lines(t)
    if len(lines) <= 2:  # a short answer without a cue that doubts itself
        hedged = hedge(t)
        if hedged:
            return Invalid(f"a hedged answer ({hedged})")
    cued_letter = _letter_from_cue(t)
    if cued_letter is not None:
        return Parsed({"letter": cued_letter})
    for line in (lines[0], lines[-1]) if lines else ():
        alone = _ALONE.match(line)
        if alone:
            return Parsed({"letter": alone.group(1).upper()})
    or_letters = _OR_LETTERS.search(t)
    if or_letters and len(lines) <= 2:
        return Invalid(f"alternatives ({or_letters.group(0)}), not one letter")
    weak: list[str] = []
    for pattern in _WEAK:
        for wm in pattern.finditer(t):
            letter = next(g for g in wm.groups() if g)
            weak.append(letter.upper())
    if len(set(weak)) == 1:
        return Parsed({"letter": weak[0]})
    if len(set(weak)) > 1:
        concluded = _concluding_letter(t) or _concluding_labelled(t, options)
        if concluded is not None:
            return Parsed({"letter": concluded}, ("the concluding sentence's letter",))
        return Invalid(f"several letters ({', '.join(sorted(set(weak)))}) and no answer cue")
    labelled = _concluding_labelled(t, options)
    if labelled is not None:
        return Parsed({"letter": labelled}, ("the concluding sentence's letter",))
    if options:
        by_label = _letter_from_label(t, options)
        if by_label is not None:
            return Parsed({"letter": by_label}, ("matched by option label",))
    return Invalid("no option letter found")


# "A or B", "(A) or (C)", "A/B"
_OR_LETTERS = re.compile(r"(?<![A-Za-z'])[(\[]?([A-E])[)\]]?\s*(?:or|/)\s*[(\[]?([A-E])[)\]]?"
                         r"(?![A-Za-z'])")
# a letter at the start of an answer: "C", "C) park", "(C) park", "C - park", "C."
_LEADING_LETTER = re.compile(
    r"^\W*(?:(?:option|choice|letter)\s+)?(?P<open>[(\[])?\s*(?P<letter>[A-Ea-e])\s*"
    r"(?P<close>[)\].:,]|\s+-\s|\s*$)"
    r"|^\W*(?:(?:option|choice|letter)\s+)(?P<letter2>[A-Ea-e])\b",
    re.IGNORECASE,
)


def _choice_in(segment: str, options: Mapping[str, str] | None) -> ParseResult | None:
    """The letter of one answer segment; ``None`` when it names none."""
    hedged = hedge(segment)
    if hedged:
        return Invalid(f"a hedged answer ({hedged})")
    alternatives = _OR_LETTERS.search(segment)
    if alternatives and alternatives.group(1) != alternatives.group(2):
        return Invalid(f"alternatives ({alternatives.group(0)}), not one letter")
    m = _LEADING_LETTER.match(segment)
    if m:
        letter = m.group("letter") or m.group("letter2")
        return Parsed({"letter": letter.upper()})
    cued = _letter_from_cue(segment)
    if cued is not None:
        return Parsed({"letter": cued})
    weak = {next(g for g in wm.groups() if g).upper()
            for pattern in _WEAK for wm in pattern.finditer(segment)}
    if len(weak) == 1:
        return Parsed({"letter": weak.pop()})
    if len(weak) > 1:
        return Invalid(f"several letters ({', '.join(sorted(weak))}) in the answer")
    # "A" followed by a word is an article ("A pharmacy"): try the option labels
    if options:
        by_label = _letter_from_label(segment, options)
        if by_label is not None:
            return Parsed({"letter": by_label}, ("matched by option label",))
    # "I think it's C": the one capital letter standing alone in a short answer
    alone = {m.group(1) for m in _STANDALONE.finditer(segment)
             if not (m.group(1) == "A" and _ARTICLE_AFTER.match(segment, m.end()))}
    if len(alone) == 1 and len(segment) <= 80:
        return Parsed({"letter": alone.pop()})
    return None


_STANDALONE = re.compile(r"(?<![A-Za-z'\-])([A-E])(?![A-Za-z'\-])")
_ARTICLE_AFTER = re.compile(r"\s+[a-z]")


# the words of a concluding sentence: "The feature is most consistent with a golf course
# (D).", "So the answer is (D).", "Therefore it is the golf course (D)."
_CONCLUDES = re.compile(
    r"\b(?:most\s+consistent\s+with|best\s+(?:match(?:es|ed)?|fits?)\b|most\s+likely"
    r"|the\s+answer\s+is|therefore|thus|hence|in\s+conclusion|overall|so\b)",
    re.IGNORECASE)
# a sentence that rules a letter out or leaves two standing is no conclusion
_NOT_CONCLUDING = re.compile(
    r"\b(?:not|no|never|rules?\s+out|ruled\s+out|rather\s+than|instead\s+of|than"
    r"|either|or|and)\b|n't\b", re.IGNORECASE)


# a letter written with its option's text inside a sentence: "**E. garages**", "E) garages"
_LETTER_THEN_TEXT = re.compile(r"(?<![A-Za-z'\-])([A-E])[.)]\s+([^.,;:!?()]+)")


def _last_sentence(text: str, *, option_letters: bool = True) -> str | None:
    """The last sentence of the last line, markdown marks removed; with
    ``option_letters``, "E. garages" is one option, not the end of a sentence."""
    lines = nonempty_lines(text)
    if not lines:
        return None
    plain = re.sub(r"[*_`#>]+", "", lines[-1]).strip()
    end = r"(?<=[.!?])(?<!\b[A-E]\.)\s+" if option_letters else r"(?<=[.!?])\s+"
    sentences = [s for s in re.split(end, plain) if s.strip()]
    return sentences[-1] if sentences else None


def _concluding_labelled(text: str, options: Mapping[str, str] | None) -> str | None:
    """The one letter of a concluding last sentence that writes it with its own option's
    text ("so the fill is most consistent with **E. garages**.", "E) garages"); ``None``
    when the sentence does not conclude, rules out, hedges, or the text after the letter
    is not that option's.

    Examples
    --------
    >>> opts = {"A": "prison", "E": "garages"}
    >>> _concluding_labelled("Stripes.\\nSo it is most consistent with **E. garages**.", opts)
    'E'
    >>> _concluding_labelled("So it is most consistent with E) prison.", opts) is None
    True
    >>> _concluding_labelled("So it is probably E. garages.", opts) is None
    True
    """
    if not options:
        return None
    last = _last_sentence(text)
    if last is None or not _CONCLUDES.search(last) or _NOT_CONCLUDING.search(last) \
            or hedge(last):
        return None
    found = set()
    for m in _LETTER_THEN_TEXT.finditer(last):
        label = (options.get(m.group(1)) or "").strip().lower()
        written = m.group(2).strip().lower()
        if not label or not written.startswith(label):
            return None
        found.add(m.group(1))
    return found.pop() if len(found) == 1 else None


# a choice said with a preference word: "I'd lean towards B", "I'll go with E", "if I had
# to choose, E"
_PICK = re.compile(
    r"\b(?:I(?:'d|\s+would|'ll|\s+will)?\s+(?:lean(?:ing)?\s+towards?|go\s+with|pick|choose)"
    r"|if\s+I\s+(?:had|have)\s+to\s+(?:choose|pick)\s*,?)\s+", re.IGNORECASE)
# a doubt after the choice: "lean towards B, but it could well be C"
_PICK_DOUBT = re.compile(
    r"\b(?:but|though|although|however|yet|could|might|maybe|perhaps|or|either)\b|\?",
    re.IGNORECASE)
# the offer before it: "either a dock (B) or a ferry terminal (C)", "could be X or Y"
_EITHER_OR = re.compile(r"\b(?:either|could\s+be|might\s+be)\b[^.!?\n]*?\bor\b",
                        re.IGNORECASE)


def _picked_after_either_or(text: str, options: Mapping[str, str] | None) -> str | None:
    """The letter a last sentence chooses with a preference word (``I'd lean towards B``,
    ``I'll go with E``, ``if I had to choose, E``) after an either/or earlier in the text
    that offers it; ``None`` otherwise (no offer, a doubt or question mark after the
    choice, an option not offered).

    Examples
    --------
    >>> opts = {"B": "dock", "C": "ferry terminal"}
    >>> _picked_after_either_or("Either a dock (B) or a ferry terminal (C). "
    ...                         "No ferry icon, so I'd lean towards B.", opts)
    'B'
    >>> _picked_after_either_or("Either a dock (B) or a ferry terminal (C). "
    ...                         "I'd lean towards B, but it could well be C.", opts) is None
    True
    """
    last = _last_sentence(text)
    if last is None:
        return None
    m = _PICK.search(last)
    if m is None or _PICK_DOUBT.search(last[m.end():]):
        return None
    before = text[:len(text) - len(last)] + last[:m.start()]
    offer = _EITHER_OR.search(before)
    if offer is None:
        return None
    chosen = _choice_in(last[m.end():], options)
    if not isinstance(chosen, Parsed):
        return None
    letter: str = chosen.value["letter"]
    label = (options or {}).get(letter, "")
    offered = before[offer.start():]
    named = rf"[(\[]\s*{letter}\s*[)\]]|(?<![A-Za-z'])({letter})(?![A-Za-z'])(?!\s+[a-z])"
    if not (re.search(named, offered) or (label and label.lower() in offered.lower())):
        return None
    return letter


def _concluding_letter(text: str) -> str | None:
    """The one letter of the last sentence when it concludes (reasoning before it may
    name and rule out other letters); ``None`` otherwise.

    Examples
    --------
    >>> _concluding_letter("A pitch (B) is greener.\\nIt is most consistent with (D).")
    'D'
    >>> _concluding_letter("It fits a golf course (D).\\nSo it is either (B) or (D).") is None
    True
    >>> _concluding_letter("It fits a golf course (D).\\nSo the paler green rules out (B).") is None
    True
    """
    last = _last_sentence(text, option_letters=False)
    if last is None:
        return None
    if not _CONCLUDES.search(last) or _NOT_CONCLUDING.search(last) or hedge(last):
        return None
    letters = {next(g for g in wm.groups() if g).upper()
               for pattern in _WEAK for wm in pattern.finditer(last)}
    return letters.pop() if len(letters) == 1 else None
