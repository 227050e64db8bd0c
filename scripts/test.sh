#!/usr/bin/env bash
# Install what the tests need (see install.sh; with the dev and clip extras: the CLIP code
# path is tested with a small random-weight model), then lint, type-check and run pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dev,clip
export PATH="$PWD/.venv/bin:$PATH"
echo "[test] ruff" >&2
ruff check cartoqa groundtruth renderers tests scripts
echo "[test] mypy" >&2
mypy
echo "[test] pytest" >&2
exec pytest "$@"
