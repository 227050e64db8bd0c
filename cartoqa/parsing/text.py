"""Text clean-up shared by the parsers: reasoning blocks, markdown, quotes, answer cues."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.structured import find_structured

#: Longest response the parsers look at; the tail is kept, since answers come last.
MAX_CHARS = 20_000

_THINK_END = re.compile(r"</think(?:ing)?>", re.IGNORECASE)
_DIGIT_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009\u2007](?=\d{3}(?!\d))")
_TRANSLATE = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2192": "->",
        "\u27f6": "->",
        "\u21d2": "->",
        "\u2022": "-",
        "\u00b7": "-",
        "\r": "\n",
    }
)
# LaTeX "$\boxed{C}$", "\(\boxed{5}\)": the boxed answer
_BOXED = re.compile(r"(?:\$|\\\(|\\\[)?\s*\\boxed\{([^{}]*)\}\s*(?:\$|\\\)|\\\])?")
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\{([^{}]*)\}")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|`")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*", re.MULTILINE)
_CUE = re.compile(
    r"\b(?:final\s+answer|answer)\b(?:\s+is|\s+would\s+be|\s+will\s+be|\s+should\s+be)?"
    r"\s*(?:[:=]|-(?!>)|\bis\b)?",
    re.IGNORECASE,
)


def normalize_text(text: str) -> str:
    """Normalise a response before parsing.

    Keeps only what follows a closing ``</think>`` tag, joins digit groups split by a
    (narrow) no-break space, unwraps LaTeX ``$\\boxed{C}$``, turns typographic quotes,
    dashes and arrows into ASCII and applies Unicode NFC. Markdown is kept (see
    :func:`strip_markdown`).

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    str
        The normalised text.

    Examples
    --------
    >>> normalize_text("<think>hmm</think> “C” – final")
    ' "C" - final'
    """
    if not isinstance(text, str):
        return ""
    if len(text) > MAX_CHARS:
        text = text[-MAX_CHARS:]
    parts = _THINK_END.split(text)
    if len(parts) > 1:
        text = parts[-1]
    text = _DIGIT_GROUP_SPACE.sub("", text)
    if "boxed" in text:
        text = _BOXED.sub(r"\1", _LATEX_TEXT.sub(r"\1", text))
    text = text.translate(_TRANSLATE)
    text = unicodedata.normalize("NFC", text)
    return text.replace("\u00a0", " ").replace("\u202f", " ").replace("\t", " ")


def strip_markdown(text: str) -> str:
    """Remove markdown emphasis (``**``, ``__``, ``*``), backticks and heading marks.

    Parameters
    ----------
    text : str
        Normalised text.

    Returns
    -------
    str
        The text without emphasis markers; list bullets (``* item``) are kept.

    Examples
    --------
    >>> strip_markdown("**Answer:** `C`")
    'Answer: C'
    """
    text = _HEADING.sub("", text)
    return _EMPHASIS.sub("", text)


def clean(text: str) -> str:
    """Apply :func:`normalize_text` then :func:`strip_markdown`.

    Parameters
    ----------
    text : str
        The raw response.

    Returns
    -------
    str
        Cleaned text.
    """
    return strip_markdown(normalize_text(text))


def after_last_cue(text: str) -> str | None:
    """Return the text after the last ``Answer:`` / ``The answer is`` / ``Final answer:``.

    Parameters
    ----------
    text : str
        Cleaned text.

    Returns
    -------
    str or None
        The text after the cue (stripped), or ``None`` when there is no cue or nothing
        follows the last one.

    Examples
    --------
    >>> after_last_cue("Reasoning... The answer is 12.")
    '12.'
    >>> after_last_cue("no cue here") is None
    True
    """
    last = None
    for match in _CUE.finditer(text):
        last = match
    if last is None:
        return None
    rest = text[last.end() :].strip()
    return rest or None


def nonempty_lines(text: str) -> list[str]:
    """Split text into stripped, non-empty lines.

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    list of str
        The lines, without blank ones.
    """
    return [line.strip() for line in text.split("\n") if line.strip()]


def fold(text: str) -> str:
    """Case-fold and remove accents (NFKD without combining marks).

    Parameters
    ----------
    text : str
        Any text.

    Returns
    -------
    str
        Folded text, e.g. ``"Lönnrotinkatu"`` becomes ``"lonnrotinkatu"``.
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


