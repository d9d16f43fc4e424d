"""The :class:`Policy` record and the registry of policies by name (its validation is in :mod:`._validation`).

Nothing here decides a dtype; :mod:`promo_ns._engine` turns a :class:`Policy`
into lookups.  The grids a policy holds are parsed in :mod:`._grids`, the
op-family records are in :mod:`._family`, and :mod:`._frozen` makes both
immutable values.
"""

from __future__ import annotations

from _thread import allocate_lock
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from importlib import import_module
from typing import Any, Literal

from promo_ns._dtypes import DType
from promo_ns._words import closest
from promo_ns.policies._checks import did_you_mean
from promo_ns.policies._family import FAMILIES, Family, IntRule
from promo_ns.policies._frozen import freeze_fields, read_only
from promo_ns.policies._grids import (
    ARRAY_ROLES,
    FLOAT_SCALAR_FORMS,
    FUNCTION_FAMILIES,
    GRID_EXAMPLE,
    SCALAR_COLUMNS,
    SCALAR_ROLES,
    FloatScalarRule,
    FunctionGrid,
    Grid,
    Role,
    ScalarGrid,
    cast_grid,
    check_diagonal,
    delegated_grid,
    function_grid,
    grid,
    parse_dtype,
    scalar_grid,
)
from promo_ns.policies._validation import validate

__all__ = [
    "ARRAY_ROLES",
    "FAMILIES",
    "FLOAT_SCALAR_FORMS",
    "FUNCTION_FAMILIES",
    "SCALAR_COLUMNS",
    "SCALAR_ROLES",
    "Family",
    "FloatScalarRule",
    "Grid",
    "IntRule",
    "Policy",
    "Role",
    "cast_grid",
    "delegated_grid",
    "function_grid",
    "get_policy",
    "grid",
    "is_registered",
    "keep_while_registered",
    "policies",
    "register",
    "scalar_grid",
]


