"""The plan layer: operands in, a plan out, for operators and functions alike.

Every binary operator (reflected and in place), every binary function of the
namespace and setitem is one :func:`operator`: one list index into the plans
compiled for ``(policy, backend, op)`` gives the result dtype, the dtype the
kernel computes in, and the backend's native function where its own promotion
already gives those.  Functions over several operands (``where``, ``clip``,
``concat``, ``matmul``) go through :func:`promoted`, functions of one array
whose result dtype the policy decides (``log``, ``mean``, ``abs``) through
:func:`one_array`.  Device checks, Python scalar conversion, tracing and the
errors for mixed backends live here once.  This is the only caller of
:mod:`promo_ns._engine` on the hot path.

Operands are packed into *operand codes*, one int per (dtype, role): this
module owns the packing; :func:`key` and :func:`dtype_of_code` read it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Protocol

from promo_ns._context import _SCOPE, Scope, current
from promo_ns._dtypes import (
    DTYPES,
    FLOAT_OVERFLOW,
    INT_RANGE,
    DType,
    bool_,
    float32,
    real_float,
    uint8,
)
from promo_ns._engine import (
    Operand,
    PromotionError,
    Refusal,
    check_input_kind,
    checked_inexact,
    checked_int,
    checks_inexact,
    compute_table,
    family_name,
    function_dtype,
    int_limits,
    int_value,
    operand,
    promoted_table,
    resolve,
    resolve_many,
)
from promo_ns._memo import per_policy
from promo_ns.backends import Backend, Plan, Values
from promo_ns.policies import Policy, Role

if TYPE_CHECKING:
    from promo_ns._trace import Trace

__all__ = [
    "INPLACE",
    "NORMAL",
    "NO_ARRAY",
    "PREPARE",
    "REFLECTED",
    "Space",
    "array_of",
    "binary_function",
    "cast",
    "code_of",
    "compared",
    "device_error",
    "dtype_of_code",
    "finish",
    "fit",
    "input_of",
    "is_numpy_like",
    "kernel",
    "key",
    "meet",
    "native",
    "native_argument",
    "one_array",
    "one_array_plan",
    "operand_of",
    "operator",
    "plans",
    "prepared_done",
    "promoted",
    "promoted_operand",
    "ran",
    "report_decided",
    "traced",
    "unknown_device",
    "wrap",
    "wrap_any",
    "wrap_result",
]


class Space(Protocol):
    """What the plan layer reads of a namespace."""

    Array: Any  #: the array wrapper class, whose instances have ``_x``, ``_ns`` and ``_k``
    policy: Policy
    _backend: Backend
    _plans: dict[Any, Any]  #: op -> the binary plans; (op, operand code) -> a one-array plan

    def policy_now(self) -> Policy:
        """The policy in force."""
        ...

    def __getattr__(self, name: str) -> Any:
        """The namespace's functions (``asarray``, ``matmul``, ...)."""
        ...


# --- operand codes: an int per (dtype, role), so a plan lookup is one list index ----------

_N = len(DTYPES)
_INDEX = {d: i for i, d in enumerate(DTYPES)}
_scope = _SCOPE.get  #: the innermost policy/trace block's scope, or None
_NA = 2 * _N  #: array codes are below this, Python scalar codes from it
_SCALAR_CODE: dict[type, int] = {bool: 2 * _N, int: 2 * _N + 1, float: 2 * _N + 2, complex: 2 * _N + 3}
_SCALAR_TYPES = tuple(_SCALAR_CODE)
_NK = 2 * _N + 4
#: The code of a pytree node holding a leaf that is no array: no dtype (:func:`dtype_of_code` raises).
NO_ARRAY = _NA
#: code -> the engine's (dtype, role) key.
_KEYS: tuple[tuple[DType | None, Role], ...] = tuple(
    (d, role) for d in DTYPES for role in (Role.ND, Role.ZERO_D)
) + tuple((None, r) for r in (Role.BOOL, Role.INT, Role.FLOAT, Role.COMPLEX))

#: binary modes: ``a op b``, ``b op a``, ``a op= b``, and the checks of ``a op= b`` alone.
NORMAL, REFLECTED, INPLACE, PREPARE = 0, 1, 2, 3


def key(c: int) -> tuple[DType | None, Role]:
    """The engine's ``(dtype, role)`` key of operand code ``c``."""
    return _KEYS[c]


def dtype_of_code(c: int) -> DType:
    """The dtype of array operand code ``c``; a TypeError for :data:`NO_ARRAY`'s."""
    try:
        return DTYPES[c >> 1]
    except IndexError:
        raise TypeError(
            "this promo_ns Array is a pytree node holding a leaf that is no array (a tree function such "
            "as jax.tree.map put it there): it has no dtype; read the leaves with jax.tree.leaves(tree)"
        ) from None


def code_of(dtype: DType, zero_d: bool) -> int:
    """The operand code of an array of ``dtype``, 0-d or not."""
    return 2 * _INDEX[dtype] + zero_d


def _inplace_ok(policy: Policy, op: str, a: tuple[DType | None, Role], b: tuple[DType | None, Role]) -> bool:
    try:
        resolve(policy, op, Operand(*a), Operand(*b), inplace=True)
    except (PromotionError, TypeError):
        return False
    return True


_KIND = {"b": "b", "i": "i", "u": "i", "f": "f", "c": "c"}
_INT64 = (-(2**63), 2**63 - 1)


