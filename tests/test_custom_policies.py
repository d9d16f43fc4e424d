"""Custom policies: derived from a built-in with overrides, registered, used, and checked."""

from __future__ import annotations

import pytest

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import float16, float32, int8, int16, uint8
from promo_ns._engine.functions import accumulation_dtype
from promo_ns._engine.operands import Operand
from promo_ns._engine.resolution import resolve
from promo_ns.explore import check
from promo_ns.policies import Role
from tests.backends import BACKENDS, POLICIES, namespace


def test_rfc_431_triple_is_non_associative_under_numpy() -> None:
    found = check(get_policy("numpy"))
    assert (uint8, int8, float16, float32, float16) in found.non_associative
    assert "(uint8 add int8) add float16 = float32, but uint8 add (int8 add float16) = float16" in str(found)
    assert not found.ok


@pytest.mark.parametrize("policy", POLICIES)
def test_built_in_policies_are_commutative(policy: str) -> None:
    assert check(get_policy(policy), "add").non_commutative == []
    assert check(get_policy(policy), "multiply").non_commutative == []


def test_array_api_is_commutative_and_associative() -> None:
    assert check(get_policy("array-api")).ok


def test_derive_changes_cells_and_leaves_the_base_alone() -> None:
    base = get_policy("pytorch")
    mine = base.derive("pytorch-i8u8-to-i8", cells={("i8", "uint8"): "int8"}, int_values="overflow")
    assert mine.arrays[(int8, uint8)] is int8 and mine.arrays[(uint8, int8)] is int8
    assert base.arrays[(int8, uint8)] is int16
    assert mine.int_values == "overflow" and base.int_values == "wrap"
    assert mine.name == "pytorch-i8u8-to-i8" and "1 array cells changed" in mine.summary
    refusing = base.derive("no-i8-u8", cells={(int8, uint8): None})
    assert (int8, uint8) not in refusing.arrays and (uint8, int8) not in refusing.arrays


def test_a_one_sided_override_shows_up_as_non_commutative() -> None:
    lopsided = get_policy("pytorch").derive("lopsided", cells={("i8", "u8"): "i8"}, symmetric=False)
    assert check(lopsided).non_commutative == [(int8, uint8, int8, int16)]


def test_derive_rejects_unknown_dtypes() -> None:
    with pytest.raises(ValueError, match="unknown dtype 'int7'"):
        get_policy("pytorch").derive("bad", cells={("int7", "u8"): "i8"})


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_registered_derived_policy_drives_a_namespace_and_a_block(backend: str) -> None:
    name = "test-derived-i8-f32"
    if name not in promo_ns.policies():
        promo_ns.register(get_policy("array-api").derive(name, cells={("i8", "f32"): "f32"}))
    xp = namespace(backend, name)
    a, b = xp.ones(3, dtype=xp.int8), xp.ones(3, dtype=xp.float32)
    assert (a + b).dtype is float32 and (b + a).dtype is float32
    with promo_ns.policy("array-api"), pytest.raises(PromotionError):
        a + b
    with pytest.raises(ValueError, match="already registered"):
        promo_ns.register(get_policy(name))


TABLE = """
        i8  i16  f32
   i8   i8  i16    -
  i16  i16  i16    -
  f32    -    -  f32
"""


def test_from_table_takes_the_table_and_the_other_rules_from_like() -> None:
    mine = promo_ns.Policy.from_table("table-ints", TABLE, like="numpy")
    numpy = get_policy("numpy")
    assert mine.arrays == {
        (int8, int8): int8,
        (int8, int16): int16,
        (int16, int8): int16,
        (int16, int16): int16,
        (float32, float32): float32,
    }
    assert mine.roles == numpy.roles and mine.families is numpy.families and mine.scalars is numpy.scalars
    assert mine.reference == "a custom table, other rules from 'numpy'" and mine.deviations == ()
    assert check(mine).ok


