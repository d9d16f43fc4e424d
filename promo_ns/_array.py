"""The Array wrapper: a native array, its namespace, and one binary path for every operator.

Every binary operator, reflected or in place, and every binary function of the
namespace, is one :func:`_operator`: one list lookup in the plan compiled
for ``(policy, backend, op)`` gives the result dtype, the dtype the kernel computes in,
and whether the backend's own kernel already computes in it; then the
backend's native kernel runs on the operands' device.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import array_api_compat

from promo_ns._context import _SCOPE, Scope
from promo_ns._dtypes import DTYPES, INT_RANGE, DType
from promo_ns._engine import (
    Operand,
    PromotionError,
    Refusal,
    compute_table,
    family_name,
    promoted_table,
    resolve,
)
from promo_ns.backends import Backend, Plan
from promo_ns.policies import Policy, Role

if TYPE_CHECKING:
    from promo_ns._namespace import Namespace

__all__ = ["Array", "device_error", "fit", "function", "is_numpy_like", "key", "plans", "unwrap", "wrap"]

# --- operand codes: an int per (dtype, role), so a plan lookup is one list index ----------

_N = len(DTYPES)
_INDEX = {d: i for i, d in enumerate(DTYPES)}
_scope = _SCOPE.get  #: the innermost policy/trace block's scope, or None
_NA = 2 * _N  #: array codes are below this, Python scalar codes from it
_SCALAR_CODE: dict[type, int] = {bool: 2 * _N, int: 2 * _N + 1, float: 2 * _N + 2, complex: 2 * _N + 3}
_SCALAR_TYPES = tuple(_SCALAR_CODE)
_NK = 2 * _N + 4
#: code -> the engine's (dtype, role) key.
_KEYS: tuple[tuple[DType | None, Role], ...] = tuple(
    (d, role) for d in DTYPES for role in (Role.ND, Role.ZERO_D)
) + tuple((None, r) for r in (Role.BOOL, Role.INT, Role.FLOAT, Role.COMPLEX))

#: binary modes: ``a op b``, ``b op a``, ``a op= b``, and the checks of ``a op= b`` alone.
NORMAL, REFLECTED, INPLACE, PREPARE = 0, 1, 2, 3


def key(c: int) -> tuple[DType | None, Role]:
    """The engine's ``(dtype, role)`` key of operand code ``c``."""
    return _KEYS[c]


def _inplace_ok(policy: Policy, op: str, a: tuple[DType | None, Role], b: tuple[DType | None, Role]) -> bool:
    try:
        resolve(policy, op, Operand(*a), Operand(*b), inplace=True)
    except (PromotionError, TypeError):
        return False
    return True


@cache
def plans(policy: Policy, backend: Backend, op: str) -> tuple[Plan | None, ...]:
    """Every cell of ``op`` under ``policy`` on ``backend``; indexed ``code1 * NK + code2``, None if refused.

    A cell runs the native kernel on the operands as they are (``direct``) only
    where the backend's own promotion gives the same result and compute dtypes,
    plain promotion already reaches the compute dtype (no kernel maps int to
    float on its own), and the backend's ``not_native`` does not list it.
    """
    native_policy = backend.native_policy
    family = family_name(policy, op)
    table = compute_table(policy, family)
    native = compute_table(native_policy, family_name(native_policy, op))
    native_promoted = promoted_table(native_policy)
    not_native = backend.not_native
    out: list[Plan | None] = []
    for a in _KEYS:
        for b in _KEYS:
            k = (a[0], a[1], b[0], b[1])
            cell = table[k]
            if isinstance(cell, Refusal):
                out.append(None)
                continue
            result, compute = cell
            scalar = next((r for d, r in (a, b) if d is None), None)
            fix = scalar is not None and (
                (scalar is Role.INT and (policy.int_values != "wrap" or compute.kind in "iu"))
                or "bifc".index(scalar.kind) > "bifc".index(_KIND[compute.kind])
            )
            direct = (
                not fix
                and native_promoted[k] is compute
                and native[k] == cell
                and not any((o, d, compute) in not_native for o in (op, None) for d in (a[0], b[0]))
            )
            out.append(
                Plan(
                    2 * _INDEX[result] + all(r is not Role.ND for _, r in (a, b)),
                    compute,
                    direct,
                    result is not compute,
                    fix,
                    a[0] is not None and _inplace_ok(policy, op, a, b),
                    backend.kernel(op, a[0] or a[1], b[0] or b[1], compute, result) if direct else None,
                )
            )
    return tuple(out)


