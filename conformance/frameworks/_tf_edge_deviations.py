"""The edge-grid cells where ``tf-all`` and ``tf-legacy`` differ from TF 2.21 on purpose.

Part of :data:`conformance.frameworks.edge_agreement.DEVIATIONS` (keyed by policy,
section and path prefix, with the reason); the quirks all three TF modes share are
there, keyed by every TF policy.
"""

from __future__ import annotations

#: The cases that legacy mode runs through ``tf.experimental.numpy`` (tf-legacy's spelling).
TNP_CASES = (
    *("maximum(x, s)", "minimum(x, s)", "where(c, x, s)", "where(c, s, x)", "clip(x, s, None)"),
    *("clip(x, None, s)", "logaddexp(x, s)", "nextafter(x, s)", "logical_and(x, s)", "hypot(x, s)"),
    "atan2(x, s)",
)

TF_MODE_DEVIATIONS: dict[tuple[str, str, str], str] = {
    **{
        ("tf-legacy", section, f"{path}{dtype}/{value}"): (
            "TF 2.21's tf.experimental.numpy functions leave a Python error set converting a Python int "
            "of 2**64 or more for a floating tensor (SystemError); tf-legacy converts it to the float, as "
            "the operators do"
        )
        for dtype in ("float16", "float32", "float64", "bfloat16")
        for section, path, value in (
            *(("int_scalars", f"/cases/{case}/", s) for case in TNP_CASES for s in (2**64, 2**70)),
            ("int_scalars", "/clip_pairs/", f"-1,{2**70}"),
        )
    },
    **{
        ("tf-legacy", "int_scalars", f"/cases/{case}/{dtype}/{-(2**63) - 1}"): (
            "tf.experimental.numpy.logical_and and hypot convert a Python int through an int64 array "
            "(ValueError: out-of-range integer, below -2**63); tf-legacy converts it to the float"
        )
        for case in ("logical_and(x, s)", "hypot(x, s)")
        for dtype in ("float16", "float32", "float64")
    },
    **{
        ("tf-legacy", "int_scalars", f"/cases/hypot(x, s)/{dtype}/"): (
            "tf.experimental.numpy.hypot squares a Python int as an int64 array (2**63 - 1 squared wraps "
            "to 1); promo_ns computes hypot in the result's float dtype"
        )
        for dtype in ("float32", "float64", "int64", "uint64")
    },
    **{
        ("tf-legacy", "int_scalars", f"/cases/{case}/bool/{2**63}"): (
            "a Python int outside the dtype's range is refused, as RFC 431 says; TF 2.21 wraps 2**63 into "
            "the int64 a bool tensor promotes to (the policy's documented deviation)"
        )
        for case in TNP_CASES
    },
    **{
        ("tf-legacy", "int_scalars", f"/cases/{case}/float16/"): (
            "floor division with a float16 infinity (a Python int beyond float16's range): TF's floordiv "
            "gives inf and -0, NumPy's and torch's nan and -1; the backend's numerics"
        )
        for case in ("s // x", "x // s")
    },
    ("tf-all", "int_scalars", "/cases/logaddexp(x, s)/bool/"): (
        "tf.experimental.numpy.logaddexp of a bool tensor and a Python int returns float64 computed in "
        "float32 (TF has no logaddexp op); promo_ns computes the float64 result in float64"
    ),
}