@per_policy
def plans(policy: Policy, backend: Backend, op: str, *, function: bool = False) -> tuple[Plan | None, ...]:
    """Every cell of ``op`` under ``policy`` on ``backend``; indexed ``code1 * NK + code2``, None if refused.

    ``function``: the cells of the function spelling (``xp.divide(s, x)``),
    where they are not the reflected operator's (the policy's ``"s op x"`` rules).

    A cell runs the native kernel on the operands as they are (``direct``) only
    where the backend's own promotion gives the same result and compute dtypes,
    plain promotion already reaches the compute dtype (no kernel maps int to
    float on its own), and the backend's ``not_native`` does not list it.
    """
    native_policy = backend.native_policy
    family = family_name(policy, op)
    table = compute_table(policy, family)
    native_table = compute_table(native_policy, family_name(native_policy, op))
    native_promoted = promoted_table(native_policy)
    not_native = backend.not_native
    rules = policy.families.get(family)
    values = (
        Values() if rules is None else Values(rules.zero_divisor, rules.negative_powers, rules.zero_remainder)
    )
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
            converts = scalar is not None and (
                (scalar is Role.INT and compute.kind in "iu")
                or "bifc".index(scalar.kind) > "bifc".index(_KIND[compute.kind])
            )
            ints = (
                None if scalar is not Role.INT else int_limits(policy, family, (a, b), int(a[0] is not None))
            )
            fix = (
                converts
                or ints is not None
                or (
                    scalar is not None
                    and checks_inexact(policy, family, compute, scalar, int(a[0] is not None))
                )
            )
            if a[0] is None and b[0] is None:  # no operator meets two Python scalars
                out.append(None)
                continue
            rule = _float_scalar_rule(policy, op, a, b, compute, function=function)
            direct = (
                not converts
                and native_promoted[k] is compute
                and native_table[k] == cell
                and _kernel_rule(rule) == _kernel_rule(_float_scalar_rule(native_policy, op, a, b, compute))
                and not any((o, d, compute) in not_native for o in (op, None) for d in (a[0], b[0]))
            )
            plan = Plan(
                code_of(result, all(r is not Role.ND for _, r in (a, b))),
                compute,
                direct,
                result is not compute,
                fix,
                a[0] is not None and _inplace_ok(policy, op, a, b),
                (
                    backend.kernel(op, a[0] or a[1], b[0] or b[1], compute, result, values=values)
                    if direct
                    else None
                ),
                ints=ints,
                values=values,
            )
            out.append(plan if rule is None else _float_scalar_plan(plan, rule, policy, backend, cell=(a, b)))
    return tuple(out)


#: The ops of :attr:`Policy.float_scalars`' operator forms, and their symbols there.
_SYMBOL = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//"}
#: Python scalars that compute with a float array by the policy's ``float_scalars``: a float, or an int.
_PY_REAL = ((None, Role.FLOAT), (None, Role.INT))


def _float_scalar_rule(
    policy: Policy,
    op: str,
    a: tuple[DType | None, Role],
    b: tuple[DType | None, Role],
    compute: DType,
    *,
    function: bool = False,
) -> str | None:
    """The policy's rule (:attr:`Policy.float_scalars`) for cell ``(a, b)`` of ``op``; None if none applies.

    A rule applies to a real floating array with a Python float or int, computing in the array's
    dtype, or, with the array first, a 0-d real array of another dtype that does not decide it;
    ``"reciprocal_then_multiply"`` to any Python scalar over a real array.  The ``"s op x"`` forms
    are the reflected operators' only: a ``function`` with the scalar first rounds it first
    (``torch.multiply(s, x)`` is not ``Tensor.__rmul__``, ``torch.divide(s, x)`` divides).
    """
    symbol = _SYMBOL.get(op)
    if symbol is None or (function and a[0] is None):
        return None
    x = b[0]
    reciprocal = policy.float_scalars.get("s / x") == "reciprocal_then_multiply"
    if symbol == "/" and reciprocal and a[0] is None and x is not None and x.kind in "biuf":
        return "reciprocal_then_multiply"
    if compute.kind != "f":
        return None
    lower_zero_d = b[1] is Role.ZERO_D and x is not None and x is not compute and x.kind in "biuf"
    if a[0] is compute and (b in _PY_REAL or lower_zero_d):
        form = f"x {symbol} s"
    elif a in _PY_REAL and b[0] is compute:
        form = f"s {symbol} x"
    else:
        return None
    rule = policy.float_scalars.get(form, "scalar_rounded_first")
    # float32 and wider compute in themselves: the bits of rounding the scalar first
    return "scalar_rounded_first" if rule == "float32_opmath" and compute.bits >= 32 else rule


def _kernel_rule(rule: str | None) -> str | None:
    """What the op's own kernel must compute for ``rule``.

    ``s / x`` as reciprocal then multiply is composed of other kernels: the
    division's own kernel is not used, and it divides as the default rule does.
    """
    return "scalar_rounded_first" if rule == "reciprocal_then_multiply" else rule


def _float_scalar_plan(
    plan: Plan,
    rule: str,
    policy: Policy,
    backend: Backend,
    *,
    cell: tuple[tuple[DType | None, Role], tuple[DType | None, Role]],
) -> Plan:
    """``plan`` of cell ``(a, b)``, as the policy's ``rule`` computes it (see :func:`_float_scalar_rule`).

    ``"float32_opmath"``: a float16/bfloat16 cell computes in float32 and is
    rounded once.  ``"reciprocal_then_multiply"`` (``s / x``): the array's
    reciprocal (in the policy's ``reciprocal`` dtype for a bool or integer
    array), then the policy's ``x * s`` cell of that and the scalar.
    """
    compute = plan.compute
    if rule == "float32_opmath":
        return plan._replace(compute=float32, rounded=compute)
    if rule == "reciprocal_then_multiply":
        a, b = cell
        x = b[0]
        assert x is not None  # the array of ``s / x``
        inverse = x if x.kind == "f" else function_dtype(policy, "reciprocal", x)
        cells = plans(policy, backend, "multiply")
        times = cells[code_of(inverse, b[1] is Role.ZERO_D) * _NK + _KEYS.index(a)]
        assert times is not None  # a float array times a Python scalar: every policy computes it
        multiply = times.kernel or partial(backend.binary, "multiply", plan=times)
        reciprocal = backend.compat.reciprocal
        if inverse is not x:
            reciprocal = partial(_reciprocal_in, backend, reciprocal, inverse)
        return plan._replace(
            compute=times.compute,
            direct=False,
            kernel=partial(_reciprocal_then_multiply, reciprocal, multiply),
            rounded=times.rounded,
        )
    return plan


