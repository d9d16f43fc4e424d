"""The promotion engine: policy data in, result dtypes (or reasons to refuse) out.

A policy is compiled once per op family into a dense dict keyed by the two
operands' ``(dtype, role)`` pairs (``dtype`` is ``None`` for Python scalars),
so answering a binary op is one dict lookup.  The lookup holds either a
:class:`~promo_ns._dtypes.DType` or a :class:`Refusal`; a refusal becomes a
:class:`PromotionError` naming the policy, the op, the operands and a fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache
from typing import NamedTuple

from promo_ns._dtypes import CATEGORY, DTYPES, INT_RANGE, DType, bool_
from promo_ns._ops import FUNCTION_FAMILY, family_of
from promo_ns.policies._model import ARRAY_ROLES, SCALAR_ROLES, Family, Grid, Policy, Role

__all__ = [
    "Explanation",
    "Operand",
    "PromotionError",
    "accumulation_dtype",
    "compute_table",
    "explain",
    "family_name",
    "function_dtype",
    "operand",
    "promoted_table",
    "resolve",
    "resolve_many",
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


# --- promotion over the policy's roles -------------------------------------------------
#
# Every function below takes ``notes``: ``None`` when compiling tables, a list
# when :func:`explain` wants the rule that decided, in words.

Notes = list[str] | None
_NO_ARRAY = "no operand is an array, and Python scalars alone have no dtype: refused"


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


def _fold(
    grid: Grid, dtypes: Iterable[DType], notes: Notes = None, grid_name: str = ""
) -> DType | Refusal | None:
    result: DType | None = None
    for d in dtypes:
        if result is d and notes is not None:
            notes.append(f"{d} with {d} is {d}")
        if result is None or result is d:
            result = d
            continue
        found = grid.get((result, d))
        if notes is not None:
            notes.append(
                f"the {grid_name} grid has no cell for {result} with {d}: refused"
                if found is None
                else f"the {grid_name} grid gives {found} for {result} with {d}"
            )
        if found is None:
            return Refusal("promotion")
        result = found
    return result


def _promote_weak(
    policy: Policy, keys: Sequence[Key], family: Family | None, notes: Notes
) -> DType | Refusal:
    arrays = [d for d, r in keys if d is not None]
    if not arrays:
        if notes is not None:
            notes.append(_NO_ARRAY)
        return Refusal("scalars")
    own = family is not None and family.arrays is not None
    grid = family.arrays if family is not None and family.arrays is not None else policy.arrays
    result = _fold(grid, arrays, notes, "op family's array" if own else "array")
    if not isinstance(result, DType):
        return result or Refusal("scalars")
    for d, role in keys:
        if d is None:
            found = policy.scalars.get((result, role))
            if notes is not None:
                notes.append(
                    f"the scalar grid has no cell for {result} with a {role}: refused"
                    if found is None
                    else f"the scalar grid gives {found} for {result} with a {role}"
                )
            if found is None:
                return Refusal("promotion")
            result = found
    return result


_CLASS = {"nd": "n-d arrays", "mid": "0-d arrays", "low": "Python scalars"}


def _promote_priority(
    policy: Policy, keys: Sequence[Key], family: Family | None, notes: Notes
) -> DType | Refusal:
    cross = policy.cross if policy.cross is not None else policy.arrays
    zero_d = policy.zero_d if policy.zero_d is not None else policy.arrays
    grid = policy.arrays if family is None or family.arrays is None else family.arrays
    zero_d_when: str = (family and family.zero_d_cross_when) or policy.cross_when
    scalars = [(r, policy.scalar_dtypes[r]) for d, r in keys if d is None]
    if notes is not None:
        notes.extend(f"a {r} counts as {d}" for r, d in scalars)
    own = family is not None and family.arrays is not None
    nd = _fold(
        grid,
        [d for d, r in keys if r is Role.ND and d is not None],
        notes,
        "op family's array" if own else "array",
    )
    mid = _fold(zero_d, [d for d, r in keys if r is not Role.ND and d is not None], notes, "0-d")
    low = _fold(zero_d, [d for _, d in scalars], notes, "0-d")
    if isinstance(nd, Refusal):
        return nd
    if isinstance(mid, Refusal):
        return mid
    if isinstance(low, Refusal):
        return low
    if nd is None and mid is None:
        if notes is not None:
            notes.append(_NO_ARRAY)
        return Refusal("scalars")

    def combine(
        high: tuple[str, DType | None], lower: tuple[str, DType | None], when: str
    ) -> DType | Refusal | None:
        (hn, h), (ln, low_) = high, lower
        if h is None or low_ is None:
            return h or low_
        if when != "always" and (
            low_.category == h.category or (low_.category < h.category and when == "higher")
        ):
            if notes is not None:
                relation = "the same category as" if low_.category == h.category else "a lower category than"
                notes.append(
                    f"the {_CLASS[ln]} ({low_}) are of {relation} the {_CLASS[hn]} ({h}): they do not count"
                )
            return h
        found = cross.get((h, low_))
        if notes is not None:
            reason = (
                "this op counts them whatever their category"
                if when == "always"
                else f"their category is {'higher' if low_.category > h.category else 'different'}"
            )
            notes.append(
                f"the {_CLASS[ln]} ({low_}) count against the {_CLASS[hn]} ({h}), as {reason}: "
                + (f"the cross grid gives {found}" if found else "the cross grid has no cell: refused")
            )
        return found or Refusal("promotion")

    below = combine(("mid", mid), ("low", low), policy.cross_when)
    if isinstance(below, Refusal):
        return below
    result = combine(
        ("nd", nd),
        ("mid" if mid is not None else "low", below),
        zero_d_when if mid is not None else policy.cross_when,
    )
    assert result is not None
    return result


def promote(
    policy: Policy, keys: Sequence[Key], *, family: Family | None = None, notes: Notes = None
) -> DType | Refusal:
    """The promoted dtype of operands under ``policy``'s roles, before any family rule.

    ``family`` contributes its ``arrays`` grid and ``zero_d_cross_when``, if set;
    ``notes``, if a list, receives each step of the decision in words.
    """
    if policy.roles == "priority":
        return _promote_priority(policy, keys, family, notes)
    return _promote_weak(policy, keys, family, notes)


def _same_dtype(keys: Sequence[Key], notes: Notes) -> DType | Refusal:
    arrays = {d for d, _ in keys if d is not None}
    if len(arrays) > 1:
        if notes is not None:
            notes.append("this op family does not promote: array operands must share one dtype, refused")
        return Refusal("same_dtype")
    (dtype,) = arrays or (None,)
    if dtype is None:
        if notes is not None:
            notes.append(_NO_ARRAY)
        return Refusal("scalars")
    if any(d is None and CATEGORY[r.kind] > dtype.category for d, r in keys):
        if notes is not None:
            notes.append(
                f"this op family does not promote: a Python scalar above {dtype}'s category is refused"
            )
        return Refusal("promotion")
    if notes is not None:
        notes.append(f"this op family does not promote: every operand takes the array's dtype, {dtype}")
    return dtype


def _scalar_cell(family: Family, keys: Sequence[Key]) -> DType | None:
    """The family's own cell for one array with one Python scalar, if it has one."""
    if len(keys) != 2:
        return None
    (d1, r1), (d2, r2) = keys
    if d1 is not None and d2 is None:
        return family.scalars.get((d1, r2))
    if d1 is None and d2 is not None:
        return family.scalars.get((d2, r1))
    return None