# ------------------------------------------------------------------ answer cues
# A cue is a label at the start of a line (after bullets, quotes and heading marks,
# which strip_markdown leaves as plain text): "Answer:", "Final answer:", "Final Answer -",
# or a line that is only "Answer" / "Final answer" (a heading), whose answer follows.
_LINE_CUE = re.compile(
    r"^[ \t>*+\-]*(?:(?:my|the|your|our)\s+)?(?P<final>final|overall|short|correct|best)?\s*"
    r"(?:answer|response)(?:\s*\((?:[^()\n]{0,30})\))?"
    r"(?:\s+is)?[ \t]*(?:[:=]|-(?![>\d.])|(?=$))[ \t]*",  # "is -7–24": a minus sign
    re.IGNORECASE | re.MULTILINE,
)
# "the answer is X" in a sentence: used only when no line starts with a cue
_PHRASE_CUE = re.compile(
    r"\b(?:the|my|final|correct|corrected|revised|updated|amended)\s+"
    r"(?:final\s+|correct\s+|corrected\s+|revised\s+|updated\s+|amended\s+)?answer\s+"
    r"(?:is|would\s+be|will\s+be|should\s+be|=)\s*:?\s*",
    re.IGNORECASE,
)
# "Answer: see below", "Answer: as follows": the answer is on the next lines
_POINTS_BELOW = re.compile(
    r"^(?:(?:see|as|listed|given|shown|written)\b.{0,30}\b(?:below|follows|following)|"
    r"(?:below|the\s+following)\b.{0,30})\W*$",
    re.IGNORECASE,
)
# lines after an answer that comment on it
_NOTE = re.compile(
    r"^[ \t>*+\-]*\(?(?:notes?|explanation|reasoning|rationale|reason|justification|"
    r"confidence|caveats?|disclaimer|comments?|remarks?|assumptions?|observations?|"
    r"p\.?s\.?|why|details?|verification|check)\b\s*[:.\-)]",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<!\d)[.!?](?=\s|$)|\.(?=\s+[A-Z])|\n")
#: Words that make an answer a guess: a hedged answer is invalid.
_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|probably|might(?:\s+be)?|may\s+be|could\s+be|either|"
    r"(?:also|equally)\s+(?:plausible|possible|likely)|alternatively|plausibly|likely|unlikely|"
    r"lean(?:s|ing)?\s+(?:towards?|to)|tentative(?:ly)?|"
    r"not\s+(?:sure|certain)|unsure|uncertain|unclear|hard\s+to\s+(?:tell|say)|i\s+guess|"
    r"can(?:no|')t\s+(?:tell|determine|be\s+sure)|"
    r"not\s+(?:100\s*%|a\s+hundred\s+percent|entirely|completely|totally|fully)\s+"
    r"(?:sure|certain))\b"
    # doubt added after the answer: "Yes (I think, the icon is tiny)", "C, I believe."
    # ("I think it's C", the answer after "I think", stays firm)
    r"|\((?:[^()\n]{0,40}?[\s,;])?(?P<doubt>i\s+think|i\s+believe|i\s+guess|i\s+suppose|i\s+assume|"
    r"i'm\s+guessing|if\s+i(?:'m|\s+am)?\s+(?:read|reading|see|seeing|understand|interpret)\w*"
    r"\b[^()\n]{0,20}|(?:if|unless)\s+i(?:'m|\s+am)\s+(?:not\s+)?mistaken|hopefully|"
    r"i'm\s+not\s+sure|not\s+sure)\b"
    r"|[,;]\s*(?P<doubt2>i\s+think|i\s+believe|i\s+guess|i\s+suppose)\s*[.!]?\s*$",
    re.IGNORECASE,
)


def block_after(lines: list[str], start: int) -> str:
    """The lines from ``start`` up to a blank line or a note (skipping leading blanks).

    Parameters
    ----------
    lines : list of str
        The text's lines.
    start : int
        The first line to take.

    Returns
    -------
    str
        The block, lines joined by newlines ("" when there is none).
    """
    out: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            if out:
                break
            continue
        if _NOTE.match(line) and out:
            break
        out.append(line)
    return "\n".join(out)


