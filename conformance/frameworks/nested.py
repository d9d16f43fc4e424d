"""What each framework's own creation function makes of nested data mixing arrays and scalars.

``python -m conformance.frameworks.nested`` probes every framework it can import
(run it once with each interpreter: the main one has torch, NumPy and
array-api-strict; Paddle and TensorFlow live in their own environments) and
merges what it sees into ``tests/reference/nested-creation.json``, one entry per
creation call, then prints the table.  The creation calls are
``torch.tensor``/``torch.asarray``, ``np.asarray``, ``array_api_strict.asarray``,
``paddle.to_tensor``, ``tf.constant``, ``tf.experimental.numpy.asarray``
(TensorFlow in the mode ``$PROMO_TF_MODE`` names, safe by default: run it once per
mode) and ``jax.numpy.asarray`` (64-bit types on).  Each case is a list of elements:

* ``<dtype>:0d`` -- a 0-d array of the framework holding 1, ``<dtype>:1d`` -- a
  1-d array holding ``[1, 1]``;
* ``py:int``/``py:float`` -- ``1``/``1.5``; ``np.<dtype>`` -- a NumPy scalar
  holding 1, given as it is to every framework.

An observation is ``"<dtype> <shape>"`` or ``"error: <type>: <message>"``.  The
``numpy_scalars`` entry records NumPy's own ``where``/``clip``/``result_type``
with an int8 array and a NumPy float scalar.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any

from conformance.frameworks import _cells, _tf_modes

OUT = _cells.reference("nested-creation")
CASES: tuple[tuple[str, ...], ...] = (
    ("int32:0d", "int32:0d"),
    ("float64:0d", "float64:0d"),
    ("uint8:0d", "uint8:0d"),
    ("float16:0d", "float16:0d"),
    ("int8:0d", "int32:0d"),
    ("int32:0d", "float32:0d"),
    ("uint8:0d", "int8:0d"),
    ("int32:1d", "int32:1d"),
    ("float16:1d", "float16:1d"),
    ("int8:1d", "int32:1d"),
    ("int32:1d", "float32:1d"),
    ("uint8:1d", "int8:1d"),
    ("int32:0d", "py:float"),
    ("int32:0d", "py:int"),
    ("int8:0d", "py:int"),
    ("float32:0d", "py:int"),
    ("float16:0d", "py:float"),
    ("float32:0d", "py:float"),
    ("np.float32", "py:float"),
    ("np.int32", "py:int"),
    ("np.int32", "py:float"),
    ("np.float32", "np.int32"),
    ("np.float64", "py:float"),
)


class Creator:
    """One framework's creation call and how it makes arrays and names dtypes."""

    def __init__(
        self,
        name: str,
        create: Callable[[list[Any]], Any],
        make: Callable[[str, int], Any],
        describe: Callable[[Any], str],
    ) -> None:
        self.name = name
        self.create = create
        self.make = make  # (dtype, ndim) -> an array holding ones
        self.describe = describe


def _element(creator: Creator, token: str) -> Any:
    import numpy as np

    head, _, role = token.partition(":")
    if head == "py":
        return {"int": 1, "float": 1.5}[role]
    if head.startswith("np."):
        return getattr(np, head[3:])(1)
    return creator.make(head, 0 if role == "0d" else 1)


