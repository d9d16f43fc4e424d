"""PaddlePaddle checker: what Paddle (dynamic mode, CPU) decides for every cell.

Run ``python -m conformance.frameworks.paddle`` from the repository root with an
interpreter that has ``paddlepaddle`` installed; it writes
``tests/reference/paddle.json``.

How the cells are run
---------------------
* Array operands are ``paddle.ones`` of their dtype.  Paddle has ``uint16``,
  ``uint32`` and ``uint64`` dtypes but no ``full`` kernel for them, so those
  are made by casting ``int32`` ones.  (``str(paddle.uint16)`` prints
  ``paddle.bfloat16`` and NumPy ``uint16`` data is read as ``bfloat16``, so
  dtypes are compared by identity, never by name.)
* Array-array cells call the Paddle function (``paddle.add`` ...).  Ops with an
  operator form (``+ - * / // % ** == < & <<``) are also run through the
  operator; cells where the two differ are stored under
  ``"operator_disagreements"``.
* Cells with a Python scalar use the operator form (``x + 1.5``, ``1.5 + x``;
  ``1 < x`` runs ``x.__gt__(1)``), Paddle's tensor-scalar path, which takes the
  scalar on either side.  ``paddle.add`` and most other functions accept no
  Python scalar; a few accept one as ``y`` and convert it ad hoc
  (``floor_divide``: ``paddle.to_tensor(y)``, ``remainder``:
  ``paddle.full([], y, x.dtype)``, ``pow``: scalar-exponent kernel).  Where that
  function form gives a different result it is stored under
  ``"function_scalar_forms"``.  Ops without an operator form get the scalar
  passed to the function (``copysign`` and ``where`` accept one).
* ``iadd`` is ``a += b``, the spelling the paddle policy follows:
  ``paddle.Tensor`` has no ``__iadd__``, so it rebinds ``a`` to ``a + b`` (a
  0-d ``b`` gives way to an n-d ``a`` of its category).  ``Tensor.add_``
  differs (it treats a 0-d ``b`` as n-d, takes no Python scalar, and changes
  ``a``'s dtype in place to the promoted one); its cells where it differs are
  stored under ``"inplace_method_disagreements"``.  A result of another dtype
  than ``a``'s is refused by promo_ns's in-place contract (``_fidelity.in_place_contract``).
* ``where(cond, x1, x2)`` uses a bool ``cond`` of shape ``(2,)``.
* Decided but no CPU kernel: when the eager call fails only because the op's
  own kernel is not registered for the dtype Paddle dispatched to, that
  dtype (read from the error's kernel key) is Paddle's decision, for the ops in
  :data:`KERNEL_KEY_OPS`, which run Paddle's promotion before dispatch and
  whose result has the kernel's dtype (``bool`` for comparisons).  Those cells
  are listed under ``"no_kernel"``.  (Static-graph dtype inference was not
  used: its Python-scalar path differs from eager mode, e.g. it makes
  ``bool_tensor + True`` ``int64``, and it refuses dtypes without kernels.)
* One-array functions (``_cells.FUNCTION_OPS``) call ``paddle.<name>``,
  ``paddle.linalg.<name>``, ``paddle.fft.<name>`` (reductions over the whole
  tensor, ``std``/``var`` unbiased as Paddle defaults).  Their inputs are made
  by casting an ``int32`` (or bool) tensor, as ``paddle.to_tensor`` has no
  uint16/32/64.  Paddle converts some integer inputs to float32 before
  dispatch (``sin``, ``sqrt``, ``log`` of int32) and others not (``exp`` of
  int8); where the dispatched kernel is not registered for the CPU the cell is
  ``"unsupported: no CPU kernel `<kernel>` for <dtype>"``: the kernel key is
  the dtype Paddle dispatched the *input* to, which does not tell the result
  dtype of a function (``fft_r2c``, ``argmax``, ``std`` of complex), so those
  cells are not decided.  The bool ``-``/``+`` TypeError is a refusal.  The
  file is ``tests/reference/paddle-functions.json``.
"""

from __future__ import annotations

import operator
import os
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("GLOG_minloglevel", "2")  # Paddle's C++ warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import paddle

from conformance.frameworks import _cells, _report

