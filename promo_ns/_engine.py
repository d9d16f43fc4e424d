"""The promotion engine: policy data in, result dtypes (or reasons to refuse) out.

A policy is compiled once per op family into a dense dict keyed by the two
operands' ``(dtype, role)`` pairs (``dtype`` is ``None`` for Python scalars),
so answering a binary op is one dict lookup.  The lookup holds either a
:class:`~promo_ns._dtypes.DType` or a :class:`Refusal`; a refusal becomes a
:class:`PromotionError` naming the policy, the op, the operands and a fix.

Each cell is decided by named stages (:func:`cell`) that give a reason for
every step; :func:`run` runs them.  The tables keep the result only;
:func:`promo_ns.explore.explain` shows the reasons.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple, NoReturn, TypeAlias, TypeVar

from promo_ns._dtypes import (
    CATEGORY,
    DTYPES,
    FLOAT_MAX,
    FLOAT_OVERFLOW,
    INT_RANGE,
    DType,
    a_or_an,
    bool_,
    complex128,
    float64,
    holding,
    int64,
    real_float,
)
from promo_ns._memo import per_policy
from promo_ns._ops import FUNCTION_FAMILY, family_of
from promo_ns.policies._model import ARRAY_ROLES, SCALAR_ROLES, Family, Grid, IntRule, Policy, Role

__all__ = [
    "Decision",
    "IntLimits",
    "Operand",
    "PromotionError",
    "Refusal",
    "Stage",
    "accumulation_dtype",
    "can_cast",
    "cast_target",
    "cell",
    "check_astype",
    "check_input_kind",
    "checked_inexact",
    "checked_int",
    "checks_inexact",
    "compute_table",
    "delegated_dtype",
    "describe_call",
    "family_name",
    "function_dtype",
    "int_limits",
    "int_value",
    "operand",
    "promote_elements",
    "promoted_table",
    "resolve",
    "resolve_many",
    "run",
]

Key = tuple[DType | None, Role]

_KIND_ORDER = "buifc"
_KIND_WORDS = {
    "b": "bool",
    "i": "signed integer",
    "u": "unsigned integer",
    "f": "floating-point",
    "c": "complex",
}


class PromotionError(TypeError):
    """An op whose operand dtypes the active policy does not combine.

    The message names the policy, the op, each operand's dtype and role, and
    an explicit cast that makes the op valid.
    """


class Operand(NamedTuple):
    """One operand as the engine sees it: dtype (``None`` for a Python scalar), role, value."""

    dtype: DType | None
    role: Role
    value: object = None

    def describe(self) -> str:
        """``"int8 (n-d array)"`` or ``"1.5 (Python float)"``."""
        return f"{self.value!r} ({self.role})" if self.dtype is None else f"{self.dtype} ({self.role})"


#: A Python scalar's kind letter -> its key in :attr:`Policy.defaults`.
_DEFAULT_OF = {"b": "bool", "i": "int", "f": "float", "c": "complex"}
_SCALAR_ROLE = {bool: Role.BOOL, int: Role.INT, float: Role.FLOAT, complex: Role.COMPLEX}


def operand(x: object) -> Operand:
    """The :class:`Operand` of a Python scalar (``bool``/``int``/``float``/``complex``)."""
    role = _SCALAR_ROLE.get(type(x))
    if role is None:
        for base, r in _SCALAR_ROLE.items():
            if isinstance(x, base):
                role = r
                break
        else:
            raise TypeError(f"expected an array or a Python scalar, got {type(x).__name__}")
    return Operand(None, role, x)


class Refusal(NamedTuple):
    """Why a cell has no dtype: ``"kind"``, ``"same_dtype"``, ``"promotion"`` or ``"scalars"``."""

    why: str


# --- the decision, in stages ---------------------------------------------------------------
#
# A stage is a generator: it yields the reason for each step it takes, in words, and
# returns what it decided; a stage that refuses raises _RefusalError, which ends the whole
# decision.  run() runs the stages; the compiled tables keep only the result, explain()
# in promo_ns.explore only the reasons, so the two cannot disagree.

_T = TypeVar("_T")
#: A decision stage: yields its reasons in words, returns what it decided.
Stage: TypeAlias = Generator[str, None, _T]

_NO_ARRAY = "no operand is an array, and Python scalars alone have no dtype: refused"
_CLASS = {"nd": "n-d arrays", "mid": "0-d arrays", "low": "Python scalars"}


class _RefusalError(Exception):
    """A stage refuses: the decision ends with :attr:`refusal`, and :attr:`reason` is its last step."""

    def __init__(self, why: str, reason: str) -> None:
        super().__init__(reason)
        self.refusal = Refusal(why)
        self.reason = reason


class Decision(NamedTuple):
    """What :func:`run` found: the stages' dtype (or the refusal that stopped them) and their reasons."""

    result: DType | Refusal
    reasons: list[str]


def run(stage: Stage[DType]) -> Decision:
    """Run a decision's stages in order, up to their result or the first refusal.

    Parameters
    ----------
    stage
        The decision, e.g. :func:`cell`'s.

    Returns
    -------
    Decision
        The result, or the :class:`Refusal` that stopped the stages, and each
        step's reason in words, in order.
    """
    reasons: list[str] = []
    try:
        while True:
            reasons.append(next(stage))
    except StopIteration as done:
        result: DType = done.value
        return Decision(result, reasons)
    except _RefusalError as refused:
        reasons.append(refused.reason)
        return Decision(refused.refusal, reasons)


def _kinds(kinds: str) -> str:
    """``"fc"`` -> ``"floating-point or complex"``; ``"biu"`` -> ``"bool or integer"``."""
    words = [_KIND_WORDS[k] for k in _KIND_ORDER if k in kinds]
    if "i" in kinds and "u" in kinds:
        words = [w for w in words if not w.endswith("integer")]
        words.insert(1 if "b" in kinds else 0, "integer")
    if not words:
        return "no"
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def family_name(policy: Policy, op: str) -> str:
    """The op family whose rules ``op`` follows under ``policy``.

    Raises
    ------
    ValueError
        For an op that does not combine operands.
    """
    return policy.op_families.get(op) or family_of(op)