def observe(creator: Creator, case: tuple[str, ...]) -> str:
    """What ``creator`` makes of the case's elements."""
    try:
        elements = [_element(creator, t) for t in case]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return creator.describe(creator.create(elements))
    except Exception as exc:
        first = (str(exc).strip().splitlines() or [""])[0]
        return f"error: {type(exc).__name__}: {first[:110]}"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence file descriptor 2 while a noisy framework imports."""
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


def _torch() -> list[Creator]:
    import torch

    def make(dtype: str, ndim: int) -> Any:
        return torch.ones((2,) * ndim, dtype=getattr(torch, dtype))

    def describe(x: Any) -> str:
        return f"{str(x.dtype).removeprefix('torch.')} {list(x.shape)}"

    return [
        Creator(f"torch.tensor ({torch.__version__})", torch.tensor, make, describe),
        Creator(f"torch.asarray ({torch.__version__})", torch.asarray, make, describe),
    ]


def _numpy() -> list[Creator]:
    import numpy as np

    def make(dtype: str, ndim: int) -> Any:
        return np.ones((2,) * ndim, dtype=dtype)

    return [
        Creator(
            f"np.asarray ({np.__version__})",
            np.asarray,
            make,
            lambda x: f"{x.dtype.name} {list(x.shape)}",
        )
    ]


def _array_api_strict() -> list[Creator]:
    import array_api_strict as xp

    xp.set_array_api_strict_flags(api_version="2024.12")

    def make(dtype: str, ndim: int) -> Any:
        native = getattr(xp, dtype, None)
        if native is None:
            raise LookupError(f"array-api-strict has no {dtype}")
        return xp.ones((2,) * ndim, dtype=native)

    def describe(x: Any) -> str:
        return f"{str(x.dtype).removeprefix('array_api_strict.')} {list(x.shape)}"

    return [Creator(f"array_api_strict.asarray ({xp.__version__})", xp.asarray, make, describe)]


def _paddle() -> list[Creator]:
    os.environ.setdefault("GLOG_minloglevel", "2")
    with _quiet(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import paddle
    paddle.disable_static()
    paddle.set_device("cpu")
    names = {getattr(paddle, d): d for d in _cells.DTYPES}

    def make(dtype: str, ndim: int) -> Any:
        return paddle.ones([2] * ndim, "int32").astype(getattr(paddle, dtype))

    def describe(x: Any) -> str:
        return f"{names.get(x.dtype, str(x.dtype))} {list(x.shape)}"

    return [Creator(f"paddle.to_tensor ({paddle.__version__})", paddle.to_tensor, make, describe)]


def _tensorflow() -> list[Creator]:
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    with _quiet():
        import tensorflow as tf
    mode = _tf_modes.mode()
    tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)

    def make(dtype: str, ndim: int) -> Any:
        return tf.ones((2,) * ndim, dtype=tf.dtypes.as_dtype(dtype))

    def describe(x: Any) -> str:
        return f"{x.dtype.name} {list(x.shape)}"

    return [
        Creator(f"tf.constant ({tf.__version__}, {mode})", tf.constant, make, describe),
        Creator(f"tnp.asarray ({tf.__version__}, {mode})", tf.experimental.numpy.asarray, make, describe),
    ]


def _jax() -> list[Creator]:
    import jax

    jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]
    import jax.numpy as jnp

    def make(dtype: str, ndim: int) -> Any:
        return jnp.ones((2,) * ndim, dtype=getattr(jnp, dtype))

    def describe(x: Any) -> str:
        return f"{x.dtype.name} {list(x.shape)}"

    return [Creator(f"jnp.asarray ({jax.__version__}, x64)", jnp.asarray, make, describe)]


#: The creation call each policy's ``asarray`` of nested data is compared with (a name of
#: :data:`CREATORS`' calls, without the version) and what its name ends with after the version
#: (TF's mode).
CREATION: dict[str, tuple[str, str]] = {
    "array-api": ("array_api_strict.asarray", ""),
    "pytorch": ("torch.tensor", ""),
    "numpy": ("np.asarray", ""),
    "paddle": ("paddle.to_tensor", ""),
    **{policy: ("tnp.asarray", f", {mode}") for mode, policy in _tf_modes.POLICIES.items()},
    "jax": ("jnp.asarray", ""),
}


def creation_observations(policy: str, data: dict[str, Any] | None = None) -> tuple[str, dict[str, str]]:
    """The creation call compared with ``policy`` (named with its version) and its stored observations."""
    stored = data if data is not None else _cells.load(OUT)
    call, tag = CREATION[policy]
    (name,) = [k for k in stored["creation"] if k.startswith(call + " (") and k.endswith(tag + ")")]
    found: dict[str, str] = stored["creation"][name]
    return name, found


#: Framework module -> its creation calls.
CREATORS: dict[str, Callable[[], list[Creator]]] = {
    "torch": _torch,
    "numpy": _numpy,
    "array_api_strict": _array_api_strict,
    "paddle": _paddle,
    "tensorflow": _tensorflow,
    "jax": _jax,
}


#: The calls of :func:`numpy_scalars`: ``call(xp, c, a, s)`` with ``xp`` NumPy (or an Array API
#: namespace), ``c`` a bool array, ``a`` an int8 array and ``s`` a NumPy scalar; the result's dtype.
NUMPY_SCALAR_CALLS: dict[str, Callable[[Any, Any, Any, Any], Any]] = {
    "np.where(c, int8_arr, {})": lambda xp, c, a, s: xp.where(c, a, s).dtype,
    "np.clip(int8_arr, {}, None)": lambda xp, c, a, s: xp.clip(a, s, None).dtype,
    "np.result_type(int8_arr, {})": lambda xp, c, a, s: xp.result_type(a, s),
    "int8_arr + {}": lambda xp, c, a, s: (a + s).dtype,
}
#: The NumPy scalars of :func:`numpy_scalars`.
NUMPY_SCALARS: tuple[str, ...] = ("float64", "float32")


def numpy_scalar_calls(xp: Any) -> dict[str, str]:
    """:data:`NUMPY_SCALAR_CALLS` with every scalar of :data:`NUMPY_SCALARS` in namespace ``xp``."""
    import numpy as np

    a = xp.ones(2, dtype=xp.int8)
    c = xp.asarray([True, False])
    out = {}
    for scalar in NUMPY_SCALARS:
        for name, call in NUMPY_SCALAR_CALLS.items():
            try:
                out[name.format(f"np.{scalar}(.1)")] = str(call(xp, c, a, getattr(np, scalar)(0.1)))
            except Exception as exc:
                out[name.format(f"np.{scalar}(.1)")] = f"error: {type(exc).__name__}: {str(exc)[:100]}"
    return out


def numpy_scalars() -> dict[str, str]:
    """NumPy 2's ``where``/``clip``/``result_type`` of an int8 array with a NumPy float scalar."""
    import numpy as np

    return numpy_scalar_calls(np)