_KIND = {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}


def _fix_scalar(
    a: Array, other: Any, op: str, *, reflected: bool, policy: Policy, compute: DType, xy: tuple[Any, Any]
) -> tuple[Any, Any]:
    """Native operands ``xy`` with the Python scalar range-checked, wrapped or converted for the kernel."""
    x, y = xy
    operands = (_engine_operand(a), _engine_operand(other))
    if reflected:
        operands = operands[::-1]
    value = x if reflected else y
    if type(value) is int and policy.int_values != "wrap":
        resolve(policy, op, *operands)  # raises OverflowError / PromotionError when out of range
    value = fit(value, compute)
    return (value, y) if reflected else (x, value)


def fit(value: Any, dtype: DType) -> Any:
    """Python scalar ``value`` converted to ``dtype``'s kind as a cast would: ints wrap into range."""
    kind = dtype.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        v = int(value.real if isinstance(value, complex) else value)
        lo, hi = INT_RANGE[dtype]
        return v if lo <= v <= hi else lo + (v - lo) % (hi - lo + 1)
    if kind == "f" and isinstance(value, complex):
        return value.real
    return value


@cache
def _operator(op: str, mode: int) -> Callable[[Array, Any], Any]:
    """The binary path: ``a op b`` (or ``b op a``, ``a op= b``) under the active policy.

    Every binary operator and function is one of these.  One list index in the
    plans compiled for ``(policy, backend, op)`` gives the cell; a ``direct``
    cell calls the backend's native function on the operands as they are.  In
    ``PREPARE`` mode it checks ``a op= b`` and returns ``(plan, x, y)``.
    """
    reflected = mode == REFLECTED
    inplace = mode >= INPLACE

    def binary(self: Array, other: Any, /) -> Any:
        ns = self._ns
        x = self._x
        ka = self._k
        if other.__class__ is Array:
            if other._ns is not ns and other._ns._backend is not ns._backend:
                raise _mixed(self, other)
            y = other._x
            kb = other._k
        else:
            kb = _SCALAR_CODE.get(other.__class__)  # type: ignore[assignment]
            if kb is None:
                return binary(self, _other_operand(ns, other, op))
            y = other
        if reflected:
            ka, kb, x, y = kb, ka, y, x
        scope = _scope()
        plan = (
            (ns._plans.get(op) or _table(ns, op))[ka * _NK + kb]
            if scope is None
            else _scoped(ns, op, scope, (ka, x), (kb, y))
        )
        if plan is None:
            raise _refuse(self, other, op, mode)
        r, compute, _, _, fix, inplace_ok, kernel = plan
        if inplace and not inplace_ok:
            raise _refuse(self, other, op, mode)
        if fix:
            x, y = _fix_scalar(
                self, other, op, reflected=reflected, policy=ns.policy_now(), compute=compute, xy=(x, y)
            )
        elif (ka | kb) & 1 and ka < _NA and kb < _NA and not ns._backend.same_device(x, y):
            raise device_error(x, y)
        if mode == PREPARE:
            return plan, x, y
        try:
            if inplace:
                ns._backend.inplace(op, x, y, plan)
                return self
            if kernel is not None:
                out = kernel(x, y)
                if r & 1:
                    out = ns._backend.to_array(out)
            else:
                out = ns._backend.binary(op, x, y, plan)
        except Exception as e:  # the backend's own words on n-d arrays of two devices: ours instead
            if ka < _NA and kb < _NA and not ns._backend.same_device(x, y):
                raise device_error(x, y) from e
            raise
        if kernel is None and ns._backend.dtype(out) is not DTYPES[r >> 1]:
            raise _no_kernel(ns, op, plan, out)
        result: Array = _new_array(Array)
        result._x = out
        result._ns = ns
        result._k = r
        return result

    return binary


