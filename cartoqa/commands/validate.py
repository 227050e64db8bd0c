"""``cartoqa validate``: check a dataset folder against the item schema and its images."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cartoqa.dataset.validate import validate_dataset

NAME = "validate"
HELP = "Check a dataset folder: item schema, images (PNG, size) and manifest counts."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``cartoqa validate``."""
    parser.add_argument("dataset", type=Path, help="the dataset folder")


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa validate``; exit status 0 when valid, 1 when problems were found."""
    report = validate_dataset(args.dataset)
    if report.ok:
        print(f"{args.dataset}: valid ({report.items} items, {report.images} images)")
        return 0
    for err in report.errors[:50]:
        print(f"{args.dataset}: {err}", file=sys.stderr)
    more = len(report.errors) - 50
    if more > 0:
        print(f"... and {more} more problems", file=sys.stderr)
    print(f"{args.dataset}: INVALID ({len(report.errors)} problem(s))", file=sys.stderr)
    return 1
