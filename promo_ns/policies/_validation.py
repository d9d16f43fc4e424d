"""Validation of a :class:`~promo_ns.policies.Policy` record: it holds what its fields say.

Each check names the field, what it must hold and, for a misspelt name, the
closest one; :class:`~promo_ns.policies.Policy` runs :func:`validate` when it
is made (the registry checks the one field that names a policy).
"""

from __future__ import annotations

from typing import Any

from promo_ns._dtypes import DTYPES
from promo_ns._ops import DELEGATED_DTYPES, FAMILY, INPUT_KIND_OPS, UNPROMOTED
from promo_ns.policies._checks import check_fields, check_kinds, check_per_kind, did_you_mean
from promo_ns.policies._family import FAMILIES
from promo_ns.policies._grids import FLOAT_SCALAR_FORMS, FUNCTION_FAMILIES, Role

#: A :class:`~promo_ns.policies.Policy` (which imports this module, so it is not named here).
PolicyRecord = Any

__all__ = ["DEFAULT_KINDS", "validate"]

#: The keys of ``Policy.defaults``.
DEFAULT_KINDS: tuple[str, ...] = ("bool", "int", "float", "complex", "index")


def validate(record: PolicyRecord, owner: str) -> None:
    """Check every field of ``record`` against its type, and the fields whose values are names.

    (``nested_rules``, a policy's name, is checked against the registry by :mod:`._model`.)

    Raises
    ------
    TypeError
        A field of another type than it is declared with.
    ValueError
        A value outside the field's choices (``inplace="smae"``), with the choices and the closest.
    """
    check_fields(record, owner)
    check_per_kind(record.int_range, f"{owner}: int_range")
    check_kinds(record.accumulate_kinds, f"{owner}: accumulate_kinds")
    for op, kinds in record.input_kinds.items():
        if op not in INPUT_KIND_OPS:
            raise ValueError(
                f"{owner}: input_kinds names {op!r}{did_you_mean(op, INPUT_KIND_OPS)}, which is no function "
                f"whose input kinds a policy restricts; those are {', '.join(INPUT_KIND_OPS)}"
            )
        check_kinds(kinds, f"{owner}: input_kinds[{op!r}]")
    check_per_kind(record.astype_kinds, f"{owner}: astype_kinds")
    for kinds in record.astype_kinds.values():
        check_kinds(kinds, f"{owner}: astype_kinds")
    for key in record.defaults:
        if key not in DEFAULT_KINDS:
            raise ValueError(
                f"{owner}: defaults has a key {key!r}{did_you_mean(key, DEFAULT_KINDS)}; its keys are "
                f"{', '.join(DEFAULT_KINDS)}"
            )
    missing = [k for k in DEFAULT_KINDS if k not in record.defaults]
    if missing:
        raise ValueError(
            f"{owner}: defaults lacks {', '.join(missing)}; its keys are {', '.join(DEFAULT_KINDS)}"
        )
    for op, family in record.op_families.items():
        if op not in FAMILY and op not in UNPROMOTED:
            raise ValueError(f"{owner}: op_families names an unknown op {op!r}{did_you_mean(op, FAMILY)}")
        if family not in record.families and family not in FAMILIES:
            raise ValueError(
                f"{owner}: op_families puts {op!r} in {family!r}, which is no family of the policy"
                f"{did_you_mean(family, [*record.families, *FAMILIES])}"
            )
    for family, _ in record.functions:
        if family not in FUNCTION_FAMILIES:
            raise ValueError(
                f"{owner}: functions has the unknown function family {family!r}"
                f"{did_you_mean(family, FUNCTION_FAMILIES)}; known: {', '.join(FUNCTION_FAMILIES)}"
            )
    for name, _ in record.delegated:
        if name not in DELEGATED_DTYPES:
            raise ValueError(
                f"{owner}: delegated names {name!r}{did_you_mean(name, DELEGATED_DTYPES)}, which is no "
                f"function whose dtype the backend decides; they are {', '.join(DELEGATED_DTYPES)}"
            )
    for form, rule in record.float_scalars.items():
        if form not in FLOAT_SCALAR_FORMS:
            raise ValueError(
                f"{owner}: float_scalars has the form {form!r}{did_you_mean(form, FLOAT_SCALAR_FORMS)}; "
                f"its forms are {', '.join(map(repr, FLOAT_SCALAR_FORMS))}"
            )
        if rule == "reciprocal_then_multiply" and form != "s / x":
            raise ValueError(f"{owner}: float_scalars[{form!r}] is {rule!r}, a rule of 's / x' only")
    _check_nary(record, owner)


def _check_nary(record: PolicyRecord, owner: str) -> None:
    """``nary_order`` and ``weak_joins`` hold what their ``nary`` needs, and nothing for another one."""
    _check_weak_joins(record, owner)
    order = record.nary_order
    if record.nary != "main-dtype":
        if order:
            raise ValueError(
                f"{owner}: nary_order is used by nary='main-dtype' only; with nary={record.nary!r} "
                "leave it empty"
            )
        return
    missing = [str(d) for d in DTYPES if d not in order]
    if missing or len(order) != len(DTYPES):
        repeated = sorted({str(d) for d in order if order.count(d) > 1})
        raise ValueError(
            f"{owner}: nary='main-dtype' needs nary_order to name every canonical dtype once, from the "
            f"one that knows the fewest others to the one that knows the most; "
            + (f"it lacks {', '.join(missing)}" if missing else f"it repeats {', '.join(repeated)}")
        )


def _check_weak_joins(record: PolicyRecord, owner: str) -> None:
    """Each weak join is a Python scalar role, in both orders, over the arrays cell of its default."""
    if record.weak_joins and record.nary != "lattice":
        raise ValueError(f"{owner}: weak_joins is used by nary='lattice' only; leave it empty")
    for (a, b), role in record.weak_joins.items():
        if not (isinstance(role, Role) and role.is_scalar):
            raise ValueError(f"{owner}: weak_joins[{a}, {b}] is {role!r}; it must be a Python scalar Role")
        if record.weak_joins.get((b, a)) is not role:
            raise ValueError(f"{owner}: weak_joins has ({a}, {b}) but not ({b}, {a}) with the same role")
        default = record.defaults.get(role.default_key)
        if record.arrays.get((a, b)) is not default:
            raise ValueError(
                f"{owner}: weak_joins[{a}, {b}] is the weak {role}, so its arrays cell must be "
                f"defaults[{role.default_key!r}] ({default}), not {record.arrays.get((a, b))}"
            )
