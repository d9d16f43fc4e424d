"""array-api-strict checker: the reference implementation of the Array API standard 2024.12.

Every op is the standard function of the same name (``iadd`` is ``x1 += x2``);
array-api-strict raises ``TypeError`` for every promotion the standard leaves
undefined, and has no float16/bfloat16 (those cells are unsupported).

``python -m conformance.frameworks.array_api_strict`` writes
``tests/reference/array-api.json``; the test suite probes it live.
"""

from __future__ import annotations

from typing import Any

import array_api_strict as xp

from conformance.frameworks import _cells, _fidelity

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


def main() -> None:
    """Write ``tests/reference/array-api.json`` and ``docs/conformance/array-api.md``."""
    out = _cells.reference("array-api")
    _cells.write(ArrayApiStrict(), out, "python -m conformance.frameworks.array_api_strict")
    _fidelity.write_report("array-api")


if __name__ == "__main__":
    main()
