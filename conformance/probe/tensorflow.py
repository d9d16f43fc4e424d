"""TensorFlow's spellings of every probe case, for ``tf-safe``, ``tf-all`` and ``tf-legacy``.

Run with an interpreter that has ``tensorflow-cpu``, from the repository root, once per
dtype conversion mode (:mod:`conformance.frameworks._tf_modes`):
``PROMO_TF_MODE=all PYTHONPATH=. /tmp/tfvenv/bin/python -m conformance.probe.tensorflow``;
it writes ``tests/reference/probe-tf-all.json.gz`` (``safe``, the default:
``probe-tf-safe.json.gz``).  TF 2.21 with NumPy behaviour in that mode, eager on
the CPU, enabled (and the natives below taken from)
:mod:`conformance.frameworks.tensorflow`.

Legacy mode promotes in the operators and ``tf.experimental.numpy`` only (NumPy's
rules), not in TF's ops, and ``tf-legacy`` follows the operators: there, ``function``
is ``tf.experimental.numpy``'s function (TF's op where it has none: shifts),
``method`` TF's op, and ``inplace`` a tensor's ``x += y``/``x -= y`` (``x = x + y``).

Spellings
    ``function`` is the spelling :mod:`conformance.frameworks.tensorflow`
    measures: TF's ops for the binary functions (``tf.math.add``,
    ``tf.math.divide``, ``tf.math.floordiv``, ``tf.math.floormod``,
    ``tf.math.pow``, ``tf.math.less``, ``tf.bitwise.left_shift`` ...;
    ``hypot`` and ``logaddexp`` have no op: ``tf.experimental.numpy``'s),
    ``tf.experimental.numpy`` for the one-array functions, reductions (with
    ``dtype=``), creation, n-ary and shape functions, ``tf.linalg`` and
    ``tf.signal`` for ``linalg`` and ``fft``, ``tf.where`` for ``where``,
    ``tf.cast`` for ``astype``.  ``method`` is the other spelling of a binary
    function, ``tf.experimental.numpy``'s (``tnp.add``, ``tnp.power``,
    ``tnp.arctan2``; absent where it has none: shifts).  ``inplace`` is
    ``tf.Variable.assign_add``/``assign_sub`` (``v += b`` raises; the other
    operators have no in-place form: absent); ``setitem`` is
    ``v[0].assign(value)``.  ``assign_add`` does not broadcast: a 0-d or
    scalar right operand is broadcast first (a list ``[s, s, s]`` is as weak
    as ``s``), as :mod:`conformance.frameworks.tensorflow` does.  TF has no
    ``copysign``, ``vecdot``, ``matrix_power``, ``isin``, ``can_cast``,
    ``isdtype``, ``hfft``/``ihfft``, ``fftfreq``, ``unique_all`` and no ``<<``
    operator: absent.

Refusals and gaps (the readings of :mod:`conformance.frameworks.tensorflow`)
    Safe mode's table ("implicit dtype promotion"), an immutable Variable
    dtype, a Python scalar TF will not convert (out of range included) and an
    op that does not promote given tensors of two dtypes are ``refused``; so
    is a one-array function whose op definition lacks the input dtype.  A
    binary op without the dtype is ``unsupported``.  Where the CPU has no
    kernel the call is traced into a graph and the traced dtype is the
    observation (``"<dtype> <shape> ?"``).  TF caches converted Python
    scalars across calls, with a Python error left set for a negative int and
    an unsigned tensor (later calls may abort): the cache is emptied before
    each case.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from conformance.frameworks import _tf_modes
from conformance.frameworks import tensorflow as _tf  # first: it enables the mode
from conformance.probe import _driver
from conformance.probe._driver import Absent
from conformance.probe._space import Case, operand

with _tf._quiet_stderr():
    import tensorflow as tf
    from tensorflow.python import pywrap_tfe

tnp = tf.experimental.numpy

COMMAND = _tf_modes.command("python -m conformance.probe.tensorflow")
_MATH = tf.math
#: Binary functions: TF's op (frameworks' spelling; tnp's where TF has no op).
BINARY: dict[str, Callable[..., Any]] = {
    "add": _MATH.add, "subtract": _MATH.subtract, "multiply": _MATH.multiply, "divide": _MATH.divide,
    "floor_divide": _MATH.floordiv, "remainder": _MATH.floormod, "pow": _MATH.pow,
    "maximum": _MATH.maximum, "minimum": _MATH.minimum, "equal": _MATH.equal,
    "not_equal": _MATH.not_equal, "less": _MATH.less, "less_equal": _MATH.less_equal,
    "greater": _MATH.greater, "greater_equal": _MATH.greater_equal, "logical_and": _MATH.logical_and,
    "logical_or": _MATH.logical_or, "logical_xor": _MATH.logical_xor,
    "bitwise_and": tf.bitwise.bitwise_and, "bitwise_or": tf.bitwise.bitwise_or,
    "bitwise_xor": tf.bitwise.bitwise_xor, "bitwise_left_shift": tf.bitwise.left_shift,
    "bitwise_right_shift": tf.bitwise.right_shift, "atan2": _MATH.atan2, "nextafter": _MATH.nextafter,
    "hypot": tnp.hypot, "logaddexp": tnp.logaddexp,
}  # fmt: skip
#: ``method``: tf.experimental.numpy's name of a binary function (None: it has none but the function).
TNP_NAMES: dict[str, str | None] = {
    "pow": "power", "atan2": "arctan2", "bitwise_left_shift": None, "bitwise_right_shift": None,
    "hypot": None, "logaddexp": None, "copysign": None,
}  # fmt: skip


#: Modes whose policy follows ``tf.experimental.numpy`` (and the operators) rather than TF's ops.
TNP_FIRST = frozenset(("legacy",))


def _tnp_binary(op: str) -> Callable[..., Any] | None:
    """``tf.experimental.numpy``'s spelling of a binary function, ``None`` where it has none."""
    name = TNP_NAMES.get(op, op)
    found: Callable[..., Any] | None = None if name is None else getattr(tnp, name, None)
    return found


