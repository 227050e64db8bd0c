"""What a blind baseline reads in a prompt: the question body, the format example, and
where candidate answers are named."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

#: Where the answer-format instructions start; the body is what comes before.
_FORMAT_START = re.compile(r"(?im)^\s*answer format\b|format your response as|"
                           r"\banswer (true or false|yes or no)\b")
#: The prompt's example answer: a line ``Answer: ...`` shown "like this", or the
#: thematic suites' ``'My answer is [...]'``.
_EXAMPLES = (
    re.compile(r"like this:\s*\n\s*(Answer:[^\n]*)"),
    re.compile(r"'(My answer is \[[^\]\n]*\])'"),
    re.compile(r"(?m)^\s*(Answer:[^\n]+)$"),
)
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(?![\w.])")


def question_body(item: Mapping[str, Any]) -> str:
    """The question without its answer-format instructions (nor the system prompt).

    Examples
    --------
    >>> question_body({"question": "How many cafes?\\n\\nAnswer format: a number, like "
    ...                            "this:\\nAnswer: 3"})
    'How many cafes?'
    """
    text = str(item.get("question") or "")
    match = _FORMAT_START.search(text)
    return (text[:match.start()] if match else text).strip()


def prompt_example(item: Mapping[str, Any]) -> str | None:
    """The example answer the prompt shows, as a response (``None`` when it shows none).

    The question is searched first, then the system prompt.

    Examples
    --------
    >>> prompt_example({"question": "Q?\\nAnswer format: like this:\\nAnswer: north-east"})
    'Answer: north-east'
    >>> prompt_example({"question": "Q? Format your response as: 'My answer is [TRUE]' "
    ...                 "or 'My answer is [FALSE]'."})
    'My answer is [TRUE]'
    >>> prompt_example({"question": "Q?"}) is None
    True
    """
    for text in (item.get("question"), item.get("system_prompt")):
        for pattern in _EXAMPLES:
            match = pattern.search(str(text or ""))
            if match:
                return match.group(1).strip()
    return None


def normalise(text: str) -> str:
    """Casefolded, accents kept, every run of non-alphanumerics one space.

    Examples
    --------
    >>> normalise("  Café-Bar  'Ö' ")
    'café bar ö'
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def mentioned(text: str, candidates: Iterable[str]) -> list[str]:
    """The candidates the text names as whole words, in the order it first names them.

    Examples
    --------
    >>> mentioned("Is Texas larger than Ohio or TX?", ["Ohio", "TX", "Iowa", "Texas"])
    ['Texas', 'Ohio', 'TX']
    """
    padded = f" {normalise(text)} "
    where = []
    for candidate in candidates:
        norm = normalise(candidate)
        if not norm:
            continue
        at = padded.find(f" {norm} ")
        if at >= 0:
            where.append((at, -len(norm), candidate))
    where.sort()
    out: list[str] = []
    for _, _, candidate in where:
        if candidate not in out:
            out.append(candidate)
    return out


def numbers_in(text: str) -> list[float]:
    """The numbers written in a text, in order.

    Examples
    --------
    >>> numbers_in("between 2 and 3.5 km, not x9")
    [2.0, 3.5]
    """
    return [float(n.replace(",", ".")) for n in _NUMBER.findall(text)]
