"""The cells every framework checker enumerates, and the driver that probes them.

A *cell* is one op applied to operands described by tokens:

* ``"<dtype>:nd"`` -- a 1-d (2-d for ``matmul``) array of that canonical dtype,
* ``"<dtype>:0d"`` -- a 0-d array of that dtype,
* ``"py:bool"``, ``"py:int"``, ``"py:float"``, ``"py:complex"`` -- a Python scalar.

A binary cell's key is ``"LEFT|RIGHT"``, a unary cell's key is the operand's token.
Its observation is a canonical dtype name, ``"refused"`` when the framework
rejects the dtype combination (its promotion decision), or ``"unsupported: ..."``
when the framework cannot run the op for a reason that is not a promotion
decision (a missing kernel, say).  For the ``*_out_of_range`` ops the right
operand is a Python int just past the range of the left array's dtype, and
``"overflow"`` records an ``OverflowError``.  Array operands are ones; the
first element of each result is recorded as its value (``None`` where the
framework decided the dtype without computing, for want of a kernel).

One-array *function cells* (:data:`FUNCTION_OPS`: ``log``, ``mean``,
``linalg.inv``, ``fft.rfft`` ...) are keyed by the input's token
``"<dtype>:nd"``; the input is made by :meth:`FunctionFramework.data` from
:func:`function_data` (``[1, 1]``; a 3x3 matrix ``2 I + 1`` for ``linalg``,
the identity for bool; ``[1, 1, 1, 1]`` for ``fft``).  A function returning a
tuple (``eigh``, ``qr``, ``slogdet``, ``svd``) is observed as its outputs'
dtypes joined by ``,``.  A cell the CPU cannot run where the framework still
decides the dtype (a missing kernel) is observed as that decided dtype and
listed under the checker's ``no_kernel``.

This module imports no framework: each checker supplies a :class:`Framework`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

DTYPES: tuple[str, ...] = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
ARRAY_ROLES: tuple[str, ...] = ("nd", "0d")
SCALAR_KINDS: tuple[str, ...] = ("bool", "int", "float", "complex")
SCALAR_VALUES: dict[str, object] = {"bool": True, "int": 1, "float": 1.5, "complex": 1 + 1j}

#: Binary ops probed with every pair of operands (at least one an array).
BINARY_OPS: tuple[str, ...] = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "pow",
    "maximum",
    "minimum",
    "equal",
    "less",
    "logical_and",
    "bitwise_and",
    "bitwise_left_shift",
    "atan2",
    "hypot",
    "copysign",
    "nextafter",
    "logaddexp",
    "where",
    "iadd",
)
#: Binary ops probed with n-d arrays only.
ARRAY_ONLY_OPS: tuple[str, ...] = ("matmul",)
#: Unary ops whose result dtype is an accumulation dtype.
UNARY_OPS: tuple[str, ...] = ("sum", "prod", "cumulative_sum")
#: ``add`` with a Python int just outside the range of an integer array's dtype.
OUT_OF_RANGE_OPS: tuple[str, ...] = ("add_out_of_range",)

#: One-array elementwise functions whose result dtype a policy's ``functions`` grid decides.
ELEMENTWISE_FUNCTIONS: tuple[str, ...] = (
    *("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan", "tanh"),
    *("exp", "expm1", "log", "log1p", "log2", "log10", "sqrt"),
    *("reciprocal", "abs", "negative", "positive", "sign", "square", "ceil", "floor", "round", "trunc"),
)
#: Full reductions (of a 1-d array) whose result dtype the ``functions`` grid decides.
REDUCTION_FUNCTIONS: tuple[str, ...] = ("mean", "std", "var", "max", "min", "argmax", "argmin")
#: ``linalg`` functions, run on a 3x3 matrix.
LINALG_FUNCTIONS: tuple[str, ...] = tuple(
    f"linalg.{name}"
    for name in (
        *("cholesky", "det", "eigh", "eigvalsh", "inv", "matrix_norm", "pinv", "qr", "slogdet"),
        *("svd", "svdvals", "vector_norm", "matrix_rank"),
    )
)
#: ``fft`` functions, run on a 1-d array of length 4.
FFT_FUNCTIONS: tuple[str, ...] = tuple(
    f"fft.{name}"
    for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "rfftn", "hfft", "ihfft", "irfft", "irfftn")
)
#: Every one-array function probed (the keys of ``promo_ns._ops.FUNCTION_FAMILY``).
FUNCTION_OPS: tuple[str, ...] = ELEMENTWISE_FUNCTIONS + REDUCTION_FUNCTIONS + LINALG_FUNCTIONS + FFT_FUNCTIONS

INT_RANGES: dict[str, tuple[int, int]] = {
    f"{s}int{b}": ((0, 2**b - 1) if s else (-(2 ** (b - 1)), 2 ** (b - 1) - 1))
    for s in ("", "u")
    for b in (8, 16, 32, 64)
}


def array_tokens(roles: tuple[str, ...] = ARRAY_ROLES) -> list[str]:
    """Tokens of every array operand with the given roles."""
    return [f"{d}:{r}" for r in roles for d in DTYPES]


def scalar_tokens() -> list[str]:
    """Tokens of every Python scalar operand."""
    return [f"py:{k}" for k in SCALAR_KINDS]


def cells(op: str) -> Iterator[str]:
    """Every cell key probed for ``op``."""
    if op in UNARY_OPS:
        yield from array_tokens()
    elif op in ARRAY_ONLY_OPS:
        nd = array_tokens(("nd",))
        yield from (f"{a}|{b}" for a in nd for b in nd)
    elif op in OUT_OF_RANGE_OPS:
        yield from (f"{d}:nd|py:int" for d in INT_RANGES)
    elif op == "iadd":
        # A 0-d left operand cannot take an n-d right one in place.
        for a in array_tokens():
            rights = array_tokens(("0d",) if a.endswith(":0d") else ARRAY_ROLES)
            yield from (f"{a}|{b}" for b in rights + scalar_tokens())
    else:
        everything = array_tokens() + scalar_tokens()
        yield from (
            f"{a}|{b}"
            for a in everything
            for b in everything
            if not (a.startswith("py:") and b.startswith("py:"))
        )


class Framework(Protocol):
    """What a checker supplies for one framework."""

    name: str
    version: str

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """A native array of ones of ``dtype``; 0-d when ``role == "0d"``, else ``ndim``-d.

        Raise ``LookupError`` when the framework has no such dtype.
        """

    def run(self, op: str, args: list[Any]) -> Any:
        """Run ``op`` natively on the operands and return the native result."""

    def dtype_name(self, result: Any) -> str:
        """The canonical dtype name of a native result."""

    def classify(self, exc: BaseException) -> str:
        """``"refused"`` for a promotion refusal, else ``"unsupported: <reason>"``."""

    def value(self, result: Any) -> Any:
        """The result's first element as a NumPy-convertible scalar, or ``None`` when not computed."""


