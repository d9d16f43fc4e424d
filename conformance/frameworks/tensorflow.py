"""TensorFlow checker: observes one of TF's dtype conversion modes for every cell.

The mode (``safe``, ``all`` or ``legacy``: :mod:`conformance.frameworks._tf_modes`,
``$PROMO_TF_MODE``, one process per mode) is enabled with
``tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=...)``;
what follows is said of safe mode, and holds for all mode with its wider table.
Legacy mode uses no table: the operators and ``tf.experimental.numpy`` promote by
NumPy's rules and TF's ops promote nothing, so its spelling (:data:`SPELLINGS`) is
the operators (``x += y`` rebinding for ``iadd``) and tnp's functions, with TF's ops
as the other spelling, and only shifts count as ops that do not promote.

Safe mode's table is ``flexible_dtypes.result_type``
(a Python int is a weak int32, a float a weak float32, a complex a weak
complex128, a bool a strong bool).  Only some ops consult it: ``tf.add``,
``tf.subtract``, ``tf.multiply``, ``/``, ``//``, ``%``, ``**``, ``tf.maximum``,
``tf.minimum``, ``tf.equal``, ``tf.linalg.matmul``, ``Variable.assign_add``.
The others (``tf.less``, ``tf.logical_and``, ``tf.bitwise.*``,
``tf.math.atan2``, ``tf.math.nextafter``, ``tf.where``) promote nothing: they
need equal dtypes and only convert a Python scalar to the tensor's dtype.
``hypot`` and ``logaddexp`` have no TF op; the ``tf.experimental.numpy``
composites are used.  TF has no ``copysign``.

Each cell runs the native op eagerly on the CPU, and:

* a TypeError from the conversion logic (safe mode's table, an immutable
  Variable dtype, a Python scalar TF will not convert) is a refusal, and so is
  an op that promotes nothing given two tensors of different dtypes (even where
  its definition also lacks one of them: TF reports whichever comes first);
* an op whose definition (or fixed input dtype) excludes the dtype is
  ``unsupported``;
* where the op is defined for the dtype but the CPU has no kernel, TF's decision
  still stands: the same call is traced into a graph (which runs the same
  promotion code and the op's type inference, but no kernel) and its output
  dtype is recorded; those cells are listed under ``no_kernel``;
* ``Variable.assign_add`` (the in-place add: ``v += b`` raises) does not
  broadcast, so an n-d Variable with a 0-d or Python-scalar right operand is
  re-run with that operand broadcast (a list ``[s, s]`` is as weak as ``s``);
  those cells are listed under ``no_broadcast``.

The extra keys also record safe mode's ``result_type`` for every binary operand
pair (and which results are weak), the native call behind each op, and the
cells where the other spelling of an op (``a + b`` for ``tf.add``, ...)
disagrees with it.  ``a << b`` is no Tensor operator.

One-array functions (``_cells.FUNCTION_OPS``) use ``tf.experimental.numpy``
where it has them (``tnp.arccos`` for ``acos`` ..., ``tnp.fix`` for ``trunc``,
``tnp.mean``/``std``/``var``/``max``/``min``/``argmax``/``argmin``); it has no
``linalg`` and no ``fft``, so those are ``tf.linalg.*`` (``matrix_norm`` is
``tf.norm(x, "fro", axis=[-2, -1])``, ``vector_norm`` is ``tf.norm(x)``,
``svdvals`` is ``tf.linalg.svd(x, compute_uv=False)``, ``svd``'s outputs are
reordered to ``(u, s, v)``) and ``tf.signal.*`` (``fftn`` is
``tf.signal.fftnd`` ...; TF has no ``hfft``/``ihfft``).  Those TF ops convert
nothing: an op definition without the dtype ("Value for attr 'T' of int32 is
not in the list", "Tcomplex" for a real FFT input) refuses it.  Missing CPU
kernels are traced as above.  They are stored in
``tests/reference/tf-safe-functions.json``.

``python -m conformance.frameworks.tensorflow`` (run with a Python that has
tensorflow-cpu) writes ``tests/reference/tf-safe.json`` and
``tests/reference/tf-safe-functions.json`` (``PROMO_TF_MODE=all``: ``tf-all.json``
..., ``legacy``: ``tf-legacy.json`` ...) and prints how each op differs from
``result_type``; the test suite does not import TensorFlow.
"""