#: Functions other than the binary ones that tnp spells in ``TNP_FIRST`` modes (TF's ops do not promote).
_TNP_ALSO = ("where", "matmul", "linalg.matmul", "tensordot", "linalg.tensordot")


def _tnp_first(op: str) -> Callable[..., Any] | None:
    """Tnp's function for ``op`` in a ``TNP_FIRST`` mode, ``None`` where TF's is used."""
    if op in BINARY:
        return _tnp_binary(op)
    if op in _TNP_ALSO:
        found: Callable[..., Any] = getattr(tnp, op.removeprefix("linalg."))
        return found
    return None


def _unique(x: Any, counts: bool = False) -> Any:
    if counts:
        y, _, n = tf.unique_with_counts(x)
        return y, n
    return tuple(tf.unique(x))


def _broadcast_shapes(*shapes: Any) -> tuple[int, ...]:
    out = tf.TensorShape(shapes[0])
    for s in shapes[1:]:
        out = tf.broadcast_static_shape(out, tf.TensorShape(s))
    return tuple(out.as_list())


#: The standard's name -> TF's call taking the standard's arguments (else ``tnp.<name>``).
FUNCTIONS: dict[str, Callable[..., Any]] = {
    **BINARY,
    **{op: native for op, (native, desc) in _tf._FUNCTIONS.items() if not desc.startswith("none")},
    "bitwise_invert": tnp.bitwise_not,
    "cumulative_sum": tnp.cumsum, "cumulative_prod": tnp.cumprod, "linalg.trace": tnp.trace,
    "concat": lambda *xs: tnp.concatenate(list(xs)), "stack": lambda *xs: tnp.stack(list(xs)),
    "where": tf.where, "clip": tnp.clip,
    "matmul": tf.linalg.matmul, "linalg.matmul": tf.linalg.matmul,
    "tensordot": lambda a, b, axes=2: tf.tensordot(a, b, axes), "linalg.outer": tnp.outer,
    "linalg.tensordot": lambda a, b, axes=2: tf.tensordot(a, b, axes),
    "linalg.cross": tf.linalg.cross, "linalg.solve": tf.linalg.solve, "linalg.eig": tf.linalg.eig,
    "linalg.eigvals": tf.linalg.eigvals, "linalg.diagonal": tf.linalg.diag_part,
    "matrix_transpose": tf.linalg.matrix_transpose, "linalg.matrix_transpose": tf.linalg.matrix_transpose,
    "searchsorted": tf.searchsorted, "astype": tf.cast, "broadcast_shapes": _broadcast_shapes,
    "permute_dims": tnp.transpose, "unstack": tf.unstack,
    "argsort": lambda x: tnp.argsort(x, kind="stable"),
    "take_along_axis": lambda x, i: tnp.take_along_axis(x, i, axis=-1),
    "unique_values": lambda x: tf.unique(x).y, "unique_inverse": _unique,
    "unique_counts": lambda x: _unique(x, counts=True),
    "from_dlpack": lambda x: tf.experimental.dlpack.from_dlpack(tf.experimental.dlpack.to_dlpack(x)),
    "fft.fftshift": tf.signal.fftshift, "fft.ifftshift": tf.signal.ifftshift,
}  # fmt: skip
#: What TF has no function of.
ABSENT = frozenset(
    ("copysign", "vecdot", "linalg.vecdot", "linalg.matrix_power", "isin", "can_cast", "isdtype",
     "fft.hfft", "fft.ihfft", "fft.fftfreq", "fft.rfftfreq", "unique_all")
)  # fmt: skip
#: Ops that promote nothing: two tensors of different dtypes are refused whatever the message.
NO_PROMOTION = frozenset(
    ("less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
     "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
     "atan2", "nextafter", "where", "searchsorted", "linalg.cross", "linalg.solve")
)  # fmt: skip
#: Of those, the ones that promote nothing in ``TNP_FIRST`` modes either (TF's ops, no tnp spelling).
LEGACY_NO_PROMOTION = frozenset(
    ("bitwise_left_shift", "bitwise_right_shift", "searchsorted", "linalg.cross", "linalg.solve")
)
#: Ops whose Python operator TF's Tensor lacks (``x << 1`` raises TypeError): absent.
NO_OPERATOR = frozenset(("bitwise_left_shift", "bitwise_right_shift"))
_ONE_ARRAY = frozenset(("elementwise", "reduction", "linalg", "fft"))
#: Messages of TF's conversion logic refusing operands (safe mode's table, a Variable's dtype, a scalar).
_REFUSALS = (
    "implicit dtype promotion",
    "Variable dtype is immutable",
    "Cannot convert",
    "Tensor conversion requested dtype",
    "too large to convert",
    "Can't convert Python sequence",  # an int beyond int64, a float beyond float64
)
_VALUE_ERRORS = {
    "Integer division by zero": "ZeroDivisionError",
    "Integers to negative integer powers are not allowed": "ValueError",
}
_ATTR = re.compile(r"Value for attr '\w+' of (\w+) is not in the list")


