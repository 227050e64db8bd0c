"""A whole run: select the unanswered items, query the endpoint in parallel, record answers."""

from __future__ import annotations

import os
import random
import stat
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from cartoqa.dataset.files import dataset_part
from cartoqa.dataset.reader import image_files, image_mime, read_items
from cartoqa.errors import CartoqaError
from cartoqa.runner.client import (
    Answer,
    CancelledError,
    ChatClient,
    ItemFailedError,
    RetryPolicy,
)
from cartoqa.runner.predictions import OutputLock, PredictionWriter, load_for_resume
from cartoqa.runner.request import build_payload, chat_completions_url, image_data_url

#: Environment variables read for the API key, first one set wins.
API_KEY_VARIABLES: tuple[str, ...] = ("CARTOQA_API_KEY", "OPENAI_API_KEY")


def api_key_from_env(environ: Mapping[str, str] | None = None) -> str | None:
    """Return the API key from ``$CARTOQA_API_KEY``, else ``$OPENAI_API_KEY``.

    Parameters
    ----------
    environ : mapping, optional
        The environment; ``os.environ`` when omitted.

    Returns
    -------
    str or None
        The key, or None when neither variable is set (local servers need none).

    Examples
    --------
    >>> api_key_from_env({"OPENAI_API_KEY": "b", "CARTOQA_API_KEY": "a"})
    'a'
    >>> api_key_from_env({}) is None
    True
    """
    env = os.environ if environ is None else environ
    for name in API_KEY_VARIABLES:
        value = env.get(name, "").strip()
        if value:
            if not all("!" <= c <= "~" for c in value):
                # a newline would add a header line; others cannot be sent at all. The
                # message never shows the key.
                raise CartoqaError(f"${name} holds a space, a control character or a "
                                   "non-ASCII character, so it cannot be sent as a key",
                                   fix=f"set ${name} to the key alone")
            return value
    return None


@dataclass(frozen=True)
class RunConfig:
    """What to run against and how hard to push it.

    Attributes
    ----------
    endpoint : str
        Base URL, ``/v1`` URL or full chat-completions URL of the server.
    model : str
        Model name sent in each request.
    api_key : str or None
        Bearer token (see :func:`api_key_from_env`).
    concurrency : int
        Most requests in flight at once.
    limit : int or None
        Use only the first ``limit`` items of the dataset (in file order).
    max_tokens : int or None
        Answer length cap sent to the server.
    policy : RetryPolicy
        Retries, backoff and per-request timeout.
    progress : bool
        Show a progress bar on stderr.
    """

    endpoint: str
    model: str
    api_key: str | None = None
    concurrency: int = 8
    limit: int | None = None
    max_tokens: int | None = None
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    progress: bool = True


@dataclass
class RunSummary:
    """What a run did.

    Attributes
    ----------
    out : pathlib.Path
        The predictions file.
    selected : int
        Items the run covers (after ``limit``).
    already_answered : int
        Of those, items answered before this run.
    answered : int
        Items answered by this run.
    failed : dict
        Item id to the reason it could not be answered.
    retries : int
        Extra requests made because of transient failures.
    """

    out: Path
    selected: int = 0
    already_answered: int = 0
    answered: int = 0
    failed: dict[str, str] = field(default_factory=dict)
    retries: int = 0

    @property
    def complete(self) -> bool:
        """True when every selected item now has an answer."""
        return not self.failed and self.already_answered + self.answered == self.selected


