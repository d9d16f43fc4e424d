"""The case model and its generator: every public function and operator form, from promo_ns's registries.

Imports :mod:`promo_ns._ops` alone (no framework, no backend, no array-api-compat), so
that a framework's runner can generate the same cases in any interpreter with NumPy.

A :class:`Case` is data: an op (the public name, ``"linalg.inv"`` for the
extensions), a *spelling* and operand *tokens*.

Spellings
    ``function`` ``xp.f(a, b)``; ``operator`` ``a op b`` (``op a`` for the
    unary operators ``-``, ``+``, ``~``, ``abs``); ``reflected`` ``s op a``
    with a Python (or NumPy) scalar on the left; ``inplace`` ``a op= b`` (on a
    copy of ``a``); ``setitem`` ``a[0] = v``; ``method`` and ``method_``
    the framework's second spelling and its in-place form (torch/Paddle
    ``a.add(b)`` / ``a.add_(b)``; TF ``tf.experimental.numpy.add``), made
    only for the policies in :data:`EXTRA_SPELLINGS`.  promo_ns has no
    methods: it answers ``method`` with its function and ``method_`` with
    its in-place operator.

Tokens
    ``<dtype>:<shape>:<class>`` an array: shape ``nd`` (1-d, 3 elements),
    ``0d``, ``col``/``row`` (``(k, 1)``/``(k,)``: a column against a row
    gives every pair of values), ``mat`` (3x3), ``vec4``, ``sorted``, ``m23``
    (2x3); class ``one`` (benign values) or ``edge`` (:func:`edge_values`).
    ``py:<type>:<repr>`` a Python scalar; ``np:<dtype>:<repr>`` a NumPy
    scalar (``numpy`` policy only); ``dt:<dtype>`` a dtype; ``lit:<python
    literal>`` any other argument (a shape, an axis, a list); ``none``.

Every public name of a namespace has a *kind* (:func:`kind_of`), which says
how its cases are made; ``tests/test_probe.py`` fails when a public name has none.
"""

from __future__ import annotations

import ast
import functools
import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from promo_ns._ops import FAMILY, FUNCTION_FAMILY, NATIVE

__all__ = [
    "DTYPES",
    "EXTRA_SPELLINGS",
    "Case",
    "Operand",
    "cases",
    "edge_values",
    "family",
    "kind_of",
    "operand",
    "public_names",
    "subsample",
]

DTYPES: tuple[str, ...] = (
    *("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    *("float16", "bfloat16", "float32", "float64", "complex64", "complex128"),
)
POLICIES = ("array-api", "pytorch", "paddle", "tf-safe", "numpy")
#: The framework's second spellings of a binary op, made for these policies only (see the docstring).
EXTRA_SPELLINGS: dict[str, tuple[str, ...]] = {
    "pytorch": ("method", "method_"),
    "paddle": ("method", "method_"),
    "tf-safe": ("method",),
}

#: The Python operator of each binary op that has one (the language's fixed list).
DUNDER: dict[str, str] = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "floor_divide": "floordiv", "remainder": "mod", "pow": "pow", "matmul": "matmul",
    "bitwise_and": "and", "bitwise_or": "or", "bitwise_xor": "xor",
    "bitwise_left_shift": "lshift", "bitwise_right_shift": "rshift",
    "equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge",
}  # fmt: skip
COMPARISONS = frozenset(("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"))
#: Unary operators: ``-x``, ``+x``, ``~x``, ``abs(x)``.
UNARY_DUNDER: dict[str, str] = {
    "negative": "neg",
    "positive": "pos",
    "bitwise_invert": "invert",
    "abs": "abs",
}

# --- kinds: the public names, by the registry facts that say how they are probed --------------

