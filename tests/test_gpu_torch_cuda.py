"""What torch on CUDA computes otherwise than its CPU, checked without a GPU (on the CPU, with CUDA's ways).

A GPU run of the suite (torch 2.11, H200) found: no integer ``matmul``/``tensordot``/``vecdot``/
``matrix_power`` kernels (``"addmm_cuda" not implemented for 'Char'``), no ``where``/``all``/``any``
kernels for uint16/32/64, a float32/complex64 ``pow`` that checks a Python float exponent against
float32's range, and kernels that read a Python scalar otherwise than the CPU's (``add``/``sub`` of
float16 at float32 precision, division by its reciprocal, a device 0-d tensor cast first).  Each
test here gives torch's CPU CUDA's behaviour (a kernel that raises as CUDA's does, or computes as
CUDA's does) and checks that promo_ns still gives the NumPy backend's outcome or the policy's bits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import torch

import promo_ns
from promo_ns._dtypes import bfloat16, float16, float32, int32
from promo_ns.backends import _torch_scalars as scalars
from promo_ns.backends._base import Values
from promo_ns.backends._torch_products import exact_integer_product, integer_matrix_power, integer_product
from promo_ns.backends._torch_unsigned import ExactCompat
from promo_ns.backends.torch import TorchBackend
from promo_ns.policies import Role
from tests.backends import to_numpy

INTEGERS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]


def _integers(dtype: str, shape: tuple[int, ...], seed: int) -> np.ndarray[Any, Any]:
    """Random ``dtype`` values, the extremes included."""
    info = np.iinfo(dtype)
    out = np.random.default_rng(seed).integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    out.reshape(-1)[:2] = info.min, info.max
    return out


def _no_integer_kernel(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn``, raising on integer tensors as CUDA's products do."""

    def cuda_like(*args: Any, **kw: Any) -> Any:
        if any(isinstance(a, torch.Tensor) and not a.dtype.is_floating_point for a in args):
            raise NotImplementedError("\"addmm_cuda\" not implemented for 'Char'")
        return fn(*args, **kw)

    return cuda_like


# --- integer products ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INTEGERS)
def test_an_integer_product_without_a_kernel_is_numpys_wrapped_product(dtype: str) -> None:
    # was: TypeError "torch has no 'matmul' kernel for int8, int8" on CUDA
    a, b = _integers(dtype, (3, 4, 6), 0), _integers(dtype, (6, 5), 1)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    got = integer_product(_no_integer_kernel(torch.matmul))(ta, tb)
    assert got.dtype == ta.dtype
    assert np.array_equal(got.numpy(), np.matmul(a, b))
    got = integer_product(_no_integer_kernel(torch.tensordot))(ta, tb, dims=1)
    assert np.array_equal(got.numpy(), np.tensordot(a, b, axes=1))
    got = exact_integer_product(torch.linalg.vecdot, ta, torch.from_numpy(a[::-1].copy()), dim=-1)
    want = np.sum(a * a[::-1], axis=-1, dtype=dtype)
    assert np.array_equal(got.numpy(), want)


def test_long_sums_use_smaller_limbs() -> None:
    # 2**21 + 1 terms: products of 16-bit limbs (0xffff each) would sum past 2**53
    n = 2**21 + 1
    a = torch.full((1, n), -1, dtype=torch.int16)
    assert exact_integer_product(torch.matmul, a, a.T).item() == 1  # n wrapped into int16


@pytest.mark.parametrize("dtype", ["int16", "uint8", "int64"])
def test_an_integer_matrix_power_without_a_kernel_squares_exactly(dtype: str) -> None:
    x = _integers(dtype, (2, 3, 3), 2)
    matmul = integer_product(_no_integer_kernel(torch.matmul))
    power = integer_matrix_power(_no_integer_kernel(torch.linalg.matrix_power), matmul)
    for n in (0, 1, 2, 5):
        assert np.array_equal(power(torch.from_numpy(x), n=n).numpy(), np.linalg.matrix_power(x, n))
    with pytest.raises(NotImplementedError):  # a negative power: the kernel's own error
        power(torch.from_numpy(x), -1)


