"""Resolving an op: the compiled decision looked up, its Python scalars checked, in-place casts.

:func:`resolve` answers a binary op, :func:`resolve_many` any number of
operands (``concat``, ``result_type``, ``clip``), :func:`promote_elements` the
elements of nested data, :func:`can_cast` the policy's casting rule.
"""

from __future__ import annotations

from collections.abc import Sequence

from promo_ns._dtypes import DType
from promo_ns._engine.decisions import _decide_many, family_name, result_cell
from promo_ns._engine.messages import _error
from promo_ns._engine.operands import _KIND_ORDER, Key, Operand, PromotionError, Refusal
from promo_ns._engine.scalars import checked_inexact, checks_inexact, int_value
from promo_ns.policies._model import Policy, Role

__all__ = [
    "can_cast",
    "check_kept",
    "decided_many",
    "inexact_dtype",
    "inplace_allowed",
    "inplace_dtype",
    "output_dtype",
    "promote_elements",
    "resolve",
    "resolve_many",
]


def resolve(policy: Policy, op: str, a: Operand, b: Operand, *, inplace: bool = False) -> DType:
    """The result dtype of binary ``op`` on ``a`` and ``b`` under ``policy``.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        An op name from :mod:`promo_ns._ops` (``"add"``, ``"less"``, ``"atan2"``, ...).
    a, b
        The operands, left then right.
    inplace
        ``a`` is updated in place (``a op= b``): its dtype must not change.

    Returns
    -------
    DType
        The result dtype (``a.dtype`` when ``inplace``).

    Raises
    ------
    PromotionError
        The policy refuses the combination.
    OverflowError
        A Python int does not fit the result dtype and the policy says so.
    """
    family = family_name(policy, op)
    ra, rb = _inplace_roles(policy, a.role, b.role) if inplace else (a.role, b.role)
    result = result_cell(policy, family, (a.dtype, ra, b.dtype, rb))
    if isinstance(result, Refusal):
        raise _error(policy, op, family, (a, b), result)
    for i, o in enumerate((a, b)):
        if o.role is Role.INT and o.value.__class__ is int:
            int_value(policy, op, (a, b), i)
        elif o.dtype is None and o.value.__class__ in (float, complex):
            _check_inexact(policy, op, family, (a, b), result, index=i)
    if inplace:
        return inplace_dtype(policy, op, (a, b), result)
    return result


def inplace_allowed(policy: Policy, op: str, a: Key, b: Key) -> bool:
    """Whether ``policy`` allows ``a op= b`` of operand keys ``(dtype, role)``: :func:`resolve`, no values.

    The checks of the values of Python ints and floats are left to the call.
    """
    left = a[0]
    if left is None:
        return False
    ra, rb = _inplace_roles(policy, a[1], b[1])
    result = result_cell(policy, family_name(policy, op), (left, ra, b[0], rb))
    return not isinstance(result, Refusal) and _casts(policy.inplace, result, left)


def _inplace_roles(policy: Policy, ra: Role, rb: Role) -> tuple[Role, Role]:
    """The roles ``a op= b`` decides with: those of ``policy.inplace_as_nd`` as n-d arrays."""
    taken = policy.inplace_as_nd
    if not taken:
        return ra, rb
    return (Role.ND if ra in taken else ra), (Role.ND if rb in taken else rb)


def _casts(rule: str, source: DType, target: DType) -> bool:
    """Whether ``source`` casts to ``target`` by ``rule`` (``"same"``, ``"category"``, ``"same_kind"``)."""
    if rule == "same":
        return source is target
    if rule == "category":
        return source.category <= target.category
    return _KIND_ORDER.index(source.kind) <= _KIND_ORDER.index(target.kind)


def can_cast(policy: Policy, source: DType, target: DType) -> bool:
    """``can_cast(source, target)`` under ``policy`` (see :attr:`Policy.can_cast`)."""
    rule = policy.can_cast
    if isinstance(rule, frozenset):
        return source is target or (source, target) in rule
    if rule != "promotion":
        return _casts(rule, source, target)
    key = (source, Role.ND, target, Role.ND)
    return result_cell(policy, family_name(policy, "result_type"), key) is target


def inplace_dtype(policy: Policy, op: str, operands: Sequence[Operand], result: DType) -> DType:
    """The dtype of ``op`` done in place on ``operands[0]``, whose out-of-place result is ``result``.

    The binary ops' ``a op= b`` and the one-array functions' in-place forms
    (torch's ``x.sqrt_()``, ``x.clamp_(...)``) alike: the first operand's
    dtype, where ``policy.inplace`` casts ``result`` back to it.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        The op's name (``"add"``, ``"sqrt"``, ``"clip"``).
    operands
        The operands (one or two), the one updated in place first.
    result
        The dtype ``policy`` gives the op out of place.

    Returns
    -------
    DType
        ``operands[0]``'s dtype.

    Raises
    ------
    PromotionError
        The policy does not cast ``result`` back to the first operand's dtype.
    TypeError
        The first operand is not an array.
    """
    first = operands[0]
    left = first.dtype
    if left is None:
        raise TypeError(f"in-place {op!r} needs an array on the left, got {first.describe()}")
    if _casts(policy.inplace, result, left):
        return left
    names = ["x"] if len(operands) == 1 else [f"x{i + 1}" for i in range(len(operands))]
    x, others = names[0], names[1:]
    said = ", ".join(f"{n} is {o.describe()}" for n, o in zip(names, operands, strict=True))
    cast = "".join(f", or cast {n} to {left} first: xp.astype({n}, xp.{left})" for n in others)
    raise PromotionError(
        f"policy {policy.name!r} refuses in-place {op!r}: {said}, and the result would be {result}, "
        f"which the policy does not cast back to {left} (an in-place op never changes {x}'s dtype). "
        f"{x} is unchanged. Fix: {x} = xp.{op}({', '.join(names)}) for a new {result} array{cast}."
    )