def _reciprocal_in(backend: Backend, reciprocal: Callable[[Any], Any], dtype: DType, x: Any) -> Any:
    """``reciprocal(x)`` computed in ``dtype`` (a bool or integer array's reciprocal is a float)."""
    return reciprocal(backend.astype(x, dtype))


def _reciprocal_then_multiply(
    reciprocal: Callable[[Any], Any], multiply: Callable[[Any, Any], Any], s: Any, x: Any
) -> Any:
    """``s / x`` as ``multiply(reciprocal(x), s)`` (torch's ``Tensor.__rtruediv__``)."""
    return multiply(reciprocal(x), s)


def fit(value: Any, dtype: DType) -> Any:
    """Python scalar ``value`` converted to ``dtype``'s kind as a cast would: ints wrap into range.

    For a floating dtype, an int that rounds beyond the dtype's range is an
    infinity and one beyond int64 a Python float (backends take Python ints
    up to 64 bits, and torch checks some against the dtype).
    """
    kind = dtype.kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        real = value.real if isinstance(value, complex) else value
        if isinstance(real, float) and not math.isfinite(real):
            raise ValueError(f"{value!r} has no {dtype} value: a NaN or an infinity converts to no integer")
        v = int(real)
        lo, hi = INT_RANGE[dtype]
        return v if lo <= v <= hi else lo + (v - lo) % (hi - lo + 1)
    if kind == "f" and isinstance(value, complex):
        return value.real
    if value.__class__ is int and kind in "fc":
        if abs(value) >= FLOAT_OVERFLOW[real_float(dtype)]:
            return math.copysign(math.inf, value)
        if not _INT64[0] <= value <= _INT64[1]:
            return float(value)
    return value


def _fix_scalar(op: str, ns: Space, plan: Plan, x: Any, y: Any, *, index: int) -> tuple[Any, Any, Plan]:
    """Native operands with the Python scalar at ``index`` checked and converted for the kernel, and the plan.

    A Python int is checked against the plan's ``ints`` (one of their
    ``plain`` ints goes as it is); one the policy compares exactly beyond its
    dtype makes the comparison run in float32 with an infinity in its place.
    A value converted to another Python type (an int beyond int64 for a
    floating kernel) leaves the native kernel for the backend's ``binary``.
    """
    value = y if index else x
    ints = plan.ints
    if ints is not None and value.__class__ is int:
        if ints.plain[0] <= value <= ints.plain[1]:
            return x, y, plan
        value = checked_int(ns.policy_now(), op, ints, value, index)
        if value.__class__ is float:  # +-inf: compared exactly beyond the dtype
            plan = plan._replace(compute=float32, direct=False, kernel=None)
    elif value.__class__ is float or value.__class__ is complex:
        checked_inexact(ns.policy_now(), op, value, plan.compute, index)
    converted = fit(value, plan.compute)
    if plan.kernel is not None and converted.__class__ is not value.__class__:
        plan = plan._replace(direct=False, kernel=None)
    return (x, converted, plan) if index else (converted, y, plan)


_new = object.__new__


@cache
def operator(  # noqa: PLR0915
    op: str, mode: int, *, defer: bool = False, function: bool = False
) -> Callable[[Any, Any], Any]:
    """The binary path: ``a op b`` (or ``b op a``, ``a op= b``) under the active policy.

    Every binary operator and function is one of these.  One list index in the
    plans compiled for ``(policy, backend, op)`` gives the cell; a ``direct``
    cell calls the backend's native function on the operands as they are.  In
    ``PREPARE`` mode it checks ``a op= b`` and returns ``(plan, x, y)``; the
    caller reports the op to a trace with :func:`prepared_done` once it has run.
    Inside a ``trace`` block an op is recorded once it has succeeded.  With
    ``defer`` (Python's forward and in-place operators) an operand of a type
    promo_ns does not know that implements the reflected operator gets
    ``NotImplemented`` (see :func:`defers_to`).  ``function``: the function
    spelling's cells (see :func:`plans`).
    """
    table = f"{op}()" if function else op
    reflected = mode == REFLECTED
    inplace = mode >= INPLACE
    other_side = reflected_name(op) if defer else ""

    def binary(self: Any, other: Any, /) -> Any:  # noqa: PLR0915
        ns = self._ns
        x = self._x
        ka = self._k
        cls = self.__class__
        if other.__class__ is cls:
            if other._ns is not ns:
                meet(self, other, op, mode)
            y = other._x
            kb = other._k
        else:
            kb = _SCALAR_CODE.get(other.__class__)
            if kb is None:
                if other_side and defers_to(other, other_side):
                    return NotImplemented
                return binary(self, _other_operand(ns, other, op))
            y = other
        if reflected:
            ka, kb, x, y = kb, ka, y, x
        scope = _scope()
        plan = (
            (ns._plans.get(table) or _table(ns, op, function))[ka * _NK + kb]
            if scope is None
            else _scoped(ns, op, scope, (ka, x), (kb, y), function=function)
        )
        if plan is None or (inplace and not plan.inplace_ok):
            if scope is not None:
                _record_refusal(scope, op, (ka, x), (kb, y), inplace=inplace)
            raise _refuse(self, other, op, mode)
        r, _, _, _, fix, _, kernel, _, _, _ = plan
        if fix:
            try:
                x, y, plan = _fix_scalar(op, ns, plan, x, y, index=0 if reflected else 1)
            except (PromotionError, OverflowError, ValueError) as e:
                if scope is not None:
                    _record_refusal(scope, op, (ka, x), (kb, y), inplace=inplace, error=type(e).__name__)
                raise
            kernel = plan.kernel
        elif (ka | kb) & 1 and ka < _NA and kb < _NA and not ns._backend.same_device(x, y):
            raise device_error(x, y)
        if mode == PREPARE:
            return plan, x, y
        try:
            if inplace:
                updated = ns._backend.inplace(op, x, y, plan)
                if updated is not None:  # an immutable backend's new array (JAX): the wrapper rebinds
                    self._x = updated
                if scope is not None:
                    _record(scope, op, plan, (ka, x), (kb, y), inplace=True)
                return self
            if kernel is not None:
                out = kernel(x, y)
                if r & 1:
                    out = ns._backend.to_array(out)
            else:
                out = ns._backend.binary(op, x, y, plan)
        except Exception as e:  # the backend's words on devices or shapes: ours instead
            error = _kernel_error(ns, op, e, tuple(a for a in (x, y) if hasattr(a, "dtype")))
            if error is None:
                raise
            raise error from e
        if kernel is None and ns._backend.dtype(out) is not DTYPES[r >> 1]:
            raise _no_kernel(ns, op, plan, out)
        result = _new(cls)
        result._x = out
        result._ns = ns
        result._k = r
        if scope is not None:
            _record(scope, op, plan, (ka, x), (kb, y))
        return result

    return binary


