"""The namespace: the whole Array API 2024.12 over one backend, with one promotion policy.

Functions that combine operands ask the engine for the result dtype; the rest
delegate to ``array_api_compat.<backend>`` and wrap what comes back.
"""

from __future__ import annotations

import functools
import inspect
import math
import warnings
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple

from promo_ns import _array
from promo_ns._array import Array, function, unwrap
from promo_ns._context import active, tracer
from promo_ns._dtypes import BY_NAME, DTYPES, DType, bool_, canonical
from promo_ns._engine import Operand, PromotionError, accumulation_dtype, operand, resolve, resolve_many
from promo_ns._ops import NATIVE
from promo_ns.backends import Backend, Plan, get_backend
from promo_ns.policies import Policy, Role, get_policy

__all__ = ["Namespace", "array_namespace", "namespace"]

API_VERSION = "2024.12"

#: Functions with nothing to promote: delegated to array-api-compat, results wrapped.
DELEGATED = (
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "bitwise_invert",
    "ceil",
    "conj",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "floor",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log1p",
    "log2",
    "log10",
    "logical_not",
    "negative",
    "positive",
    "real",
    "reciprocal",
    "round",
    "sign",
    "signbit",
    "sin",
    "sinh",
    "square",
    "sqrt",
    "tan",
    "tanh",
    "trunc",
    "empty_like",
    "from_dlpack",
    "full_like",
    "ones_like",
    "tril",
    "triu",
    "zeros_like",
    "take",
    "take_along_axis",
    "broadcast_to",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "tile",
    "unstack",
    "argmax",
    "argmin",
    "count_nonzero",
    "nonzero",
    "searchsorted",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
    "argsort",
    "sort",
    "max",
    "mean",
    "min",
    "std",
    "var",
    "all",
    "any",
    "diff",
    "matrix_transpose",
)
LINALG_DELEGATED = (
    "cholesky",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "inv",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "pinv",
    "qr",
    "slogdet",
    "svd",
    "svdvals",
    "vector_norm",
)
FFT_DELEGATED = (
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftshift",
    "ifftshift",
)
_CONSTANTS = {"e": math.e, "inf": math.inf, "nan": math.nan, "pi": math.pi, "newaxis": None}
_DEFAULT_KIND = {bool: "bool", int: "int", float: "float", complex: "complex"}


class finfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of a floating-point dtype."""

    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


class iinfo_object(NamedTuple):  # noqa: N801 - the standard's name
    """Machine limits of an integer dtype."""

    bits: int
    max: int
    min: int
    dtype: DType


class Info:
    """``xp.__array_namespace_info__()``: devices and dtypes of the namespace."""

    def __init__(self, ns: Namespace) -> None:
        self._ns = ns
        self._compat = ns._backend.compat.__array_namespace_info__()

    def capabilities(self) -> dict[str, Any]:
        """What the backend supports (boolean indexing, data-dependent shapes, ...)."""
        return dict(self._compat.capabilities())

    def default_device(self) -> Any:
        """The device arrays are created on when none is given."""
        return self._ns._device if self._ns._device is not None else self._compat.default_device()

    def devices(self) -> list[Any]:
        """Every device the backend can create arrays on."""
        with warnings.catch_warnings():  # array-api-compat probes torch's deprecated 'mkldnn' device
            warnings.simplefilter("ignore", UserWarning)
            return list(self._compat.devices())

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        """The active policy's default dtypes."""
        d = self._ns.policy_now().defaults
        return {
            "real floating": d["float"],
            "complex floating": d["complex"],
            "integral": d["int"],
            "indexing": d["index"],
        }

    def dtypes(self, *, device: Any = None, kind: str | tuple[str, ...] | None = None) -> dict[str, DType]:
        """The dtypes the backend supports (of ``kind``), by name."""
        native = self._compat.dtypes(device=device, kind=kind)
        return {name: canonical(name) for name in native}


