"""Canonical dtypes, their kinds, and the maps to and from each backend's dtypes.

A :class:`DType` is a singleton: compare with ``is`` or ``==``.  ``str(d) == d.name``.
Maps to native dtypes import nothing: a native dtype can only reach
:func:`canonical` from a module the user already imported, and
:func:`native` takes the backend module itself.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final, final

from promo_ns._words import closest

__all__ = [
    "DTYPES",
    "DType",
    "a_or_an",
    "bfloat16",
    "bool_",
    "canonical",
    "complex64",
    "complex128",
    "float16",
    "float32",
    "float64",
    "holding",
    "int8",
    "int16",
    "int32",
    "int64",
    "native",
    "real_float",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "widens",
]

#: Kinds in category order: a kind's category is its index, unsigned and signed
#: integers sharing one.
KINDS: Final = "biufc"
CATEGORY: Final = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


@final
class DType:
    """A canonical dtype: ``name``, ``kind`` (one of ``"biufc"``) and size in ``bits``.

    Instances are created once, in this module; use the module constants.
    """

    __slots__ = ("bits", "category", "kind", "name", "short")

    name: str
    kind: str
    bits: int
    category: int
    short: str

    def __init__(self, name: str, kind: str, bits: int, short: str) -> None:
        self.name = name
        self.kind = kind
        self.bits = bits
        self.category = CATEGORY[kind]
        self.short = short

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"promo_ns.{self.name}"

    def __reduce__(self) -> str:
        return "bool_" if self.name == "bool" else self.name

    def __copy__(self) -> DType:
        return self

    def __deepcopy__(self, memo: object) -> DType:
        return self

    @property
    def itemsize(self) -> int:
        """Size of one element in bytes."""
        return self.bits // 8 if self.kind != "b" else 1


bool_: Final = DType("bool", "b", 8, "b")
int8: Final = DType("int8", "i", 8, "i8")
int16: Final = DType("int16", "i", 16, "i16")
int32: Final = DType("int32", "i", 32, "i32")
int64: Final = DType("int64", "i", 64, "i64")
uint8: Final = DType("uint8", "u", 8, "u8")
uint16: Final = DType("uint16", "u", 16, "u16")
uint32: Final = DType("uint32", "u", 32, "u32")
uint64: Final = DType("uint64", "u", 64, "u64")
float16: Final = DType("float16", "f", 16, "f16")
bfloat16: Final = DType("bfloat16", "f", 16, "bf16")
float32: Final = DType("float32", "f", 32, "f32")
float64: Final = DType("float64", "f", 64, "f64")
complex64: Final = DType("complex64", "c", 64, "c64")
complex128: Final = DType("complex128", "c", 128, "c128")

#: Every canonical dtype, in table order.
DTYPES: Final[tuple[DType, ...]] = (
    bool_,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
    float16,
    bfloat16,
    float32,
    float64,
    complex64,
    complex128,
)
BY_NAME: Final[dict[str, DType]] = {d.name: d for d in DTYPES}
BY_SHORT: Final[dict[str, DType]] = {d.short: d for d in DTYPES}

#: Integer ranges, for Python-int value checks.
INT_RANGE: Final[dict[DType, tuple[int, int]]] = {
    d: ((0, 2**d.bits - 1) if d.kind == "u" else (-(2 ** (d.bits - 1)), 2 ** (d.bits - 1) - 1))
    for d in DTYPES
    if d.kind in "iu"
}
#: The largest finite value of each floating dtype, for Python-int value checks.
FLOAT_MAX: Final[dict[DType, float]] = {
    float16: 65504.0,
    bfloat16: float.fromhex("0x1.fep127"),
    float32: float.fromhex("0x1.fffffep127"),
    float64: sys.float_info.max,
}
#: The smallest magnitude each floating dtype rounds to infinity: its largest value and half an ulp.
FLOAT_OVERFLOW: Final[dict[DType, int]] = {
    float16: 2**16 - 2**4,
    bfloat16: 2**128 - 2**119,
    float32: 2**128 - 2**103,
    float64: 2**1024 - 2**970,
}


def real_float(dtype: DType) -> DType:
    """The real floating dtype of a floating or complex ``dtype`` (``complex64`` -> ``float32``)."""
    return BY_NAME[f"float{dtype.bits // 2}"] if dtype.kind == "c" else dtype


def holding(value: int, dtype: DType) -> DType:
    """The dtype an array of ``dtype`` is best cast to for it to hold Python int ``value``.

    The narrowest integer dtype wider than ``dtype`` of its signedness that
    holds ``value`` (a signed one for a negative value); else float64.  A
    floating ``dtype`` gives the narrowest wider float that does not round
    ``value`` to infinity.
    """
    if dtype.kind in "fc":
        wider = [d for d in (float32, float64) if d.bits > real_float(dtype).bits]
        return next((d for d in wider if abs(value) < FLOAT_OVERFLOW[d]), float64)
    kind = "i" if value < 0 or dtype.kind != "u" else "u"
    for d in DTYPES:
        if d.kind == kind and d.bits > dtype.bits and INT_RANGE[d][0] <= value <= INT_RANGE[d][1]:
            return d
    return float64


def a_or_an(word: object) -> str:
    """``word`` with its indefinite article, as it is read aloud: "an int8", "a uint8", "an n-d array"."""
    text = str(word)
    vowel = text[:1] in "aeio" or text.startswith(("n-d", "NaN", "8", "11-", "18-"))
    return f"an {text}" if vowel else f"a {text}"


def widens(result: DType, inputs: Sequence[DType]) -> bool:
    """Whether ``result`` is none of ``inputs`` and wider than each of them (RFC 431's unsafe widening)."""
    return result not in inputs and all(result.itemsize > d.itemsize for d in inputs)


#: What NumPy reads a Python type as; promo_ns asks for the dtype itself.
_PYTHON_TYPES: Final[dict[type, str]] = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}


