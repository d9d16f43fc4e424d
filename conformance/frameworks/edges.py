"""Values and refusals at the edges: what each framework computes, or refuses, for awkward operands.

The dtype grids (``tests/reference/<policy>.json``) say which dtype a framework
picks.  This probe records what it *does* with values at the edges, so that a
policy can reproduce it: the result (canonical dtype name and the values) or
the refusal (exception class, the first line of its message, and a ``kind``).

The grid
--------
``int_scalars``
    Arrays ``[1, 2, 100]`` (bool: ``[True, False, True]``) of every integer,
    bool and real floating dtype the framework has, with the Python ints
    :data:`INT_SCALARS` (-2**63-1 ... 2**70), in every case of
    :data:`INT_CASES`: operators in the framework's operator form (``x + s``,
    ``s + x``, ``x ** s``, ``x // s``, ``x / s``, ``x < s``, ``s < x``,
    ``x & s``, ``x << s`` ...), the rest in its function form
    (``logical_and``, ``maximum``/``minimum``, ``atan2``/``hypot``/``copysign``/
    ``nextafter``/``logaddexp``, ``where(c, x, s)``, ``clip(x, s, None)``,
    ``clip(x, None, s)``, setitem ``x[0] = s``).  ``clip_pairs`` adds
    ``clip(x, lo, hi)`` for the bounds of :data:`CLIP_PAIRS`.
``bool_arithmetic``
    A bool array ``[True, False, True]`` ``b`` with an array ``[1, 2, 3]`` of
    every dtype or a Python scalar ``x``: ``b - x``, ``x - b``, ``b + x``,
    ``b * x``, ``b ** x``, ``x ** b``; and ``bool_unary``: ``-b``,
    ``b ** True``, ``b + b``, ``b - b`` ...
``float_scalars``
    float16, bfloat16 and float32 arrays of :data:`SPECIALS` followed by
    10,000 standard normals (``numpy.random.default_rng(17)``, rounded from
    float64 to the dtype; their SHA-256 is stored under ``inputs``), with the
    Python floats :data:`FLOAT_SCALARS` in ``x * s``, ``s * x``, ``x + s``,
    ``s + x``, ``x / s``, ``s / x``, ``x - s``, ``s - x``.  Each result is
    stored bit for bit: its dtype, the SHA-256 of its little-endian bytes, the
    specials' bits, and, against NumPy models of the computation
    (:data:`MODELS`), how many elements differ (bits, and values with NaNs
    equal); ``exceptions`` lists ``[index, bits]`` where the result differs
    from the closest model (or ``bytes`` holds the whole result, base64, where
    that list would be long).  ``commutes`` says whether ``x * s`` and
    ``s * x`` (and ``x + s``, ``s + x``) give the same bits.
``setitem`` and ``clip``
    Arrays ``[1, 2, 3]`` (bool: ``[False, True, False]``) of
    :data:`SETITEM_DTYPES`; ``x[0] = v`` for Python scalars (True, 5, -1, 1.5,
    1.5+2j) and 0-d arrays of every dtype (True, 5, 1.5, 1.5+2j), the whole
    array after the assignment is stored; ``clip(x, lo, hi)`` with Python
    bounds (0, 2), (False, True), (0.5, 1.5), (0.5+0j, 1.5+0j) and 0-d bounds
    (0, 2) of every dtype.

An observation is ``{"dtype": ..., "values": [...]}`` (ints as ints, floats as
``float.hex()``, complex as ``[re, im]`` in hex, bools as bools), or
``{"error": <class>, "message": <first line>, "kind": ...}``, with
``"warnings"`` where the call warned.  ``kind`` tells the framework's decision
from a gap:

* ``"refused"``: the framework's refusal, a value or dtype check (its answer);
* ``"no_kernel"``: the op is decided but the CPU kernel for the dtype is
  missing (torch's ``"add_stub" not implemented for 'UInt32'``, Paddle's
  "kernel ... is not registered", TF's "Could not find device for node");
  torch's cells then carry ``"decided"``: the same call on the ``meta``
  device, which runs torch's dtype logic and scalar conversion but not the
  kernel's value checks;
* ``"no_loop"``: NumPy / array-api-strict have no ufunc loop for the dtypes
  (NumPy's type resolution answering);
* ``"no_scalar_overload"``: the function takes no Python scalar
  (``torch.maximum(t, 3)``, ``paddle.maximum(t, 3)``);
* ``"no_conversion"``: Paddle cannot make a tensor of that dtype from the
  Python value (``tensor.set() supports array with ...``);
* ``"op_not_defined_for_dtype"``: a TF op whose definition lacks the dtype;
* ``"not_in_framework"``: no such op (TF's copysign);
* ``"framework_bug"``: a C extension returned with a Python error set
  (``SystemError: ... returned a result with an exception set``: TF with a
  negative int for a uint64 tensor, Paddle with ints beyond int64);
* ``"hangs"`` / ``"crashes"``: run in a child process (see
  :meth:`Framework.isolate`), it gave no result within :data:`TIMEOUT`
  seconds (Paddle's integer ``pow`` loops over its exponent) or killed the
  process (Paddle's setitem of a Python complex into a real tensor).

Regenerate
----------
``python -m conformance.frameworks.edges [POLICY ...]`` from the repository
root writes ``tests/reference/edges-<policy>.json`` for each policy whose
framework this interpreter can import (``pytorch``: torch, ``numpy``,
``array-api``: array-api-strict (API 2024.12), ``paddle``, ``tf-safe``, ``tf-all``,
``tf-legacy``: TensorFlow in that ``dtype_conversion_mode``, one mode per process),
e.g.::

    .venv/bin/python -m conformance.frameworks.edges pytorch numpy array-api
    /work/venvs/paddle/bin/python -m conformance.frameworks.edges paddle
    /work/venvs/tf/bin/python -m conformance.frameworks.edges tf-safe
    /work/venvs/tf/bin/python -m conformance.frameworks.edges tf-all

Everything runs on the CPU; each framework is probed twice and the two
probes must agree.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import importlib.util
import json
import math
import multiprocessing
import operator
import os
import re
import signal
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

from conformance.frameworks import _tf_modes

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "tests" / "reference"

INT_DTYPES: tuple[str, ...] = ("int8", "uint8", "int16", "int32", "int64", "uint16", "uint32", "uint64")
#: Dtypes of the arrays in ``int_scalars``.
INT_SCALAR_DTYPES: tuple[str, ...] = ("bool", *INT_DTYPES, "float16", "bfloat16", "float32", "float64")
ALL_DTYPES: tuple[str, ...] = (
    "bool",
    *INT_DTYPES,
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
#: Boundary Python ints.
INT_SCALARS: tuple[int, ...] = (
    -(2**63) - 1,
    -(2**63),
    -256,
    -129,
    -1,
    0,
    1,
    3,
    127,
    128,
    255,
    256,
    2**31,
    2**63 - 1,
    2**63,
    2**64,
    2**70,
)
#: ``clip(x, lo, hi)`` bounds for the integer arrays.
CLIP_PAIRS: tuple[tuple[int, int], ...] = (
    (-1, 50),
    (-255, 50),
    (-256, 50),
    (0, 2),
    (0, 1000),
    (-129, 127),
    (-1, 2**70),
    (0, 2**64),
    (1000, 2000),
    (50, 2),
)
#: Dtypes of the arrays in ``setitem`` and ``clip``.
SETITEM_DTYPES: tuple[str, ...] = (
    "bool",
    "int8",
    "int32",
    "int64",
    "uint8",
    "float16",
    "bfloat16",
    "float32",
    "float64",
    "complex64",
)
SETITEM_SCALARS: dict[str, object] = {
    "py:bool": True,
    "py:int": 5,
    "py:int:-1": -1,
    "py:float": 1.5,
    "py:complex": 1.5 + 2j,
}
CLIP_SCALARS: dict[str, tuple[object, object]] = {
    "py:int": (0, 2),
    "py:bool": (False, True),
    "py:float": (0.5, 1.5),
    "py:complex": (0.5 + 0j, 1.5 + 0j),
}
BOOL_SCALARS: dict[str, object] = {"py:bool": True, "py:int": 1, "py:float": 1.5, "py:complex": 1.5 + 2j}

FLOAT_DTYPES: tuple[str, ...] = ("float16", "bfloat16", "float32")
FLOAT_SCALARS: tuple[float, ...] = (0.1, 1 / 3, 70000.0, 1e-8, 3e38)
SPECIALS: tuple[float, ...] = (0.0, -0.0, 1.0, 65504.0, 1e-8, math.inf, -math.inf, math.nan)
SEED = 17
RANDOM_COUNT = 10_000
#: At most this many ``[index, bits]`` exceptions are stored; beyond, the whole result.
MAX_EXCEPTIONS = 600

NUMPY_DTYPES: dict[str, Any] = {
    **{name: np.dtype(name) for name in ALL_DTYPES if name != "bfloat16"},
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
}
_BITS = {2: np.uint16, 4: np.uint32, 8: np.uint64}

Case = Callable[["Framework", Any, Any], Any]


# --------------------------------------------------------------------------- frameworks


def _head(message: str) -> str:
    """The first meaningful line of a message, at most 160 characters.

    Paddle's comes after its C++ traceback, without its source location
    (``(at /paddle/paddle/fluid/pybind/op_function_common.cc:123)``).
    """
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    if "Error Message Summary:" in lines:
        lines = lines[lines.index("Error Message Summary:") + 1 :]
    lines = [line for line in lines if not set(line) <= set("-=")]
    return re.sub(r"\s*\(at /paddle/[^)]*\)", "", lines[0])[:160] if lines else ""


def _warning(message: Warning | str) -> str:
    """A warning's first line, without torch's "(Triggered internally at <file>)"."""
    return re.sub(r"\s*\(Triggered internally at [^)]*\)\.?", "", _head(str(message)))[:160]


#: Failures classified alike in every framework: a C extension that returned a value with a
#: Python error still set (TF's and Paddle's conversions of some Python ints).
COMMON_KINDS: tuple[tuple[str, str], ...] = (("framework_bug", r"returned a result with an exception set"),)
#: Seconds an isolated cell may run (see :meth:`Framework.isolate`).
TIMEOUT = 5.0


class Framework:
    """One framework's operations, as the probe needs them (subclassed per framework)."""

    policy = ""
    framework = ""
    version = ""
    #: Canonical dtype name -> native dtype, for the dtypes the framework has.
    dtypes: dict[str, Any]
    #: Function name -> native callable; a missing name is an op the framework lacks.
    functions: dict[str, Callable[..., Any]]
    #: How each function is spelled natively, for the JSON.
    forms: dict[str, str]
    #: (kind, pattern): the first pattern found in a message classifies it; else ``"refused"``.
    kinds: tuple[tuple[str, str], ...] = ()

    def asarray(self, values: Any, dtype: str) -> Any:
        """A native array of ``values`` (a Python scalar: a 0-d array)."""
        raise NotImplementedError

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        """A native array with the same bits as ``array``."""
        raise NotImplementedError

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        """A native result as a NumPy array with the same bits (bfloat16 via ml_dtypes)."""
        raise NotImplementedError

    def dtype_name(self, result: Any) -> str:
        """The canonical name of a native result's dtype."""
        raise NotImplementedError

    def call(self, name: str, *args: Any) -> Any:
        """``functions[name](*args)``; NotImplementedError where the framework has no such op."""
        if name not in self.functions:
            raise NotImplementedError(f"{self.framework} has no {name}")
        return self.functions[name](*args)

    def condition(self, like: Any) -> Any:
        """The ``where`` condition ``[True, False, True]``."""
        return self.asarray([True, False, True], "bool")

    def setitem(self, x: Any, value: Any) -> Any:
        """``x[0] = value``; returns the array after the assignment."""
        x[0] = value
        return x

    def lshift(self, x: Any, s: Any) -> Any:
        return x << s

    def rshift(self, x: Any, s: Any) -> Any:
        return x >> s

    def kind(self, exc: BaseException) -> str:
        """How a failure is classified (see the module docstring)."""
        if isinstance(exc, NotImplementedError) and str(exc).startswith(f"{self.framework} has no "):
            return "not_in_framework"
        message = str(exc)
        for kind, pattern in (*self.kinds, *COMMON_KINDS):
            if re.search(pattern, message):
                return kind
        return "refused"

    def reset(self) -> None:
        """Forget state one call could leave for the next (run before every observation)."""

    def isolate(self, case: str, s: object) -> bool:
        """Whether the cell may hang or kill the process: it then runs in a child process."""
        return False

    def decided(self, case: Case, x: Any, s: Any) -> dict[str, Any] | None:
        """Where the CPU has no kernel: what the framework decides without one, if it can say."""
        return None

    def observation(self, result: Any) -> dict[str, Any]:
        """``{"dtype": ..., "values": [...]}`` for a native result."""
        array = self.to_numpy(result)
        return {"dtype": self.dtype_name(result), "values": json_values(array)}


