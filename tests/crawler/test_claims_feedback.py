"""C20/C21/C35 read crawler_feedback's summary: a failed run (its S is None, the error in the summary) gives no data
or a NaN gain, never a TypeError that stops the report (a broken twin, e.g. the default_contact mutation)."""
from __future__ import annotations

import math

from gaittwin.core.report.verdict import DISAGREE, Range, Tol, judge
from gaittwin.crawler.paper.claims_statements import feedback_gain, mm


def test_a_failed_feedback_run_is_a_nan_gain_not_a_crash():
    assert feedback_gain(dict(S_open=0.002, S_feedback=0.03)) == 15.0
    for s in (dict(S_open=None, S_feedback=0.03), dict(S_open=0.002, S_feedback=None), dict(S_open=0.0, S_feedback=1.0)):
        assert math.isnan(feedback_gain(s))
    assert mm(None) is None and mm(0.002) == 2.0
    g = [feedback_gain(dict(S_open=None, S_feedback=0.03)), 0.5]
    assert judge(g, [Range(1.1), Range(hi=1.0)], None, Tol())[2] == DISAGREE