_ELEMENTWISE_FAMILIES = frozenset(
    ("float", "reciprocal", "abs", "negative", "positive", "sign", "square", "rounding", "round")
)
#: One-array elementwise functions promo_ns takes from array-api-compat as they are.
_DELEGATED_ELEMENTWISE = (
    *("bitwise_invert", "conj", "imag", "isfinite", "isinf", "isnan", "logical_not", "real", "signbit"),
)
#: Reductions that take ``dtype=`` (every input dtype x every dtype argument).
ACCUMULATING = ("sum", "prod", "cumulative_sum", "cumulative_prod", "linalg.trace")
_REDUCTIONS = ("all", "any", "count_nonzero", "diff", *ACCUMULATING)
#: Functions that keep their input's dtype (or give an index dtype), with their extra arguments.
KEEPING: dict[str, tuple[str, ...]] = {
    "reshape": ("lit:(3, 2)",),
    "flip": (),
    "broadcast_to": ("lit:(2, 2, 3)",),
    "expand_dims": ("lit:0",),
    "moveaxis": ("lit:0", "lit:1"),
    "permute_dims": ("lit:(1, 0)",),
    "repeat": ("lit:2",),
    "roll": ("lit:1",),
    "squeeze": ("lit:1",),
    "tile": ("lit:(2, 1)",),
    "unstack": (),
    "matrix_transpose": (),
    "tril": (),
    "triu": (),
    "sort": (),
    "argsort": (),
    "nonzero": (),
    "unique_all": (),
    "unique_counts": (),
    "unique_inverse": (),
    "unique_values": (),
    "take": ("int64:idx:one",),
    "take_along_axis": ("int64:idx2:one",),
    "from_dlpack": (),
    "empty_like": (),
    "ones_like": (),
    "zeros_like": (),
    "full_like": ("py:int:1",),
    "linalg.diagonal": (),
    "linalg.matrix_transpose": (),
    "fft.fftshift": (),
    "fft.ifftshift": (),
}
CREATION = (
    "asarray",
    "arange",
    "linspace",
    "full",
    "zeros",
    "ones",
    "empty",
    "eye",
    "fft.fftfreq",
    "fft.rfftfreq",
)
NARY = ("result_type", "concat", "stack", "where", "clip", "meshgrid", "broadcast_arrays")
LINALG_BINARY = (
    *("matmul", "tensordot", "vecdot", "linalg.matmul", "linalg.tensordot", "linalg.vecdot"),
    *("linalg.outer", "linalg.cross", "linalg.solve"),
)
SEARCH = ("searchsorted", "isin")
DTYPE_FUNCTIONS = ("astype", "can_cast", "isdtype", "finfo", "iinfo")
INFO = ("broadcast_shapes",)
_OTHER_LINALG = ("linalg.matrix_power", "linalg.eig", "linalg.eigvals")
#: Public attributes that are no function (dtypes, constants, the extensions, the Array class).
NOT_FUNCTIONS = frozenset(("Array", "e", "inf", "nan", "pi", "newaxis", "linalg", "fft", "policy", *DTYPES))


def kind_of(name: str) -> str | None:
    """The probe kind of a public name (``"linalg.inv"`` for an extension's), None where there is none."""
    fam = FUNCTION_FAMILY.get(name)
    if name in NATIVE:
        return "binary"
    if name in LINALG_BINARY:
        return "linalg_binary"
    if name in NARY:
        return "nary"
    if name in SEARCH:
        return "search"
    if name == "setitem":
        return "setitem"
    if name in DTYPE_FUNCTIONS:
        return name
    if name in CREATION:
        return "creation"
    if name in KEEPING:
        return "keeping"
    if name in INFO:
        return "info"
    if fam in _ELEMENTWISE_FAMILIES or name in _DELEGATED_ELEMENTWISE:
        return "elementwise"
    if name in _REDUCTIONS or fam in ("mean", "std", "var", "extrema", "argextrema"):
        return "reduction"
    if name.startswith("linalg.") and (fam is not None or name in _OTHER_LINALG):
        return "linalg"
    if name.startswith("fft.") and fam is not None:
        return "fft"
    return None


