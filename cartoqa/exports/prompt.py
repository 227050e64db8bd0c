"""The one prompt text an export hands a harness that has no system message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def prompt_text(item: Mapping[str, Any]) -> str:
    """Return an item's system prompt, a blank line, then its question.

    VLMEvalKit's prompt builders and most lmms-eval models send the user text alone, so
    the exports put the system prompt in front of the question: the VLMEvalKit
    ``question`` column and lmms-eval's ``doc_to_text`` give the model the same text.

    Parameters
    ----------
    item : mapping
        An item or an exported row, with ``question`` and (perhaps empty)
        ``system_prompt``.

    Returns
    -------
    str
        The question alone when there is no system prompt.

    Examples
    --------
    >>> prompt_text({"system_prompt": "Be exact.", "question": "How many?"})
    'Be exact.\\n\\nHow many?'
    >>> prompt_text({"system_prompt": "", "question": "How many?"})
    'How many?'
    """
    system = str(item.get("system_prompt") or "")
    question = str(item["question"])
    return f"{system}\n\n{question}" if system else question