from __future__ import annotations

import contextlib
import operator
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from conformance.frameworks import _cells, _report, _tf_modes

os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null (oneDNN's absl banner ignores the log level)."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(devnull)
        os.close(saved)


with _quiet_stderr():
    import numpy as np
    import tensorflow as tf
    from tensorflow.python import pywrap_tfe
    from tensorflow.python.framework import flexible_dtypes, ops

tf.get_logger().setLevel("ERROR")
MODE = _tf_modes.mode()
POLICY = _tf_modes.policy()
tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=MODE)
tnp = tf.experimental.numpy

COMMAND = _tf_modes.command("python -m conformance.frameworks.tensorflow")
OUT = _cells.reference(POLICY)
#: Ops whose result dtype is not the common (promoted) dtype.
DTYPE_CHANGING = ("divide", "equal", "less", "logical_and", "hypot", "logaddexp")
#: Ops that do not consult safe mode: they need equal dtypes (or bool, for logical_and).
#: In legacy mode the spelling measured (the operators, tnp) promotes them first, but for shifts.
NO_PROMOTION = {"legacy": ("bitwise_left_shift",)}.get(
    MODE, ("less", "logical_and", "bitwise_and", "bitwise_left_shift", "atan2", "nextafter", "where")
)
_TF_NAMES = {"half": "float16", "float": "float32", "double": "float64"}


def _where(a: Any, b: Any) -> Any:
    return tf.where(tf.constant([True, False]), a, b)


def _iadd(a: Any, b: Any) -> Any:
    """``Variable.assign_add``: TF's in-place add (``v += b`` on a Variable raises)."""
    var = tf.Variable(a)
    var.assign_add(b)
    return var


def _copysign(a: Any, b: Any) -> Any:
    raise NotImplementedError("TensorFlow has no copysign op")


#: The native callable behind each op, and its description for the JSON.
_FUNCS: dict[str, tuple[Callable[..., Any], str]] = {
    "add": (tf.add, "tf.add"),
    "subtract": (tf.subtract, "tf.subtract"),
    "multiply": (tf.multiply, "tf.multiply"),
    "divide": (operator.truediv, "a / b"),
    "floor_divide": (operator.floordiv, "a // b"),
    "remainder": (operator.mod, "a % b"),
    "pow": (operator.pow, "a ** b"),
    "maximum": (tf.maximum, "tf.maximum"),
    "minimum": (tf.minimum, "tf.minimum"),
    "equal": (tf.equal, "tf.equal"),
    "less": (tf.less, "tf.less"),
    "logical_and": (tf.logical_and, "tf.logical_and"),
    "bitwise_and": (tf.bitwise.bitwise_and, "tf.bitwise.bitwise_and"),
    "bitwise_left_shift": (tf.bitwise.left_shift, "tf.bitwise.left_shift"),
    "atan2": (tf.math.atan2, "tf.math.atan2"),
    "hypot": (tnp.hypot, "tf.experimental.numpy.hypot (sqrt(square(a) + square(b)))"),
    "copysign": (_copysign, "none: TF has no copysign"),
    "nextafter": (tf.math.nextafter, "tf.math.nextafter"),
    "logaddexp": (tnp.logaddexp, "tf.experimental.numpy.logaddexp"),
    "where": (_where, "tf.where(tf.constant([True, False]), a, b)"),
    "iadd": (_iadd, "v = tf.Variable(a); v.assign_add(b); v"),
    "matmul": (tf.linalg.matmul, "tf.linalg.matmul"),
    "sum": (tf.reduce_sum, "tf.reduce_sum"),
    "prod": (tf.reduce_prod, "tf.reduce_prod"),
    "cumulative_sum": (tf.math.cumsum, "tf.math.cumsum"),
    "add_out_of_range": (tf.add, "tf.add"),
}


def _no_op(name: str) -> Callable[[Any], Any]:
    def missing(x: Any) -> Any:
        raise NotImplementedError(f"TensorFlow has no {name}")

    return missing


