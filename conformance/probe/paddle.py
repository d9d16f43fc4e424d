"""Paddle's spellings of every probe case, for the ``paddle`` policy: ``python -m conformance.probe.paddle``.

Run with an interpreter that has ``paddlepaddle`` (and NumPy), from the
repository root: ``PYTHONPATH=. /tmp/pvenv/bin/python -m conformance.probe.paddle``;
it writes ``tests/reference/probe-paddle.json.gz``.  Paddle 3.3.1, eager mode, CPU.

Spellings
    ``function`` is Paddle's function of the standard's meaning
    (``paddle.add``, ``paddle.less_than`` for ``less``, ``paddle.concat`` of a
    list, ``paddle.cumsum(x, 0, dtype=)``, ``paddle.std(x, unbiased=False)``,
    ``paddle.to_tensor`` for ``asarray``; ``result_type``, ``can_cast`` and
    ``isdtype`` are absent); ``method`` the Tensor method (``x.add(y)``) and
    ``method_`` its in-place form (``x.add_(y)``).  Paddle's Tensor has no
    ``__iadd__``: ``x += y`` rebinds ``x`` to ``x + y``, which the comparison
    counts as a refusal where the dtype changes.

Arrays
    Made from NumPy arrays of their dtype; uint16, uint32 and uint64 by
    ``astype`` of an int32/int64 tensor (``paddle.to_tensor`` takes none of
    them, and reads NumPy uint16 as bfloat16), bfloat16 from float32.  Dtypes
    are compared by identity (``str(paddle.uint16)`` prints bfloat16).

Refusals and gaps (the messages :mod:`conformance.frameworks.paddle` reads)
    Paddle's promotion refusal ("Type promotion only support ...", "Invalid
    enum data type for type promote", an op without promotion rejecting an
    input of another dtype, ``&`` with a float, ``-`` of bool) is ``refused``.
    A missing CPU kernel is ``unsupported``, except for the binary ops that
    promote before dispatch (:data:`KERNEL_KEY_OPS`), whose decision is the
    dtype of the kernel key (``"<dtype> ? ?"``); a Python scalar a function or
    method does not take (``x.add(1)``, ``x & 1``) is ``unsupported``.
    Integer division by zero and ints Paddle cannot convert are value errors.

Calls that do not return
    Integer ``pow`` with a Python int exponent that is negative or beyond
    int32 (``x ** -1``, ``int32 ** 2**31``) loops for ever in Paddle's scalar
    kernel; integer ``//`` and ``%`` by 0 or -1 may kill the process
    (SIGFPE: ``int32 % bool``, ``INT_MIN // -1``); assigning a complex Python
    scalar into a real tensor aborts it (SIGABRT).  Those calls (:data:`_RISKY`,
    through every spelling) run first in a forked child; one that does not
    return within :data:`TIMEOUT` seconds, or dies, is ``"unsupported: hangs"``
    / ``"unsupported: crashes (<signal>)"``.
"""

from __future__ import annotations

import os
import re
import signal
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

os.environ.setdefault("GLOG_minloglevel", "2")  # Paddle's C++ warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import paddle

from conformance.probe import _driver
from conformance.probe._driver import Absent
from conformance.probe._space import DTYPES, Case

COMMAND = "python -m conformance.probe.paddle"
#: Seconds a possibly endless call may run in its forked child.
TIMEOUT = 10.0
NATIVE: dict[str, Any] = {name: getattr(paddle, name) for name in DTYPES}
#: Dtypes ``paddle.to_tensor`` cannot make: built as ``astype`` of this NumPy dtype's tensor.
_VIA: dict[str, Any] = {"uint16": np.int32, "uint32": np.int64, "uint64": np.int64, "bfloat16": np.float32}
_INTEGRAL = frozenset(NATIVE[d] for d in DTYPES if d == "bool" or d.startswith(("int", "uint")))
_COMPLEX = frozenset((NATIVE["complex64"], NATIVE["complex128"]))


_Risk = Callable[[Any, Any], bool]


class _NoResult(Exception):  # noqa: N818  (an observation, not an error)
    """The call did not return: it hangs or kills the process (the message says which)."""