def public_names() -> tuple[str, ...]:
    """Every name the probe knows a kind for (the test compares them with a namespace's ``dir``)."""
    names = {
        *NATIVE, *FUNCTION_FAMILY, *_DELEGATED_ELEMENTWISE, *_REDUCTIONS, *KEEPING, *CREATION, *NARY,
        *LINALG_BINARY, *SEARCH, *DTYPE_FUNCTIONS, *INFO, *_OTHER_LINALG,
        *(op for op, fam in FAMILY.items() if fam != "setitem"),
    }  # fmt: skip
    return (*sorted(names), "setitem")


def family(case: Case) -> str:
    """The op family of a case, for the report: the registry's family, else its kind."""
    if case.spelling == "setitem":
        return "setitem"
    return FAMILY.get(case.op) or FUNCTION_FAMILY.get(case.op) or case.kind


# --- operands -----------------------------------------------------------------------------------

_INT_BITS = {
    "int8": 8,
    "int16": 16,
    "int32": 32,
    "int64": 64,
    "uint8": 8,
    "uint16": 16,
    "uint32": 32,
    "uint64": 64,
}
#: (max, smallest normal, smallest subnormal) of each real float dtype.
FLOAT_LIMITS: dict[str, tuple[float, float, float]] = {
    "float16": (65504.0, 2.0**-14, 2.0**-24),
    "bfloat16": (3.3895313892515355e38, 2.0**-126, 2.0**-133),
    "float32": (3.4028234663852886e38, 2.0**-126, 2.0**-149),
    "float64": (1.7976931348623157e308, 2.0**-1022, 5e-324),
}
_COMPLEX_PART = {"complex64": "float32", "complex128": "float64"}


def int_range(dtype: str) -> tuple[int, int]:
    """The smallest and largest value of an integer dtype."""
    bits = _INT_BITS[dtype]
    return (0, 2**bits - 1) if dtype.startswith("u") else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)


def kind_letter(dtype: str) -> str:
    """``b``, ``i``, ``u``, ``f`` or ``c``."""
    return "b" if dtype == "bool" else dtype[0] if dtype[0] in "iuc" else "f"


def edge_values(dtype: str) -> list[Any]:
    """The ``edge`` values of ``dtype``: zeros, ones, its limits, subnormals, infinities, NaN."""
    k = kind_letter(dtype)
    if k == "b":
        return [False, True]
    if k in "iu":
        lo, hi = int_range(dtype)
        half = 2 ** (_INT_BITS[dtype] - 1)
        return sorted({0, 1, 2, 3, hi, hi - 1, lo, lo + 1, half - 1} | ({-1, -2} if k == "i" else {half}))
    if k == "f":
        big, tiny, sub = FLOAT_LIMITS[dtype]
        out = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            3.0,
            big,
            -big,
            tiny,
            sub,
            -sub,
            math.inf,
            -math.inf,
            math.nan,
        ]
        if dtype in ("float32", "float64"):
            out += [65504.0, 65520.0, 2.0**63]
        return out
    part = FLOAT_LIMITS[_COMPLEX_PART[dtype]][0]
    inf, nan = math.inf, math.nan
    return [
        0j, complex(-0.0, 0.0), 1 + 0j, -1 + 0j, 1j, 1 - 1j, 0.5 + 2j, complex(part, 0), complex(inf, 0),
        complex(0, -inf), complex(nan, 0), complex(inf, nan), complex(nan, 1.0),
    ]  # fmt: skip


