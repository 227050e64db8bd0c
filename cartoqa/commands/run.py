"""``cartoqa run``: answer a dataset with a model behind an OpenAI-compatible endpoint."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from cartoqa.errors import CartoqaError
from cartoqa.runner.client import RetryPolicy
from cartoqa.runner.run import API_KEY_VARIABLES, RunConfig, api_key_from_env, run_dataset

NAME = "run"
HELP = (
    "Send each item (image and prompt, temperature 0) to an OpenAI-compatible "
    "/v1/chat/completions endpoint and write predictions JSONL; a rerun resumes."
)


def default_out(dataset: Path, model: str) -> Path:
    """Return the default predictions path, ``DATASET/predictions/<model>.jsonl``.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    model : str
        The model name; characters other than letters, digits, ``.``, ``_`` and ``-``
        become ``_``.

    Returns
    -------
    pathlib.Path
        The predictions file path.

    Examples
    --------
    >>> default_out(Path("ds"), "Qwen/Qwen2.5-VL-7B-Instruct").as_posix()
    'ds/predictions/Qwen_Qwen2.5-VL-7B-Instruct.jsonl'
    """
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("._") or "model"
    return dataset / "predictions" / f"{safe}.jsonl"


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return value


#: The longest --timeout and --retry-wait, in seconds (a day).
MAX_SECONDS = 86400.0


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    if not value <= MAX_SECONDS:  # inf, 1e308: no timer takes them
        raise argparse.ArgumentTypeError(f"must be at most {MAX_SECONDS:g} (a day)")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``cartoqa run``'s arguments.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.epilog = (
        f"The API key is read from ${API_KEY_VARIABLES[0]}, else ${API_KEY_VARIABLES[1]} "
        "(never from a flag); local servers usually need none. Retried: HTTP 408, 425, "
        "429, 5xx (honouring Retry-After), timeouts and dropped connections; a refused "
        "connection three times stops the run (exit 2). Limits: --timeout is the whole "
        "request's time; answers over 8 MiB or nested over 200 levels fail the item "
        "(docs/security.md)."
    )
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="dataset folder written by `cartoqa build`")
    parser.add_argument("--endpoint", required=True, metavar="URL",
                        help="server URL, e.g. http://127.0.0.1:8000/v1 (vLLM, SGLang, "
                             "Ollama) or https://api.openai.com/v1")
    parser.add_argument("--model", required=True, metavar="NAME",
                        help="model name as the server knows it")
    parser.add_argument("--out", "-o", type=Path, metavar="PATH",
                        help="predictions JSONL (default: DATASET/predictions/<model>.jsonl); "
                             "an existing file is resumed")
    parser.add_argument("--concurrency", type=_positive_int, default=8, metavar="K",
                        help="most requests in flight at once (default: 8)")
    parser.add_argument("--limit", type=_non_negative_int, metavar="N",
                        help="use only the first N items of the dataset")
    parser.add_argument("--max-tokens", type=_positive_int, metavar="N",
                        help="cap on answer length in tokens (default: the server's)")
    parser.add_argument("--timeout", type=_positive_float, default=120.0, metavar="S",
                        help="seconds one request may take in all, connecting and reading "
                             "the whole answer, before it is retried (default: 120, at most "
                             "86400)")
    parser.add_argument("--max-retries", type=_non_negative_int, default=6, metavar="N",
                        help="retries per item after the first attempt (default: 6)")
    parser.add_argument("--retry-wait", type=_positive_float, default=1.0, metavar="S",
                        help="backoff scale: retry n waits up to S*2^n seconds, "
                             "at most 60 (default: 1)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa run``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 when every selected item has an answer, 1 when some failed (rerun to retry).
    """
    dataset: Path = args.dataset
    out: Path = args.out or default_out(dataset, args.model)
    if out.exists() and out.is_dir():
        raise CartoqaError(f"--out {out} is a folder", fix="give a .jsonl file path")
    if out.exists() and not out.is_file():  # /dev/full, a FIFO: read without end
        raise CartoqaError(f"--out {out} is not a regular file", fix="give a .jsonl file path")
    for parent in Path(os.path.abspath(out)).parents:
        if parent.exists() and not parent.is_dir():
            raise CartoqaError(f"--out {out}: {parent} is a file, not a folder",
                               fix="give a .jsonl file path in a folder")
    policy = RetryPolicy(max_retries=args.max_retries, base_s=args.retry_wait,
                         cap_s=max(60.0, args.retry_wait), timeout_s=args.timeout)
    config = RunConfig(
        endpoint=args.endpoint,
        model=args.model,
        api_key=api_key_from_env(),
        concurrency=args.concurrency,
        limit=args.limit,
        max_tokens=args.max_tokens,
        policy=policy,
        progress=not args.no_progress,
    )
    summary = run_dataset(dataset, out, config)
    print(
        f"{out}: {summary.already_answered + summary.answered}/{summary.selected} items "
        f"answered ({summary.answered} now, {summary.already_answered} before; "
        f"{summary.retries} retries)",
        file=sys.stderr,
    )
    if summary.failed:
        for item_id, reason in sorted(summary.failed.items())[:10]:
            print(f"  {item_id}: {reason}", file=sys.stderr)
        more = len(summary.failed) - 10
        if more > 0:
            print(f"  ... and {more} more", file=sys.stderr)
        print(
            f"cartoqa run: {len(summary.failed)} items failed; run the same command again "
            "to retry only those",
            file=sys.stderr,
        )
        return 1
    print(out)
    return 0
