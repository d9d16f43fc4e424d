#!/usr/bin/env bash
# Install the test and docs dependencies, then lint, type-check, run the tests and build the docs.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[test,docs]"
ruff check .
ruff format --check .
mypy
python -m pytest -n 2 -q
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --quiet