#: Canonical dtype name -> Paddle dtype (Paddle has all fifteen).
DTYPES: dict[str, Any] = {name: getattr(paddle, name) for name in _cells.DTYPES}
#: Dtypes without a ``full`` kernel, made by casting ``int32`` ones.
CAST_MADE: frozenset[str] = frozenset({"uint16", "uint32", "uint64"})

#: Op name -> Paddle function, used for array operands.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "add": paddle.add,
    "subtract": paddle.subtract,
    "multiply": paddle.multiply,
    "divide": paddle.divide,
    "floor_divide": paddle.floor_divide,
    "remainder": paddle.remainder,
    "pow": paddle.pow,
    "maximum": paddle.maximum,
    "minimum": paddle.minimum,
    "equal": paddle.equal,
    "less": paddle.less_than,
    "logical_and": paddle.logical_and,
    "bitwise_and": paddle.bitwise_and,
    "bitwise_left_shift": paddle.bitwise_left_shift,
    "atan2": paddle.atan2,
    "hypot": paddle.hypot,
    "copysign": paddle.copysign,
    "nextafter": paddle.nextafter,
    "logaddexp": paddle.logaddexp,
    "iadd": operator.iadd,
    "matmul": paddle.matmul,
    "sum": paddle.sum,
    "prod": paddle.prod,
    "cumulative_sum": paddle.cumsum,
    "add_out_of_range": paddle.add,
}
#: The other in-place spelling, whose disagreements with ``a += b`` are recorded.
INPLACE_METHODS: dict[str, Callable[[Any, Any], Any]] = {"iadd": paddle.Tensor.add_}
#: Op name -> Python operator, used for every cell with a Python scalar.
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "divide": operator.truediv,
    "floor_divide": operator.floordiv,
    "remainder": operator.mod,
    "pow": operator.pow,
    "equal": operator.eq,
    "less": operator.lt,
    "bitwise_and": operator.and_,
    "bitwise_left_shift": operator.lshift,
    "add_out_of_range": operator.add,
}
#: Ops whose decision is read from a missing kernel's key -> their own kernels.
KERNEL_KEY_OPS: dict[str, frozenset[str]] = {
    "add": frozenset({"add"}),
    "subtract": frozenset({"subtract"}),
    "multiply": frozenset({"multiply"}),
    "divide": frozenset({"divide"}),
    "floor_divide": frozenset({"floor_divide"}),
    "remainder": frozenset({"remainder"}),
    "pow": frozenset({"elementwise_pow", "pow"}),
    "maximum": frozenset({"maximum"}),
    "minimum": frozenset({"minimum"}),
    "equal": frozenset({"equal"}),
    "less": frozenset({"less_than"}),
    "logical_and": frozenset({"logical_and"}),
    "copysign": frozenset({"copysign"}),
    "nextafter": frozenset({"nextafter"}),
    "where": frozenset({"where"}),
    "iadd": frozenset({"add"}),
}
#: Ops whose result is ``bool`` whatever dtype they compute in.
BOOL_RESULT: frozenset[str] = frozenset({"equal", "less", "logical_and"})

_KERNEL_KEY = re.compile(r"kernel with key \(CPU, [^,]*, (\w+)\) of kernel `(\w+)` is not registered")
#: (pattern, classification) in order; the first match wins.
_REASONS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Paddle's promotion refusal (phi/common/type_promotion.h).
    (re.compile(r"Type promotion only support calculations between"), "refused"),
    # Ops without promotion: the kernel rejects an input of another dtype.
    (
        re.compile(r"The type of data we are trying to retrieve \(\w+\) does not match"),
        "refused",
    ),
    # ``&`` and ``<<`` raise this for float (and complex) Python scalars.
    (re.compile(r"unsupported operand type\(s\) for"), "refused"),
    # A dtype outside Paddle's promotion table (uint16/32/64) with any other: a refusal too.
    (re.compile(r"Invalid enum data type for type promote"), "refused"),
    (_KERNEL_KEY, "unsupported: no CPU kernel"),
    (
        re.compile(r"CallScalarFunction\" is not implemented"),
        "unsupported: no scalar function for dtype",
    ),
    (
        re.compile(r"tensor\.set\(\) supports array with"),
        "unsupported: no tensor from Python data for dtype",
    ),
    (
        re.compile(r"is not supported when casting data type"),
        "unsupported: implicit cast not implemented",
    ),
    (
        re.compile(r"different from that of inplace tensor"),
        "unsupported: in-place result shape differs",
    ),
    (
        re.compile(
            r"must be Tensor, but got (bool|int|float|complex)"
            r"|must be tensor type, but got <class '(bool|int|float|complex)'>"
            r"|'(bool|int|float|complex)' object has no attribute"
            r"|y must be scalar, Tensor"
        ),
        "unsupported: Python scalar not accepted",
    ),
)