def probe() -> dict[str, dict[str, str]]:
    """Observe every case with every creation call whose framework imports here."""
    found: dict[str, dict[str, str]] = {}
    for module, creators in CREATORS.items():
        try:
            import_module(module)
        except ImportError:
            continue
        for creator in creators():
            found[creator.name] = {" , ".join(case): observe(creator, case) for case in CASES}
    return found


def table(data: dict[str, Any]) -> str:
    """The observations as a Markdown table: one row per case, one column per creation call."""
    calls = list(data["creation"])
    lines = ["| elements | " + " | ".join(calls) + " |", "|---" * (len(calls) + 1) + "|"]
    for case in CASES:
        key = " , ".join(case)
        lines.append(f"| `[{key}]` | " + " | ".join(data["creation"][c].get(key, "") for c in calls) + " |")
    lines += ["", "| NumPy call | dtype |", "|---|---|"]
    lines += [f"| `{k}` | {v} |" for k, v in data.get("numpy_scalars", {}).items()]
    return "\n".join(lines)


def main() -> None:
    """Probe, merge into ``tests/reference/nested-creation.json`` and print the table."""
    data: dict[str, Any] = _cells.load(OUT) if OUT.exists() else {"creation": {}}
    data["command"] = "python -m conformance.frameworks.nested (once per interpreter)"
    data["creation"].update(probe())
    with contextlib.suppress(ImportError):
        data["numpy_scalars"] = numpy_scalars()
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(table(data))


if __name__ == "__main__":
    main()
