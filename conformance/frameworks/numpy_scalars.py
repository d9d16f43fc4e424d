"""``python -m conformance.frameworks.numpy_scalars FRAMEWORK``: NumPy scalars as operands, observed.

FRAMEWORK is ``paddle``, ``tf-safe``, ``tf-all`` or ``tf-legacy`` (TensorFlow
with ``experimental_enable_numpy_behavior(dtype_conversion_mode=...)``; each
mode in its own process).  For a tensor ``[1, 2, 3]`` (``[True, False,
True]``) of every dtype and a NumPy scalar ``s`` of every dtype (``True``,
``2``, ``1.5``, ``1+2j``), each op's result dtype, ``"ndarray"`` where the
framework hands the op to NumPy, or ``"error: <type>"``, is merged into
``tests/reference/numpy-scalars.json`` under FRAMEWORK, with the versions.
Needs the framework installed (``.[conformance-paddle]``,
``.[conformance-tensorflow]``), not promo_ns.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

PATH = Path(__file__).resolve().parents[2] / "tests" / "reference" / "numpy-scalars.json"
TENSOR_DTYPES = (
    "bool", "int8", "uint8", "int16", "int32", "int64", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
SCALAR_DTYPES = (
    "bool", "int8", "uint8", "int16", "int32", "int64", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip


def numpy_scalar(dtype: str, kind_value: dict[str, Any] | None = None) -> Any:
    """The NumPy scalar of ``dtype`` the probe uses: True, 2, 1.5 or 1+2j (``kind_value`` overrides)."""
    values = kind_value or {"b": True, "i": 2, "u": 2, "f": 1.5, "c": 1 + 2j}
    return np.dtype(dtype).type(values[np.dtype(dtype).kind])


#: The upper bound of a TF clip: 100 of the scalar's dtype (True for bool).
_BIG = {"b": True, "i": 100, "u": 100, "f": 100.0, "c": 100 + 0j}


def _paddle() -> tuple[Callable[[str], Any], dict[str, Callable[[Any, Any], Any]], str]:
    import paddle

    def tensor(dtype: str) -> Any:
        if dtype == "bool":
            return paddle.to_tensor([True, False, True])
        return paddle.to_tensor(np.array([1, 2, 3], dtype="int64")).astype(dtype)

    cond = paddle.to_tensor([True, False, True])
    ops = {
        "t + s": lambda t, s: t + s,
        "s + t": lambda t, s: s + t,
        "paddle.where(c, t, s)": lambda t, s: paddle.where(cond, t, s),
        "paddle.clip(t, s)": paddle.clip,
    }
    return tensor, ops, f"paddle {paddle.__version__}"


def _tensorflow(mode: str) -> tuple[Callable[[str], Any], dict[str, Callable[[Any, Any], Any]], str]:
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    tnp.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)

    def tensor(dtype: str) -> Any:
        if dtype == "bool":
            return tf.constant([True, False, True])
        return tf.cast(tf.constant([1, 2, 3], dtype=tf.int64), dtype)

    ops = {
        "t + s": lambda t, s: t + s,
        "s + t": lambda t, s: s + t,
        "tf.add(t, s)": tf.add,
        "tnp.clip(t, s, big)": lambda t, s: tnp.clip(t, s, s.dtype.type(_BIG[s.dtype.kind])),
    }
    return tensor, ops, f"tensorflow {tf.__version__} ({mode})"


def _dtype_name(result: Any) -> str:
    if isinstance(result, (np.ndarray, np.generic)):
        return "ndarray"
    dtype = result.dtype
    if type(dtype).__module__.startswith("paddle"):
        return str(dtype).removeprefix("paddle.")
    return str(dtype.name)


def observe(framework: str) -> dict[str, Any]:
    """Every op's outcome under ``framework``: ``{op: {"tensor|scalar": outcome}}`` and the version."""
    warnings.filterwarnings("ignore")
    tensor, ops, version = _paddle() if framework == "paddle" else _tensorflow(framework.removeprefix("tf-"))
    found: dict[str, dict[str, str]] = {op: {} for op in ops}
    for t_dtype in TENSOR_DTYPES:
        try:
            t = tensor(t_dtype)
        except Exception:  # no such tensor (Paddle's uint64)
            continue
        for s_dtype in SCALAR_DTYPES:
            s = numpy_scalar(s_dtype)
            for op, call in ops.items():
                try:
                    outcome = _dtype_name(call(t, s))
                except Exception as e:
                    outcome = f"error: {type(e).__name__}"
                found[op][f"{t_dtype}|{s_dtype}"] = outcome
    return {"version": f"{version}, numpy {np.__version__}", "ops": found}


def main(argv: list[str]) -> int:
    """Observe framework ``argv[0]`` and merge it into :data:`PATH`."""
    if len(argv) != 1 or argv[0] not in ("paddle", "tf-safe", "tf-all", "tf-legacy"):
        print(__doc__)
        return 2
    stored = json.loads(PATH.read_text()) if PATH.exists() else {}
    stored[argv[0]] = observe(argv[0])
    PATH.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    print(f"wrote {argv[0]} to {PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