def json_values(array: np.ndarray[Any, Any]) -> list[Any]:
    """The elements of ``array`` as exact JSON values (floats as ``float.hex()``)."""
    flat = array.reshape(-1)
    if flat.dtype == np.bool_:
        return [bool(v) for v in flat]
    if flat.dtype.kind in "iu":
        return [int(v) for v in flat]
    if flat.dtype.kind == "c":
        return [[float(v.real).hex(), float(v.imag).hex()] for v in flat]
    return [float(v).hex() for v in flat.astype(np.float64)]


class Torch(Framework):
    """PyTorch on the CPU; a missing kernel is re-run on the ``meta`` device."""

    policy = "pytorch"
    framework = "torch"
    kinds = (
        ("no_kernel", r"not implemented for '"),
        ("no_scalar_overload", r"must be Tensor, not|received an invalid combination of arguments"),
    )

    def __init__(self) -> None:
        import torch

        self.torch = torch
        self.version = str(torch.__version__)
        self.dtypes = {name: getattr(torch, name) for name in ALL_DTYPES}
        names = ("logical_and", "maximum", "minimum", "atan2", "hypot", "copysign", "nextafter", "logaddexp")
        self.functions = {name: getattr(torch, name) for name in names}
        self.functions["where"] = torch.where
        self.functions["clip"] = torch.clamp
        self.forms = {name: f"torch.{name}" for name in names}
        self.forms |= {"where": "torch.where", "clip": "torch.clamp(x, lo, hi)", "setitem": "x[0] = v"}

    def asarray(self, values: Any, dtype: str) -> Any:
        return self.torch.tensor(values, dtype=self.dtypes[dtype])

    def condition(self, like: Any) -> Any:
        return self.torch.tensor([True, False, True], device=like.device)

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        if array.dtype == NUMPY_DTYPES["bfloat16"]:
            return self.torch.from_numpy(array.view(np.int16).copy()).view(self.torch.bfloat16)
        return self.torch.from_numpy(array.copy())

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        if result.dtype == self.torch.bfloat16:
            return np.asarray(result.view(self.torch.int16).numpy().view(ml_dtypes.bfloat16))
        return np.asarray(result.numpy())

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype).removeprefix("torch.")

    def decided(self, case: Case, x: Any, s: Any) -> dict[str, Any] | None:
        """The same call with every tensor on ``meta``: torch's dtype, or its refusal."""
        meta = [v.to("meta") if isinstance(v, self.torch.Tensor) else v for v in (x, s)]
        try:
            result = case(self, *meta)
        except Exception as exc:
            return failure(self, exc)
        return {"dtype": self.dtype_name(result), "device": "meta"}