def _array_grid(policy: Policy, family: Family | None) -> tuple[Grid, str]:
    """The grid n-d arrays promote through, the family's own if it has one, and its name."""
    if family is not None and family.arrays is not None:
        return family.arrays, "op family's array"
    return policy.arrays, "array"


def _fold(grid: Grid, dtypes: Iterable[DType], grid_name: str) -> Stage[DType | None]:
    """``dtypes`` combined left to right through ``grid`` (``None`` when there are none)."""
    result: DType | None = None
    for d in dtypes:
        if result is None:
            result = d
        elif result is d:
            yield f"{d} with {d} is {d}"
        else:
            found = grid.get((result, d))
            if found is None:
                raise _RefusalError(
                    "promotion", f"the {grid_name} grid has no cell for {result} with {d}: refused"
                )
            yield f"the {grid_name} grid gives {found} for {result} with {d}"
            result = found
    return result


def _reduce(policy: Policy, grid: Grid, dtypes: Sequence[DType], grid_name: str) -> Stage[DType | None]:
    """``dtypes`` reduced to one as the policy's ``nary`` says (``None`` when there are none).

    Two distinct dtypes take their grid cell; three or more fold left to right
    (``"pairwise"``), or each promotes with the main dtype, the latest of them in
    ``nary_order``, and those results fold (``"main-dtype"``, NumPy's).
    """
    distinct = list(dict.fromkeys(dtypes))
    if policy.nary == "pairwise" or len(distinct) < 3:
        return (yield from _fold(grid, dtypes, grid_name))
    if policy.nary == "lattice":
        return (yield from _join(policy, grid, distinct, grid_name))
    main = max(distinct, key=policy.nary_order.index)
    yield f"{main} is the main dtype of {', '.join(map(str, distinct))}: each other promotes with it"
    with_main: list[DType] = []
    for d in distinct:
        if d is not main:
            found = yield from _fold(grid, (main, d), grid_name)
            assert found is not None  # two dtypes fold to one, or refuse
            with_main.append(found)
    return (yield from _fold(grid, with_main, grid_name))


def _join(policy: Policy, grid: Grid, dtypes: Sequence[DType], grid_name: str) -> Stage[DType]:
    """``dtypes`` joined in the policy's lattice (``nary="lattice"``, see :attr:`Policy.weak_joins`)."""
    result: DType | Role = dtypes[0]
    for d in dtypes[1:]:
        if isinstance(result, Role):
            if policy.scalars.get((d, result)) is d:
                yield f"{d} takes the place of the weak {result}"
                result = d
            else:
                yield f"the weak {result} stays weak with {d}"
        elif (weak := policy.weak_joins.get((result, d))) is not None:
            yield f"{result} with {d} joins at the weak {weak}"
            result = weak
        else:
            found = yield from _fold(grid, (result, d), grid_name)
            assert found is not None  # two dtypes fold to one, or refuse
            result = found
    if isinstance(result, Role):
        result = policy.defaults[result.default_key]
        yield f"the weak node is its default, {result}"
    return result


def _promote_weak(policy: Policy, keys: Sequence[Key], family: Family | None) -> Stage[DType]:
    """Arrays promote through the array grid; each Python scalar then adapts through the scalar grid."""
    grid, grid_name = _array_grid(policy, family)
    arrays = [d for d, _ in keys if d is not None]
    if not arrays and policy.scalars_alone == "defaults":
        typed = [policy.defaults[r.default_key] for _, r in keys]
        yield f"no operand is an array: the Python scalars stand for {', '.join(map(str, typed))}"
        alone = yield from _reduce(policy, grid, typed, grid_name)
        assert alone is not None  # keys holds at least one operand
        return alone
    result = yield from _reduce(policy, grid, arrays, grid_name)
    if result is None:
        raise _RefusalError("scalars", _NO_ARRAY)
    for d, role in keys:
        if d is None:
            found = policy.scalars.get((result, role))
            if found is None:
                raise _RefusalError(
                    "promotion", f"the scalar grid has no cell for {result} with a {role}: refused"
                )
            yield f"the scalar grid gives {found} for {result} with a {role}"
            result = found
    return result


def _combine(
    cross: Grid,
    high: tuple[str, DType | None],
    lower: tuple[str, DType | None],
    when: str,
    isolated: frozenset[DType] = frozenset(),
) -> Stage[DType | None]:
    """A higher priority class's dtype, with a lower class's counted against it as ``when`` says.

    A lower class's dtype that differs from the higher one's counts whatever
    ``when`` says where one of the two is ``isolated``.
    """
    (hn, h), (ln, low) = high, lower
    if h is None or low is None:
        return h or low
    lone = next((d for d in (h, low) if d in isolated), None) if low is not h else None
    if lone is None and (
        when != "always" and (low.category == h.category or (low.category < h.category and when == "higher"))
    ):
        relation = "the same category as" if low.category == h.category else "a lower category than"
        yield f"the {_CLASS[ln]} ({low}) are of {relation} the {_CLASS[hn]} ({h}): they do not count"
        return h
    if lone is not None:
        reason = f"{lone} meets no other dtype"
    elif when == "always":
        reason = "this op counts them whatever their category"
    else:
        reason = f"their category is {'higher' if low.category > h.category else 'different'}"
    counted = f"the {_CLASS[ln]} ({low}) count against the {_CLASS[hn]} ({h}), as {reason}"
    found = cross.get((h, low))
    if found is None:
        raise _RefusalError("promotion", f"{counted}: the cross grid has no cell: refused")
    yield f"{counted}: the cross grid gives {found}"
    return found