def _svd(x: Any) -> Any:
    s, u, v = tf.linalg.svd(x)
    return u, s, v


#: tf.experimental.numpy's name of a function where it differs from the standard's.
_TNP_NAMES = {
    **{name: f"arc{name[1:]}" for name in ("acos", "acosh", "asin", "asinh", "atan", "atanh")},
    "trunc": "fix",
}
#: The native callable behind each one-array function, and its description for the JSON.
_FUNCTIONS: dict[str, tuple[Callable[..., Any], str]] = {
    **{
        name: (getattr(tnp, native), f"tf.experimental.numpy.{native}")
        for name in _cells.ELEMENTWISE_FUNCTIONS + _cells.REDUCTION_FUNCTIONS
        for native in [_TNP_NAMES.get(name, name)]
    },
    **{
        f"linalg.{name}": (getattr(tf.linalg, name), f"tf.linalg.{name}")
        for name in ("cholesky", "det", "eigh", "eigvalsh", "inv", "pinv", "qr", "slogdet", "matrix_rank")
    },
    "linalg.matrix_norm": (lambda x: tf.norm(x, "fro", axis=[-2, -1]), 'tf.norm(x, "fro", axis=[-2, -1])'),
    "linalg.svd": (_svd, "tf.linalg.svd, its (s, u, v) reordered to (u, s, v)"),
    "linalg.svdvals": (lambda x: tf.linalg.svd(x, compute_uv=False), "tf.linalg.svd(x, compute_uv=False)"),
    "linalg.vector_norm": (tf.norm, "tf.norm"),
    **{
        f"fft.{name}": (getattr(tf.signal, native), f"tf.signal.{native}")
        for name, native in (
            *(("fft", "fft"), ("ifft", "ifft"), ("fftn", "fftnd"), ("ifftn", "ifftnd"), ("rfft", "rfft")),
            *(("rfftn", "rfftnd"), ("irfft", "irfft"), ("irfftn", "irfftnd")),
        )
    },
    "fft.hfft": (_no_op("hfft"), "none: TF has no hfft"),
    "fft.ihfft": (_no_op("ihfft"), "none: TF has no ihfft"),
}


#: The other native spelling of an op, checked against the one above.
_ALTERNATIVES: dict[str, tuple[Callable[..., Any], str]] = {
    "add": (operator.add, "a + b"),
    "subtract": (operator.sub, "a - b"),
    "multiply": (operator.mul, "a * b"),
    "divide": (tf.math.truediv, "tf.math.truediv"),
    "floor_divide": (tf.math.floordiv, "tf.math.floordiv"),
    "remainder": (tf.math.floormod, "tf.math.floormod"),
    "pow": (tf.pow, "tf.pow"),
    "equal": (operator.eq, "a == b"),
    "less": (operator.lt, "a < b"),
    "bitwise_and": (operator.and_, "a & b"),
    "matmul": (operator.matmul, "a @ b"),
    "add_out_of_range": (operator.add, "a + b"),
}

#: Legacy mode changes only the operators and ``tf.experimental.numpy``, which promote by NumPy's
#: rules (``override_binary_operator.maybe_promote_tensors``, ``np_dtypes._result_type``); TF's ops
#: promote nothing in it.  tf-legacy follows the operators, and ``tnp`` where there is none.
_OPERATORS: dict[str, tuple[Callable[..., Any], str]] = {
    **{op: _ALTERNATIVES[op] for op in ("add", "subtract", "multiply", "equal", "less", "bitwise_and")},
    **{op: _ALTERNATIVES[op] for op in ("matmul", "add_out_of_range")},
    **{
        op: (getattr(tnp, name), f"tf.experimental.numpy.{name}")
        for op, name in (
            *(("maximum", "maximum"), ("minimum", "minimum"), ("logical_and", "logical_and")),
            *(("atan2", "arctan2"), ("nextafter", "nextafter"), ("sum", "sum"), ("prod", "prod")),
            ("cumulative_sum", "cumsum"),
        )
    },
    "where": (
        lambda a, b: tnp.where(tf.constant([True, False]), a, b),
        "tnp.where(tf.constant([True, False]), a, b)",
    ),
    # ``x += y`` rebinds a tensor to ``x + y``; ``Variable.assign_add`` (the other spelling) promotes nothing.
    "iadd": (operator.iadd, "x += y (x = x + y)"),
}
#: Each mode's spelling of the binary ops (the policy's) and the other spelling checked against it.
SPELLINGS: dict[
    str, tuple[dict[str, tuple[Callable[..., Any], str]], dict[str, tuple[Callable[..., Any], str]]]
] = {
    "safe": (_FUNCS, _ALTERNATIVES),
    "all": (_FUNCS, _ALTERNATIVES),
    "legacy": ({**_FUNCS, **_OPERATORS}, {op: _FUNCS[op] for op in _OPERATORS}),
}
FUNCS, ALTERNATIVES = SPELLINGS[MODE]


