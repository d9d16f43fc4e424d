"""The tools around policies: grids as text and pictures, algebraic checks, the demo, the CLI.

Nothing in the rest of promo_ns imports this package; it reads policies and
asks :mod:`promo_ns._engine` for their answers.

- :mod:`~promo_ns.explore.tables`: a policy's grids as data (views) and as text, with their legend;
- :mod:`~promo_ns.explore.pictures`: the same grids as SVG pictures;
- :mod:`~promo_ns.explore.checks`: :func:`check`, the non-commutative cells and non-associative triples;
- :mod:`~promo_ns.explore.explanation`: :func:`explain`, one op's answer and the rule that decided it;
- :mod:`~promo_ns.explore.demo`: the tour ``python -m promo_ns demo`` prints;
- :mod:`~promo_ns.explore.cli`: ``python -m promo_ns``.
"""

from __future__ import annotations

from promo_ns.explore.checks import PolicyCheck, check
from promo_ns.explore.explanation import Explanation, explain

__all__ = ["Explanation", "PolicyCheck", "check", "explain"]
