"""PyTorch checker: observes torch's own promotion decisions for every cell.

Each cell runs on the CPU.  Where the CPU cannot run it for a reason that is not
a promotion decision -- no kernel for ``uint16``, or a function without a
Python-scalar overload (``torch.atan2(t, 1.5)``) -- torch still decides the
dtype: :func:`torch.result_type` gives the common dtype (wrapping Python scalars
as torch does), and the op's meta kernel on that common dtype gives the result
dtype.  Those cells are listed under ``no_kernel``.

One-array functions (``_cells.FUNCTION_OPS``) run the ``torch`` function of the
same name (``torch.linalg.*``, ``torch.fft.*``; ``std``/``var`` with torch's
default correction, reductions over the whole array).  A function refuses a
dtype where torch says so in a dtype check (``mean(): could not infer output
dtype``, ``Negation ... on a bool tensor is not supported``, ``linalg.inv: Low
precision dtypes not supported``, ...).  Any other failure on the CPU (``"abs_cpu"
not implemented for 'Bool'``, ``Unsupported dtype Half`` in the FFT) is a missing
kernel where the same call on the ``meta`` device, which runs torch's dtype
logic but no kernel, still gives a result: its dtype is torch's decision and
the cell is listed under ``no_kernel``; where ``meta`` fails too, torch refuses.
``linalg`` is the exception: its meta functions check no dtype (``eigh`` of an
int8 matrix "gives" int8 there), and its kernels dispatch float32, float64 and
complex only, so a missing ``linalg`` kernel (``"cholesky_cpu" not implemented
for 'Half'``, ``"linalg_eigh_cpu" not implemented for 'Long'``) is a refusal.

``python -m conformance.frameworks.torch`` writes ``tests/reference/pytorch.json``
and ``tests/reference/pytorch-functions.json``; the test suite probes torch live
instead of reading those files.
"""

from __future__ import annotations

import warnings
from typing import Any

import torch

from conformance.frameworks import _cells, _report

_FUNCS: dict[str, Any] = {
    "add": torch.add,
    "subtract": torch.subtract,
    "multiply": torch.multiply,
    "divide": torch.true_divide,
    "floor_divide": torch.floor_divide,
    "remainder": torch.remainder,
    "pow": torch.pow,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "equal": torch.eq,
    "less": torch.lt,
    "logical_and": torch.logical_and,
    "bitwise_and": torch.bitwise_and,
    "bitwise_left_shift": torch.bitwise_left_shift,
    "atan2": torch.atan2,
    "hypot": torch.hypot,
    "copysign": torch.copysign,
    "nextafter": torch.nextafter,
    "logaddexp": torch.logaddexp,
    "matmul": torch.matmul,
    "sum": torch.sum,
    "prod": torch.prod,
    "cumulative_sum": lambda x: torch.cumsum(x, dim=0),
    "add_out_of_range": torch.add,
    "where": lambda a, b: torch.where(torch.ones(2, dtype=torch.bool, device=_device(a, b)), a, b),
}
#: ``scalar OP tensor``: the reflected operators keep the scalar a wrapped number.
_REFLECTED: dict[str, Any] = {
    "add": lambda s, t: s + t,
    "subtract": lambda s, t: s - t,
    "multiply": lambda s, t: s * t,
    "divide": lambda s, t: s / t,
    "floor_divide": lambda s, t: s // t,
    "remainder": lambda s, t: s % t,
    "pow": lambda s, t: s**t,
    "equal": lambda s, t: s == t,
    "less": lambda s, t: s < t,
    "bitwise_and": lambda s, t: s & t,
    "bitwise_left_shift": lambda s, t: s << t,
}
_REFUSALS = (
    "Promotion for uint16, uint32, uint64 types is not supported",
    "can't be cast to the desired output type",
    "expected both vectors to have same dtype",
    "expected m1 and m2 to have the same dtype",
    "expected scalar type",
    "should have the same dtype",
)
_NO_CPU_KERNELS = (torch.uint16, torch.uint32, torch.uint64)
#: A one-array function's own dtype checks: torch refuses the input dtype.
_FUNCTION_REFUSALS = (
    "could not infer output dtype",
    "on a bool tensor is not supported",
    "only support floating point",
    "does not support",
    "is not intended to support complex",
    "is not supported for complex inputs",
    "Expected a floating point or complex tensor",
    "Low precision dtypes not supported",
    "doesn't handle types other than float and double",
    "expects a real input tensor",
)


#: Functions whose torch spelling the ``pytorch`` policy follows has another name: ``torch.sign``
#: refuses complex ("Unlike NumPy, torch.sign is not intended to support complex numbers. Please
#: use torch.sgn instead"), ``torch.sgn`` is ``sign`` of every dtype.
_SPELLING = {"sign": "sgn"}


def _function(op: str) -> Any:
    """The torch function of a one-array function name (``"linalg.inv"`` is ``torch.linalg.inv``)."""
    op = _SPELLING.get(op, op)
    found: Any = torch
    for part in op.split("."):
        found = getattr(found, part)
    return found


class _RefusedError(RuntimeError):
    """A function failed for its input dtype on every device torch can tell us about."""


def _device(*xs: Any) -> Any:
    return next(x.device for x in xs if isinstance(x, torch.Tensor))


def _iadd(a: Any, b: Any) -> Any:
    left = a.clone()
    left += b
    return left


def _call(op: str, args: list[Any]) -> Any:
    if op == "iadd":
        return _iadd(*args)
    if not isinstance(args[0], torch.Tensor) and op in _REFLECTED:
        return _REFLECTED[op](*args)
    return _FUNCS[op](*args)