def _promote_priority(policy: Policy, keys: Sequence[Key], family: Family | None) -> Stage[DType]:
    """Each priority class (n-d, 0-d arrays, Python scalars) folds; a lower one counts per ``cross_when``."""
    grid, grid_name = _array_grid(policy, family)
    zero_d = policy.zero_d if policy.zero_d is not None else policy.arrays
    scalars = [(r, policy.scalar_dtypes[r]) for d, r in keys if d is None]
    for r, d in scalars:
        yield f"{a_or_an(r)} counts as {d}"
    arrays = [(d, r) for d, r in keys if d is not None]
    nd = yield from _reduce(policy, grid, [d for d, r in arrays if r is Role.ND], grid_name)
    mid = yield from _reduce(policy, zero_d, [d for d, r in arrays if r is not Role.ND], "0-d")
    low = yield from _reduce(policy, zero_d, [d for _, d in scalars], "0-d")
    if nd is None and mid is None:
        if low is None or policy.scalars_alone == "refused":
            raise _RefusalError("scalars", _NO_ARRAY)
        yield "no operand is an array: the Python scalars give their promoted dtype"
        return low
    cross = policy.cross if policy.cross is not None else policy.arrays
    below = yield from _combine(cross, ("mid", mid), ("low", low), policy.cross_when)
    zero_d_when: str = (family and family.zero_d_cross_when) or policy.cross_when
    result = yield from _combine(
        cross,
        ("nd", nd),
        ("mid" if mid is not None else "low", below),
        zero_d_when if mid is not None else policy.cross_when,
        policy.isolated if mid is not None else frozenset(),
    )
    assert result is not None  # nd or mid is an array's dtype
    return result


def _promotion(policy: Policy, keys: Sequence[Key], family: Family | None = None) -> Stage[DType]:
    """The promoted dtype of operands under ``policy``'s roles, before any family rule.

    ``family`` contributes its ``arrays`` grid and ``zero_d_cross_when``, if set.
    """
    if policy.roles == "priority":
        return _promote_priority(policy, keys, family)
    return _promote_weak(policy, keys, family)


def _same_dtype(keys: Sequence[Key]) -> Stage[DType]:
    """A family that does not promote: one array dtype, and no Python scalar of a higher category."""
    arrays = {d for d, _ in keys if d is not None}
    if len(arrays) > 1:
        raise _RefusalError(
            "same_dtype", "this op family does not promote: array operands must share one dtype, refused"
        )
    if not arrays:
        raise _RefusalError("scalars", _NO_ARRAY)
    (dtype,) = arrays
    if any(d is None and CATEGORY[r.kind] > dtype.category for d, r in keys):
        raise _RefusalError(
            "promotion",
            f"this op family does not promote: a Python scalar above {dtype}'s category is refused",
        )
    yield f"this op family does not promote: every operand takes the array's dtype, {dtype}"
    return dtype


def _check_kinds(family: Family, keys: Sequence[Key]) -> None:
    """Refuse array operands, and Python scalars, of a kind the family does not take."""
    wrong = [d for d, _ in keys if d is not None and d.kind not in family.kinds]
    if wrong:
        raise _RefusalError(
            "kind", f"this op takes {_kinds(family.kinds)} arrays, and {wrong[0]} is not one: refused"
        )
    taken = family.scalar_kinds
    scalar = next((r for d, r in keys if d is None and taken is not None and r.kind not in taken), None)
    if scalar is not None:
        raise _RefusalError("kind", f"this op takes no {scalar}: refused")


def _own_cell(family: Family, keys: Sequence[Key]) -> Stage[DType | None]:
    """The family's own cell for one array with Python scalars, if it has one for each, the same."""
    arrays = [d for d, _ in keys if d is not None]
    roles = dict.fromkeys(r for d, r in keys if d is None)
    if len(arrays) != 1 or not roles:
        return None
    found = {family.scalars.get((arrays[0], r)) for r in roles}
    if len(found) != 1 or None in found:
        return None
    (dtype,) = found
    with_ = " and ".join(map(a_or_an, roles))
    yield f"this op has its own cell for {a_or_an(arrays[0])} array with {with_}: {dtype}"
    return dtype


def _cast(keys: Sequence[Key], how: str, complex_to_real: str = "refused") -> Stage[DType]:
    """A family that casts: the first operand's dtype, the other operands converted into it (``how``)."""
    dtype = keys[0][0]
    if dtype is None:
        raise _RefusalError("scalars", "this op casts into its first operand, which is no array: refused")
    if how == "category" and any(
        (CATEGORY[r.kind] > dtype.category) if d is None else (d.category != dtype.category) for d, r in keys
    ):
        raise _RefusalError("kind", f"this op casts only operands of {dtype}'s category into it: refused")
    if (
        dtype.kind in "iuf"
        and complex_to_real == "refused"
        and any(d is None and r is Role.COMPLEX for d, r in keys)
    ):
        raise _RefusalError(
            "kind", f"a Python complex does not convert to {dtype} (int() and float() of it raise): refused"
        )
    yield f"this op casts every operand into the first one's dtype, {dtype}"
    return dtype


def _as_arrays(policy: Policy, keys: Sequence[Key]) -> Stage[list[Key]]:
    """Every operand as an n-d array, a Python scalar as the policy's dtype for its kind."""
    mapped = [(d if d is not None else policy.scalar_dtypes.get(r), Role.ND) for d, r in keys]
    typed = [f"{a_or_an(r)} as {m}" for (d, r), (m, _) in zip(keys, mapped, strict=True) if d is None and m]
    yield "this op promotes every operand as an n-d array" + (f", {', '.join(typed)}" if typed else "")
    if any(d is None for d, _ in mapped):
        arrays = any(d is not None for d, _ in keys)
        raise _RefusalError(
            "scalars",
            "the policy gives Python scalars no dtype of their own: refused" if arrays else _NO_ARRAY,
        )
    return mapped


