"""array-api-strict checker: the reference implementation of the Array API standard 2024.12.

Every op is the standard function of the same name (``iadd`` is ``x1 += x2``);
array-api-strict raises ``TypeError`` for every promotion the standard leaves
undefined, and has no float16/bfloat16 (those cells are unsupported).

One-array functions (``_cells.FUNCTION_OPS``) are the standard's functions of
the same name (``xp.linalg.inv``, ``xp.fft.rfft``); array-api-strict raises
``TypeError`` for every input dtype the standard does not define them for
("Only floating-point dtypes are allowed in log").

``python -m conformance.frameworks.array_api_strict`` writes
``tests/reference/array-api.json`` and ``tests/reference/array-api-functions.json``;
the test suite probes it live.
"""

from __future__ import annotations

import warnings
from typing import Any

import array_api_strict as xp

from conformance.frameworks import _cells, _report

xp.set_array_api_strict_flags(api_version="2024.12")


class ArrayApiStrict:
    """The :class:`~conformance.frameworks._cells.Framework` for array-api-strict."""

    name = "array-api-strict"
    version = xp.__version__

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """An array of ones; see :meth:`_cells.Framework.array`."""
        native = getattr(xp, dtype, None)
        if native is None:
            raise LookupError(f"array-api-strict has no {dtype}")
        return xp.ones(() if role == "0d" else (2,) * ndim, dtype=native)

    def data(self, values: list[Any], dtype: str) -> Any:
        """An array holding ``values``; see :meth:`_cells.FunctionFramework.data`."""
        native = getattr(xp, dtype, None)
        if native is None:
            raise LookupError(f"array-api-strict has no {dtype}")
        return xp.asarray(values, dtype=native)

    def run(self, op: str, args: list[Any]) -> Any:
        """Run the standard function ``op``."""
        return _cells.standard_call(xp, op, args)

    def dtype_name(self, result: Any) -> str:
        """Canonical name of an array's dtype."""
        return str(result.dtype).removeprefix("array_api_strict.")

    def classify(self, exc: BaseException) -> str:
        """array-api-strict signals every undefined promotion with ``TypeError``."""
        if isinstance(exc, TypeError):
            return "refused"
        return f"unsupported: {type(exc).__name__}: {str(exc)[:120]}"

    def value(self, result: Any) -> Any:
        """The result as a NumPy array, through DLPack."""
        import numpy as np

        return np.from_dlpack(result)


NAME, VERSION = ArrayApiStrict.name, ArrayApiStrict.version


def probe() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """Observe every cell: the observations and the values."""
    return _cells.probe_all(ArrayApiStrict())


def probe_functions() -> dict[str, dict[str, str]]:
    """Observe every one-array function cell."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # atanh(1) divides by zero
        return _cells.probe_functions(ArrayApiStrict())


def main() -> None:
    """Write ``tests/reference/array-api.json``, ``array-api-functions.json`` and the report."""
    out = _cells.reference("array-api")
    command = "python -m conformance.frameworks.array_api_strict"
    fw = ArrayApiStrict()
    _cells.write(fw, out, command)
    extra: dict[str, object] = {"api_version": xp.__array_api_version__}
    _cells.write_functions(fw, _cells.function_reference("array-api"), command, probe_functions(), extra)
    _report.write_report("array-api")


if __name__ == "__main__":
    main()
