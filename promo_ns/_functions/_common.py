"""Helpers the chapters share: binding functions to a namespace, one-array functions the policy decides."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from functools import partial
from typing import Any

from promo_ns._dtypes import DType, bfloat16, float16, float32, float64, int64, uint16, uint32
from promo_ns._plan import Space, finish, is_numpy_like, native_argument, one_array, wrap_any
from promo_ns.backends import Backend

__all__ = ["SIGNATURES", "WIDER", "bind", "decided", "owner_function", "sequence_of"]

#: The standard's signatures of functions built by factories (which take ``**kwargs``).
SIGNATURES: dict[str, Callable[..., None]] = {}
#: The standard's signature of a one-array function without keywords (``sin``, ``linalg.inv``).
_ONE_ARRAY = inspect.signature(lambda ns, x, /: None)


def bind(fn: Callable[..., Any], ns: Space) -> Callable[..., Any]:
    """``fn`` with the namespace as its first argument, named, documented and signed like the standard's."""
    bound = functools.update_wrapper(functools.partial(fn, ns), fn)
    template = SIGNATURES.get(fn.__name__)
    if template is not None:
        sig = inspect.signature(template)
    else:
        sig = inspect.signature(fn)
        sig = sig.replace(parameters=list(sig.parameters.values())[1:])
    bound.__signature__ = sig  # type: ignore[attr-defined]
    return bound


def sequence_of(ns: Space, arrays: list[Any]) -> tuple[Any, ...] | list[Any]:
    """Several arrays as the namespace's version returns them: a tuple from 2025.12, a list before."""
    return list(arrays) if ns.__array_api_version__ < "2025.12" else tuple(arrays)


def owner_function(ns: Space, name: str) -> Callable[..., Any]:
    """``array_api_compat.<backend>``'s function ``name`` (``"log"``, ``"linalg.inv"``)."""
    return _compat_function(ns._backend, name)


@functools.cache
def _compat_function(backend: Backend, name: str) -> Callable[..., Any]:
    owner, _, short = name.rpartition(".")
    compat = backend.compat
    return getattr(getattr(compat, owner) if owner else compat, short)  # type: ignore[no-any-return]


def decided(name: str, *, like: str | None = None) -> Callable[..., Any]:
    """The one-array function ``name`` whose result dtype the active policy decides.

    The operand is cast to the dtype the function computes in, the backend's
    own function runs, and the result comes back in the policy's dtype.  A
    function of several results (``linalg.eigh``, ``linalg.slogdet``) returns
    them as computed in that dtype (eigenvalues real, vectors of the
    computed dtype).  Where the backend has no kernel for that dtype, the
    function runs in a wider one of the same values (see :data:`WIDER`) and
    its results are cast back.  ``like`` names a function whose grid cell
    decides the dtype ``name`` computes in, its results then kept as computed
    (``linalg.eigvals`` computes like ``linalg.inv``, and returns complex).
    """
    short = name.rpartition(".")[2]

    def one(ns: Space, x: Any, /, *args: Any, **kwargs: Any) -> Any:
        result, native_x = one_array(ns, like or name, x)
        fn = owner_function(ns, name)
        if args or kwargs:  # promo_ns arrays among them (``rtol``) go to the backend as its own
            _check_call(name, short, args, kwargs)
            args = tuple(native_argument(ns, a, name) for a in args)
            kwargs = {k: native_argument(ns, v, name) for k, v in kwargs.items()}
        try:
            out = fn(native_x, *args, **kwargs)
        except (TypeError, RuntimeError, NotImplementedError) as e:
            out = _in_wider_dtype(ns, name, partial(fn, *args, **kwargs), native_x, e)
        if like is not None or isinstance(out, tuple):
            return wrap_any(ns, out)
        return finish(ns, out, result)

    one.__name__ = one.__qualname__ = short
    one.__doc__ = f"``{name}`` of the Array API standard, with the result dtype of the active policy."
    one.__signature__ = _ONE_ARRAY  # type: ignore[attr-defined]  # SIGNATURES adds keywords
    return one


@functools.cache
def _parameters(short: str) -> tuple[int, frozenset[str]]:
    """How many positional arguments the standard's ``short`` takes, and its keywords."""
    template = SIGNATURES.get(short)
    parameters = list((inspect.signature(template) if template else _ONE_ARRAY).parameters.values())
    parameters = parameters if template else parameters[1:]  # (``_ONE_ARRAY`` has the namespace first)
    positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in parameters)
    return positional, frozenset(p.name for p in parameters if p.kind is not p.POSITIONAL_ONLY)


def _check_call(name: str, short: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Raise a TypeError naming ``name`` where the standard's signature takes no such arguments.

    (A backend would take them otherwise: NumPy's ufuncs write into a second positional array.)
    """
    positional, keywords = _parameters(short)
    if 1 + len(args) > positional:
        plural = "s" if positional != 1 else ""
        raise TypeError(
            f"{name}() takes {positional} positional argument{plural} but {1 + len(args)} were given"
        )
    unknown = sorted(kwargs.keys() - keywords)
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {unknown[0]!r}")


#: Where a backend lacks a function's kernel for a dtype: the dtype that holds every value of it.
WIDER: dict[DType, DType] = {float16: float32, bfloat16: float32, uint16: int64, uint32: int64}
#: Statistics of integers where the policy keeps the integer dtype (Paddle's ``mean``): computed in float64.
_STATISTICS = frozenset(("mean", "std", "var"))


def _in_wider_dtype(ns: Space, name: str, fn: Callable[[Any], Any], x: Any, error: Exception) -> Any:
    """``fn(x)`` computed in the dtype :data:`WIDER` gives ``x``'s, its array results cast back."""
    backend = ns._backend
    dtype = backend.dtype(x)
    wider = float64 if name in _STATISTICS and dtype.kind in "iu" else WIDER.get(dtype)
    if wider is None:
        raise _no_kernel(ns, name, dtype) from error
    try:
        out = fn(backend.astype(x, wider))
    except (TypeError, RuntimeError, NotImplementedError) as e:
        raise _no_kernel(ns, name, dtype) from e

    def back(o: Any) -> Any:
        is_array = isinstance(o, backend.array_type) or is_numpy_like(o)
        return backend.astype(o, dtype) if is_array and backend.dtype(o) is wider else o

    if isinstance(out, tuple):
        parts = [back(o) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    return back(out)


def _no_kernel(ns: Space, name: str, dtype: DType) -> TypeError:
    return TypeError(
        f"{ns._backend.name} has no {name!r} kernel for {dtype}, the dtype policy "
        f"{ns.policy_now().name!r} computes {name!r} in here, nor one in a wider dtype holding its "
        f"values; cast explicitly first, e.g. {name}(xp.astype(x, xp.float64))."
    )