def _kernel_loop(policy: Policy, family: Family, keys: Sequence[Key], result: DType) -> Stage[DType]:
    """Where the kernel has no ``result`` loop, the operands go to the dtypes it has and promote again."""
    if result not in family.operand_map:
        return result
    mapped = [(family.operand_map.get(d or result, d or result), Role.ND) for d, _ in keys]
    yield (
        f"the kernel has no {result} loop: the operands go to "
        f"{' and '.join(str(d) for d, _ in mapped)} and promote again"
    )
    return (yield from _promotion(policy, mapped, family))


def _result(family: Family, result: DType) -> Stage[DType]:
    """The family's rules on the promoted dtype: its result map, the result kinds it has, bool results."""
    if result in family.result_map:
        yield f"this op gives {family.result_map[result]} where the operands promote to {result}"
        result = family.result_map[result]
    if result.kind not in (family.kinds if family.result_kinds is None else family.result_kinds):
        raise _RefusalError("kind", f"this op has no {result} result: refused")
    if family.result == "bool":
        yield f"the result is bool (compared in {result})"
        return bool_
    return result


def cell(policy: Policy, family: Family | None, keys: Sequence[Key]) -> Stage[DType]:
    """The stages that decide one cell: operands ``keys`` under ``family``'s rules of ``policy``.

    Run them with :func:`run`.  In order: the operands' kinds; the family's
    own cell for an array with a Python scalar, else (Python scalars as n-d
    arrays, for a ``strong`` family) the operands' promotion, or one shared
    dtype for a ``same_dtype`` family; the kernel's missing loops; the
    family's result rules.

    Parameters
    ----------
    policy
        The policy deciding.
    family
        The op family's rules under ``policy`` (``None``: the policy has no op of that family).
    keys
        Each operand's ``(dtype, role)``, ``dtype`` ``None`` for a Python scalar.

    Returns
    -------
    Stage
        The decision, not yet run.
    """
    if family is None:
        raise _RefusalError("kind", "the policy defines no op of this family: refused")
    _check_kinds(family, keys)
    if family.cast is not None:
        return (yield from _cast(keys, family.cast, family.complex_to_real))
    result = yield from _own_cell(family, keys)
    if result is None:
        if family.strong:
            keys = yield from _as_arrays(policy, keys)
        result = yield from (_same_dtype(keys) if family.same_dtype else _promotion(policy, keys, family))
    result = yield from _kernel_loop(policy, family, keys, result)
    return (yield from _result(family, result))


# --- compiled lookups --------------------------------------------------------------------

_KEYS: tuple[Key, ...] = tuple((d, r) for r in ARRAY_ROLES for d in DTYPES) + tuple(
    (None, r) for r in SCALAR_ROLES
)


@per_policy
def _table(
    policy: Policy, family_name: str
) -> dict[tuple[DType | None, Role, DType | None, Role], DType | Refusal]:
    family = policy.families.get(family_name)
    return {(a[0], a[1], b[0], b[1]): run(cell(policy, family, (a, b))).result for a in _KEYS for b in _KEYS}


@per_policy
def promoted_table(policy: Policy) -> dict[tuple[DType | None, Role, DType | None, Role], DType | Refusal]:
    """Per operand-key pair: the dtype plain promotion gives, before any op family's rule."""
    return {(a[0], a[1], b[0], b[1]): run(_promotion(policy, (a, b))).result for a in _KEYS for b in _KEYS}


@per_policy
def compute_table(
    policy: Policy, family_name: str
) -> dict[tuple[DType | None, Role, DType | None, Role], tuple[DType, DType] | Refusal]:
    """Per operand-key pair: ``(result dtype, dtype the kernel computes in)``, or a refusal.

    The two differ only for families returning ``bool`` (comparisons), which
    compare in the promoted dtype.
    """
    table = _table(policy, family_name)
    family = policy.families.get(family_name)
    if family is None or family.result != "bool":
        return {k: v if isinstance(v, Refusal) else (v, v) for k, v in table.items()}
    as_promoted = replace(family, result="promoted")
    return {
        k: v
        if isinstance(v, Refusal)
        else (v, run(cell(policy, as_promoted, ((k[0], k[1]), (k[2], k[3])))).result)  # type: ignore[misc]
        for k, v in table.items()
    }


@per_policy
def _decide_many(
    policy: Policy, family_name: str, keys: tuple[Key, ...]
) -> tuple[DType | Refusal, DType | Refusal]:
    """Any number of operands' cell and their plain promotion, as the tables hold them for two."""
    decided = run(cell(policy, policy.families.get(family_name), keys))
    return decided.result, run(_promotion(policy, keys)).result


#: The rules of a family without ``int_values`` of its own, by the policy's ``int_values``.
_DEFAULT_RULES: dict[str, Mapping[str, IntRule]] = {
    "wrap": {},
    "overflow": dict.fromkeys("biu", "fit"),
    "refuse": dict.fromkeys("biu", "fit"),
}


class IntLimits(NamedTuple):
    """What a Python int operand may be in one cell (see :func:`int_limits` and :func:`int_value`)."""

    rule: IntRule  #: the family's rule for the array operands' kind
    accepted: tuple[int, int] | None  #: the ints the framework converts at all; None: any
    fits: tuple[float, float] | None  #: the range the rule holds the int to; None: any
    dtype: DType  #: the dtype the int converts to
    integer: bool  #: the op gives a bool or integer result
    #: The ints that pass every check and that the kernel takes as they are (a two-operand cell's
    #: compute dtype holds them): no look at the rule is needed for them.
    plain: tuple[float, float]


def _value_range(dtype: DType, rule: IntRule) -> tuple[float, float] | None:
    """The values of ``dtype`` a Python int may have under ``rule`` (None: any, a bool takes ``bool(v)``)."""
    if dtype.kind in "iu":
        lo, hi = INT_RANGE[dtype]
        return (-hi, hi) if rule == "magnitude" and dtype.kind == "u" else (lo, hi)
    if dtype.kind in "fc":
        top = FLOAT_MAX[real_float(dtype)]
        return -top, top
    return None


