"""Bad input gets promo_ns's TypeError or ValueError, naming what was wrong and the fix (issue 16, item 5).

Never an AttributeError, a raw backend error or a silent wrong answer: every
case runs on every backend and under every policy it applies to.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
import pytest
import torch

import promo_ns
from promo_ns import Policy, get_policy
from promo_ns._dtypes import int8
from promo_ns._ops import NATIVE
from promo_ns.explore.cli import main
from promo_ns.policies._model import Family
from tests.backends import BACKENDS, POLICIES, namespace

# --- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["-" * 3000 + "1", "(" * 3000 + "1", "[" * 300 + "1", "~" * 3000 + "1", "None", "[1]", "'a'"],
    ids=["3000 minus signs", "3000 parentheses", "300 brackets", "3000 tildes", "None", "list", "str"],
)
def test_explain_reads_no_operand_past_the_parser(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["explain", "numpy", "add", "int8", text])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "cannot read operand" in err and "write a dtype" in err
    assert len(err) < 1000  # a long operand is shortened in the message


# --- dtypes where a dtype is required ----------------------------------------------------------


NOT_DTYPES = [None, float, int, bool, complex, object, "f4", "flaot32", 3]
NOT_DTYPE_IDS = ["None", "float", "int", "bool", "complex", "object", "f4", "flaot32", "3"]


def names_the_dtype(message: str, bad: object) -> bool:
    """Whether ``message`` names ``bad``: its repr, or a Python type's name."""
    return (bad.__name__ if isinstance(bad, type) else repr(bad)) in message


