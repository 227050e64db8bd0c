"""Assets come from the working copy the code was imported from."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from groundtruth.assets import asset_path, assets_root

REPO = Path(__file__).resolve().parents[2]


def test_assets_resolve_to_this_checkout() -> None:
    assert assets_root() == REPO / "assets"
    assert asset_path("prompts", "system.txt") == REPO / "assets" / "prompts" / "system.txt"


def test_a_second_checkout_uses_its_own_prompts(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    for name in ("groundtruth", "assets"):
        shutil.copytree(REPO / name, clone / name,
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", clone / "pyproject.toml")
    (clone / "assets" / "prompts" / "system.txt").write_text("edited in the clone\n", "utf-8")
    code = ("from groundtruth.assets import asset_path;"
            "print(asset_path('prompts', 'system.txt').read_text('utf-8').strip())")
    out = subprocess.run([sys.executable, "-c", code], cwd=clone, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(clone)})
    assert out.stdout.strip() == "edited in the clone"