def meet(a: Any, other: Any, op: str, mode: int) -> None:
    """Check that arrays ``a`` and ``other`` of two namespaces may meet in operator ``op``.

    Raises
    ------
    TypeError
        They are arrays of two backends.
    PromotionError
        They follow two policies and no ``promo_ns.policy(...)`` block decides.
    """
    mine, theirs = a._ns, other._ns
    if theirs._backend is not mine._backend:
        raise mixed_backends(mine._backend, theirs._backend)
    if theirs.policy is mine.policy:
        return
    scope = current()
    if scope is not None and scope.policy is not None:
        return
    left, right = (theirs, mine) if mode == REFLECTED else (mine, theirs)
    if op == "setitem":
        call = "x1[key] = x2"
        fix = "make x2 an array of x1's namespace first: x1[key] = xp.asarray(x2) (zero-copy)"
    else:
        call = f"{op}(x1, x2)"
        fix = (
            f"call the function of the namespace whose policy should decide, xp.{op}(x1, x2) (a "
            "namespace's functions follow its policy), or move one array to the other's namespace "
            "with xp.asarray(x) (zero-copy)"
        )
    raise PromotionError(
        f"{call} of arrays of two policies: x1 follows policy {left.policy.name!r} ({left.__name__}), "
        f"x2 policy {right.policy.name!r} ({right.__name__}); an operator does not choose between them. "
        f"Fix: {fix}; or run it in a promo_ns.policy(...) block, e.g. promo_ns.policy({left.policy.name!r})."
    )


def _adopted(ns: Space, x: Any) -> Any:
    """``x`` as an array of namespace ``ns`` (zero-copy) if it is an array of another one; else ``x``."""
    if x.__class__ is not ns.Array or x._ns is ns:
        return x
    if x._ns._backend is not ns._backend:
        raise mixed_backends(ns._backend, x._ns._backend)
    a = _new(ns.Array)
    a._x = x._x
    a._ns = ns
    a._k = x._k
    return a


def binary_function(op: str, ns: Space) -> Callable[[Any, Any], Any]:
    """The namespace function of binary elementwise ``op``: ``xp.add(x1, x2)``.

    It follows the policy of ``ns`` (or the active block's), whatever
    namespace its arrays belong to, and returns an array of ``ns``.
    """
    forward = operator(op, NORMAL)
    reflected = operator(op, REFLECTED, function=True)
    array_type = ns.Array

    def f(x1: Any, x2: Any, /) -> Any:
        if x1.__class__ is array_type:
            if x1._ns is not ns or (x2.__class__ is array_type and x2._ns is not ns):
                x1, x2 = _adopted(ns, x1), _adopted(ns, x2)
            return forward(x1, x2)
        if x2.__class__ is array_type:
            if x2._ns is not ns:
                x2 = _adopted(ns, x2)
            return reflected(x2, x1)
        from promo_ns.backends import backend_of

        for x in (x1, x2):
            if backend_of(x) is not None:
                raise _unsupported(x, op)
        raise TypeError(
            f"{op}() needs at least one promo_ns array, got {type(x1).__name__} and {type(x2).__name__}; "
            "make one with xp.asarray(...) first."
        )

    f.__name__ = f.__qualname__ = op
    f.__doc__ = f"``{op}(x1, x2)`` of the Array API standard, with the result dtype of the active policy."
    return f


# --- wrapping and unwrapping -----------------------------------------------------------------


def wrap(x: Any, ns: Space) -> Any:
    """Wrap native array ``x`` (zero-copy) as an array of namespace ``ns``."""
    backend = ns._backend
    x = backend.to_array(x)
    a = _new(ns.Array)
    a._x = x
    a._ns = ns
    a._k = code_of(backend.dtype(x), x.ndim == 0)
    return a


def wrap_any(ns: Space, x: Any) -> Any:
    """Wrap a native result (array, or tuple/namedtuple/list of arrays) into promo_ns arrays."""
    if isinstance(x, ns._backend.array_type) or is_numpy_like(x):
        return wrap(x, ns)
    if isinstance(x, tuple):
        items = [wrap_any(ns, v) for v in x]
        if hasattr(x, "_fields"):
            return type(x)(*items)
        return type(x)(items)  # a tuple, or a struct sequence (torch.return_types)
    if isinstance(x, list):
        return [wrap_any(ns, v) for v in x]
    return x


def native(ns: Space, x: Any) -> Any:
    """Native arrays for promo_ns arrays, also inside lists and tuples; dtypes to native ones."""
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    if x.__class__ is DType:
        return ns._backend.native_dtype(x)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(native(ns, v) for v in x)
    return x


