"""Float arrays with Python floats give the framework's bits (``Policy.float_scalars``), on every backend.

``pytorch`` is compared bit for bit with live torch (CPU, on every device), ``numpy`` with live
NumPy: the probe's inputs (specials and 10,000 normals of float16, bfloat16
and float32) with its scalars, the issue's examples, and random values and
scalars.  A NaN's bits are the backend's own (torch's vectorized CPU loops
write bfloat16 NaNs as ``0xffff``, ml_dtypes as ``0x7fc0``): NaNs compare as
NaNs, everything else by its bits, the sign of zero included.
"""

from __future__ import annotations

import base64
import json
import operator
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import promo_ns
from conformance.frameworks import edge_agreement, edges
from promo_ns._binary_plans import plan_of
from promo_ns._dtypes import BY_NAME
from promo_ns._operands import _NK, _SCALAR_CODE
from tests.backends import (
    BACKENDS,
    backend_marks,
    backend_name,
    has_values,
    namespace,
    skip_without,
    to_numpy,
)

_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
}
FORMS = tuple(edges.FLOAT_CASES)  # "x * s", "s * x", ...
_TORCH = edges.Torch()


def run(form: str, x: Any, s: float) -> Any:
    """``form`` (``"s / x"``, ...) of array ``x`` and Python float ``s``, written as the operator it is."""
    op = _OPS[form.split()[1]]
    return op(s, x) if form.startswith("s ") else op(x, s)


def promo_array(backend: str, xp: Any, values: np.ndarray[Any, Any]) -> Any:
    """NumPy ``values`` (bfloat16 too, bit for bit) as an array of ``xp`` (of ``backend``), on its device."""
    if backend.startswith("torch"):
        return xp.asarray(_TORCH.from_numpy(values).to(xp.__array_namespace_info__().default_device()))
    return xp.asarray(values)


