"""Generated differential tests (issue 23): every backend against the NumPy backend, and invariants.

Hypothesis draws a case from the op registry (see :mod:`tests.generated`):
a binary op in each of its spellings, setitem with every key kind, a
one-array function, or a function of several operands; dtypes, shapes that
broadcast (and some that do not), Python scalars at and beyond the dtypes'
limits, and a policy.  On every backend:

(a) a mutating op that raises leaves its operand bit-identical, shape unchanged;
(b) the outcome is the NumPy backend's: the same dtype and values, or the
    same exception class, except as :data:`EXPECTED` says;
(c) an error is one of promo_ns's classes, with a message naming the op;
(d) ``x op= y`` gives, bit for bit, ``x op y`` where that has ``x``'s dtype and
    shape, and raises where ``x op y`` raises.

A failure prints the shrunk case and both outcomes.  CI runs the "ci"
profile's examples; ``pytest tests/test_generated.py --hypothesis-profile
thorough`` runs many more.  JAX, which compiles each op per dtype and shape
(about five times a NumPy case's time), runs half of them (:func:`jax_runs`).
"""

from __future__ import annotations

import pickle
import zlib
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, note

from promo_ns._dtypes import BY_NAME, INT_RANGE, native
from tests.backends import BACKENDS, _jax
from tests.generated import (
    ALLOWED,
    Case,
    Operand,
    Outcome,
    binary_cases,
    close_values,
    inplace_cases,
    names_op,
    nary_cases,
    one_array_cases,
    run,
    same,
    same_bits,
    setitem_cases,
    unique_parts,
)

GPU_BACKENDS = ("torch:cuda", "cupy")
_X32 = pytest.param("jax-x32", marks=pytest.mark.skipif(not _jax(), reason="JAX is not installed"))
DIFFERENTIAL_BACKENDS = [*BACKENDS, _X32]


def expected(backend: str, case: Case, ref: Outcome, got: Outcome) -> str | None:
    """Why ``got`` may differ from the NumPy backend's ``ref`` on ``backend``; None where it may not.

    The documented differences (docs/scaling.md, "What differs by backend"):
    """
    if backend == "torch:meta" and ref.error is not None and got.error is None:
        return (
            "meta holds no values: what fails by value (an index, a divisor, an exponent) cannot fail there"
        )
    if backend == "torch:meta" and _no_kernel(ref.error) and got.error is not None:
        return "meta runs no kernel, so lacks none: where NumPy lacks one, meta reaches the next check"
    if any(_no_kernel(o.error) for o in (ref, got)) and (ref.error is None or got.error is None):
        return "a kernel one backend lacks (torch's and JAX's complex ordering, NumPy's complex atan2)"
    if {_no_kernel(ref.error), _no_kernel(got.error)} == {True, False} and ZeroDivisionError in {
        type(ref.error),
        type(got.error),
    }:
        return "bool // bool: NumPy has no kernel; where one is, the policy's zero-divisor rule raises first"
    if case.form == "setitem" and {type(ref.error), type(got.error)} == {IndexError, ValueError}:
        return "an index out of bounds and a value that does not fit: libraries check them in either order"
    if _complex_special_values(ref, got):
        return (
            "complex special values (infinities, NaNs, a zero base) follow each library's complex arithmetic"
        )
    if backend in GPU_BACKENDS and _fft_of_non_finite(case, ref, got):
        return "an FFT of infinities or NaNs follows each FFT library's algorithm (cuFFT's inf * 0 is nan)"
    if ref.error is None and _float_beyond_int(case):
        return "the standard leaves a float array cast to an int dtype it does not fit unspecified"
    if backend == "jax-x32" and type(got.error).__name__ == "JaxX64Error":
        return "JAX without 64-bit types refuses a 64-bit dtype with JaxX64Error"
    if _within_moments_rounding(case, ref, got):
        return "std/var around a mean rounded to the dtype (Dask's chunks, XLA's): ulps of the largest value"
    if not got.built and _missing_dtype(got.error):
        return "the backend has no dtype of an operand (CuPy has no bfloat16): nothing to compare"
    return None


def _fft_of_non_finite(case: Case, ref: Outcome, got: Outcome) -> bool:
    """Whether both computed the same dtype of an FFT of an operand with infinities or NaNs."""
    if not case.op.startswith("fft.") or ref.error is not None or got.error is not None:
        return False
    operands = [np.asarray(o.values) for o in case.operands if isinstance(o, Operand)]
    return ref.dtype == got.dtype and any(not np.all(np.isfinite(v)) for v in operands)