def list_goes_on(lines: list[str], start: int, rest: str) -> str:
    """The lines from ``start`` that close a ``[`` left open in ``rest`` (a cued list that
    runs past its line), up to and with the line that closes it; "" when ``rest`` opens no
    list or no line below closes it before a blank line.

    Examples
    --------
    >>> list_goes_on(["Route: [a,", " b, c]", "It is short."], 1, "[a,")
    ' b, c]'
    >>> list_goes_on(["Route: [a, b]", "c]"], 1, "[a, b]"), list_goes_on(["[a,", ""], 1, "[a,")
    ('', '')
    """
    depth = rest.count("[") - rest.count("]")
    taken: list[str] = []
    for line in lines[start:] if depth > 0 else []:
        if not line.strip():
            return ""
        taken.append(line)
        depth += line.count("[") - line.count("]")
        if depth <= 0:
            return "\n".join(taken)
    return ""


# a cue inside a line: "... No, I missed two. Final answer: 5", "so my answer is: C"
_INLINE_CUE = re.compile(
    r"(?<=[.!?;,)\]]\s)\s*(?P<final>final\s+)?answer\s*(?:is\s*)?[:=]\s*"
    r"|\b(?P<final2>final)\s+answer\s*(?:is\s*)?[:=]\s*",
    re.IGNORECASE,
)
# a cue that corrects what came before, at a line start or inside a line: "Corrected
# answer: C", "Revised answer: C", "Updated answer -", "Final corrected answer: C",
# "New answer: C", "Amended answer: C"; it counts as a final cue and replaces earlier ones
_CORRECTION_CUE = re.compile(
    r"(?:^[ \t>*+\-]*|(?<=\s)(?=(?:final\s+)?(?:corrected|revised|updated|amended|new)\b))"
    r"(?:(?:my|the)\s+)?(?:final\s+)?(?:corrected|revised|updated|amended|new)\s+"
    r"(?:final\s+)?answer(?:\s+is)?\s*(?:[:=]|-(?![>\d.]))\s*",
    re.IGNORECASE | re.MULTILINE,
)
# a decision in words: "I'll go with E", "I choose B", "I'd pick the first"
_DECISION = re.compile(
    r"\b(?:I(?:'ll|\s+will|'d|\s+would)\s+(?:go|stick)\s+with|I(?:'ll|\s+will|'d|\s+would)?"
    r"\s+(?:choose|pick|select)|(?:I\s+am|I'm)\s+going\s+with|my\s+(?:pick|choice)\s+is|"
    r"I(?:'d|\s+would)\s+say(?=\s+[^\s,.;!]+(?:\s+[^\s,.;!]+)?\s*(?:[.,;!]|$)))"
    r"\s*:?\s*",
    re.IGNORECASE,
)
# an explicit correction of what was just said: "Answer: A. Wait, actually it's B."
_CORRECTION = re.compile(
    r"(?:^|(?<=[\s.,;!?]))(?:wait|oops|sorry|correction|actually|scratch\s+that|"
    r"on\s+second\s+thought)\b[,.!:;]?\s*(?:(?:actually|no|wait)\b[,.!:]?\s*)?"
    r"(?:it'?s|it\s+is|that'?s|make\s+(?:it|that)|it\s+should\s+be|(?:the\s+)?(?:correct\s+)?"
    r"answer\s+(?:is|should\s+be)|i\s+meant?)\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)


# words between two answers that take the first one back
_RETRACTION = re.compile(
    r"\b(?:wait|oops|sorry|correction|actually|mistake|wrong|incorrect|misses|missed|forgot|"
    r"overlooked|re-?(?:check|count|examin\w*|read\w*|consider\w*|measur\w*|calculat\w*|"
    r"comput\w*|trac\w*|evaluat\w*)|(?:under|over)estimat\w*|mis(?:count|measur|read|judg)\w*|"
    r"(?:longer|shorter|more|fewer|further|farther|closer|larger|smaller)\s+than\s+I\s+"
    r"(?:first\s+)?(?:thought|estimated|said|measured|counted)|let\s+me\s+(?:fix|correct|"
    r"redo|re-?do)|(?:on|at|upon)\s+(?:a\s+)?(?:second|closer|further|another)\s+"
    r"(?:thoughts?|looks?|glance|inspection)|(?:taking|having|after)\s+(?:a\s+)?(?:second|"
    r"closer|another)\s+look|on\s+reflection|look(?:ing)?\s+(?:at\s+it\s+)?again|"
    r"scratch\s+that|i\s+meant?|corrected|revised|amended|"
    # the first answer was partial: "I only measured the first leg", "I left out the
    # second part", "I didn't include the other side"
    r"only\s+(?:measured|counted|included|considered|added|traced|looked\s+at|checked)|"
    r"left\s+out|(?:didn't|did\s+not|hadn't|had\s+not)\s+(?:include|count|measure|add|"
    r"consider)\w*)\b",
    re.IGNORECASE,
)


# "the corrected answer is C": a phrase cue that corrects
_CORRECTING = re.compile(r"\w+\s+(?:final\s+)?(?:corrected|revised|updated|amended)\b", re.I)


def retracts(text: str) -> bool:
    """Whether words between two answers take the first one back (``Wait, that misses
    a turn.``, ``Oops, I forgot ...``, ``let me recount``).

    Examples
    --------
    >>> retracts("Oops, I forgot the first turn."), retracts("It then turns left.")
    (True, False)
    >>> retracts("Hmm, re-measuring the second leg, it is longer than I thought.")
    True
    >>> retracts("The second leg is longer than the first.")
    False
    >>> retracts("Hmm, I only measured the first leg of the path."), retracts("It only turns.")
    (True, False)
    """
    return bool(_RETRACTION.search(text))


def _question(segment: str) -> bool:
    """Whether an answer is asked, not given ("3? No, I missed two.")."""
    first = re.match(r"[^\n.!?]*[.!?]?", segment)
    return bool(first and first.group(0).rstrip().endswith("?"))


def _corrected(segment: str) -> str:
    """The correction an answer makes of itself, else the answer."""
    m = _CORRECTION.search(segment)
    if m and m.start() > 0:
        return m.group("rest").strip()
    return segment


def answer_segments(text: str) -> list[str]:
    """Return the answers a response marks with a cue, in order; the last is its answer.

    A cue starts a line: ``Answer:``, ``Final answer:``, ``**Answer**:`` (markdown is
    already stripped), ``### Final Answer`` (a heading whose answer is on the next
    lines). Inside a line, ``Final answer: X`` and ``... . Answer: X`` after a sentence
    are cues too, and so are ``the answer is X`` and a decision in words (``I'll go with
    E``, ``I choose B``). When a ``Final answer`` cue is present, only final cues
    count. Each segment is the rest of the cue's line (up to a later cue on it); when
    that is empty or ends with ``:``, the lines below it up to a blank line or a
    ``Note:`` line. A cue whose answer is a question (``The answer is 3? No, ...``) is no
    answer; an explicit correction inside a segment (``A. Wait, actually it's B``) gives
    the correction, and so does a later cue after words that take an answer back
    (``Wait, that misses a turn.``) or a decision in words: the segments before it are
    dropped. Two different answers with nothing between them stay two answers
    (:func:`agree` makes them invalid).

    Parameters
    ----------
    text : str
        Cleaned text (see :func:`clean`).

    Returns
    -------
    list of str
        The answer segments, in order; empty when there is no cue.

    Examples
    --------
    >>> answer_segments("I count 3.\\nAnswer: 3\\n\\nThis answer is based on 2 icons.")
    ['3']
    >>> answer_segments("Answer: D\\nreasoning\\nFinal answer: B")
    ['B']
    >>> answer_segments("Therefore, the answer is C. Done.")
    ['C']
    >>> answer_segments("The answer is 3? No, I missed two. Final answer: 5")
    ['5']
    """
    lines = text.split("\n")
    found: list[tuple[int, int, bool, bool, str]] = []  # start, end, final, decides, text
    offset = 0
    for i, line in enumerate(lines):
        starts = []
        m = _LINE_CUE.match(line)
        if m:
            starts.append((m.start(), m.end(), bool(m.group("final")), False))
        for im in _INLINE_CUE.finditer(line):
            if m and im.start() < m.end():
                continue
            starts.append((im.start(), im.end(),
                           bool(im.group("final") or im.group("final2")), False))
        for dm in _DECISION.finditer(line):
            starts.append((dm.start(), dm.end(), False, True))
        for cm in _CORRECTION_CUE.finditer(line):  # "Corrected answer: C"
            starts = [s for s in starts if not cm.start() <= s[0] < cm.end()]
            starts.append((cm.start(), cm.end(), True, True))
        starts.sort()
        for k, (begin, end, final, decides) in enumerate(starts):
            stop = starts[k + 1][0] if k + 1 < len(starts) else len(line)
            rest = line[end:stop].strip()
            seg_end = offset + stop
            if _POINTS_BELOW.match(rest):
                rest = ""
            more = list_goes_on(lines, i + 1, rest) if k + 1 == len(starts) else ""
            if more:  # "Route: ['blue', 'turn left',\n 'Mannerheimintie', 'red']"
                rest = f"{rest}\n{more}"
                seg_end = offset + len(line) + 1 + len(more)
            elif (not rest or rest.endswith((":", ";", ","))) and k + 1 == len(starts):
                # (a list cut after ";" or "," goes on below: "Answer: A;\nB")
                block = block_after(lines, i + 1)
                rest = (rest + "\n" + block).strip() if block else rest.rstrip(":;,").strip()
                seg_end = offset + len(line) + 1 + len(block)
            if rest and not _question(rest):
                found.append((offset + begin, seg_end, final, decides, rest))
        offset += len(line) + 1
    phrases: list[tuple[int, int, bool, bool, str]] = []
    for pm in _PHRASE_CUE.finditer(text):
        rest = text[pm.end():]
        start = 0
        if rest.lstrip().startswith("[") and "]" in rest:  # "[1. Texas, 2. Ohio]"
            start = rest.index("]")
        end_m = _SENTENCE_END.search(rest, start)
        seg = (rest[: end_m.start()] if end_m else rest).strip()
        whole = rest[: rest.find("\n")] if "\n" in rest else rest
        if seg and not _question(whole.strip()):
            phrases.append((pm.start(), pm.end() + len(seg), False, False, seg))
    if not found:
        found = phrases
    else:
        # "Answer: 2 ... On closer inspection ... So the answer is 1.": a later "the
        # answer is X" after words that take the cued answer back is the correction
        last_end = max(f[1] for f in found)
        late = [p for p in phrases
                if p[0] >= last_end and (_RETRACTION.search(text[last_end:p[0]])
                                         or _CORRECTING.match(text, p[0]))]
        for begin, end, final, decides, seg in late[-1:]:
            cut = [m.end() for m in _SENTENCE_END.finditer(text, last_end, begin)]
            sentence = text[cut[-1] if cut else last_end:end].strip()
            # "On closer inspection, maybe the answer is 1": the doubt goes with it
            found.append((begin, end, final, decides or bool(_CORRECTING.match(text, begin)),
                          sentence if hedge(sentence) else seg))
    found.sort(key=lambda f: f[0])
    if any(f[2] for f in found):
        found = [f for f in found if f[2]]
    out: list[str] = []
    previous_end = None
    for begin, end, _final, decides, seg in found:
        between = text[previous_end:begin] if previous_end is not None else ""
        if decides or _RETRACTION.search(between):
            out = []  # an explicit correction or decision replaces what came before
        corrected = _corrected(seg)
        if corrected is not seg:
            out = []
        out.append(corrected)
        previous_end = end
    if out and previous_end is not None:
        corrects = _trailing_correction(text[previous_end:])
        if corrects is not None:  # "Answer: 0.29 km.\nActually, re-measuring, 0.35 km."
            out = [corrects]
    return out


# a line after the last answer that takes it back and gives another: "Actually, re-measuring,
# 0.35 km.", "Wait, it's Mikonkatu.", "Oops — B."
_TRAILING_CORRECTION = re.compile(
    r"^(?:wait|oops|sorry|correction|actually|scratch\s+that|on\s+second\s+thought)\b"
    r"[\s,.!:;\u2014\u2013-]*(?:(?:actually|no|wait)\b[\s,.!:;\u2014\u2013-]*)?"
    r"(?:(?:re-?(?:measuring|counting|checking|reading|examining)|looking\s+again|"
    r"(?:up)?on\s+(?:a\s+)?closer\s+look)\b[\s,.!:;\u2014\u2013-]*)?"
    r"(?P<form>(?:it'?s|it\s+is|that'?s|make\s+(?:it|that)|it\s+should\s+be|(?:the\s+)?"
    r"(?:correct\s+)?answer\s+(?:is|should\s+be)|i\s+meant?)\s+)?(?P<rest>\S[^\n]*)$",
    re.IGNORECASE)


def _trailing_correction(tail: str) -> str | None:
    """The answer a line after the last cued answer corrects it to, else ``None``.

    Only the first line after the answer, opening with a word that takes it back, and
    then either a correction form (``it's``, ``make it``, ``the answer is``) or a short
    answer of at most four words (``0.35 km``): ``Actually, the count includes one
    hidden area.`` explains, it corrects nothing.

    Examples
    --------
    >>> _trailing_correction("\\nActually, re-measuring, 0.35 km.")
    '0.35 km'
    >>> _trailing_correction("\\nWait, it's Mikonkatu.")
    'Mikonkatu'
    >>> _trailing_correction("\\nActually, the count includes one partly hidden area.") is None
    True
    >>> _trailing_correction("\\nSorry for any confusion.") is None
    True
    >>> _trailing_correction("\\nWait, no - B.")
    'B'
    """
    lines = [ln.strip(" \t.") for ln in tail.split("\n") if ln.strip(" \t.")]
    m = _TRAILING_CORRECTION.match(lines[0]) if lines else None
    if m is None:
        return None
    rest = m.group("rest").strip()
    if m.group("form") or (len(rest.rstrip(".!").split()) <= 4 and _SHORT_VALUE.match(rest)
                           and not _CLAUSE_VERB.search(rest)):
        return rest
    return None


# what a short correction opens with: a number, a name or letter, a compass direction
_SHORT_VALUE = re.compile(r"(?:\d|[A-Z]|(?:north|south|east|west)|(?:yes|no|true|false)\b"
                          r"|[a-h][.)]?$)")  # "Actually, c." (an option's letter)
_CLAUSE_VERB = re.compile(r"\b(?:is|are|was|were|look|looks|seem|seems|shows?|for)\b", re.I)


def drop_notes(text: str) -> str:
    """Remove note paragraphs (``Note: ...``, ``Explanation: ...``) after the first line.

    Parameters
    ----------
    text : str
        Cleaned text.

    Returns
    -------
    str
        The text without lines from a note label to the next blank line.

    Examples
    --------
    >>> drop_notes("3\\n\\nNote: 2 of them are unnamed.")
    '3\\n'
    """
    lines = text.split("\n")
    out: list[str] = []
    skipping = False
    for i, line in enumerate(lines):
        if i > 0 and _NOTE.match(line):
            skipping = True
        elif not line.strip():
            skipping = False
        if not skipping:
            out.append(line)
    return "\n".join(out)


def hedge(segment: str) -> str | None:
    """Return the hedging word of an answer (``maybe``, ``might``, ...), or ``None``.

    Parameters
    ----------
    segment : str
        An answer segment.

    Returns
    -------
    str or None
        The hedge found.

    Examples
    --------
    >>> hedge("it might be yes")
    'might be'
    >>> hedge("Yes") is None
    True
    >>> hedge("Yes (I think, the icon is tiny)"), hedge("I think it's C") is None
    ('i think', True)
    """
    m = _HEDGE.search(segment)
    if m is None:
        return None
    return (m.group("doubt") or m.group("doubt2") or m.group(0)).lower()


def json_answer(text: str) -> object:
    """The value of an ``answer`` (or ``final_answer``) key of a JSON object in the text.

    Parameters
    ----------
    text : str
        Normalised text.

    Returns
    -------
    object
        The value, or ``None`` when no JSON object with such a key is found.

    Examples
    --------
    >>> json_answer('```json\\n{"answer": "C", "reason": "icon"}\\n```')
    'C'
    """
    if "{" not in text:
        return None
    data = find_structured(text, kind=dict)
    if not isinstance(data, dict):
        return None
    lower = {str(k).lower().replace(" ", "_"): v for k, v in data.items()}
    for key in ("final_answer", "answer", "result"):
        if key in lower:
            return lower[key]
    return None


def agree(
    results: Sequence[ParseResult | None],
    key: Callable[[Parsed], object] = lambda p: p.value,
    what: str = "answers",
) -> ParseResult | None:
    """Combine the readings of several answer segments into one result.

    Segments without a value (``None``) are ignored. A hedged or unreadable segment
    (``Invalid``) makes the whole answer invalid; readings that differ (by ``key``) are
    a set of conflicting answers, invalid too; otherwise the last reading is returned.
    (Segments an explicit correction replaced are already gone: see
    :func:`answer_segments`.)

    Parameters
    ----------
    results : sequence of Parsed, Invalid or None
        One reading per segment.
    key : callable
        What two readings must share to agree.
    what : str
        Plural noun for the reason (``"letters"``, ``"numbers"``).

    Returns
    -------
    Parsed, Invalid or None
        ``None`` when no segment had a value.

    Examples
    --------
    >>> agree([Parsed({"n": 1}), Parsed({"n": 2})]).reason
    'several different answers'
    """
    got = [r for r in results if r is not None]
    if not got:
        return None
    invalid = [r for r in got if isinstance(r, Invalid)]
    if invalid:
        return invalid[-1]
    keys = []
    for r in got:
        k = key(r)  # type: ignore[arg-type]
        if k not in keys:
            keys.append(k)
    if len(keys) > 1:
        return Invalid(f"several different {what}")
    return got[-1]