class _Decided:
    """An output whose dtype TF decided by tracing (the CPU has no kernel to compute it)."""

    def __init__(self, dtype: Any) -> None:
        self.dtype = dtype


def _decided(out: Any) -> Any:
    if isinstance(out, (tuple, list)):
        return tuple(map(_decided, out))
    return _Decided(out.dtype)


class _Variable:
    """The target of ``inplace`` and ``setitem``: a ``tf.Variable``, its in-place operators TF's assigns."""

    def __init__(self, x: Any) -> None:
        self.var = tf.Variable(x)

    def _assign(self, method: str, value: Any) -> _Variable:
        fn = getattr(self.var, method)
        try:
            fn(value)
        except tf.errors.InvalidArgumentError:
            if _tf._shape(value) == tuple(self.var.shape):
                raise
            fn(_tf._broadcast(value, self.var))  # assign_add does not broadcast
        return self

    def __iadd__(self, value: Any) -> Any:
        if _tf.MODE in TNP_FIRST:  # the policy's spelling there: a tensor's x += y, x = x + y
            return self.var.read_value() + value
        return self._assign("assign_add", value)

    def __isub__(self, value: Any) -> Any:
        if _tf.MODE in TNP_FIRST:
            return self.var.read_value() - value
        return self._assign("assign_sub", value)

    def __setitem__(self, index: Any, value: Any) -> None:
        self.var[index].assign(value)


def _no_inplace(self: _Variable, value: Any) -> _Variable:
    raise Absent


for _op, _fn in _driver.INPLACE_OPERATORS.items():
    _dunder = f"__{_fn.__name__}__"
    if _op not in ("add", "subtract"):
        setattr(_Variable, _dunder, _no_inplace)


def _lookup(op: str) -> Callable[..., Any]:
    if op in FUNCTIONS:
        return FUNCTIONS[op]
    if op in ABSENT:
        raise Absent
    found = getattr(tnp, op, None)
    if found is None:
        raise Absent
    return found  # type: ignore[no-any-return]


def _array_dtypes(case: Case) -> set[str]:
    return {str(o.dtype) for o in map(operand, case.args) if o.what == "array"}