class Numpy(Framework):
    """NumPy 2 (bfloat16 from ml_dtypes)."""

    policy = "numpy"
    framework = "numpy"
    version = np.__version__
    kinds = (("no_loop", r"did not contain a loop with signature|not supported for the input types"),)

    def __init__(self) -> None:
        self.dtypes = dict(NUMPY_DTYPES)
        self.functions = {
            "logical_and": np.logical_and,
            "maximum": np.maximum,
            "minimum": np.minimum,
            "atan2": np.arctan2,
            "hypot": np.hypot,
            "copysign": np.copysign,
            "nextafter": np.nextafter,
            "logaddexp": np.logaddexp,
            "where": np.where,
            "clip": np.clip,
        }
        self.forms = {name: f"numpy.{getattr(fn, '__name__', name)}" for name, fn in self.functions.items()}
        self.forms["setitem"] = "x[0] = v"

    def asarray(self, values: Any, dtype: str) -> Any:
        return np.asarray(values, dtype=self.dtypes[dtype])

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        return array.copy()

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        return np.asarray(result)

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype)


class ArrayApiStrict(Framework):
    """array-api-strict, API version 2024.12."""

    policy = "array-api"
    framework = "array_api_strict"
    kinds = Numpy.kinds

    def __init__(self) -> None:
        import array_api_strict as xp

        xp.set_array_api_strict_flags(api_version="2024.12")
        self.xp = xp
        self.version = f"{xp.__version__} (api {xp.__array_api_version__})"
        self.dtypes = {name: getattr(xp, name) for name in ALL_DTYPES if hasattr(xp, name)}
        names = ("logical_and", "maximum", "minimum", "atan2", "hypot", "copysign", "nextafter", "logaddexp")
        self.functions = {name: getattr(xp, name) for name in (*names, "where", "clip")}
        self.forms = {name: f"xp.{name}" for name in self.functions}
        self.forms["setitem"] = "x[0] = v"

    def asarray(self, values: Any, dtype: str) -> Any:
        return self.xp.asarray(values, dtype=self.dtypes[dtype])

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        return self.xp.asarray(array.copy())

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        return np.asarray(result._array)

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype).removeprefix("array_api_strict.")


class Jax(Framework):
    """``jax.numpy`` with 64-bit types on (``jax_enable_x64``), on the CPU; setitem is ``x.at[0].set(v)``."""

    policy = "jax"
    framework = "jax"
    kinds = (("no_loop", r"does not accept dtype"),)

    def __init__(self) -> None:
        import jax

        jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]
        # Standard promotion, jitted as jax.numpy's functions are (a Python int is parsed as a jit
        # argument: op by op it would not overflow the same way); this process runs nothing else.
        jax.config.update("jax_numpy_dtype_promotion", "standard")  # type: ignore[no-untyped-call]
        import jax.numpy as jnp

        self.jnp = jnp
        self.version = jax.__version__
        self.dtypes = {name: getattr(jnp, name) for name in ALL_DTYPES}
        names = ("logical_and", "maximum", "minimum", "hypot", "copysign", "nextafter", "logaddexp")
        self.functions = {name: getattr(jnp, name) for name in (*names, "where", "clip")}
        self.functions["atan2"] = jnp.arctan2
        self.forms = {name: f"jax.numpy.{fn.__name__}" for name, fn in self.functions.items()}
        self.forms["setitem"] = "x.at[0].set(v)"

    def asarray(self, values: Any, dtype: str) -> Any:
        return self.jnp.asarray(values, dtype=self.dtypes[dtype])

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        return self.jnp.asarray(array.copy())

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        return np.asarray(result)

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype)

    def setitem(self, x: Any, value: Any) -> Any:
        return x.at[0].set(value)