def _decided(op: str, args: list[Any]) -> Any:
    """Torch's decision for a cell the CPU cannot run: ``result_type``, then the op's kernel.

    The op then runs on operands already of the common dtype: on the CPU, or on
    ``meta`` where the CPU has no kernel for that dtype.
    """
    common = torch.result_type(*args) if len(args) == 2 else args[0].dtype
    device = "cpu"
    if common in _NO_CPU_KERNELS:
        # The meta kernel checks no dtype: the op must first run on the CPU for
        # int64, a dtype of the same category that has kernels.
        stand_in = [
            torch.ones(x.shape, dtype=torch.int64) if isinstance(x, torch.Tensor) else x for x in args
        ]
        _call(op, [x.to(torch.int64) if isinstance(x, torch.Tensor) else x for x in stand_in])
        device = "meta"
    same = [
        torch.ones(x.shape if isinstance(x, torch.Tensor) else (), dtype=common, device=device) for x in args
    ]
    if op == "iadd":
        if common != args[0].dtype and not torch.can_cast(common, args[0].dtype):
            raise RuntimeError(f"result type {common} can't be cast to the desired output type")
        return same[0].to(args[0].dtype)
    return _call(op, same)


def _no_kernel(exc: Exception) -> bool:
    """True for errors that are not a decision on dtypes: a kernel gap, no scalar overload."""
    msg = str(exc)
    if isinstance(exc, NotImplementedError):
        return any(f"'{t}'" in msg for t in ("UInt16", "UInt32", "UInt64"))
    return isinstance(exc, TypeError) and ("must be Tensor" in msg or "invalid combination" in msg)


class Torch:
    """The :class:`~conformance.frameworks._cells.Framework` for PyTorch."""

    name = "torch"
    version = str(torch.__version__)

    def __init__(self) -> None:
        self.no_kernel: list[str] = []
        self.computed = True  # whether the last run computed its result

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """A CPU tensor of ones; see :meth:`_cells.Framework.array`."""
        shape = () if role == "0d" else (2,) * ndim
        return torch.ones(shape, dtype=getattr(torch, dtype))

    def data(self, values: list[Any], dtype: str) -> Any:
        """A CPU tensor holding ``values``; see :meth:`_cells.FunctionFramework.data`."""
        return torch.tensor(values, dtype=getattr(torch, dtype))

    def run(self, op: str, args: list[Any]) -> Any:
        """Run ``op`` on the CPU; fall back to torch's own decision where it cannot."""
        self.computed = True
        if op in _cells.FUNCTION_OPS:
            return self._run_function(op, args[0])
        try:
            return _call(op, args)
        except (NotImplementedError, TypeError) as exc:
            if not _no_kernel(exc):
                raise
            self.computed = False
            result = _decided(op, args)
            self.no_kernel.append(f"{op} {'|'.join(map(_token, args))}")
            return result

    def _run_function(self, op: str, x: Any) -> Any:
        """Run a one-array function on the CPU, else on ``meta`` (see the module docstring)."""
        fn = _function(op)
        try:
            return fn(x)
        except (NotImplementedError, RuntimeError, TypeError) as exc:
            if any(r in str(exc) for r in _FUNCTION_REFUSALS):
                raise
            if op.startswith("linalg."):
                # torch's linalg meta functions check no dtype (eigh of int8 on meta "gives"
                # int8): its kernels' float32/float64/complex dispatch is the dtype check.
                raise _RefusedError(str(exc).split("\n")[0]) from exc
            try:
                result = fn(torch.empty(x.shape, dtype=x.dtype, device="meta"))
            except Exception as meta:
                raise _RefusedError(str(exc).split("\n")[0]) from meta
            self.computed = False
            self.no_kernel.append(f"{op} {_token(x)}: {str(exc).splitlines()[0][:100]}")
            return result

    def dtype_name(self, result: Any) -> str:
        """Canonical name of a tensor's dtype."""
        return str(result.dtype).removeprefix("torch.")

    def classify(self, exc: BaseException) -> str:
        """Promotion refusals are torch's dtype errors; the rest are kernels."""
        msg = str(exc).split("\n")[0]
        if isinstance(exc, _RefusedError) or any(r in msg for r in _REFUSALS + _FUNCTION_REFUSALS):
            return "refused"
        return f"unsupported: {type(exc).__name__}: {msg[:120]}"

    def value(self, result: Any) -> Any:
        """The first element (float32 for bfloat16), ``None`` for a cell decided without a kernel."""
        if not self.computed:
            return None
        first = result.reshape(-1)[0]
        return first.float().item() if first.dtype == torch.bfloat16 else first.item()


def _token(x: Any) -> str:
    if isinstance(x, torch.Tensor):
        return f"{str(x.dtype).removeprefix('torch.')}:{'0d' if x.ndim == 0 else 'nd'}"
    return f"py:{type(x).__name__}"


NAME, VERSION = Torch.name, Torch.version


def probe() -> tuple[dict[str, dict[str, str]], dict[str, dict[str, Any]]]:
    """Observe every cell: the observations and the values."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _cells.probe_all(Torch())


def probe_functions() -> dict[str, dict[str, str]]:
    """Observe every one-array function cell."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _cells.probe_functions(Torch())


def main() -> None:
    """Write ``tests/reference/pytorch.json``, ``pytorch-functions.json`` and the report."""
    out = _cells.reference("pytorch")
    fw = Torch()
    command = "python -m conformance.frameworks.torch"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _cells.write(fw, out, command, {"no_kernel": fw.no_kernel})
        functions = Torch()
        ops = _cells.probe_functions(functions)
    extra: dict[str, object] = {"no_kernel": functions.no_kernel}
    _cells.write_functions(functions, _cells.function_reference("pytorch"), command, ops, extra)
    _report.write_report("pytorch")


if __name__ == "__main__":
    main()