class FunctionError(Exception):
    """A one-array function's failure, already classified (its message is the observation)."""


def _run_function(op: str, x: Any) -> Any:
    """Run ``paddle.<op>`` (``paddle.linalg.inv`` ...); classify a dtype failure (module docstring)."""
    found: Any = paddle
    for part in op.split("."):
        found = getattr(found, part)
    try:
        return found(x)
    except (RuntimeError, TypeError) as exc:
        message = str(exc)
        if key := _KERNEL_KEY.search(message):
            raise FunctionError(f"unsupported: no CPU kernel `{key[2]}` for {key[1]}") from exc
        if "on a bool tensor is not supported" in message:
            raise FunctionError("refused") from exc
        raise


@dataclass(frozen=True)
class Decided:
    """The dtype Paddle dispatched a cell to when it has no CPU kernel for it."""

    dtype: str


def is_scalar(value: object) -> bool:
    """Whether ``value`` is a Python scalar operand."""
    return isinstance(value, (bool, int, float, complex))


@dataclass
class PaddleFramework:
    """The :class:`~conformance.frameworks._cells.Framework` for Paddle (eager, CPU).

    Parameters
    ----------
    array_form, scalar_form
        ``"function"`` or ``"operator"``: how cells without / with a Python
        scalar are run when the op has an operator form.
    """

    array_form: str = "function"
    scalar_form: str = "operator"
    name: str = "paddle"
    version: str = paddle.__version__
    #: ``"op cell"`` of every cell decided from a missing kernel's key.
    no_kernel: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        paddle.disable_static()
        paddle.set_device("cpu")

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """Ones of ``dtype``: 0-d for ``role == "0d"``, else of shape ``(2,) * ndim``."""
        if dtype not in DTYPES:
            raise LookupError(f"paddle has no {dtype}")
        shape = [] if role == "0d" else [2] * ndim
        if dtype in CAST_MADE:
            return paddle.ones(shape, "int32").astype(DTYPES[dtype])
        return paddle.ones(shape, DTYPES[dtype])

    def token(self, value: Any) -> str:
        """The cell token of a native operand."""
        if is_scalar(value):
            return f"py:{type(value).__name__}"
        return f"{self.dtype_name(value)}:{'0d' if value.ndim == 0 else 'nd'}"

    def call(self, op: str, args: list[Any]) -> Any:
        """Run ``op`` natively, in the form this instance uses for the operands."""
        if op == "where":
            return paddle.where(paddle.to_tensor([True, False]), *args)
        form = self.scalar_form if any(map(is_scalar, args)) else self.array_form
        if form == "operator" and op in OPERATORS:
            return OPERATORS[op](*args)
        return FUNCTIONS[op](*args)

    def data(self, values: list[Any], dtype: str) -> Any:
        """A tensor holding ``values``, cast from int32 or bool; see :meth:`_cells.FunctionFramework.data`."""
        if dtype not in DTYPES:
            raise LookupError(f"paddle has no {dtype}")
        return paddle.to_tensor(values, "bool" if dtype == "bool" else "int32").astype(DTYPES[dtype])

    def run(self, op: str, args: list[Any]) -> Any:
        """Run ``op``; a missing kernel yields the dtype Paddle dispatched to, if known."""
        if op in _cells.FUNCTION_OPS:
            return _run_function(op, args[0])
        try:
            return self.call(op, args)
        except RuntimeError as exc:
            match = _KERNEL_KEY.search(str(exc))
            if match is None or match[2] not in KERNEL_KEY_OPS.get(op, ()):
                raise
            dtype = "bool" if op in BOOL_RESULT else match[1]
        self.no_kernel.append(f"{op} {'|'.join(map(self.token, args))}")
        return Decided(dtype)

    def dtype_name(self, result: Any) -> str:
        """The canonical name of a result's dtype."""
        if isinstance(result, Decided):
            return result.dtype
        for name, dtype in DTYPES.items():
            if result.dtype == dtype:
                return name
        raise ValueError(f"unknown paddle dtype {result.dtype!r}")

    def classify(self, exc: BaseException) -> str:
        """``"refused"`` for Paddle's refusal of a dtype combination, else ``"unsupported: ..."``."""
        message = str(exc)
        if isinstance(exc, FunctionError):
            return str(exc)
        for pattern, value in _REASONS:
            if pattern.search(message):
                return value
        first = message.strip().splitlines()[0] if message.strip() else ""
        return f"unsupported: {type(exc).__name__}: {first[:80]}"

    def value(self, result: Any) -> Any:
        """The first element (via float32 for bfloat16), ``None`` for a cell decided without a kernel."""
        if isinstance(result, Decided):
            return None
        if self.dtype_name(result) == "bfloat16":
            result = result.astype("float32")
        return result.numpy().reshape(-1)[0]


