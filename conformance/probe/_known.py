"""The one table of known cross-backend differences: cases where a backend's outcome is not NumPy's.

Each entry names the backends it covers, the ops, how the two outcomes differ
(``result``: an array result; ``values``: the same dtypes, other values;
``refused``; ``error: <Class>``; ``unsupported``: no kernel, or a raw backend
error promo_ns lets through) and, where narrower, which operands.  The test
suite (``tests/test_probe.py``) lets these cells differ and fails on any
other; delete an entry when the backends agree there (the page
``docs/conformance/probe.md`` counts the cells of each).  Under every policy
alike unless ``policies`` says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from conformance.probe._observed import dtypes_of, flushed_only, is_result, values_of
from conformance.probe._space import Case, operand

__all__ = ["KNOWN", "Known", "known", "outcome", "subnormal_operand"]


def outcome(obs: str) -> str:
    """``result``, ``refused``, ``error: <Class>``, ``unsupported``, ``absent``, ``dtype`` or ``value``."""
    if is_result(obs):
        return "result"
    if obs.startswith("unsupported"):
        return "unsupported"
    return obs if obs.startswith(("error", "refused", "absent")) else obs.split(" ", maxsplit=1)[0]


def _pair(ref: str, got: str) -> tuple[str, str]:
    a, b = outcome(ref), outcome(got)
    if a == b == "result" and dtypes_of(ref) == dtypes_of(got):
        return "values", "values"
    return a, b


@dataclass(frozen=True)
class Known:
    """A known difference: on ``backends``, ``ops`` whose outcomes differ as one of ``pairs``."""

    reason: str
    backends: frozenset[str]
    ops: frozenset[str] | None  #: None: any op
    pairs: frozenset[tuple[str, str]]  #: (NumPy backend's outcome, backend's outcome)
    where: Callable[[Case], bool] | None = None
    policies: frozenset[str] | None = None
    #: A condition on the two observations themselves.
    outcomes: Callable[[str, str], bool] | None = None

    def applies(self, policy: str, backend: str, case: Case, ref: str, got: str) -> bool:
        return (
            backend in self.backends
            and (self.policies is None or policy in self.policies)
            and (self.ops is None or case.op in self.ops)
            and _pair(ref, got) in self.pairs
            and (self.where is None or self.where(case))
            and (self.outcomes is None or self.outcomes(ref, got))
        )


def _k(
    reason: str,
    backends: str,
    ops: str | None,
    pairs: str,
    where: Callable[[Case], bool] | None = None,
    policies: str | None = None,
    outcomes: Callable[[str, str], bool] | None = None,
) -> Known:
    """An entry: backends, ops and policies space-separated; pairs ``"a>b; a>b"``."""
    return Known(
        reason,
        frozenset(backends.split()),
        None if ops is None else frozenset(ops.split()),
        frozenset(tuple(p.strip().split(">")) for p in pairs.split(";")),  # type: ignore[misc]
        where,
        None if policies is None else frozenset(policies.split()),
        outcomes,
    )


def _dtype_in(*kinds: str) -> Callable[[Case], bool]:
    def where(case: Case) -> bool:
        for token in case.args:
            o = operand(token)
            d = str(o.dtype or "")
            if o.what in ("array", "np") and any(d.startswith(k) for k in kinds):
                return True
            if o.what == "py" and d in kinds:
                return True
        return any(v.startswith("dt:") and v[3:].startswith(kinds) for _, v in case.kwargs)

    return where


def _special_scalar(case: Case) -> bool:
    """A Python scalar that is infinite, NaN, a signed zero or beyond float16/bfloat16."""
    for token in case.args:
        o = operand(token)
        if o.what == "py" and o.dtype in ("float", "complex"):
            v = complex(o.value)
            if v != v or abs(v) == float("inf") or v == 0 or abs(v) > 65504 or 0 < abs(v) < 2**-24:
                return True
    return False


def subnormal_operand(case: Case) -> bool:
    """A floating edge array (its subnormals) or a Python float below float32's normal range."""
    for token in case.args:
        o = operand(token)
        if (
            o.what == "array"
            and str(o.dtype).startswith(("float", "bfloat", "complex"))
            and token.endswith(":edge")
        ):
            return True
        if o.what == "py" and o.dtype in ("float", "complex") and 0 < abs(complex(o.value)) < 2.0**-126:
            return True
    return False


def _zero_signs_only(ref: str, got: str) -> bool:
    """Whether two results differ only in the signs of zeros (or of NaNs)."""
    for a, b in zip(ref.split("; "), got.split("; "), strict=True):
        x, y = values_of(a), values_of(b)
        if x is None or y is None or x.shape != y.shape or x.dtype.kind not in "fc":
            return False
        x, y = x.astype(np.complex128), y.astype(np.complex128)
        if not np.array_equal(x, y, equal_nan=True):
            return False
    return True


def _edge(case: Case) -> bool:
    return any(t.endswith(":edge") for t in case.args) or _special_scalar(case)


