"""Frozen row definitions of the fidelity report (envs/core/report/definition.py): a row's definition cannot change
without a record, superseded rows keep their last verdict, kinds are declared, and every validation row is reached
by a twin mutation or says why not.  No physics (seconds)."""
from __future__ import annotations

import json
import pathlib

import pytest

from gaittwin.core.report import mutation
from gaittwin.core.report import report as fidelity
from gaittwin.core.report.definition import Definition, Relabel, bind
from gaittwin.core.report.verdict import (AGREE, CALIBRATION, CONSISTENCY, DISAGREE, KINEMATIC, SUPERSEDED, VALIDATION,
                                          Row, Tol)

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"
MODULES = fidelity.claim_modules()


@pytest.mark.parametrize("robot", sorted(MODULES))
def test_a_definition_changes_only_with_its_record(robot):
    """REGISTERED holds each definition's hash and kind: a changed quantity, target, tolerance or reference needs a
    new id (the old one in SUPERSEDED), a changed kind a Relabel; nothing registered disappears."""
    mod = MODULES[robot]
    live = {d.id: d for d in mod.DEFINITIONS}
    old = {s.id: s for s in mod.SUPERSEDED}
    assert len(live) == len(mod.DEFINITIONS) and not set(live) & set(old)
    for d in [*live.values(), *(s.definition for s in old.values())]:
        assert d.id in mod.REGISTERED, f"{d.id}: not registered (a new row: add it to REGISTERED)"
        h, kind = mod.REGISTERED[d.id]
        assert d.hash == h, (f"{d.id}: its definition changed ({h} -> {d.hash}); give the new definition a new id "
                             f"(replaces={d.id!r}) and move this one to SUPERSEDED with its last verdict")
        assert d.kind == kind, f"{d.id}: kind {kind} -> {d.kind} without a Relabel naming the old kind"
        if d.relabel:
            assert d.relabel.before != d.kind and d.relabel.why
    assert set(mod.REGISTERED) == set(live) | set(old), "a registered definition was removed without a record"
    for s in old.values():
        assert s.by in live or s.by in old, s.id
        assert s.last["full"].verdict in (AGREE, DISAGREE) and s.last["full"].where and s.why
    for d in live.values():
        if d.replaces:
            assert d.replaces in old and old[d.replaces].by == d.id, d.id


def test_ids_are_unique_across_robots():
    ids = [d.id for m in MODULES.values() for d in m.DEFINITIONS] + [s.id for m in MODULES.values() for s in m.SUPERSEDED]
    assert len(ids) == len(set(ids))


def test_the_hash_covers_the_meaning_not_the_kind():
    tol = Tol(0.05, 0, "half a unit")
    a = Definition("X", VALIDATION, "speed", "1.3", tol)
    assert a.hash == Definition("X", KINEMATIC, "speed", "1.3", tol, relabel=Relabel(VALIDATION, "v4", "w")).hash
    for other in (Definition("X", VALIDATION, "speed ", "1.3", tol), Definition("X", VALIDATION, "speed", "1.4", tol),
                  Definition("X", VALIDATION, "speed", "1.3", Tol(0.05, 0, "half a unit!")),
                  Definition("X", VALIDATION, "speed", "1.3", Tol(0.06, 0, "half a unit")),
                  Definition("X", VALIDATION, "speed", "1.3", tol, "the paper model")):
        assert other.hash != a.hash


def test_bind_refuses_a_row_that_is_not_its_definition():
    tol = Tol(0.05, 0, "half a unit")
    d = {"X": Definition("X", VALIDATION, "speed", "1.3", tol, uses="a bumper")}
    r = bind([Row("X", "c", "s", "p", value=1.3, target=1.3, tol=tol)], d)[0]
    assert r.definition is d["X"] and r.history.startswith("definition ") and "reference model: a bumper" in r.reason
    with pytest.raises(ValueError, match="no declared definition"):
        bind([Row("Y", "c", "s", "p", value=1.3, target=1.3, tol=tol)], d)
    with pytest.raises(ValueError, match="kind"):
        bind([Row("X", "c", "s", "p", kind=CONSISTENCY, value=1.3, target=1.3, tol=tol)], d)
    with pytest.raises(ValueError, match="tolerance"):
        bind([Row("X", "c", "s", "p", value=1.3, target=1.3, tol=Tol(0.1))], d)


