"""An optional answer extractor: an OpenAI-compatible model reads what the rules could not.

MapWise and FRIEDA scored free-form answers with a language model that pulls the final
answer out of the response. cartoqa does the same only when asked
(``cartoqa score --extractor-endpoint URL --extractor-model NAME``) and only for
responses in which the rule parser found no answer at all: an empty response, a
missing prediction, a hedge (``4 or 5``) or several conflicting answers stay invalid,
since those are answers the rules did read. The extractor's reply is parsed by the
same rules, so it must be written in the task's format; it may say ``NONE``. Both
results are kept: the report's metrics are the rule parser's, and
``report["with_extractor"]`` holds the metrics with the extracted answers, how many
responses were sent and how many came back readable; each sent item's row has an
``extractor`` entry with the extracted text and its reading.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cartoqa.declarations.dispatch import parse_response
from cartoqa.declarations.registry import request_spec
from cartoqa.parsing import Invalid
from cartoqa.runner.client import ChatClient, ItemFailedError, RetryPolicy
from cartoqa.runner.request import chat_completions_url

#: Reasons for which the rule parser did read an answer (a hedge, a conflict): not sent.
READ_BUT_INVALID: tuple[str, ...] = (
    "a hedged answer", "several different", "alternatives", "a range", "both yes and no",
    "several letters", "several numbers", "several different lengths",
)
#: Reasons for which there is nothing to send.
NOTHING_TO_SEND: tuple[str, ...] = ("empty response", "no prediction for this item",
                                    "response is not text")

#: The answer format the extractor is asked for, per (task, request).
TASK_FORMATS: dict[tuple[str, str], str] = {
    ("mfs", "choice"): "one option letter, A to E",
    ("stmf", "presence"): "Yes or No",
    ("stmf", "count"): "one whole number",
    ("stmf", "names"): "the names, one per line (or None when the response says there "
                       "are none)",
    ("mtmf", "all"): 'a JSON object mapping each feature type to {"count": n, '
                     '"names": [...]}',
    ("rle", "length"): "one length with its unit, e.g. 350 m",
    ("mml", "roads"): "the road names separated by a semicolon",
    ("srn", "route"): "the route as a list [blue, action, road, ..., red]",
}

SYSTEM_PROMPT = (
    "You copy the final answer out of another model's response to a question about a "
    "map. Do not solve the question yourself and do not correct the response. Reply "
    "with the answer only, in the format asked. If the response gives no single final "
    "answer (it refuses, hedges between options or gives several answers), reply NONE."
)


def should_send(result: Any, response: str | None) -> bool:
    """Whether a rule-parser result is one the extractor may read.

    Parameters
    ----------
    result : Parsed or Invalid
        The rule parser's result.
    response : str or None
        The raw response.

    Returns
    -------
    bool
        True for a non-empty response in which the rules found no answer at all.

    Examples
    --------
    >>> should_send(Invalid("no option letter found"), "The icon is unclear")
    True
    >>> should_send(Invalid("a hedged answer (maybe)"), "maybe A")
    False
    """
    if not isinstance(result, Invalid) or not response or not response.strip():
        return False
    return not result.reason.startswith(READ_BUT_INVALID + NOTHING_TO_SEND)


def extraction_messages(item: Mapping[str, Any], response: str) -> list[dict[str, str]]:
    """The chat messages asking for one response's final answer.

    Parameters
    ----------
    item : mapping
        The dataset item (its question, task and request).
    response : str
        The model's raw response.

    Returns
    -------
    list of dict
        A system and a user message (text only: the image is not sent).
    """
    key = (str(item.get("task")), str(item.get("request")))
    declared = request_spec(*key)
    wanted = (declared[1].extract_format if declared and declared[1].extract_format
              else TASK_FORMATS.get(key, "the answer"))
    user = (f"Question:\n{item.get('question', '')}\n\n"
            f"Response:\n<<<\n{response}\n>>>\n\n"
            f"Write the response's final answer as {wanted}, or NONE.")
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


@dataclass
class AnswerExtractor:
    """Asks an OpenAI-compatible chat model for the final answer of a response.

    Parameters
    ----------
    endpoint : str
        The server's base, ``/v1`` or chat-completions URL.
    model : str
        The model name sent in each request.
    api_key : str, optional
        Bearer key (from ``$CARTOQA_API_KEY``/``$OPENAI_API_KEY`` on the command line).
    policy : RetryPolicy
        Retries and timeout (:mod:`cartoqa.runner.client`).
    concurrency : int
        Requests in flight at once.
    max_tokens : int
        Answer length cap.
    """

    endpoint: str
    model: str
    api_key: str | None = None
    policy: RetryPolicy = field(default_factory=lambda: RetryPolicy(max_retries=3,
                                                                     timeout_s=60.0))
    concurrency: int = 4
    max_tokens: int = 512

    def __post_init__(self) -> None:
        self.client = ChatClient(chat_completions_url(self.endpoint), api_key=self.api_key,
                                 policy=self.policy)

    def extract(self, item: Mapping[str, Any], response: str) -> str | None:
        """The extracted answer text, or ``None`` for ``NONE``.

        Parameters
        ----------
        item : mapping
            The dataset item.
        response : str
            The raw response.

        Returns
        -------
        str or None
            The model's reply, stripped.

        Raises
        ------
        cartoqa.runner.client.EndpointError
            The endpoint refuses every request (key, model or URL).
        cartoqa.runner.client.ItemFailedError
            This request failed after its retries.
        """
        payload = {"model": self.model, "messages": extraction_messages(item, response),
                   "temperature": 0, "max_tokens": self.max_tokens}
        text = self.client.complete(payload).completion.text.strip()
        return None if not text or text.strip(" .`*").upper() == "NONE" else text


def extract_answers(
    extractor: AnswerExtractor,
    items: Sequence[Mapping[str, Any]],
    predictions: Mapping[str, str],
    results: Mapping[str, Any],
) -> tuple[dict[str, str | None], list[str]]:
    """Send every response the rules could not read to the extractor.

    Parameters
    ----------
    extractor : AnswerExtractor
        The extractor.
    items : sequence of mapping
        Dataset items.
    predictions : mapping of str to str
        Raw response per item id.
    results : mapping of str to Parsed or Invalid
        The rule parser's result per item id.

    Returns
    -------
    tuple
        Extracted text (``None`` for ``NONE``) per item id sent, and notes (failed
        requests).
    """
    todo = [item for item in items
            if should_send(results.get(str(item.get("id"))), predictions.get(str(item.get("id"))))]
    out: dict[str, str | None] = {}
    failed: list[str] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, extractor.concurrency)) as pool:
        futures = {pool.submit(extractor.extract, item, predictions[str(item["id"])]):
                   str(item["id"]) for item in todo}
        for future in concurrent.futures.as_completed(futures):
            item_id = futures[future]
            try:
                out[item_id] = future.result()
            except ItemFailedError as exc:
                failed.append(f"{item_id}: {exc.reason}")
    notes = [f"extractor request failed for {len(failed)} items (e.g. {failed[0]})"] if failed \
        else []
    return out, notes


def rescore_summary(
    extractor: AnswerExtractor,
    extracted: Mapping[str, str | None],
    report: Mapping[str, Any],
    notes: list[str],
) -> dict[str, Any]:
    """The ``with_extractor`` part of a report.

    Parameters
    ----------
    extractor : AnswerExtractor
        The extractor used.
    extracted : mapping
        Extracted text per item id sent.
    report : mapping
        The report built from the rule results with the extracted answers put in.
    notes : list of str
        Notes about the extraction.

    Returns
    -------
    dict
        ``model``, ``endpoint``, ``n_sent``, ``n_answered``, ``n_invalid`` and the
        ``sections`` with their metrics.
    """
    return {
        "model": extractor.model,
        "endpoint": extractor.endpoint,
        "n_sent": len(extracted),
        "n_answered": sum(1 for v in extracted.values() if v is not None),
        "n_items": report["n_items"],
        "n_invalid": report["n_invalid"],
        "sections": report["sections"],
        "notes": notes,
    }


def parse_extracted(item: Mapping[str, Any], text: str | None) -> Any:
    """The rule parser's reading of an extracted answer (``NONE`` is invalid).

    Parameters
    ----------
    item : mapping
        The dataset item.
    text : str or None
        The extracted text.

    Returns
    -------
    Parsed or Invalid
        Its reading.
    """
    if text is None:
        return Invalid("the extractor found no answer")
    return parse_response(item, text)
