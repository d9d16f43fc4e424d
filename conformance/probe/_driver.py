"""The runner protocol and the driver: any framework's observation of every case, stored compressed.

Imports NumPy and :mod:`conformance.probe._space` only, so that a framework
living in another interpreter (Paddle, TensorFlow) runs it as it is.

How to add a framework
----------------------
Write ``conformance/probe/<framework>.py`` with a class implementing
:class:`Adapter` (the spelling table: which native call is each op's
``function``, ``method`` and ``method_``; how to make arrays; how to read
results back as NumPy arrays; how to classify the framework's exceptions)
and a ``main()`` calling :func:`write` for its policy.  The generic spellings
(``operator``, ``reflected``, ``inplace``, ``setitem``) are Python's own and
run here.  Then ``python -m conformance.probe.<framework>`` (with
``PYTHONPATH`` at the repository root) writes
``tests/reference/probe-<policy>.json.gz``, and ``conformance/probe/_fidelity.py``
compares it with promo_ns.  See :mod:`conformance.probe.torch` for a full example.

Observations (strings)
----------------------
* ``"<dtype> <shape> <hex>"``: an array result: canonical dtype name, shape
  (``2x3``, ``-`` for 0-d), its little-endian bytes in hex (bfloat16 as its
  16 bits, bool one byte an element); ``?`` for the bytes where the values
  were not computed (a dtype the framework decided without a kernel, or an
  op whose values are not unique: ``empty``, eigenvectors ...).  A tuple of
  results joins its parts with ``"; "``;
* ``"dtype <name>"`` (``result_type``), ``"value <text>"`` (``can_cast``,
  ``finfo``, ``broadcast_shapes`` ...);
* ``"refused"``: the framework's dtype decision refuses the operands;
* ``"error: <Class>"``: a value error (ZeroDivisionError, OverflowError, ValueError, ...);
* ``"unsupported: <reason>"``: the framework cannot run it for a reason that is no
  decision (no kernel, no dtype);
* ``"absent"``: the framework has no such spelling or function.
"""

from __future__ import annotations

import gzip
import json
import operator
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from conformance.probe._space import DTYPES, Case, cases, operand

__all__ = ["Absent", "Adapter", "encode", "observe", "probe", "reference", "write"]

REFERENCE = Path(__file__).resolve().parents[2] / "tests" / "reference"
#: ops whose values are not unique (eigenvectors, signs of singular vectors) or not defined (``empty``).
VALUELESS = frozenset(
    ("empty", "empty_like", "linalg.eig", "linalg.eigh", "linalg.eigvals", "linalg.qr", "linalg.svd")
)
BINARY_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "floor_divide": operator.floordiv, "remainder": operator.mod, "pow": operator.pow,
    "matmul": operator.matmul, "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    "bitwise_xor": operator.xor, "bitwise_left_shift": operator.lshift,
    "bitwise_right_shift": operator.rshift, "equal": operator.eq, "not_equal": operator.ne,
    "less": operator.lt, "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge,
}  # fmt: skip
INPLACE_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
    "divide": operator.itruediv, "floor_divide": operator.ifloordiv, "remainder": operator.imod,
    "pow": operator.ipow, "matmul": operator.imatmul, "bitwise_and": operator.iand,
    "bitwise_or": operator.ior, "bitwise_xor": operator.ixor, "bitwise_left_shift": operator.ilshift,
    "bitwise_right_shift": operator.irshift,
}  # fmt: skip
UNARY_OPERATORS: dict[str, Callable[[Any], Any]] = {
    "negative": operator.neg, "positive": operator.pos, "bitwise_invert": operator.invert, "abs": abs,
}  # fmt: skip


class Absent(Exception):  # noqa: N818  (a signal, not an error)
    """The framework has no such function or spelling."""


