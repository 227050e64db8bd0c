"""Issue 25, point 1: an import of a project module made inside a function is there
only to keep a heavy module out of start-up, and says so in a comment beginning
``# imported here`` just above its import block."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cartoqa", "groundtruth", "renderers")


def _in_function_project_imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom):
                name = node.module or ""
                if node.level or name.split(".")[0] in PACKAGES:
                    found.append(node)
            elif isinstance(node, ast.Import) and any(
                    a.name.split(".")[0] in PACKAGES for a in node.names):
                found.append(node)
    return found


def _block_comment(lines: list[str], lineno: int) -> bool:
    """Whether the import at ``lineno`` (1-based) sits in a block of imports, comments
    and blank lines that holds an ``# imported here`` comment above it."""
    i = lineno - 2
    while i >= 0:
        text = lines[i].strip()
        if text.startswith("# imported here"):
            return True
        if not text or text.startswith(("#", "from ", "import ", ")")) or text.endswith(","):
            i -= 1
            continue
        return False
    return False


def uncommented_imports(root: Path = ROOT) -> list[str]:
    out = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for node in _in_function_project_imports(path):
                if not _block_comment(lines, node.lineno):
                    out.append(f"{path.relative_to(root)}:{node.lineno}")
    return out


def test_every_in_function_project_import_says_why():
    assert uncommented_imports() == []


def test_the_check_finds_an_uncommented_import(tmp_path):
    package = tmp_path / "cartoqa"
    package.mkdir()
    (package / "a.py").write_text(
        "def f():\n"
        "    # imported here: heavy\n"
        "    from cartoqa.b import c\n"
        "    from cartoqa.d import e\n"
        "    return c, e\n"
        "\n"
        "def g():\n"
        "    x = 1\n"
        "    from cartoqa.b import c\n"
        "    return c, x\n")
    for other in PACKAGES[1:]:
        (tmp_path / other).mkdir()
    assert uncommented_imports(tmp_path) == ["cartoqa/a.py:9"]
