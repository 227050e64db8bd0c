#!/usr/bin/env bash
# Install what cartoqa needs (see install.sh), then build the default benchmark on the
# bundled Helsinki extract (no network) and print where it was written.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
OUT=${1:-out/helsinki}
.venv/bin/cartoqa build --extract helsinki --out "$OUT"
echo "images: $PWD/$OUT/images"