# --- the wrapper ---------------------------------------------------------------------------


class Array:
    """An array of a promo_ns namespace: a native array plus the namespace whose policy it follows.

    Created by the namespace's functions (``xp.asarray(...)``), never directly.
    Binary operators follow the active policy: the innermost
    ``promo_ns.policy(...)`` block's, else the namespace's.
    """

    __slots__ = ("_k", "_ns", "_x")

    _x: Any
    _ns: Namespace
    _k: int

    def __init__(self) -> None:
        raise TypeError("create promo_ns arrays with a namespace: xp.asarray(obj)")

    # -- attributes --
    @property
    def dtype(self) -> DType:
        """The canonical dtype (``str(a.dtype) == "float32"``)."""
        return DTYPES[self._k >> 1]

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The shape, as a tuple of ints."""
        return tuple(self._x.shape)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return int(self._x.ndim)

    @property
    def size(self) -> int | None:
        """The number of elements."""
        n = 1
        for s in self._x.shape:
            n *= s
        return n

    @property
    def device(self) -> Any:
        """The native device the data lives on."""
        return array_api_compat.device(self._x)

    @property
    def T(self) -> Array:  # noqa: N802 - the standard's name
        """The transpose of a 2-d array."""
        return wrap(self._x.T, self._ns)

    @property
    def mT(self) -> Array:  # noqa: N802 - the standard's name
        """The transpose of the last two axes."""
        return wrap(self._ns._backend.compat.matrix_transpose(self._x), self._ns)

    def to_device(self, device: Any, /, *, stream: int | Any | None = None) -> Array:
        """A copy of the array on ``device`` (the array itself when already there)."""
        return wrap(array_api_compat.to_device(self._x, device, stream=stream), self._ns)

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Namespace:
        if api_version not in (None, "2024.12", "2023.12", "2022.12", "2021.12"):
            raise ValueError(f"promo_ns implements Array API 2024.12, not {api_version!r}")
        return self._ns

    # -- conversion --
    def __bool__(self) -> bool:
        return bool(self._x)

    def __int__(self) -> int:
        return int(self._x)

    def __float__(self) -> float:
        return float(self._x)

    def __complex__(self) -> complex:
        return complex(self._x)

    def __index__(self) -> int:
        return int(self._x.__index__())

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[Any, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        given = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
        return self._x.__dlpack__(**{k: v for k, v in given.items() if v is not None})

    def __dlpack_device__(self) -> tuple[Any, int]:
        return self._x.__dlpack_device__()  # type: ignore[no-any-return]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        backend = self._ns._backend
        if backend.name == "numpy":
            return backend.module.asarray(self._x, dtype=dtype, copy=copy)
        return self._x.__array__(dtype)

    def __repr__(self) -> str:
        return f"promo_ns.Array({self._x!r}, dtype={self.dtype}, policy={self._ns.policy.name!r})"

    # -- indexing --
    def __getitem__(self, key: Any, /) -> Array:
        return wrap(self._x[_native_key(key)], self._ns)

    def __setitem__(self, key: Any, value: Any, /) -> None:
        _, _, y = _operator("setitem", PREPARE)(self, value)
        self._x[_native_key(key)] = y

    # -- unary operators --
    def __neg__(self) -> Array:
        return wrap(-self._x, self._ns)

    def __pos__(self) -> Array:
        return wrap(+self._x, self._ns)

    def __abs__(self) -> Array:
        return wrap(abs(self._x), self._ns)

    def __invert__(self) -> Array:
        return wrap(~self._x, self._ns)

    # -- binary operators: one path (see _operator) --
    __add__ = _operator("add", NORMAL)
    __radd__ = _operator("add", REFLECTED)
    __iadd__ = _operator("add", INPLACE)
    __sub__ = _operator("subtract", NORMAL)
    __rsub__ = _operator("subtract", REFLECTED)
    __isub__ = _operator("subtract", INPLACE)
    __mul__ = _operator("multiply", NORMAL)
    __rmul__ = _operator("multiply", REFLECTED)
    __imul__ = _operator("multiply", INPLACE)
    __truediv__ = _operator("divide", NORMAL)
    __rtruediv__ = _operator("divide", REFLECTED)
    __itruediv__ = _operator("divide", INPLACE)
    __floordiv__ = _operator("floor_divide", NORMAL)
    __rfloordiv__ = _operator("floor_divide", REFLECTED)
    __ifloordiv__ = _operator("floor_divide", INPLACE)
    __mod__ = _operator("remainder", NORMAL)
    __rmod__ = _operator("remainder", REFLECTED)
    __imod__ = _operator("remainder", INPLACE)
    __pow__ = _operator("pow", NORMAL)
    __rpow__ = _operator("pow", REFLECTED)
    __ipow__ = _operator("pow", INPLACE)
    __and__ = _operator("bitwise_and", NORMAL)
    __rand__ = _operator("bitwise_and", REFLECTED)
    __iand__ = _operator("bitwise_and", INPLACE)
    __or__ = _operator("bitwise_or", NORMAL)
    __ror__ = _operator("bitwise_or", REFLECTED)
    __ior__ = _operator("bitwise_or", INPLACE)
    __xor__ = _operator("bitwise_xor", NORMAL)
    __rxor__ = _operator("bitwise_xor", REFLECTED)
    __ixor__ = _operator("bitwise_xor", INPLACE)
    __lshift__ = _operator("bitwise_left_shift", NORMAL)
    __rlshift__ = _operator("bitwise_left_shift", REFLECTED)
    __ilshift__ = _operator("bitwise_left_shift", INPLACE)
    __rshift__ = _operator("bitwise_right_shift", NORMAL)
    __rrshift__ = _operator("bitwise_right_shift", REFLECTED)
    __irshift__ = _operator("bitwise_right_shift", INPLACE)
    __eq__ = _operator("equal", NORMAL)
    __ne__ = _operator("not_equal", NORMAL)
    __lt__ = _operator("less", NORMAL)
    __le__ = _operator("less_equal", NORMAL)
    __gt__ = _operator("greater", NORMAL)
    __ge__ = _operator("greater_equal", NORMAL)

    def __matmul__(self, other: Any, /) -> Any:
        return self._ns.matmul(self, other)

    def __rmatmul__(self, other: Any, /) -> Any:
        return self._ns.matmul(other, self)

    def __imatmul__(self, other: Any, /) -> Any:
        result = self._ns.matmul(self, other)
        _operator("matmul", PREPARE)(self, result)
        if tuple(result._x.shape) != tuple(self._x.shape):
            raise ValueError(f"in-place matmul would change the shape {self.shape} to {result.shape}")
        self._x[...] = result._x
        return self

    __hash__ = None  # type: ignore[assignment]
    # NumPy defers its binary operators to ours: np.float32(1) + a follows the policy.
    __array_ufunc__ = None


_new_array = object.__new__


def wrap(x: Any, ns: Namespace) -> Array:
    """Wrap native array ``x`` (zero-copy) as an Array of namespace ``ns``."""
    backend = ns._backend
    x = backend.to_array(x)
    a: Array = _new_array(Array)
    a._x = x
    a._ns = ns
    a._k = 2 * _INDEX[backend.dtype(x)] + (x.ndim == 0)
    return a


def unwrap(x: Any) -> Any:
    """The native array inside a promo_ns Array (zero-copy); anything else is returned as is."""
    return x._x if x.__class__ is Array else x


def _native_key(key: Any) -> Any:
    if key.__class__ is Array:
        return key._x
    if isinstance(key, tuple):
        return tuple(k._x if k.__class__ is Array else k for k in key)
    return key


def _mixed(a: Array, b: Array) -> TypeError:
    return TypeError(
        f"cannot combine a {a._ns._backend.name} array with a {b._ns._backend.name} array; "
        f"move one to the other's backend first, e.g. xp.asarray(np.from_dlpack(...)) or via the "
        "other namespace's xp.from_dlpack(x)."
    )


def device_error(a: Any, b: Any) -> ValueError:
    """The error for native arrays ``a`` and ``b`` on different devices."""
    return ValueError(
        f"operands are on different devices ({a.device} and {b.device}); "
        "move one with x.to_device(other.device) first."
    )


def _table(ns: Namespace, op: str) -> tuple[Plan | None, ...]:
    """The plans of ``op`` under the namespace's policy, cached on the namespace."""
    found = ns._plans[op] = plans(ns.policy, ns._backend, op)
    return found