def _cell(policy: Policy, family: Family | None, keys: Sequence[Key], notes: Notes = None) -> DType | Refusal:
    if family is None:
        if notes is not None:
            notes.append("the policy defines no op of this family: refused")
        return Refusal("kind")
    wrong = [d for d, _ in keys if d is not None and d.kind not in family.kinds]
    if wrong:
        if notes is not None:
            notes.append(f"this op takes {_kinds(family.kinds)} arrays, and {wrong[0]} is not one: refused")
        return Refusal("kind")
    result: DType | Refusal | None = _scalar_cell(family, keys) if family.scalars else None
    if result is not None and notes is not None:
        array, role = next(d for d, _ in keys if d is not None), next(r for d, r in keys if d is None)
        notes.append(f"this op has its own cell for a {array} array with a {role}: {result}")
    if result is None:
        if family.strong:
            mapped = [(d if d is not None else policy.scalar_dtypes.get(r), Role.ND) for d, r in keys]
            if notes is not None:
                typed = [
                    f"a {r} as {m}" for (d, r), (m, _) in zip(keys, mapped, strict=True) if d is None and m
                ]
                notes.append(
                    "this op promotes every operand as an n-d array"
                    + (f", {', '.join(typed)}" if typed else "")
                )
            if any(d is None for d, _ in mapped):
                if notes is not None:
                    arrays = any(d is not None for d, _ in keys)
                    notes.append(
                        "the policy gives Python scalars no dtype of their own: refused"
                        if arrays
                        else _NO_ARRAY
                    )
                return Refusal("scalars")
            keys = mapped
        result = (
            _same_dtype(keys, notes)
            if family.same_dtype
            else promote(policy, keys, family=family, notes=notes)
        )
    if isinstance(result, Refusal):
        return result
    if result in family.operand_map:
        mapped = [(family.operand_map.get(d or result, d or result), Role.ND) for d, _ in keys]
        if notes is not None:
            notes.append(
                f"the kernel has no {result} loop: the operands go to "
                f"{' and '.join(str(d) for d, _ in mapped)} and promote again"
            )
        result = promote(policy, mapped, family=family, notes=notes)
        if isinstance(result, Refusal):
            return result
    if result in family.result_map:
        if notes is not None:
            notes.append(f"this op gives {family.result_map[result]} where the operands promote to {result}")
        result = family.result_map[result]
    if result.kind not in (family.kinds if family.result_kinds is None else family.result_kinds):
        if notes is not None:
            notes.append(f"this op has no {result} result: refused")
        return Refusal("kind")
    if family.result == "bool":
        if notes is not None:
            notes.append(f"the result is bool (compared in {result})")
        return bool_
    return result


