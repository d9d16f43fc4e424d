"""NumPy checker: observes NumPy 2's own (NEP 50) promotion decisions for every cell.

NumPy's Python-scalar handling is the same in every ufunc, so each cell simply
runs the ufunc.  ``bfloat16`` comes from ``ml_dtypes``, as in promo_ns.
A refusal is NumPy's ``DTypePromotionError`` or, for in-place ops, its
``same_kind`` output-casting error; a missing loop for a dtype (``bitwise_and``
on floats) is a kernel, not a promotion decision.

One-array functions (``_cells.FUNCTION_OPS``) run the NumPy function of the
same name (``np.acos``, ``np.linalg.inv``, ``np.fft.rfft``; reductions over the
whole array).  NumPy refuses a dtype with a ``TypeError``: a ufunc without a
loop for it (``sign`` of bool), the bool ``negative``, ``linalg``'s "array type
float16 is unsupported".

``python -m conformance.frameworks.numpy`` writes ``tests/reference/numpy.json``
and ``tests/reference/numpy-functions.json``; the test suite probes NumPy live
instead of reading those files.
"""

from __future__ import annotations

import warnings
from typing import Any

import ml_dtypes
import numpy as np

from conformance.frameworks import _cells, _report


def ufuncs(xp: Any) -> dict[str, Any]:
    """Each binary and accumulating op of the cells as the function of a NumPy-like module ``xp``."""
    return {
        "add": xp.add,
        "subtract": xp.subtract,
        "multiply": xp.multiply,
        "divide": xp.true_divide,
        "floor_divide": xp.floor_divide,
        "remainder": xp.remainder,
        "pow": xp.power,
        "maximum": xp.maximum,
        "minimum": xp.minimum,
        "equal": xp.equal,
        "less": xp.less,
        "logical_and": xp.logical_and,
        "bitwise_and": xp.bitwise_and,
        "bitwise_left_shift": xp.left_shift,
        "atan2": xp.arctan2,
        "hypot": xp.hypot,
        "copysign": xp.copysign,
        "nextafter": xp.nextafter,
        "logaddexp": xp.logaddexp,
        "matmul": xp.matmul,
        "sum": xp.sum,
        "prod": xp.prod,
        "cumulative_sum": xp.cumulative_sum,
        "add_out_of_range": xp.add,
        "where": lambda a, b: xp.where(xp.ones(2, dtype=bool), a, b),
    }


def function_of(xp: Any, op: str) -> Any:
    """The function of a one-array function name in ``xp`` (``"linalg.inv"`` is ``xp.linalg.inv``)."""
    found: Any = xp
    for part in op.split("."):
        found = getattr(found, part)
    return found


def _iadd(a: Any, b: Any) -> Any:
    left = np.array(a, copy=True)
    left += b
    return left


_FUNCS = ufuncs(np)


class NumPy:
    """The :class:`~conformance.frameworks._cells.Framework` for NumPy."""

    name = "numpy"
    version = np.__version__

    def __init__(self, function: bool = False) -> None:
        self._function = function  # whether this instance probes the one-array functions

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """An array of ones; see :meth:`_cells.Framework.array`."""
        native = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
        return np.ones(() if role == "0d" else (2,) * ndim, dtype=native)

    def data(self, values: list[Any], dtype: str) -> Any:
        """An array holding ``values``; see :meth:`_cells.FunctionFramework.data`."""
        return np.asarray(values, dtype=ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype))

    def run(self, op: str, args: list[Any]) -> Any:
        """Run the ufunc (or ``a += b`` for ``iadd``; the NumPy function for a one-array function)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if op in _cells.FUNCTION_OPS:
                return function_of(np, op)(*args)
            return _iadd(*args) if op == "iadd" else _FUNCS[op](*args)

    def dtype_name(self, result: Any) -> str:
        """Canonical name of an array's dtype."""
        return str(np.asarray(result).dtype.name)

    def classify(self, exc: BaseException) -> str:
        """NumPy's type resolution refusing the dtypes is a refusal; anything else is not.

        For a ufunc, having no loop for the dtypes *is* NumPy's promotion
        decision (there is no separate promotion step), as is ``same_kind``
        refusing to cast an in-place result back.
        """
        msg = str(exc).split("\n")[0]
        if isinstance(exc, np.exceptions.DTypePromotionError) or "casting rule" in msg:
            return "refused"
        if self._function and isinstance(exc, TypeError):
            return "refused"
        return f"unsupported: {type(exc).__name__}: {msg[:120]}"

    def value(self, result: Any) -> Any:
        """The result itself (:func:`_cells.json_value` takes its first element)."""
        return result


NAME, VERSION = NumPy.name, NumPy.version


def probe() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """Observe every cell: the observations and the values."""
    return _cells.probe_all(NumPy())


def probe_functions() -> dict[str, dict[str, str]]:
    """Observe every one-array function cell."""
    return _cells.probe_functions(NumPy(function=True))


def main() -> None:
    """Write ``tests/reference/numpy.json``, ``numpy-functions.json`` and ``docs/conformance/numpy.md``."""
    out = _cells.reference("numpy")
    command = "python -m conformance.frameworks.numpy"
    _cells.write(NumPy(), out, command)
    fw = NumPy(function=True)
    _cells.write_functions(fw, _cells.function_reference("numpy"), command, _cells.probe_functions(fw))
    _report.write_report("numpy")


if __name__ == "__main__":
    main()