def wrap_result(ns: Space, op: str, out: Any, dtype: DType) -> Any:
    """Wrap the native result of ``op`` as a promo_ns array of the policy's ``dtype``.

    ``out`` is rounded to ``dtype`` where the backend computed a float dtype in
    a wider one (NumPy's bfloat16 ``matmul`` returns float32).

    Raises
    ------
    TypeError
        The backend returned another kind (NumPy's integer ``solve`` returns
        float64): it has no kernel for ``dtype``, and a result in a dtype the
        policy did not give would be wrong.
    """
    backend = ns._backend
    out = backend.to_array(out)
    got = backend.dtype(out)
    if got is not dtype:
        if got.kind == dtype.kind and got.kind in "fc" and got.bits > dtype.bits:
            out = backend.astype(out, dtype)
        else:
            raise TypeError(
                f"{backend.name} has no {op!r} kernel that returns {dtype}, the dtype policy "
                f"{ns.policy_now().name!r} gives (its kernel returned {got}). Cast the "
                "operands explicitly to a dtype the backend supports first."
            )
    ran(op)
    return wrap(out, ns)


def ran(op: str) -> None:
    """Report to the trace, if any, that ``op`` (noted with :func:`traced`) has run."""
    scope = _scope() and current()
    if scope is not None and scope.tracer is not None:
        scope.tracer.commit(op)


def report_decided(op: str, x: Any, result: DType | None) -> None:
    """Report one-array function ``op`` of array ``x``, which gave ``result`` (None: refused), to a compare.

    A trace records casts only: it hears of these through :func:`traced` where one is made.
    """
    scope = _scope() and current()
    if scope is None or scope.tracer is None or not scope.tracer.every_op:
        return
    operands = [(*_KEYS[x._k], x._x)]
    if result is None:
        scope.tracer.refused(op, operands)
    else:
        scope.tracer.record(op, operands, result, result)


def traced(ns: Space, op: str, x: Any, result: DType, compute: DType) -> None:
    """Note, inside a trace block, that ``op`` converts array ``x`` to ``compute`` for a ``result``.

    The cast is recorded once :func:`ran` (or :func:`finish`) reports that the op has run.
    """
    scope = _scope() and current()
    if scope is not None and scope.tracer is not None:
        scope.tracer.pending(op, [(*_KEYS[x._k], x._x)], result, compute)


# --- functions of several operands, and of one array ------------------------------------------


def operand_of(ns: Space, x: Any) -> Operand:
    """The engine operand of a promo_ns array, DType, NumPy scalar or Python scalar."""
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return Operand(*_KEYS[x._k])
    if x.__class__ is DType:
        return Operand(x, Role.ND)
    if isinstance(x, (bool, int, float, complex)) and not is_numpy_like(x):
        return operand(x)
    raise _unsupported(x, "this function", ns)


def cast(ns: Space, x: Any, dtype: DType, like: Any = None) -> Any:
    """Native ``x`` as ``dtype``; a Python scalar becomes a 0-d array on ``like``'s device.

    The engine has already checked a Python int's value where the policy
    checks it; where the policy's rule is ``"wrap"``, the value wraps into
    ``dtype`` here, as the framework would.
    """
    if x.__class__ is ns.Array:
        if dtype.kind in "iuf" and x.dtype.kind == "c":  # the real part, as the framework casts it
            return ns._backend.astype(ns._backend.compat.real(x._x), dtype)
        return ns._backend.astype(x._x, dtype)
    return ns._backend.scalar(fit(x, dtype), dtype, like)


def compared(ns: Space, op: str, x1: Any, x2: Any) -> tuple[Any, Any]:
    """The operands of a comparison-like function (``isin``, ``searchsorted``) in the dtype it compares in.

    The policy decides as for ``op``'s family (comparisons promote, then
    compare); a Python scalar becomes a 0-d array on the array's device.
    """
    xs = [promoted_operand(ns, x, op) for x in (x1, x2)]
    a, b = (operand_of(ns, x) for x in xs)
    policy = ns.policy_now()
    resolve(policy, op, a, b)  # raises the policy's refusal, or OverflowError for an int out of range
    cell = compute_table(policy, family_name(policy, op))[(a.dtype, a.role, b.dtype, b.role)]
    assert not isinstance(cell, Refusal)  # resolve() raised for a refused cell
    compute = cell[1]
    for i, o in enumerate((a, b)):
        if o.role is Role.INT and (value := int_value(policy, op, (a, b), i)).__class__ is float:
            compute, xs[i] = float32, value  # compared exactly: an int beyond the dtype as an infinity
    arrays = [x._x for x in xs if x.__class__ is ns.Array]
    if len(arrays) == 2 and not ns._backend.same_device(*arrays):
        raise device_error(*arrays)
    first, second = (cast(ns, x, compute, arrays[0]) for x in xs)
    return first, second


def promoted(
    ns: Space, op: str, xs: Sequence[Any], like: Any = None, *, optional: bool = False
) -> tuple[DType, list[Any]]:
    """The policy's dtype for ``op`` over ``xs`` and the native operands cast to it.

    NumPy scalars take part as the 0-d arrays they are, as in operators.
    ``like`` is a native array the operands must share a device with (``where``'s
    condition); Python scalars become 0-d arrays on its device, else on the first array's.
    With ``optional``, ``None`` is an absent operand (``clip``'s missing bound)
    that stays None, as does a Python int the policy drops (a ``clip`` bound
    beyond the dtype on the side that clips nothing).
    """
    xs = [None if x is None and optional else promoted_operand(ns, x, op) for x in xs]
    operands = [None if x is None else operand_of(ns, x) for x in xs]
    policy = ns.policy_now()
    dtype = resolve_many(policy, op, operands)
    xs = [
        int_value(policy, op, operands, i) if o is not None and o.role is Role.INT else x
        for i, (o, x) in enumerate(zip(operands, xs, strict=True))
    ]
    arrays = [x._x for x in xs if x.__class__ is ns.Array]
    if like is not None:
        arrays.insert(0, like)
    for other in arrays[1:]:
        if not ns._backend.same_device(arrays[0], other):
            raise device_error(arrays[0], other)
    scope = _scope() and current()
    if scope is not None and scope.tracer is not None:  # recorded by wrap_result once the kernel has run
        scope.tracer.pending(
            op,
            [
                (o.dtype, o.role, x._x if x.__class__ is ns.Array else x)
                for o, x in zip(operands, xs, strict=True)
                if o is not None
            ],
            dtype,
            dtype,
        )
    try:
        return dtype, [None if x is None else cast(ns, x, dtype, arrays[0] if arrays else like) for x in xs]
    except ValueError as e:  # a NaN or infinite Python scalar into an integer dtype
        raise ValueError(
            f"{op}(): {e}; give a finite value, or cast the arrays to a floating dtype first"
        ) from None