def _unknown(obj: object, what: str = "") -> TypeError:
    """The error for ``obj`` where a dtype is required: what it is, and which dtype to pass instead."""
    error = _not_a_dtype(obj)
    return TypeError(f"{what}: {error}") if what else error


def _not_a_dtype(obj: object) -> TypeError:
    names = ", ".join(d.name for d in DTYPES)
    supported = f"promo_ns supports {names}."
    if obj is None:
        return TypeError(
            "None is not a dtype: pass one of the namespace's dtypes, e.g. xp.float32 "
            "(xp.__array_namespace_info__().default_dtypes() lists the policy's defaults); " + supported
        )
    if isinstance(obj, type) and obj.__module__ == "builtins":
        like = _PYTHON_TYPES.get(obj)
        hint = f"xp.{like}, as NumPy reads {obj.__name__}, or " if like else ""
        return TypeError(
            f"the Python type {obj.__name__} is not a dtype: pass one of the namespace's dtypes, e.g. "
            f"{hint}the policy's default from xp.__array_namespace_info__().default_dtypes(); " + supported
        )
    if hasattr(obj, "shape") and hasattr(obj, "dtype"):
        return TypeError(
            f"got an array ({type(obj).__module__}.{type(obj).__qualname__}) where a dtype is required: "
            "pass its dtype, x.dtype"
        )
    if isinstance(obj, str):
        close = closest(obj, BY_NAME)
        hint = f" Did you mean {close!r}?" if close else ""
        return TypeError(f"{obj!r} has no canonical promo_ns dtype; {supported}{hint}")
    return TypeError(
        f"{obj!r} has no canonical promo_ns dtype; {supported} "
        "Convert the data to one of these first (e.g. `.astype('float32')`)."
    )


def canonical(obj: Any, what: str = "") -> DType:
    """The canonical :class:`DType` of a name, a ``DType``, or a NumPy/CuPy/torch dtype.

    Parameters
    ----------
    obj
        A ``DType``, a canonical name (``"float32"``), a ``numpy.dtype``, a NumPy
        scalar type (``numpy.float32``), ``ml_dtypes.bfloat16`` or a ``torch.dtype``.
    what
        What ``obj`` is, for the error message (``"astype()'s dtype"``).

    Returns
    -------
    DType
        The canonical dtype.

    Raises
    ------
    TypeError
        If ``obj`` is a dtype with no canonical counterpart (object, str,
        float8, complex32, ...) or not a dtype at all: ``None``, a Python type
        (``float``), an array, a name that is not canonical (``"f4"``).
    """
    if obj.__class__ is DType:
        return obj
    if isinstance(obj, str):
        found = BY_NAME.get(obj)
    elif obj.__class__.__module__ == "torch" and obj.__class__.__name__ == "dtype":
        found = BY_NAME.get(str(obj).removeprefix("torch."))
    else:
        # Only NumPy's own dtypes and scalar types (CuPy's and ml_dtypes' are NumPy's): np.dtype()
        # would also read None and Python types (float64), and arrays, as dtypes.
        np = sys.modules.get("numpy")
        if np is None or not (
            isinstance(obj, np.dtype) or (isinstance(obj, type) and issubclass(obj, np.generic))
        ):
            raise _unknown(obj, what)
        found = BY_NAME.get(np.dtype(obj).name)
    if found is None:
        raise _unknown(obj, what)
    return found


def native(dtype: DType, module: ModuleType) -> Any:
    """The native dtype of ``dtype`` in a backend module (``numpy``, ``cupy`` or ``torch``).

    Raises
    ------
    TypeError
        If the backend has no such dtype (``bfloat16`` on CuPy).
    """
    name = module.__name__
    if name == "torch":
        return getattr(module, dtype.name)
    if dtype is bfloat16:
        if name == "numpy":
            import ml_dtypes

            return module.dtype(ml_dtypes.bfloat16)
        raise TypeError(
            f"the {name} backend has no bfloat16 dtype; use float32 (or float16) on {name}, "
            "or the numpy/torch backend for bfloat16."
        )
    return module.dtype(dtype.name)