def output_dtype(policy: Policy, function: str, result: DType, output: DType) -> DType:
    """The dtype an ``out=`` array of dtype ``output`` holds for a ``result`` (torch's ``add(x, y, out=z)``).

    ``output``, where ``policy.inplace`` casts ``result`` to it, as it would
    cast an in-place op's result back to its array.

    Raises
    ------
    PromotionError
        The policy does not cast ``result`` to ``output``.
    """
    if _casts(policy.inplace, result, output):
        return output
    raise PromotionError(
        f"policy {policy.name!r} refuses {function}(..., out=...): the result would be {result}, "
        f"which the policy does not cast to out's {output} (as it would not cast it back in place). "
        f"out is unchanged. Fix: leave out= off for a new {result} tensor, or pass out of dtype {result}."
    )


def check_kept(policy: Policy, op: str, operands: Sequence[Operand]) -> None:
    """Whether ``policy`` takes ``op``'s operands, whose results each keep their own dtype (``meshgrid``).

    A policy that names a family for ``op`` holds the operands to it (PyTorch's
    and the standard's: one dtype); the others take any dtypes.

    Raises
    ------
    PromotionError
        The policy's family refuses the operands' dtypes together.
    """
    if op in policy.op_families and len(operands) > 1:
        resolve_many(policy, op, operands)


def resolve_many(policy: Policy, op: str, operands: Sequence[Operand | None]) -> DType:
    """The result dtype of an op over any number of operands (``concat``, ``result_type``, ``clip``).

    ``None`` holds the place of an absent operand (``clip``'s missing bound),
    for the Python int value rules that depend on the position.
    """
    present = [o for o in operands if o is not None]
    if len(operands) == len(present) == 2:
        return resolve(policy, op, present[0], present[1])
    name = family_name(policy, op)
    result, _ = _decide_many(policy, name, tuple((o.dtype, o.role) for o in present))
    if isinstance(result, Refusal):
        raise _error(policy, op, name, present, result)
    for i, o in enumerate(operands):
        if o is not None and o.role is Role.INT and o.value.__class__ is int:
            int_value(policy, op, operands, i)
        elif o is not None and o.dtype is None and o.value.__class__ in (float, complex):
            _check_inexact(policy, op, name, operands, result, index=i)
    return result


def decided_many(policy: Policy, op: str, keys: Sequence[Key | None]) -> DType | None:
    """:func:`resolve_many`'s dtype of operand keys ``(dtype, role)``, no values checked; None: refused.

    What a plan compiled ahead of the values needs, without the refusal's message.
    """
    present = [k for k in keys if k is not None]
    name = family_name(policy, op)
    if len(keys) == len(present) == 2:
        result = result_cell(policy, name, (*present[0], *present[1]))
    else:
        result = _decide_many(policy, name, tuple(present))[0]
    return None if isinstance(result, Refusal) else result


def inexact_dtype(
    policy: Policy, name: str, first: DType | None, role: Role, result: DType, *, index: int
) -> DType | None:
    """The dtype a Python float or complex (``role``) at ``index`` is checked against; None: not checked.

    It converts to the first operand's dtype (``first``, None for a Python
    scalar) where the family casts, else to ``result``.
    """
    family = policy.families.get(name)
    dtype = first if family is not None and family.cast is not None and first is not None else result
    return dtype if checks_inexact(policy, name, dtype, role, index) else None


def _check_inexact(
    policy: Policy, op: str, name: str, operands: Sequence[Operand | None], result: DType, *, index: int
) -> None:
    """:func:`checked_inexact` of the Python float or complex ``operands[index]``, where checked."""
    o = operands[index]
    assert o is not None  # a Python scalar's place
    first = operands[0].dtype if operands[0] is not None else None
    dtype = inexact_dtype(policy, name, first, o.role, result, index=index)
    if dtype is not None:
        checked_inexact(policy, op, o.value, dtype, index)  # type: ignore[arg-type]


def promote_elements(policy: Policy, op: str, operands: Sequence[Operand]) -> DType:
    """The dtype plain promotion gives ``operands`` under ``policy``, before any op family's rule.

    What a framework's creation function does with the elements of nested data
    (``asarray([a, b, 1.5])``).

    Raises
    ------
    PromotionError
        The policy defines no promotion of these operands.
    """
    result = _decide_many(
        policy, family_name(policy, "result_type"), tuple((o.dtype, o.role) for o in operands)
    )[1]
    if isinstance(result, Refusal):
        raise _error(policy, op, family_name(policy, "result_type"), operands, result)
    return result