#: Statistics of a float16/bfloat16 array that compute in float32 (torch's, JAX's and NumPy's float16
#: ones accumulate there; ml_dtypes' bfloat16 and NumPy's float16 var would not).
_STATISTICS = frozenset(("mean", "std", "var"))


@per_policy
def one_array_plan(policy: Policy, op: str, dtype: DType) -> tuple[DType, DType]:
    """The result dtype of ``op`` on a ``dtype`` array under ``policy``, and the dtype it computes in.

    A real input computes in the real float of a float or complex result (a
    float16 or bfloat16 ``mean``, ``std`` or ``var`` in float32, as every
    backend's ``sum`` of them does: see ``_functions.statistical``); a
    complex input stays complex; a bool input with a bool or integer result
    computes in uint8 (backends lack bool kernels for ``abs``, ``argmax``, ...);
    any other input computes in its own dtype.
    """
    result = function_dtype(policy, op, dtype)
    if dtype.kind == "c":
        compute = result if result.kind == "c" else dtype
    elif result.kind in "fc":
        compute = real_float(result)
        if op in _STATISTICS and compute.bits == 16:  # float16/bfloat16: summed in float32, rounded once
            compute = float32
    elif dtype is bool_:
        compute = uint8
    else:
        compute = dtype
    return result, compute


def one_array(ns: Space, op: str, x: Any) -> tuple[DType, Any]:
    """The policy's result dtype of one-array function ``op`` (``log``, ``mean``) of ``x``, and native ``x``.

    The native operand is cast to the dtype the function computes in (see
    :func:`one_array_plan`; no cast where that is its own dtype); :func:`finish`
    brings the backend's result to the policy's dtype.  Outside ``policy``
    blocks the plan is one lookup in the namespace's cache.
    """
    if x.__class__ is not ns.Array or x._ns._backend is not ns._backend:
        raise (
            _unsupported(x, op, ns, scalars=False)
            if x.__class__ is not ns.Array
            else mixed_backends(ns._backend, x._ns._backend)
        )
    k = x._k
    scope = _scope() and current()
    if scope is None or scope.policy is None:
        plan = ns._plans.get((op, k))
        if plan is None:
            plan = ns._plans[(op, k)] = one_array_plan(ns.policy, op, DTYPES[k >> 1])
    else:
        try:
            plan = one_array_plan(scope.policy, op, DTYPES[k >> 1])
        except PromotionError:
            report_decided(op, x, None)
            raise
    result, compute = plan
    dtype = DTYPES[k >> 1]
    if compute is dtype:
        if scope is not None and scope.tracer is not None and scope.tracer.every_op:
            scope.tracer.pending(op, [(*_KEYS[k], x._x)], result, compute)
        return result, x._x
    if scope is not None and (dtype is not bool_ or compute is not uint8):  # not a bool kernel's stand-in
        traced(ns, op, x, result, compute)
    return result, ns._backend.astype(x._x, compute)


def finish(ns: Space, out: Any, result: DType, op: str = "") -> Any:
    """A one-array function's native result as a promo_ns array of the policy's ``result`` dtype.

    ``op``: the function, whose cast :func:`one_array` noted for a trace: it has run.
    """
    backend = ns._backend
    out = backend.to_array(out)
    if backend.dtype(out) is not result:
        out = backend.astype(out, result)
    if op:
        ran(op)
    a = _new(ns.Array)
    a._x = out
    a._ns = ns
    a._k = code_of(result, out.ndim == 0)
    return a


def promoted_operand(ns: Space, x: Any, op: str) -> Any:
    """``x`` as the plan layer takes it: a NumPy/CuPy scalar becomes the 0-d array it is."""
    if x.__class__ is ns.Array or x.__class__ is DType or type(x) in _SCALAR_CODE:
        return x
    return _other_operand(ns, x, op)


# --- errors and helpers of the binary path -----------------------------------------------------


def mixed_backends(mine: Backend, theirs: Backend) -> TypeError:
    """The error for an array of backend ``theirs`` met by an array or namespace of backend ``mine``."""
    return TypeError(
        f"cannot combine a {mine.name} array with a {theirs.name} array; move one to the other's "
        f"backend first, e.g. with the {mine.name} namespace's xp.from_dlpack(x), or use one namespace."
    )


def device_error(a: Any, b: Any) -> ValueError:
    """The error for native arrays ``a`` and ``b`` on different devices."""
    return ValueError(
        f"operands are on different devices ({a.device} and {b.device}); "
        "move one with x.to_device(other.device) first."
    )


def unknown_device(ns: Space, op: str, device: Any, error: Exception) -> ValueError | None:
    """The ValueError for ``op``'s ``device`` that failed with ``error``, if the backend has no such device.

    Looked at on the error path only: ``device`` is compared (as text, ``"cuda"``
    standing for ``"cuda:0"``) with the devices the namespace lists.
    """
    if device is None:
        return None
    try:
        known = list(ns.__array_namespace_info__().devices())
    except Exception:  # a backend that cannot list them: its own error stands
        return None
    if any(device is d or str(device) in (str(d), str(d).split(":")[0]) for d in known):
        return None
    return ValueError(
        f"{op}(): {device!r} is no device of the {ns._backend.name} backend here; its devices: "
        f"{', '.join(map(str, known))} ({type(error).__name__}: {error})"
    )


