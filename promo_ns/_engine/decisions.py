"""Policy data in, one cell's decision out: the promotion folds through the grids, in named stages.

A policy's answers are kept per op family in dicts keyed by the two operands'
``(dtype, role)`` pairs (``dtype`` is ``None`` for Python scalars), each cell
computed the first time it is asked for (:func:`table_cell`), so a new policy
compiles only what it uses.  A cell holds either a
:class:`~promo_ns._dtypes.DType` or a :class:`~promo_ns._engine.operands.Refusal`.

Each cell is decided by named stages (:func:`cell`) that give a reason for
every step; :func:`run` runs them.  The tables keep the result only;
:func:`promo_ns.explore.explain` shows the reasons.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple, TypeAlias, TypeVar

from promo_ns._dtypes import CATEGORY, DTYPES, DType, a_or_an, bool_
from promo_ns._engine.operands import Key, Refusal, _kinds, taken_role
from promo_ns._memo import per_policy
from promo_ns._ops import family_of
from promo_ns.policies._model import ARRAY_ROLES, SCALAR_ROLES, Family, Grid, Policy, Role

__all__ = [
    "Decision",
    "Stage",
    "TableKey",
    "cell",
    "compute_cell",
    "compute_table",
    "family_name",
    "promoted_cell",
    "result_cell",
    "run",
    "table_cell",
]

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
    if any(r is Role.NP_SCALAR for _, r in keys):
        keys = [taken_role(policy, d, r) for d, r in keys]
        yield "a NumPy scalar takes part as " + (
            "the Python scalar it holds" if policy.numpy_scalars == "python" else "the 0-d array it is"
        )
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


TableKey: TypeAlias = tuple[DType | None, Role, DType | None, Role]
_UNSET: object = object()


@per_policy
def _cells(policy: Policy, kind: str, family_name: str) -> dict[TableKey, object]:
    """The cells of one of ``policy``'s tables computed so far (see :func:`table_cell`)."""
    return {}


def _decide(policy: Policy, kind: str, family_name: str, k: TableKey) -> object:
    keys = ((k[0], k[1]), (k[2], k[3]))
    if kind == "promoted":
        return run(_promotion(policy, keys)).result
    family = policy.families.get(family_name)
    if kind == "result":
        return run(cell(policy, family, keys)).result
    result = table_cell(policy, "result", family_name, k)  # decided once for both tables
    if isinstance(result, Refusal):
        return result
    if family is None or family.result != "bool":
        return (result, result)
    return (result, run(cell(policy, _compared(policy, family_name), keys)).result)


@per_policy
def _compared(policy: Policy, family_name: str) -> Family:
    """The rules of ``family_name`` (a family with bool results) with its result the promoted dtype.

    What a comparison computes in; made once per family, not per cell.
    """
    return replace(policy.families[family_name], result="promoted")


def table_cell(policy: Policy, kind: str, family_name: str, k: TableKey) -> object:
    """One cell of a table, computed the first time it is asked for: a new policy compiles what it uses.

    ``kind``: ``"result"`` (the family's result dtype, or a refusal),
    ``"compute"`` (``(result dtype, dtype the kernel computes in)``, or a
    refusal) or ``"promoted"`` (plain promotion, before any family's rule).
    """
    if Role.NP_SCALAR in (k[1], k[3]):  # a 0-d array or a Python scalar, as the policy takes it
        k = (*taken_role(policy, k[0], k[1]), *taken_role(policy, k[2], k[3]))
    cells = _cells(policy, kind, family_name)
    value = cells.get(k, _UNSET)
    if value is _UNSET:
        value = cells[k] = _decide(policy, kind, family_name, k)
    return value


def result_cell(policy: Policy, family_name: str, k: TableKey) -> DType | Refusal:
    """The result dtype of ``family_name``'s cell ``k`` under ``policy``, or its refusal (computed once)."""
    return table_cell(policy, "result", family_name, k)  # type: ignore[return-value]


def compute_cell(policy: Policy, family_name: str, k: TableKey) -> tuple[DType, DType] | Refusal:
    """``(result dtype, dtype the kernel computes in)`` of cell ``k``, or its refusal (computed once).

    The two differ only for families returning ``bool`` (comparisons), which
    compare in the promoted dtype.
    """
    return table_cell(policy, "compute", family_name, k)  # type: ignore[return-value]


def promoted_cell(policy: Policy, k: TableKey) -> DType | Refusal:
    """The dtype plain promotion gives cell ``k``, before any op family's rule (computed once)."""
    return table_cell(policy, "promoted", "", k)  # type: ignore[return-value]


@per_policy
def compute_table(policy: Policy, family_name: str) -> dict[TableKey, tuple[DType, DType] | Refusal]:
    """Every cell of :func:`compute_cell` for ``family_name``: operand-key pair to its answer."""
    keys = [(a[0], a[1], b[0], b[1]) for a in _KEYS for b in _KEYS]
    return {k: compute_cell(policy, family_name, k) for k in keys}


@per_policy
def _decide_many(
    policy: Policy, family_name: str, keys: tuple[Key, ...]
) -> tuple[DType | Refusal, DType | Refusal]:
    """Any number of operands' cell and their plain promotion, as the tables hold them for two."""
    decided = run(cell(policy, policy.families.get(family_name), keys))
    return decided.result, run(_promotion(policy, keys)).result
