"""The namespace object and its factory: the Array API (2025.12, or 2024.12 on request) over one backend.

The functions come from :mod:`promo_ns._functions`, by chapter of the
standard; what does not promote is delegated to ``array_api_compat.<backend>``
and its results wrapped.
"""

from __future__ import annotations

import functools
import inspect
import math
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from promo_ns._array import Array, dlpack_exporter
from promo_ns._context import active
from promo_ns._convert import (
    array_of,
    input_of,
    is_numpy_like,
    native,
    native_argument,
    native_device,
    unknown_device,
    wrap_any,
)
from promo_ns._dtypes import DTYPES, DType, a_or_an, canonical
from promo_ns._functions import (
    creation,
    data_types,
    elementwise,
    fft,
    linalg,
    manipulation,
    searching,
    statistical,
)
from promo_ns._functions._arguments import with_rules
from promo_ns._functions._common import bind, checking_axes, in_policy_dtype
from promo_ns._functions.info import Info
from promo_ns._ops import DELEGATED_DTYPES, INPUT_KIND_OPS
from promo_ns._plan import binary_function, kernel, kernel_failure, promoted
from promo_ns._pytree import tree_flatten, tree_unflatten
from promo_ns.backends import BACKENDS, Backend, get_backend
from promo_ns.policies import Policy, get_policy, is_registered, keep_while_registered

__all__ = ["Namespace", "array_namespace", "namespace"]

API_VERSION = "2025.12"
#: The versions a namespace can follow (``namespace(..., api_version=...)``); any other is a ValueError.
API_VERSIONS = ("2024.12", "2025.12")
#: Functions the standard added in 2025.12: a 2024.12 namespace has none of them.
_ADDED_IN_2025_12 = frozenset(("isin", "broadcast_shapes", "linalg.eig", "linalg.eigvals"))

#: Delegated functions whose first arguments are arrays, by how many (one where not listed).
_ARRAY_ARGUMENTS = {"take": 2, "take_along_axis": 2}
#: Keywords of delegated functions that join the first array: a Python scalar there is the array
#: ``asarray`` makes of it (NumPy's reading: torch refused the scalar, JAX wrapped it into the first
#: array's dtype), and the arrays take the dtype the policy gives their ``concat``.
_JOINED_ENDS = {"diff": ("prepend", "append")}
_CHAPTERS = (creation, data_types, elementwise, manipulation, searching, statistical, linalg)
_CONSTANTS = {"e": math.e, "inf": math.inf, "nan": math.nan, "pi": math.pi, "newaxis": None}


def _check_indices(name: str, indices: Any) -> None:
    """Raise unless promo_ns array ``indices`` has an integer dtype, as the standard's ``take`` requires.

    The libraries read bool indices as ints or as a mask, and float ones they refuse each in its words.
    """
    dtype = getattr(indices, "dtype", None)
    if dtype.__class__ is DType and dtype.kind not in "iu":
        raise TypeError(
            f"{name}() takes indices of an integer dtype, not {dtype}; cast them first: "
            "xp.astype(indices, xp.int64), or xp.nonzero(mask)[0] for the places a bool mask is True"
        )


