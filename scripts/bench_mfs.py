"""Benchmark the MFS catalogue and its embeddings: images per second per method and device.

Usage::

    .venv/bin/python scripts/bench_mfs.py [--clip-model ViT-B-32] [--clip-pretrained PATH|TAG]

Without ``--clip-pretrained`` open_clip runs with random weights (same architecture and
cost as the real model; no download). Each available device (CPU, and CUDA when present)
embeds the whole catalogue once after a warm-up batch; the disk cache is not used.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from cartoqa.embeddings import OpenClipEmbedder, PixelHistogramEmbedder
from cartoqa.settings import cache_root
from renderers.mfs.catalogue import build_catalogue


def main() -> None:
    """Run the benchmark and print one line per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip-model", default="ViT-B-32")
    parser.add_argument("--clip-pretrained", default=None)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()

    t0 = time.perf_counter()
    catalogue = build_catalogue(cache_dir=cache_root())
    images = [f.png for f in catalogue]
    counts = Counter(f.spec.category for f in catalogue)
    print(f"catalogue: {len(images)} images {dict(counts)} in {time.perf_counter() - t0:.1f} s")

    t0 = time.perf_counter()
    PixelHistogramEmbedder().embed(images)
    dt = time.perf_counter() - t0
    print(f"pixel-histogram cpu: {len(images) / dt:.0f} images/s ({dt:.2f} s)")

    import torch

    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    for device in devices:
        emb = OpenClipEmbedder(model=args.clip_model, pretrained=args.clip_pretrained,
                               device=device, batch_size=args.batch_size)
        emb.embed(images[: args.batch_size])  # warm-up
        if device == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        emb.embed(images)
        if device == "cuda":
            torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        print(f"{emb.method} {device} (torch threads {torch.get_num_threads()}): "
              f"{len(images) / dt:.1f} images/s ({dt:.1f} s)")
    if "cuda" not in devices:
        print("cuda: not available on this machine")


if __name__ == "__main__":
    main()