def test_the_kinds_of_v4():
    """Geometry rows are kinematic, rows true by symmetry or construction consistency, a row whose target a
    physics choice was tuned on calibration; each says so in its Relabel."""
    defs = fidelity.definitions()
    want = {**{k: KINEMATIC for k in ("B12", "B13", "B14", "B15", "B16")}, "M15": CONSISTENCY, "M16": CONSISTENCY,
            "C1": CONSISTENCY, "M9": CALIBRATION}
    assert {k: defs[k].kind for k in want} == want
    assert all(defs[k].relabel.before == VALIDATION and defs[k].relabel.version == fidelity.VERSION for k in want)
    assert "contact" in defs["M9"].relabel.why and "0.0679" in defs["M9"].relabel.why
    assert defs["B6c"].uses and defs["B6d"].uses and "bumper" in defs["B6c"].uses and "Painleve" in defs["B6c"].uses


def test_b7_c14_keep_their_history():
    old = {s.id: s for s in fidelity.superseded()}
    assert old["B7"].by == "B7.2" and old["B7.2"].by == "B7.3" and old["C14"].by == "C14.2"
    assert old["B7"].last["full"].verdict == DISAGREE and old["B7.2"].last["full"].verdict == AGREE
    assert old["C14"].last["full"].twin == "16.8828" and "normalized by the maximal S" in old["C14"].why
    rows = fidelity.with_superseded([Row("B7.3", "c", "s", "p", value=1.0, target=1.0, tol=Tol(0.1))],
                                    list(old.values()), reduced=False)
    assert [r.id for r in rows] == ["B7.3", "B7.2", "B7"]
    assert all(r.verdict == SUPERSEDED and "last verdict" in r.history for r in rows[1:])
    assert fidelity.counts(rows)[SUPERSEDED] == 2 and fidelity.counts(rows)[VALIDATION] == 1


def test_b7_gait_filter_is_stated_before_the_speed():
    from gaittwin.bolt.paper.claims_speed import b7_failures
    ok = dict(touchdowns_per_revolution=1.0, max_tracking_error_deg=12.0, error="", converged=True, limits_ok=True)
    assert b7_failures(ok) == []
    assert b7_failures(dict(ok, touchdowns_per_revolution=0.26)) == ["not one touch-down per revolution"]
    assert b7_failures(dict(ok, max_tracking_error_deg=252.0)) == ["tracking error over 30 deg"]
    assert b7_failures(dict(ok, touchdowns_per_revolution=float("nan"), converged=False)) == [
        "not one touch-down per revolution", "not converged"]


def test_counts_print_their_change_since_the_previous_version():
    tol = Tol(0.1)
    rows = [Row("A", "c", "s", "p", value=1.0, target=1.0, tol=tol),
            Row("B", "c", "s", "p", kind=KINEMATIC, value=1.0, target=1.0, tol=tol)]
    text = "\n".join(fidelity.summary_tables([("r", "t", rows)], rows, ("v3", {"r": {VALIDATION: 2, AGREE: 2}})))
    assert "| r | 1 (-1) | 1 (-1) | 0 (=) | 0 (=) |" in text and "| all | 1 (-1) |" in text
    assert "change since v3" in text


@pytest.mark.parametrize("name", ["fidelity_report_reduced.json", "fidelity_report.json"])
def test_every_validation_row_is_covered_by_a_mutation_or_says_why(name):
    """The report's mutation-coverage table: each validation row is flipped by a declared mutation (measured on the
    reduced grids) or listed in its robot's UNCOVERED with the reason, not both; flips name live validation rows."""
    path = DOCS / name
    recs = json.loads(path.read_text())
    if not any(r.get("verdict") == SUPERSEDED for r in recs):
        pytest.skip(f"{name} predates the v4 definitions: regenerate it")
    val = {r["id"] for r in recs if r["kind"] == VALIDATION and r["verdict"] != SUPERSEDED}
    flipped = {k for m in mutation.registry().values() for k in m.flips or {}}
    reasons = fidelity.uncovered()
    assert flipped <= {d.id for d in fidelity.definitions().values() if d.kind == VALIDATION}
    assert not flipped & set(reasons), flipped & set(reasons)
    missing = sorted(val - flipped - set(reasons))
    assert not missing, f"validation rows neither flipped by a mutation nor listed as uncovered: {missing}"
    assert all(reasons[k] for k in val & set(reasons))