_VALUES = "values>values"
KNOWN: tuple[Known, ...] = (
    _k(
        "NumPy has no complex logaddexp/atan2 loop where torch and JAX compute one, and the backends check "
        "copysign/nextafter/hypot of complex in another order",
        "torch jax dask",
        "logaddexp atan2 copysign nextafter hypot",
        "unsupported>result; unsupported>refused; refused>unsupported",
        _dtype_in("complex"),
    ),
    _k(
        "complex special values and signed zeros (infinite, NaN or zero Python scalars, edge arrays) follow "
        "each library's complex arithmetic",
        "torch jax dask",
        None,
        _VALUES,
        lambda case: _edge(case) and _dtype_in("complex")(case),
    ),
    _k(
        "signed zeros and NaN signs: maximum/minimum/clip/remainder/nextafter/copysign of -0.0 and NaN "
        "differ by backend kernel",
        "torch jax dask",
        "maximum minimum clip remainder nextafter copysign negative round log1p floor_divide",
        _VALUES,
        _edge,
    ),
    _k(
        "signed zeros: the backends' kernels give zeros (and NaNs) of other signs (remainder, sign, ...)",
        "torch jax dask",
        None,
        _VALUES,
        outcomes=_zero_signs_only,
    ),
    _k(
        "searchsorted of NaN: the backends order NaN differently",
        "torch jax dask",
        "searchsorted",
        _VALUES,
        _special_scalar,
    ),
    _k(
        "from_dlpack of bfloat16: NumPy's DLPack has no bfloat16 (BufferError), torch's has",
        "torch jax dask",
        "from_dlpack",
        "unsupported>result",
    ),
    _k(
        "complex division and reciprocal: NumPy and torch divide complex numbers by different algorithms "
        "(last-bit differences, signs of zero parts)",
        "torch jax dask",
        "divide reciprocal pow",
        _VALUES,
        _dtype_in("complex"),
    ),
    _k(
        "torch's float32 sqrt of a converted integer differs from NumPy's in the last bit",
        "torch",
        "sqrt",
        _VALUES,
    ),
    _k(
        "a Python float below float16's smallest subnormal: torch rounds it to the tensor's dtype first",
        "torch",
        "logical_and logical_or logical_xor equal not_equal pow",
        _VALUES,
        _special_scalar,
    ),
    _k(
        "mean/std/var of integers near the dtype's limits, and of bools: the backends accumulate in "
        "other dtypes (NumPy's float64 overflows float32's range to inf; a bool mean rounds either way)",
        "torch jax dask",
        "mean std var",
        "values>values",
        lambda case: _edge(case) or _dtype_in("bool")(case),
    ),
    _k(
        "Dask's outer refuses mixed kinds (bfloat16 with bool) that the NumPy backend computes",
        "dask",
        "linalg.outer",
        "result>refused",
    ),
    _k(
        "JAX refuses complex floor_divide with a promo_ns refusal where NumPy has no kernel",
        "jax",
        "floor_divide remainder",
        "unsupported>refused",
        _dtype_in("complex"),
    ),
    _k(
        "Dask: from_dlpack of bool has no path",
        "dask",
        "from_dlpack",
        "result>unsupported",
    ),
    _k(
        "XLA's CPU kernels flush subnormal operands and results to zero (JAX's backend); NumPy, "
        "torch and Dask compute with them",
        "jax",
        None,
        _VALUES,
        outcomes=flushed_only,
    ),
    _k(
        "XLA's CPU kernels flush a subnormal operand to zero before computing with it (JAX's backend): "
        "sums, comparisons and truth values of subnormals differ",
        "jax",
        None,
        _VALUES,
        subnormal_operand,
    ),
    _k(
        "NumPy's linalg.solve has no float16 kernel (the NumPy backend refuses it); Dask's computes",
        "dask",
        "linalg.solve",
        "unsupported>result",
        _dtype_in("float16"),
    ),
    _k(
        "bool // bool and bool % bool: NumPy has no kernel; JAX's has one, and the policy's "
        "zero-divisor rule refuses a False divisor first",
        "jax",
        "floor_divide remainder",
        "unsupported>error: ZeroDivisionError",
        _dtype_in("bool"),
    ),
    _k(
        "JAX's CPU has no LAPACK kernel for bfloat16 and float16 (solve, inv, ...); NumPy's backend "
        "computes them in float32 and rounds",
        "jax",
        "linalg.solve linalg.inv linalg.det linalg.slogdet linalg.pinv linalg.cholesky linalg.qr "
        "linalg.svd linalg.svdvals linalg.eigh linalg.eigvalsh linalg.matrix_rank",
        "result>unsupported",
        _dtype_in("bfloat16", "float16"),
    ),
    _k(
        "JAX: clip of complex with a bfloat16 bound has no kernel",
        "jax",
        "clip",
        "result>unsupported",
    ),
)


def known(policy: str, backend: str, case: Case, ref: str, got: str) -> str | None:
    """The reason of the known difference covering a cell, None where it is not known."""
    return next((k.reason for k in KNOWN if k.applies(policy, backend, case, ref, got)), None)