def one_values(dtype: str, shape: str) -> Any:
    """The ``one`` (benign) values of ``dtype`` in ``shape``."""
    k = kind_letter(dtype)
    rows: dict[str, list[Any]] = {
        "b": [True, False, True],
        "i": [1, 2, 3],
        "u": [1, 2, 3],
        "f": [0.5, 2.0, 3.0],
        "c": [1 + 1j, 2 + 0j, 0.5 - 1j],
    }
    row = rows[k]
    scalar: Any = {"b": True, "i": 2, "u": 2, "f": 1.5, "c": 1.5 + 0.5j}[k]
    if shape == "0d":
        return scalar
    if shape == "nd":
        return row
    if shape == "sorted":
        return [False, True, True] if k == "b" else sorted(row, key=lambda v: (abs(v), str(v)))
    if shape == "vec4":
        return [row[0], row[1], row[2], row[0]]
    if shape == "m23":
        return [row, row[::-1]]
    if shape == "idx":
        return [1, 0]
    if shape == "idx2":
        return [[1, 0, 2], [0, 2, 1]]
    if shape == "mat":  # 2 I + 1: symmetric positive definite, exact in every dtype (bool: the identity)
        on, off = (True, False) if k == "b" else (3, 1)
        return [[on if i == j else off for j in range(3)] for i in range(3)]
    raise ValueError(f"no shape {shape!r}")


@dataclass(frozen=True)
class Operand:
    """A token, parsed: ``what`` is array, py, np, dtype, literal or none."""

    what: str
    dtype: str | None = None
    value: Any = None  #: nested Python lists for an array
    shape: str = ""


def _py(kind: str, text: str) -> Any:
    if kind == "bool":
        return text == "True"
    return {"int": int, "float": float, "complex": complex}[kind](text)


@functools.lru_cache(maxsize=4096)
def operand(token: str) -> Operand:
    """The operand a token describes (see the module docstring)."""
    head, _, rest = token.partition(":")
    if token == "none":
        return Operand("none")
    if head == "py":
        kind, _, text = rest.partition(":")
        return Operand("py", kind, _py(kind, text))
    if head == "np":
        dtype, _, text = rest.partition(":")
        return Operand(
            "np",
            dtype,
            _py({"b": "bool", "i": "int", "u": "int", "f": "float"}.get(kind_letter(dtype), "complex"), text),
        )
    if head == "dt":
        return Operand("dtype", rest)
    if head == "lit":
        return Operand("literal", value=ast.literal_eval(rest))
    shape, _, cls = rest.partition(":")
    if cls == "edge":
        values: Any = edge_values(head)
        if shape == "col":
            values = [[v] for v in values]
        elif shape == "0d":
            values = values[len(values) // 2]
    else:
        values = one_values(head, shape)
    return Operand("array", head, values, shape)


# --- cases --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One call: ``kind`` (from :func:`kind_of`), op, spelling, operand tokens, keyword tokens."""

    kind: str
    op: str
    spelling: str
    args: tuple[str, ...]
    kwargs: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> str:
        """The case's stable name: ``op|spelling|arg|arg|name=arg``."""
        return "|".join((self.op, self.spelling, *self.args, *(f"{k}={v}" for k, v in self.kwargs)))


def _arrays(shapes: tuple[str, ...] = ("nd", "0d"), cls: str = "one") -> list[str]:
    return [f"{d}:{s}:{cls}" for s in shapes for d in DTYPES]


#: The Python scalars of the promotion grid, and the scalars at and beyond the dtypes' limits.
SCALARS = ("py:bool:True", "py:int:2", "py:float:1.5", "py:complex:(1.5+0.5j)")
EDGE_SCALARS = tuple(
    f"py:{type(v).__name__}:{v!r}"
    for v in (
        True, False, 0, 1, -1, 127, 128, 255, 256, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63) - 1,
        0.0, -0.0, 5e-324, 65504.0, 70000.0, 3.5e38, 1e300, math.inf, -math.inf, math.nan,
        complex(math.inf, 0), complex(math.nan, 0),
    )
)  # fmt: skip


def _np_scalars() -> list[str]:
    return [f"np:{d}:{operand(f'{d}:0d:one').value!r}" for d in DTYPES]


