"""``python -m conformance.probe [POLICY ...]``: run the generated probe, write docs/conformance/probe.md."""

from __future__ import annotations

import sys

from conformance.probe._report import main

sys.exit(main())
