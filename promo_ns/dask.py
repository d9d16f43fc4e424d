"""``promo_ns.dask``: the Dask namespace with the ``array-api`` policy (importable as a module)."""

from __future__ import annotations

import sys

from promo_ns._namespace import namespace

sys.modules[__name__] = namespace("dask")