def _survives(fn: Callable[..., Any], *args: Any) -> None:
    """Run ``fn(*args)`` in a forked child; raise :class:`_NoResult` if it hangs or dies."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover  (the child: quiet, as Paddle prints its abort)
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        try:
            fn(*args)
        finally:
            os._exit(0)
    deadline = time.monotonic() + TIMEOUT
    while (found := os.waitpid(pid, os.WNOHANG))[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise _NoResult("hangs")
        time.sleep(0.005)
    if os.WIFSIGNALED(found[1]):
        raise _NoResult(f"crashes ({signal.Signals(os.WTERMSIG(found[1])).name})")


def _endless_pow(x: Any, y: Any) -> bool:
    """Paddle's integer scalar ``pow`` kernel: an exponent outside ``[0, 2**31)`` may never end."""
    return (
        isinstance(x, paddle.Tensor)
        and x.dtype in _INTEGRAL
        and isinstance(y, int)
        and not isinstance(y, bool)
        and not 0 <= y < 2**31
    )


def _integral(x: Any) -> bool:
    return isinstance(x, int) or (isinstance(x, paddle.Tensor) and x.dtype in _INTEGRAL)


def _trapping_division(x: Any, y: Any) -> bool:
    """Integer ``//`` and ``%`` by 0 or -1 may raise SIGFPE (``int32 // False``, ``INT_MIN // -1``)."""
    if not (_integral(x) and _integral(y)):
        return False
    if not isinstance(y, paddle.Tensor):
        return y in (0, -1)
    divisors = y.numpy()
    return bool(np.any(divisors == 0) or (divisors.dtype.kind == "i" and np.any(divisors == -1)))


def _guard(fn: Callable[..., Any], risky: _Risk, reflected: bool = False) -> Callable[..., Any]:
    """``fn``, running a risky call (``risky(x, y)``, operands in math order) in a child first."""

    def guarded(x: Any, y: Any, *rest: Any) -> Any:
        if risky(y, x) if reflected else risky(x, y):
            _survives(fn, x.clone() if isinstance(x, paddle.Tensor) else x, y, *rest)
        return fn(x, y, *rest)

    return guarded


#: op -> (when a call may not return, its Tensor methods, its reflected operators).
_RISKY: dict[str, tuple[_Risk, tuple[str, ...], tuple[str, ...]]] = {
    "pow": (_endless_pow, ("__pow__", "pow", "pow_"), ()),
    "floor_divide": (
        _trapping_division, ("__floordiv__", "floor_divide", "floor_divide_"), ("__rfloordiv__",)
    ),
    "remainder": (
        _trapping_division,
        ("__mod__", "remainder", "remainder_", "mod", "mod_", "floor_mod", "floor_mod_"),
        ("__rmod__",),
    ),
}  # fmt: skip
for _risky, _methods, _reflected in _RISKY.values():
    for _attr in (*_methods, *_reflected):
        if hasattr(paddle.Tensor, _attr):
            setattr(paddle.Tensor, _attr, _guard(getattr(paddle.Tensor, _attr), _risky, _attr in _reflected))
_setitem = paddle.Tensor.__setitem__


def _guarded_setitem(x: Any, index: Any, value: Any) -> None:
    """Paddle aborts assigning a complex Python scalar into a real tensor: try it in a child first."""
    if isinstance(value, complex) and x.dtype not in _COMPLEX:
        _survives(_setitem, x.clone(), index, value)
    _setitem(x, index, value)


paddle.Tensor.__setitem__ = _guarded_setitem


def _all_axes(x: Any) -> list[int]:
    return list(range(x.ndim))


def _trace(x: Any, dtype: Any = None) -> Any:
    if dtype is None:
        return paddle.trace(x)
    return paddle.sum(paddle.diagonal(x, axis1=-2, axis2=-1), axis=-1, dtype=dtype)


def _unique(x: Any, **flags: bool) -> Any:
    return paddle.unique(x, **flags)