def _scoped(ns: Namespace, op: str, scope: Scope, a: tuple[int, Any], b: tuple[int, Any]) -> Plan | None:
    """The plan of cell ``(a, b)`` (code, native operand) inside a policy or trace block; traced if asked."""
    plan = plans(scope.policy or ns.policy, ns._backend, op)[a[0] * _NK + b[0]]
    if scope.tracer is not None and plan is not None:
        operands = [(*_KEYS[code], x) for code, x in (a, b)]
        scope.tracer.record(op, operands, DTYPES[plan.result >> 1], plan.compute)
    return plan


def is_numpy_like(x: Any) -> bool:
    """Whether ``x`` is a NumPy or CuPy array or scalar (a NumPy scalar is a 0-d array to promo_ns)."""
    return type(x).__module__ in ("numpy", "cupy") and hasattr(x, "dtype") and hasattr(x, "ndim")


def _other_operand(ns: Namespace, x: Any, op: str) -> Any:
    """A NumPy/CuPy scalar as the 0-d array it is (strong, as in NEP 50).

    A subclass of a Python scalar type becomes that Python scalar; anything else raises.
    """
    if is_numpy_like(x) and x.ndim == 0:
        return ns.asarray(x)
    for t in _SCALAR_TYPES:
        if isinstance(x, t):
            return t(x)
    raise _unsupported(x, op)


