"""How one op family promotes: the :class:`Family` record, and the families every policy describes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from promo_ns._dtypes import DType
from promo_ns.policies._checks import check_fields, check_kinds, check_per_kind
from promo_ns.policies._frozen import freeze_fields, read_only
from promo_ns.policies._grids import Grid, ScalarGrid

__all__ = ["FAMILIES", "Family", "IntRule", "NegativePowers", "ZeroDivisor", "ZeroRemainder"]

#: What a Python int operand's value does in an op family (see :attr:`Family.int_values`).
IntRule = Literal["wrap", "fit", "magnitude", "non-negative", "exact", "bounds"]
#: What an integer ``//`` or ``%`` does with a divisor of 0 (see :attr:`Family.zero_divisor`).
ZeroDivisor = Literal["zero", "raise", "xla"]
#: What an integer power does with a negative integer exponent (see :attr:`Family.negative_powers`).
NegativePowers = Literal["raise", "compute"]
#: Whose sign a floating ``%`` that gives 0 takes (see :attr:`Family.zero_remainder`).
ZeroRemainder = Literal["divisor", "dividend"]


@read_only
@dataclass(frozen=True)
class Family:
    """How one op family promotes.

    Attributes
    ----------
    kinds
        Kinds (``"biufc"`` letters) an array operand and the promoted dtype may
        have; others are refused.  (A Python scalar's kind is checked by the
        promotion itself, and by ``scalar_kinds``.)
    scalar_kinds
        Kinds (``"bifc"`` letters) a Python scalar operand may have; ``None``:
        any the promotion takes.  (torch refuses subtraction with any bool
        operand, a Python ``True`` too.)
    result
        ``"promoted"``: the (mapped) promoted dtype; ``"bool"``: always ``bool``.
    operand_map
        When the promoted dtype is a key here, each operand (a Python scalar
        counting as the promoted dtype) becomes the dtype the map gives it and
        they promote again: NumPy's float-only ufuncs have no integer loops and
        take the smallest float loop every input casts to safely.
    result_map
        Dtypes the promoted dtype becomes (true division: integers to a float).
    same_dtype
        No promotion at all: arrays must share one dtype, and a Python scalar
        takes that dtype when its category is not above the array's.
    strong
        0-d arrays and Python scalars (as the policy's ``scalar_dtypes``)
        promote exactly like n-d arrays.
    result_kinds
        Kinds the (mapped) result may have; ``None``: ``kinds``.  (TF's true
        division takes bool operands but has no bool result.)
    arrays
        Array-with-array grid of this family, in place of the policy's
        ``arrays``; it may be asymmetric (Paddle's ``matmul`` casts some right
        operands to the left's dtype but not the other way round).
    scalars
        Array-with-Python-scalar cells this family decides itself, keyed by
        (array dtype, scalar role) whichever side the scalar is on: the cell's
        dtype replaces the promoted one (the framework converts the scalar to
        the array's dtype, e.g. Paddle's ``copysign``).
    zero_d_cross_when
        For ``roles="priority"``: when a 0-d array counts against n-d arrays,
        in place of the policy's ``cross_when``; ``"always"``: whatever the
        categories, through ``cross`` (Paddle's ``floor_divide``).
    cast
        No promotion: the result has the first operand's dtype, and other
        operands are cast into it.  ``"any"``: every operand, a 0-d array of
        any dtype too (``x[key] = v`` in NumPy, PyTorch and Paddle);
        ``"category"``: operands of the first's category (bool < int < float
        < complex), and Python scalars of a lower one, while others are
        refused (the standard's ``clip``: the result has ``x``'s dtype, and
        bounds of another kind are unspecified).  A Python scalar converts as
        Python converts it to that dtype's kind (``int(1.5)`` is 1,
        ``bool(z)`` is ``z != 0``), so a Python complex into a real dtype other
        than bool is refused (``float(1+2j)`` raises).
    int_values
        What a Python int operand's value does, per kind (``"biufc"``) of the
        array operands (of the highest category among them); a kind missing
        here is ``"wrap"``.  ``None``: the policy's ``int_values`` decides.
        The int converts to the dtype the operands promote to (for ``cast``,
        the first operand's):

        ``"wrap"``
            As a cast would: modulo ``2**bits`` into an integer dtype, rounded
            into a float (PyTorch's ``int8_tensor + 1000``).
        ``"fit"``
            It must lie in that dtype's range (a float dtype's finite range),
            else it is refused (NEP 50's OverflowError; PyTorch's ``clamp`` of
            float16 with ``2**31``).
        ``"magnitude"``
            As ``"fit"``, but an unsigned dtype also takes negatives down to
            ``-max``, which wrap as two's complement (PyTorch's checked
            conversion: ``torch.where(c, uint8_tensor, -255)`` writes 1).
        ``"non-negative"``
            As ``"fit"``, and a negative int is refused where the result is
            bool or integer ("Integers to negative integer powers are not
            allowed"), for an exponent (``int_right`` of ``power``).
        ``"exact"``
            The op sees the exact value: an int beyond the dtype takes part as
            an infinity of its sign, in float32, so it compares as beyond every
            element and is true (NumPy 2: ``uint8_array < 1000`` is all true,
            ``logical_and(uint8_array, 256)`` too).
        ``"bounds"``
            For ``clip(x, min, max)``: a bound beyond the dtype on the side
            that clips nothing (``min`` below its minimum, ``max`` above its
            maximum) is dropped; any other must fit (NumPy 2's ``clip``).
    int_right
        ``int_values`` for a Python int on the right of a two-operand op of
        this family, where the framework treats it otherwise than on the left
        (the exponent of ``x ** s``; PyTorch's ``s / x`` is ``reciprocal(x) * s``,
        its ``x / s`` promotes with ``s``); ``None``: ``int_values``.
    float_values
        For ``cast``: how a Python float converts into an integer dtype.
        ``"truncated"``: toward zero, and the integer must fit the dtype
        (NumPy: ``uint8_array[i] = 255.5`` writes 255, ``= 256.0`` raises
        OverflowError, NaN a ValueError); ``"within"``: the float itself must
        lie in the dtype's range (PyTorch's checked conversion: ``= 255.5``
        and ``= -0.5`` into uint8 raise, ``= -0.5`` into int8 writes 0).
        Never a silent wrap: a float beyond the dtype converts by C's
        undefined float-to-int cast in frameworks that take it (Paddle).
    float_fits
        Dtypes into which a Python float operand converts checked (PyTorch's
        ``c10::checked_convert``): a finite float beyond the dtype's finite
        range (a complex dtype's parts') is refused with OverflowError;
        infinities and NaN pass.  The float converts to the dtype the operands
        promote to (for ``cast``, the first operand's).
    float_fits_right
        ``float_fits`` for a Python float on the right of a two-operand op
        (the exponent of ``x ** s``); ``None``: ``float_fits``.
    complex_to_real
        How a Python complex converts into a real dtype other than bool where
        the op keeps one (``cast``, a family's own ``scalars`` cell):
        ``"refused"`` (``float(1+0j)`` raises), or ``"zero_imag"``: when its
        imaginary part is 0, else OverflowError (PyTorch's checked conversion:
        ``x[0] = 1+0j`` writes 1, ``clamp(x, 1+1j)`` raises).
    int_range
        Per array kind, the Python ints the framework converts at all,
        ``(lowest, highest)``: any other is refused, whatever the rule
        (PyTorch makes a Python int an int64, or a uint64 from ``2**63``);
        a kind missing here takes any int.  ``None``: the policy's ``int_range``.
    zero_divisor
        Values: what an integer ``//`` or ``%`` (of this family) gives where
        the divisor is 0, an array's element or a Python int.  ``"zero"``: 0
        there (NumPy, with a RuntimeWarning); ``"raise"``: the op raises
        ZeroDivisionError and gives no result (PyTorch's CPU kernels, Paddle's
        and TF's "Integer division by zero"); ``"xla"``: XLA's integer division
        by 0, all bits set, through ``floor_divide``'s correction: ``x // 0`` is
        -1 for a signed 0, -2 for any other signed ``x``, the dtype's maximum
        for unsigned, and ``x % 0`` is 0 (JAX).  Every backend computes the
        policy's rule, whatever its own kernel does.
    negative_powers
        Values: what an integer ``**`` (of this family) gives for a negative
        integer exponent in an array (a Python int exponent follows
        ``int_right``).  ``"raise"``: ValueError (NumPy's "Integers to
        negative integer powers are not allowed", TF's); ``"compute"``: the
        integer part of the true power, ``1 ** -n`` is 1, ``(-1) ** -n`` is
        ``-1`` for odd ``n`` and 1 for even, any other base gives 0 (PyTorch's
        and Paddle's kernels).
    zero_remainder
        Values: the sign of a floating ``%`` (of this family) whose result is
        0 (a nonzero one has the divisor's sign in every framework).
        ``"divisor"``: the divisor's, as Python's ``%`` (NumPy, the standard:
        ``1.0 % -1.0`` is ``-0.0``); ``"dividend"``: the dividend's, as C's
        ``fmod`` (PyTorch, Paddle, TF, JAX: ``1.0 % -1.0`` is ``0.0``,
        ``-0.0 % 1.0`` is ``-0.0``).
    scalar_truth
        Values, for a ``result="bool"`` family whose ops read their operands'
        truth (``logical_and``): how a Python float or complex with a floating
        array is read.  ``"rounded"``: as the value it rounds to in the dtype
        the op computes in, so ``1e-10`` with a float16 array is false (JAX,
        PyTorch's conversion of a scalar); ``"as_written"``: its own value,
        true unless 0 (NumPy 2's logical ufuncs: ``logical_or(float16_array,
        1e-10)`` is all true).
    """

    kinds: str = "biufc"
    scalar_kinds: str | None = None
    result: Literal["promoted", "bool"] = "promoted"
    operand_map: Mapping[DType, DType] = field(default_factory=dict)
    result_map: Mapping[DType, DType] = field(default_factory=dict)
    same_dtype: bool = False
    strong: bool = False
    result_kinds: str | None = None
    arrays: Grid | None = None
    scalars: ScalarGrid = field(default_factory=dict)
    zero_d_cross_when: Literal["higher", "different", "always"] | None = None
    cast: Literal["any", "category"] | None = None
    int_values: Mapping[str, IntRule] | None = None
    int_right: Mapping[str, IntRule] | None = None
    int_range: Mapping[str, tuple[int, int]] | None = None
    int_range_left: Mapping[str, tuple[int, int]] | None = None
    float_values: Literal["truncated", "within"] = "truncated"
    float_fits: frozenset[DType] = frozenset()
    float_fits_right: frozenset[DType] | None = None
    complex_to_real: Literal["refused", "zero_imag"] = "refused"
    zero_divisor: ZeroDivisor = "zero"
    negative_powers: NegativePowers = "raise"
    zero_remainder: ZeroRemainder = "divisor"
    scalar_truth: Literal["rounded", "as_written"] = "rounded"

    def __post_init__(self) -> None:
        freeze_fields(self)
        check_fields(self, "Family")
        for name in ("kinds", "scalar_kinds", "result_kinds"):
            check_kinds(getattr(self, name), f"Family: {name}")
        for name in ("int_values", "int_right", "int_range", "int_range_left"):
            check_per_kind(getattr(self, name), f"Family: {name}")


#: Op families every policy describes (see :mod:`promo_ns._ops` for the ops in each).
FAMILIES: tuple[str, ...] = (
    "arithmetic",
    "power",
    "real_arithmetic",
    "extrema",
    "true_divide",
    "comparison",
    "ordering",
    "logical",
    "bitwise",
    "shift",
    "float_only",
    "common",
    "where",
    "clip",
    "setitem",
    "linalg",
)