def select_items(
    items: list[dict[str, Any]], answered_ids: set[str], *, limit: int | None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Split the items a run covers into all selected and those still to send.

    Parameters
    ----------
    items : list of dict
        The dataset's items, in file order.
    answered_ids : set of str
        Ids that already have a prediction.
    limit : int or None
        Keep only the first ``limit`` items.

    Returns
    -------
    selected, todo : list of dict
        The covered items, and those of them without an answer.

    Examples
    --------
    >>> items = [{"id": "a"}, {"id": "b"}, {"id": "c"}]
    >>> [i["id"] for i in select_items(items, {"a"}, limit=2)[1]]
    ['b']
    """
    selected = items if limit is None else items[: max(limit, 0)]
    todo = [item for item in selected if str(item["id"]) not in answered_ids]
    return selected, todo


def prediction_record(item_id: str, model: str, answer: Answer) -> dict[str, Any]:
    """Build the predictions-file line for one answer.

    Parameters
    ----------
    item_id : str
        The item's id.
    model : str
        The model name.
    answer : Answer
        The completion and its timing.

    Returns
    -------
    dict
        ``id``, ``response`` (the raw text ``cartoqa score`` parses), ``model``,
        ``finish_reason``, ``usage``, ``latency_s`` and ``attempts``.
    """
    return {
        "id": item_id,
        "response": answer.completion.text,
        "model": model,
        "finish_reason": answer.completion.finish_reason,
        "usage": answer.completion.usage,
        "latency_s": round(answer.latency_s, 3),
        "attempts": answer.attempts,
    }


def _check_model(records: list[dict[str, Any]], model: str, out: Path) -> None:
    others = sorted({str(r["model"]) for r in records if r.get("model") not in (None, model)})
    if others:
        raise CartoqaError(
            f"{out} holds answers from another model ({', '.join(others)})",
            fix="pass a different --out for this model",
        )


def _own_output(out: Path) -> Path:
    """The predictions path to use, refusing one another user could have planted.

    In a folder others may write (``/tmp``), another user can plant a link named like
    the output, pointing at a file of ours (the run would append to it, or cut it when
    resuming), or a predictions file of theirs. A link is followed only when it is this
    user's own; a file of another user's is refused; then the real path is used, so
    the link is read once.
    """
    try:
        info = os.lstat(out)
    except FileNotFoundError:
        return out
    except OSError as exc:
        raise CartoqaError(f"--out {out}: {exc.strerror}") from None
    uid = os.geteuid()
    if info.st_uid != uid:
        kind = "a link" if stat.S_ISLNK(info.st_mode) else "a file"
        raise CartoqaError(f"--out {out} is {kind} of another user (user id {info.st_uid})",
                           fix="write the predictions to a file of your own")
    if stat.S_ISLNK(info.st_mode):
        real = Path(os.path.realpath(out))
        return _own_output(real) if real != out else real
    return out


def run_dataset(dataset: Path, out: Path, config: RunConfig) -> RunSummary:
    """Answer every selected item that has no prediction in ``out`` yet.

    Answers are appended to ``out`` as they arrive, each flushed and synced, so an
    interrupted run loses nothing already answered and a rerun sends only the rest.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    out : pathlib.Path
        The predictions JSONL file (created, or resumed when it exists).
    config : RunConfig
        Endpoint, model, concurrency and retry settings.

    Returns
    -------
    RunSummary
        Counts and the items that failed.

    Raises
    ------
    CartoqaError
        A malformed dataset or predictions file, a bad endpoint URL, or an endpoint
        that refuses the run (HTTP 401, 403, 404).
    """
    if config.concurrency < 1:
        raise CartoqaError("--concurrency must be at least 1", fix="e.g. --concurrency 8")
    try:
        url = chat_completions_url(config.endpoint)
    except ValueError as exc:
        raise CartoqaError(str(exc), fix="e.g. --endpoint http://127.0.0.1:8000/v1") from None
    out = _own_output(out)
    part = dataset_part(dataset, out)
    if part is not None:
        raise CartoqaError(f"--out {out} is the dataset's {part}: the answers would "
                           "overwrite it", fix="write the predictions elsewhere, e.g. "
                           "DATASET/predictions/MODEL.jsonl (the default)")
    items = read_items(dataset)
    with OutputLock(out):
        return _run_locked(dataset, out, config, url, items)


def _run_locked(dataset: Path, out: Path, config: RunConfig, url: str,
                items: list[dict[str, Any]]) -> RunSummary:
    existing = load_for_resume(out)
    _check_model(existing, config.model, out)
    known = {str(item["id"]) for item in items}
    strangers = sorted({str(r["id"]) for r in existing} - known)
    if strangers:
        raise CartoqaError(
            f"{out} holds answers to items this dataset lacks ({', '.join(strangers[:3])}"
            f"{', ...' if len(strangers) > 3 else ''})",
            fix="pass a different --out for this dataset",
        )
    answered_ids = {str(r["id"]) for r in existing}
    selected, todo = select_items(items, answered_ids, limit=config.limit)
    summary = RunSummary(out=out, selected=len(selected),
                         already_answered=len(selected) - len(todo))
    images = {str(item["id"]): image_files(dataset, item) for item in todo}
    if not todo:
        return summary

    stop = threading.Event()
    client = ChatClient(url, api_key=config.api_key, policy=config.policy, wait=stop.wait,
                        rng=random.Random())

    def answer(item: dict[str, Any]) -> Answer:
        if stop.is_set():
            raise CancelledError()
        urls = [image_data_url(path.read_bytes(), image_mime(path))
                for path in images[str(item["id"])]]  # a multi-map item sends all, in order
        payload = build_payload(item, model=config.model,
                                image_url=urls[0] if len(urls) == 1 else urls,
                                max_tokens=config.max_tokens)
        return client.complete(payload)

    bar = tqdm(total=len(selected), initial=summary.already_answered, unit="item",
               desc=f"cartoqa run {config.model}", disable=not config.progress,
               file=sys.stderr, dynamic_ncols=True)
    pool = ThreadPoolExecutor(max_workers=config.concurrency,
                              thread_name_prefix="cartoqa-run")
    queue = iter(todo)
    # Stop early when the server refuses every request of the first wave (HTTP 400...).
    give_up_after = min(len(todo), max(3, config.concurrency))
    rejected = 0
    pending: dict[Future[Answer], str] = {}

    def submit_next() -> None:
        item = next(queue, None)
        if item is not None:
            pending[pool.submit(answer, item)] = str(item["id"])

    try:
        with PredictionWriter(out) as writer:
            for _ in range(config.concurrency):
                submit_next()
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    item_id = pending.pop(future)
                    try:
                        result = future.result()
                    except ItemFailedError as exc:
                        summary.failed[item_id] = exc.reason
                        summary.retries += max(exc.attempts - 1, 0)
                        rejected += exc.rejected
                        if rejected >= give_up_after and summary.answered == 0:
                            raise CartoqaError(
                                f"the endpoint rejected the first {rejected} requests "
                                f"({exc.reason})",
                                fix="check --model and the server's log; some models refuse "
                                "temperature 0 or images",
                            ) from None
                    else:
                        writer.write(prediction_record(item_id, config.model, result))
                        summary.answered += 1
                        summary.retries += result.attempts - 1
                        bar.update(1)
                    bar.set_postfix(retries=summary.retries, failed=len(summary.failed),
                                    refresh=False)
                    submit_next()
    except BaseException:
        # EndpointError, KeyboardInterrupt, ...: what was answered is already on disk.
        stop.set()
        client.stop()  # cut the requests in flight: their threads end at once
        pool.shutdown(wait=False, cancel_futures=True)
        bar.close()
        raise
    pool.shutdown(wait=True)
    bar.close()
    return summary
