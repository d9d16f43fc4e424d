#!/usr/bin/env bash
# Install the test dependencies, then lint, type-check and run the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[test]"
ruff check .
ruff format --check .
mypy
python -m pytest -n 2 -q
