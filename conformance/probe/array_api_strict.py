"""array-api-strict's spellings of every probe case, for the ``array-api`` policy.

``python -m conformance.probe.array_api_strict``.  The standard 2024.12's own
functions; a ``TypeError`` is its refusal; it has no float16/bfloat16.
"""

from __future__ import annotations

from typing import Any

import array_api_strict as xp
import numpy as np

from conformance.probe import _driver
from conformance.probe._standard import Standard, numpy_values

xp.set_array_api_strict_flags(api_version="2024.12")


class ArrayApiStrict(Standard):
    """The :class:`~conformance.probe._driver.Adapter` of array-api-strict."""

    name = "array-api-strict"
    version = xp.__version__
    policy = "array-api"

    def __init__(self) -> None:
        super().__init__(xp)

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if type(x).__name__ == "Array" and hasattr(x, "__dlpack__"):
            return numpy_values(np.from_dlpack(x))
        return None

    def dtype_name(self, x: Any) -> str | None:
        if type(x).__name__ == "DType":
            return str(x).removeprefix("array_api_strict.")
        return None


def main() -> None:
    """Write ``tests/reference/probe-array-api.json.gz``."""
    _driver.main(ArrayApiStrict(), "python -m conformance.probe.array_api_strict")


if __name__ == "__main__":
    main()