def _table(ns: Space, op: str, function: bool = False) -> tuple[Plan | None, ...]:
    """The plans of ``op`` (its ``function`` spelling's) under the namespace's policy, cached there."""
    found = ns._plans[f"{op}()" if function else op] = plans(ns.policy, ns._backend, op, function=function)
    return found


def _scoped(
    ns: Space, op: str, scope: Scope, a: tuple[int, Any], b: tuple[int, Any], *, function: bool = False
) -> Plan | None:
    """The plan of cell ``(a, b)`` (code, native operand) inside a policy or trace block."""
    if scope.closed:  # a block that ended in another context: the scope around it
        open_scope = current()
        if open_scope is None:
            return plans(ns.policy, ns._backend, op, function=function)[a[0] * _NK + b[0]]
        scope = open_scope
    return plans(scope.policy or ns.policy, ns._backend, op, function=function)[a[0] * _NK + b[0]]


def _record(
    scope: Scope, op: str, plan: Plan, a: tuple[int, Any], b: tuple[int, Any], *, inplace: bool = False
) -> None:
    """Report binary ``op`` on cell ``(a, b)`` (code, native operand), which has run, to the block's trace."""
    tracer = _tracer(scope)
    if tracer is not None:
        operands = [(*_KEYS[code], x) for code, x in (a, b)]
        tracer.record(op, operands, DTYPES[plan.result >> 1], plan.compute, inplace=inplace)


def _record_refusal(
    scope: Scope,
    op: str,
    a: tuple[int, Any],
    b: tuple[int, Any],
    *,
    inplace: bool,
    error: str = "PromotionError",
) -> None:
    """Report binary ``op`` on cell ``(a, b)``, refused with ``error``, to the block's trace."""
    tracer = _tracer(scope)
    if tracer is not None:
        tracer.refused(op, [(*_KEYS[code], x) for code, x in (a, b)], inplace=inplace, error=error)


def _tracer(scope: Scope) -> Trace | None:
    """The trace of ``scope``, or of the block now in force where ``scope`` has closed; None without one."""
    if scope.closed:
        found = current()
        if found is None:
            return None
        scope = found
    return scope.tracer


def prepared_done(op: str, a: Any, other: Any, plan: Plan, y: Any) -> None:
    """Report ``a op= other``, checked in ``PREPARE`` mode (``y``: ``other`` as it ran), once it has run."""
    if _scope() is None:
        return
    scope = current()
    if scope is None or scope.tracer is None:
        return
    kb = other._k if other.__class__ is a.__class__ else _SCALAR_CODE.get(other.__class__)
    if kb is None:  # a NumPy scalar, which took part as the 0-d array it is
        kb = _other_operand(a._ns, other, op)._k
    _record(scope, op, plan, (a._k, a._x), (kb, y), inplace=True)


def is_numpy_like(x: Any) -> bool:
    """Whether ``x`` is a NumPy or CuPy array or scalar (a NumPy scalar is a 0-d array to promo_ns).

    ml_dtypes' scalars (``ml_dtypes.bfloat16(1)``) are NumPy scalars too.
    """
    return type(x).__module__ in _NUMPY_MODULES and hasattr(x, "dtype") and hasattr(x, "ndim")


_NUMPY_MODULES = ("numpy", "cupy", "ml_dtypes")


#: The reflected Python operator of each binary op (a comparison's is its mirror image).
_REFLECTED_NAMES = {
    "add": "__radd__", "subtract": "__rsub__", "multiply": "__rmul__", "divide": "__rtruediv__",
    "floor_divide": "__rfloordiv__", "remainder": "__rmod__", "pow": "__rpow__",
    "bitwise_and": "__rand__", "bitwise_or": "__ror__", "bitwise_xor": "__rxor__",
    "bitwise_left_shift": "__rlshift__", "bitwise_right_shift": "__rrshift__", "matmul": "__rmatmul__",
    "equal": "__eq__", "not_equal": "__ne__", "less": "__gt__", "less_equal": "__ge__",
    "greater": "__lt__", "greater_equal": "__le__",
}  # fmt: skip


def reflected_name(op: str) -> str:
    """The name of the Python operator another operand implements to take ``op`` reflected."""
    return _REFLECTED_NAMES[op]


def defers_to(other: Any, name: str) -> bool:
    """Whether a Python operator leaves ``other`` to its own reflected operator ``name``.

    True for a type promo_ns does not know (neither a Python scalar, nor a
    backend's array or scalar) that implements ``name`` itself: xarray's
    DataArray, marray's MaskedArray.  Their reflected operator then runs; for
    anything else promo_ns raises its own TypeError, naming what to do.
    """
    from promo_ns.backends import backend_of

    cls = other.__class__
    if cls.__module__ == "builtins" or is_numpy_like(other) or backend_of(other) is not None:
        return False
    return getattr(cls, name, None) is not getattr(object, name, None)


def _other_operand(ns: Any, x: Any, op: str) -> Any:
    """A NumPy/CuPy scalar as the 0-d array it is (strong, as in NEP 50).

    A subclass of a Python scalar type becomes that Python scalar; anything else raises.
    """
    if is_numpy_like(x) and x.ndim == 0:
        return ns.asarray(x)
    for t in _SCALAR_TYPES:
        if isinstance(x, t):
            return t(x)
    raise _unsupported(x, op, ns)


#: Words of torch's RuntimeErrors and JAX's TypeErrors about shapes (NumPy raises ValueError for those).
_SHAPE_WORDS = ("shape", "size", "dim", "broadcast", "with a sequence")
#: How NumPy (and CuPy) say a ufunc has no loop for the dtypes.
_NO_LOOP_WORDS = (
    *("No loop matching", "did not contain a loop", "not supported for the input types", "boolean subtract"),
    *("unsupported in linalg", "Parameters of such types are not supported"),  # NumPy's linalg, Dask's
    "of arguments for cupy_",  # CuPy's ufuncs: "Wrong type (int32) of arguments for cupy_copysign"
    *("have no ordering", "not well defined for complex", "does not accept dtype"),  # JAX's
)