# --- compiled lookups --------------------------------------------------------------------

_KEYS: tuple[Key, ...] = tuple((d, r) for r in ARRAY_ROLES for d in DTYPES) + tuple(
    (None, r) for r in SCALAR_ROLES
)


@cache
def _table(
    policy: Policy, family_name: str
) -> dict[tuple[DType | None, Role, DType | None, Role], DType | Refusal]:
    family = policy.families.get(family_name)
    return {(a[0], a[1], b[0], b[1]): _cell(policy, family, (a, b)) for a in _KEYS for b in _KEYS}


@cache
def promoted_table(policy: Policy) -> dict[tuple[DType | None, Role, DType | None, Role], DType | Refusal]:
    """Per operand-key pair: the dtype plain promotion gives, before any op family's rule."""
    return {(a[0], a[1], b[0], b[1]): promote(policy, (a, b)) for a in _KEYS for b in _KEYS}


@cache
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
        k: v if isinstance(v, Refusal) else (v, _cell(policy, as_promoted, ((k[0], k[1]), (k[2], k[3]))))  # type: ignore[misc]
        for k, v in table.items()
    }


def _check_int_value(policy: Policy, op: str, operands: Sequence[Operand], promoted: DType) -> None:
    if policy.int_values == "wrap" or promoted.kind not in "iu":
        return
    lo, hi = INT_RANGE[promoted]
    for o in operands:
        if o.role is Role.INT and isinstance(o.value, int) and not lo <= o.value <= hi:
            msg = (
                f"Python int {o.value} is out of range for {promoted} ({lo}..{hi}) in {op!r} "
                f"under policy {policy.name!r}. Pass it as an array of a wider dtype, e.g. "
                f"xp.asarray({o.value}, dtype=xp.int64), or cast the array operand first."
            )
            if policy.int_values == "overflow":
                raise OverflowError(msg)
            raise PromotionError(msg)


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
    if policy.int_values != "wrap" and (a.role is Role.INT or b.role is Role.INT):
        promoted = promoted_table(policy)[(a.dtype, ra, b.dtype, rb)]
        assert isinstance(promoted, DType)
        _check_int_value(policy, op, (a, b), promoted)
    if inplace:
        return _inplace(policy, op, a, b, result)
    return result