class Adapter(Protocol):
    """What a framework supplies: its spelling table, arrays, results and errors."""

    name: str
    version: str
    policy: str

    def array(self, values: Any, dtype: str) -> Any:
        """A native array of canonical ``dtype`` holding ``values`` (nested lists); LookupError if none."""

    def scalar(self, value: Any, dtype: str) -> Any:
        """A NumPy-scalar operand (``np:`` tokens, numpy policy); :class:`Absent` where there is none."""

    def dtype(self, name: str) -> Any:
        """The native dtype of a canonical name; LookupError if none."""

    def function(self, case: Case) -> Callable[..., Any]:
        """The native call of ``case.op`` taking the standard's arguments; :class:`Absent` where none."""

    def method(self, case: Case) -> Callable[..., Any]:
        """The second spelling (``case.spelling``: ``method`` or ``method_``); :class:`Absent` if none."""

    def copy(self, x: Any) -> Any:
        """A copy of a native array (the target of an in-place spelling)."""

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        """``(canonical dtype, values)`` of a native array, None where ``x`` is none.

        bfloat16 values come as float32; values None: not computed.
        """

    def dtype_name(self, x: Any) -> str | None:
        """The canonical name of a native dtype object, None where ``x`` is none."""

    def classify(self, exc: BaseException, case: Case) -> str:
        """``"refused"``, ``"error: <Class>"`` or ``"unsupported: <reason>"`` (see the module docstring)."""

    def fallback(self, case: Case, args: list[Any], kwargs: dict[str, Any], exc: BaseException) -> Any:
        """The result the framework decides without a kernel (torch: on meta); else re-raise ``exc``."""


# --- encoding -----------------------------------------------------------------------------------


def _bits(dtype: str, values: np.ndarray[Any, Any]) -> str:
    if dtype == "bfloat16":
        raw = (np.ascontiguousarray(values, dtype=np.float32).view(np.uint32) >> 16).astype("<u2")
        return raw.tobytes().hex()
    if dtype == "bool":
        return np.ascontiguousarray(values, dtype=np.uint8).tobytes().hex()
    return np.ascontiguousarray(values, dtype=np.dtype(dtype).newbyteorder("<")).tobytes().hex()


def encode(dtype: str, values: np.ndarray[Any, Any] | None, shape: tuple[int, ...] | None = None) -> str:
    """One array result as an observation part (see the module docstring)."""
    if values is not None:
        shape = tuple(values.shape)
    text = "x".join(map(str, shape)) if shape else "-"
    if dtype not in DTYPES:  # NumPy's object arrays (a list of ints beyond int64): no bits to store
        values = None
    return f"{dtype} {text} {'?' if values is None else _bits(dtype, values)}"


def _number(v: Any) -> int | float:
    return int(v) if isinstance(v, (int, np.integer)) else float(v)


def _plain(x: Any) -> str:
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in x):
        return str(tuple(int(v) for v in x))
    if isinstance(x, (int, float, complex, np.number)):
        return repr(x.item() if isinstance(x, np.generic) else x)
    fields = ("bits", "eps", "max", "min", "smallest_normal")
    if all(hasattr(x, f) for f in ("bits", "max", "min")):  # finfo / iinfo
        return " ".join(f"{f}={_number(getattr(x, f))!r}" for f in fields if hasattr(x, f))
    return type(x).__name__


def _result(fw: Adapter, case: Case, out: Any) -> str:
    if isinstance(out, (tuple, list)) and out and fw.to_numpy(out[0]) is not None:
        return "; ".join(_result(fw, case, o) for o in out)
    got = fw.to_numpy(out)
    if got is not None:
        dtype, values = got
        if values is not None and case.op in VALUELESS:
            return encode(dtype, None, tuple(values.shape))
        return encode(dtype, values) if values is not None else f"{dtype} ? ?"  # decided, not computed
    name = fw.dtype_name(out)
    if name is not None:
        return f"dtype {name}"
    return f"value {_plain(out)}"


