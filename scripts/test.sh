#!/usr/bin/env bash
# Install what the tests need (see install.sh; with the dev and clip extras: the CLIP code
# path is tested with a small random-weight model), then lint, type-check and run pytest
# on two processes (pytest-xdist; CARTOQA_TEST_WORKERS=0 runs it in one). Each test file
# runs whole in one worker (--dist loadfile: its module fixtures are made once), files
# handed out in collection order, where tests/conftest.py puts the longest files first
# (tests/helpers/file_order.py; --no-loadscope-reorder: xdist would otherwise put files
# with many tests first and the long one-test builds last; tests/helpers/file_scheduling.py
# keeps xdist's counts as it goes instead of recounting them after each test); the
# end-to-end builds are shared by both workers (tests/helpers/shared_builds.py).
# CARTOQA_TEST_TIMES=DIR records each worker's test times (scripts/test_schedule.py DIR
# reads them).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dev,clip
export PATH="$PWD/.venv/bin:$PATH"
echo "[test] ruff" >&2
ruff check cartoqa groundtruth renderers tests scripts
echo "[test] mypy" >&2
mypy
# Bytecode is written (next to the sources, in the ignored __pycache__ folders) even where
# the environment says PYTHONDONTWRITEBYTECODE: each worker then collects the tests from
# pytest's cached assertion rewrites (about 35 s -> 17 s of a worker's collection on a
# rerun) and each build the tests start in a subprocess loads the project's modules
# compiled; the answer corpora's parsed YAML is kept there too (tests/helpers/corpus_yaml.py).
# CARTOQA_TEST_BYTECODE=0 keeps the environment's setting.
if [ "${CARTOQA_TEST_BYTECODE:-1}" != 0 ]; then
    unset PYTHONDONTWRITEBYTECODE
fi
workers="${CARTOQA_TEST_WORKERS:-2}"
echo "[test] pytest ($workers workers)" >&2
exec pytest -n "$workers" --dist loadfile --no-loadscope-reorder "$@"