def _token(x: Any) -> str:
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return f"{x.dtype.name}:{'0d' if x.shape.rank == 0 else 'nd'}"
    return f"py:{type(x).__name__}"


def _no_kernel(exc: BaseException) -> bool:
    """True when the op is defined for the dtype but the CPU has no kernel for it."""
    msg = str(exc)
    return "Could not find device for node" in msg or "No OpKernel was registered" in msg


def _traced(fn: Callable[..., Any], args: list[Any]) -> Any:
    """The output of ``fn(*args)`` traced into a graph (no kernel runs): symbolic, or a Variable."""
    if fn is _iadd:  # a tf.function may create a Variable only once, so create it eagerly
        var = tf.Variable(args[0])
        tf.function(lambda: var.assign_add(args[1]), autograph=False).get_concrete_function()
        return var
    return tf.function(lambda: fn(*args), autograph=False).get_concrete_function().structured_outputs


def _shape(x: Any) -> tuple[int, ...]:
    return tuple(x.shape) if isinstance(x, tf.Tensor) else ()


def _broadcast(x: Any, like: Any) -> Any:
    """``x`` with ``like``'s shape; a Python scalar becomes a list, weakly typed as before."""
    if isinstance(x, tf.Tensor):
        return tf.broadcast_to(x, tf.shape(like))
    return [x] * int(like.shape[0])


def _op_name(msg: str) -> str:
    found = re.search(r"\[Op:(\w+)\]|\{\{node (\w+)\}\}", msg)
    return next(g for g in found.groups() if g) if found else "the op"