@per_policy
def int_limits(policy: Policy, family_name: str, keys: tuple[Key | None, ...], index: int) -> IntLimits:
    """What the Python int at ``keys[index]`` may be in a cell of ``family_name`` under ``policy``.

    ``keys`` are the operands' ``(dtype, role)``, ``None`` for an absent one
    that holds a place (``clip``'s missing bound).  The family's rule is the
    one for the kind of the array operands' highest category (its
    ``int_right`` for the right operand of two); the int converts to the
    operands' plain promotion (the first operand's dtype where the family
    casts).  Under a policy whose ``int_values`` is ``"refuse"`` no rule
    wraps an int into a bool or integer result: ``"wrap"`` and
    ``"magnitude"`` hold it to the dtype's range there.
    """
    family = policy.families[family_name]
    present = tuple(k for k in keys if k is not None)
    decided = run(cell(policy, family, present)).result
    promoted = run(_promotion(policy, present)).result
    arrays = [d for d, _ in present if d is not None] or [promoted if isinstance(promoted, DType) else bool_]
    kind = max(arrays, key=lambda d: d.category).kind
    rules = family.int_right if len(keys) == 2 and index == 1 else None
    rules = rules if rules is not None else family.int_values
    rule = (rules if rules is not None else _DEFAULT_RULES[policy.int_values]).get(kind, "wrap")
    integer = isinstance(decided, DType) and decided.kind in "biu"
    if policy.int_values == "refuse" and integer and rule in ("wrap", "magnitude"):
        rule = _DEFAULT_RULES["refuse"].get(kind, rule)  # "refuse" lets no family wrap an int silently
    ranges = family.int_range if family.int_range is not None else policy.int_range
    if len(keys) == 2 and index == 0 and family.int_range_left is not None:
        ranges = family.int_range_left
    dtype = arrays[0] if family.cast is not None or not isinstance(promoted, DType) else promoted
    fits = None if rule == "wrap" else _value_range(dtype, rule)
    accepted = ranges.get(kind)
    plain = (-math.inf, math.inf) if len(present) == 2 else (0, -1)
    negative = (0, math.inf) if rule == "non-negative" and integer else None
    for bounds in (accepted, fits, negative, _unconverted(policy, family_name, present)):
        if bounds is not None:
            plain = (max(plain[0], bounds[0]), min(plain[1], bounds[1]))
    return IntLimits(rule, accepted, fits, dtype, integer, plain)


def _unconverted(policy: Policy, family_name: str, keys: tuple[Key, ...]) -> tuple[float, float] | None:
    """The Python ints the kernel of a two-operand cell takes as they are, in the dtype it computes in.

    An integer dtype's range; for a floating one, the ints within int64 it
    does not round to infinity; none for bool (``bool(v)`` converts them).
    """
    if len(keys) != 2:
        return None
    decided = compute_table(policy, family_name)[(keys[0][0], keys[0][1], keys[1][0], keys[1][1])]
    if isinstance(decided, Refusal) or decided[1].kind == "b":
        return (0, -1)
    compute = decided[1]
    if compute.kind in "iu":
        return INT_RANGE[compute]
    top = min(FLOAT_OVERFLOW[real_float(compute)] - 1, 2**63 - 1)
    return (-top, top)


def int_value(policy: Policy, op: str, operands: Sequence[Operand | None], index: int) -> int | float | None:
    """What the Python int ``operands[index]`` stands for in ``op`` under ``policy``, checked.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        The op, whose family's ``int_values`` and ``int_range`` apply.
    operands
        The op's operands in order; ``None`` holds the place of an absent one
        (``clip``'s missing bound).
    index
        The position of the Python int.

    Returns
    -------
    int or float or None
        The int itself, which the plan converts into the dtype the op computes
        in (modulo ``2**bits`` into an integer); ``math.inf`` or ``-math.inf``
        where the op compares exactly with an int beyond the dtype (rule
        ``"exact"``: the comparison then runs with that infinity); None where
        ``clip`` drops the bound (rule ``"bounds"``).

    Raises
    ------
    OverflowError
        The int is outside what the policy takes there (``PromotionError``
        under a policy whose ``int_values`` is ``"refuse"``).
    ValueError
        A negative exponent of an integer power (rule ``"non-negative"``).
    """
    value: int = operands[index].value  # type: ignore[union-attr,assignment]
    keys = tuple(None if o is None else (o.dtype, o.role) for o in operands)
    limits = int_limits(policy, family_name(policy, op), keys, index)
    return checked_int(policy, op, limits, value, index)


def checked_int(policy: Policy, op: str, limits: IntLimits, value: int, index: int) -> int | float | None:
    """:func:`int_value` of ``value`` at ``index``, with the cell's ``limits`` already looked up."""
    accepted = limits.accepted
    if accepted is not None and not accepted[0] <= value <= accepted[1]:
        _int_error(
            policy,
            f"Python int {value} is out of range for {op!r}: it takes Python ints in "
            f"{accepted[0]}..{accepted[1]}",
            _as_float_fix(policy, op, value),
        )
    fits = limits.fits
    if fits is None:
        return value
    lo, hi = fits
    if limits.rule == "non-negative" and value < 0 and limits.integer:
        raise ValueError(
            f"policy {policy.name!r} refuses {op!r} of {a_or_an(limits.dtype)} array with the Python int "
            f"{value}: integers to negative integer powers are not allowed ({policy.reference}). Fix: "
            f"cast the array to a floating dtype first, e.g. xp.astype(x, xp.float64) ** {value}."
        )
    if lo <= value <= hi:
        return value
    if limits.rule == "exact":
        return math.inf if value > hi else -math.inf
    if limits.rule == "bounds" and (value < lo) == (index == 1):
        return None
    shown = f"{lo:g}..{hi:g}" if isinstance(lo, float) else f"{lo}..{hi}"
    wider = holding(value, limits.dtype)
    if op == "setitem" or policy.families[family_name(policy, op)].cast is not None:  # x keeps its dtype
        fix = (
            f"Fix: the array keeps its dtype, {limits.dtype}; cast it to one that holds {value} first, "
            f"e.g. x = xp.astype(x, xp.{wider})."
        )
    else:
        fix = f"Fix: cast the array operand to a dtype that holds {value} first: xp.astype(x, xp.{wider})."
    _int_error(policy, f"Python int {value} is out of range for {limits.dtype} ({shown}) in {op!r}", fix)