def same_bits(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Per element: the same value and sign bit, or both NaN."""
    a, b = got.astype(np.float64), want.astype(np.float64)
    same: np.ndarray[Any, Any] = (np.isnan(a) & np.isnan(b)) | ((a == b) & (np.signbit(a) == np.signbit(b)))
    return same


def assert_same_bits(got: Any, want: Any, what: str, *, flushed: bool = False) -> None:
    """``got`` (promo_ns) has ``want``'s (the framework's) values bit for bit, NaNs as NaNs.

    ``flushed``: a float32 subnormal of ``want`` may be a zero of its sign in ``got`` (:func:`flushes`).
    """
    g, w = to_numpy(got), to_numpy(want)
    same = same_bits(g, w)
    if flushed:
        same |= (g == 0) & (np.abs(w) < np.finfo(np.float32).tiny) & (np.signbit(g) == np.signbit(w))
    bad = np.flatnonzero(~same)
    assert not bad.size, (
        f"{what}: {bad.size} elements differ, first at {bad[:5]}: {g[bad[:5]]} != {w[bad[:5]]}"
    )


def flushes(backend: str, dtype: str) -> bool:
    """Whether ``backend``'s kernels flush ``dtype``'s subnormal results to zero.

    CuPy compiles every kernel with ``-ftz=true`` (``cupy/cuda/compiler.py``): a
    float32 subnormal result is a zero of its sign there (``x / 3e38``).
    """
    return backend == "cupy" and dtype == "float32"


def _value_backends() -> list[Any]:
    return [b for b in BACKENDS if not (isinstance(b, str) and b.endswith(":meta"))]


#: XLA's CPU division by a Python float is not IEEE division (the last bit of float32 and
#: bfloat16 quotients, and flushed subnormals): JAX's numerics, whatever the policy.
_JAX_DIVISION = pytest.mark.xfail(
    reason="XLA's CPU x / s is not IEEE division (last bits, flushed subnormals)", strict=True
)


def _cases() -> list[Any]:
    out = []
    for backend in _value_backends():
        name = backend_name(backend)
        marks = list(backend_marks(backend))
        for form in FORMS:
            extra = [_JAX_DIVISION] if name == "jax" and form == "x / s" else []
            out.append(pytest.param(name, form, marks=[*marks, *extra], id=f"{name}-{form}"))
    return out


@pytest.mark.parametrize(("backend", "form"), _cases())
@pytest.mark.parametrize("dtype", edges.FLOAT_DTYPES)
def test_pytorch_policy_gives_torchs_bits(backend: str, form: str, dtype: str) -> None:
    skip_without(backend, dtype)
    xp = namespace(backend, "pytorch")
    values = edges.float_inputs(dtype)
    x = promo_array(backend, xp, values)
    # the reference: torch on the CPU, whose kernels the policy's rules describe, on every backend and
    # device (CUDA's own kernels read a Python float at float32 precision in + and - and divide by its
    # reciprocal: promo_ns gives the policy's bits there, see promo_ns/backends/_torch_scalars.py)
    tx = _TORCH.from_numpy(values)
    with np.errstate(all="ignore"):
        for s in edges.FLOAT_SCALARS:
            got, want = run(form, x, s), run(form, tx, s)
            assert str(got.dtype) == dtype
            assert_same_bits(got, want, f"{form}, {dtype}, s={s!r}", flushed=flushes(backend, dtype))


@pytest.mark.parametrize(("backend", "form"), _cases())
@pytest.mark.parametrize("dtype", edges.FLOAT_DTYPES)
def test_numpy_policy_gives_numpys_bits(backend: str, form: str, dtype: str) -> None:
    skip_without(backend, dtype)
    xp = namespace(backend, "numpy")
    values = edges.float_inputs(dtype)
    x = promo_array(backend, xp, values)
    with np.errstate(all="ignore"):
        for s in edges.FLOAT_SCALARS:
            got, want = run(form, x, s), run(form, values, s)
            assert str(got.dtype) == np.asarray(want).dtype.name
            assert_same_bits(
                got, np.asarray(want), f"{form}, {dtype}, s={s!r}", flushed=flushes(backend, dtype)
            )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # 3e38 * x: infinities
def test_scalar_first_and_second_give_the_same_bits_under_pytorch(backend: str, dtype: str) -> None:
    skip_without(backend, dtype)
    xp = namespace(backend, "pytorch")
    x = promo_array(backend, xp, edges.float_inputs(dtype))
    for s in edges.FLOAT_SCALARS:
        forward, reflected = x * s, s * x
        assert forward.dtype == reflected.dtype == getattr(xp, dtype)
        if has_values(xp):
            assert same_bits(to_numpy(reflected), to_numpy(forward)).all(), s


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # 70000.0 * 3.0 is inf in float16
def test_the_issues_examples(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    a = promo_array(backend, xp, np.array([-0.74853515625, 0.5, 3.0], dtype=np.float16))
    ta = torch.tensor([-0.74853515625, 0.5, 3.0], dtype=torch.float16)
    for got, want in ((70000.0 * a, 70000.0 * ta), (a * 70000.0, ta * 70000.0), (0.1 * a, ta * 0.1)):
        assert got.dtype == xp.float16
        if has_values(xp):
            assert_same_bits(got, want, "70000.0 * a, a * 70000.0, 0.1 * a")
    if has_values(xp):
        assert float(to_numpy(70000.0 * a)[0]) == -52384.0  # rounding 70000.0 to float16 first: -inf
        assert same_bits(to_numpy(0.1 * a), to_numpy(a * 0.1)).all()
        assert_same_bits(0.1 / a, 0.1 / ta, "0.1 / a (reciprocal(a) * 0.1)")
        assert_same_bits(xp.divide(0.1, a), 0.1 / ta, "xp.divide(0.1, a): the operator's rule")
        a *= 0.1
        assert_same_bits(a, ta * 0.1, "a *= 0.1")


#: float16/bfloat16 bit patterns: every value, NaNs, infinities and subnormals included.
_HALF_BITS = st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=40)
#: torch converts a Python float to float16 through float32 (double rounding); NumPy once: for
#: the forms that round the scalar first, scalars both convert alike (see the deviation below).
_SINGLE = st.floats(width=32)


def _halves(bits: list[int], dtype: str) -> np.ndarray[Any, Any]:
    return np.array(bits, dtype=np.uint16).view(np.float16 if dtype == "float16" else ml_dtypes.bfloat16)


@settings(max_examples=150, deadline=None)
@given(
    bits=_HALF_BITS,
    dtype=st.sampled_from(["float16", "bfloat16"]),
    form=st.sampled_from(FORMS),
    data=st.data(),
    backend=st.sampled_from(["numpy", "torch"]),
)
def test_pytorch_policy_gives_torchs_bits_for_random_values(
    bits: list[int], dtype: str, form: str, data: st.DataObject, backend: str
) -> None:
    s = data.draw(_SINGLE if form.split()[1] in "+-" else st.floats(), label="s")
    values = _halves(bits, dtype)
    xp = namespace(backend, "pytorch")
    with np.errstate(all="ignore"):
        got = run(form, promo_array(backend, xp, values), s)
    assert_same_bits(got, run(form, _TORCH.from_numpy(values), s), form)


@settings(max_examples=150, deadline=None)
@given(
    bits=_HALF_BITS,
    dtype=st.sampled_from(["float16", "bfloat16"]),
    form=st.sampled_from(FORMS),
    s=st.floats(),
    backend=st.sampled_from(["numpy", "torch"]),
)
def test_numpy_policy_gives_numpys_bits_for_random_values(
    bits: list[int], dtype: str, form: str, s: float, backend: str
) -> None:
    values = _halves(bits, dtype)
    xp = namespace(backend, "numpy")
    with np.errstate(all="ignore"):
        want = np.asarray(run(form, values, s))
        got = run(form, promo_array(backend, xp, values), s)
    assert str(got.dtype) == want.dtype.name
    assert_same_bits(got, want, form)


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_a_python_float_rounds_to_float16_as_the_backend_rounds_it(backend: str) -> None:
    """The pytorch policy's documented deviation: torch rounds through float32, NumPy once."""
    xp = namespace(backend, "pytorch")
    s = 1 + 2**-11 + 2**-40  # just above the float16 midpoint 1 + 2**-11; float32(s) is on it
    got = float(to_numpy(promo_array(backend, xp, np.zeros(1, np.float16)) + s)[0])
    assert got == (float(np.float16(s)) if backend == "numpy" else 1.0)
    assert float((torch.zeros(1, dtype=torch.float16) + s)[0]) == 1.0