class TensorFlow:
    """The :class:`~conformance.frameworks._cells.Framework` for TF in safe mode.

    Parameters
    ----------
    funcs
        The native callable (and its description) for each op.
    """

    name = "tensorflow"
    version = tf.__version__

    def __init__(self, funcs: dict[str, tuple[Callable[..., Any], str]] = FUNCS) -> None:
        self.funcs = {**funcs, **_FUNCTIONS}
        self.no_kernel: list[str] = []
        self.no_broadcast: list[str] = []
        self._op = ""
        self._dtypes: list[str] = []  # the tensor operands' dtypes, for classify
        self.computed = True  # whether the last run computed its result (else it was traced)

    def array(self, dtype: str, role: str, ndim: int) -> Any:
        """A CPU tensor of ones; see :meth:`_cells.Framework.array`."""
        try:
            native = tf.dtypes.as_dtype(dtype)
        except TypeError as exc:
            raise LookupError(f"TensorFlow has no {dtype}") from exc
        return tf.ones(() if role == "0d" else (2,) * ndim, dtype=native)

    def data(self, values: list[Any], dtype: str) -> Any:
        """A CPU tensor holding ``values``; see :meth:`_cells.FunctionFramework.data`."""
        try:
            native = tf.dtypes.as_dtype(dtype)
        except TypeError as exc:
            raise LookupError(f"TensorFlow has no {dtype}") from exc
        return tf.cast(tf.constant(values), native)

    def run(self, op: str, args: list[Any]) -> Any:
        """Run ``op`` eagerly; trace it where the CPU has no kernel (see the module docstring)."""
        fn = self.funcs[op][0]
        key = f"{op} {'|'.join(map(_token, args))}"
        self._op = op
        self.computed = True
        self._dtypes = sorted({x.dtype.name for x in args if isinstance(x, tf.Tensor)})
        # TF caches converted Python scalars, with a Python error left set for an int that does not
        # fit an unsigned dtype (the first call raises SystemError, a later one finds the cached
        # tensor): every cell starts with an empty cache, so each is observed as a first call.
        pywrap_tfe.TFE_ClearScalarCache()
        try:
            return self._run_or_trace(key, fn, args)
        except tf.errors.InvalidArgumentError:
            if op != "iadd" or _shape(args[1]) == _shape(args[0]):
                raise
        self.no_broadcast.append(key)
        return self._run_or_trace(key, fn, [args[0], _broadcast(args[1], args[0])])

    def _run_or_trace(self, key: str, fn: Callable[..., Any], args: list[Any]) -> Any:
        try:
            return fn(*args)
        except (tf.errors.NotFoundError, tf.errors.InvalidArgumentError) as exc:
            if not _no_kernel(exc):
                raise
            failure = exc
        try:
            result = _traced(fn, args)
        except Exception:  # report the eager failure, not the trace's
            raise failure from None
        self.no_kernel.append(key)
        self.computed = False
        return result

    def value(self, result: Any) -> Any:
        """The first element, ``None`` for a traced cell."""
        return result.numpy() if self.computed else None

    def dtype_name(self, result: Any) -> str:
        """Canonical name of a tensor's (or Variable's) dtype."""
        return str(result.dtype.name)

    def classify(self, exc: BaseException) -> str:
        """Refusals come from the conversion logic; an op that lacks the dtype is unsupported.

        An op that does not promote refuses two tensors of different dtypes, whichever
        of them its definition also lacks (TF only reports the first operand's).
        """
        msg = str(exc)
        first = msg.split("\n", maxsplit=1)[0]
        mixed = len(self._dtypes) > 1
        if self._op in _cells.FUNCTION_OPS:
            return self._classify_function(exc, msg, first)
        refusals = (
            "implicit dtype promotion",  # safe mode's table
            "Variable dtype is immutable",  # assign_add would change the Variable's dtype
            "Cannot convert",  # a Python scalar TF will not convert to the other dtype
            "Tensor conversion requested dtype",  # a tensor TF will not convert
        )
        if isinstance(exc, np.exceptions.DTypePromotionError) or any(r in msg for r in refusals):
            return "refused"
        if "was expected to be a" in msg:  # an op that needs equal (or fixed) dtypes
            return "refused" if mixed else f"unsupported: {_op_name(msg)} not defined for {self._dtypes[0]}"
        if found := re.search(r"Value for attr '\w+' of (\w+) is not in the list", msg):
            if mixed and self._op in NO_PROMOTION:
                return "refused"
            dtype = _TF_NAMES.get(found[1], found[1])
            return f"unsupported: {_op_name(msg)} not defined for {dtype}"
        if found := re.search(r"Invalid dtype tf\.(\w+) in (\w+)", msg):
            return f"unsupported: {found[2]} not defined for {found[1]}"
        if _no_kernel(exc):
            return f"unsupported: no CPU kernel for {_op_name(msg)}"
        if "Expected scan axis" in msg:
            return "unsupported: cumsum of a 0-d tensor"
        if isinstance(exc, NotImplementedError):
            return f"unsupported: {first}"
        return f"unsupported: {type(exc).__name__}: {first[:120]}"

    def _classify_function(self, exc: BaseException, msg: str, first: str) -> str:
        """A one-array function: an op (or tnp function) without the input dtype refuses it."""
        if isinstance(exc, NotImplementedError):
            return f"unsupported: {first}"
        if _no_kernel(exc):
            return f"unsupported: no CPU kernel for {_op_name(msg)}"
        dtype_errors = ("is not in the list", "was expected to be a", "Invalid dtype", "not supported")
        if isinstance(exc, (TypeError, ValueError)) or any(e in msg for e in dtype_errors):
            return "refused"
        return f"unsupported: {type(exc).__name__}: {first[:120]}"


def _both_unsupported(a: str, b: str) -> bool:
    return a.startswith("unsupported") and b.startswith("unsupported")