#: The standard's name -> Paddle's call taking the standard's arguments (else ``paddle.<name>``).
FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{op: _guard(getattr(paddle, op), risky) for op, (risky, _, _) in _RISKY.items()},
    "less": paddle.less_than, "greater": paddle.greater_than,
    "negative": paddle.neg, "bitwise_invert": paddle.bitwise_not,
    "cumulative_sum": lambda x, dtype=None: paddle.cumsum(x, 0, dtype=dtype),
    "cumulative_prod": lambda x, dtype=None: paddle.cumprod(x, 0, dtype=dtype),
    "std": lambda x: paddle.std(x, unbiased=False), "var": lambda x: paddle.var(x, unbiased=False),
    "linalg.trace": _trace, "linalg.outer": paddle.outer, "linalg.tensordot": paddle.tensordot,
    "linalg.diagonal": lambda x: paddle.diagonal(x, axis1=-2, axis2=-1),
    "matrix_transpose": paddle.linalg.matrix_transpose, "vecdot": paddle.linalg.vecdot,
    "linalg.svd": lambda x: paddle.linalg.svd(x, full_matrices=True),
    "concat": lambda *xs: paddle.concat(list(xs)), "stack": lambda *xs: paddle.stack(list(xs)),
    "meshgrid": lambda *xs: paddle.meshgrid(*xs, indexing="xy"),
    "broadcast_arrays": lambda *xs: paddle.broadcast_tensors(list(xs)),
    "astype": lambda x, d: x.astype(d), "asarray": lambda x, dtype=None: paddle.to_tensor(x, dtype=dtype),
    "flip": lambda x: paddle.flip(x, _all_axes(x)), "expand_dims": paddle.unsqueeze,
    "permute_dims": paddle.transpose, "repeat": paddle.repeat_interleave,
    "argsort": lambda x: paddle.argsort(x, stable=True),
    "nonzero": lambda x: paddle.nonzero(x, as_tuple=True),
    "unique_values": paddle.unique,
    "unique_counts": lambda x: _unique(x, return_counts=True),
    "unique_inverse": lambda x: _unique(x, return_inverse=True),
    "unique_all": lambda x: _unique(x, return_index=True, return_inverse=True, return_counts=True),
    "take_along_axis": lambda x, i: paddle.take_along_axis(x, i, axis=-1),
}  # fmt: skip
#: Names Paddle has no function of.
ABSENT = frozenset(("result_type", "can_cast", "isdtype"))
#: Tensor methods whose name differs from the standard's.
METHODS: dict[str, str] = {"less": "less_than", "greater": "greater_than"}
#: Binary ops that promote before dispatch: where their own kernel (these names) is missing
#: for the dtype Paddle dispatched to, that dtype is Paddle's decision (bool for comparisons).
KERNEL_KEY_OPS: dict[str, frozenset[str]] = {
    **{op: frozenset((op,)) for op in (
        "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "maximum", "minimum",
        "equal", "not_equal", "less_equal", "greater_equal", "logical_and", "logical_or", "logical_xor",
        "copysign", "nextafter", "where",
    )},
    "less": frozenset(("less_than",)), "greater": frozenset(("greater_than",)),
    "pow": frozenset(("elementwise_pow", "pow")),
}  # fmt: skip
BOOL_RESULT = frozenset(
    ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
     "logical_and", "logical_or", "logical_xor")
)  # fmt: skip
_KERNEL_KEY = re.compile(r"kernel with key \(CPU, [^,]*, (\w+)\) of kernel `(\w+)` is not registered")
#: (pattern, observation) in order, the first match wins (see the module docstring).
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Type promotion only support calculations between"), "refused"),
    (re.compile(r"Invalid enum data type for type promote"), "refused"),
    (re.compile(r"The type of data we are trying to retrieve \(\w+\) does not match"), "refused"),
    (re.compile(r"unsupported operand type\(s\) for"), "refused"),
    (re.compile(r"on a bool tensor is not supported"), "refused"),
    (re.compile(r"The data_type of input tensor in list isn't consistent"), "refused"),  # concat, stack
    (re.compile(r"Integer division by zero"), "error: ZeroDivisionError"),
    # a Python int beyond int64/uint64: converted through a double (SystemError from OverflowError),
    # or refused as a tensor's data ("dtype must be any of ...")
    (re.compile(r"OverflowError|dtype must be any of \["), "error: OverflowError"),
    (re.compile(r"CallScalarFunction\" is not implemented"), "unsupported: no scalar function for dtype"),
    (
        re.compile(r"tensor\.set\(\) supports array with|Invalid tensor data type"),
        "unsupported: no tensor from data",
    ),
    (re.compile(r"is not supported when casting data type"), "unsupported: implicit cast not implemented"),
    # searchsorted's kernels take values of bfloat16, float16, float32, float64, int32 and int64 only
    (re.compile(r"can not meet input requirements"), "unsupported: no kernel for the values' dtype"),
    (re.compile(r"different from that of inplace tensor"), "unsupported: in-place result shape differs"),
    (
        re.compile(
            r"must be Tensor, but got (bool|int|float|complex)"
            r"|must be tensor type, but got <class '(bool|int|float|complex)'>"
            r"|'(bool|int|float|complex)' object has no attribute"
            r"|y must be scalar, Tensor|y must be scalar type, but received"
        ),
        "unsupported: Python scalar not accepted",
    ),
)  # fmt: skip


