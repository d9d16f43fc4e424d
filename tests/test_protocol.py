"""The object protocol at its edges: foreign operands, the info object, formatting."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import pytest

from promo_ns._convert import reflected_name
from tests.backends import BACKENDS, VALUE_BACKENDS, namespace

_REFLECTED_OPS = (
    *("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "bitwise_and"),
    *("bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "matmul", "equal"),
    *("not_equal", "less", "less_equal", "greater", "greater_equal"),
)


def _answers(name: str) -> Any:
    def method(self: Any, other: Any) -> str:
        return name

    return method


#: An array-like of another library (xarray's DataArray, marray's MaskedArray): it answers every
#: reflected operator with the operator's name.
Foreign: type[Any] = type(
    "Foreign",
    (),
    {name: _answers(name) for name in map(reflected_name, _REFLECTED_OPS)} | {"__hash__": None},
)


_FORWARD: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "floor_divide": operator.floordiv, "remainder": operator.mod, "pow": operator.pow,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
    "bitwise_left_shift": operator.lshift, "bitwise_right_shift": operator.rshift, "matmul": operator.matmul,
    "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt, "less_equal": operator.le,
    "greater": operator.gt, "greater_equal": operator.ge,
}  # fmt: skip
_INPLACE: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul, "divide": operator.itruediv,
    "floor_divide": operator.ifloordiv, "remainder": operator.imod, "pow": operator.ipow,
    "bitwise_and": operator.iand, "bitwise_or": operator.ior, "bitwise_xor": operator.ixor,
    "bitwise_left_shift": operator.ilshift, "bitwise_right_shift": operator.irshift,
    "matmul": operator.imatmul,
}  # fmt: skip


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", list(_FORWARD))
def test_a_foreign_operand_gets_its_reflected_operator(backend: str, op: str) -> None:
    xp = namespace(backend, "numpy")
    a = xp.ones((2, 2), dtype=xp.int32)
    other = Foreign()
    assert _FORWARD[op](a, other) == reflected_name(op)
    if op in _INPLACE:  # a op= other falls back to other's reflected operator, and a is untouched
        b = a
        b = _INPLACE[op](b, other)
        assert b == reflected_name(op)
        assert a.dtype == xp.int32


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("bad", [None, "text", [1, 2], object()], ids=["None", "str", "list", "object"])
def test_an_operand_nobody_takes_gets_promo_ns_error(backend: str, bad: Any) -> None:
    xp = namespace(backend, "numpy")
    a = xp.ones(2, dtype=xp.int32)
    with pytest.raises(TypeError, match="'add' takes promo_ns arrays"):
        a + bad
    with pytest.raises(TypeError, match="'add' takes promo_ns arrays"):
        a += bad


@pytest.mark.parametrize("backend", BACKENDS)
def test_functions_never_defer(backend: str) -> None:
    xp = namespace(backend, "numpy")
    with pytest.raises(TypeError, match=r"not tests\.test_protocol\.Foreign"):
        xp.add(xp.ones(2), Foreign())


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_info_object_is_one_object(backend: str) -> None:
    xp = namespace(backend, "pytorch")
    assert xp.__array_namespace_info__ is xp.__array_namespace_info__
    assert xp.__array_namespace_info__() is xp.__array_namespace_info__()


@pytest.mark.parametrize("backend", VALUE_BACKENDS)
@pytest.mark.parametrize(
    ("dtype", "value", "spec", "text"),
    [
        ("float64", 1.5, ".2f", "1.50"),
        ("float32", 0.25, "e", "2.500000e-01"),
        ("int16", 3, "04d", "0003"),
        ("uint64", 2**64 - 1, "x", "ffffffffffffffff"),
        ("bool", True, "", "True"),
        ("complex64", 1 + 2j, ".1f", "1.0+2.0j"),
    ],
)
def test_a_0d_array_formats_as_its_scalar(backend: str, dtype: str, value: Any, spec: str, text: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.asarray(value, dtype=getattr(xp, dtype))
    if spec:
        assert f"{x:{spec}}" == text
    else:
        assert f"{x}" == str(x)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_nd_array_refuses_a_format_spec(backend: str) -> None:
    xp = namespace(backend, "numpy")
    x = xp.ones(2)
    assert f"{x}" == str(x)
    with pytest.raises(TypeError, match="only a 0-d array formats"):
        f"{x:.2f}"


def test_a_bfloat16_numpy_scalar_stays_0d_on_torch() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    import numpy as np

    xp = namespace("torch", "numpy")
    scalar = np.asarray(1.5, dtype=ml_dtypes.bfloat16)[()]
    assert xp.asarray(scalar).shape == ()
    assert (xp.asarray(1.0, dtype=xp.bfloat16) > scalar).shape == ()
    assert xp.asarray(np.ones((2, 3), dtype=ml_dtypes.bfloat16)).shape == (2, 3)