def _within_moments_rounding(case: Case, ref: Outcome, got: Outcome) -> bool:
    """Whether ``std``/``var`` gave one dtype, standard deviations within 4 ulps of the largest value."""
    if case.op not in ("std", "var") or ref.error or got.error or ref.dtype != got.dtype:
        return False
    values = np.asarray(case.operands[0].values)
    if values.dtype.kind != "f" or values.size == 0 or not np.all(np.isfinite(values)):
        return False
    spread = 4 * float(np.finfo(values.dtype).eps) * float(np.max(np.abs(values)))
    a, b = (np.asarray(o.values, dtype=np.float64) for o in (ref, got))
    if case.op == "var":
        a, b = np.sqrt(a), np.sqrt(b)
    return bool(np.all(np.abs(a - b) <= spread))


def _missing_dtype(error: BaseException | None) -> bool:
    """Whether ``error`` is promo_ns's TypeError for a dtype the backend lacks (bfloat16 on CuPy)."""
    return type(error) is TypeError and " backend has no " in str(error) and " dtype" in str(error)


def _complex_special_values(ref: Outcome, got: Outcome) -> bool:
    """Whether both computed the same complex dtype, one of them non-finite values."""
    if (
        ref.error is not None
        or got.error is not None
        or ref.dtype != got.dtype
        or "complex" not in str(ref.dtype)
    ):
        return False
    values = [
        np.asarray(o.values) for o in (ref, got) if o.values is not None and not isinstance(o.values, list)
    ]
    return any(not np.all(np.isfinite(v)) for v in values)


def _no_kernel(error: BaseException | None) -> bool:
    """Whether ``error`` is promo_ns's TypeError for a kernel its backend lacks."""
    return type(error) is TypeError and " has no '" in str(error) and "kernel" in str(error)


def _float_beyond_int(case: Case) -> bool:
    """Whether the case casts a float array into an integer dtype some of its values do not fit."""
    if case.op == "astype":
        x, dtype = case.operands
    elif case.op == "setitem" and isinstance(case.operands[2], Operand):
        x, dtype = case.operands[2], case.operands[0].dtype
    else:
        return False
    if x.dtype.kind not in "fc" or dtype.kind not in "iu":
        return False
    lo, hi = INT_RANGE[dtype]
    values = np.asarray(x.values).real.astype(np.float64)
    return bool(np.any(~np.isfinite(values) | (values <= lo - 1) | (values >= hi + 1)))


#: The NumPy backend's outcome of each case, by the case's pickled bytes (values bit for bit).
#: Derandomized, every backend's test draws the same cases: a test process runs each once.
_REFERENCE: dict[bytes, Outcome] = {}
#: At most this many (an error's outcome holds its traceback): the "ci" profile draws about 1,000.
_KEPT_REFERENCES = 5_000


def reference(case: Case) -> Outcome:
    """The NumPy backend's outcome of ``case``."""
    key = pickle.dumps(case)
    found = _REFERENCE.get(key)
    if found is None:
        found = run("numpy", case)
        if len(_REFERENCE) < _KEPT_REFERENCES:  # the "thorough" profile's cases are not all kept
            _REFERENCE[key] = found
    return found


#: The cases that found a defect (each test's ``@example``, see :func:`found`): they run on every backend.
_FOUND: set[bytes] = set()


def found(case: Case) -> Case:
    """``case``, an ``@example`` that found a defect: it runs on every backend, JAX too."""
    _FOUND.add(pickle.dumps(case))
    return case


def jax_runs(backend: str, case: Case) -> bool:
    """Whether ``case`` runs on ``backend``: every case but on JAX, half of them (by their bytes)."""
    if not backend.startswith("jax"):
        return True
    key = pickle.dumps(case)
    return key in _FOUND or zlib.crc32(key) % 2 == 0


def check(backend: str, case: Case) -> None:
    if not jax_runs(backend, case):
        return
    ref = reference(case)
    got = ref if backend == "numpy" else run(backend, case)
    note(f"case: {case}\nnumpy: {ref!r}\n{backend}: {got!r}")
    assert ref.built, f"the NumPy backend cannot make the operands of {case}: {ref.error!r}"
    for outcome in (ref, got):
        error = outcome.error
        if error is None or not outcome.built:
            continue
        # Dask checks a setitem's values only when computing: the array keeps the failing graph
        # (its message says so, and backends.dask.previous gives the values from before).
        lazy = backend == "dask" and "failed when its graph was computed" in str(error)
        assert outcome.intact or lazy, f"{case.op} raised {error!r} and changed its operand"
        assert isinstance(error, ALLOWED), (
            f"{type(error).__module__}.{type(error).__name__} reached the user: {error}"
        )
        assert names_op(case, error), f"the message does not name {case.op}: {error}"
    if not same(ref, got, values=True) and expected(backend, case, ref, got) is None:
        pytest.fail(f"{backend} differs from numpy on {case}:\n  numpy: {ref!r}\n  {backend}: {got!r}")