def _engine_operand(x: Any) -> Operand:
    if x.__class__ is Array:
        return Operand(*_KEYS[x._k])
    return Operand(None, _KEYS[_SCALAR_CODE[x.__class__]][1], x)


def _unsupported(other: Any, op: str) -> TypeError:
    from promo_ns.backends import backend_of

    if backend_of(other) is not None:
        return TypeError(
            f"{op!r} got a bare {type(other).__module__}.{type(other).__name__}; wrap it "
            "first with xp.asarray(x) (zero-copy) so that the policy can see its dtype."
        )
    return TypeError(
        f"{op!r} takes promo_ns arrays and Python bool/int/float/complex, not {type(other).__name__}"
    )


def _refuse(a: Array, other: Any, op: str, mode: int) -> PromotionError:
    """The engine's error for a refused cell, with the operands in the op's order."""
    policy = a._ns.policy_now()
    left, right = (other, a) if mode == REFLECTED else (a, other)
    try:
        resolve(policy, op, _engine_operand(left), _engine_operand(right), inplace=mode >= INPLACE)
    except PromotionError as e:
        return e
    raise AssertionError(f"compiled plan and engine disagree on {op}")  # pragma: no cover


def _no_kernel(ns: Namespace, op: str, plan: Plan, out: Any) -> TypeError:
    return TypeError(
        f"{ns._backend.name} has no {op!r} kernel that computes in {plan.compute} and returns "
        f"{DTYPES[plan.result >> 1]} (its kernel returned {ns._backend.dtype(out)}); the policy's "
        f"dtype cannot be produced on this backend. Cast the operands explicitly first."
    )


def function(op: str) -> Callable[[Any, Any], Any]:
    """The namespace function of binary elementwise ``op``: ``xp.add(x1, x2)``."""
    forward = _operator(op, NORMAL)
    reflected = _operator(op, REFLECTED)

    def f(x1: Any, x2: Any, /) -> Any:
        if x1.__class__ is Array:
            return forward(x1, x2)
        if x2.__class__ is Array:
            return reflected(x2, x1)
        raise TypeError(
            f"{op}() needs at least one promo_ns array, got {type(x1).__name__} and {type(x2).__name__}"
        )

    f.__name__ = f.__qualname__ = op
    f.__doc__ = f"``{op}(x1, x2)`` of the Array API standard, with the result dtype of the active policy."
    return f