def _rotated(op_index: int, lefts: list[str], rights: list[str], salt: int = 0) -> Iterator[tuple[str, str]]:
    """Every (left dtype, right dtype) once, their roles rotated, so every dtype meets every role."""
    by_dtype_l = [[t for t in lefts if operand(t).dtype == d] for d in DTYPES]
    by_dtype_r = [[t for t in rights if operand(t).dtype == d] for d in DTYPES]
    for i, ls in enumerate(by_dtype_l):
        for j, rs in enumerate(by_dtype_r):
            if ls and rs:
                n = i + j + op_index + salt
                yield ls[n % len(ls)], rs[(n // len(ls)) % len(rs)]


def _binary_case(op: str, *args: str, s: str = "function") -> Case:
    return Case("binary", op, s, args)


def _binary(policy: str) -> Iterator[Case]:
    arrays, nds = _arrays(), _arrays(("nd",))
    extra = EXTRA_SPELLINGS.get(policy, ())
    nps = _np_scalars() if policy == "numpy" else []
    for n, op in enumerate(sorted(NATIVE)):
        fn = functools.partial(_binary_case, op)
        yield from (fn(a, b) for a in nds for b in nds)
        yield from (fn(a, b) for a, b in _rotated(n, arrays, arrays) if "0d" in a + b)
        yield from (fn(a, b) for a, b in _rotated(n + 1, arrays, arrays) if "0d" in a + b)
        yield from (fn(a, s) for a in arrays for s in SCALARS)
        yield from (fn(s, a) for a in arrays for s in SCALARS)
        for a, s in _rotated(n, nds + arrays[15:], nps):
            yield fn(a, s)
            yield fn(s, a)
        spellings = [*(("operator", "reflected") if op in DUNDER else ()), *extra]
        if op in DUNDER and op not in COMPARISONS:
            spellings.append("inplace")
        for s in spellings:
            if s == "reflected":
                yield from (fn(sc, a, s=s) for a in arrays for sc in (*SCALARS, *nps))
                continue
            lefts = nds if s in ("inplace", "method_") else arrays  # a 0-d target cannot take an n-d value
            pairs = _rotated(n, lefts, arrays, salt=len(s))
            if s.startswith("method"):  # the framework's second spelling: half the pairs, n-d with scalars
                yield from (fn(a, b, s=s) for k, (a, b) in enumerate(pairs) if (k + n) % 2 == 0)
                yield from (fn(a, sc, s=s) for a in nds for sc in SCALARS)
                continue
            yield from (fn(a, b, s=s) for a, b in pairs)
            yield from (fn(a, sc, s=s) for a in arrays for sc in SCALARS)
        # values at the edges: a column against a row of every dtype, and Python scalars
        for i, d in enumerate(DTYPES):
            yield fn(f"{d}:col:edge", f"{d}:nd:edge")
            yield fn(f"{d}:col:edge", f"{DTYPES[(i + 1 + n) % len(DTYPES)]}:nd:edge")
            for j, sc in enumerate(EDGE_SCALARS):
                yield fn(f"{d}:nd:one", sc, s="operator" if op in DUNDER else "function")
                if (i + j) % 2 == 0:
                    yield fn(sc, f"{d}:nd:one", s="reflected" if op in DUNDER else "function")


def _one_array(policy: str) -> Iterator[Case]:
    for name in sorted(
        set(FUNCTION_FAMILY) | set(_DELEGATED_ELEMENTWISE) | set(_REDUCTIONS) | set(_OTHER_LINALG)
    ):
        kind = kind_of(name)
        if kind == "linalg":
            kwargs = (("n", "lit:2"),) if name == "linalg.matrix_power" else ()
            yield from (Case(kind, name, "function", (f"{d}:mat:one",), kwargs) for d in DTYPES)
            continue
        if kind == "fft":
            yield from (Case(kind, name, "function", (f"{d}:vec4:one",)) for d in DTYPES)
            continue
        inputs = _arrays(("nd", "0d")) + _arrays(("nd",), "edge")
        if kind == "reduction" and name in ("cumulative_sum", "cumulative_prod", "diff"):
            inputs = _arrays(("nd",)) + _arrays(("nd",), "edge")
        if name == "linalg.trace":
            inputs = [f"{d}:mat:one" for d in DTYPES]
        spellings = ["function", *(("operator",) if name in UNARY_DUNDER else ())]
        for s in spellings:
            yield from (Case(kind or "", name, s, (x,)) for x in inputs)
        if name in ACCUMULATING:
            src = [f"{d}:mat:one" for d in DTYPES] if name == "linalg.trace" else _arrays(("nd",))
            yield from (
                Case("reduction", name, "function", (x,), (("dtype", f"dt:{d}"),))
                for x in src
                for d in DTYPES
            )


def _nary(policy: str) -> Iterator[Case]:
    nds, arrays = _arrays(("nd",)), _arrays()
    dts = [f"dt:{d}" for d in DTYPES]
    toks = [*dts, *arrays, *SCALARS]
    # result_type: every pair and triple of dtypes, a rotation of arrays and scalars, quadruples sampled
    yield from (Case("nary", "result_type", "function", (t,)) for t in toks)
    yield from (Case("nary", "result_type", "function", (a, b)) for a in dts for b in dts)
    yield from (Case("nary", "result_type", "function", (a, b)) for a, b in _rotated(0, arrays, arrays))
    yield from (
        Case("nary", "result_type", "function", (a, s))
        for a in dts + arrays
        for s in (*SCALARS, *EDGE_SCALARS[2:14])
    )
    yield from (Case("nary", "result_type", "function", (a, b, c)) for a in dts for b in dts for c in dts)
    for n, (a, b, c, d) in enumerate(_tuples(4, 600)):
        yield Case("nary", "result_type", "function", tuple(f"dt:{x}" for x in (a, b, c, d)))
        if n % 3 == 0:
            yield Case(
                "nary", "result_type", "function", (f"{a}:0d:one", f"dt:{b}", SCALARS[n % 4], f"{c}:nd:one")
            )
    for op in ("concat", "stack"):
        yield from (Case("nary", op, "function", (a,)) for a in nds)
        yield from (Case("nary", op, "function", (a, b)) for a in nds for b in nds)
        yield from (
            Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(3, 400, op)
        )
        yield from (
            Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(4, 150, op)
        )
        yield from (Case("nary", op, "function", (f"{d}:nd:edge", f"{d}:nd:one")) for d in DTYPES)
    cond, edge_cond = "bool:nd:one", "bool:col:edge"
    yield from (
        Case("nary", "where", "function", (cond, a, b))
        for a in arrays
        for b in arrays
        if "0d" not in a or "0d" not in b
    )
    yield from (Case("nary", "where", "function", (cond, a, s)) for a in arrays for s in SCALARS)
    yield from (Case("nary", "where", "function", (cond, s, a)) for a in arrays for s in SCALARS)
    yield from (
        Case("nary", "where", "function", (edge_cond, f"{d}:nd:edge", s))
        for d in DTYPES
        for s in EDGE_SCALARS
    )
    bounds = ["none", *SCALARS, *_arrays(("0d",))]
    yield from (Case("nary", "clip", "function", (x, lo, "none")) for x in nds for lo in bounds[1:])
    yield from (Case("nary", "clip", "function", (x, "none", hi)) for x in nds for hi in bounds[1:])
    yield from (Case("nary", "clip", "function", (x, lo, hi)) for x, lo, hi in _clip_triples(bounds))
    yield from (
        Case("nary", "clip", "function", (f"{d}:nd:edge", s, "none")) for d in DTYPES for s in EDGE_SCALARS
    )
    for op in ("meshgrid", "broadcast_arrays"):
        for arity in (1, 2, 3, 4):
            yield from (
                Case("nary", op, "function", tuple(f"{x}:nd:one" for x in t)) for t in _tuples(arity, 15, op)
            )


def _tuples(arity: int, count: int, salt: str = "") -> list[tuple[str, ...]]:
    """``count`` deterministic ``arity``-tuples of dtypes, every dtype in every position."""
    out = []
    for n in range(count):
        h = zlib.crc32(f"{salt}{arity}:{n}".encode())
        out.append(tuple(DTYPES[(n + i * (h >> (4 * i))) % len(DTYPES)] for i in range(arity)))
    return out


def _clip_triples(bounds: list[str]) -> Iterator[tuple[str, str, str]]:
    for i, d in enumerate(DTYPES):
        for j, lo in enumerate(bounds[1:]):
            yield f"{d}:nd:one", lo, bounds[1 + (i + j) % (len(bounds) - 1)]


def _two_arrays() -> Iterator[Case]:
    mats, vecs = [f"{d}:mat:one" for d in DTYPES], _arrays(("nd",))
    for op in LINALG_BINARY:
        short = op.rpartition(".")[2]
        ins = vecs if short in ("vecdot", "outer", "cross") else mats
        yield from (Case("linalg_binary", op, "function", (a, b)) for a in ins for b in ins)
        if op == "matmul":
            yield from (
                Case("linalg_binary", op, s, (a, b))
                for s in ("operator", "inplace")
                for a in mats
                for b in mats
            )
        if short == "tensordot":
            yield from (
                Case("linalg_binary", op, "function", (a, b), (("axes", "lit:1"),))
                for a in vecs[:15:3]
                for b in vecs
            )
    for op in SEARCH:
        first = [f"{d}:sorted:one" for d in DTYPES] if op == "searchsorted" else vecs
        yield from (Case("search", op, "function", (a, b)) for a in first for b in vecs)
        yield from (
            Case("search", op, "function", (a, b)) for a in first for b in (*_arrays(("0d",)), *SCALARS)
        )
        yield from (Case("search", op, "function", (a, s)) for a in first[::2] for s in EDGE_SCALARS)


def _dtype_functions() -> Iterator[Case]:
    for a in DTYPES:
        for b in DTYPES:
            yield Case("can_cast", "can_cast", "function", (f"dt:{a}", f"dt:{b}"))
            yield Case("astype", "astype", "function", (f"{a}:nd:one", f"dt:{b}"))
            yield Case("astype", "astype", "function", (f"{a}:nd:edge", f"dt:{b}"))
        yield Case("can_cast", "can_cast", "function", (f"{a}:nd:one", "dt:float64"))
        for kind in (
            "bool",
            "signed integer",
            "unsigned integer",
            "integral",
            "real floating",
            "complex floating",
            "numeric",
        ):
            yield Case("isdtype", "isdtype", "function", (f"dt:{a}", f"lit:{kind!r}"))
        yield Case("finfo", "finfo", "function", (f"dt:{a}",))
        yield Case("iinfo", "iinfo", "function", (f"dt:{a}",))
    yield Case("info", "broadcast_shapes", "function", ("lit:(2, 1)", "lit:(3,)"))
    yield Case("info", "broadcast_shapes", "function", ("lit:(2,)", "lit:(3,)"))


def _creation() -> Iterator[Case]:
    data = [
        *SCALARS, *EDGE_SCALARS, "lit:[1, 2]", "lit:[1, 2.5]", "lit:[True, 2]", "lit:[1, 2j]", "lit:[]",
        "lit:[[1, 2], [3, 4]]", f"lit:[1, {2**63}]", f"lit:[{-(2**63)}, {2**64 - 1}]", "lit:[1.5, True, 3]",
    ]  # fmt: skip
    for x in data:
        yield Case("creation", "asarray", "function", (x,))
        for d in ("int8", "uint8", "float16", "float32", "complex64", "bool"):
            yield Case("creation", "asarray", "function", (x,), (("dtype", f"dt:{d}"),))
    for d in DTYPES:
        yield Case("creation", "asarray", "function", (f"{d}:nd:one",))
        yield Case("creation", "asarray", "function", ("lit:[1, 0]",), (("dtype", f"dt:{d}"),))
    ranges = [("3",), ("3.5",), ("1", "4"), ("0.5", "3"), ("1", "4", "2"), ("0", "1", "0.25"), ("True", "3")]
    for r in ranges:
        args = tuple(f"lit:{a}" for a in r)
        yield Case("creation", "arange", "function", args)
        for d in DTYPES:
            yield Case("creation", "arange", "function", args, (("dtype", f"dt:{d}"),))
    for args in (
        ("lit:0", "lit:1", "lit:5"),
        ("lit:0", "lit:10", "lit:4"),
        ("lit:0.5", "lit:2", "lit:3"),
        ("lit:0", "py:complex:(1+1j)", "lit:3"),
    ):
        yield Case("creation", "linspace", "function", args)
        yield from (Case("creation", "linspace", "function", args, (("dtype", f"dt:{d}"),)) for d in DTYPES)
    for v in (*SCALARS, *EDGE_SCALARS):
        yield Case("creation", "full", "function", ("lit:(2,)", v))
        yield from (
            Case("creation", "full", "function", ("lit:(2,)", v), (("dtype", f"dt:{d}"),))
            for d in DTYPES[::2]
        )
    for name in ("zeros", "ones", "empty", "eye", "fft.fftfreq", "fft.rfftfreq"):
        arg = "lit:3" if name in ("eye", "fft.fftfreq", "fft.rfftfreq") else "lit:(2,)"
        yield Case("creation", name, "function", (arg,))
        yield from (Case("creation", name, "function", (arg,), (("dtype", f"dt:{d}"),)) for d in DTYPES)


def _keeping() -> Iterator[Case]:
    for name, extra in KEEPING.items():
        shape = (
            "m23"
            if name
            in (
                "reshape",
                "broadcast_to",
                "tile",
                "take_along_axis",
                "moveaxis",
                "permute_dims",
                "matrix_transpose",
                "tril",
                "triu",
                "unstack",
                "linalg.diagonal",
                "linalg.matrix_transpose",
                "squeeze",
            )
            else "nd"
        )
        if name == "squeeze":
            shape = "col"
        for d in DTYPES:
            x = f"{d}:{shape}:{'edge' if shape == 'col' else 'one'}"
            yield Case("keeping", name, "function", (x, *extra))
            if name in ("empty_like", "ones_like", "zeros_like", "full_like"):
                yield from (
                    Case("keeping", name, "function", (x, *extra), (("dtype", f"dt:{t}"),)) for t in DTYPES
                )
        if name == "full_like":
            yield from (
                Case("keeping", name, "function", (f"{d}:nd:one", s)) for d in DTYPES for s in EDGE_SCALARS
            )


def _setitem() -> Iterator[Case]:
    for a in _arrays(("nd",)):
        for v in (*_arrays(("0d",)), *SCALARS):
            yield Case("setitem", "setitem", "setitem", (a, v))
        for v in EDGE_SCALARS:
            yield Case("setitem", "setitem", "setitem", (a, v))


@functools.lru_cache(maxsize=8)
def cases(policy: str) -> tuple[Case, ...]:
    """Every case of ``policy``, in a fixed order, each key once."""
    seen: dict[str, Case] = {}
    for gen in (
        _binary(policy),
        _one_array(policy),
        _nary(policy),
        _two_arrays(),
        _dtype_functions(),
        _creation(),
        _keeping(),
        _setitem(),
    ):
        for c in gen:
            seen.setdefault(c.key, c)
    return tuple(seen.values())


def subsample(items: tuple[Case, ...], every: int, salt: str = "") -> list[Case]:
    """About one case in ``every``, chosen by a hash of its key (deterministic, spread over all kinds)."""
    return [c for c in items if zlib.crc32(f"{salt}{c.key}".encode()) % every == 0]