@read_only
@dataclass(frozen=True)
class Policy:
    """A dtype-promotion policy, as data: an immutable value.

    Every mapping field is read-only (nested ones too), no attribute can be
    set, and :meth:`derive` and :meth:`from_table` make new policies: the
    plans compiled for a policy are cached per policy object, so none can go
    stale.  Policies compare by identity and hash by name.

    Attributes
    ----------
    name
        Registered name, e.g. ``"pytorch"``.
    summary
        One line saying what the policy does.
    reference
        The framework (and version) whose decisions the policy reproduces.
    arrays
        Array-with-array grid (missing cell: refused).
    roles
        How 0-d arrays and Python scalars take part:

        ``"weak-scalars"``
            0-d arrays and NumPy scalars are arrays like any other; a Python
            scalar combines with an array through ``scalars``.
        ``"priority"``
            PyTorch-style priority classes: n-d arrays, then 0-d arrays, then
            Python scalars (typed by ``scalar_dtypes``).  A lower class counts
            only when its category (bool < int < float < complex) is higher than
            that of the classes above it; it then combines through ``cross``.
    scalars
        Array-with-Python-scalar grid, for ``roles="weak-scalars"``.
    scalar_dtypes
        The dtype each Python scalar kind stands for, for ``roles="priority"``.
    nary
        How three or more dtypes reduce to one (``result_type``, ``concat``,
        ``clip``, ...; two dtypes always take their grid cell):

        ``"pairwise"``
            A left fold through the grid: ``((a, b), c)``.
        ``"main-dtype"``
            NumPy's ``PyArray_PromoteDTypeSequence``: the dtype latest in
            ``nary_order`` is the main one, every other dtype promotes with
            it through the grid, and those results fold.  ``int8, uint8,
            float16`` is float16 (float16 with each), where the fold gives
            float32 (int16 with float16).
        ``"lattice"``
            JAX's join in its type lattice: a left fold through the grid,
            but a pair in ``weak_joins`` joins at a Python scalar kind's weak
            node, which stays weak until a dtype that such a Python scalar
            gives way to (the ``scalars`` grid keeps that dtype) takes its
            place; one still weak at the end is its kind's default.
            ``uint64, int8, bfloat16`` is bfloat16, where the fold gives
            float64.
    weak_joins
        For ``nary="lattice"``: the dtype pairs (both orders) whose join is a
        Python scalar kind's weak node (JAX's uint64 with a signed integer is
        the weak float); their ``arrays`` cell is that kind's default dtype.
    nary_order
        For ``nary="main-dtype"``: every canonical dtype once, from the one
        that knows the fewest others to the one that knows the most (NumPy's
        type numbers, float16 after complex128 and ml_dtypes' bfloat16 last).
    zero_d
        For ``roles="priority"``: the grid between two 0-d arrays (defaults to ``arrays``).
    cross
        For ``roles="priority"``: row = the higher class's dtype, column = the
        dtype of a lower class of higher category (defaults to ``arrays``).
    cross_when
        For ``roles="priority"``: a lower class counts when its category is
        ``"higher"`` (PyTorch) or merely ``"different"`` (Paddle).
    isolated
        For ``roles="priority"``: dtypes that meet no other dtype.  An n-d
        array and a 0-d array of another dtype, one of them of these, are
        refused even where the 0-d array would give way (Paddle's promotion
        table has no uint16/32/64 and raises for them before it looks at the
        operands' roles); Python scalars keep the role rules.
    families
        Per op family rules; a family missing here refuses every cell.
    op_families
        Ops this policy groups differently from :data:`promo_ns._ops.FAMILY`
        (op name -> a family name of ``families``), and the ops of
        :data:`promo_ns._ops.UNPROMOTED` whose arrays it holds to a family.
    accumulate
        The dtype ``sum``/``prod``/``cumulative_*`` accumulate in, per input
        dtype; a dtype missing here accumulates in itself.
    accumulate_ops
        Per op (``"prod"``, ``"cumulative_sum"``, ...), a map used in place of
        ``accumulate`` for that op.
    accumulate_kinds
        Kinds those reductions accept.
    input_kinds
        Kinds (``"biufc"`` letters) of array each function of
        :data:`promo_ns._ops.INPUT_KIND_OPS` takes, where the framework refuses
        others (array-api-strict's ``logical_not`` takes bool only); a function
        missing here takes any dtype.
    astype_kinds
        Per kind of ``astype``'s input, the kinds it casts to, where the
        framework refuses others (the standard casts no complex array to a
        real dtype); a kind missing here casts to any.
    functions
        The result dtype of each one-array function family per input dtype
        (:func:`function_grid`); a missing cell refuses the function on that dtype.
    int_values
        What a Python int beyond the dtype it converts to does in op families
        without ``int_values`` of their own: ``"wrap"`` (silently, like the
        framework), ``"overflow"`` or ``"refuse"`` (bool and integer arrays
        take the rule ``"fit"``).  ``"refuse"`` also holds every family's own
        rule to ``"fit"`` where the op gives a bool or integer, so no int wraps
        silently (``derive(..., int_values="refuse")`` of ``pytorch`` refuses
        ``int8_array + 1000``).  It also names the error of every refused
        Python int value: ``PromotionError`` for ``"refuse"``, else
        ``OverflowError`` (NEP 50's); a negative exponent the rule
        ``"non-negative"`` refuses is a ``ValueError`` (NumPy's).
    int_range
        Per array kind (``"biufc"``), the Python ints the framework converts
        at all, ``(lowest, highest)``, in op families without an ``int_range``
        of their own; a kind missing here takes any int.
    inplace
        When ``x1 op= x2`` may keep ``x1``'s dtype: ``"same"`` (only when the
        promoted dtype is ``x1``'s), ``"category"`` (the promoted dtype's
        category, bool < int < float < complex, is not above ``x1``'s: PyTorch's
        ``can_cast``) or ``"same_kind"`` (NumPy's: kinds ordered b < u < i < f < c).
    can_cast
        What ``can_cast(from_, to)`` answers: ``"promotion"`` (``from_`` and
        ``to`` promote to ``to``: the standard's rule, NumPy's ``"safe"``) or,
        as for ``inplace``, ``"category"`` (``to``'s category is not below
        ``from_``'s: ``torch.can_cast``) or ``"same_kind"``; or a table: the
        (``from_``, ``to``) pairs that cast (:func:`cast_grid`).
    scalars_alone
        What Python scalars with no array among them give (``result_type(1,
        2.5)``, ``where(c, 1, 2.5)``): ``"refused"``, or ``"defaults"`` (each
        stands for ``scalar_dtypes``' dtype of its kind, ``defaults``' under
        ``roles="weak-scalars"``, and they promote as 0-d arrays: PyTorch's
        ``result_type(1, 2.5)`` is float32, NumPy's float64).
    delegated
        The result dtype of one-array functions promo_ns otherwise leaves to
        the backend (:data:`promo_ns._ops.DELEGATED_DTYPES`: ``all``, ``conj``,
        ``imag``, ...) per (function, input dtype), ``None`` where the
        framework refuses the input; a cell missing here gives the standard's
        dtype (:func:`delegated_grid` parses the table).
    inplace_as_nd
        Array roles (0-d arrays, NumPy scalars) that take part in in-place ops
        as n-d arrays (Paddle's ``Tensor.add_`` and the other in-place methods
        apply the n-d rule to 0-d tensors).
    defaults
        Default dtypes: keys ``"bool"``, ``"int"``, ``"float"``, ``"complex"``, ``"index"``.
    nested
        How ``asarray`` of nested data holding arrays (``[a, b, 1.5]``) decides
        its dtype: ``"strong-scalars"`` (the elements promote as arrays, a Python
        scalar as ``defaults``' dtype of its kind: torch's ``tensor``, NumPy's
        ``asarray``), ``"weak-scalars"`` (arrays promote, Python scalars join
        as in operators: TF's ``asarray``) or ``"refused"`` (arrays inside
        nested data raise: array-api-strict).
    nested_rules
        The registered policy whose promotion decides nested data, where the
        framework's creation function follows another's (Paddle's
        ``to_tensor`` goes through NumPy); ``None``: this policy's.
    float_scalars
        How a real floating array ``x`` (n-d or 0-d) and a Python float ``s``
        (or int) compute together, per operator form of :data:`FLOAT_SCALAR_FORMS`
        (``"x * s"``, ``"s / x"``, ``"x // s"``, ...; the functions ``add``,
        ``subtract``, ``multiply``, ``divide`` and ``floor_divide`` with the
        array first too, while with the scalar first they round it first, as
        ``torch.multiply(s, x)`` does), where the result has ``x``'s dtype; in
        the forms ``"x op s"``, ``s`` may also be a 0-d real array that does
        not decide the result dtype (a lower priority class); a form missing
        here is ``"scalar_rounded_first"``:

        ``"scalar_rounded_first"``
            ``s`` is rounded to ``x``'s dtype, and the op computes in that
            dtype (NumPy's weak scalars).
        ``"float32_opmath"``
            A float16 or bfloat16 ``x`` computes in float32 with ``s`` rounded
            only to float32, and the result is rounded once to ``x``'s dtype
            (PyTorch's "opmath"); wider dtypes as ``"scalar_rounded_first"``.
        ``"reciprocal_then_multiply"``
            ``"s / x"`` only: ``reciprocal(x)``, in ``x``'s dtype, times ``s``
            by the policy's ``"x * s"`` rule (PyTorch's ``Tensor.__rtruediv__``);
            also for a bool or integer ``x`` (its ``reciprocal`` in the
            policy's ``functions`` dtype) and a Python complex ``s``.
    numpy_scalars
        How a NumPy scalar (``np.float64(1.5)``, not a 0-d ``ndarray``) takes
        part in ops: ``"arrays"``, as the 0-d array of its dtype it is (NEP 50,
        JAX), or ``"python"``, as the Python scalar of its kind it holds
        (PyTorch reads ``np.integer`` and ``np.floating`` as Python numbers, so
        ``int32_tensor + np.float64(1.5)`` is float32).
    deviations
        Every deliberate difference from the reference framework, in words.
    """

    name: str
    summary: str
    reference: str
    arrays: Grid
    roles: Literal["weak-scalars", "priority"]
    families: Mapping[str, Family]
    defaults: Mapping[str, DType]
    op_families: Mapping[str, str] = field(default_factory=dict)
    scalars: ScalarGrid = field(default_factory=dict)
    scalar_dtypes: Mapping[Role, DType] = field(default_factory=dict)
    nary: Literal["pairwise", "main-dtype", "lattice"] = "pairwise"
    nary_order: tuple[DType, ...] = ()
    weak_joins: Mapping[tuple[DType, DType], Role] = field(default_factory=dict)
    zero_d: Grid | None = None
    cross: Grid | None = None
    cross_when: Literal["higher", "different"] = "higher"
    isolated: frozenset[DType] = frozenset()
    accumulate: Mapping[DType, DType] = field(default_factory=dict)
    accumulate_ops: Mapping[str, Mapping[DType, DType]] = field(default_factory=dict)
    accumulate_kinds: str = "biufc"
    input_kinds: Mapping[str, str] = field(default_factory=dict)
    astype_kinds: Mapping[str, str] = field(default_factory=dict)
    functions: FunctionGrid = field(default_factory=dict)
    int_values: Literal["wrap", "overflow", "refuse"] = "wrap"
    int_range: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    inplace: Literal["same", "category", "same_kind"] = "same"
    can_cast: Literal["promotion", "category", "same_kind"] | frozenset[tuple[DType, DType]] = "promotion"
    scalars_alone: Literal["refused", "defaults"] = "refused"
    delegated: Mapping[tuple[str, DType], DType | None] = field(default_factory=dict)
    inplace_as_nd: frozenset[Role] = frozenset()
    nested: Literal["strong-scalars", "weak-scalars", "refused"] = "strong-scalars"
    nested_rules: str | None = None
    float_scalars: Mapping[str, FloatScalarRule] = field(default_factory=dict)
    numpy_scalars: Literal["arrays", "python"] = "arrays"
    deviations: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"a policy's name is a non-empty str, not {self.name!r}")
        freeze_fields(self)
        _validate(self, f"policy {self.name!r}")

    def __hash__(self) -> int:
        return hash(self.name)

    def __copy__(self) -> Policy:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Policy:
        return self

    @classmethod
    def from_table(
        cls,
        name: str,
        arrays: str | Grid,
        *,
        scalars: str | ScalarGrid | None = None,
        like: str | Policy = "array-api",
        **changes: Any,
    ) -> Policy:
        """A policy built from an array-with-array table, taking its other rules from ``like``.

        Parameters
        ----------
        name
            The new policy's name (register it with :func:`promo_ns.register`).
        arrays
            The array-with-array table, as text in the shape :func:`grid`
            parses (a header of dtypes, one row per dtype, ``-`` for refused),
            or as a mapping from dtype pairs to dtypes.  A missing cell is
            refused; a dtype with itself always gives itself.  Under
            ``roles="priority"`` the table also decides between classes (the
            ``cross`` and ``zero_d`` grids are reset to it).
        scalars
            An array-with-Python-scalar table (text for :func:`scalar_grid`, or
            a mapping), for ``roles="weak-scalars"``; default: ``like``'s.
        like
            The policy (or its registered name) whose roles, op families
            (with their own grids, such as Paddle's ``matmul``), defaults and
            other fields the new one takes.
        **changes
            Other fields to set (``summary``, ``reference``, ``roles``, ...).

        Returns
        -------
        Policy
            The new policy.

        Raises
        ------
        ValueError
            The table names an unknown dtype, has a row of the wrong length or
            a diagonal cell other than its dtype; or ``scalars`` is given for a
            priority policy.
        KeyError
            ``like`` names no registered policy.
        """
        _check_changes("from_table", changes)
        base = get_policy(like)
        changes.setdefault("summary", f"{name}: a custom table, with {base.name}'s other rules")
        changes.setdefault("reference", f"a custom table, other rules from {base.name!r}")
        changes.setdefault("deviations", ())
        changes.setdefault("cross", None)
        changes.setdefault("zero_d", None)
        if scalars is not None:
            if changes.get("roles", base.roles) != "weak-scalars":
                raise ValueError(
                    f"scalars= is a grid for roles='weak-scalars', but {base.name!r} ranks Python scalars "
                    "by priority (scalar_dtypes); pass like= a weak-scalar policy, or scalar_dtypes=..."
                )
            changes["scalars"] = scalar_grid(scalars) if isinstance(scalars, str) else dict(scalars)
        if not isinstance(arrays, (str, Mapping)):
            raise TypeError(
                f"from_table() takes the array table as text or a mapping of dtype pairs to dtypes, not "
                f"{type(arrays).__name__}; as text it looks like this:{GRID_EXAMPLE}"
            )
        table = grid(arrays) if isinstance(arrays, str) else dict(arrays)
        check_diagonal(table)
        return replace(base, name=name, arrays=table, **changes)

    def derive(
        self,
        name: str,
        *,
        cells: Mapping[tuple[DType | str, DType | str], DType | str | None] | None = None,
        symmetric: bool = True,
        **changes: Any,
    ) -> Policy:
        """A new policy: this one with some array-grid cells and fields changed.

        Parameters
        ----------
        name
            The new policy's name (register it with :func:`promo_ns.register`).
        cells
            Array-with-array cells to change, keyed by dtype pairs (``DType``,
            name or short name: ``("i8", "f16")``); a value of ``None`` refuses
            the cell.  A dtype with itself always gives itself.
        symmetric
            Change ``(b, a)`` with ``(a, b)``.
        **changes
            Other fields to replace (``summary``, ``int_values``, ...).

        Returns
        -------
        Policy
            The derived policy; this one is unchanged.

        Raises
        ------
        ValueError
            An unknown dtype, or a diagonal cell (a dtype with itself) other than its dtype.
        """
        _check_changes("derive", changes)
        if "arrays" in changes:
            raise TypeError(
                "derive() changes the array grid cell by cell through cells={(a, b): dtype}; for a whole "
                f"new grid use promo_ns.Policy.from_table(name, text, like={self.name!r})"
            )
        arrays = dict(self.arrays)
        for (a, b), value in (cells or {}).items():
            da, db = parse_dtype(str(a)), parse_dtype(str(b))
            check_diagonal({(da, db): None if value is None else parse_dtype(str(value))})
            for key in ((da, db), (db, da)) if symmetric else ((da, db),):
                if value is None:
                    arrays.pop(key, None)
                else:
                    arrays[key] = parse_dtype(str(value))
        changes.setdefault("summary", f"{self.name} with {len(cells or {})} array cells changed")
        return replace(self, name=name, arrays=arrays, **changes)

    def __eq__(self, other: object) -> bool:
        return self is other


