"""``cartoqa report``: a browsable static HTML report of a dataset and models' answers."""

from __future__ import annotations

import argparse
from pathlib import Path

from cartoqa.report import write_report
from cartoqa.scoring.connectivity import extract_map

NAME = "report"
HELP = (
    "Write a self-contained static HTML report: items per task and stratum, the scores of "
    "each predictions file side by side, and every item with its image, truth and answers."
)


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``cartoqa report``'s arguments.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    parser.epilog = (
        "Open DIR/index.html in any browser (no server, nothing loaded from the network). "
        "See docs/report.md."
    )
    parser.add_argument("dataset", type=Path, metavar="DATASET",
                        help="dataset folder written by `cartoqa build` (with items.jsonl)")
    parser.add_argument("predictions", type=Path, nargs="*", metavar="PREDICTIONS.jsonl",
                        help="predictions files, one per model (the file name names the model)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="report folder: new or empty, or an earlier report with --overwrite")
    parser.add_argument("--overwrite", action="store_true",
                        help="replace an earlier report in DIR (never a folder that is not one)")
    parser.add_argument("--images", choices=("copy", "link", "reference"), default="copy",
                        help="copy: copy the images into DIR/images, the report stands alone "
                        "(default); link: hard links there instead where the file system "
                        "allows (no extra space, files shared with the dataset); reference: "
                        "point at the dataset's images by relative path (keep DIR beside it)")
    parser.add_argument("--extract", action="append", default=[], metavar="FILE",
                        help="an OSM extract the dataset was built from, for SRN connectivity "
                        "(bundled extracts need none); repeatable")
    parser.add_argument("--no-connectivity", action="store_true",
                        help="skip the SRN road-graph connectivity check")


def run(args: argparse.Namespace) -> int:
    """Write the report and print where it is and its size.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        0 on success.
    """
    summary = write_report(
        args.dataset, args.predictions, out=args.out, overwrite=args.overwrite,
        images=args.images, check_connectivity=not args.no_connectivity,
        extracts=extract_map(args.extract),
    )
    for note in summary.notes:
        print(f"note: {note}")
    if args.images == "reference":
        images = "images read from the dataset"
    else:
        images = f"images {_mb(summary.image_bytes)} ({summary.n_images} files"
        if args.images == "link":
            images += f", {summary.linked_images} of them hard links taking no extra space"
        images += ")"
    print(f"{summary.n_items} items, {summary.n_models} model(s) in {summary.seconds:.1f} s; "
          f"{len(summary.files)} files, {_mb(summary.total_bytes)}: pages "
          f"{_mb(summary.page_bytes)}, figures {_mb(summary.figure_bytes)}, {images}")
    print(f"report: {summary.out / 'index.html'}")
    return 0