class Paddle(Framework):
    """PaddlePaddle, eager mode on the CPU."""

    policy = "paddle"
    framework = "paddle"
    kinds = (
        (
            "no_kernel",
            r"kernel with key \(CPU, [^,]*, \w+\) of kernel `\w+` is not registered"
            r'|"CallScalarFunction" is not implemented',
        ),
        (
            "no_scalar_overload",
            r"must be Tensor, but got (bool|int|float|complex)"
            r"|must be tensor type, but got <class '(bool|int|float|complex)'>"
            r"|'(bool|int|float|complex)' object has no attribute",
        ),
        ("no_conversion", r"tensor\.set\(\) supports array with|Invalid tensor data type"),
    )

    def __init__(self) -> None:
        os.environ.setdefault("GLOG_minloglevel", "2")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import paddle
        paddle.disable_static()
        paddle.set_device("cpu")
        self.paddle = paddle
        self.version = paddle.__version__
        self.dtypes = {name: getattr(paddle, name) for name in ALL_DTYPES}
        names = ("logical_and", "maximum", "minimum", "atan2", "hypot", "copysign", "nextafter", "logaddexp")
        self.functions = {name: getattr(paddle, name) for name in (*names, "where", "clip")}
        self.forms = {name: f"paddle.{name}" for name in self.functions}
        self.forms["setitem"] = "x[0] = v"

    def asarray(self, values: Any, dtype: str) -> Any:
        """``paddle.to_tensor`` in a dtype of the values' kind, then ``astype``.

        (Paddle reads NumPy uint16 data as bfloat16, and has no ``full`` for uint16/32/64.)
        """
        flat = values if isinstance(values, list) else [values]
        if all(isinstance(v, bool) for v in flat):
            base = "bool"
        elif all(isinstance(v, int) for v in flat):
            base = "int64"
        elif all(isinstance(v, (int, float)) for v in flat):
            base = "float64"
        else:
            base = "complex128"
        return self.paddle.to_tensor(values, base).astype(self.dtypes[dtype])

    def isolate(self, case: str, s: object) -> bool:
        """Paddle's integer ``pow`` loops over its exponent; a complex setitem aborts.

        ``int64 ** (2**63 - 1)``, ``int32 ** 2**31`` and ``bool ** -129`` do not
        end; ``x[0] = 1.5 + 2j`` on a real or integer tensor kills the process
        (``pybind11::cast_error``, SIGABRT).
        """
        if case == "setitem":
            return isinstance(s, complex)
        return case == "x ** s" and isinstance(s, int) and not 0 <= s < 2**31

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        if array.dtype == NUMPY_DTYPES["bfloat16"]:
            result = self.paddle.to_tensor(array.view(np.uint16).copy())
            if not result.dtype == self.paddle.bfloat16:
                raise RuntimeError("paddle did not read uint16 data as bfloat16")
            return result
        return self.paddle.to_tensor(array.copy())

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        data = np.asarray(result.numpy())
        return data.view(ml_dtypes.bfloat16) if result.dtype == self.paddle.bfloat16 else data

    def dtype_name(self, result: Any) -> str:
        for name, dtype in self.dtypes.items():  # by identity: str(paddle.uint16) is "paddle.bfloat16"
            if result.dtype == dtype:
                return name
        raise ValueError(f"unknown paddle dtype {result.dtype!r}")


#: Per TF mode, the functions its policy follows in ``tf.experimental.numpy``'s spelling.
_TNP_FUNCTIONS: dict[str, tuple[str, ...]] = {
    "legacy": ("logical_and", "maximum", "minimum", "atan2", "nextafter", "where"),
}


class TensorFlow(Framework):
    """TensorFlow with NumPy behaviour in one ``dtype_conversion_mode``, eager on the CPU.

    Parameters
    ----------
    mode
        ``"safe"``, ``"all"`` or ``"legacy"``; the mode is process-global, so a
        process measures one (a second mode raises RuntimeError).
    """

    framework = "tensorflow"
    kinds = (
        ("no_kernel", r"Could not find device for node|No OpKernel was registered"),
        ("op_not_defined_for_dtype", r"Value for attr '\w+' of \w+ is not in the list"),
        # ``3 & t``: Tensor.__rand__ reads ``.dtype`` of the Python int.
        ("no_scalar_overload", r"'(bool|int|float|complex)' object has no attribute"),
    )

    def __init__(self, mode: str) -> None:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf
        from tensorflow.python import pywrap_tfe
        from tensorflow.python.framework import ops

        enabled = ops.promo_mode_enum_to_string(ops.get_dtype_conversion_mode())
        if enabled not in ("off", mode):
            raise RuntimeError(f"this process measures TF's {enabled!r} mode; run {mode!r} in another")
        self.policy = _tf_modes.POLICIES[mode]
        self.pywrap_tfe = pywrap_tfe
        tf.get_logger().setLevel("ERROR")
        tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
        self.tf = tf
        tnp = tf.experimental.numpy
        self.version = f"{tf.__version__} ({mode} mode)"
        self.dtypes = {name: tf.dtypes.as_dtype(name) for name in ALL_DTYPES}
        self.functions = {
            "logical_and": tf.logical_and,
            "maximum": tf.maximum,
            "minimum": tf.minimum,
            "atan2": tf.math.atan2,
            "hypot": tnp.hypot,
            "nextafter": tf.math.nextafter,
            "logaddexp": tnp.logaddexp,
            "where": tf.where,
            "clip": tnp.clip,
        }
        self.forms = {
            "logical_and": "tf.logical_and",
            "maximum": "tf.maximum",
            "minimum": "tf.minimum",
            "atan2": "tf.math.atan2",
            "hypot": "tf.experimental.numpy.hypot",
            "copysign": "none: TF has no copysign",
            "nextafter": "tf.math.nextafter",
            "logaddexp": "tf.experimental.numpy.logaddexp",
            "where": "tf.where",
            "clip": "tf.experimental.numpy.clip(x, lo, hi)",
            "setitem": "v = tf.Variable(x); v[0].assign(value)",
            "x << s": "tf.bitwise.left_shift(x, s) (a Tensor has no <<)",
            "x >> s": "tf.bitwise.right_shift(x, s)",
        }
        # Legacy mode promotes in the operators and tnp only (tf-legacy's spelling): tnp's functions.
        for name in _TNP_FUNCTIONS.get(mode, ()):
            native = {"atan2": "arctan2"}.get(name, name)
            self.functions[name] = getattr(tnp, native)
            self.forms[name] = f"tf.experimental.numpy.{native}"

    def asarray(self, values: Any, dtype: str) -> Any:
        return self.tf.constant(np.asarray(values, dtype=self.dtypes[dtype].as_numpy_dtype))

    def from_numpy(self, array: np.ndarray[Any, Any]) -> Any:
        return self.tf.constant(array.copy())

    def to_numpy(self, result: Any) -> np.ndarray[Any, Any]:
        return np.asarray(result.numpy())

    def dtype_name(self, result: Any) -> str:
        return str(result.dtype.name)

    def reset(self) -> None:
        """Empty TF's cache of converted Python scalars.

        TF 2.21 converts a negative Python int for an unsigned tensor with a Python
        error left set: the first call raises SystemError, a later one with the
        same int finds the cached (wrapped) tensor, and a later conversion can
        abort the process (``Check failed: !PyErr_Occurred()``).  Each cell
        starts with an empty cache, so each is observed as a first call.
        """
        self.pywrap_tfe.TFE_ClearScalarCache()

    def setitem(self, x: Any, value: Any) -> Any:
        var = self.tf.Variable(x)
        var[0].assign(value)
        return var.read_value()

    def lshift(self, x: Any, s: Any) -> Any:
        return self.tf.bitwise.left_shift(x, s)

    def rshift(self, x: Any, s: Any) -> Any:
        return self.tf.bitwise.right_shift(x, s)


