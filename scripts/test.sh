#!/usr/bin/env bash
# Install the test and docs dependencies, then lint, type-check, run the tests and build the docs.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --upgrade pip
python -m pip install -q -e ".[test,docs]"
# Chromium for tests/test_docs_browser.py (the docs pictures' text size); without it those tests skip.
if ! command -v chromium >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 || echo "chromium not installed: its tests skip"
fi
ruff check .
ruff format --check .
mypy
python -m pytest -n 2 -q
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --quiet
