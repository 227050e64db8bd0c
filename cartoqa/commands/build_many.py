"""``cartoqa build-many``: datasets of several cities on Dask distributed."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from cartoqa.build_many import build_many, load_spec

NAME = "build-many"
HELP = ("Build one dataset per city of a TOML spec on Dask (a LocalCluster on 127.0.0.1 "
        "over TLS, or --scheduler), with a combined manifest.")


#: The most worker processes a LocalCluster may have: four per CPU.
MAX_WORKERS = 4 * (os.cpu_count() or 1)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    if value > MAX_WORKERS:  # each worker imports the stack and runs a browser
        raise argparse.ArgumentTypeError(f"must be at most {MAX_WORKERS} (4 per CPU), "
                                         f"not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of ``cartoqa build-many``."""
    parser.add_argument("spec", type=Path,
                        help="TOML spec: out, tasks, per_task, seed and [[city]] tables "
                             "with name, extract (bundled name, file or place name), "
                             "optional bbox, tasks, per_task, seed, suite (cartomapqa or "
                             "frieda) and frieda_setting (see docs/build.md)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="an existing Dask scheduler, e.g. tls://HOST:PORT with Dask's "
                             "TLS settings (default: a LocalCluster on 127.0.0.1 over TLS "
                             "with a key made for it, which no other user can drive)")
    parser.add_argument("--workers", type=_positive_int, default=2,
                        help="worker processes of the LocalCluster (default: 2)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bars")


def run(args: argparse.Namespace) -> int:
    """Run ``cartoqa build-many``; returns the exit status."""
    spec = load_spec(args.spec)
    manifest = build_many(spec, scheduler=args.scheduler, workers=args.workers,
                          progress=not args.no_progress)
    for city in manifest["cities"]:
        total = (city.get("counts") or {}).get("total", "?")
        print(f"{city['name']}: {total} items in {spec.out / city['folder']}")
    print(f"combined manifest: {spec.out / 'manifest.json'}")
    return 0