def _inplace(policy: Policy, op: str, a: Operand, b: Operand, result: DType) -> DType:
    left = a.dtype
    if left is None:
        raise TypeError(f"in-place {op!r} needs an array on the left, got {a.describe()}")
    if policy.inplace == "same":
        ok = result is left
    elif policy.inplace == "category":
        ok = result.category <= left.category
    else:
        ok = _KIND_ORDER.index(result.kind) <= _KIND_ORDER.index(left.kind)
    if not ok:
        raise PromotionError(
            f"policy {policy.name!r} refuses in-place {op!r}: x1 is {a.describe()}, x2 is "
            f"{b.describe()}, and the result would be {result}, which the policy does not cast "
            f"back to {left} (an in-place op never changes x1's dtype). x1 is unchanged. "
            f"Fix: x1 = xp.{op}(x1, x2) for a new {result} array, or cast x2 to {left} first: "
            f"xp.astype(x2, xp.{left})."
        )
    return left


def _roles(policy: Policy, family: Family | None) -> str:
    """The policy's role model, in words, with ``family``'s override of it."""
    if policy.roles == "weak-scalars":
        return (
            "every array counts with its own dtype, 0-d arrays and NumPy scalars too; "
            "a Python scalar is weak: it adapts to the arrays' dtype through the scalar grid"
        )
    text = (
        "operands rank in priority classes, n-d arrays above 0-d arrays above Python scalars; a lower "
        f"class counts only when its category (bool < integer < float < complex) is {policy.cross_when}"
    )
    when = family.zero_d_cross_when if family is not None else None
    if when is not None and when != policy.cross_when:
        text += "; for this op, 0-d arrays count against n-d arrays " + (
            "whatever their category" if when == "always" else f"when their category is {when}"
        )
    return text


class Explanation(NamedTuple):
    """What :func:`explain` found: the answer, and the rule that gave it, step by step."""

    policy: Policy
    op: str
    operands: tuple[Operand, ...]
    result: DType | None
    error: Exception | None
    steps: tuple[str, ...]

    def __str__(self) -> str:
        call = f"{self.op}({_names(self.operands)})"
        answer = f"-> {self.result}" if self.error is None else f"-> refused ({type(self.error).__name__})"
        lines = [f"policy {self.policy.name!r} ({self.policy.reference}): {call} {answer}"]
        lines += [f"  {i}. {step}" for i, step in enumerate(self.steps, 1)]
        if self.error is not None:
            lines.append(f"  {self.error}")
        return "\n".join(lines)


