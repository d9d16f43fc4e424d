"""``python -m promo_ns``: explore promotion policies from a terminal (see :mod:`promo_ns.explore.cli`)."""

from __future__ import annotations

import os
import sys

from promo_ns.explore.cli import main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader (``| head``) stopped early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