FRAMEWORKS: dict[str, tuple[str, Callable[[], Framework]]] = {
    "pytorch": ("torch", Torch),
    "numpy": ("numpy", Numpy),
    "jax": ("jax", Jax),
    "array-api": ("array_api_strict", ArrayApiStrict),
    "paddle": ("paddle", Paddle),
    **{
        policy: ("tensorflow", functools.partial(TensorFlow, mode))
        for mode, policy in _tf_modes.POLICIES.items()
    },
}


# --------------------------------------------------------------------------- observing


def failure(fw: Framework, exc: BaseException) -> dict[str, Any]:
    """A refusal or a gap: the exception's class, message head and kind."""
    return {"error": type(exc).__name__, "message": _head(str(exc)), "kind": fw.kind(exc)}


def observe_isolated(fw: Framework, case: Case, x: Any, s: Any) -> dict[str, Any]:
    """:func:`observe` in a forked child.

    A child still running after :data:`TIMEOUT` seconds is killed and the cell is
    ``{"error": "Timeout", "kind": "hangs"}``; one that dies (Paddle aborts on
    some setitems) is ``{"error": "Crash", "kind": "crashes"}``.
    """
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child() -> None:
        send.send(observe(fw, case, x, s))

    process = context.Process(target=child)
    process.start()
    send.close()
    if not receive.poll(TIMEOUT):
        process.kill()
        process.join()
        return {"error": "Timeout", "kind": "hangs", "message": f"no result within {TIMEOUT:g} s"}
    try:
        found: dict[str, Any] = receive.recv()
    except EOFError:
        process.join()
        code = process.exitcode or 0
        name = signal.Signals(-code).name if code < 0 else f"exit status {code}"
        return {"error": "Crash", "kind": "crashes", "message": f"the process died ({name})"}
    process.join()
    return found


def run_cell(fw: Framework, name: str, case: Case, x: Any, s: Any) -> dict[str, Any]:
    """:func:`observe`, or :func:`observe_isolated` where ``fw.isolate(name, s)``."""
    return (observe_isolated if fw.isolate(name, s) else observe)(fw, case, x, s)


def observe(fw: Framework, case: Case, x: Any, s: Any, values: bool = True) -> dict[str, Any]:
    """Run ``case(fw, x, s)``: its result (with its values) or its failure, and any warnings."""
    fw.reset()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = case(fw, x, s)
        except Exception as exc:
            found = failure(fw, exc)
            if found["kind"] == "no_kernel" and (decided := fw.decided(case, x, s)) is not None:
                found["decided"] = decided
        else:
            found = fw.observation(result) if values else {"dtype": fw.dtype_name(result)}
    if caught:
        found["warnings"] = sorted({f"{w.category.__name__}: {_warning(w.message)}" for w in caught})
    return found


def _op(symbol: Callable[[Any, Any], Any]) -> Case:
    return lambda fw, x, s: symbol(x, s)


def _reflected(symbol: Callable[[Any, Any], Any]) -> Case:
    return lambda fw, x, s: symbol(s, x)


def _function(name: str) -> Case:
    return lambda fw, x, s: fw.call(name, x, s)