def test_from_table_scalars_and_fields() -> None:
    scalars = """
         bool  int  float complex
    i8      -   i8      -       -
    """
    mine = promo_ns.Policy.from_table(
        "table-scalars", {(int8, int8): int8}, scalars=scalars, int_values="refuse"
    )
    assert mine.scalars == {(int8, Role.INT): int8}
    assert mine.int_values == "refuse" and mine.roles == "weak-scalars"


def test_a_dtype_with_itself_always_gives_itself() -> None:
    with pytest.raises(
        ValueError, match="the cell of float32 with float32 says refused, but a dtype with itself"
    ):
        get_policy("numpy").derive("bad", cells={("f32", "f32"): None})
    with pytest.raises(ValueError, match="the cell of int8 with int8 says int16"):
        get_policy("numpy").derive("bad", cells={("i8", "i8"): "i16"})
    with pytest.raises(ValueError, match="the cell of int8 with int8 says refused"):
        promo_ns.Policy.from_table("bad", "  i8 i16\ni8 - i16\ni16 i16 i16")
    with pytest.raises(ValueError, match="the cell of int8 with int8 says int16"):
        promo_ns.Policy.from_table("bad", {(int8, int8): int16})
    assert (
        promo_ns.Policy.from_table("dots", "  i8 i16\ni8 . i16\ni16 i16 i16").arrays[(int8, int16)] is int16
    )


def test_from_table_on_a_priority_policy_decides_between_classes_too() -> None:
    mine = promo_ns.Policy.from_table("table-pytorch", TABLE, like="pytorch", deviations=("none",))
    assert mine.cross is None and mine.zero_d is None and mine.deviations == ("none",)
    with pytest.raises(PromotionError):
        resolve(mine, "add", Operand(int8, Role.ND), Operand(float32, Role.ZERO_D))
    with pytest.raises(ValueError, match="scalars= is a grid for roles='weak-scalars'"):
        promo_ns.Policy.from_table("bad", TABLE, like="pytorch", scalars="  int\ni8 i8")


def test_a_policy_whose_reductions_take_nothing_says_so() -> None:
    none = get_policy("numpy").derive("no-sums", accumulate_kinds="")
    with pytest.raises(PromotionError, match="it takes no arrays"):
        accumulation_dtype(none, "sum", int8)


def test_from_table_rejects_a_bad_table() -> None:
    with pytest.raises(ValueError, match="unknown dtype 'i7'"):
        promo_ns.Policy.from_table("bad", "  i7\ni7 i7")
    with pytest.raises(ValueError, match="grid row 'i8' has 1 cells for 2 columns"):
        promo_ns.Policy.from_table("bad", "  i8 i16\ni8 i8")
    with pytest.raises(KeyError, match="no promotion policy named 'mxnet'"):
        promo_ns.Policy.from_table("bad", TABLE, like="mxnet")


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_table_policy_drives_a_namespace(backend: str) -> None:
    name = "test-table-policy"
    if name not in promo_ns.policies():
        promo_ns.register(promo_ns.Policy.from_table(name, TABLE))
    xp = namespace(backend, name)
    a, b, f = xp.ones(3, dtype=xp.int8), xp.ones(3, dtype=xp.int16), xp.ones(3, dtype=xp.float32)
    assert (a + b).dtype is int16 and (a * a).dtype is int8
    with pytest.raises(PromotionError, match="policy 'test-table-policy' refuses add"):
        a + f


def test_a_new_policy_compiles_only_the_cells_its_ops_meet() -> None:
    from promo_ns._binary_plans import plans
    from promo_ns._engine.decisions import _cells, family_name

    policy = promo_ns.get_policy("pytorch").derive("compiles-what-it-meets", summary="a copy of pytorch")
    xp = promo_ns.namespace("numpy", policy=policy)
    a, b = xp.asarray([1.0], dtype=xp.float32), xp.asarray([1], dtype=xp.int8)
    assert (a + b).dtype is xp.float32 and (a + 1).dtype is xp.float32
    cells = plans(xp.policy, xp._backend, "add", function=False)
    assert sum(plan is not None for plan in cells) == 2 and len(cells) > 100
    assert len(_cells(xp.policy, "compute", family_name(xp.policy, "add"))) <= 4  # the cells met, no table