# --- validation: a Policy holds what its fields say (most of it in ._validation) --------------


def _check_changes(method: str, changes: Mapping[str, Any]) -> None:
    """A TypeError for a keyword of ``derive``/``from_table`` that names no field of Policy."""
    names = [f.name for f in fields(Policy)]
    for key in changes:
        if key not in names:
            raise TypeError(
                f"{method}() got {key!r}, which is no field of Policy{did_you_mean(key, names)}; "
                f"its fields: {', '.join(names)}"
            )


def _validate(record: Policy, owner: str) -> None:
    """:func:`._validation.validate`, and ``nested_rules`` names a registered policy."""
    validate(record, owner)
    rules = record.nested_rules
    if rules is not None and rules not in _BUILTIN and rules not in _REGISTERED:
        raise ValueError(
            f"{owner}: nested_rules names no registered policy: {rules!r}{did_you_mean(rules, policies())}"
        )


# --- the registry: built-in policies are imported on first use --------------------------------

_BUILTIN: dict[str, str] = {
    "array-api": "array_api",
    "pytorch": "pytorch",
    "paddle": "paddle",
    "tf-safe": "tf_safe",
    "numpy": "numpy",
    "jax": "jax",
    "tf-all": "tf_all",
    "tf-legacy": "tf_legacy",
}
_REGISTERED: dict[str, Policy] = {}
#: What lives as long as a policy is registered under its name (see :func:`keep_while_registered`).
_KEPT: dict[str, list[object]] = {}
_LOCK = allocate_lock()