#: ``int_scalars`` cases: name -> (op family, how it runs).
INT_CASES: dict[str, tuple[str, Case]] = {
    "x + s": ("arithmetic", _op(operator.add)),
    "s + x": ("arithmetic", _reflected(operator.add)),
    "x - s": ("arithmetic", _op(operator.sub)),
    "s - x": ("arithmetic", _reflected(operator.sub)),
    "x * s": ("arithmetic", _op(operator.mul)),
    "s * x": ("arithmetic", _reflected(operator.mul)),
    "x ** s": ("power", _op(operator.pow)),
    "s ** x": ("power", _reflected(operator.pow)),
    "x // s": ("real_arithmetic", _op(operator.floordiv)),
    "s // x": ("real_arithmetic", _reflected(operator.floordiv)),
    "x % s": ("real_arithmetic", _op(operator.mod)),
    "s % x": ("real_arithmetic", _reflected(operator.mod)),
    "x / s": ("true_divide", _op(operator.truediv)),
    "s / x": ("true_divide", _reflected(operator.truediv)),
    "x == s": ("comparison", _op(operator.eq)),
    "x != s": ("comparison", _op(operator.ne)),
    "s == x": ("comparison", _reflected(operator.eq)),
    "x < s": ("ordering", _op(operator.lt)),
    "x <= s": ("ordering", _op(operator.le)),
    "x > s": ("ordering", _op(operator.gt)),
    "x >= s": ("ordering", _op(operator.ge)),
    "s < x": ("ordering", _reflected(operator.lt)),
    "logical_and(x, s)": ("logical", _function("logical_and")),
    "x & s": ("bitwise", _op(operator.and_)),
    "x | s": ("bitwise", _op(operator.or_)),
    "x ^ s": ("bitwise", _op(operator.xor)),
    "s & x": ("bitwise", _reflected(operator.and_)),
    "x << s": ("shift", lambda fw, x, s: fw.lshift(x, s)),
    "x >> s": ("shift", lambda fw, x, s: fw.rshift(x, s)),
    "maximum(x, s)": ("extrema", _function("maximum")),
    "minimum(x, s)": ("extrema", _function("minimum")),
    "atan2(x, s)": ("float_only", _function("atan2")),
    "hypot(x, s)": ("float_only", _function("hypot")),
    "copysign(x, s)": ("float_only", _function("copysign")),
    "nextafter(x, s)": ("float_only", _function("nextafter")),
    "logaddexp(x, s)": ("float_only", _function("logaddexp")),
    "where(c, x, s)": ("where", lambda fw, x, s: fw.call("where", fw.condition(x), x, s)),
    "where(c, s, x)": ("where", lambda fw, x, s: fw.call("where", fw.condition(x), s, x)),
    "clip(x, s, None)": ("clip", lambda fw, x, s: fw.call("clip", x, s, None)),
    "clip(x, None, s)": ("clip", lambda fw, x, s: fw.call("clip", x, None, s)),
    "x[0] = s": ("setitem", lambda fw, x, s: fw.setitem(x, s)),
}
#: ``bool_arithmetic`` cases: ``b`` is the bool array, ``x`` the other operand.
BOOL_CASES: dict[str, Case] = {
    "b - x": _op(operator.sub),
    "x - b": _reflected(operator.sub),
    "b + x": _op(operator.add),
    "b * x": _op(operator.mul),
    "b ** x": _op(operator.pow),
    "x ** b": _reflected(operator.pow),
}
#: ``bool_unary`` cases on the bool array ``b`` (``b2`` is a second one).
BOOL_UNARY: dict[str, Callable[[Any, Any], Any]] = {
    "-b": lambda b, b2: -b,
    "b + b": operator.add,
    "b - b": operator.sub,
    "b * b": operator.mul,
    "b / b": operator.truediv,
    "b // b": operator.floordiv,
    "b % b": operator.mod,
    "b ** b": operator.pow,
    "b ** True": lambda b, b2: b**True,
    "b ** 2": lambda b, b2: b**2,
    "2 ** b": lambda b, b2: 2**b,
    "b + True": lambda b, b2: b + True,
    "b - True": lambda b, b2: b - True,
    "True - b": lambda b, b2: True - b,
    "b * True": lambda b, b2: b * True,
}
FLOAT_CASES: dict[str, Case] = {
    "x * s": _op(operator.mul),
    "s * x": _reflected(operator.mul),
    "x + s": _op(operator.add),
    "s + x": _reflected(operator.add),
    "x / s": _op(operator.truediv),
    "s / x": _reflected(operator.truediv),
    "x - s": _op(operator.sub),
    "s - x": _reflected(operator.sub),
}
_SYMBOLS: dict[str, Callable[[Any, Any], Any]] = {
    "*": operator.mul,
    "+": operator.add,
    "/": operator.truediv,
    "-": operator.sub,
}


def int_array_values(dtype: str) -> list[Any]:
    """The ``int_scalars`` array of ``dtype``."""
    return [True, False, True] if dtype == "bool" else [1, 2, 100]


def probe_int_scalars(fw: Framework) -> dict[str, Any]:
    """Every ``INT_CASES`` case for every dtype and Python int, and ``clip_pairs``."""
    dtypes = [d for d in INT_SCALAR_DTYPES if d in fw.dtypes]
    cases: dict[str, dict[str, dict[str, Any]]] = {}
    for name, (_, case) in INT_CASES.items():
        cases[name] = {
            dtype: {
                str(s): run_cell(fw, name, case, fw.asarray(int_array_values(dtype), dtype), s)
                for s in INT_SCALARS
            }
            for dtype in dtypes
        }
    pairs = {
        dtype: {
            f"{lo},{hi}": run_cell(fw, "clip", _clip, fw.asarray(int_array_values(dtype), dtype), (lo, hi))
            for lo, hi in CLIP_PAIRS
        }
        for dtype in dtypes
        if dtype != "bool"
    }
    return {
        "arrays": {dtype: int_array_values(dtype) for dtype in dtypes},
        "scalars": [str(s) for s in INT_SCALARS],
        "families": {name: family for name, (family, _) in INT_CASES.items()},
        "cases": cases,
        "clip_pairs": pairs,
    }


def _data(dtype: str, count: int = 3) -> list[Any]:
    """``[1, 2, 3]``-like data of ``dtype``'s kind."""
    if dtype == "bool":
        return [True, True, False][:count]
    return list(range(1, count + 1))


def _zero_d_value(dtype: str) -> Any:
    if dtype == "bool":
        return True
    if dtype.startswith("complex"):
        return 1.5 + 2j
    if dtype.startswith(("float", "bfloat")):
        return 1.5
    return 5


def _bool_operand(fw: Framework, key: str) -> Any:
    """``"array:<dtype>"``: an array ``[1, 2, 3]`` of the dtype; else a Python scalar."""
    if key.startswith("array:"):
        dtype = key.removeprefix("array:")
        return fw.asarray(_data(dtype), dtype)
    return BOOL_SCALARS[key]


def _pair(fn: Callable[[Any, Any], Any]) -> Case:
    return lambda fw, b, b2: fn(b, b2)


def probe_bools(fw: Framework) -> dict[str, Any]:
    """``bool_arithmetic`` and ``bool_unary``."""
    keys = [f"array:{dtype}" for dtype in fw.dtypes] + list(BOOL_SCALARS)
    arithmetic = {
        name: {
            key: observe(fw, case, fw.asarray([True, False, True], "bool"), _bool_operand(fw, key))
            for key in keys
        }
        for name, case in BOOL_CASES.items()
    }
    unary = {
        name: observe(
            fw, _pair(fn), fw.asarray([True, False, True], "bool"), fw.asarray([True, True, False], "bool")
        )
        for name, fn in BOOL_UNARY.items()
    }
    return {"b": [True, False, True], "bool_arithmetic": arithmetic, "bool_unary": unary}


def _setitem_value(fw: Framework, key: str) -> Any:
    """A Python scalar of :data:`SETITEM_SCALARS`, or ``"0d:<dtype>"``: a 0-d array."""
    if key in SETITEM_SCALARS:
        return SETITEM_SCALARS[key]
    dtype = key.removeprefix("0d:")
    return fw.asarray(_zero_d_value(dtype), dtype)


