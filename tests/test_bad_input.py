"""Bad input gets promo_ns's TypeError or ValueError, naming what was wrong and the fix (issue 16, item 5).

Never an AttributeError, a raw backend error or a silent wrong answer: every
case runs on every backend and under every policy it applies to.
"""

from __future__ import annotations

import pytest

from promo_ns.explore.cli import main

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