def _kernel_error(ns: Space, op: str, error: Exception, arrays: Sequence[Any]) -> Exception | None:
    """promo_ns's error for a kernel's ``error`` on native ``arrays``, or None to let it through.

    Arrays on two devices get :func:`device_error`; a torch RuntimeError about
    shapes (JAX's TypeError) becomes the ValueError NumPy raises, naming the shapes.
    """
    for other in arrays[1:]:
        if not ns._backend.same_device(arrays[0], other):
            return device_error(arrays[0], other)
    text = str(error)
    if (
        type(error) in (RuntimeError, TypeError, ValueError)
        and any(word in text for word in _SHAPE_WORDS)
        and f"{op}()" not in text
    ):
        shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
        return ValueError(f"{op}() got arrays of shapes that do not fit together ({shapes}): {error}")
    if isinstance(error, NotImplementedError) or (
        type(error) in (TypeError, ValueError) and any(word in text for word in _NO_LOOP_WORDS)
    ):
        dtypes = ", ".join(str(ns._backend.dtype(a)) for a in arrays) or "these operands"
        return TypeError(
            f"{ns._backend.name} has no {op!r} kernel for {dtypes} ({error}); the policy's dtype cannot "
            "be computed on this backend. Cast the operands explicitly first, e.g. to a floating dtype."
        )
    return None


def kernel(ns: Space, op: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``, the backend's kernel of ``op`` on native operands, with promo_ns's errors.

    Raises
    ------
    ValueError
        The arrays' shapes do not fit (torch's RuntimeError, NumPy's ValueError), or their devices differ.
    """
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        arrays = [a for arg in args for a in (arg if isinstance(arg, (list, tuple)) else (arg,))]
        error = _kernel_error(ns, op, e, [a for a in arrays if isinstance(a, ns._backend.array_type)])
        if error is None:
            raise
        raise error from e


def _engine_operand(x: Any) -> Operand:
    code = _SCALAR_CODE.get(x.__class__)
    if code is None:  # an array
        return Operand(*_KEYS[x._k])
    return Operand(None, _KEYS[code][1], x)


def _unsupported(other: Any, op: str, ns: Any = None, *, scalars: bool = True) -> TypeError:
    """The error for ``other`` given to ``op``: a bare native array (wrap it), or no array at all.

    ``scalars``: whether ``op`` also takes Python scalars there.
    """
    from promo_ns.backends import backend_of

    cls = type(other)
    name = cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    found = backend_of(other)
    if found is not None or is_numpy_like(other):
        mine = ns._backend.name if ns is not None else None
        theirs = found.name if found is not None else type(other).__module__
        if mine is not None and theirs != mine:
            return TypeError(
                f"{op!r} got a bare {name}, an array of another library than this {mine} namespace's; "
                f"wrap it with the {theirs} namespace (promo_ns.namespace({theirs!r}).asarray(x), "
                f"zero-copy), or convert it to {mine} first and wrap that with xp.asarray(x)."
            )
        return TypeError(
            f"{op!r} got a bare {name}; wrap it first with xp.asarray(x) (zero-copy) "
            "so that the policy can see its dtype."
        )
    takes = "promo_ns arrays and Python bool/int/float/complex" if scalars else "a promo_ns array"
    return TypeError(f"{op!r} takes {takes}, not {name}; make an array with xp.asarray(...) first.")


def array_of(ns: Space, x: Any, op: str) -> Any:
    """The native array of promo_ns array ``x`` where ``op`` takes an array; a TypeError for anything else.

    Raises
    ------
    TypeError
        ``x`` is a bare native array (wrap it with ``xp.asarray``), no array
        at all, or an array of another backend's namespace.
    """
    if x.__class__ is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    raise _unsupported(x, op, ns, scalars=False)


def input_of(ns: Space, x: Any, op: str) -> Any:
    """:func:`array_of`, refused where the active policy's ``input_kinds`` give ``op`` no ``x.dtype``."""
    native_x = array_of(ns, x, op)
    try:
        check_input_kind(ns.policy_now(), op, x.dtype)
    except PromotionError:
        report_decided(op, x, None)
        raise
    return native_x


#: Argument types a delegated function passes through as they are, without a look.
_PLAIN = frozenset((bool, int, float, complex, str, type(None), slice, type(Ellipsis)))


def native_argument(ns: Space, x: Any, op: str) -> Any:
    """:func:`native` for an argument of delegated function ``op``: a bare native array raises.

    Raises
    ------
    TypeError
        ``x`` is (or holds) a bare NumPy/CuPy/torch array: wrap it with ``xp.asarray``.
    """
    cls = x.__class__
    if cls in _PLAIN:
        return x
    if cls is ns.Array:
        if x._ns._backend is not ns._backend:
            raise mixed_backends(ns._backend, x._ns._backend)
        return x._x
    if cls is DType:
        return ns._backend.native_dtype(x)
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return type(x)(native_argument(ns, v, op) for v in x)
    from promo_ns.backends import backend_of

    if backend_of(x) is not None:
        raise _unsupported(x, op, ns)
    return x


def _refuse(a: Any, other: Any, op: str, mode: int) -> PromotionError:
    """The engine's error for a refused cell, with the operands in the op's order."""
    policy = a._ns.policy_now()
    left, right = (other, a) if mode == REFLECTED else (a, other)
    try:
        resolve(policy, op, _engine_operand(left), _engine_operand(right), inplace=mode >= INPLACE)
    except PromotionError as e:
        return e
    raise AssertionError(f"compiled plan and engine disagree on {op}")  # pragma: no cover


def _no_kernel(ns: Space, op: str, plan: Plan, out: Any) -> TypeError:
    return TypeError(
        f"{ns._backend.name} has no {op!r} kernel that computes in {plan.compute} and returns "
        f"{DTYPES[plan.result >> 1]} (its kernel returned {ns._backend.dtype(out)}); the policy's "
        f"dtype cannot be produced on this backend. Cast the operands explicitly first."
    )