@pytest.mark.parametrize("bad", NOT_DTYPES, ids=NOT_DTYPE_IDS)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_dtype_argument_must_be_a_dtype(backend: str, policy: str, bad: object) -> None:
    xp = namespace(backend, policy)
    x = xp.asarray([1.0, 2.0])
    calls: dict[str, Callable[[], object]] = {
        "astype": lambda: xp.astype(x, bad),
        "isdtype": lambda: xp.isdtype(bad, "real floating"),
        "can_cast(from_)": lambda: xp.can_cast(bad, xp.float64),
        "can_cast(to)": lambda: xp.can_cast(xp.float32, bad),
        "finfo": lambda: xp.finfo(bad),
        "iinfo": lambda: xp.iinfo(bad),
    }
    if bad is not None:  # None asks for the default dtype here
        calls |= {
            "sum": lambda: xp.sum(x, dtype=bad),
            "asarray": lambda: xp.asarray([1, 2], dtype=bad),
            "ones": lambda: xp.ones(2, dtype=bad),
            "full": lambda: xp.full((2,), 1, dtype=bad),
        }
    for name, call in calls.items():
        with pytest.raises(TypeError) as exc:
            call()
        message = str(exc.value)
        assert names_the_dtype(message, bad), (name, message)
        assert "xp." in message or "promo_ns supports" in message, (name, message)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_misspelt_dtype_name_gets_a_did_you_mean(backend: str) -> None:
    xp = namespace(backend)
    with pytest.raises(TypeError, match="Did you mean 'float32'"):
        xp.astype(xp.asarray([1.0]), "flaot32")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_iinfo_and_finfo_take_their_own_kinds(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    for dtype in (xp.float32, xp.float64, xp.complex64, xp.bool):
        with pytest.raises(TypeError, match=rf"iinfo\(\) takes integer dtypes.*not {dtype}"):
            xp.iinfo(dtype)
    for dtype in (xp.int32, xp.uint8, xp.bool):
        with pytest.raises(TypeError, match=rf"finfo\(\) takes floating-point .*not {dtype}"):
            xp.finfo(dtype)
    with pytest.raises(TypeError, match=r"use xp\.finfo\(\)"):
        xp.iinfo(xp.asarray([1.0]))
    assert xp.iinfo(xp.int8).max == 127
    assert xp.finfo(xp.asarray([1.0], dtype=xp.float32)).bits == 32


# --- every function refuses bare native arrays and non-arrays ---------------------------------

#: Functions whose first argument is not an array (creation, dtypes) or is several arrays.
NOT_ARRAY_FIRST = frozenset(
    (
        *("arange", "asarray", "empty", "eye", "from_dlpack", "full", "linspace", "ones", "zeros"),
        *("can_cast", "finfo", "iinfo", "isdtype", "result_type", "broadcast_shapes"),
        *("fft.fftfreq", "fft.rfftfreq", "concat", "stack", "meshgrid", "broadcast_arrays"),
    )
)
#: Functions of two arrays (or an array and a Python scalar), either of which may be the array.
TWO_OPERANDS = frozenset(
    (
        *NATIVE,
        *("matmul", "tensordot", "vecdot", "isin", "searchsorted"),
        *(f"linalg.{name}" for name in ("matmul", "tensordot", "vecdot", "cross", "outer", "solve")),
    )
)


def array_functions(xp: Any) -> Iterator[tuple[str, Callable[..., Any], int]]:
    """Each function of ``xp`` that takes an array first: name, function, required positional arguments."""
    for module, prefix in ((xp, ""), (xp.linalg, "linalg."), (xp.fft, "fft.")):
        for short in dir(module):
            fn = getattr(module, short)
            name = prefix + short
            if short.startswith("_") or isinstance(fn, type) or not callable(fn) or name in NOT_ARRAY_FIRST:
                continue
            try:
                params = inspect.signature(fn).parameters.values()
            except ValueError:  # a builtin of torch's, delegated as it is: one array
                yield name, fn, 1
                continue
            positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
            yield name, fn, sum(p.default is p.empty and p.kind in positional for p in params)


def bad_operands() -> list[tuple[object, str]]:
    """Bare native arrays of both libraries and objects that are no arrays, with the names errors give."""
    return [
        (np.ones(3), "numpy.ndarray"),
        (torch.ones(3), "torch.Tensor"),
        ({"a": 1}, "dict"),
        ("abc", "str"),
        (None, "NoneType"),
    ]


def refuses(call: Callable[[], object], name: str, what: str) -> None:
    """``call()`` raises a TypeError naming ``what`` (the bad argument's type) and the fix, xp.asarray."""
    try:
        call()
    except TypeError as e:
        message = str(e)
        assert what in message and "asarray" in message, (name, message)
    else:  # pragma: no cover - the failure's report
        raise AssertionError(f"{name} accepted a {what}")


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_function_refuses_bare_native_arrays_and_non_arrays(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    a = xp.asarray([1.0, 2.0, 3.0])
    seen = set()
    for name, fn, required in array_functions(xp):
        seen.add(name)
        fill = [xp.asarray([True, False, True]), a, a] if name == "where" else [a] * max(required, 1)
        for bad, what in bad_operands():
            for position in range(len(fill)) if name in TWO_OPERANDS or name == "where" else (0,):
                args = list(fill)
                args[position] = bad
                refuses(partial(fn, *args), f"{name}, argument {position}", what)
    assert {"sin", "sum", "clip", "max", "reshape", "sort", "take", "linalg.inv", "fft.fft"} <= seen


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_functions_of_several_arrays_refuse_bare_ones(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    a = xp.asarray([1.0, 2.0, 3.0])
    for bad, what in bad_operands():
        refuses(partial(xp.concat, [a, bad]), "concat", what)
        refuses(partial(xp.stack, [bad, a]), "stack", what)
        refuses(partial(xp.meshgrid, a, bad), "meshgrid", what)
        refuses(partial(xp.broadcast_arrays, bad, a), "broadcast_arrays", what)
        refuses(partial(xp.result_type, a, bad), "result_type", what)
        refuses(partial(xp.take, a, bad), "take's indices", what)
        if bad is not None:  # no bound
            refuses(partial(xp.clip, a, bad, None), "clip's min", what)
    for joined in ("concat", "stack"):
        for arrays in (a, "ab", None):
            with pytest.raises(
                TypeError, match=rf"{joined}\(\) takes a tuple or list of arrays.*xp\.{joined}\(\["
            ):
                getattr(xp, joined)(arrays)


# --- policies: derive, from_table and the Policy constructor validate their arguments ----------

#: Each Literal-typed field of Policy, a misspelling of one of its values, and that value.
MISSPELT = [
    ("inplace", "smae", "same"),
    ("roles", "wek-scalars", "weak-scalars"),
    ("int_values", "overflw", "overflow"),
    ("cross_when", "hihger", "higher"),
    ("nested", "strong-scalar", "strong-scalars"),
]


@pytest.mark.parametrize(("field", "bad", "meant"), MISSPELT)
@pytest.mark.parametrize("policy", POLICIES)
def test_derive_refuses_a_value_a_field_cannot_take(policy: str, field: str, bad: str, meant: str) -> None:
    base = get_policy(policy)
    changes: dict[str, Any] = {field: bad}
    with pytest.raises(ValueError) as exc:
        base.derive("test-bad-field", **changes)
    message = str(exc.value)
    assert f"{field} must be one of" in message and repr(bad) in message
    assert f"did you mean {meant!r}" in message
    with pytest.raises(ValueError, match=f"{field} must be one of"):
        Policy.from_table("test-bad-field", "  i8\ni8 i8", like=policy, **changes)
    with pytest.raises(ValueError, match=f"{field} must be one of"):
        dataclasses.replace(base, **changes)


def test_values_with_no_close_spelling_list_the_choices() -> None:
    with pytest.raises(
        ValueError, match="int_values must be one of 'wrap', 'overflow', 'refuse', not 'bogus'"
    ):
        get_policy("pytorch").derive("test-bad", int_values="bogus")
    with pytest.raises(ValueError, match="roles must be one of 'weak-scalars', 'priority', not 'wek'"):
        get_policy("array-api").derive("test-bad", inplace="smae", roles="wek", int_values="bogus")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_refused_derive_leaves_in_place_ops_refused(backend: str) -> None:
    with pytest.raises(ValueError, match="inplace must be one of"):
        get_policy("array-api").derive("test-smae", inplace="smae")
    xp = namespace(backend, "array-api")
    x = xp.asarray([1, 2], dtype=xp.int8)
    with pytest.raises(promo_ns.PromotionError):
        x += xp.asarray([1, 2], dtype=xp.int16)


@pytest.mark.parametrize(
    ("changes", "error", "words"),
    [
        ({"inplac": "same"}, TypeError, ["no field of Policy", "did you mean 'inplace'"]),
        ({"arrays": {}}, TypeError, ["cells=", "from_table"]),
        ({"deviations": "none"}, TypeError, ["deviations must be a tuple of str", "'none'"]),
        ({"defaults": {"float": int8}}, ValueError, ["defaults lacks bool, int, complex, index"]),
        ({"accumulate_kinds": "xyz"}, ValueError, ["accumulate_kinds", "'xyz'", "biufc"]),
        ({"nested_rules": "nupmy"}, ValueError, ["nested_rules", "did you mean 'numpy'"]),
        ({"op_families": {"add": "arithmatic"}}, ValueError, ["'arithmatic'", "did you mean 'arithmetic'"]),
        ({"scalar_dtypes": {"int": int8}}, TypeError, ["scalar_dtypes", "must be Role", "'int'"]),
        ({"summary": 3}, TypeError, ["summary must be str", "3"]),
    ],
    ids=lambda v: next(iter(v)) if isinstance(v, dict) else None,
)
def test_derive_checks_every_field(changes: dict[str, Any], error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as exc:
        get_policy("pytorch").derive("test-bad", **changes)
    for word in words:
        assert word in str(exc.value)


def test_derive_and_from_table_check_the_cells_and_the_table() -> None:
    with pytest.raises(
        ValueError, match="unknown dtype 'unit8' in a policy grid \\(did you mean 'uint8'\\?\\)"
    ):
        get_policy("numpy").derive("test-bad", cells={("i8", "unit8"): "i8"})
    with pytest.raises(ValueError, match="the table is empty; a table is a header of dtypes") as exc:
        Policy.from_table("p", "")
    assert "i8   i8  i16" in str(exc.value)  # what a table looks like
    with pytest.raises(ValueError, match="the table is empty"):
        Policy.from_table("p", "  \n \n")
    with pytest.raises(TypeError, match="takes the array table as text or a mapping"):
        Policy.from_table("p", None)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="unknown columns \\['integer'\\] in a scalar grid \\(did you mean 'int'"
    ):
        Policy.from_table("p", "  i8\ni8 i8", scalars="  integer\ni8 i8", like="numpy")
    with pytest.raises(TypeError, match="name is a non-empty str"):
        get_policy("numpy").derive(3)  # type: ignore[arg-type]


def test_family_fields_are_checked() -> None:
    with pytest.raises(ValueError, match="result must be one of 'promoted', 'bool', not 'boolean'"):
        Family(result="boolean")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="kinds must hold only kind letters"):
        Family(kinds="xyz")


def test_register_takes_a_policy() -> None:
    with pytest.raises(
        TypeError, match=re.escape("register() takes a promo_ns.Policy, not str; build one with")
    ):
        promo_ns.register("numpy")  # type: ignore[arg-type]


# --- x @= y names its operands ----------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_refused_in_place_matmul_names_x1_and_x2(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    dtypes = [xp.int8, xp.uint8, xp.int16, xp.float32, xp.float64]
    for d1 in dtypes:
        for d2 in dtypes:
            x, y = xp.ones((2, 2), dtype=d1), xp.ones((2, 2), dtype=d2)
            try:
                result = xp.matmul(x, y).dtype
            except promo_ns.PromotionError:
                result = None
            try:
                x @= y
            except promo_ns.PromotionError as e:
                message = str(e)
                if result is None:  # refused out of place too
                    assert f"x1: {d1} (n-d array), x2: {d2} (n-d array)" in message, message
                else:
                    assert f"x1 is {d1} (n-d array), x2 is {d2} (n-d array)" in message, message
                    assert f"the result would be {result}," in message, message
                assert x.dtype == d1
            else:
                assert x.dtype == d1
    if policy == "array-api":  # the product is int16 here, x2 uint8: the message once named int16 as x2's
        x = xp.ones((2, 2), dtype=xp.int8)
        with pytest.raises(promo_ns.PromotionError, match=r"x2 is uint8 .*the result would be int16"):
            x @= xp.ones((2, 2), dtype=xp.uint8)


# --- trace() records only the ops that ran -----------------------------------------------------


def failing_ops(xp: Any) -> dict[str, Callable[[], object]]:
    """Ops that would cast (under ``numpy``'s rules) but fail: refused, out of range, or in the kernel."""
    i8, f32 = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0, 2.0], dtype=xp.float32)

    def inplace() -> None:
        x = xp.asarray([1, 2], dtype=xp.int8)
        x += xp.asarray([1.0, 2.0], dtype=xp.float32)  # float into int8: refused in place

    def setitem_out_of_bounds() -> None:
        x = xp.asarray([1, 2], dtype=xp.int8)
        x[5] = xp.asarray(3, dtype=xp.int16)

    def imatmul_changing_shape() -> None:
        m = xp.ones((2, 2), dtype=xp.float32)
        m @= xp.ones((2, 3), dtype=xp.float16)

    return {
        "add of shapes that do not broadcast": lambda: i8 + xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32),
        "refused in-place add": inplace,
        "out-of-range Python int": lambda: i8 + 1000,
        "setitem out of bounds": setitem_out_of_bounds,
        "concat of mismatched shapes": lambda: xp.concat([i8, xp.asarray([[1.0]], dtype=xp.float32)]),
        "where of shapes that do not broadcast": lambda: xp.where(
            xp.asarray([True, False]), i8, xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
        ),
        "clip with a bound of another shape": lambda: xp.clip(f32, xp.asarray([0, 1, 2], dtype=xp.int8)),
        "in-place matmul changing the shape": imatmul_changing_shape,
    }


