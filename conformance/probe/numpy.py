"""NumPy 2's spellings of every probe case, for the ``numpy`` policy: ``python -m conformance.probe.numpy``.

NumPy 2 spells the standard's names itself (``np.concat``, ``np.pow``,
``np.linalg.matrix_norm``); ``bfloat16`` comes from ``ml_dtypes``, as in
promo_ns; ``np:`` operands are NumPy scalars.  A ``TypeError`` (no loop for the
dtypes, a ``DTypePromotionError``, the ``same_kind`` rule refusing an in-place
result) is NumPy's refusal, as :mod:`conformance.frameworks.numpy` reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import ml_dtypes
import numpy as np

from conformance.probe import _driver
from conformance.probe._standard import Standard, numpy_values


def _native(name: str) -> Any:
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


class NumPy(Standard):
    """The :class:`~conformance.probe._driver.Adapter` of NumPy."""

    name = "numpy"
    version = np.__version__
    policy = "numpy"
    overrides: ClassVar[dict[str, Callable[..., Any]]] = {
        "take_along_axis": lambda x, i: np.take_along_axis(x, i, axis=-1)
    }

    def __init__(self) -> None:
        super().__init__(np)

    def array(self, values: Any, dtype: str) -> Any:
        return np.asarray(values, dtype=_native(dtype))

    def scalar(self, value: Any, dtype: str) -> Any:
        return np.asarray(value, dtype=_native(dtype))[()]

    def dtype(self, name: str) -> Any:
        return _native(name)

    def copy(self, x: Any) -> Any:
        return np.array(x, copy=True)

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if isinstance(x, (np.ndarray, np.generic)):
            return numpy_values(x)
        return None

    def dtype_name(self, x: Any) -> str | None:
        if isinstance(x, np.dtype) or (isinstance(x, type) and issubclass(x, np.generic)):
            return np.dtype(x).name
        return None


def main() -> None:
    """Write ``tests/reference/probe-numpy.json.gz``."""
    _driver.main(NumPy(), "python -m conformance.probe.numpy")


if __name__ == "__main__":
    main()