@pytest.mark.parametrize(
    "policy", ["array-api", "numpy", "pytorch", "paddle", "tf-safe", "jax", "tf-all", "tf-legacy"]
)
def test_the_namespace_computes_integer_products_where_torch_has_no_kernel(
    monkeypatch: pytest.MonkeyPatch, policy: str
) -> None:
    monkeypatch.setattr(torch, "matmul", _no_integer_kernel(torch.matmul))
    monkeypatch.setattr(torch, "tensordot", _no_integer_kernel(torch.tensordot))
    xp = promo_ns.namespace("torch", policy=policy)
    x = xp.asarray([[1, -2], [3, 4]], dtype=xp.int16)
    assert to_numpy(xp.matmul(x, x)).tolist() == [[-5, -10], [15, 10]]
    assert to_numpy(xp.tensordot(x, x, axes=1)).tolist() == [[-5, -10], [15, 10]]


# --- uint16/32/64 without where/all/any kernels -----------------------------------------------------

_WIDE = (torch.uint16, torch.uint32, torch.uint64)


def _refusing_wide_unsigned(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn``, raising for uint16/32/64 tensors as CUDA's ``where``/``all``/``any`` do."""

    def cuda_like(*args: Any, **kw: Any) -> Any:
        if any(isinstance(a, torch.Tensor) and a.dtype in _WIDE for a in args):
            raise NotImplementedError(f"\"{name}_cuda\" not implemented for 'UInt16'")
        return fn(*args, **kw)

    return cuda_like


@pytest.mark.parametrize("policy", ["array-api", "numpy"])
@pytest.mark.parametrize("op", ["floor_divide", "remainder"])
def test_a_zero_divisor_of_uint16_needs_no_uint16_where(
    monkeypatch: pytest.MonkeyPatch, policy: str, op: str
) -> None:
    # was: "where_cuda" not implemented for 'UInt16' for int32 // 0-d uint16 (and uint16 // uint16)
    monkeypatch.setattr(torch, "where", _refusing_wide_unsigned(torch.where, "where"))
    xp = promo_ns.namespace("torch", policy=policy)
    x = xp.asarray([7, -7, 5], dtype=xp.int32)
    for divisor, want in ((0, [0, 0, 0]), (2, [3, -4, 2] if op == "floor_divide" else [1, 1, 1])):
        got = getattr(xp, op)(x, xp.asarray(divisor, dtype=xp.uint16))
        assert (str(got.dtype), to_numpy(got).tolist()) == ("int32", want)
    u = xp.asarray([7, 9], dtype=xp.uint16)
    got = getattr(xp, op)(u, xp.asarray([0, 2], dtype=xp.uint16))
    assert (str(got.dtype), to_numpy(got).tolist()) == ("uint16", [0, 4 if op == "floor_divide" else 1])


@pytest.mark.parametrize("name", ["all", "any"])
def test_all_and_any_of_wide_unsigned_need_no_kernel_for_them(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    # was: the raw NotImplementedError ("all_cuda" not implemented for 'UInt16')
    monkeypatch.setattr(torch, name, _refusing_wide_unsigned(getattr(torch, name), name))
    xp = promo_ns.namespace("torch", policy="pytorch")
    for dtype in ("uint16", "uint32", "uint64"):
        got = getattr(xp, name)(xp.asarray([[1, 0], [2, 3]], dtype=getattr(xp, dtype)), axis=1)
        want = [False, True] if name == "all" else [True, True]
        assert (str(got.dtype), to_numpy(got).tolist()) == ("bool", want)


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_signbit_of_wide_unsigned_needs_no_kernel_for_it(dtype: str) -> None:
    # was: TypeError "torch has no 'signbit' kernel for uint16" on CUDA (signbit_cuda has no UInt16)
    base = ModuleType("cuda_like")
    base.abs, base.sign = torch.abs, torch.sign  # type: ignore[attr-defined]
    base.signbit = _refusing_wide_unsigned(torch.signbit, "signbit")  # type: ignore[attr-defined]
    signbit = ExactCompat(base, {}).signbit
    got = signbit(torch.from_numpy(_integers(dtype, (6,), 2)))
    assert got.dtype == torch.bool and not got.any()
    assert signbit(torch.tensor([-1.0, 2.0])).tolist() == [True, False]


# --- a Python float exponent beyond float32 ------------------------------------------------------------


def test_a_float32_power_by_a_float_beyond_its_range_computes() -> None:
    # was: refused on CUDA ("value cannot be converted to type float without overflow"), torch's CPU computes
    backend = TorchBackend()

    def cuda_like_pow(x: Any, y: Any) -> Any:
        if isinstance(y, float) and math.isfinite(y) and abs(y) > torch.finfo(torch.float32).max:
            raise RuntimeError("value cannot be converted to type float without overflow")
        return torch.pow(x, y)

    backend._fn["pow"] = cuda_like_pow
    kernel = backend.kernel("pow", float32, Role.FLOAT, float32, float32, values=Values())
    assert kernel is not None
    x = torch.tensor([0.0, 0.5, 1.0, -1.0, 2.0, -2.0])
    for s in (3.5e38, 1e39, 1e300, -1e300):
        assert torch.equal(kernel(x, s), torch.pow(x, s))


# --- Python scalars with float tensors, as CUDA's kernels read them -----------------------------------


def _scalar_value(s: Any, dtype: torch.dtype) -> Any:
    """A CUDA kernel's view of operand ``s``: a Python number at float32 precision, a tensor as it is."""
    return s if isinstance(s, torch.Tensor) else float(np.float32(s))


def _cuda_like(op: str) -> Callable[[Any, Any], Any]:
    """torch's ``op`` as CUDA computes it with a CPU scalar or a device 0-d tensor (see _torch_scalars)."""
    fn = getattr(torch, op)

    def computed(x: Any, y: Any) -> Any:
        tensor = x if isinstance(x, torch.Tensor) else y
        dtype, wide = tensor.dtype, torch.float32 if tensor.dtype in (torch.float16, torch.bfloat16) else None
        if (
            isinstance(x, torch.Tensor)
            and not isinstance(y, torch.Tensor)
            and op in ("divide", "floor_divide")
        ):
            inverse = float(np.float32(1) / np.float32(y))  # a * reciprocal(b)
            if op == "floor_divide":
                return torch.floor(x.to(wide or dtype) * inverse).to(dtype)
            return (x.to(wide or dtype) * inverse).to(dtype)
        a, b = (_scalar_value(v, wide or dtype) if v is not tensor else v for v in (x, y))
        a, b = (v.to(dtype).to(wide or dtype) if isinstance(v, torch.Tensor) else v for v in (a, b))
        return fn(a, b).to(dtype)

    return computed


def _bits(x: torch.Tensor) -> np.ndarray[Any, Any]:
    return x.view(torch.int16 if x.element_size() == 2 else torch.int32).numpy()


@pytest.fixture
def off_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU tensors take the path of other devices."""
    monkeypatch.setattr(scalars, "_LIKE_CPU", frozenset({"meta"}))


_VALUES = np.random.default_rng(3).normal(0, 10, 4000)


@pytest.mark.parametrize(
    ("op", "dtype", "s"),
    [
        ("add", float16, 0.1),
        ("subtract", float16, 0.1),
        ("add", float16, 1 / 3),
        ("divide", float32, 0.1),
        ("divide", float32, 70000.0),
    ],
)
def test_the_numpy_policy_gives_numpys_bits_where_cuda_reads_the_scalar_otherwise(
    off_cpu: None, op: str, dtype: Any, s: float
) -> None:
    # was (on CUDA): float16 x + 0.1 added float32(0.1), float32 x / 0.1 multiplied by 1/0.1
    values = _VALUES.astype(dtype.name)
    x = torch.from_numpy(values)
    want = getattr(np, op)(values, s)
    backend = TorchBackend()
    backend._fn[op] = _cuda_like(op)
    assert not np.array_equal(_cuda_like(op)(x, s).numpy(), want)  # CUDA's way differs
    kernel = backend.kernel(op, dtype, Role.FLOAT, dtype, dtype, values=Values())
    assert kernel is not None
    assert np.array_equal(_bits(kernel(x, s)), want.view(np.int16 if dtype is float16 else np.int32))
    reflected = backend.kernel(op, Role.FLOAT, dtype, dtype, dtype, values=Values())
    if reflected is not None and op == "add":
        assert np.array_equal(_bits(reflected(s, x)), want.view(np.int16))


@pytest.mark.parametrize("dtype", [float16, bfloat16])
@pytest.mark.parametrize("op", ["multiply", "divide", "floor_divide"])
def test_the_pytorch_policy_gives_torchs_cpu_bits_where_cuda_reads_the_scalar_otherwise(
    off_cpu: None, dtype: Any, op: str
) -> None:
    # was (on CUDA): x // (1/3) by the reciprocal, float16 x * 0-d int32 100000 inf (the 0-d cast first)
    torch_dtype = getattr(torch, dtype.name)
    x = torch.tensor(_VALUES, dtype=torch_dtype)
    backend = TorchBackend()
    backend._fn[op] = _cuda_like(op)
    scalar = backend.kernel(op, dtype, Role.FLOAT, dtype, dtype, values=Values())
    zero_d = backend.kernel(op, dtype, int32, dtype, dtype, values=Values())
    assert scalar is not None and zero_d is not None
    for s in (0.1, 1 / 3, 7.0):
        assert torch.equal(_bits_t(scalar(x, s)), _bits_t(getattr(torch, op)(x, s))), s
    z = torch.tensor(100000, dtype=torch.int32)
    assert torch.equal(_bits_t(zero_d(x, z)), _bits_t(getattr(torch, op)(x, z)))
    if op != "floor_divide":  # (by 100000 or by inf: the same floors)
        assert not torch.equal(_cuda_like(op)(x, z), getattr(torch, op)(x, z))  # CUDA's: the 0-d cast first


def _bits_t(x: torch.Tensor) -> torch.Tensor:
    return x.view(torch.int16)


def test_cpu_tensors_take_torchs_own_kernel() -> None:
    calls = []

    def kernel(x: Any, y: Any) -> Any:
        calls.append(y)
        return torch.add(x, y)

    fn = scalars.as_on_cpu("add", kernel, torch.float16, opmath=False)
    fn(torch.ones(2, dtype=torch.float16), 0.1)
    fn(torch.ones(2, dtype=torch.float16, device="meta"), 0.1)
    assert calls == [0.1, 0.1]  # unrounded: torch's CPU rounds it itself


# --- the operators of a namespace whose torch kernels read scalars as CUDA's do --------------------


def _cuda_kernel(op: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """torch's ``fn`` (``op``) reading a Python float or a 0-d tensor operand as CUDA's kernels do.

    A Python float at opmath precision (float32 for float16/bfloat16), a
    division by it as a product with its reciprocal, a 0-d tensor cast to the
    computing dtype first; ``out=`` and integer operands as torch's CPU.
    """

    def cuda(x: Any, y: Any, **kw: Any) -> Any:
        tensor = x if isinstance(x, torch.Tensor) else y
        if kw or not tensor.is_floating_point() or not torch.result_type(x, y).is_floating_point:
            return fn(x, y, **kw)
        dtype = torch.result_type(x, y)
        wide = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
        if isinstance(x, torch.Tensor) and y.__class__ is float and op in ("divide", "floor_divide"):
            inverse = float(np.float32(1) / np.float32(y)) if wide == torch.float32 else 1 / y
            quotient = x.to(wide) * inverse
            return (torch.floor(quotient) if op == "floor_divide" else quotient).to(dtype)
        a, b = (
            v.to(dtype).to(wide) if isinstance(v, torch.Tensor) else _scalar_value(v, wide) for v in (x, y)
        )
        return fn(a, b).to(dtype)

    return cuda


def _cuda_like_namespace(policy: str) -> Any:
    """A torch namespace of ``policy`` whose add/subtract/multiply/divide/floor_divide are CUDA-like."""
    from promo_ns._namespace import Namespace

    backend = TorchBackend()
    for op in scalars.OPS:
        backend._fn[op] = _cuda_kernel(op, backend._fn[op])
    return Namespace(backend, promo_ns.get_policy(policy), None, "promo_ns.torch_cuda_like", "2025.12")


@pytest.mark.parametrize("policy", ["numpy", "pytorch"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_operators_give_the_policys_bits_with_cuda_like_kernels(
    off_cpu: None, policy: str, dtype: str
) -> None:
    # was (on CUDA): numpy's float16 x + 0.1, float32 x / 0.1 and pytorch's x + 7.1, x // (1/3) differed
    import operator

    from conformance.frameworks import edges
    from tests.test_float_scalars import assert_same_bits

    xp = _cuda_like_namespace(policy)
    values = edges.float_inputs(dtype)
    native = edges.Torch().from_numpy(values)
    x = xp.asarray(native)
    reference = values if policy == "numpy" else native
    ops = (operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv)
    with np.errstate(all="ignore"):
        for s in (0.1, 1 / 3, 7.1, 70000.0):
            for op in ops:
                cases = [("x op s", op(x, s), op(reference, s))]
                if (
                    op is not operator.floordiv
                ):  # s // x: torch's div_floor rounds its own way (see test_fidelity_pytorch)
                    cases.append(("s op x", op(s, x), op(s, reference)))
                for form, got, want in cases:
                    expected = np.asarray(want) if policy == "numpy" else want
                    assert_same_bits(got, expected, f"{op.__name__} {form} {s}")


# --- uint16/32/64 operators, where and indexing without CUDA's kernels ---------------------------------


def _wide_unsigned_refusing_namespace(policy: str) -> Any:
    """A torch namespace of ``policy`` whose kernels for the CPU's uint16/32/64 ops raise as CUDA's do."""
    from promo_ns._namespace import Namespace
    from promo_ns.backends.torch import _CPU_UNSIGNED_KERNELS

    backend = TorchBackend()
    for op in _CPU_UNSIGNED_KERNELS:
        backend._fn[op] = _refusing_wide_unsigned(backend._fn[op], op)
    return Namespace(backend, promo_ns.get_policy(policy), None, "promo_ns.torch_cuda_like", "2025.12")


@pytest.mark.parametrize("policy", ["array-api", "numpy", "pytorch"])
@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_wide_unsigned_operators_need_no_kernel_for_them(policy: str, dtype: str) -> None:
    # was: TypeError "torch has no 'multiply' kernel for uint16, uint16 ("mul_cuda" not implemented ...)"
    import operator

    xp = _wide_unsigned_refusing_namespace(policy)
    values = _integers(dtype, (16,), 3)
    other = _integers(dtype, (16,), 4)
    x, y = xp.asarray(values), xp.asarray(other)
    with np.errstate(all="ignore"):
        for op in (operator.mul, operator.and_, operator.or_, operator.xor, operator.eq, operator.ne):
            for got, want in ((op(x, y), op(values, other)), (op(x, 3), op(values, np.array(3, dtype)))):
                assert (str(got.dtype), to_numpy(got).tolist()) == (str(want.dtype), want.tolist()), op
        want = values * other  # before x *= y: x shares values' memory
        x *= y
        assert to_numpy(x).tolist() == want.tolist()


@pytest.mark.parametrize("dtype", ["uint16", "uint32", "uint64"])
def test_where_and_indexing_of_wide_unsigned_need_no_kernel_for_them(
    monkeypatch: pytest.MonkeyPatch, dtype: str
) -> None:
    # was: TypeError "torch has no 'where' kernel for bool, uint32, uint32" and, for a setitem that does
    # not fit, "torch has no 'setitem' kernel ... ("index_cuda" not implemented for 'UInt16')"
    getitem = torch.Tensor.__getitem__

    def cuda_like_getitem(x: torch.Tensor, key: Any) -> Any:
        keys = key if isinstance(key, tuple) else (key,)
        if x.dtype in _WIDE and any(isinstance(k, torch.Tensor) for k in keys):
            raise NotImplementedError("\"index_cuda\" not implemented for 'UInt16'")
        return getitem(x, key)

    monkeypatch.setattr(torch, "where", _refusing_wide_unsigned(torch.where, "where"))
    monkeypatch.setattr(torch.Tensor, "__getitem__", cuda_like_getitem)
    xp = promo_ns.namespace("torch", policy="numpy")
    values = _integers(dtype, (6,), 5)
    x = xp.asarray(values)
    got = xp.where(x > xp.asarray(values[2]), x, xp.asarray(values[::-1].copy()))
    assert to_numpy(got).tolist() == np.where(values > values[2], values, values[::-1]).tolist()
    clipped = np.clip(values, values[3], values[4])
    assert to_numpy(xp.clip(x, values[3], values[4])).tolist() == clipped.tolist()
    assert to_numpy(x[xp.asarray([4, 0])]).tolist() == values[[4, 0]].tolist()
    with pytest.raises(ValueError, match="shapes that do not fit together"):
        x[[]] = xp.asarray([False, False])
    assert to_numpy(x).tolist() == values.tolist()