class _Decided:
    """A result whose dtype Paddle decided though the CPU has no kernel for it."""

    def __init__(self, dtype: str) -> None:
        self.dtype = dtype


def _lookup(op: str) -> Callable[..., Any]:
    if op in FUNCTIONS:
        return FUNCTIONS[op]
    if op in ABSENT:
        raise Absent
    found: Any = paddle
    for part in op.split("."):
        found = getattr(found, part, None)
        if found is None:
            raise Absent
    return found  # type: ignore[no-any-return]


def _name(dtype: Any) -> str | None:
    return next((n for n, d in NATIVE.items() if dtype == d), None)


def _message(exc: BaseException) -> str:
    """The exception's text and its causes' (``x != 2**63`` raises SystemError from OverflowError)."""
    parts = [str(exc)]
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        parts.append(f"{type(exc).__name__}: {exc}")
    return " | ".join(parts)


class Paddle:
    """The :class:`~conformance.probe._driver.Adapter` of Paddle (eager, CPU)."""

    name = "paddle"
    version = str(paddle.__version__)
    policy = "paddle"

    def __init__(self) -> None:
        paddle.disable_static()
        paddle.set_device("cpu")

    def array(self, values: Any, dtype: str) -> Any:
        via = _VIA.get(dtype)
        if dtype == "uint64":
            data = np.asarray(values, dtype=np.uint64).view(np.int64)
        else:
            data = np.asarray(values, dtype=via or dtype)
        out = paddle.to_tensor(data)
        return out if via is None else out.astype(NATIVE[dtype])

    def scalar(self, value: Any, dtype: str) -> Any:
        raise Absent

    def dtype(self, name: str) -> Any:
        return NATIVE[name]

    def function(self, case: Case) -> Callable[..., Any]:
        return _lookup(case.op)

    def method(self, case: Case) -> Callable[..., Any]:
        name = METHODS.get(case.op, case.op) + ("_" if case.spelling == "method_" else "")
        if not hasattr(paddle.Tensor, name):
            raise Absent
        return lambda a, b: getattr(a, name)(b)

    def copy(self, x: Any) -> Any:
        return x.clone()

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if isinstance(x, _Decided):
            return x.dtype, None
        if not isinstance(x, paddle.Tensor):
            return None
        name = _name(x.dtype)
        if name is None:
            raise TypeError(f"paddle dtype {x.dtype!r} is none of the canonical dtypes")
        if name == "bfloat16":
            x = x.astype(paddle.float32)
        return name, np.asarray(x.numpy())

    def dtype_name(self, x: Any) -> str | None:
        return _name(x) if isinstance(x, paddle.dtype) else None

    def classify(self, exc: BaseException, case: Case) -> str:
        if isinstance(exc, _NoResult):
            return f"unsupported: {exc}"
        msg = _message(exc)
        for pattern, value in _REASONS:
            if pattern.search(msg):
                return value
        if key := _KERNEL_KEY.search(msg):
            return f"unsupported: no CPU kernel `{key[2]}` for {key[1]}"
        if isinstance(exc, (ZeroDivisionError, OverflowError, IndexError, ValueError)):
            return f"error: {type(exc).__name__}"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return f"unsupported: {type(exc).__name__}: {first[:80]}"

    def fallback(self, case: Case, args: list[Any], kwargs: dict[str, Any], exc: BaseException) -> Any:
        """The dispatched dtype of a binary op whose own kernel the CPU lacks (see the module docstring)."""
        key = _KERNEL_KEY.search(str(exc))
        if key is None or key[2] not in KERNEL_KEY_OPS.get(case.op, ()):
            raise exc
        return _Decided("bool" if case.op in BOOL_RESULT else key[1])


def main() -> None:
    """Write ``tests/reference/probe-paddle.json.gz``."""
    _driver.main(Paddle(), COMMAND)


if __name__ == "__main__":
    main()
