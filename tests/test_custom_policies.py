"""Custom policies: derived from a built-in with overrides, registered, used, and checked."""

from __future__ import annotations

import pytest

import promo_ns
from promo_ns import PromotionError, get_policy
from promo_ns._dtypes import float16, float32, int8, int16, uint8
from tests.backends import BACKENDS, POLICIES, namespace


def test_rfc_431_triple_is_non_associative_under_numpy() -> None:
    found = get_policy("numpy").check()
    assert (uint8, int8, float16, float32, float16) in found.non_associative
    assert "(uint8 add int8) add float16 = float32, but uint8 add (int8 add float16) = float16" in str(found)
    assert not found.ok


@pytest.mark.parametrize("policy", POLICIES)
def test_built_in_policies_are_commutative(policy: str) -> None:
    assert get_policy(policy).check("add").non_commutative == []
    assert get_policy(policy).check("multiply").non_commutative == []


def test_array_api_is_commutative_and_associative() -> None:
    assert get_policy("array-api").check().ok


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
    assert lopsided.check().non_commutative == [(int8, uint8, int8, int16)]


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
