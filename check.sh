#!/usr/bin/env bash
# One command gates everything, locally and in CI: lint, format, types and the
# import-layer contract first (seconds), then every test.
# Creates ./.venv and installs memvault with its test tools on first run.
#
#   ./check.sh                 everything
#   ./check.sh -m "not system and not slow"
#                              the fast tier (about four minutes on 2 cores): no crash,
#                              concurrency or multi-process tests, no long property runs or
#                              corpus measures; add "and not pg" to leave out PostgreSQL
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
.venv/bin/python -m pytest "$@"