# --- running a case -----------------------------------------------------------------------------


def _build(fw: Adapter, token: str) -> Any:
    o = operand(token)
    if o.what == "array":
        return fw.array(o.value, str(o.dtype))
    if o.what == "py" or o.what == "literal":
        return o.value
    if o.what == "np":
        return fw.scalar(o.value, str(o.dtype))
    if o.what == "dtype":
        return fw.dtype(str(o.dtype))
    return None


def call(fw: Adapter, case: Case, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """Run ``case`` in its spelling on built operands."""
    s = case.spelling
    if s == "function":
        return fw.function(case)(*args, **kwargs)
    if s in ("operator", "reflected"):
        if len(args) == 1:
            return UNARY_OPERATORS[case.op](args[0])
        return BINARY_OPERATORS[case.op](*args)
    if s == "inplace":
        target = fw.copy(args[0])
        out = INPLACE_OPERATORS[case.op](target, args[1])
        return out
    if s == "method":
        return fw.method(case)(*args)
    if s == "method_":
        fn = fw.method(case)
        target = fw.copy(args[0])
        return fn(target, *args[1:])
    if s == "setitem":
        target = fw.copy(args[0])
        target[0] = args[1]
        return target
    raise ValueError(f"no spelling {s!r}")


def observe(fw: Adapter, case: Case) -> str:
    """The framework's observation of one case (see the module docstring)."""
    try:
        args = [_build(fw, t) for t in case.args]
        kwargs = {k: _build(fw, t) for k, t in case.kwargs}
    except LookupError as exc:
        return f"unsupported: {str(exc)[:80]}"
    except Absent:
        return "absent"
    try:
        out = call(fw, case, args, kwargs)
    except Absent:
        return "absent"
    except Exception as exc:
        try:
            out = fw.fallback(case, args, kwargs, exc)
        except Absent:
            return "absent"
        except Exception as final:
            return fw.classify(final, case)
    try:
        return _result(fw, case, out)
    except Exception as exc:  # a lazy result that fails when computed
        return fw.classify(exc, case)


def probe(fw: Adapter, items: Iterable[Case] | None = None) -> dict[str, str]:
    """Observe every case of the framework's policy (or ``items``): key -> observation."""
    import warnings

    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return {c.key: observe(fw, c) for c in (cases(fw.policy) if items is None else items)}


def reference(policy: str) -> Path:
    """Where ``policy``'s framework observations live: ``tests/reference/probe-<policy>.json.gz``."""
    return REFERENCE / f"probe-{policy}.json.gz"


def write(
    fw: Adapter, command: str, path: Path | None = None, items: list[Case] | None = None, every: int = 1
) -> Path:
    """Probe every case of ``fw.policy`` (or ``items``) and store the observations (gzip, reproducible bytes).

    ``every``: the stored cases are one in ``every`` of the policy's (``items``, a
    deterministic sample), recorded with them; the comparisons skip the others.
    """
    start = time.perf_counter()
    observed = probe(fw, items)
    data = {
        "framework": fw.name,
        "version": fw.version,
        "policy": fw.policy,
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "command": command,
        "seconds": round(time.perf_counter() - start, 1),
        "cases": len(observed),
        **({"every": every} if every > 1 else {}),
        "observations": observed,
    }
    path = path or reference(fw.policy)
    raw = json.dumps(data, indent=0, separators=(",", ":")).encode()
    with path.open("wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0, compresslevel=9) as z:
        z.write(raw)
    return path


def main(fw: Adapter, command: str) -> None:
    """A runner's command: probe ``fw`` with the framework's warnings silenced, store, say where."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = write(fw, command)
    print(f"wrote {path}")


def load(policy: str) -> dict[str, Any]:
    """The stored observations of ``policy``'s framework."""
    with gzip.open(reference(policy), "rb") as f:
        data: dict[str, Any] = json.loads(f.read())
    return data
