"""The spellings of an Array API namespace (NumPy 2, array-api-strict, promo_ns): the standard's own calls."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from conformance.probe._driver import Absent
from conformance.probe._space import Case

__all__ = ["Standard"]

_VALUE_ERRORS = (ZeroDivisionError, OverflowError, ValueError, IndexError)


class Standard:
    """An adapter over a namespace ``xp`` that spells every op as the standard does.

    Subclasses say how results become NumPy arrays (:meth:`to_numpy`) and may
    override the function of an op (:attr:`overrides`).
    """

    name = "standard"
    version = ""
    policy = "array-api"
    #: op -> the call to use instead of ``xp.<op>``.
    overrides: ClassVar[dict[str, Callable[..., Any]]] = {}

    def __init__(self, xp: Any) -> None:
        self.xp = xp

    def array(self, values: Any, dtype: str) -> Any:
        return self.xp.asarray(values, dtype=self.dtype(dtype))

    def scalar(self, value: Any, dtype: str) -> Any:
        raise Absent

    def dtype(self, name: str) -> Any:
        found = getattr(self.xp, name, None)
        if found is None:
            raise LookupError(f"{self.name} has no {name}")
        return found

    def function(self, case: Case) -> Callable[..., Any]:
        if case.op in self.overrides:
            return self.overrides[case.op]
        found: Any = self.xp
        for part in case.op.split("."):
            found = getattr(found, part, None)
            if found is None:
                raise Absent
        if case.op in ("concat", "stack"):
            return lambda *xs: found(list(xs))
        return found  # type: ignore[no-any-return]

    def method(self, case: Case) -> Callable[..., Any]:
        raise Absent

    def copy(self, x: Any) -> Any:
        return self.xp.asarray(x, copy=True)

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        raise NotImplementedError

    def dtype_name(self, x: Any) -> str | None:
        raise NotImplementedError

    def classify(self, exc: BaseException, case: Case) -> str:
        """A TypeError is the namespace refusing the dtypes; value errors keep their class."""
        if isinstance(exc, TypeError):
            return "refused"
        if isinstance(exc, _VALUE_ERRORS):
            return f"error: {type(exc).__name__}"
        return f"unsupported: {type(exc).__name__}: {str(exc).splitlines()[0][:80] if str(exc) else ''}"

    def fallback(self, case: Case, args: list[Any], kwargs: dict[str, Any], exc: BaseException) -> Any:
        raise exc


def numpy_values(a: Any) -> tuple[str, np.ndarray[Any, Any]]:
    """The canonical dtype name and values of a NumPy array (bfloat16 as float32)."""
    a = np.asarray(a)
    name = a.dtype.name
    if name == "bfloat16":
        a = a.astype(np.float32)
    return name, a
