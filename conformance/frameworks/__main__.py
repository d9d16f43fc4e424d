"""``python -m conformance.frameworks [POLICY ...]``: write docs/conformance/<policy>.md from stored observations."""

from __future__ import annotations

import sys

from conformance.frameworks._fidelity import main

sys.exit(main())