def _result_type(*args: Any) -> tuple[Any, bool]:
    """The mode's ``result_type`` and whether it is weak.

    Where auto dtype conversion is on (safe, all), ``flexible_dtypes.result_type``'s
    table; else (legacy) ``tnp.result_type``, NumPy's rules, which has no weak dtypes.
    """
    if ops.is_auto_dtype_conversion_enabled():
        found: tuple[Any, bool] = flexible_dtypes.result_type(*args)
        return found
    return tf.dtypes.as_dtype(tnp.result_type(*args)), False


def result_types() -> tuple[dict[str, str], list[str]]:
    """The mode's ``result_type`` for every binary operand pair, and the weak results."""
    fw = TensorFlow()
    table: dict[str, str] = {}
    weak: list[str] = []
    for key in _cells.cells("add"):
        args = [_cells.operand(fw, t, "add") for t in key.split("|")]
        try:
            dtype, is_weak = _result_type(*args)
        except TypeError:
            table[key] = "refused"
            continue
        table[key] = dtype.name
        if is_weak:
            weak.append(key)
    return table, weak


def result_type_mismatches(ops: dict[str, dict[str, str]], table: dict[str, str]) -> dict[str, Counter[str]]:
    """Per op (one that keeps the common dtype), how many cells differ from ``result_type``, and how."""
    out: dict[str, Counter[str]] = {}
    for op in _cells.BINARY_OPS + _cells.ARRAY_ONLY_OPS:
        if op in DTYPE_CHANGING:
            continue
        diff: Counter[str] = Counter()
        for key, value in ops[op].items():
            expected = table[key]
            if op == "iadd" and expected not in ("refused", key.split(":")[0]):
                expected = "refused"  # a Variable keeps its dtype
            if value == expected:
                continue
            if value.startswith("unsupported"):
                diff["unsupported"] += 1
            elif value == "refused":
                diff["refused, result_type allows"] += 1
            elif expected == "refused":
                diff["allowed, result_type refuses"] += 1
            else:
                diff["another dtype"] += 1
        if diff:
            out[op] = diff
    return out


def write_functions() -> None:
    """Probe the one-array functions and write ``tests/reference/tf-safe-functions.json``."""
    fw = TensorFlow()
    ops = _cells.probe_functions(fw)
    again = TensorFlow()
    if _cells.probe_functions(again) != ops or again.no_kernel != fw.no_kernel:
        raise SystemExit("two function probes disagree: the observations are not deterministic")
    extra: dict[str, object] = {
        "mode": _tf_modes.enable_call(),
        "natives": {op: _FUNCTIONS[op][1] for op in _cells.FUNCTION_OPS},
        "no_kernel": fw.no_kernel,
    }
    _cells.write_functions(fw, _cells.function_reference(POLICY), COMMAND, ops, extra)


def main() -> None:
    """Write ``tests/reference/tf-safe.json`` and print how the ops differ from ``result_type``."""
    first = TensorFlow()
    observed = _cells.probe(first)
    alternative = _cells.probe(TensorFlow(ALTERNATIVES), tuple(ALTERNATIVES))
    table, weak = result_types()
    operator_mismatch = {
        f"{op} {key}": value
        for op, cells in alternative.items()
        for key, value in cells.items()
        if value != observed[op][key] and not _both_unsupported(value, observed[op][key])
    }
    extra: dict[str, object] = {
        "mode": _tf_modes.enable_call(),
        "natives": {op: desc for op, (_, desc) in FUNCS.items()},
        "no_kernel": first.no_kernel,
        "no_broadcast": first.no_broadcast,
        "alternatives": {op: desc for op, (_, desc) in ALTERNATIVES.items()},
        "alternative_mismatch": operator_mismatch,
        "result_type": table,
        "result_type_weak": weak,
    }
    fw = TensorFlow()
    _cells.write(fw, OUT, COMMAND, extra)
    write_functions()
    if _cells.load(OUT)["ops"] != observed or fw.no_kernel != first.no_kernel:
        raise SystemExit("two probes disagree: the observations are not deterministic")
    for op, diff in result_type_mismatches(observed, table).items():
        print(f"{op}: {sum(diff.values())} cells differ from result_type: {dict(diff)}")
    _report.write_report(POLICY)


if __name__ == "__main__":
    main()