def _clip_bounds(fw: Framework, key: str) -> tuple[Any, Any]:
    """Python bounds of :data:`CLIP_SCALARS`, or ``"0d:<dtype>"``: 0-d arrays (0, 2)."""
    if key in CLIP_SCALARS:
        return CLIP_SCALARS[key]
    dtype = key.removeprefix("0d:")
    low, high = (False, True) if dtype == "bool" else (0, 2)
    return fw.asarray(low, dtype), fw.asarray(high, dtype)


def probe_setitem_clip(fw: Framework) -> dict[str, Any]:
    """``setitem`` and ``clip`` with Python scalars and 0-d arrays of every dtype."""
    dtypes = [d for d in SETITEM_DTYPES if d in fw.dtypes]
    zero_d = [f"0d:{d}" for d in fw.dtypes]
    setitem = {
        dtype: {
            key: run_cell(
                fw, "setitem", _setitem, fw.asarray(_setitem_data(dtype), dtype), _setitem_value(fw, key)
            )
            for key in [*SETITEM_SCALARS, *zero_d]
        }
        for dtype in dtypes
    }
    clip = {
        dtype: {
            key: run_cell(fw, "clip", _clip, fw.asarray(_clip_data(dtype), dtype), _clip_bounds(fw, key))
            for key in [*CLIP_SCALARS, *zero_d]
        }
        for dtype in dtypes
    }
    return {
        "setitem_arrays": {d: _setitem_data(d) for d in dtypes},
        "setitem_values": {
            **{k: repr(v) for k, v in SETITEM_SCALARS.items()},
            "0d:<dtype>": "True, 5, 1.5 or 1.5+2j",
        },
        "setitem": setitem,
        "clip_arrays": {d: _clip_data(d) for d in dtypes},
        "clip_bounds": {
            **{k: repr(v) for k, v in CLIP_SCALARS.items()},
            "0d:<dtype>": "(0, 2) or (False, True)",
        },
        "clip": clip,
    }


def _setitem(fw: Framework, x: Any, value: Any) -> Any:
    return fw.setitem(x, value)


def _clip(fw: Framework, x: Any, bounds: tuple[Any, Any]) -> Any:
    return fw.call("clip", x, *bounds)


def _setitem_data(dtype: str) -> list[Any]:
    return [False, True, False] if dtype == "bool" else [1, 2, 3]


def _clip_data(dtype: str) -> list[Any]:
    return [False, True, True] if dtype == "bool" else [1, 2, 3]


# --------------------------------------------------------------------------- low-precision floats


def float_inputs(dtype: str) -> np.ndarray[Any, Any]:
    """The float-section input of ``dtype``: the specials, then 10,000 seeded normals."""
    rng = np.random.default_rng(SEED)
    values = np.concatenate([np.array(SPECIALS), rng.standard_normal(RANDOM_COUNT)])
    return values.astype(NUMPY_DTYPES[dtype])


