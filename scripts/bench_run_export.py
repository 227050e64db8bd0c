"""Benchmark ``cartoqa run`` throughput and ``cartoqa export`` speed on synthetic data.

Run: ``.venv/bin/python scripts/bench_run_export.py [--copies 25]``
(8 items per copy; images are map-like 1366x768 PNGs). The local server answers every
request after ``--delay`` seconds, like a model; throughput should grow with
concurrency up to the server's parallelism.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

# The test server and the synthetic dataset builder live with the tests.
_TESTS = Path(__file__).resolve().parents[1] / "tests"
sys.path.insert(0, str(_TESTS))

from helpers.chat_server import ChatServer  # noqa: E402
from helpers.synthetic_dataset import write_synthetic_dataset  # noqa: E402

from cartoqa.declarations.answer_text import answer_as_text  # noqa: E402
from cartoqa.exports import export_dataset  # noqa: E402
from cartoqa.runner.client import RetryPolicy  # noqa: E402
from cartoqa.runner.run import RunConfig, run_dataset  # noqa: E402


def _map_like_png(path: Path, seed: int) -> None:
    """Overwrite ``path`` with a 1366x768 map-like drawing (blocks, roads, labels)."""
    from PIL import Image, ImageDraw

    rng = random.Random(seed)
    img = Image.new("RGB", (1366, 768), (242, 239, 233))
    draw = ImageDraw.Draw(img)
    for _ in range(120):
        x, y = rng.randrange(1366), rng.randrange(768)
        w, h = rng.randrange(20, 120), rng.randrange(20, 120)
        draw.rectangle((x, y, x + w, y + h), fill=(217, 208, 201), outline=(190, 180, 170))
    for _ in range(40):
        pts = [(rng.randrange(1366), rng.randrange(768)) for _ in range(4)]
        draw.line(pts, fill=(255, 255, 255), width=rng.choice((4, 8, 12)))
    for _ in range(60):
        draw.text((rng.randrange(1300), rng.randrange(750)), f"Katu {rng.randrange(99)}",
                  fill=(60, 60, 60))
    img.save(path, format="PNG")


def main() -> None:
    """Print items/s for runs and seconds per export format."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=25)
    parser.add_argument("--delay", type=float, default=0.1)
    args = parser.parse_args()
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="cq-bench-") as tmp:
        root = Path(tmp)
        dataset = write_synthetic_dataset(root / "ds", copies=args.copies,
                                          image_size=(1366, 768))
        n = 8 * args.copies
        for index, png in enumerate(sorted((dataset / "images").iterdir())):
            _map_like_png(png, index)
        size = sum(p.stat().st_size for p in (dataset / "images").iterdir())
        print(f"dataset: {n} items, {size / 1e6:.1f} MB of PNG")
        for concurrency in (1, 8, 32):
            out = root / f"preds-{concurrency}.jsonl"
            with ChatServer(dataset, answer_text=answer_as_text, delay_s=args.delay) as server:
                config = RunConfig(endpoint=server.url, model="test-model",
                                   concurrency=concurrency, progress=False,
                                   policy=RetryPolicy(timeout_s=30))
                start = time.perf_counter()
                summary = run_dataset(dataset, out, config)
                took = time.perf_counter() - start
            assert summary.complete
            print(f"run concurrency {concurrency:2d}: {n / took:7.1f} items/s "
                  f"({took:.2f} s, server delay {args.delay} s)")
        for fmt in ("hf", "vlmevalkit", "lmms-eval"):
            start = time.perf_counter()
            export_dataset(dataset, root / f"out-{fmt}", fmt)
            took = time.perf_counter() - start
            print(f"export {fmt:10s}: {took:.2f} s ({1000 * took / n:.1f} ms/item)")


if __name__ == "__main__":
    main()
