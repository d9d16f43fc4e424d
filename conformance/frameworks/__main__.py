"""``python -m conformance.frameworks [POLICY ...]``: the reports from the stored observations."""

from __future__ import annotations

import sys

from conformance.frameworks._report import main

sys.exit(main())
