#!/usr/bin/env bash
# Install the test and docs dependencies, then lint, type-check, run the tests and build the docs.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --upgrade pip
# torch==2.13.0 is pinned by .[test]. On an ordinary machine PyPI's Linux wheel of torch brings CUDA
# and its libraries, gigabytes the tests do not use: set TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
# to take the CPU build from PyTorch's index first. Unset (CI here, whose pip finds the CPU build
# on its own disk), torch comes with the other test dependencies.
TORCH_INDEX_URL="${TORCH_INDEX_URL-}"
if [ -n "$TORCH_INDEX_URL" ]; then
    echo "installing torch 2.13.0 from $TORCH_INDEX_URL"
    python -m pip install -q "torch==2.13.0" --index-url "$TORCH_INDEX_URL"
fi
python -m pip install -q -e ".[test,docs]"
# Chromium for tests/test_docs_browser.py (the docs pages as a browser lays them out); without it those
# tests skip. Installed with apt-get where this runs as root and none is on PATH.
if ! command -v chromium >/dev/null && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing chromium with apt-get, for the docs' browser tests"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1 \
        && echo "chromium installed" || echo "chromium not installed: the docs' browser tests skip"
fi
ruff check .
ruff format --check .
mypy
python -m pytest -n 2 --dist worksteal -q
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --quiet