def _operand(dtype: str, values: Any) -> Operand:
    return Operand(BY_NAME[dtype], np.asarray(values, dtype=native(BY_NAME[dtype], np)))


@pytest.mark.parametrize("backend", DIFFERENTIAL_BACKENDS)
@given(case=binary_cases())
# found by it: XLA's integer power reads the low 6 bits of the exponent (2 ** 64 was 1 in int8 on JAX)
@example(case=found(Case("pow", "reflected", (2, _operand("int8", [64, 64])), "array-api")))
@example(
    case=found(Case("pow", "operator", (_operand("uint8", [3, 3]), _operand("uint8", [200, 64])), "numpy"))
)
# found by it: a Python float that rounds to 0 in float16 was true on NumPy (its logical ufuncs read the
# float as it is), false on torch; the numpy policy reads it as it is, the others rounded
@example(case=found(Case("logical_or", "function", (_operand("float16", 0.0), 6.18e-16), "pytorch")))
@example(case=found(Case("logical_and", "function", (_operand("float16", [1.0]), 1e-50), "numpy")))
def test_binary_ops(backend: str, case: Case) -> None:
    check(backend, case)


@pytest.mark.parametrize("backend", DIFFERENTIAL_BACKENDS)
@given(case=setitem_cases())
# found by it: 128.0 truncates beyond int8, a cast C leaves undefined (NumPy -128, XLA 127)
@example(
    case=found(Case("setitem", "setitem", (_operand("int8", [0, 0]), 0, _operand("float16", 128.0)), "numpy"))
)
def test_setitem(backend: str, case: Case) -> None:
    check(backend, case)


@pytest.mark.parametrize("backend", DIFFERENTIAL_BACKENDS)
@given(case=one_array_cases())
# found by it: the float32 std of three 54367268.0 is 1.89 on Dask, 4.0 on JAX (NumPy, torch: 0)
@example(case=found(Case("std", "one_array", (_operand("float32", [54367268.0] * 3),), "array-api")))
def test_one_array_functions(backend: str, case: Case) -> None:
    check(backend, case)


@pytest.mark.parametrize("backend", DIFFERENTIAL_BACKENDS)
@given(case=nary_cases())
def test_functions_of_several_operands(backend: str, case: Case) -> None:
    check(backend, case)


@pytest.mark.parametrize("backend", [b for b in DIFFERENTIAL_BACKENDS if b != "torch:meta"])
@given(case=inplace_cases())
# found by it: torch's x /= y stored bool / bool computed in float32 (paddle refuses x / y on every
# backend); a float zero x %= y took the divisor's sign (NumPy adapter, pytorch) or not (torch, array-api)
@example(
    case=found(Case("divide", "inplace", (_operand("bool", [False]), _operand("bool", False)), "paddle"))
)
@example(case=found(Case("remainder", "inplace", (_operand("float16", [0.0, 0.0]), -1.0), "pytorch")))
@example(
    case=found(
        Case("remainder", "inplace", (_operand("float16", [0.0]), _operand("float16", -1.0)), "array-api")
    )
)
def test_an_inplace_op_stores_its_expression(backend: str, case: Case) -> None:
    if not jax_runs(backend, case):
        return
    stored = run(backend, case)
    expression = run(backend, Case(case.op, "operator", case.operands, case.policy))
    note(f"case: {case}\nx op= y: {stored!r}\nx op y: {expression!r}")
    if not expression.built:
        return
    if expression.error is not None:
        assert stored.error is not None, f"x op= y computed what x op y refuses: {expression.error!r}"
    elif stored.error is None and expression.dtype == str(case.operands[0].dtype):
        assert same_bits(expression, stored), f"x op= y stored {stored!r}, x op y gave {expression!r}"


@pytest.mark.parametrize("op", ["linalg.eigh", "linalg.svd"])
def test_vectors_compare_whatever_their_signs(op: str) -> None:
    # was (GPU run 5): cuSOLVER's eigenvectors of [[4, 1], [1, 4]] had other signs than LAPACK's
    m = np.asarray([[4.0, 1.0], [1.0, 4.0]], dtype=np.float32)
    parts = list(np.linalg.eigh(m) if op == "linalg.eigh" else np.linalg.svd(m))
    flip = np.asarray([-1.0, 1.0], dtype=np.float32)
    flipped = (
        [parts[0], parts[1] * flip]
        if op == "linalg.eigh"
        else [parts[0] * flip, parts[1], parts[2] * flip[:, None]]
    )
    assert close_values(unique_parts(op, parts), unique_parts(op, flipped))
    assert not close_values(unique_parts(op, parts), unique_parts(op, [2 * p for p in parts]))
