"""The JAX adapter: ``jax.numpy``, with every cast promo_ns makes written out.

JAX has a promotion lattice of its own (weak Python scalars, no int64 without
``jax_enable_x64``), equal to none of the policies.  So no cell relies on it:
an operand whose dtype is not the compute dtype is cast with ``astype`` before
the kernel runs, and a Python scalar goes in as a weak scalar of the compute
dtype's kind or as a 0-d array of that dtype.  A kernel called on the operands
as they are (``kernel``) is one whose array operands already have the compute
dtype: JAX promotes nothing there.  Run under
``jax.numpy_dtype_promotion("strict")``, which refuses every implicit
promotion, promo_ns's ops succeed: the tests hold it to that.

JAX arrays are immutable: :meth:`JaxBackend.inplace` and
:meth:`JaxBackend.setitem` return the updated array (``x.at[key].set(v)``),
and the wrapper rebinds itself to it.  Other references to the old JAX array
(``promo_ns.unwrap(x)`` taken before, arrays made from it) do not change.

64-bit dtypes exist only with ``jax_enable_x64`` on (JAX's default is off, and
then JAX silently makes ``float32`` of a ``float64`` request).  promo_ns never
narrows a dtype the policy gives: where it needs int64, uint64, float64 or
complex128 and x64 is off, :meth:`JaxBackend.native_dtype` raises
:class:`JaxX64Error`, which says how to enable x64 or which dtype to pass.

Building the adapter registers promo_ns's Array as a JAX pytree (its native
array the leaf, its namespace and the policy in force the aux data, held
weakly: see :mod:`promo_ns._pytree`), so ``jax.jit``, ``jax.vmap`` and
``jax.grad`` take and return promo_ns arrays; the policy decides while JAX
traces, from the tracers' dtypes.  Importing it makes every
``promo_ns.policy`` block part of ``jax.jit``'s cache key, so that functions of
raw JAX arrays are traced again under a block's policy.

Before JAX runs, the adapter checks what JAX would lose silently or abort on
(:mod:`promo_ns.backends._jax_checks`): indices out of bounds in setitem,
sizes past what a device holds, 64-bit data with ``jax_enable_x64`` off.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from promo_ns._context import BLOCK_HOOKS
from promo_ns._dtypes import DTYPES, DType, bool_, int64
from promo_ns._memo import IdentityKey
from promo_ns._ops import NATIVE
from promo_ns.backends._base import DTypeMaps, KernelErrors, Plan, Values, inplace_result, named
from promo_ns.backends._jax_checks import (
    WIDE,
    JaxX64Error,
    check_bounds,
    checked_creators,
    checked_repeat,
    checked_take,
    concrete_extremes,
    in_wide,
    is_tracer,
    jax_key,
    refuse_wide_data,
    require_x64,
    x64_enabled,
    x64_error,
)
from promo_ns.backends._jax_values import astype, floor_divide, power, remainder, rounded_once
from promo_ns.backends._values import (
    check_sorter,
    float_arange_terms,
    integer_arange,
    numpy_fill,
    numpy_spacing,
)
from promo_ns.policies import Policy, Role, get_policy

__all__ = ["JaxBackend", "JaxX64Error", "x64_enabled"]

#: The kind each Python scalar role stands for.
_ROLE_KIND = {Role.BOOL: "b", Role.INT: "i", Role.FLOAT: "f", Role.COMPLEX: "c"}


#: Part of every ``jax.jit`` cache key: the policy of the innermost ``promo_ns.policy`` block
#: (None outside blocks), held weakly.  JAX traces a function again when it changes, so a function
#: of raw JAX arrays that calls promo_ns inside follows the block it is called in.
_POLICY_IN_FORCE = jax.make_user_context(None)  # type: ignore[no-untyped-call]


class _KeyedOnPolicy(contextlib.AbstractContextManager["_KeyedOnPolicy"]):
    """Sets :data:`_POLICY_IN_FORCE` to a policy block's policy while the block runs, in its thread.

    JAX's value is thread-local; a block ended in another thread (a generator
    finished elsewhere) leaves that thread's value as it was.
    """

    def __init__(self, policy: Policy) -> None:
        self._context = _POLICY_IN_FORCE(IdentityKey(policy))
        self._thread = threading.get_ident()

    def __enter__(self) -> _KeyedOnPolicy:
        self._context.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if threading.get_ident() == self._thread:
            self._context.__exit__(None, None, None)


if _KeyedOnPolicy not in BLOCK_HOOKS:
    BLOCK_HOOKS.append(_KeyedOnPolicy)


def _jnp_asarray(obj: Any, **kwargs: Any) -> Any:
    """``jnp.asarray``; NumPy data of a JAX dtype, nothing asked, goes by ``jax.device_put`` of a copy.

    Both copy the data onto the default device, uncommitted.  JAX 0.10's
    ``jnp.asarray`` compiles a program per shape and dtype of a NumPy array
    (about 20 ms each); ``device_put`` compiles none, but on a CPU it may
    share the NumPy array's memory, so it is given a copy of its own.
    """
    if (
        (type(obj) is np.ndarray or isinstance(obj, np.generic))
        and (obj.dtype.kind in "biufc" or obj.dtype == jnp.bfloat16)
        and all(value is None for value in kwargs.values())
    ):
        return jax.device_put(np.array(obj))
    return jnp.asarray(obj, **kwargs)


class JaxBackend(DTypeMaps, KernelErrors):
    """``jax.numpy``: explicit casts to the compute dtype, immutable arrays updated functionally."""

    #: How JAX says a function has no kernel for the dtypes.
    no_loop_words = ("have no ordering", "not well defined for complex", "does not accept dtype")

    def __init__(self) -> None:
        super().__init__()
        self.name = "jax"
        self.module = jnp
        # jax.numpy is an Array API namespace itself (array-api-compat has no jax module).
        self.compat = _compat()
        self.array_type: type = jax.Array
        # Cells are direct only where no operand needs a cast: every array operand is
        # of the compute dtype already (below), and kernel() refuses the Python scalars
        # of another kind than the compute dtype.  There NumPy's promotion and JAX's agree.
        self.native_policy = get_policy("numpy")
        self.not_native: frozenset[tuple[str | None, DType, DType]] = frozenset(
            (None, d, c) for d in DTYPES for c in DTYPES if d is not c
        )
        self._fn: dict[str, Callable[..., Any]] = {op: getattr(jnp, op) for op in NATIVE}
        #: the policy's values (:class:`Values`) -> the functions of the ops they decide.
        self._valued: dict[Values, dict[str, Callable[..., Any]]] = {}

    def _functions(self, values: Values) -> dict[str, Callable[..., Any]]:
        """The op functions giving the policy's ``values`` (integer division by 0, negative powers)."""
        found = self._valued.get(values)
        if found is None:
            found = self._valued[values] = {
                **self._fn,
                "floor_divide": partial(floor_divide, values.zero_divisor),
                "remainder": partial(remainder, values.zero_divisor, values.zero_remainder),
                "pow": partial(power, values.negative_powers),
            }
        return found

    def register_wrapper(
        self, wrapper: type, flatten: Callable[[Any], Any], unflatten: Callable[[Any, Any], Any]
    ) -> None:
        """Make promo_ns's array wrapper a JAX pytree node (once per process), so jit/vmap/grad take it."""
        with contextlib.suppress(ValueError):  # registered already (another namespace, or a rebuilt adapter)
            jax.tree_util.register_pytree_node(wrapper, flatten, unflatten)

    def native_dtype(self, dtype: DType) -> Any:
        """JAX's dtype for ``dtype``.

        Raises
        ------
        JaxX64Error
            ``dtype`` is 64-bit and ``jax_enable_x64`` is off.
        """
        require_x64(dtype)
        found = self._native.get(dtype)
        if found is None:
            found = self._native[dtype] = jnp.dtype(dtype.name)
        return found

    def kernel(
        self, op: str, x: DType | Role, y: DType | Role, compute: DType, result: DType, *, values: Values
    ) -> Callable[[Any, Any], Any] | None:
        """``jax.numpy.<op>`` where it needs no cast: a Python scalar only of the compute dtype's kind.

        A weak Python scalar of the array's kind keeps the array's dtype in
        JAX (also under strict promotion); any other is converted by :meth:`binary`.
        Integer ``//``, ``%`` and ``**`` give the policy's ``values``.
        """
        for operand in (x, y):
            if isinstance(operand, Role) and _ROLE_KIND[operand] != compute.kind:
                return None
        fn = self._functions(values).get(op)
        return None if fn is None else self.guarded(fn, compute)

    def _operand(self, v: Any, compute: DType, like: Any) -> Any:
        """Native array or Python scalar ``v`` as the kernel takes it in ``compute``, explicitly.

        Arrays are cast with ``astype``; a float or complex Python scalar of a
        floating compute dtype stays a weak scalar of that kind (JAX keeps the
        array's dtype); any other Python scalar becomes a 0-d array of ``compute``.
        """
        if isinstance(v, jax.Array):
            return v if self.dtype(v) is compute else self.astype(v, compute)
        if compute.kind == "f" and v.__class__ is float:
            return v
        if compute.kind == "c" and v.__class__ in (float, complex):
            return complex(v)
        return self.scalar(v, compute, like)

    def binary(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``op(x, y)`` computed in ``plan.compute`` (operands cast to it), rounded to ``plan.rounded``."""
        require_x64(plan.compute)  # operands of that dtype already: JAX would narrow the result
        like = x if isinstance(x, jax.Array) else y
        fn = self._functions(plan.values)[op]
        out = fn(self._operand(x, plan.compute, like), self._operand(y, plan.compute, like))
        if op == "pow" and plan.compute is bool_:  # JAX's bool ** bool: int32 0s and 1s, exact
            return self.astype(out, bool_)
        return out if plan.rounded is None else self.astype(out, plan.rounded)

    def inplace_kernel(self, op: str, compute: DType, values: Values) -> None:
        """None: JAX arrays are immutable (see :meth:`inplace`)."""
        return None

    def inplace(self, op: str, x: Any, y: Any, plan: Plan) -> Any:
        """``x op y`` computed in ``plan.compute``, cast to ``x``'s dtype: the new array to rebind ``x`` to.

        ``x`` itself is not changed: JAX arrays are immutable.
        """
        out = inplace_result(self, op, x, y, plan)
        if out.shape != x.shape:
            raise ValueError(
                f"non-broadcastable output operand with shape {x.shape} doesn't match the broadcast "
                f"shape {out.shape}; an in-place op never changes x's shape"
            )
        return out if self.dtype(out) is self.dtype(x) else self.astype(out, self.dtype(x))

    def accumulate(self, name: str, x: Any, dtype: DType, **kwargs: Any) -> Any:
        """``jax.numpy.<name>(x, dtype=...)`` (``sum``, ``prod``, ``cumulative_sum``, ``linalg.trace``)."""
        return self.accumulator(name, self.dtype(x), dtype)(x, **kwargs)

    def guarded(self, kernel: Callable[..., Any], compute: DType) -> Callable[..., Any]:
        """``kernel``, raising JaxX64Error first where ``compute`` is 64-bit and x64 is off (JAX narrows)."""
        return partial(in_wide, kernel, compute) if compute in WIDE else kernel

    def accumulator(self, name: str, x: DType, dtype: DType) -> Callable[..., Any]:
        """``jax.numpy.<name>`` accumulating in ``dtype``: a function of the array."""
        return partial(named(jnp, name), dtype=self.native_dtype(dtype))

    def astype(self, x: Any, dtype: DType) -> Any:
        """``x`` as ``dtype``; ``x`` itself when it already is."""
        native = self.native_dtype(dtype)
        return x if x.dtype == native else astype(x, native)

    def scalar(self, value: object, dtype: DType, like: Any) -> Any:
        """A 0-d array of ``value`` as ``dtype``, on ``like``'s device where it has one (not a tracer)."""
        device = None if like is None or is_tracer(like) else _device(like)
        return jax.device_put(np.asarray(value, dtype=self.native_dtype(dtype)), device)

    def same_device(self, x: Any, y: Any) -> bool:
        """Whether two arrays live on the same devices (tracers: decided by JAX when it runs)."""
        if is_tracer(x) or is_tracer(y):
            return True
        return bool(x.devices() == y.devices())

    def to_array(self, x: Any) -> Any:
        """A native result as a JAX array."""
        return x if isinstance(x, jax.Array) else _jnp_asarray(x)

    def asarray(self, obj: Any, **kwargs: Any) -> Any:
        """``jax.numpy.asarray``; a JAX array or tracer of the asked dtype is returned as is.

        With ``jax_enable_x64`` off and no ``dtype`` asked for, data of a 64-bit
        dtype (a NumPy array or scalar) and Python ints past int32 are refused:
        JAX would silently make 32 bits of them (``2**40`` becomes ``0``,
        ``1e300`` becomes ``inf``).  An explicit ``dtype`` is a cast, as NumPy's.

        Raises
        ------
        JaxX64Error
            The data needs a 64-bit dtype and ``jax_enable_x64`` is off.
        """
        if kwargs.get("dtype") is not None or isinstance(obj, jax.Array) or x64_enabled():
            return _strong(obj, _jnp_asarray(obj, **kwargs), kwargs)
        refuse_wide_data("asarray", obj)
        try:
            return _strong(obj, _jnp_asarray(obj, **kwargs), kwargs)
        except OverflowError as e:  # a Python int past int32, which JAX makes of Python ints
            raise x64_error(int64, f"asarray() got a Python int that needs {int64} ({e})") from e

    def getitem(self, x: Any, key: Any) -> Any:
        """``x[key]``; a list of indices is an index array, as in NumPy (JAX refuses lists).

        Concrete integer indices out of bounds raise IndexError, as NumPy's (JAX clamps them).
        """
        key = jax_key(key)
        check_bounds(x, key, writing=False)
        return x[key]

    def setitem(self, x: Any, key: Any, value: Any) -> Any:
        """``x`` with ``x[key] = value`` applied: the new array (``x.at[key].set(value)``).

        ``value`` is cast to ``x``'s dtype first (the dtype of ``x`` never
        changes); ``x`` itself is not changed.  Integer indices known before
        JAX runs (Python and NumPy ints, lists, NumPy arrays, JAX arrays that
        are no tracers, also those a jitted function closes over) are checked
        against ``x``'s shape: JAX would drop the writes out of bounds
        silently.  A traced index's values are unknown while JAX traces: out of
        bounds, JAX drops its writes.  A mask of ``x``'s shape with a scalar
        value is ``where(mask, value, x)``, which ``jax.jit`` takes (JAX refuses a
        traced mask as an index).

        Raises
        ------
        IndexError
            A concrete index is out of bounds; nothing is written.
        """
        key = jax_key(key)
        check_bounds(x, key)
        dtype = self.dtype(x)
        whole_mask = isinstance(key, jax.Array) and key.dtype == jnp.bool_ and key.shape == x.shape
        if isinstance(value, jax.Array):
            if not (whole_mask and value.ndim == 0):  # x[key]'s shape: a traced mask has none known
                selected = jax.eval_shape(lambda: x[key]).shape
                if not _broadcasts_to(value.shape, selected):  # JAX broadcasts further, into an empty one
                    raise ValueError(
                        f"cannot assign a value of shape {value.shape} to the selection of shape "
                        f"{selected}; the value must broadcast to it"
                    )
            value = self.astype(value, dtype)
        else:
            value = self.scalar(value, dtype, x)
        if whole_mask and value.ndim == 0:  # where(), which jax.jit takes with a traced mask too
            return jnp.where(key, value, x)
        return x.at[key].set(value)


def _broadcasts_to(shape: tuple[int, ...], target: tuple[int, ...]) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` (NumPy's rule for an assigned value)."""
    if len(shape) > len(target):
        return all(n == 1 for n in shape[: len(shape) - len(target)]) and _broadcasts_to(
            shape[len(shape) - len(target) :], target
        )
    return all(n in (1, m) for n, m in zip(shape[::-1], target[::-1], strict=False))


class _Info:
    """``jax.numpy.__array_namespace_info__()``, with JAX's default device named.

    JAX's own answers ``None`` for the default device and lists ``None`` among
    the devices (its "unspecified"); promo_ns names the device arrays go to.
    """

    def __init__(self) -> None:
        self._info = jnp.__array_namespace_info__()

    def capabilities(self) -> Any:
        """What JAX supports (no boolean indexing or data-dependent shapes under ``jit``)."""
        return self._info.capabilities()  # type: ignore[no-untyped-call]

    def default_device(self) -> Any:
        """The device JAX puts new arrays on: ``jax.devices()[0]``."""
        return jax.devices()[0]

    def devices(self) -> list[Any]:
        """JAX's devices."""
        return [d for d in self._info.devices() if d is not None]

    def default_dtypes(self, *, device: Any = None) -> Any:
        """JAX's default dtypes (promo_ns's namespace answers with the policy's)."""
        return self._info.default_dtypes(device=device)

    def dtypes(self, *, device: Any = None, kind: str | tuple[str, ...] | None = None) -> Any:
        """The dtypes JAX has now (64-bit ones only with ``jax_enable_x64`` on)."""
        return self._info.dtypes(device=device, kind=kind)


def _compat() -> ModuleType:
    """``jax.numpy`` as the adapter's ``compat``: its functions, and :class:`_Info` as the namespace info."""
    module = ModuleType("promo_ns.backends.jax.compat", "jax.numpy's Array API functions, for promo_ns.")
    module.__dict__.update({k: v for k, v in vars(jnp).items() if not k.startswith("_")})
    module.__array_api_version__ = jnp.__array_api_version__  # type: ignore[attr-defined]
    module.__array_namespace_info__ = _Info  # type: ignore[attr-defined]
    module.permute_dims = _permute_dims  # type: ignore[attr-defined]
    module.expand_dims = _expand_dims  # type: ignore[attr-defined]
    module.searchsorted = _searchsorted  # type: ignore[attr-defined]
    module.repeat = checked_repeat  # type: ignore[attr-defined]
    module.take = checked_take(jnp.take, default_axis=None)  # type: ignore[attr-defined]
    module.take_along_axis = checked_take(jnp.take_along_axis, default_axis=-1)  # type: ignore[attr-defined]
    module.sign = _sign  # type: ignore[attr-defined]
    module.astype = rounded_once(jnp.astype)  # type: ignore[attr-defined]
    module.from_dlpack = _from_dlpack  # type: ignore[attr-defined]
    module.__dict__.update(checked_creators(jnp))
    module.arange = _arange(module.arange)  # type: ignore[attr-defined]
    module.linspace = _linspace(module.linspace)  # type: ignore[attr-defined]
    module.full = _filled(module.full)  # type: ignore[attr-defined]
    module.full_like = _filled_like(module.full_like)  # type: ignore[attr-defined]
    fft = ModuleType("promo_ns.backends.jax.compat.fft", "jax.numpy.fft, checking the sizes it makes.")
    fft.__dict__.update({k: v for k, v in vars(jnp.fft).items() if not k.startswith("_")})
    fft.__dict__.update(checked_creators(jnp.fft))
    module.fft = fft  # type: ignore[attr-defined]
    return module


def _arange(arange: Callable[..., Any]) -> Callable[..., Any]:
    """``arange`` as NumPy makes it where JAX steps otherwise.

    Of a float bound or step into an integer dtype, and of int bounds past float64's exact ints
    into a floating one.
    """

    def integer(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, **kwargs: Any) -> Any:
        kind = None if dtype is None else jnp.dtype(dtype).kind
        if kind == "f" and (terms := float_arange_terms(start, stop, step)) is not None:
            n, first, delta, second = terms  # NumPy's values (JAX spaced the second from the first)
            index = arange(n, dtype=dtype, **kwargs)
            return jnp.where(index == 1, second, index * delta + first).astype(dtype)
        made = None if kind not in ("i", "u") else integer_arange(start, stop, step)
        if made is None:
            return arange(start, stop, step, dtype=dtype, **kwargs)
        n, first, delta = made
        return (arange(n, dtype=jnp.int64, **kwargs) * delta + first).astype(dtype)

    return integer


def _strong(obj: Any, x: Any, kwargs: dict[str, Any]) -> Any:
    """``x``, JAX's array of ``obj``, strongly typed.

    JAX makes a Python scalar (and keeps a weakly typed array or tracer) weakly
    typed, which JAX's own functions would then take in another array's dtype
    (``diff``'s ``prepend``: int8 wrapping 300).  A Python scalar's array is
    remade from NumPy's (nothing compiled); an array or tracer is converted.
    """
    if not getattr(x, "weak_type", False):
        return x
    if obj.__class__ in (bool, int, float, complex):
        return _jnp_asarray(
            np.asarray(obj, dtype=x.dtype), **{k: v for k, v in kwargs.items() if k != "dtype"}
        )
    return jax.lax.convert_element_type(x, x.dtype)


def _linspace(linspace: Callable[..., Any]) -> Callable[..., Any]:
    """``linspace`` into an integer or bool dtype as NumPy makes it (JAX's last bits differ)."""

    def spaced(start: Any, stop: Any, /, num: int, *, dtype: Any = None, **kwargs: Any) -> Any:
        kind = None if dtype is None else jnp.dtype(dtype).kind
        if kind not in ("i", "u", "b") or isinstance(start, complex) or isinstance(stop, complex):
            return linspace(start, stop, num, dtype=dtype, **kwargs)
        endpoint = kwargs.pop("endpoint", True)
        wide = jnp.float64 if x64_enabled() else jnp.float32
        values = numpy_spacing(jnp, start, stop, num, endpoint=endpoint, float_dtype=wide, **kwargs)
        return values != 0 if kind == "b" else jnp.floor(values).astype(dtype)

    return spaced


def _filled(full: Callable[..., Any]) -> Callable[..., Any]:
    """``full``, its Python scalar fill value converted as NumPy does (JAX wraps, or refuses a complex)."""

    def filled(shape: Any, fill_value: Any, *args: Any, dtype: Any = None, **kwargs: Any) -> Any:
        if dtype is not None and fill_value.__class__ in (bool, int, float, complex):
            fill_value = numpy_fill(fill_value, dtype)
        return full(shape, fill_value, *args, dtype=dtype, **kwargs)

    return filled


def _filled_like(full_like: Callable[..., Any]) -> Callable[..., Any]:
    """``full_like``, its Python scalar fill value converted as NumPy converts it."""

    def filled(x: Any, /, fill_value: Any, *args: Any, dtype: Any = None, **kwargs: Any) -> Any:
        if fill_value.__class__ in (bool, int, float, complex) and hasattr(x, "dtype"):
            fill_value = numpy_fill(fill_value, x.dtype if dtype is None else dtype)
        return full_like(x, fill_value, *args, dtype=dtype, **kwargs)

    return filled


def _from_dlpack(x: Any, /, **kwargs: Any) -> Any:
    """``jax.numpy.from_dlpack``, refusing 64-bit data with ``jax_enable_x64`` off (JAX narrows it).

    A strided or read-only array (NumPy's, torch's on the CPU) that JAX cannot share is copied, as
    the standard lets ``copy=None`` do; ``copy=True`` always copies (JAX shared an aligned buffer).

    Raises
    ------
    JaxX64Error
        ``x`` is of a 64-bit dtype and ``jax_enable_x64`` is off.
    BufferError
        ``x`` is strided, read-only or unaligned (JAX shares none of them) and ``copy=False``
        forbids the copy, as the standard says.
    ValueError
        ``x`` cannot be shared, nor copied on the host (it has no ``__array__``).
    """
    if not x64_enabled() and not isinstance(x, jax.Array):
        refuse_wide_data("from_dlpack", x)
    try:
        out = jnp.from_dlpack(x, **kwargs)
    except (RuntimeError, BufferError, ValueError) as e:  # JAX takes compact, writable, aligned buffers
        if kwargs.get("copy") is False:
            raise BufferError(
                f"from_dlpack(copy=False) cannot share this {type(x).__name__} with JAX, which takes "
                f"only compact, writable, aligned buffers ({e}); let it copy (copy=None)"
            ) from e
        if isinstance(e, ValueError):
            raise
        if not hasattr(x, "__array__"):
            raise ValueError(
                f"from_dlpack() cannot share this {type(x).__name__} with JAX, which takes only "
                f"compact, writable buffers ({e}); pass a contiguous copy"
            ) from e
        return jnp.asarray(np.asarray(x), device=kwargs.get("device"))  # the copy the standard allows
    # copy=True: JAX shared an aligned NumPy buffer all the same, so a write to it showed through
    return jnp.array(out, copy=True) if kwargs.get("copy") is True and not isinstance(x, jax.Array) else out


def _permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    """``jax.numpy.permute_dims``, taking negative axes as the standard and NumPy do."""
    return jnp.permute_dims(x, tuple(a % x.ndim if a < 0 else a for a in axes))


def _expand_dims(x: Any, /, axis: int | tuple[int, ...] = 0) -> Any:
    """``jax.numpy.expand_dims``; an axis out of the result's range is an IndexError, as the standard says.

    (JAX raises ValueError there.)
    """
    n = x.ndim + (len(axis) if isinstance(axis, tuple) else 1)
    for a in axis if isinstance(axis, tuple) else (axis,):
        if not -n <= a < n:
            raise IndexError(f"axis {a} is out of bounds for the result's {n} dimensions")
    return jnp.expand_dims(x, axis)


def _sign(x: Any, /) -> Any:
    """``jax.numpy.sign``, 0 for -0.0 as every other library (and the standard) gives (JAX: -0.0)."""
    out = jnp.sign(x)
    return out + 0.0 if out.dtype.kind == "f" else out


def _searchsorted(x1: Any, x2: Any, /, *, side: str = "left", sorter: Any = None) -> Any:
    """``jax.numpy.searchsorted`` in JAX's default integer dtype, as its other index results.

    JAX's own gives int32 always; with ``jax_enable_x64`` on, the default (and the
    standard's default index dtype) is int64, as ``argsort`` and ``nonzero`` give.
    """
    if sorter is not None and (extremes := concrete_extremes(sorter)) is not None:
        check_sorter(*extremes, int(x1.shape[-1]) if x1.ndim else 0, int(sorter.size))  # JAX: no check
    out = jnp.searchsorted(x1, x2, side=side, sorter=sorter)
    return out.astype(jax.dtypes.canonicalize_dtype(jnp.int64))


def _device(x: Any) -> Any:
    """The one device of concrete array ``x``, or None for an array sharded over several."""
    devices = x.devices()
    return next(iter(devices)) if len(devices) == 1 else None