def checked_float(policy: Policy, op: str, value: float, dtype: DType) -> float:
    """Python float ``value`` converted into integer ``dtype`` by ``op``'s cast: checked, never wrapped.

    Raises
    ------
    ValueError
        ``value`` is NaN.
    OverflowError
        ``value`` (``"within"``) or its integer part (``"truncated"``) is beyond ``dtype``.
    """
    family = policy.families.get(family_name(policy, op))
    rule = family.float_values if family is not None else "truncated"
    lo, hi = INT_RANGE[dtype]
    if math.isnan(value):
        raise ValueError(
            f"{op!r} cannot convert the Python float NaN into {a_or_an(dtype)} array under policy "
            f"{policy.name!r}; an integer has no NaN. Fix: a float array holds it, e.g. "
            "xp.astype(x, xp.float64)."
        )
    fits = lo <= value <= hi if rule == "within" else math.isfinite(value) and lo <= math.trunc(value) <= hi
    if not fits:
        raise OverflowError(
            f"Python float {value!r} is out of range for {dtype} ({lo}..{hi}) in {op!r} under policy "
            f"{policy.name!r} ({policy.reference}): it would not be written as it is. Fix: write a value "
            f"the dtype holds, or cast the array to a float dtype first, e.g. xp.astype(x, xp.float64)."
        )
    return value


def checks_inexact(policy: Policy, family_name: str, dtype: DType, role: Role, index: int) -> bool:
    """Whether a Python float or complex (``role``) at ``index``, converting to ``dtype``, is checked.

    See :attr:`Family.float_fits` and :attr:`Family.complex_to_real`.
    """
    family = policy.families.get(family_name)
    if family is None or role not in (Role.FLOAT, Role.COMPLEX):
        return False
    if role is Role.COMPLEX and dtype.kind in "iuf" and family.complex_to_real == "zero_imag":
        return True
    fits = (
        family.float_fits_right if index == 1 and family.float_fits_right is not None else family.float_fits
    )
    return dtype in fits


def checked_inexact(
    policy: Policy, op: str, value: float | complex, dtype: DType, index: int
) -> float | complex:
    """Python float or complex ``value`` at ``index`` of ``op``, converting to ``dtype``, checked.

    A float into an integer dtype is :func:`checked_float`'s; into a floating
    one, it must fit where the family's ``float_fits`` says; a complex into a
    real dtype must have no imaginary part where ``complex_to_real`` takes it.

    Raises
    ------
    OverflowError
        The value does not convert to ``dtype`` under the policy.
    ValueError
        A NaN into an integer dtype.
    """
    name = family_name(policy, op)
    if (
        value.__class__ is complex
        and dtype.kind in "iuf"
        and checks_inexact(policy, name, dtype, Role.COMPLEX, index)
    ):
        if value.imag != 0:
            raise OverflowError(
                f"Python complex {value!r} does not convert to {dtype} in {op!r} under policy "
                f"{policy.name!r} ({policy.reference}): its imaginary part is not 0. Fix: pass its real "
                f"part, or cast the array to a complex dtype first, e.g. xp.astype(x, xp.complex64)."
            )
        value = value.real
    if value.__class__ is float and dtype.kind in "iu":
        return checked_float(policy, op, value, dtype)
    if value.__class__ is float and checks_inexact(policy, name, dtype, Role.FLOAT, index):
        top = FLOAT_MAX[real_float(dtype)]
        if math.isfinite(value) and abs(value) > top:
            raise OverflowError(
                f"Python float {value!r} is out of range for {dtype} (-{top:g}..{top:g}) in {op!r} under "
                f"policy {policy.name!r} ({policy.reference}). Fix: pass a value the dtype holds, or cast "
                f"the array to a wider float first, e.g. xp.astype(x, xp.float64)."
            )
    return value


def _as_float_fix(policy: Policy, op: str, value: int) -> str:
    """The fix for a Python int the framework cannot convert at all: a Python float, into a float array."""
    if op == "setitem" or policy.families[family_name(policy, op)].cast is not None:  # x keeps its dtype
        return (
            f"Fix: write it as a Python float into an array of a floating dtype, e.g. "
            f"x = xp.astype(x, xp.float64), then pass {float(value)!r}."
        )
    return (
        f"Fix: pass it as a Python float, {float(value)!r}, with an array of a floating dtype, e.g. "
        "xp.astype(x, xp.float64)."
    )


def _int_error(policy: Policy, what: str, fix: str) -> NoReturn:
    """Raise the policy's error for a Python int value it refuses: ``what`` is wrong, and the ``fix``."""
    msg = f"{what} under policy {policy.name!r} ({policy.reference}). {fix}"
    if policy.int_values == "refuse":
        raise PromotionError(msg)
    raise OverflowError(msg)


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
    ra, rb = a.role, b.role
    if inplace and policy.inplace_as_nd:
        ra = Role.ND if ra in policy.inplace_as_nd else ra
        rb = Role.ND if rb in policy.inplace_as_nd else rb
    result = _table(policy, family)[(a.dtype, ra, b.dtype, rb)]
    if isinstance(result, Refusal):
        raise _error(policy, op, family, (a, b), result)
    for i, o in enumerate((a, b)):
        if o.role is Role.INT and o.value.__class__ is int:
            int_value(policy, op, (a, b), i)
        elif o.dtype is None and o.value.__class__ in (float, complex):
            _check_inexact(policy, op, family, (a, b), result, index=i)
    if inplace:
        return _inplace(policy, op, a, b, result)
    return result


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
    return _table(policy, family_name(policy, "result_type"))[(source, Role.ND, target, Role.ND)] is target