def compare_forms(
    base: dict[str, dict[str, str]], other: PaddleFramework, scalar_cells: bool
) -> dict[str, dict[str, dict[str, str]]]:
    """Cells of the operator ops where ``other`` differs from ``base``.

    Parameters
    ----------
    base
        Observations of the default framework (``_cells.probe``).
    other
        A framework running the other form.
    scalar_cells
        Compare the cells with a Python scalar (else those without).  Cells
        where ``other`` rejects the scalar, or both forms are unsupported, are
        skipped.
    """
    found: dict[str, dict[str, dict[str, str]]] = {}
    for op in OPERATORS:
        if op not in base:
            continue
        for key, value in base[op].items():
            if ("py:" in key) != scalar_cells:
                continue
            seen = _cells.observe(other, op, key)
            if seen == value or seen.endswith("Python scalar not accepted"):
                continue
            if seen.startswith("unsupported") and value.startswith("unsupported"):
                continue
            forms = ("operator", "function") if scalar_cells else ("function", "operator")
            found.setdefault(op, {})[key] = dict(zip(forms, (value, seen), strict=True))
    return found


def compare_inplace(base: dict[str, dict[str, str]]) -> dict[str, dict[str, dict[str, str]]]:
    """Cells where ``Tensor.add_`` differs from ``a += b`` (``base``), both unsupported ones skipped."""
    method = PaddleFramework()
    found: dict[str, dict[str, dict[str, str]]] = {}
    for op, fn in INPLACE_METHODS.items():
        saved = FUNCTIONS[op]
        FUNCTIONS[op] = fn
        try:
            for key, value in base[op].items():
                seen = _cells.observe(method, op, key)
                if seen != value and not (seen.startswith("unsupported") and value.startswith("unsupported")):
                    found.setdefault(op, {})[key] = {"a += b": value, "Tensor.add_": seen}
        finally:
            FUNCTIONS[op] = saved
    return found


def probe_functions() -> dict[str, dict[str, str]]:
    """Observe every one-array function cell."""
    return _cells.probe_functions(PaddleFramework())


def write_functions() -> None:
    """Probe the one-array functions and write ``tests/reference/paddle-functions.json``."""
    ops = probe_functions()
    if probe_functions() != ops:
        raise RuntimeError("paddle function observations differ between two probes")
    path = _cells.function_reference("paddle")
    _cells.write_functions(PaddleFramework(), path, "python -m conformance.frameworks.paddle", ops)
    print(f"wrote {path}", file=sys.stderr)


def main() -> None:
    """Probe Paddle and write ``tests/reference/paddle.json`` and ``paddle-functions.json``."""
    warnings.simplefilter("ignore")  # e.g. copysign's broadcast warning
    fw = PaddleFramework()
    ops = _cells.probe(fw)
    no_kernel = list(dict.fromkeys(fw.no_kernel))
    extra: dict[str, object] = {
        "no_kernel": no_kernel,
        "operator_disagreements": compare_forms(ops, PaddleFramework(array_form="operator"), False),
        "function_scalar_forms": compare_forms(ops, PaddleFramework(scalar_form="function"), True),
        "inplace_method_disagreements": compare_inplace(ops),
    }
    path = _cells.reference("paddle")
    _cells.write(PaddleFramework(), path, "python -m conformance.frameworks.paddle", extra)
    if _cells.load(path)["ops"] != ops:
        raise RuntimeError("paddle observations differ between two probes")
    print(f"wrote {path}", file=sys.stderr)
    write_functions()
    _report.write_report("paddle")


if __name__ == "__main__":
    main()