@pytest.mark.parametrize("backend", BACKENDS)
def test_trace_records_no_op_that_failed(backend: str) -> None:
    xp = namespace(backend, "numpy")
    failed = 0
    for name, op in failing_ops(xp).items():
        with promo_ns.trace() as t:
            try:
                op()
            except (TypeError, ValueError, IndexError, OverflowError):
                failed += 1
                assert list(t) == [], (name, [str(c) for c in t])
    assert failed >= len(failing_ops(xp)) - 1  # JAX writes out of bounds without a word


@pytest.mark.parametrize("backend", BACKENDS)
def test_trace_records_each_op_that_ran_once(backend: str) -> None:
    xp = namespace(backend, "numpy")
    with promo_ns.trace() as t:
        i8, f32 = xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0, 2.0], dtype=xp.float32)
        f32 += i8
        i8 + f32
        i8[0] = xp.asarray(3, dtype=xp.int16)
        xp.where(xp.asarray([True, False]), i8, f32)
        m = xp.ones((2, 2), dtype=xp.float32)
        m @= xp.ones((2, 2), dtype=xp.float16)
        for op in failing_ops(xp).values():
            ran = len(t)
            try:
                op()
            except (TypeError, ValueError, IndexError, OverflowError):
                assert len(t) == ran
    assert [c.op for c in t][:5] == ["add", "add", "setitem", "where", "matmul"]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_shapes_that_do_not_fit_raise_value_error_on_every_backend(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    a, b = xp.ones((2,), dtype=xp.float32), xp.ones((3,), dtype=xp.float32)
    m, n = xp.ones((2, 3), dtype=xp.float32), xp.ones((2, 3), dtype=xp.float32)
    calls: dict[str, Callable[[], object]] = {
        "add": lambda: a + b,
        "where": lambda: xp.where(xp.asarray([True, False]), a, b),
        "clip": lambda: xp.clip(a, b),
        "concat": lambda: xp.concat([a, m]),
        "stack": lambda: xp.stack([a, b]),
        "matmul": lambda: xp.matmul(m, n),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError) as exc:
            call()
        assert not isinstance(exc.value, promo_ns.PromotionError), name


# --- creation functions ---------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_asarray_of_what_is_no_array_data_says_so(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    for data, what in [
        ({"a": 1}, "dict"),
        (None, "NoneType"),
        (object(), "object"),
        ("abc", "str"),
        ([1.0, None], "NoneType"),
        ([[1, 2], [3, object()]], "object"),
    ]:
        with pytest.raises(TypeError) as exc:
            xp.asarray(data)
        message = str(exc.value)
        assert "asarray()" in message and what in message, message


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_creation_functions_name_a_bad_size_or_value(backend: str, policy: str) -> None:
    xp = namespace(backend, policy)
    bad: list[tuple[Callable[[], object], type[Exception], str]] = [
        (partial(xp.ones, "3"), TypeError, r"ones\(\) takes a shape: an int or a tuple of ints, not str '3'"),
        (partial(xp.zeros, (2, "a")), TypeError, r"zeros\(\) takes a shape.*not tuple \(2, 'a'\)"),
        (partial(xp.empty, None), TypeError, r"empty\(\) takes a shape.*not NoneType None"),
        (partial(xp.eye, "3"), TypeError, r"eye\(\)'s n_rows must be an int, not str '3'"),
        (
            partial(xp.full, (2,), "a"),
            TypeError,
            r"full\(\) takes a Python bool, int, float or complex fill_value, not str 'a'",
        ),
        (partial(xp.full, (2,), None), TypeError, r"fill_value, not NoneType None"),
        (partial(xp.full, "3", 1.0), TypeError, r"full\(\) takes a shape.*not str '3'"),
        (
            partial(xp.arange, "3"),
            TypeError,
            r"arange\(\)'s start must be a Python int or float, not str '3'",
        ),
        (partial(xp.ones, (2, -1)), ValueError, r"ones\(\) got a negative size in the shape \(2, -1\)"),
        (partial(xp.eye, -1), ValueError, r"eye\(\)'s n_rows must be >= 0, not -1"),
        (partial(xp.linspace, 0, 1, -3), ValueError, r"linspace\(\)'s num must be >= 0, not -3"),
        (partial(xp.arange, 0, 10, 0), ValueError, r"arange\(\)'s step must not be zero"),
        (partial(xp.linspace, 0, 1, "3"), TypeError, r"linspace\(\)'s num must be an int, not str '3'"),
    ]
    if backend != "dask":  # Dask's fftfreq is built lazily from an array without a look at n
        bad.append((partial(xp.fft.fftfreq, "3"), TypeError, r"fftfreq\(\)'s n must be an int, not str '3'"))
    for call, error, words in bad:
        with pytest.raises(error, match=words):
            call()