def _inplace(policy: Policy, op: str, a: Operand, b: Operand, result: DType) -> DType:
    left = a.dtype
    if left is None:
        raise TypeError(f"in-place {op!r} needs an array on the left, got {a.describe()}")
    if not _casts(policy.inplace, result, left):
        raise PromotionError(
            f"policy {policy.name!r} refuses in-place {op!r}: x1 is {a.describe()}, x2 is "
            f"{b.describe()}, and the result would be {result}, which the policy does not cast "
            f"back to {left} (an in-place op never changes x1's dtype). x1 is unchanged. "
            f"Fix: x1 = xp.{op}(x1, x2) for a new {result} array, or cast x2 to {left} first: "
            f"xp.astype(x2, xp.{left})."
        )
    return left


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


def _check_inexact(
    policy: Policy, op: str, name: str, operands: Sequence[Operand | None], result: DType, *, index: int
) -> None:
    """:func:`checked_inexact` of the Python float or complex ``operands[index]`` where the family checks it.

    It converts to the first operand's dtype where the family casts, else to ``result``.
    """
    family = policy.families.get(name)
    first = operands[0].dtype if operands[0] is not None else None
    dtype = first if family is not None and family.cast is not None and first is not None else result
    o = operands[index]
    assert o is not None  # a Python scalar's place
    if checks_inexact(policy, name, dtype, o.role, index):
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


def accumulation_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The dtype ``op`` (``sum``/``prod``/``cumulative_sum``/``cumulative_prod``) accumulates ``dtype`` in.

    Raises
    ------
    PromotionError
        The policy's reductions do not take ``dtype``'s kind.
    """
    if dtype.kind not in policy.accumulate_kinds:
        allowed = _kinds(policy.accumulate_kinds)
        takes = [d for d in DTYPES if d.kind in policy.accumulate_kinds]
        fix = (
            f"cast explicitly first, e.g. {op}(xp.astype(x, xp.{cast_target(dtype, takes)}))"
            if takes
            else "switch policy with promo_ns.policy(...)"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes {allowed} arrays "
            f"({policy.reference}). Fix: {fix}."
        )
    return policy.accumulate_ops.get(op, policy.accumulate).get(dtype, dtype)


#: The significand bits of each floating dtype: the integers it holds exactly.
_SIGNIFICAND = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53, "complex64": 24, "complex128": 53}


def _holds(target: DType, dtype: DType) -> bool:
    """Whether every value of ``dtype`` converts to ``target`` exactly."""
    if dtype.kind == "b" or target is dtype:
        return True
    if dtype.kind in "iu":
        lo, hi = INT_RANGE[dtype]
        if target.kind in "iu":
            return INT_RANGE[target][0] <= lo and hi <= INT_RANGE[target][1]
        return target.kind in "fc" and 2 ** _SIGNIFICAND[target.name] >= max(-lo, hi)
    return target.category >= dtype.category and _SIGNIFICAND[target.name] >= _SIGNIFICAND[dtype.name]


def cast_target(dtype: DType, takes: Sequence[DType]) -> DType:
    """The dtype of ``takes`` to suggest casting a ``dtype`` array to, where a function refuses ``dtype``.

    The narrowest one of the same or a higher category that holds every
    value of ``dtype`` exactly (a float at least float32), real for a real
    input; else the widest real one, else the widest.
    """
    real = [d for d in takes if d.kind != "c" or dtype.kind == "c"] or list(takes)
    ranked = sorted((d for d in real if d.category >= dtype.category), key=lambda d: (d.category, d.bits))
    for target in ranked:
        if _holds(target, dtype) and (target.kind not in "fc" or real_float(target).bits >= 32):
            return target
    return ranked[-1] if ranked else real[-1]


def delegated_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The dtype ``policy`` gives the function ``op`` of :data:`~promo_ns._ops.DELEGATED_DTYPES` of ``dtype``.

    The policy's ``delegated`` table where it has the cell, else the
    standard's: ``conj`` and ``bitwise_invert`` keep ``dtype``, ``real`` and
    ``imag`` give its real dtype, the others bool.  Every backend's result is
    cast to it: one policy, one dtype (NumPy's ``conj`` of bool is int8,
    torch's and JAX's bool).

    Raises
    ------
    PromotionError
        The policy refuses ``op`` on ``dtype`` (its framework raises there).
    """
    found = policy.delegated.get((op, dtype), _STANDARD)
    if found is None:
        takes = sorted({d for (f, d), r in policy.delegated.items() if f == op and r}, key=DTYPES.index)
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes "
            f"{', '.join(map(str, takes)) or 'no'} arrays ({policy.reference}). Fix: cast explicitly "
            f"first, e.g. {op}(xp.astype(x, xp.{takes[-1] if takes else 'complex64'}))."
        )
    if found is not _STANDARD:
        return found  # type: ignore[return-value]
    if op in ("conj", "bitwise_invert"):
        return dtype
    return real_float(dtype) if op in ("real", "imag") else bool_


#: A cell missing from a policy's ``delegated`` table: the standard's dtype.
_STANDARD = object()


def function_dtype(policy: Policy, op: str, dtype: DType) -> DType:
    """The result dtype of the one-array function ``op`` (``log``, ``mean``, ``linalg.inv``) of ``dtype``.

    Raises
    ------
    PromotionError
        The policy refuses ``op`` on ``dtype`` (its framework raises there).
    """
    family = FUNCTION_FAMILY[op]
    found = policy.functions.get((family, dtype))
    if found is None:
        takes = sorted({d for f, d in policy.functions if f == family}, key=DTYPES.index)
        fix = (
            f"cast explicitly first, e.g. {op}(xp.astype(x, xp.{cast_target(dtype, takes)}))"
            if takes
            else "switch policy with promo_ns.policy(...)"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): its {family!r} functions take "
            f"{', '.join(map(str, takes)) or 'no'} arrays ({policy.reference}). Fix: {fix}."
        )
    return found


