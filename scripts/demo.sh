#!/usr/bin/env bash
# Install what cartoqa needs (see install.sh), then build all six CartoMapQA tasks on the
# bundled Helsinki extract (no network) and print where it was written.
# MFS picks distractors with CLIP when weights are given (CARTOQA_CLIP_WEIGHTS: an
# open_clip pretrained tag or a local checkpoint file); no CLIP weights can be had
# offline, so without them it uses the explicitly named pixel-histogram embedding.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-out/helsinki}
if [ -n "${CARTOQA_CLIP_WEIGHTS:-}" ]; then
  bash scripts/install.sh clip  # torch and open_clip, only when CLIP weights are given
  MFS_OPTS=(--embedding clip --clip-pretrained "$CARTOQA_CLIP_WEIGHTS")
else
  bash scripts/install.sh
  MFS_OPTS=(--embedding pixel-histogram)
fi
.venv/bin/cartoqa build --extract helsinki --out "$OUT" --tasks mfs,stmf,mtmf,rle,mml,srn \
  "${MFS_OPTS[@]}"
echo "images: $(cd "$OUT" && pwd)/images"