# --- devices -------------------------------------------------------------------------------------

#: torch on a device other than the CPU's: its arrays meet CPU arrays in the tests below.
OTHER_DEVICES = [b for b in BACKENDS if str(getattr(b, "values", (b,))[0]).startswith("torch:")]


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("backend", OTHER_DEVICES)
def test_operands_on_two_devices_get_one_value_error_naming_both(backend: str, policy: str) -> None:
    xp, cpu = namespace(backend, policy), namespace("torch", policy)
    x, y = xp.asarray([1.0, 2.0]), xp.asarray([3.0, 4.0])
    c = cpu.asarray([1.0, 2.0])
    here = str(x.device).split(":")[0]
    calls: dict[str, Callable[[], object]] = {
        "where, condition on the CPU": lambda: xp.where(cpu.asarray([True, False]), x, y),
        "where, x1 on the CPU": lambda: xp.where(xp.asarray([True, False]), c, y),
        "where, 0-d x2 on the CPU": lambda: xp.where(xp.asarray([True, False]), x, cpu.asarray(0.0)),
        "clip, bound on the CPU": lambda: xp.clip(x, c),
        "clip, 0-d bound on the CPU": lambda: xp.clip(x, None, cpu.asarray(1.0)),
        "concat": lambda: xp.concat([x, c]),
        "stack": lambda: xp.stack([c, x]),
        "matmul": lambda: xp.matmul(x, c),
        "add": lambda: x + c,
        "add, 0-d on the CPU": lambda: x + cpu.asarray(1.0),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match="operands are on different devices") as exc:
            call()
        message = str(exc.value)
        assert "cpu" in message and here in message and "to_device" in message, (name, message)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unknown_device_is_a_value_error(backend: str) -> None:
    xp = namespace(backend)
    x = xp.asarray([1.0])
    calls: dict[str, Callable[[], object]] = {
        "asarray": lambda: xp.asarray([1.0], device="nowhere"),
        "ones": lambda: xp.ones(2, device="nowhere"),
        "astype": lambda: xp.astype(x, xp.float32, device="nowhere"),
        "to_device": lambda: x.to_device("nowhere"),
    }
    for call in calls.values():
        with pytest.raises(ValueError, match="'nowhere' is no device of the"):
            call()


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_unknown_policy_name_is_a_value_error_and_a_key_error(backend: str) -> None:
    name, _, device = backend.partition(":")
    for call in (
        partial(promo_ns.namespace, name, policy="pytroch", device=device or None),
        partial(promo_ns.get_policy, "pytroch"),
        partial(promo_ns.policy("pytroch").__enter__),
    ):
        with pytest.raises(
            ValueError, match="no promotion policy named 'pytroch'; did you mean 'pytorch'"
        ) as exc:
            call()
        assert isinstance(exc.value, KeyError)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("key", ["a", 1.5, (0, "b"), [0, "a"], (slice(None), 2.0)], ids=repr)
def test_an_index_of_the_wrong_kind_is_an_index_error_naming_it(backend: str, key: Any) -> None:
    xp = namespace(backend, "array-api")
    x = xp.asarray([[1, 2, 3], [4, 5, 6]])
    bad = next(p for p in (key if isinstance(key, tuple | list) else (key,)) if isinstance(p, str | float))
    with pytest.raises(IndexError, match=rf"got {type(bad).__name__} {re.escape(repr(bad))}\. Convert"):
        x[key]
    if backend in ("numpy", "torch"):  # a key of the right kind keeps the library's word
        with pytest.raises(IndexError, match="out of bounds"):
            x[5]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cell_the_backend_has_no_kernel_for_is_promo_ns_type_error(backend: str) -> None:
    # Paddle's copysign keeps integer dtypes; NumPy and torch have no such kernel.
    xp = namespace(backend, "paddle")
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    for other in (-1, xp.asarray([1, -1, 1], dtype=xp.int32)):
        with pytest.raises(TypeError, match=r"has no 'copysign' kernel .*Cast the operands explicitly first"):
            xp.copysign(x, other)