def test_the_rule_is_policy_data() -> None:
    policy = promo_ns.get_policy("pytorch")
    assert policy.float_scalars["s * x"] == "float32_opmath"
    assert policy.float_scalars["s / x"] == "reciprocal_then_multiply"
    assert "x + s" not in policy.float_scalars  # rounded first, the default
    assert promo_ns.get_policy("numpy").float_scalars == {}
    with pytest.raises(ValueError, match="did you mean 'x \\* s'"):
        policy.derive("bad", float_scalars={"x*s": "float32_opmath"})
    with pytest.raises(ValueError, match="a rule of 's / x' only"):
        policy.derive("bad", float_scalars={"x / s": "reciprocal_then_multiply"})
    with pytest.raises(ValueError, match="must be one of"):
        policy.derive("bad", float_scalars={"x / s": "opmath"})


def test_a_derived_policy_with_opmath_addition_computes_it_on_every_backend() -> None:
    policy = promo_ns.get_policy("numpy").derive(
        "numpy-opmath-add", float_scalars={"x + s": "float32_opmath"}
    )
    values = edges.float_inputs("float16")
    want = (values.astype(np.float32) + np.float32(0.1)).astype(np.float16)
    for backend in ("numpy", "torch", "dask"):
        xp = promo_ns.namespace(backend, policy=policy)
        got = promo_array(backend, xp, values) + 0.1
        assert got.dtype == xp.float16
        assert same_bits(to_numpy(got), want).all(), backend


def _float_cells(policy: Any, backend: str, op: str, dtype: str) -> dict[str, Any]:
    """The plans of a ``dtype`` array with a Python float in ``op``, by operator form."""
    from promo_ns import _operands, _plan

    native = promo_ns.namespace(backend)._backend
    x, s = _operands.code_of(BY_NAME[dtype], False), _operands._SCALAR_CODE[float]
    symbol = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}[op]
    return {
        f"x {symbol} s": _plan.plan_of(policy, native, op, x * _operands._NK + s),
        f"s {symbol} x": _plan.plan_of(policy, native, op, s * _operands._NK + x),
    }


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("policy", promo_ns.policies())
def test_float32_and_float64_keep_their_native_kernels(policy: str, backend: str) -> None:
    """The rules change the path of float16/bfloat16 cells only, and of a composed ``s / x``."""
    rules = promo_ns.get_policy(policy)
    for op in ("add", "subtract", "multiply", "divide"):
        for dtype in ("float32", "float64"):
            for form, plan in _float_cells(rules, backend, op, dtype).items():
                composed = rules.float_scalars.get(form) == "reciprocal_then_multiply"
                assert plan is not None and plan.direct is not composed, (op, form, dtype)
                assert plan.kernel is not None