def check_input_kind(policy: Policy, op: str, dtype: DType) -> None:
    """Refuse ``op`` (of :data:`promo_ns._ops.INPUT_KIND_OPS`) of a ``dtype`` array if ``policy`` does.

    Raises
    ------
    PromotionError
        ``policy.input_kinds`` gives ``op`` no array of ``dtype``'s kind.
    """
    kinds = policy.input_kinds.get(op)
    if kinds is not None and dtype.kind not in kinds:
        # the nearest dtype the op takes: a float for a float or complex array, else an integer
        nearest = (float64, int64) if dtype.kind in "fc" else (int64, float64)
        target = next(d for d in (*nearest, complex128, bool_) if d.kind in kinds)
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes {_kinds(kinds)} arrays "
            f"({policy.reference}). Fix: cast explicitly first, e.g. {op}(xp.astype(x, xp.{target}))."
        )


def check_astype(policy: Policy, dtype: DType, target: DType) -> None:
    """Refuse ``astype`` of a ``dtype`` array to ``target`` where ``policy.astype_kinds`` does.

    Raises
    ------
    PromotionError
        The policy casts no array of ``dtype``'s kind to ``target``'s.
    """
    kinds = policy.astype_kinds.get(dtype.kind)
    if kinds is not None and target.kind not in kinds:
        fix = (
            f"keep the real part first, xp.astype(xp.real(x), xp.{target}), or the magnitude, xp.abs(x)"
            if dtype.kind == "c" and target.kind != "b"
            else "compare explicitly, e.g. x != 0 for a bool array"
            if target.kind == "b"
            else f"cast to a {_kinds(kinds)} dtype"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses astype(x: {dtype} array, {target}): it casts {dtype} only "
            f"to {_kinds(kinds)} dtypes ({policy.reference}). Fix: {fix}."
        )


# --- messages ----------------------------------------------------------------------------


def describe_call(op: str, operands: Sequence[Operand]) -> str:
    """``"add(x1: int8 (n-d array), x2: 1.5 (Python float))"``, ``"log(x: int8 (n-d array))"``: a call."""
    names = ["x"] if len(operands) == 1 else [f"x{i + 1}" for i in range(len(operands))]
    return f"{op}({', '.join(f'{n}: {o.describe()}' for n, o in zip(names, operands, strict=True))})"


def _fix(policy: Policy, op: str, family: str, operands: Sequence[Operand]) -> str:
    """An explicit cast that makes the op valid under ``policy``, in words."""
    arrays = [(i, o) for i, o in enumerate(operands) if o.dtype is not None]
    if not arrays:
        return "Fix: make one operand an array first, e.g. xp.asarray(x1)."
    taken = policy.families[family].scalar_kinds if family in policy.families else None
    for i, o in enumerate(operands):
        if o.dtype is None and taken is not None and o.role.kind not in taken:
            value = f"{o.value!r}" if o.value is not None else f"the {o.role}"
            return f"Fix: {op!r} takes no {o.role} here; pass {value} as an int or float, e.g. x{i + 1}=1."
    # Operand order among equal categories: a set's order would change with the hash seed.
    dtypes = dict.fromkeys(o.dtype for _, o in arrays if o.dtype is not None)
    targets = sorted(dtypes, key=lambda d: -d.category)
    scalar_kinds = [o.role.kind for o in operands if o.dtype is None]
    for kind in scalar_kinds:
        default = policy.defaults.get(_DEFAULT_OF[kind])
        if default is not None and default not in targets:
            targets.append(default)
    holder = _int_holder(list(dtypes))  # integers: first a dtype that holds every operand's values
    wrapping = ""  # a cast that would wrap an integer operand's values: suggested only if nothing else works
    ints = [d for d in dtypes if d.kind in "iu"]
    for target in targets if holder is None else [holder, *targets]:
        trial = [Operand(target, Role.ND) if o.dtype is not None else o for o in operands]
        decided = run(cell(policy, policy.families.get(family), [(o.dtype, o.role) for o in trial]))
        if not isinstance(decided.result, Refusal):
            casts = [f"xp.astype(x{i + 1}, xp.{target})" for i, o in arrays if o.dtype is not target]
            if casts and target.kind in "biu" and not all(_holds(target, d) for d in ints):
                wrapping = wrapping or f"Fix: cast explicitly, e.g. {' and '.join(casts)}."
            elif casts:
                return f"Fix: cast explicitly, e.g. {' and '.join(casts)}."
    if wrapping:
        return wrapping
    kinds = policy.families[family].kinds if family in policy.families else ""
    if kinds:
        return f"Fix: {op!r} takes {_kinds(kinds)} operands under this policy; cast with xp.astype first."
    return f"Fix: {op!r} is not available under this policy; switch policy with promo_ns.policy(...)."


def _int_holder(dtypes: Sequence[DType]) -> DType | None:
    """The narrowest integer dtype that holds every value of ``dtypes``, all bool or integer; else None."""
    if not dtypes or any(d.kind not in "biu" for d in dtypes):
        return None
    holders = [d for d in DTYPES if d.kind in "iu" and all(_holds(d, x) for x in dtypes)]
    return min(holders, key=lambda d: (d.bits, d.kind != "u"), default=None)


def _error(
    policy: Policy, op: str, family: str, operands: Sequence[Operand], refusal: Refusal
) -> PromotionError:
    what = {
        "kind": f"{op!r} does not accept these operand kinds",
        "same_dtype": f"{op!r} does not promote arrays of different dtypes",
        "promotion": "no promotion is defined for these operand dtypes",
        "scalars": "at least one operand must be an array",
    }[refusal.why]
    return PromotionError(
        f"policy {policy.name!r} refuses {describe_call(op, operands)}: {what} "
        f"({policy.reference}). {_fix(policy, op, family, operands)}"
    )