class Namespace(ModuleType):
    """An Array API namespace over one backend with a default promotion policy.

    Module-like: ``xp.__name__``, ``xp.add``, ``xp.float32``, ``xp.linalg``.
    Create one with :func:`promo_ns.namespace`.
    """

    def __init__(self, backend: Backend, policy: Policy, device: Any, name: str, api_version: str) -> None:
        super().__init__(
            name, f"Array API namespace over {backend.name} with promotion policy {policy.name!r}."
        )
        self.__array_api_version__ = api_version
        self._backend = backend
        self.policy = policy
        self._device = device
        self._plans: dict[Any, Any] = {}  #: the plan layer's cache: binary plans, one-array plans
        info = Info(self)

        def __array_namespace_info__() -> Info:  # noqa: N807 - the standard's name
            """Devices and default dtypes of this namespace (one object: clients compare it)."""
            return info

        self.__array_namespace_info__ = __array_namespace_info__
        self.Array = Array
        for d in DTYPES:
            setattr(self, d.name, d)
        self.__dict__.update(_CONSTANTS)
        for op in elementwise.BINARY:
            setattr(self, op, binary_function(op, self))
        for chapter in _CHAPTERS:
            self._fill(self, backend.compat, getattr(chapter, "DELEGATED", ()), chapter.FUNCTIONS)
        register = getattr(backend, "register_wrapper", None)
        if register is not None:  # a library that must know the wrapper (JAX's pytrees)
            register(Array, tree_flatten, tree_unflatten)
        self.linalg = self._extension("linalg", linalg.EXTENSION_DELEGATED, linalg.EXTENSION_FUNCTIONS)
        self.fft = self._extension("fft", fft.EXTENSION_DELEGATED, fft.EXTENSION_FUNCTIONS)

    def __repr__(self) -> str:
        return f"<promo_ns namespace {self.__name__!r}: {self._backend.name}, policy {self.policy.name!r}>"

    def __reduce__(self) -> Any:
        # A registered policy travels by name, any other by value; either way the
        # unpickled namespace is the cached one for those arguments.
        policy = self.policy.name if is_registered(self.policy) else self.policy
        return (_restore, (self._backend.name, policy, self._device, self.__array_api_version__))

    def __copy__(self) -> Namespace:
        return self

    def __deepcopy__(self, memo: object) -> Namespace:
        return self

    def versioned(self, api_version: str) -> Namespace:
        """The namespace of the same backend, policy and device for another version of the standard."""
        return namespace(self._backend.name, policy=self.policy, device=self._device, api_version=api_version)

    def policy_now(self) -> Policy:
        """The policy in force: the innermost ``promo_ns.policy(...)`` block's, else the namespace's."""
        return active(self.policy)

    def _fill(
        self,
        target: ModuleType,
        compat: ModuleType,
        delegated: Sequence[str],
        own: Mapping[str, Callable[..., Any]],
    ) -> None:
        prefix = "" if target is self else f"{target.__name__.rpartition('.')[2]}."
        older = self.__array_api_version__ < "2025.12"
        for fname in delegated:
            if not (older and prefix + fname in _ADDED_IN_2025_12):
                setattr(target, fname, self._delegate(getattr(compat, fname), fname, prefix + fname))
        for fname, fn in own.items():
            if not (older and prefix + fname in _ADDED_IN_2025_12):
                setattr(target, fname, bind(fn, self))

    def _delegate(self, fn: Callable[..., Any], name: str, op: str) -> Callable[..., Any]:
        """``fn`` of ``array_api_compat``, on the native arrays of promo_ns arrays, its results wrapped.

        Its first argument (first two for ``take`` and ``take_along_axis``)
        must be a promo_ns array, and a bare native array anywhere raises, as
        in operators; ``from_dlpack`` takes any array.  ``op`` is the
        function's name in the namespace (``"fft.fftshift"``); the policy may
        refuse its input's kind (:data:`promo_ns._ops.INPUT_KIND_OPS`).
        """

        def kind_checked(ns: Namespace, x: Any, _: str) -> Any:
            return input_of(ns, x, op)

        first = kind_checked if op in INPUT_KIND_OPS else array_of

        if name == "from_dlpack":

            @functools.wraps(fn)
            def from_any(*args: Any, **kwargs: Any) -> Any:
                if args and args[0].__class__ is Array:
                    dlpack_exporter(args[0], "__dlpack__")  # a backend without DLPack: its BufferError
                elif args and not hasattr(args[0], "__dlpack__"):
                    raise TypeError(
                        f"from_dlpack() takes an array that supports DLPack (has __dlpack__), "
                        f"not {type(args[0]).__name__}; for Python data use xp.asarray(...)"
                    )
                args = tuple(native(self, a) for a in args)
                kwargs = {k: native(self, v) for k, v in kwargs.items()}
                return wrap_any(self, fn(*args, **kwargs))

            return from_any

        if name in elementwise.DELEGATED:  # the standard's f(x, /): NumPy's ufuncs write into a second array

            @functools.wraps(fn)
            def one_array(x: Any, /, *extra: Any, **kwargs: Any) -> Any:
                if extra:
                    raise TypeError(f"{name}() takes 1 positional argument but {1 + len(extra)} were given")
                if kwargs:
                    raise TypeError(f"{name}() got an unexpected keyword argument {next(iter(kwargs))!r}")
                native_x = first(self, x, name)
                if name in DELEGATED_DTYPES:
                    return in_policy_dtype(self, name, x, lambda: kernel(self, name, fn, native_x))
                return wrap_any(self, kernel(self, name, fn, native_x))

            return one_array

        arrays = _ARRAY_ARGUMENTS.get(name, 1)

        decided = name in DELEGATED_DTYPES

        @functools.wraps(fn)
        def delegated(*args: Any, **kwargs: Any) -> Any:
            given = args
            args = (
                *[first(self, a, name) for a in args[:1]],
                *[array_of(self, a, name) for a in args[1:arrays]],
                *[native_argument(self, a, name) for a in args[arrays:]],
            )
            if arrays == 2 and len(given) > 1:  # take, take_along_axis: their indices
                _check_indices(name, given[1])
            if kwargs:
                if kwargs.get("dtype") is not None:  # a name, or another library's dtype
                    kwargs["dtype"] = canonical(kwargs["dtype"], f"{name}()'s dtype")
                joined = self._joined_ends(name, given[0], kwargs) if name in _JOINED_ENDS and given else {}
                kwargs = {
                    k: joined[k] if k in joined else native_argument(self, v, name) for k, v in kwargs.items()
                }
                if joined:
                    args = (joined[""], *args[1:])
                if "device" in kwargs:
                    kwargs["device"] = native_device(self, kwargs["device"])
            try:
                if decided and given:
                    return in_policy_dtype(self, name, given[0], lambda: fn(*args, **kwargs))
                return wrap_any(self, fn(*args, **kwargs))
            except (RuntimeError, ValueError, TypeError, AssertionError, IndexError, AttributeError) as e:
                # AssertionError: torch's for CUDA in a build without it; AttributeError: JAX's for text
                error = unknown_device(self, name, kwargs.get("device"), e)
                if error is not None:
                    raise error from e
                if isinstance(e, TypeError):  # an argument's: the library's words say which
                    raise
                raise kernel_failure(self, name, e, args)  # noqa: B904 - its cause is set

        return checking_axes(with_rules(delegated, op), name, _signature(fn))  # the axes checked first

    def _joined_ends(self, name: str, x: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The native ``x`` (key ``""``) and ends of ``name`` (:data:`_JOINED_ENDS`) given, in one dtype."""
        keys = [k for k in _JOINED_ENDS[name] if kwargs.get(k) is not None]
        if not keys:
            return {}
        ends = [
            self.asarray(v, device=x.device)
            if (v := kwargs[k]).__class__ in (bool, int, float, complex)
            else v
            for k in keys
        ]
        _, natives = promoted(self, "concat", [x, *ends])
        return dict(zip(["", *keys], natives, strict=True))

    def _extension(
        self, name: str, delegated: Sequence[str], own: Mapping[str, Callable[..., Any]]
    ) -> ModuleType:
        ext = ModuleType(f"{self.__name__}.{name}")
        self._fill(ext, getattr(self._backend.compat, name), delegated, own)
        return ext


@functools.cache
def _signature(fn: Callable[..., Any]) -> inspect.Signature | None:
    """``fn``'s signature, or None where it has none to read (a function written in C); read once."""
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def namespace(
    backend: str | ModuleType,
    *,
    policy: str | Policy = "array-api",
    device: Any = None,
    api_version: str | None = None,
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
    api_version
        The version of the standard the namespace follows: ``"2025.12"`` (the
        default) or ``"2024.12"`` (without the functions 2025.12 added;
        ``meshgrid``, ``broadcast_arrays`` and ``devices()`` return lists);
        any other version is a ValueError naming these two.

    Returns
    -------
    Namespace
        A module-like object with every function, constant and dtype of the
        Array API standard, plus ``linalg`` and ``fft``.  Equal
        arguments give the same object (``promo_ns.numpy is
        promo_ns.namespace("numpy")``); namespaces survive pickling and
        copying with their backend, policy and device.

    Examples
    --------
    >>> import promo_ns
    >>> xp = promo_ns.namespace("numpy", policy="pytorch")
    >>> (xp.asarray([1, 2], dtype=xp.int8) + 1.5).dtype
    promo_ns.float32
    """
    b = get_backend(backend)
    p = get_policy(policy)
    version = _version(api_version)
    key = (b.name, p, device, version)
    try:
        found = _NAMESPACES.get(key)
    except TypeError:  # an unhashable device: nothing to look up
        return _new_namespace(b, p, device, version)
    if found is not None:
        return found
    with _LOCK:
        found = _NAMESPACES.get(key)
        if found is None:
            found = _NAMESPACES[key] = _new_namespace(b, p, device, version)
            keep_while_registered(p, found)
    return found


def _new_namespace(b: Backend, p: Policy, device: Any, version: str) -> Namespace:
    name = f"promo_ns.{b.name}"
    if p.name != "array-api" or device is not None:
        name += f"[{p.name}]"
    if version != API_VERSION:
        name += f"@{version}"
    return Namespace(b, p, device, name, version)


def _version(api_version: str | None) -> str:
    """The version a namespace follows for a requested ``api_version`` (the standard's selection rules)."""
    if api_version is None:
        return API_VERSION
    if api_version in API_VERSIONS:
        return api_version
    older = isinstance(api_version, str) and api_version < API_VERSIONS[0]
    older_too = " (it holds every function of the older versions)" if older else ""
    raise ValueError(
        f"promo_ns implements Array API {' and '.join(API_VERSIONS)}, not {api_version!r}; pass "
        f"api_version={API_VERSIONS[0]!r}{older_too} or {API_VERSION!r}, or None for {API_VERSION}"
    )


#: Namespaces of a registered policy live as long as its registration (the registry keeps
#: them); any other as long as something (an array, a caller) holds it, so that replaced
#: and throw-away policies are freed with their namespaces.
_NAMESPACES: weakref.WeakValueDictionary[tuple[str, Policy, Any, str], Namespace] = (
    weakref.WeakValueDictionary()
)
_LOCK = threading.Lock()


def _restore(backend: str, policy: str | Policy, device: Any, api_version: str = API_VERSION) -> Namespace:
    """Unpickle a namespace: the cached namespace of these arguments."""
    return namespace(backend, policy=policy, device=device, api_version=api_version)


def array_namespace(*arrays: Any, policy: str | Policy | None = None) -> Namespace:
    """The promo_ns namespace for ``arrays``, as ``array_api_compat.array_namespace`` finds one.

    Parameters
    ----------
    *arrays
        promo_ns arrays, or native arrays of a backend promo_ns wraps (NumPy,
        torch, CuPy, JAX, Dask; wrap those with ``xp.asarray(x)``, zero-copy).
        Python scalars and ``None`` are skipped.
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

    spaces: dict[int, Any] = {}
    backends: dict[str, Backend] = {}
    for x in arrays:
        if x is None or type(x) in (bool, int, float, complex):
            continue
        if x.__class__ is Array:
            spaces[id(x._ns)] = x._ns
            backends[x._ns._backend.name] = x._ns._backend
            continue
        found = backend_of(x)
        if found is None and is_numpy_like(x):  # a NumPy or CuPy scalar
            found = get_backend(type(x).__module__)
        if found is None:
            name = f"{type(x).__module__}.{type(x).__qualname__}"
            raise TypeError(
                f"array_namespace() got {a_or_an(name)}, which is neither a promo_ns array nor an array "
                f"of a backend promo_ns wraps ({', '.join(BACKENDS)}); pass arrays only (Python scalars "
                "and None are skipped), or make one first, e.g. promo_ns.numpy.asarray(x)"
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
        only: Namespace = next(iter(spaces.values()))
        return only
    device = next(iter(spaces.values()))._device if len(spaces) == 1 else None
    return namespace(backend.name, policy=policy or "array-api", device=device)