def test_low_precision_cells_leave_the_native_kernel_where_the_rules_differ() -> None:
    pytorch, numpy_ = promo_ns.get_policy("pytorch"), promo_ns.get_policy("numpy")
    on_numpy = _float_cells(pytorch, "numpy", "multiply", "float16")
    assert not on_numpy["x * s"].direct and not on_numpy["s * x"].direct  # float32 opmath
    assert _float_cells(pytorch, "numpy", "add", "float16")["s + x"].direct  # rounded first, as NumPy
    assert _float_cells(pytorch, "torch", "multiply", "bfloat16")["s * x"].direct  # torch's own mul
    assert not _float_cells(numpy_, "torch", "multiply", "float16")["x * s"].direct  # rounded first
    assert _float_cells(numpy_, "torch", "add", "float16")["x + s"].direct  # torch's add rounds it too


# --- the stored probe: every policy against its framework, cell by cell ------------------------

#: What may differ from a framework's stored bits, per policy (each is in edge_agreement.DEVIATIONS).
#: (policy, case) whose values differ from the framework's, documented in edge_agreement.DEVIATIONS:
#: XLA computes ``x / s`` as ``x * (1 / s)``.
_OTHER_VALUES = {("jax", "x / s")}
_ALLOWED = {
    "pytorch": {"NaN bits"},
    "paddle": {"NaN bits", "sign of zero"},
    "tf-safe": {"NaN bits", "subnormal flushed"},
    "tf-all": {"NaN bits", "subnormal flushed"},
    "tf-legacy": {"NaN bits", "subnormal flushed"},
    "jax": {"NaN bits"},
}


def framework_bits(observation: dict[str, Any], x: np.ndarray[Any, Any], s: float, name: str) -> Any:
    """The framework's result of case ``name``, rebuilt bit for bit from its stored observation."""
    dtype = (
        np.dtype(ml_dtypes.bfloat16) if observation["dtype"] == "bfloat16" else np.dtype(observation["dtype"])
    )
    uint = np.dtype(f"<u{dtype.itemsize}")
    if "bytes" in observation:
        return np.frombuffer(base64.b64decode(observation["bytes"]), dtype=uint).view(dtype)
    model = (observation.get("matches") or [observation.get("closest")])[0]
    out = edges.models(x, s, name, dtype)[model].view(uint).copy()
    for i, bits in observation.get("exceptions", []):
        out[i] = int(bits, 16)
    return out.view(dtype)


