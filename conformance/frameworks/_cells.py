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


def operand(fw: Framework, token: str, op: str, left: str | None = None) -> Any:
    """Materialize an operand token for ``op`` (``left`` is the other operand's token)."""
    head, role = token.split(":")
    if head == "py":
        if op in OUT_OF_RANGE_OPS and left is not None:
            return INT_RANGES[left.split(":")[0]][1] + 1
        return SCALAR_VALUES[role]
    return fw.array(head, role, 2 if op in ARRAY_ONLY_OPS else 1)


def standard_call(xp: Any, op: str, args: list[Any]) -> Any:
    """Run ``op`` through an Array API namespace ``xp``: its function, ``x1 += x2`` for ``iadd``."""
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