def policies() -> tuple[str, ...]:
    """Names of every registered policy, built-in ones first."""
    with _LOCK:
        custom = [n for n in _REGISTERED if n not in _BUILTIN]
    return (*_BUILTIN, *custom)


class UnknownPolicyError(KeyError, ValueError):
    """No policy is registered under a name: a KeyError (a lookup) and a ValueError (a bad argument)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def get_policy(name: str | Policy) -> Policy:
    """The policy registered under ``name`` (a :class:`Policy` is returned as is).

    Raises
    ------
    KeyError
        No policy has that name (an :class:`UnknownPolicyError`, a ValueError
        too); the message lists the registered ones (and the closest).
    TypeError
        ``name`` is neither a string nor a :class:`Policy`.
    """
    if isinstance(name, Policy):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a policy is a registered name or a promo_ns.Policy, not {type(name).__name__}")
    found = _REGISTERED.get(name)
    if found is not None:
        return found
    module = _BUILTIN.get(name)
    if module is None:
        close = closest(name, policies())
        hint = f"did you mean {close!r}? " if close else ""
        raise UnknownPolicyError(
            f"no promotion policy named {name!r}; {hint}registered: {', '.join(policies())}"
        )
    policy: Policy = import_module(f"promo_ns.policies.{module}").POLICY
    with _LOCK:
        return _REGISTERED.setdefault(name, policy)


def is_registered(policy: Policy) -> bool:
    """Whether ``policy`` is the one registered under its name (so that its name stands for it)."""
    return policy is _REGISTERED.get(policy.name) or (
        policy.name in _BUILTIN and policy is get_policy(policy.name)
    )


def register(policy: Policy, *, replace: bool = False) -> Policy:
    """Register ``policy`` under ``policy.name``; ``replace=True`` to override an existing name.

    A replaced policy is freed, with its namespaces and compiled plans, once
    nothing else (an array, a namespace held elsewhere) refers to it.

    Raises
    ------
    TypeError
        ``policy`` is not a :class:`Policy` (build one with ``Policy.from_table`` or
        ``get_policy(name).derive(...)``).
    ValueError
        The name is taken and ``replace`` is false.
    """
    if not isinstance(policy, Policy):
        raise TypeError(
            f"register() takes a promo_ns.Policy, not {type(policy).__name__}; build one with "
            "promo_ns.get_policy(name).derive(new_name, ...) or promo_ns.Policy.from_table(...)"
        )
    with _LOCK:
        if not replace and (policy.name in _REGISTERED or policy.name in _BUILTIN):
            raise ValueError(f"a policy named {policy.name!r} is already registered; pass replace=True")
        if _REGISTERED.get(policy.name) is not policy:
            _KEPT.pop(policy.name, None)  # the replaced policy's: it is freed with them
        _REGISTERED[policy.name] = policy
    return policy


def keep_while_registered(policy: Policy, value: object) -> None:
    """Keep ``value`` alive as long as ``policy`` is registered under its name; nothing if it is not.

    The namespaces of a registered policy live as long as its registration:
    replacing the policy frees them, and with them the policy.
    """
    if not is_registered(policy):
        return
    with _LOCK:
        if _REGISTERED.get(policy.name) is policy:
            _KEPT.setdefault(policy.name, []).append(value)
