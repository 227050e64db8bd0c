"""``cartoqa export``: write a dataset in the format of another harness."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cartoqa.exports import FORMATS, export_dataset

NAME = "export"
HELP = ("Export a dataset as Hugging Face Parquet (hf), VLMEvalKit TSV (vlmevalkit) or an "
        "lmms-eval task folder (lmms-eval).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``cartoqa export``'s arguments.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.epilog = "Formats: " + "; ".join(f"{k}: {v}" for k, v in FORMATS.items()) + "."
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="dataset folder written by `cartoqa build`, or the output "
                             "folder of `cartoqa build-many` (every city in one export, "
                             "with a city column)")
    parser.add_argument("--format", "-f", required=True, choices=list(FORMATS),
                        dest="fmt", help="output format")
    parser.add_argument("out", type=Path, metavar="OUT",
                        help="output folder to create (must not exist)")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace OUT if it is an earlier cartoqa export (it holds a "
                             ".cartoqa-export file) or empty; any other folder is refused")


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa export``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success.
    """
    result = export_dataset(args.dataset, args.out, args.fmt, overwrite=args.overwrite)
    total = sum(result.counts.values())
    per_task = ", ".join(f"{task} {n}" for task, n in result.counts.items())
    print(f"cartoqa export: {total} items ({per_task}) as {result.fmt} in {result.out}",
          file=sys.stderr)
    print(result.out)
    return 0
