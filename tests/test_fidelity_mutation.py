"""Every judged claim of the fidelity report can fail (and a failing one can pass): mutation test.

No simulation: the report writes, next to each report, the fields every verdict read
(docs/fidelity_report*.json: the twin's value, the paper's target, the reference's value, the
tolerance).  For each judged row (kinds validation, calibration, consistency) the verdict is
recomputed with `gaittwin.core.report.verdict.rejudge` (the one function the report uses) and must equal the
committed one; then the twin's value is perturbed by a generic mutation and the verdict must change:

- an `agrees` row must turn `disagrees` under one of: x 0.5, sign flip, a shift past its tolerance;
- a `disagrees` row must turn `agrees` when the twin's value is moved onto the paper's target (or the
  reference's value), unless the reference itself disagrees with the paper beyond the tolerance; such a
  row can never agree, and its `reason` must say why.
"""
from __future__ import annotations

import json
import math
import pathlib

import pytest

from gaittwin.core.report import report as fidelity
from gaittwin.core.report.verdict import AGREE, DISAGREE, JUDGED, Range, Tol, decode, judge, rejudge

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
RECORDS = [p for p in (DOCS / "fidelity_report_reduced.json", DOCS / "fidelity_report.json") if p.exists()]


def _flat(x):
    if isinstance(x, dict):                     # a Range: its finite bounds
        return [v for v in x.values() if v is not None]
    return [v for e in x for v in _flat(e)] if isinstance(x, list) else [x]


def _map(x, f):
    return [_map(e, f) for e in x] if isinstance(x, list) else f(x)


def _onto(target, value):
    """The twin value moved onto a target (a Range: its nearest finite point inside)."""
    if isinstance(value, list) and not isinstance(target, list):
        return [_onto(target, v) for v in value]
    if isinstance(target, list):
        t = target * len(value) if len(target) == 1 and isinstance(value, list) else target
        return [_onto(a, b) for a, b in zip(t, value if isinstance(value, list) else [value] * len(t))]
    if isinstance(target, Range):
        lo = target.lo if math.isfinite(target.lo) else min(target.hi, value)
        hi = target.hi if math.isfinite(target.hi) else max(lo, value)
        return min(max(value, lo), hi)
    return target


def mutations(rec) -> list:
    """(name, mutated value) of the generic mutations of a record's twin value (the shift: past every
    number the verdict reads, so past any bounded acceptance region)."""
    v = rec["value"]
    big = 2 * (1 + sum(abs(float(z)) for z in _flat([v, rec["target"], rec["ref"]]) if isinstance(z, (int, float)))
               + (rec["tol"] or {}).get("abs", 0))
    if rec["verdict"] == AGREE:
        return [("x 0.5", _map(v, lambda z: 0.5 * z)), ("sign flip", _map(v, lambda z: -z)),
                ("shift +", _map(v, lambda z: z + big)), ("shift -", _map(v, lambda z: z - big))]
    out = []
    for name, t in (("onto paper", decode(rec["target"])), ("onto reference", decode(rec["ref"]))):
        if t is not None:
            out.append((name, _onto(t, v)))
    return out


def _records(path):
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_judged_claim_is_falsifiable(path):
    recs = _records(path)
    md = fidelity.parse_report(path.with_suffix(".md").read_text())
    assert [r["id"] for r in recs] == list(md), "the .json and .md of a report list the same rows"
    judged = [r for r in recs if r["kind"] in JUDGED and r["verdict"] in (AGREE, DISAGREE)]
    assert len(judged) >= 60
    stuck, conflicts = [], []
    for rec in judged:
        assert rejudge(rec) == rec["verdict"] == md[rec["id"]]["verdict"], rec["id"]
        flips = [name for name, m in mutations(rec) if rejudge(rec, m) != rec["verdict"]]
        if flips:
            continue
        t = rec["tol"]
        ref_vs_paper = judge(decode(rec["ref"]), decode(rec["target"]), None,
                             Tol(t["abs"], t["rel"], combine=t.get("combine", "sum")))[2] \
            if rec["ref"] is not None and rec["target"] is not None else None
        if rec["verdict"] == DISAGREE and ref_vs_paper == DISAGREE:
            conflicts.append(rec["id"])          # the paper's own model contradicts the paper
            assert md[rec["id"]]["reason"] not in ("", "–"), f"{rec['id']}: say why it can never agree"
        else:
            stuck.append(rec["id"])
    assert not stuck, f"claims whose verdict no mutation of the twin value changes: {stuck}"
    print(f"\n{path.name}: {len(judged)} judged claims, all falsifiable; "
          f"{len(conflicts)} disagree with the paper together with the reference model: {conflicts}")


def test_judge():
    tol = Tol(1.0, 0.1)
    assert judge(10.0, 10.5, None, tol)[2] == AGREE
    assert judge(10.0, 12.5, None, tol)[2] == DISAGREE            # 2.5 > 1 + 0.1 * 12.5
    assert judge(10.0, 10.0, 12.5, tol)[2] == DISAGREE            # the reference must agree too
    assert judge(-0.1, Range(0.0), None, tol)[2] == DISAGREE      # a range's bounds are exact
    assert judge([1.0, 2.0], [1.0], None, Tol())[2] == DISAGREE   # element by element
    assert judge([1.0, 2.0], None, [1.0], Tol())[2] == DISAGREE   # a length mismatch never agrees
    assert judge([1.0, 2.0], None, [1.0, 2.5], Tol(0.5))[2] == AGREE
    assert judge(None, 1.0, None, tol)[2] == fidelity.NO_DATA
    with pytest.raises(ValueError):
        judge(1.0, None, None, tol)