def _bits(array: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.ascontiguousarray(array).view(_BITS[array.dtype.itemsize])


def _flush(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """``values`` with subnormals flushed to zero of the same sign (a CPU in FTZ mode)."""
    tiny = np.finfo(values.dtype).tiny
    return np.where(np.abs(values) < tiny, np.copysign(values.dtype.type(0), values), values)


def _with(compute: Any, symbol: str, x: np.ndarray[Any, Any], s: Any, reflected: bool) -> Any:
    fn = _SYMBOLS[symbol]
    xs = x.astype(compute)
    return fn(s, xs) if reflected else fn(xs, s)


def models(x: np.ndarray[Any, Any], s: float, name: str, out: Any) -> dict[str, np.ndarray[Any, Any]]:
    """NumPy models of ``name`` (``"x * s"`` ...) on ``x``, rounded once to ``out``.

    See :data:`MODELS`.
    """
    reflected = name.startswith("s ")
    symbol = name.split()[1]
    f32, f64 = np.dtype(np.float32), np.dtype(np.float64)
    with np.errstate(all="ignore"):
        return _models(x, s, name, out, symbol, reflected, f32, f64)


def _models(
    x: np.ndarray[Any, Any], s: float, name: str, out: Any, symbol: str, reflected: bool, f32: Any, f64: Any
) -> dict[str, np.ndarray[Any, Any]]:
    found = {
        "float32_opmath": _with(f32, symbol, x, f32.type(s), reflected).astype(out),
        "float64_opmath": _with(f64, symbol, x, f64.type(s), reflected).astype(out),
        "scalar_rounded_first": _with(f32, symbol, x, f32.type(x.dtype.type(s)), reflected).astype(out),
        "scalar_rounded_first_ftz": _flush(
            _with(f32, symbol, x, f32.type(x.dtype.type(s)), reflected)
        ).astype(out),
    }
    if name == "s / x":
        reciprocal = (f32.type(1) / x.astype(f32)).astype(x.dtype).astype(f32)
        found["reciprocal_then_multiply"] = (reciprocal * f32.type(s)).astype(out)
    if name == "x / s":
        found["multiply_by_reciprocal"] = (x.astype(f32) * (f32.type(1) / f32.type(s))).astype(out)
    return found


#: What each model computes (the JSON's ``models`` key).
MODELS: dict[str, str] = {
    "float32_opmath": "x and float32(s) in float32, rounded once to the result dtype",
    "float64_opmath": "x and s (a double) in float64, rounded once to the result dtype",
    "scalar_rounded_first": "s rounded to x's dtype first, then as float32_opmath",
    "scalar_rounded_first_ftz": "scalar_rounded_first with float32 subnormal results flushed to zero",
    "reciprocal_then_multiply": "s / x as float32(s) * (1/x rounded to x's dtype), rounded once",
    "multiply_by_reciprocal": "x / s as x * (1/float32(s)) in float32, rounded once",
}


def _differ(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> tuple[int, int]:
    """Elements whose bits differ, and whose values differ (NaNs equal)."""
    if a.dtype != b.dtype:
        return a.size, a.size
    bits = int(np.count_nonzero(_bits(a) != _bits(b)))
    fa, fb = a.astype(np.float64), b.astype(np.float64)
    values = int(np.count_nonzero(~((fa == fb) | (np.isnan(fa) & np.isnan(fb)))))
    return bits, values


def _hex_bits(value: Any, width: int) -> str:
    return f"0x{int(value):0{width * 2}x}"


def float_observation(fw: Framework, name: str, x: np.ndarray[Any, Any], s: float) -> dict[str, Any]:
    """The bit-exact observation of ``name`` on the input ``x`` (NumPy) and the scalar ``s``."""
    case = FLOAT_CASES[name]
    stored: dict[str, Any] = {}

    def run(fw: Framework, native: Any, s: Any) -> Any:
        result = case(fw, native, s)
        stored["result"] = fw.to_numpy(result)
        return result

    found = observe(fw, run, fw.from_numpy(x), s, values=False)
    if "error" in found:
        return found
    result: np.ndarray[Any, Any] = stored["result"]
    width = result.dtype.itemsize
    bits = _bits(result)
    out: dict[str, Any] = {"dtype": found["dtype"], "sha256": hashlib.sha256(bits.tobytes()).hexdigest()}
    if "warnings" in found:
        out["warnings"] = found["warnings"]
    out["specials"] = [_hex_bits(b, width) for b in bits[: len(SPECIALS)]]
    counts = {}
    model_arrays = models(x, s, name, result.dtype) if result.dtype.kind == "f" or width == 2 else {}
    for model, expected in model_arrays.items():
        differ_bits, differ_values = _differ(result, expected)
        counts[model] = {"bits": differ_bits, "values": differ_values}
    out["models"] = counts
    out["matches"] = sorted(m for m, c in counts.items() if c["bits"] == 0)
    if out["matches"]:
        return out
    best = min(counts, key=lambda m: (counts[m]["bits"], m)) if counts else None
    differing = (
        np.flatnonzero(_bits(model_arrays[best]) != bits) if best is not None else np.arange(result.size)
    )
    if best is not None and differing.size <= MAX_EXCEPTIONS:
        out["closest"] = best
        out["exceptions"] = [[int(i), _hex_bits(bits[i], width)] for i in differing]
    else:
        out["bytes"] = base64.b64encode(bits.astype(bits.dtype.newbyteorder("<")).tobytes()).decode()
    return out


def probe_floats(fw: Framework) -> dict[str, Any]:
    """``float_scalars``: every case, dtype and scalar, bit for bit, and whether the orders agree."""
    dtypes = [d for d in FLOAT_DTYPES if d in fw.dtypes]
    inputs: dict[str, Any] = {}
    cases: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in FLOAT_CASES}
    for dtype in dtypes:
        x = float_inputs(dtype)
        back = fw.to_numpy(fw.from_numpy(x))
        if back.dtype != x.dtype or not np.array_equal(_bits(back), _bits(x)):
            raise RuntimeError(f"{fw.framework} does not keep the bits of a {dtype} input")
        inputs[dtype] = {"count": int(x.size), "sha256": hashlib.sha256(_bits(x).tobytes()).hexdigest()}
        for name in FLOAT_CASES:
            cases[name][dtype] = {repr(s): float_observation(fw, name, x, s) for s in FLOAT_SCALARS}
    commutes: dict[str, dict[str, dict[str, bool]]] = {}
    for left, right in (("x * s", "s * x"), ("x + s", "s + x")):
        commutes[f"{left} == {right}"] = {
            dtype: {
                key: cases[left][dtype][key].get("sha256") == cases[right][dtype][key].get("sha256")
                and "sha256" in cases[left][dtype][key]
                for key in cases[left][dtype]
            }
            for dtype in dtypes
        }
    return {
        "specials": [float(v).hex() for v in SPECIALS],
        "random": f"numpy.random.default_rng({SEED}).standard_normal({RANDOM_COUNT}), float64 -> dtype",
        "inputs": inputs,
        "models": MODELS,
        "cases": cases,
        "commutes": commutes,
    }


# --------------------------------------------------------------------------- driver


def probe(fw: Framework) -> dict[str, Any]:
    """Every section of the grid for ``fw``."""
    return {
        "policy": fw.policy,
        "framework": fw.framework,
        "version": fw.version,
        "numpy": np.__version__,
        "command": f"python -m conformance.frameworks.edges {fw.policy}",
        "forms": fw.forms,
        "int_scalars": probe_int_scalars(fw),
        **probe_bools(fw),
        "float_scalars": probe_floats(fw),
        **probe_setitem_clip(fw),
    }


def _without_warnings(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_warnings(v) for k, v in data.items() if k != "warnings"}
    return data


def _at(data: Any, path: str) -> Any:
    for key in path.strip("/").split("/"):
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _differences(a: Any, b: Any, where: str = "") -> list[str]:
    """The paths at which two probes differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [
            p
            for key in sorted(a.keys() | b.keys())
            for p in _differences(a.get(key), b.get(key), f"{where}/{key}")
        ]
    return [] if a == b else [where]


def dumps(data: Any, indent: str = "") -> str:
    """JSON with sorted keys, one observation (or list) per line: diffable, and half the size."""
    if not isinstance(data, dict) or not data or "dtype" in data or "error" in data:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    inner = indent + " "
    items = (f"{inner}{json.dumps(key)}: {dumps(data[key], inner)}" for key in sorted(data))
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def path(policy: str) -> Path:
    """Where the observations for ``policy`` are stored."""
    return REFERENCE_DIR / f"edges-{policy}.json"


def available(policy: str) -> bool:
    """Whether this interpreter can import ``policy``'s framework."""
    return importlib.util.find_spec(FRAMEWORKS[policy][0]) is not None


def write(policy: str) -> Path:
    """Probe ``policy``'s framework twice and write ``tests/reference/edges-<policy>.json``."""
    fw = FRAMEWORKS[policy][1]()
    first = probe(fw)
    # Warnings are compared out: torch gives some only once per process.
    second = _without_warnings(probe(fw))
    if differing := _differences(_without_warnings(first), second):
        shown = [(path, _at(first, path), _at(second, path)) for path in differing[:5]]
        raise RuntimeError(f"two probes of {fw.framework} disagree ({len(differing)} values): {shown}")
    target = path(policy)
    target.write_text(dumps(first) + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    """Write the files of the policies named (default: every one whose framework imports)."""
    names = sys.argv[1:] if argv is None else argv
    unknown = [n for n in names if n not in FRAMEWORKS]
    if unknown:
        print(f"unknown policies {unknown}; known: {list(FRAMEWORKS)}", file=sys.stderr)
        return 2
    # TF's mode is process-global: by default, the one $PROMO_TF_MODE names (tf-safe).
    tf_other = set(_tf_modes.POLICIES.values()) - {_tf_modes.policy()}
    for policy in names or [p for p in FRAMEWORKS if available(p) and p not in tf_other]:
        if not available(policy):
            print(f"skipped {policy}: {FRAMEWORKS[policy][0]} is not importable", file=sys.stderr)
            continue
        print(f"wrote {write(policy)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
