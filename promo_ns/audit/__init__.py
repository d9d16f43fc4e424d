"""Migration audits: which ops of a piece of code other policies would decide otherwise."""

from __future__ import annotations

from promo_ns.audit.compare import Comparison, Difference, compare, run_script

__all__ = ["Comparison", "Difference", "compare", "run_script"]
