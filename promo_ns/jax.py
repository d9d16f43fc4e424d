"""``promo_ns.jax``: the JAX namespace with the ``array-api`` policy (importable as a module).

Its default integer and index dtypes are int64: enable JAX's 64-bit types
(``JAX_ENABLE_X64=1`` or ``jax.config.update("jax_enable_x64", True)``) before using it.
"""

from __future__ import annotations

import sys

from promo_ns._namespace import namespace

sys.modules[__name__] = namespace("jax")