class Namespace(ModuleType):
    """An Array API namespace over one backend with a default promotion policy.

    Module-like: ``xp.__name__``, ``xp.add``, ``xp.float32``, ``xp.linalg``.
    Create one with :func:`promo_ns.namespace`.
    """

    __array_api_version__ = API_VERSION

    def __init__(self, backend: Backend, policy: Policy, device: Any, name: str) -> None:
        super().__init__(
            name, f"Array API namespace over {backend.name} with promotion policy {policy.name!r}."
        )
        self._backend = backend
        self.policy = policy
        self._device = device
        self._plans: dict[str, tuple[Plan | None, ...]] = {}
        self.Array = Array
        for d in DTYPES:
            setattr(self, d.name, d)
        self.__dict__.update(_CONSTANTS)
        for op in NATIVE:
            setattr(self, op, function(op))
        for fname in DELEGATED:
            setattr(self, fname, self._delegate(getattr(backend.compat, fname)))
        for fname, fn in _OWN.items():
            setattr(self, fname, _bind(fn, self))
        self.linalg = self._extension("linalg", LINALG_DELEGATED, _LINALG_OWN)
        self.fft = self._extension("fft", FFT_DELEGATED, _FFT_OWN)

    def __repr__(self) -> str:
        return f"<promo_ns namespace {self.__name__!r}: {self._backend.name}, policy {self.policy.name!r}>"

    def __reduce__(self) -> Any:
        return (namespace, (self._backend.name,), {"policy": self.policy.name, "device": self._device})

    def policy_now(self) -> Policy:
        """The policy in force: the innermost ``promo_ns.policy(...)`` block's, else the namespace's."""
        return active(self.policy)

    def __array_namespace_info__(self) -> Info:
        """Devices and default dtypes of this namespace."""
        return Info(self)

    # -- wrapping ---------------------------------------------------------------------------
    def wrap(self, x: Any) -> Any:
        """Wrap a native result (array, or tuple/namedtuple/list of arrays) into promo_ns arrays."""
        if isinstance(x, self._backend.array_type) or _array.is_numpy_like(x):
            return _array.wrap(x, self)
        if isinstance(x, tuple):
            items = [self.wrap(v) for v in x]
            if hasattr(x, "_fields"):
                return type(x)(*items)
            return type(x)(items)  # a tuple, or a struct sequence (torch.return_types)
        if isinstance(x, list):
            return [self.wrap(v) for v in x]
        return x

    def unwrap_all(self, x: Any) -> Any:
        """Native arrays for promo_ns arrays, also inside lists and tuples; dtypes to native ones."""
        if x.__class__ is Array:
            if x._ns._backend is not self._backend:
                raise TypeError(
                    f"a {x._ns._backend.name} array was passed to a {self._backend.name} namespace; "
                    "convert it with xp.from_dlpack(x) or use its own namespace."
                )
            return x._x
        if x.__class__ is DType:
            return self._backend.native_dtype(x)
        if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            return type(x)(self.unwrap_all(v) for v in x)
        return x

    def _delegate(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        unwrap_all, wrap = self.unwrap_all, self.wrap

        @functools.wraps(fn)
        def delegated(*args: Any, **kwargs: Any) -> Any:
            args = tuple(unwrap_all(a) for a in args)
            kwargs = {k: unwrap_all(v) for k, v in kwargs.items()}
            return wrap(fn(*args, **kwargs))

        return delegated

    def _extension(
        self, name: str, delegated: Sequence[str], own: dict[str, Callable[..., Any]]
    ) -> ModuleType:
        ext = ModuleType(f"{self.__name__}.{name}")
        compat_ext = getattr(self._backend.compat, name)
        for fname in delegated:
            setattr(ext, fname, self._delegate(getattr(compat_ext, fname)))
        for fname, fn in own.items():
            setattr(ext, fname, _bind(fn, self))
        return ext

    # -- helpers for the functions below --------------------------------------------------------
    def operand(self, x: Any) -> Operand:
        """The engine operand of a promo_ns array, DType or Python scalar."""
        if x.__class__ is Array:
            if x._ns._backend is not self._backend:
                self.unwrap_all(x)
            return Operand(*_array.key(x._k))
        if x.__class__ is DType:
            return Operand(x, Role.ND)
        if isinstance(x, (bool, int, float, complex)):
            return operand(x)
        raise TypeError(f"expected a promo_ns array, a dtype or a Python scalar, got {type(x).__name__}")

    def cast(self, x: Any, dtype: DType, like: Any = None) -> Any:
        """Native ``x`` as ``dtype``; a Python scalar becomes a 0-d array on ``like``'s device.

        The engine has already checked a Python int's range where the policy
        checks it; where the policy wraps (``int_values="wrap"``), the value
        wraps into ``dtype`` here, as the framework would.
        """
        if x.__class__ is Array:
            return self._backend.astype(x._x, dtype)
        return self._backend.scalar(_array.fit(x, dtype), dtype, like)

    def wrap_result(self, op: str, out: Any, dtype: DType) -> Array:
        """Wrap the native result of ``op`` as a promo_ns array of the policy's ``dtype``.

        Parameters
        ----------
        op
            The namespace function that produced ``out`` (for the message).
        out
            Its native result.
        dtype
            The dtype the active policy gives the result.

        Returns
        -------
        Array
            ``out``, rounded to ``dtype`` where the backend computed a float
            dtype in a wider one (NumPy's bfloat16 ``matmul`` returns float32).

        Raises
        ------
        TypeError
            The backend returned another kind (NumPy's integer ``solve`` returns
            float64): it has no kernel for ``dtype``, and a result in a dtype the
            policy did not give would be wrong.
        """
        backend = self._backend
        out = backend.to_array(out)
        got = backend.dtype(out)
        if got is not dtype:
            if got.kind == dtype.kind and got.kind in "fc" and got.bits > dtype.bits:
                out = backend.astype(out, dtype)
            else:
                raise TypeError(
                    f"{backend.name} has no {op!r} kernel that returns {dtype}, the dtype policy "
                    f"{self.policy_now().name!r} gives (its kernel returned {got}). Cast the "
                    "operands explicitly to a dtype the backend supports first."
                )
        return _array.wrap(out, self)

    def default_dtype(self, kind: str) -> DType:
        """The active policy's default dtype of kind ``"bool"``/``"int"``/``"float"``/``"complex"``."""
        return self.policy_now().defaults[kind]

    def creation_kwargs(self, kwargs: dict[str, Any], kind: str | None) -> dict[str, Any]:
        """Native ``dtype=``/``device=`` for a creation function: the policy's default dtype of ``kind``."""
        dtype = kwargs.get("dtype")
        if dtype is None and kind is not None:
            dtype = self.default_dtype(kind)
        if dtype is not None:
            kwargs["dtype"] = self._backend.native_dtype(canonical(dtype))
        if kwargs.get("device") is None and self._device is not None:
            kwargs["device"] = self._device
        return kwargs


def _bind(fn: Callable[..., Any], ns: Namespace) -> Callable[..., Any]:
    """``fn`` with the namespace as its first argument, named, documented and signed like the standard's."""
    bound = functools.update_wrapper(functools.partial(fn, ns), fn)
    template = _SIGNATURES.get(fn.__name__)
    if template is not None:
        sig = inspect.signature(template)
    else:
        sig = inspect.signature(fn)
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    bound.__signature__ = sig  # type: ignore[attr-defined]
    return bound


# The standard's signatures of the functions built by the factories below (which take **kwargs).
_SIGNATURES: dict[str, Callable[..., None]] = {
    "empty": lambda shape, *, dtype=None, device=None: None,
    "ones": lambda shape, *, dtype=None, device=None: None,
    "zeros": lambda shape, *, dtype=None, device=None: None,
    "eye": lambda n_rows, n_cols=None, /, *, k=0, dtype=None, device=None: None,
    "sum": lambda x, /, *, axis=None, dtype=None, keepdims=False: None,
    "prod": lambda x, /, *, axis=None, dtype=None, keepdims=False: None,
    "cumulative_sum": lambda x, /, *, axis=None, dtype=None, include_initial=False: None,
    "cumulative_prod": lambda x, /, *, axis=None, dtype=None, include_initial=False: None,
    "matmul": lambda x1, x2, /: None,
    "tensordot": lambda x1, x2, /, *, axes=2: None,
    "vecdot": lambda x1, x2, /, *, axis=-1: None,
    "cross": lambda x1, x2, /, *, axis=-1: None,
    "outer": lambda x1, x2, /: None,
    "solve": lambda x1, x2, /: None,
    "meshgrid": lambda *arrays, indexing="xy": None,
    "trace": lambda x, /, *, offset=0, dtype=None: None,
    "fftfreq": lambda n, /, *, d=1.0, dtype=None, device=None: None,
    "rfftfreq": lambda n, /, *, d=1.0, dtype=None, device=None: None,
    "broadcast_arrays": lambda *arrays: None,
}


# --- functions that decide dtypes --------------------------------------------------------------


def _kind_of_scalar(x: Any) -> str:
    for t, kind in _DEFAULT_KIND.items():
        if isinstance(x, t):
            return kind
    raise TypeError(f"expected a Python scalar, got {type(x).__name__}")


def asarray(
    ns: Namespace, obj: Any, /, *, dtype: DType | None = None, device: Any = None, copy: bool | None = None
) -> Array:
    """An array from an object: a promo_ns or native array (zero-copy), a scalar, a nested sequence.

    Without ``dtype``, Python data gets the active policy's default dtype of its kind.
    """
    backend = ns._backend
    if obj.__class__ is Array:
        obj = ns.unwrap_all(obj)
    elif isinstance(obj, (list, tuple)):
        obj = _unwrap_nested(obj)
    kwargs = ns.creation_kwargs({"dtype": dtype, "device": device}, None)
    x = backend.compat.asarray(obj, copy=copy, **kwargs)
    if dtype is None and not isinstance(obj, backend.array_type) and not _array.is_numpy_like(obj):
        have = backend.dtype(x)
        kind = {"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}[have.kind]
        want = ns.default_dtype(kind)
        if have is not want and have.kind != "u":
            x = backend.compat.asarray(
                obj, copy=copy, **ns.creation_kwargs({"dtype": want, "device": device}, None)
            )
    return _array.wrap(x, ns)


def _unwrap_nested(obj: Any) -> Any:
    if obj.__class__ is Array:
        return obj._x
    if isinstance(obj, (list, tuple)):
        return type(obj)(_unwrap_nested(v) for v in obj)
    return obj


def _creation(name: str, kind: str | None) -> Callable[..., Array]:
    """``name`` (``"ones"``, ``"fft.fftfreq"``) with the policy's default ``kind`` dtype."""
    owner, _, short = name.rpartition(".")

    def create(ns: Namespace, *args: Any, **kwargs: Any) -> Array:
        compat = ns._backend.compat
        fn = getattr(getattr(compat, owner) if owner else compat, short)
        return _array.wrap(fn(*args, **ns.creation_kwargs(kwargs, kind)), ns)

    create.__name__ = create.__qualname__ = short
    create.__doc__ = (
        f"``{name}`` of the Array API standard; without ``dtype``, the policy's default {kind} dtype."
    )
    return create


def full(
    ns: Namespace, shape: Any, fill_value: Any, *, dtype: DType | None = None, device: Any = None
) -> Array:
    """An array of ``shape`` filled with ``fill_value``; without ``dtype``, the policy's default dtype."""
    kind = None if dtype is not None else _kind_of_scalar(fill_value)
    kwargs = ns.creation_kwargs({"dtype": dtype, "device": device}, kind)
    return _array.wrap(ns._backend.compat.full(shape, unwrap(fill_value), **kwargs), ns)


def arange(
    ns: Namespace,
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *,
    dtype: DType | None = None,
    device: Any = None,
) -> Array:
    """Evenly spaced values; without ``dtype``, the policy's default int or float dtype."""
    ints = all(isinstance(v, int) for v in (start, stop, step) if v is not None)
    kwargs = ns.creation_kwargs({"dtype": dtype, "device": device}, "int" if ints else "float")
    return _array.wrap(ns._backend.compat.arange(start, stop, step, **kwargs), ns)


def linspace(
    ns: Namespace,
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *,
    dtype: DType | None = None,
    device: Any = None,
    endpoint: bool = True,
) -> Array:
    """``num`` evenly spaced values; without ``dtype``, the policy's default float (complex) dtype."""
    kind = "complex" if isinstance(start, complex) or isinstance(stop, complex) else "float"
    kwargs = ns.creation_kwargs({"dtype": dtype, "device": device}, kind)
    return _array.wrap(ns._backend.compat.linspace(start, stop, num, endpoint=endpoint, **kwargs), ns)


def astype(ns: Namespace, x: Array, dtype: DType, /, *, copy: bool = True, device: Any = None) -> Array:
    """``x`` cast to ``dtype`` (an explicit cast: no policy applies)."""
    native = ns._backend.compat.astype(
        ns.unwrap_all(x), ns.unwrap_all(canonical(dtype)), copy=copy, device=device
    )
    return _array.wrap(native, ns)


def result_type(ns: Namespace, *arrays_and_dtypes: Any) -> DType:
    """The dtype the active policy gives to combining the arguments (arrays, dtypes, Python scalars)."""
    if not arrays_and_dtypes:
        raise ValueError("result_type() needs at least one array or dtype")
    # One operand too goes to the engine: it decides whether Python scalars alone
    # have a dtype (they do where the policy types them strongly).
    return resolve_many(ns.policy_now(), "result_type", [ns.operand(a) for a in arrays_and_dtypes])


def can_cast(ns: Namespace, from_: DType | Array, to: DType, /) -> bool:
    """Whether the active policy promotes ``from_`` to ``to`` (``result_type(from_, to) == to``).

    ``from_`` counts as its dtype (an n-d array of it), whatever the array's shape.
    """
    dtype = from_.dtype if from_.__class__ is Array else None
    if dtype is None:
        if isinstance(from_, (bool, int, float, complex)):
            raise TypeError(f"can_cast() takes a dtype or an array, not a Python {type(from_).__name__}")
        dtype = canonical(from_)
    target = canonical(to)
    try:
        return (
            resolve(ns.policy_now(), "result_type", Operand(dtype, Role.ND), Operand(target, Role.ND))
            is target
        )
    except PromotionError:
        return False


def isdtype(ns: Namespace, dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Whether ``dtype`` is ``kind`` (a dtype, a kind name such as ``"integral"``, or a tuple of them)."""
    if isinstance(kind, tuple):
        return any(isdtype(ns, dtype, k) for k in kind)
    dtype = canonical(dtype)
    if kind.__class__ is DType:
        return dtype is kind
    kinds = {
        "bool": "b",
        "signed integer": "i",
        "unsigned integer": "u",
        "integral": "iu",
        "real floating": "f",
        "complex floating": "c",
        "numeric": "iufc",
    }
    if kind not in kinds:
        raise ValueError(f"unknown dtype kind {kind!r}; expected a dtype or one of {', '.join(kinds)}")
    return dtype.kind in kinds[kind]


def _info_dtype(ns: Namespace, type: DType | Array) -> tuple[DType, Any]:
    dtype = type.dtype if isinstance(type, Array) else canonical(type)
    return dtype, ns._backend.native_dtype(dtype)


def finfo(ns: Namespace, type: DType | Array, /) -> finfo_object:
    """Machine limits of a floating-point dtype (complex: of its real part)."""
    dtype, native = _info_dtype(ns, type)
    if dtype.name == "bfloat16" and ns._backend.name == "numpy":
        import ml_dtypes

        f = ml_dtypes.finfo(native)  # type: ignore[no-untyped-call]
    else:
        f = ns._backend.compat.finfo(native)
    real = BY_NAME[f"float{dtype.bits // 2}"] if dtype.kind == "c" else dtype
    return finfo_object(int(f.bits), float(f.eps), float(f.max), float(f.min), float(f.smallest_normal), real)


def iinfo(ns: Namespace, type: DType | Array, /) -> iinfo_object:
    """Machine limits of an integer dtype."""
    dtype, native = _info_dtype(ns, type)
    i = ns._backend.compat.iinfo(native)
    return iinfo_object(int(i.bits), int(i.max), int(i.min), dtype)


def _reduction(name: str, rule: str | None = None) -> Callable[..., Array]:
    """``name`` (``"sum"``, ``"linalg.trace"``), accumulating as the policy does for op ``rule``."""
    short = name.rpartition(".")[2]

    def reduce(ns: Namespace, x: Array, /, *, dtype: DType | None = None, **kwargs: Any) -> Array:
        policy = ns.policy_now()
        dtype = accumulation_dtype(policy, rule or short, x.dtype) if dtype is None else canonical(dtype)
        out = ns._backend.accumulate(name, ns.unwrap_all(x), dtype, **kwargs)
        return ns.wrap_result(short, out, dtype)

    reduce.__name__ = reduce.__qualname__ = short
    reduce.__doc__ = f"``{name}`` of the Array API standard, accumulating in the active policy's dtype."
    return reduce


def _promoted(ns: Namespace, op: str, xs: Sequence[Any], like: Any = None) -> tuple[DType, list[Any]]:
    """The policy's dtype for ``op`` over ``xs`` and the native operands cast to it.

    Python scalars become 0-d arrays on the device of the first array (or ``like``).
    """
    operands = [ns.operand(x) for x in xs]
    dtype = resolve_many(ns.policy_now(), op, operands)
    arrays = [x._x for x in xs if x.__class__ is Array]
    for other in arrays[1:]:
        if not ns._backend.same_device(arrays[0], other):
            raise _array.device_error(arrays[0], other)
    traced = tracer()
    if traced is not None:
        traced.record(
            op, [(o.dtype, o.role, unwrap(x)) for o, x in zip(operands, xs, strict=True)], dtype, dtype
        )
    return dtype, [ns.cast(x, dtype, arrays[0] if arrays else like) for x in xs]


def _combining(name: str, op: str, module: str | None = None) -> Callable[..., Array]:
    def combine(ns: Namespace, x1: Any, x2: Any, /, **kwargs: Any) -> Array:
        dtype, (a, b) = _promoted(ns, op, (x1, x2))
        owner = ns._backend.compat if module is None else getattr(ns._backend.compat, module)
        return ns.wrap_result(name, getattr(owner, name)(a, b, **kwargs), dtype)

    combine.__name__ = combine.__qualname__ = name
    combine.__doc__ = f"``{name}(x1, x2)`` of the Array API standard, in the active policy's result dtype."
    return combine


def _joining(name: str) -> Callable[..., Array]:
    def join(ns: Namespace, arrays: Sequence[Array], /, *, axis: int | None = 0) -> Array:
        if not arrays:
            raise ValueError(f"{name}() needs at least one array")
        dtype, natives = _promoted(ns, name, list(arrays))
        return ns.wrap_result(name, getattr(ns._backend.compat, name)(natives, axis=axis), dtype)

    join.__name__ = join.__qualname__ = name
    join.__doc__ = f"``{name}`` of the Array API standard; the arrays are promoted under the active policy."
    return join


def where(ns: Namespace, condition: Array, x1: Any, x2: Any, /) -> Array:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2``, in the policy's result dtype."""
    if condition.__class__ is not Array or condition.dtype is not bool_:
        raise TypeError("where() needs a bool promo_ns array as its condition")
    dtype, (a, b) = _promoted(ns, "where", (x1, x2), like=condition._x)
    return ns.wrap_result("where", ns._backend.compat.where(condition._x, a, b), dtype)


def _listing(name: str) -> Callable[..., list[Array]]:
    def listing(ns: Namespace, *arrays: Array, **kwargs: Any) -> list[Array]:
        out = getattr(ns._backend.compat, name)(*(ns.unwrap_all(x) for x in arrays), **kwargs)
        return [_array.wrap(x, ns) for x in out]

    listing.__name__ = listing.__qualname__ = name
    listing.__doc__ = f"``{name}`` of the Array API standard 2024.12, which returns a list of arrays."
    return listing


def clip(ns: Namespace, x: Array, /, min: Any = None, max: Any = None) -> Array:
    """``x`` limited to ``[min, max]``; bounds promote with ``x`` under the active policy."""
    bounds = [b for b in (min, max) if b is not None]
    if not bounds:
        return _array.wrap(ns._backend.compat.clip(x._x), ns)
    dtype, natives = _promoted(ns, "clip", [x, *bounds])
    lo = natives[1] if min is not None else None
    hi = natives[-1] if max is not None else None
    return ns.wrap_result("clip", ns._backend.compat.clip(natives[0], lo, hi), dtype)


_OWN: dict[str, Callable[..., Any]] = {
    "asarray": asarray,
    "arange": arange,
    "linspace": linspace,
    "full": full,
    **{name: _creation(name, "float") for name in ("empty", "ones", "zeros", "eye")},
    "astype": astype,
    "result_type": result_type,
    "can_cast": can_cast,
    "isdtype": isdtype,
    "finfo": finfo,
    "iinfo": iinfo,
    **{name: _reduction(name) for name in ("sum", "prod", "cumulative_sum", "cumulative_prod")},
    **{name: _combining(name, name) for name in ("matmul", "tensordot", "vecdot")},
    "concat": _joining("concat"),
    "stack": _joining("stack"),
    "where": where,
    "clip": clip,
    "meshgrid": _listing("meshgrid"),
    "broadcast_arrays": _listing("broadcast_arrays"),
}
_LINALG_OWN: dict[str, Callable[..., Any]] = {
    **{
        name: _combining(name, name, "linalg")
        for name in ("matmul", "tensordot", "vecdot", "cross", "outer", "solve")
    },
    "trace": _reduction("linalg.trace", "sum"),
}
_FFT_OWN: dict[str, Callable[..., Any]] = {
    name: _creation(f"fft.{name}", "float") for name in ("fftfreq", "rfftfreq")
}


def namespace(
    backend: str | ModuleType, *, policy: str | Policy = "array-api", device: Any = None
) -> Namespace:
    """An Array API namespace over ``backend`` that promotes dtypes by ``policy``.

    Parameters
    ----------
    backend
        ``"numpy"``, ``"torch"``, ``"cupy"``, or the module itself.
    policy
        A registered policy name (see :func:`promo_ns.policies`) or a :class:`~promo_ns.Policy`.
    device
        The device arrays are created on when a creation function gets none
        (e.g. ``"cuda"`` or ``"meta"`` for torch); ``None`` for the backend's default.

    Returns
    -------
    Namespace
        A module-like object with every function, constant and dtype of the
        Array API standard 2024.12, plus ``linalg`` and ``fft``.

    Examples
    --------
    >>> import promo_ns
    >>> xp = promo_ns.namespace("numpy", policy="pytorch")
    >>> (xp.asarray([1, 2], dtype=xp.int8) + 1.5).dtype
    promo_ns.float32
    """
    b = get_backend(backend)
    p = get_policy(policy)
    name = (
        f"promo_ns.{b.name}" if p.name == "array-api" and device is None else f"promo_ns.{b.name}[{p.name}]"
    )
    return Namespace(b, p, device, name)


def array_namespace(*arrays: Any, policy: str | Policy | None = None) -> Namespace:
    """The promo_ns namespace for ``arrays``, as ``array_api_compat.array_namespace`` finds one.

    Parameters
    ----------
    *arrays
        promo_ns arrays, or native NumPy/CuPy/torch arrays (wrap those with
        ``xp.asarray(x)``, zero-copy).  Python scalars and ``None`` are skipped.
    policy
        The policy of the namespace returned; default: that of the promo_ns
        arrays' namespace, or ``"array-api"`` for native arrays only.

    Returns
    -------
    Namespace
        The namespace the promo_ns arrays belong to, or the namespace of the
        native arrays' backend.

    Raises
    ------
    TypeError
        No array; an object that is no array promo_ns can wrap; arrays of two
        backends; or promo_ns arrays of two namespaces and no ``policy`` to choose.

    Examples
    --------
    >>> import numpy as np, promo_ns
    >>> xp = promo_ns.array_namespace(np.ones(3), policy="pytorch")
    >>> xp.__name__
    'promo_ns.numpy[pytorch]'
    """
    from promo_ns.backends import backend_of

    spaces: dict[int, Namespace] = {}
    backends: dict[str, Backend] = {}
    for x in arrays:
        if x is None or type(x) in (bool, int, float, complex):
            continue
        if x.__class__ is Array:
            spaces[id(x._ns)] = x._ns
            backends[x._ns._backend.name] = x._ns._backend
            continue
        found = backend_of(x)
        if found is None and _array.is_numpy_like(x):  # a NumPy or CuPy scalar
            found = get_backend(type(x).__module__)
        if found is None:
            raise TypeError(
                f"array_namespace() got a {type(x).__module__}.{type(x).__qualname__}, which is neither a "
                "promo_ns array nor a NumPy, CuPy or torch array; pass arrays only (Python scalars and "
                "None are skipped)"
            )
        backends[found.name] = found
    if not backends:
        raise TypeError("array_namespace() needs at least one array (Python scalars and None are skipped)")
    if len(backends) > 1:
        raise TypeError(
            f"array_namespace() got arrays of several backends ({', '.join(sorted(backends))}); move them "
            "to one backend first, e.g. with the other namespace's xp.from_dlpack(x)"
        )
    (backend,) = backends.values()
    names = {s.__name__ for s in spaces.values()}
    if policy is None and len(names) > 1:
        raise TypeError(
            f"array_namespace() got arrays of several promo_ns namespaces ({', '.join(sorted(names))}); "
            "pass policy=... to choose the policy, or make them with one namespace"
        )
    if policy is None and spaces:
        return next(iter(spaces.values()))
    device = next(iter(spaces.values()))._device if len(spaces) == 1 else None
    return namespace(backend.name, policy=policy or "array-api", device=device)