def kinds_of_difference(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> set[str]:
    """How ``got`` differs from ``want`` element by element (bit patterns)."""
    a, b = got.astype(np.float64), want.astype(np.float64)
    width = got.dtype.itemsize
    differ = got.view(f"u{width}") != want.view(f"u{width}")
    kinds = set()
    for ga, wb in zip(a[differ], b[differ], strict=True):
        if np.isnan(ga) and np.isnan(wb):
            kinds.add("NaN bits")
        elif ga == wb == 0:
            kinds.add("sign of zero")
        elif wb == 0 and abs(ga) < np.finfo(np.float32).tiny:
            kinds.add("subnormal flushed")
        else:
            kinds.add(f"value {ga!r} for {wb!r}")
    return kinds


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("policy", list(edges.FRAMEWORKS))
def test_float_scalars_differ_from_the_stored_framework_only_as_documented(policy: str, backend: str) -> None:
    reference = json.loads(edges.path(policy).read_text())["float_scalars"]["cases"]
    fw = edge_agreement.PromoNs(policy, backend)
    found: dict[str, set[str]] = {}
    with np.errstate(all="ignore"):
        for name, per_dtype in reference.items():
            for dtype, per_scalar in per_dtype.items():
                x = edges.float_inputs(dtype)
                for key, observation in per_scalar.items():
                    if "error" in observation:
                        continue
                    if (policy, name) in _OTHER_VALUES:
                        continue
                    got = fw.to_numpy(edges.FLOAT_CASES[name](fw, fw.from_numpy(x), float(key)))
                    assert str(got.dtype) == observation["dtype"], (name, dtype, key)
                    kinds = kinds_of_difference(got, framework_bits(observation, x, float(key), name))
                    if kinds - _ALLOWED.get(policy, set()):
                        found[f"{name}, {dtype}, s={key}"] = kinds
    assert not found, found


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("policy", list(edges.FRAMEWORKS))
def test_edge_agreement_has_no_undocumented_float_scalar_difference(policy: str, backend: str) -> None:
    agreement = edge_agreement.compare(policy, backend, ("float_scalars",))["float_scalars"]
    cells = "\n".join(
        f"  {where}: framework {want.get('dtype')} {want.get('sha256', want.get('error'))}, "
        f"promo_ns {got.get('dtype')} {got.get('sha256', got.get('error'))}"
        for where, want, got in agreement.differ
    )
    assert not agreement.differ, f"{len(agreement.differ)} cells differ, none in DEVIATIONS:\n{cells}"


_FLOAT_OPS = ("add", "multiply", "divide", "less", "maximum", "setitem")


@settings(max_examples=300, deadline=None)
@given(
    value=st.one_of(st.floats(), st.sampled_from([65504.0, -65504.0, 65505.0, 3.4e38, 3.5e38, 1e308, -0.0])),
    dtype=st.sampled_from([d for d in promo_ns._dtypes.DTYPES if d.kind in "fc"]),
    policy=st.sampled_from(promo_ns.policies()),
    op=st.sampled_from(_FLOAT_OPS),
)
def test_a_float_taken_as_it_is_is_what_the_checks_leave(
    value: float, dtype: Any, policy: str, op: str
) -> None:
    """The binary path's shortcut for a Python float within a floating dtype's range changes nothing.

    Outside the range (and for NaN), the checks run; within it, they must leave
    the float as it is under every policy, op and side.
    """
    from promo_ns._convert import fit
    from promo_ns._engine.scalars import checked_inexact
    from promo_ns._float_scalars import _FLOAT_TOP

    top = _FLOAT_TOP[dtype]
    if not -top <= value <= top:
        return
    for index in (0, 1):
        checked = checked_inexact(promo_ns.get_policy(policy), op, value, dtype, index)
        assert checked is value
        assert fit(checked, dtype) is value


#: Python floats and complexes at the edges of the truth a logical op reads: rounding to 0 in float16,
#: bfloat16 and float32 (ties to even at half the smallest subnormal), beyond the range, NaN.
_TRUTHS = [
    *(6.18e-16, 2.0**-25, 2.0**-24, 2.0**-134, 2.0**-133, 2.0**-150, 2.0**-149, 1e-320),
    *(1e300, -0.0, 0.0, float("nan"), float("-inf"), 1e-50j, 2.0**-149 * 1j, complex(0.0, -0.0)),
]


def _truth(policy: str, value: complex, dtype: str) -> bool:
    """The truth the policy reads: the value as written (numpy), else as it rounds in ``dtype``."""
    if promo_ns.get_policy(policy).families["logical"].scalar_truth == "as_written":
        return value != 0
    real = {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)
    native = ml_dtypes.bfloat16 if real == "bfloat16" else np.dtype(real)
    with np.errstate(over="ignore"):
        parts = [np.asarray(complex(value).real, dtype=native), np.asarray(complex(value).imag, dtype=native)]
    return any(bool(p != 0) for p in parts)


@pytest.mark.parametrize("backend", [pytest.param(backend_name(b), marks=backend_marks(b)) for b in BACKENDS])
@pytest.mark.parametrize("policy", ["numpy", "jax", "pytorch", "paddle", "tf-legacy"])
def test_a_logical_op_reads_a_python_floats_truth_as_the_policy_reads_it(backend: str, policy: str) -> None:
    # NumPy's logical ufuncs read a Python float as written, JAX's and torch's as rounded to the array's
    # dtype: each backend gives the policy's reading, on either side, warning of nothing
    xp = namespace(backend, policy)
    for dtype in ("float16", "bfloat16", "float32", "complex64", "float64"):
        skip_without(backend, dtype)
        a = xp.asarray([0.0, 1.0], dtype=getattr(xp, dtype))
        for value in _TRUTHS:
            got = [xp.logical_or(a, value), xp.logical_or(value, a), xp.logical_and(a, value)]
            plan = plan_of(xp.policy, xp._backend, "logical_or", a._k * _NK + _SCALAR_CODE[type(value)])
            assert plan is not None
            truth = _truth(policy, value, plan.compute.name)  # as it rounds in the dtype the op computes in
            wide = plan.compute.name in ("float64", "complex128")
            if backend == "jax" and wide and 0 < abs(value) < 2.3e-308:
                continue  # XLA's CPU kernels flush float64 subnormals to 0 (docs/backends.md)
            assert [str(g.dtype) for g in got] == ["bool"] * 3
            if has_values(xp):
                want = [[truth, True], [truth, True], [False, truth]]
                assert [to_numpy(g).tolist() for g in got] == want, (dtype, value)
