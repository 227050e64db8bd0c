"""Lists of names (STMF names) and pairs of road names (MML)."""

from __future__ import annotations

import re

from cartoqa.parsing.result import Invalid, Parsed, ParseResult
from cartoqa.parsing.structured import find_structured
from cartoqa.parsing.text import after_last_cue, clean, nonempty_lines

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
_AND = re.compile(r"\s+(?:and|&|/)\s+", re.IGNORECASE)
_LAST_AND = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_LEADING_AND = re.compile(r"^(?:and|&)\s+", re.IGNORECASE)
_PROSE_INTRO = re.compile(
    r"^(?:.*?\b(?:intersection|junction|crossing|corner|meeting)\s+(?:of|between)"
    r"|.*?\bbetween|.*?\b(?:roads?|streets?|names?)\s+(?:are|is))\s+(?P<rest>.+)$",
    re.IGNORECASE,
)


def _tidy(name: str) -> str:
    name = name.strip().strip("\"'").strip()
    name = _LEADING_AND.sub("", name)
    name = re.sub(r"^(?:the\s+)?(?:roads?|streets?|names?)\s+(?:are|is)\s+", "", name, flags=re.I)
    name = name.rstrip(".;,!").strip().strip("\"'").strip()
    return name


def _split_line(line: str, *, split_and: bool) -> list[str]:
    parts = [p for p in re.split(r"[;,]", line)]
    if split_and:
        parts = [q for p in parts for q in _AND.split(p)]
    elif len(parts) > 1:
        # "A, B and C": only the last item of a comma list is split on "and"
        parts = parts[:-1] + _LAST_AND.split(parts[-1])
    return parts


def _items(seg: str, *, split_and: bool) -> list[str] | None:
    """The list items of a response segment; ``[]`` for an explicit none, None if no list."""
    structured = find_structured(seg, kind=list)
    if isinstance(structured, list) and all(isinstance(x, str) for x in structured):
        return [n for n in (_tidy(x) for x in structured) if n]
    lines = nonempty_lines(seg)
    if not lines:
        return None
    if len(lines) == 1 and _NONE.match(lines[0].strip("*_ .")):
        return []
    bulleted = [_BULLET.sub("", ln, count=1) for ln in lines if _BULLET.match(ln)]
    if bulleted:
        raw = bulleted
    else:
        body = [ln for ln in lines if not ln.endswith(":")]
        raw = []
        for ln in body:
            m = _LABEL.match(ln)
            if m and len(m.group("label").split()) <= 10 and m.group("rest").strip():
                ln = m.group("rest")
            if len(body) == 1:
                intro = _PROSE_INTRO.match(ln)
                if intro:
                    ln = intro.group("rest")
            if _PROSE.search(ln):
                continue
            raw.extend(_split_line(ln, split_and=split_and))
    items = []
    for item in raw:
        m = _LABEL.match(item.strip())
        if m and len(m.group("label").split()) <= 3 and m.group("rest").strip():
            item = m.group("rest")
        tidy = _tidy(item)
        if tidy and len(tidy.split()) <= MAX_NAME_WORDS and not _PROSE.search(tidy):
            items.append(tidy)
    if not items and any(_NONE.match(ln.strip("*_ .")) for ln in lines):
        return []
    return items or None


def parse_names(text: str) -> ParseResult:
    """Parse a list of names: one per line, bulleted, numbered, comma-separated or JSON.

    The text after the last ``Answer:`` cue is used when there is one. Header lines
    ending in ``:`` are dropped; ``Label: name`` keeps the name; ``A, B and C`` gives
    three names (``and`` splits only the last item of a comma list; a name on its own
    line or bullet is never split). ``None``, ``There are no ...`` or ``[]`` give an empty
    list. Items longer than :data:`MAX_NAME_WORDS` words, or in the first person or
    apologetic (``I'm sorry``, ``I cannot tell``), are prose and are skipped; a response
    with nothing else (a refusal) is invalid.

    Parameters
    ----------
    text : str
        The raw response.

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
    """
    t = clean(text)
    if not t.strip():
        return Invalid("empty response")
    cue = after_last_cue(t)
    for seg in ([cue] if cue else []) + [t]:
        items = _items(seg, split_and=False)
        if items is not None:
            return Parsed({"names": items})
    return Invalid("no list of names found")


def parse_roads(text: str) -> ParseResult:
    """Parse the names of the roads at a junction (MML): a list as in :func:`parse_names`.

    Unlike names, every item is also split on ``and``, ``&`` and `` / `` and prose such as
    ``the intersection of X and Y`` is reduced to the names.

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
    t = clean(text)
    if not t.strip():
        return Invalid("empty response")
    cue = after_last_cue(t)
    for seg in ([cue] if cue else []) + [t]:
        items = _items(seg, split_and=True)
        if items:
            return Parsed({"roads": items})
    return Invalid("no road names found")