class TensorFlow:
    """The :class:`~conformance.probe._driver.Adapter` of TF 2.21 in ``$PROMO_TF_MODE``'s mode (eager)."""

    name = "tensorflow"
    version = f"{tf.__version__} ({_tf.MODE} mode)"
    policy = _tf.POLICY

    def array(self, values: Any, dtype: str) -> Any:
        pywrap_tfe.TFE_ClearScalarCache()  # every case starts with an empty cache (module docstring)
        return tf.constant(np.asarray(values, dtype=self.dtype(dtype).as_numpy_dtype))

    def scalar(self, value: Any, dtype: str) -> Any:
        raise Absent

    def dtype(self, name: str) -> Any:
        return tf.dtypes.as_dtype(name)

    def function(self, case: Case) -> Callable[..., Any]:
        pywrap_tfe.TFE_ClearScalarCache()
        if _tf.MODE in TNP_FIRST and (found := _tnp_first(case.op)) is not None:
            return found
        return _lookup(case.op)

    def method(self, case: Case) -> Callable[..., Any]:
        if case.spelling != "method":
            raise Absent
        if _tf.MODE in TNP_FIRST:  # TF's op, where tnp's is the function
            if case.op not in BINARY or _tnp_first(case.op) is None:
                raise Absent
            return BINARY[case.op]
        found = _tnp_binary(case.op)
        if found is None:
            raise Absent
        return found

    def copy(self, x: Any) -> Any:
        return _Variable(x)

    def to_numpy(self, x: Any) -> tuple[str, np.ndarray[Any, Any] | None] | None:
        if isinstance(x, _Decided):
            return str(x.dtype.name), None
        if isinstance(x, _Variable):
            x = x.var
        if isinstance(x, np.ndarray):  # tnp.log2/log10 of complex return NumPy arrays
            return x.dtype.name, x
        if not (isinstance(getattr(x, "dtype", None), tf.dtypes.DType) and hasattr(x, "numpy")):
            return None  # neither a Tensor, a WeakTensor (a weak Python scalar's result) nor a Variable
        name = str(x.dtype.name)
        values = np.asarray(x.numpy())
        return name, values.astype(np.float32) if name == "bfloat16" else values

    def dtype_name(self, x: Any) -> str | None:
        if isinstance(x, tf.dtypes.DType):
            return str(x.name)
        return None

    def classify(self, exc: BaseException, case: Case) -> str:
        msg = str(exc)
        first = msg.split("\n", maxsplit=1)[0]
        mixed = len(_array_dtypes(case)) > 1
        if isinstance(exc, np.exceptions.DTypePromotionError) or any(r in msg for r in _REFUSALS):
            return "refused"
        for needle, cls in _VALUE_ERRORS.items():
            if needle in msg:
                return f"error: {cls}"
        if isinstance(exc, TypeError) and "unsupported operand type(s)" in msg:
            return "absent" if case.op in NO_OPERATOR else "refused"
        if _tf._no_kernel(exc):
            return f"unsupported: no CPU kernel for {_tf._op_name(msg)}"
        if case.kind in _ONE_ARRAY:  # an op (or tnp function) without the input dtype refuses it
            if isinstance(exc, NotImplementedError):
                return f"unsupported: {first[:80]}"
            defined = ("is not in the list", "was expected to be a", "Invalid dtype", "not supported")
            if isinstance(exc, (TypeError, ValueError)) or any(e in msg for e in defined):
                return "refused"
        found = _ATTR.search(msg)
        if "was expected to be a" in msg or found is not None:
            promotes = (
                _tf.MODE in TNP_FIRST and case.spelling != "method" and case.op not in LEGACY_NO_PROMOTION
            )
            if mixed and ((case.op in NO_PROMOTION and not promotes) or found is None):
                return "refused"
            dtype = "its input" if found is None else _tf._TF_NAMES.get(found[1], found[1])
            return f"unsupported: {_tf._op_name(msg)} not defined for {dtype}"
        if invalid := re.search(r"Invalid dtype tf\.(\w+) in (\w+)", msg):
            return f"unsupported: {invalid[2]} not defined for {invalid[1]}"
        if isinstance(exc, (ZeroDivisionError, OverflowError, IndexError)):
            return f"error: {type(exc).__name__}"
        return f"unsupported: {type(exc).__name__}: {first[:80]}"

    def fallback(self, case: Case, args: list[Any], kwargs: dict[str, Any], exc: BaseException) -> Any:
        """TF's decision where the CPU has no kernel: the call traced into a graph (no kernel runs)."""
        if not _tf._no_kernel(exc):
            raise exc
        if case.spelling in ("inplace", "setitem"):
            target = self.copy(args[0])
            call = _driver.INPLACE_OPERATORS[case.op] if case.spelling == "inplace" else operator.setitem
            rest = args[1:] if case.spelling == "inplace" else [0, args[1]]
            try:
                tf.function(lambda: call(target, *rest) and None, autograph=False).get_concrete_function()
            except Exception:
                raise exc from None
            return _Decided(target.var.dtype)
        try:
            traced = tf.function(lambda: _driver.call(self, case, args, kwargs), autograph=False)
            return _decided(traced.get_concrete_function().structured_outputs)
        except Exception:
            raise exc from None


def main() -> None:
    """Write ``tests/reference/probe-<policy>.json.gz`` for ``$PROMO_TF_MODE``'s policy."""
    _driver.main(TensorFlow(), COMMAND)


if __name__ == "__main__":
    main()