class FunctionFramework(Framework, Protocol):
    """A :class:`Framework` that also runs the one-array functions of :data:`FUNCTION_OPS`."""

    def data(self, values: list[Any], dtype: str) -> Any:
        """A native array of ``dtype`` holding ``values`` (nested lists of Python scalars).

        Raise ``LookupError`` when the framework has no such dtype.
        """


def function_cells(op: str) -> list[str]:
    """Every cell key probed for the one-array function ``op``: an n-d array of each dtype."""
    return array_tokens(("nd",))


def function_data(op: str, dtype: str) -> list[Any]:
    """The values of ``op``'s input of ``dtype`` (see the module docstring)."""
    one: bool | int = True if dtype == "bool" else 1
    if op.startswith("linalg."):
        other: bool | int = False if dtype == "bool" else 1
        diagonal: bool | int = True if dtype == "bool" else 3
        return [[diagonal if i == j else other for j in range(3)] for i in range(3)]
    return [one] * (4 if op.startswith("fft.") else 2)


def observe_function(fw: FunctionFramework, op: str, key: str) -> str:
    """The observation of one function cell: a dtype (``a,b`` for a tuple), or a refusal."""
    dtype = key.split(":", maxsplit=1)[0]
    try:
        x = fw.data(function_data(op, dtype), dtype)
    except LookupError as exc:
        return f"unsupported: {exc}"
    try:
        result = fw.run(op, [x])
    except Exception as exc:
        return fw.classify(exc)
    if isinstance(result, tuple):
        return ",".join(fw.dtype_name(r) for r in result)
    return fw.dtype_name(result)


def probe_functions(fw: FunctionFramework, ops: tuple[str, ...] = FUNCTION_OPS) -> dict[str, dict[str, str]]:
    """Observe every cell of every one-array function."""
    return {op: {key: observe_function(fw, op, key) for key in function_cells(op)} for op in ops}


def function_reference(policy: str) -> Path:
    """Where ``policy``'s function observations live: ``tests/reference/<policy>-functions.json``."""
    return reference(policy).with_name(f"{policy}-functions.json")