def explain(policy: Policy, op: str, a: Operand, b: Operand) -> Explanation:
    """The result of binary ``op`` on ``a`` and ``b`` under ``policy``, with the rule that decided.

    The steps come from the same functions that compile the lookup tables, so
    the explanation and the op's own answer cannot disagree.

    Parameters
    ----------
    policy
        The policy deciding.
    op
        An op name from :mod:`promo_ns._ops` (``"add"``, ``"less"``, ``"atan2"``, ...).
    a, b
        The operands, left then right.

    Returns
    -------
    Explanation
        The result dtype (or the error :func:`resolve` raises), and each step
        of the decision in words; ``str()`` gives a readable report.

    Raises
    ------
    ValueError
        ``op`` does not combine operands.
    """
    name = family_name(policy, op)
    family = policy.families.get(name)
    steps = [f"{op!r} follows the rules of the {name!r} op family", _roles(policy, family)]
    _cell(policy, family, [(a.dtype, a.role), (b.dtype, b.role)], steps)
    try:
        return Explanation(policy, op, (a, b), resolve(policy, op, a, b), None, tuple(steps))
    except (PromotionError, OverflowError) as exc:
        return Explanation(policy, op, (a, b), None, exc, tuple(steps))


def resolve_many(policy: Policy, op: str, operands: Sequence[Operand]) -> DType:
    """The result dtype of an op over any number of operands (``concat``, ``result_type``)."""
    name = family_name(policy, op)
    if len(operands) == 2:
        return resolve(policy, op, operands[0], operands[1])
    result = _cell(policy, policy.families.get(name), [(o.dtype, o.role) for o in operands])
    if isinstance(result, Refusal):
        raise _error(policy, op, name, operands, result)
    promoted = promote(policy, [(o.dtype, o.role) for o in operands])
    if isinstance(promoted, DType):
        _check_int_value(policy, op, operands, promoted)
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
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): it takes {allowed} arrays "
            f"({policy.reference}). Fix: cast explicitly first, e.g. {op}(xp.astype(x, xp.int64))."
        )
    return policy.accumulate_ops.get(op, policy.accumulate).get(dtype, dtype)


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
            f"cast explicitly first, e.g. {op}(xp.astype(x, xp.{takes[-1]}))"
            if takes
            else "switch policy with promo_ns.policy(...)"
        )
        raise PromotionError(
            f"policy {policy.name!r} refuses {op}(x: {dtype} array): its {family!r} functions take "
            f"{', '.join(map(str, takes)) or 'no'} arrays ({policy.reference}). Fix: {fix}."
        )
    return found


# --- messages ----------------------------------------------------------------------------


def _names(operands: Sequence[Operand]) -> str:
    return ", ".join(f"x{i + 1}: {o.describe()}" for i, o in enumerate(operands))


def _fix(policy: Policy, op: str, family: str, operands: Sequence[Operand]) -> str:
    """An explicit cast that makes the op valid under ``policy``, in words."""
    arrays = [(i, o) for i, o in enumerate(operands) if o.dtype is not None]
    if not arrays:
        return "Fix: make one operand an array first, e.g. xp.asarray(x1)."
    targets = sorted({o.dtype for _, o in arrays if o.dtype is not None}, key=lambda d: -d.category)
    scalar_kinds = [o.role.kind for o in operands if o.dtype is None]
    for kind in scalar_kinds:
        default = policy.defaults.get({"b": "bool", "i": "int", "f": "float", "c": "complex"}[kind])
        if default is not None and default not in targets:
            targets.append(default)
    for target in targets:
        trial = [Operand(target, Role.ND) if o.dtype is not None else o for o in operands]
        if not isinstance(
            _cell(policy, policy.families.get(family), [(o.dtype, o.role) for o in trial]), Refusal
        ):
            casts = [f"xp.astype(x{i + 1}, xp.{target})" for i, o in arrays if o.dtype is not target]
            if casts:
                return f"Fix: cast explicitly, e.g. {' and '.join(casts)}."
    kinds = policy.families[family].kinds if family in policy.families else ""
    if kinds:
        return f"Fix: {op!r} takes {_kinds(kinds)} operands under this policy; cast with xp.astype first."
    return f"Fix: {op!r} is not available under this policy; switch policy with promo_ns.policy(...)."


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
        f"policy {policy.name!r} refuses {op}({_names(operands)}): {what} "
        f"({policy.reference}). {_fix(policy, op, family, operands)}"
    )
