#!/usr/bin/env bash
# One command gates everything, locally and in CI: tests, lint, format, types.
# Creates ./.venv and installs memvault with its test tools on first run.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
.venv/bin/python -m pytest "$@"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