def write_functions(
    fw: FunctionFramework,
    path: Path,
    command: str,
    ops: dict[str, dict[str, str]],
    extra: dict[str, object] | None = None,
) -> None:
    """Store ``fw``'s function observations ``ops`` (from :func:`probe_functions`) as JSON at ``path``."""
    data = {
        "framework": fw.name,
        "version": fw.version,
        "python": sys.version.split()[0],
        "command": command,
        **(extra or {}),
        "ops": ops,
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")


def operand(fw: Framework, token: str, op: str, left: str | None = None) -> Any:
    """Materialize an operand token for ``op`` (``left`` is the other operand's token)."""
    head, role = token.split(":")
    if head == "py":
        if op in OUT_OF_RANGE_OPS and left is not None:
            return INT_RANGES[left.split(":")[0]][1] + 1
        return SCALAR_VALUES[role]
    return fw.array(head, role, 2 if op in ARRAY_ONLY_OPS else 1)


def standard_call(xp: Any, op: str, args: list[Any]) -> Any:
    """Run ``op`` through an Array API namespace ``xp``: its function, ``x1 += x2`` for ``iadd``.

    A dotted ``op`` (``"linalg.inv"``, ``"fft.rfft"``) is the function of the namespace's extension.
    """
    if "." in op:
        extension, _, name = op.partition(".")
        return getattr(getattr(xp, extension), name)(*args)
    if op == "iadd":
        left = xp.asarray(args[0], copy=True)
        left += args[1]
        return left
    if op == "where":
        return xp.where(xp.ones(2, dtype=xp.bool), *args)
    if op == "cumulative_sum" and args[0].ndim == 0:
        # The standard needs at least one dimension; the accumulation dtype is what is checked.
        return xp.cumulative_sum(xp.reshape(args[0], (1,)))
    return getattr(xp, "add" if op in OUT_OF_RANGE_OPS else op)(*args)


def json_value(x: Any) -> bool | int | float | list[float] | None:
    """A scalar as JSON: ``bool``, ``int``, ``float``, ``[real, imag]`` for a complex; ``None`` stays."""
    if x is None:
        return None
    import numpy as np

    v = np.asarray(x).reshape(-1)[0]
    kind = v.dtype.kind
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    if kind == "c":
        c = complex(v)
        return [c.real, c.imag]
    return float(v)


def observe_value(fw: Framework, op: str, key: str) -> tuple[str, Any]:
    """The observation of one cell and its value (see the module docstring)."""
    tokens = key.split("|")
    try:
        args = [operand(fw, t, op, tokens[0]) for t in tokens]
    except LookupError as exc:
        return f"unsupported: {exc}", None
    try:
        result = fw.run(op, args)
    except OverflowError:
        return "overflow", None
    except Exception as exc:
        return fw.classify(exc), None
    return fw.dtype_name(result), json_value(fw.value(result))


def observe(fw: Framework, op: str, key: str) -> str:
    """The observation of one cell (see the module docstring)."""
    return observe_value(fw, op, key)[0]


def probe(
    fw: Framework,
    ops: tuple[str, ...] | None = None,
    values: dict[str, dict[str, Any]] | None = None,
) -> dict[str, dict[str, str]]:
    """Observe every cell of every op (default: all ops); fill ``values``, if given, with the values."""
    ops = ops or BINARY_OPS + ARRAY_ONLY_OPS + UNARY_OPS + OUT_OF_RANGE_OPS
    out: dict[str, dict[str, str]] = {}
    for op in ops:
        seen = out[op] = {}
        got = {}
        for key in cells(op):
            seen[key], got[key] = observe_value(fw, op, key)
        if values is not None:
            values[op] = got
    return out


def probe_all(fw: Framework) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """Observe every cell of every op: the observations and the values."""
    values: dict[str, dict[str, Any]] = {}
    return probe(fw, values=values), values


def write(fw: Framework, path: Path, command: str, extra: dict[str, object] | None = None) -> None:
    """Probe ``fw`` and store the observations and values as JSON at ``path``."""
    ops, values = probe_all(fw)
    data = {
        "framework": fw.name,
        "version": fw.version,
        "python": sys.version.split()[0],
        "command": command,
        **(extra or {}),
        "ops": ops,
        "values": values,
    }
    path.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")


def reference(policy: str) -> Path:
    """Where the stored observations for ``policy`` live: ``tests/reference/<policy>.json``."""
    return Path(__file__).resolve().parents[2] / "tests" / "reference" / f"{policy}.json"


def load(path: Path) -> dict[str, Any]:
    """Load stored observations."""
    data: dict[str, Any] = json.loads(path.read_text())
    return data
