"""NumPy scalars as operands: each policy takes them as the 0-d array they are, or as Python scalars.

``Policy.numpy_scalars`` says which (PyTorch's argument parser reads
``np.integer`` and ``np.floating`` as Python numbers; NumPy and JAX keep
their dtype).  Generated from the op registry: every operator (normal,
reflected, in-place), its function, ``where``, ``clip`` and ``result_type``,
with any array dtype and NumPy scalar dtype and value, on every backend and
policy, gives what the same call with the operand the policy takes (a 0-d
array, or ``scalar.item()``) gives: dtype, value and refusal.  Under
``pytorch`` it is checked against torch 2.13 itself; ``compare`` and
``torch_policy`` decide NumPy scalars as each policy takes them.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import promo_ns
from promo_ns._dtypes import DTYPES
from promo_ns._ops import COMPARISONS, OPERATORS
from promo_ns.policies import get_policy
from tests.backends import BACKENDS, POLICIES, dtypes_of, has_values, namespace, to_numpy

NUMPY_SCALARS = (
    "bool", "int8", "uint8", "int16", "int32", "int64", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
VALUES = (0, 1, 3, 300, -2)
FUNCTIONS = ("where", "where_reflected", "clip", "result_type")
FORMS = ("operator", "reflected", "function", "inplace")


def _scalar(dtype: str, value: int) -> Any:
    if dtype == "bool":
        return np.bool_(value % 2)
    return np.array(value).astype(dtype)[()]  # an int beyond the dtype wraps, as NumPy's cast does


def _call(xp: Any, op: str, form: str, a: Any, s: Any) -> Any:
    """``op`` of array ``a`` and operand ``s`` in ``form`` (:data:`FUNCTIONS` are functions)."""
    if op == "where":
        return xp.where(a > 0, a, s)
    if op == "where_reflected":
        return xp.where(a > 0, s, a)
    if op == "clip":
        return xp.clip(a, s, None)
    if op == "result_type":
        return xp.result_type(a, s)
    dunder = OPERATORS[op]
    if form == "operator":
        return getattr(operator, dunder if dunder not in ("and", "or") else f"{dunder}_")(a, s)
    if form == "reflected":
        return getattr(a, f"__r{dunder}__")(s)
    if form == "function":
        return getattr(xp, op)(a, s)
    x = xp.asarray(a, copy=True)
    getattr(operator, f"i{dunder}")(x, s)
    return x


def _outcome(xp: Any, f: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """``f(*args)``'s result dtype and values (NumPy), or its error's type."""
    try:
        result = f(*args)
        if not hasattr(result, "shape"):  # result_type
            return str(result), None
        return str(result.dtype), to_numpy(result) if has_values(xp) else None  # Dask's errors come here
    except Exception as e:  # the refusal is compared, whatever it is
        return type(e).__name__, None


def _same(got: tuple[str, Any], want: tuple[str, Any]) -> bool:
    if got[0] != want[0]:
        return False
    if got[1] is None or want[1] is None:
        return got[1] is None and want[1] is None
    if got[0].startswith(("float", "bfloat", "complex")):  # NaNs equal (bfloat16 via complex128)
        return bool(np.array_equal(got[1].astype(complex), want[1].astype(complex), equal_nan=True))
    return bool(np.array_equal(got[1], want[1]))


def _forms(op: str) -> tuple[str, ...]:
    if op in FUNCTIONS:
        return ("function",)
    return ("operator", "function") if op in COMPARISONS else FORMS


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's divide by zero
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=30, deadline=None)
@given(
    op=st.sampled_from((*OPERATORS, *FUNCTIONS)),
    array_dtype=st.sampled_from([d.name for d in DTYPES]),
    scalar_dtype=st.sampled_from(NUMPY_SCALARS),
    value=st.sampled_from(VALUES),
)
def test_a_numpy_scalar_is_the_operand_the_policy_takes(
    backend: str, policy: str, op: str, array_dtype: str, scalar_dtype: str, value: int
) -> None:
    if array_dtype not in dtypes_of(backend.partition(":")[0], [array_dtype]):
        return
    xp = namespace(backend, policy)
    a = xp.asarray([1, 2, 0], dtype=getattr(xp, array_dtype))
    s = _scalar(scalar_dtype, value)
    taken = s.item() if get_policy(policy).numpy_scalars == "python" else xp.asarray(s)
    for form in _forms(op):
        got = _outcome(xp, _call, xp, op, form, a, s)
        want = _outcome(xp, _call, xp, op, form, a, taken)
        assert _same(got, want), (form, got, want)
    unchanged = [True, True, False] if array_dtype == "bool" else [1, 2, 0]
    assert not has_values(xp) or to_numpy(a).tolist() == unchanged


# --- under pytorch, as torch itself takes them -------------------------------------------------

torch = pytest.importorskip("torch")

#: Tensor dtypes with torch's CPU kernels for every op (uint16/32/64 have few: the policy decides those).
TORCH_DTYPES = (
    "bool", "int8", "uint8", "int16", "int32", "int64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
#: NumPy scalars torch reads as Python numbers (np.bool_ and complex ones: the policy's deviation; np.uint64
#: beyond int64 NumPy's operator takes over).
TORCH_READS = ("int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64")


def _torch_call(op: str, form: str, t: Any, s: Any) -> Any:
    if op == "where":
        return torch.where(t > 0, t, s)
    if op == "where_reflected":
        return torch.where(t > 0, s, t)
    if op == "clip":
        return torch.clamp(t, s)
    if op == "result_type":
        return torch.result_type(t, s)
    if form == "function":  # torch's function of the same name, where it has one
        return getattr(torch, "eq" if op == "equal" else op)(t, s)  # torch.equal compares whole tensors
    return _call(None, op, form, t, s) if form != "inplace" else _torch_inplace(op, t, s)


def _torch_inplace(op: str, t: Any, s: Any) -> Any:
    x = t.clone()
    getattr(operator, f"i{OPERATORS[op]}")(x, s)
    return x


def _torch_outcome(f: Callable[..., Any], *args: Any) -> str:
    try:
        result = f(*args)
    except Exception:
        return "refused"
    return str(getattr(result, "dtype", result)).removeprefix("torch.")


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("tensor_dtype", TORCH_DTYPES)
def test_pytorch_takes_numpy_scalars_as_torch_does(backend: str, tensor_dtype: str) -> None:
    xp = namespace(backend, "pytorch")
    t = torch.tensor([1, 2, 0]).to(getattr(torch, tensor_dtype))
    a = xp.asarray([1, 2, 0], dtype=getattr(xp, tensor_dtype))
    misses = []
    for scalar_dtype in TORCH_READS:
        s = _scalar(scalar_dtype, 3)
        for op in (*OPERATORS, *FUNCTIONS):
            for form in _forms(op):
                want = _torch_outcome(_torch_call, op, form, t, s)
                got = _outcome(xp, _call, xp, op, form, a, s)[0]
                got = got if got in {d.name for d in DTYPES} else "refused"
                if got != want:
                    misses.append(f"{op} {form} {tensor_dtype} np.{scalar_dtype}: torch {want}, ours {got}")
    assert not misses, "\n".join(misses)


# --- compare and torch_policy -----------------------------------------------------------------


def test_compare_decides_a_numpy_scalar_as_each_policy_takes_it() -> None:
    xp = promo_ns.namespace("numpy", policy="numpy")
    a = xp.ones(3, dtype=xp.int32)
    with promo_ns.compare("numpy", "pytorch", "jax") as report:
        a * np.float64(1.5)  # numpy, jax: float64; pytorch: float32
        np.float32(2) + a  # numpy: float64; pytorch, jax: float32
        xp.where(a > 0, xp.ones(3, dtype=xp.int8), np.int64(1))  # numpy, jax: int64; pytorch: int8
        xp.ones(3, dtype=xp.float16) * np.float64(1.0)  # numpy: float64; pytorch: float16; jax: float64
    found = {(d.op, d.operands): dict(d.results) for d in report.differences}
    want = {  # numpy, pytorch, jax
        ("multiply", ("int32 (n-d array)", "float64 (NumPy scalar)")): ("float64", "float32", "float64"),
        ("add", ("float32 (NumPy scalar)", "int32 (n-d array)")): ("float64", "float32", "float32"),
        ("where", ("int8 (n-d array)", "int64 (NumPy scalar)")): ("int64", "int8", "int64"),
        ("multiply", ("float16 (n-d array)", "float64 (NumPy scalar)")): ("float64", "float16", "float64"),
    }
    assert found == {
        cell: dict(zip(("numpy", "pytorch", "jax"), got, strict=True)) for cell, got in want.items()
    }


def test_compare_under_pytorch_reports_what_numpy_would_do() -> None:
    xp = promo_ns.namespace("torch", policy="pytorch")
    with promo_ns.compare("pytorch", "numpy") as report:
        x = xp.ones(3, dtype=xp.int32)
        x = x * np.float64(1.5)
        x -= np.float64(1)  # float32 in place under both: agrees
    assert [(d.op, dict(d.results)) for d in report.differences] == [
        ("multiply", {"pytorch": "float32", "numpy": "float64"})
    ]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("policy", POLICIES)
def test_torch_policy_decides_numpy_scalars(policy: str) -> None:
    xp = promo_ns.namespace("torch", policy=policy)
    t = torch.ones(3, dtype=torch.int8)
    for s in (np.int64(1), np.float32(1.5), np.float64(2.5), np.int16(3)):
        with promo_ns.torch_policy(policy):
            got = _torch_outcome(operator.add, t, s)
            got_where = _torch_outcome(torch.where, t > 0, t, s)
        a = xp.asarray(t)
        want = _outcome(xp, operator.add, a, s)[0]
        want_where = _outcome(xp, xp.where, a > 0, a, s)[0]
        assert (got, got_where) == (
            want if want != "PromotionError" else "refused",
            want_where if want_where != "PromotionError" else "refused",
        ), s
    assert (t + np.int64(1)).dtype == torch.int8  # outside the block: torch's own


# --- against Paddle and TensorFlow (observations stored by conformance/frameworks/numpy_scalars.py) ---

_BIG: dict[str, Any] = {"b": True, "i": 100, "u": 100, "f": 100.0, "c": 100 + 0j}


def _probe_scalar(dtype: str) -> Any:
    return np.dtype(dtype).type({"b": True, "i": 2, "u": 2, "f": 1.5, "c": 1 + 2j}[np.dtype(dtype).kind])


_OBSERVED = json.loads((Path(__file__).parent / "reference" / "numpy-scalars.json").read_text())
#: Stored op -> the same call on promo_ns (``xp``, array ``a`` of ``[1, 2, 3]``, NumPy scalar ``s``).
_CALLS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "t + s": lambda xp, a, s: a + s,
    "s + t": lambda xp, a, s: s + a,
    "paddle.where(c, t, s)": lambda xp, a, s: xp.where(xp.asarray([True, False, True]), a, s),
    "paddle.clip(t, s)": lambda xp, a, s: xp.clip(a, s),
    "tf.add(t, s)": lambda xp, a, s: xp.add(a, s),
    "tnp.clip(t, s, big)": lambda xp, a, s: xp.clip(a, s, s.dtype.type(_BIG[s.dtype.kind])),
}
_PARSER_REFUSES = {"bool", "int8", "uint8", "int16", "uint64"}
_LOSSY = {"float16", "float32", "complex64"}
_TF_KERNELS: tuple[str, Callable[[str, str, str, str, str], bool]] = (
    "InvalidArgumentError: TF has no kernel for the dtype (AddV2 of bool): the backend's, not the policy's",
    lambda op, t, s, seen, got: seen == "error: InvalidArgumentError",
)
#: policy -> (why, applies(op, tensor dtype, scalar dtype, observed, promo_ns's)): where promo_ns differs.
_DEVIATIONS: dict[str, tuple[tuple[str, Callable[[str, str, str, str, str], bool]], ...]] = {
    "paddle": (
        (
            "paddle.where takes a NumPy scalar as the 0-d tensor it is (to_tensor keeps its dtype), Paddle's "
            "operators as the Python number it holds; the policy takes it one way, as the operators do",
            lambda op, t, s, seen, got: op.startswith("paddle.where"),
        ),
        (
            "Paddle's operators and clip cast np.float16/np.float32/np.complex64 into the tensor's dtype "
            "(int32 + np.float32(1.5) is int32, a complex's imaginary part dropped) and keep a bool tensor "
            "bool with NumPy ints; the policy loses nothing",
            lambda op, t, s, seen, got: seen == t and (s in _LOSSY or (t == "bool" and s[0] in "iu")),
        ),
        (
            "Paddle's argument parsing refuses np.bool_, np.int8, np.uint8 in operators and those, "
            "np.int16 and np.uint64 in clip (not a promotion rule); the policy takes them as the "
            "Python numbers they hold",
            lambda op, t, s, seen, got: seen.startswith("error") and s in _PARSER_REFUSES,
        ),
        (
            "missing CPU kernels (RuntimeError: float16/bfloat16 add, clip of small ints, bool, float16 and "
            "complex): the backend's, not the policy's",
            lambda op, t, s, seen, got: seen == "error: RuntimeError",
        ),
    ),
    "tf-safe": (
        _TF_KERNELS,
        (
            "where safe mode refuses the promotion, t + s hands the op to NumPy's reflected operator and "
            "returns an ndarray by NumPy's rules, where s + t raises: the policy refuses both",
            lambda op, t, s, seen, got: op == "t + s" and seen == "ndarray" and got.startswith("error"),
        ),
    ),
    "tf-legacy": (
        _TF_KERNELS,
        (
            "tf.add is not patched by the numpy behaviour: it casts the NumPy scalar into the tensor's dtype "
            "(tf.add(int32, np.float64(1.5)) is int32), where the operators promote; the policy promotes",
            lambda op, t, s, seen, got: op == "tf.add(t, s)" and seen == t,
        ),
        (
            "a bfloat16 tensor with np.int16/int32/int64/uint64/float16: NumPy knows no bfloat16 "
            "promotion, so t + s is an ndarray and s + t raises DTypePromotionError; the policy "
            "refuses them",
            lambda op, t, s, seen, got: t == "bfloat16" and got.startswith("error"),
        ),
    ),
    "tf-all": (_TF_KERNELS,),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("policy", sorted(_DEVIATIONS))
def test_numpy_scalars_as_the_framework_takes_them(policy: str) -> None:
    xp = namespace("numpy", policy)
    misses = []
    for op, cells in _OBSERVED[policy]["ops"].items():
        for key, seen in cells.items():
            t, s = key.split("|")
            values = [True, False, True] if t == "bool" else [1, 2, 3]
            a = xp.asarray(values, dtype=getattr(xp, t))
            got = _outcome(xp, _CALLS[op], xp, a, _probe_scalar(s))[0]
            got = got if got in {d.name for d in DTYPES} else f"error: {got}"
            if got == seen or (seen.startswith("error") and got.startswith("error")):
                continue
            if not any(applies(op, t, s, seen, got) for _, applies in _DEVIATIONS[policy]):
                misses.append(f"{op} {key}: {_OBSERVED[policy]['version']} {seen}, promo_ns {got}")
    assert not misses, "\n".join(misses)


@pytest.mark.parametrize("policy", POLICIES)
def test_numpy_scalars_of_no_canonical_dtype_are_refused(policy: str) -> None:
    # found in review: np.longdouble's item() is an np.longdouble (endless recursion under "python"),
    # np.timedelta64 is a NumPy integer whose item() is an int
    xp = namespace("numpy", policy)
    a = xp.ones(2, dtype=xp.float32)
    for s in (np.longdouble(1.5), np.timedelta64(5), np.str_("a")):
        with pytest.raises(TypeError):
            a + s
        with pytest.raises(TypeError):
            xp.where(a > 0, a, s)
    with promo_ns.torch_policy(policy):  # torch's own answer for them
        assert (torch.ones(2) + np.longdouble(1.5)).tolist() == [2.5, 2.5]


def test_a_trace_counts_no_cast_of_a_numpy_scalar() -> None:
    # found in review: a NumPy scalar taken as a Python float was reported as a converted array
    xp = namespace("numpy", "pytorch")
    with promo_ns.trace() as casts:
        xp.ones(3, dtype=xp.int8) + np.float64(1.5)
    [cast] = list(casts)
    assert cast.converted == ("int8 -> float32",) and cast.bytes == 12
