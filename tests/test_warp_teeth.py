"""The teeth of scripts/warp_agreement.py's criterion (scripts/warp_diagnostics.py, rule v2 in its
docstring; C engine only, no warp needed): at every agreement point (SWEEPS) a rerun of the same world
(split differently: RERUN) passes and the probe world -- the swept parameter x 1.1, or where that
parameter moves the progress metric by less than its floor (R2) the point's least-acting other
parameter that moves it by at least 2 floors -- FAILs the progress metric; the points where it cannot
are listed in NO_TEETH with their measured reason, and must then still fail to catch it (a fixed point
has to leave the list)."""
from __future__ import annotations

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import warp_agreement as wa  # noqa: E402
import warp_diagnostics as diag  # noqa: E402


def _points(robot):
    base, name, vals, _ = wa.SWEEPS[robot]
    return [f"{name}={v}" for v in vals]


def test_probe_rule_keeps_the_swept_parameter_unless_it_moves_progress_below_its_floor():
    """choose_probe, on moves in floors: the swept parameter where it moves every metric by >= 1 floor
    (even inside a wide envelope: R3, nothing substituted); else the candidate moving every metric by
    >= 2 floors with the smallest move; else None (no teeth)."""
    cp = diag.choose_probe
    assert cp("mu", {"mu": {"S": 1.0, "V": 30.0}, "omega": {"S": 5.0, "V": 5.0}}) == "mu"
    assert cp("mu_d", {"mu_d": {"speed": 1.3}}) == "mu_d"                      # MinIAQ-II: R3, kept
    bolt = {"tau_max": {"speed": 0.099}, "crank_period": {"speed": 77.0}, "P_max": {"speed": 6.6}}
    assert cp("tau_max", bolt) == "P_max"                                      # the least-acting that acts
    assert cp("tau_max", dict(bolt, P_max={"speed": 1.99})) == "crank_period"   # under 2 floors: not a probe
    assert cp("mu", {"mu": {"S": 0.8, "V": 0.96}, "omega": {"S": 0.45, "V": 27.0}}) is None   # every metric
    assert cp("mu", {"mu": {"S": 0.5}}) is None                                # no other parameter


def test_every_agreement_point_has_a_progress_metric_and_every_no_teeth_entry_is_one():
    """Every robot of SWEEPS has TEETH_METRIC entries that the criterion compares (TOL); NO_TEETH names
    only points of SWEEPS, each with its reason."""
    assert set(diag.TEETH_METRIC) == set(wa.SWEEPS)
    assert all(m in wa.TOL for ms in diag.TEETH_METRIC.values() for m in ms)
    pts = {(r, p) for r in wa.SWEEPS for p in _points(r)}
    assert set(diag.NO_TEETH) <= pts and all(diag.NO_TEETH.values())


def _check(robot):
    out = diag.teeth(robot)
    assert [t["point"] for t in out] == _points(robot)
    for t in out:
        assert t["same"], t                                       # a rerun of the same world passes
        assert t["caught"] is ((robot, t["point"]) not in diag.NO_TEETH), t
    return {t["point"]: t for t in out}


def test_teeth_at_bolts_miniaqs_and_the_crawlers_agreement_points():
    """The rule on the three cheap robots (C engine, ~6 s; the crawler caught on mu at both points).  BOLT: tau_max 15 is caught on tau_max
    itself; at tau_max 20 the flight limit acts only in a short spike (speed moves 0.1 floor under
    x 1.1), so R2 probes P_max (its least-acting other parameter that acts), which is caught.
    MinIAQ-II: mu_d x 1.1 moves speed above its floor but inside the chaotic envelope at both points:
    NO_TEETH (R3: nothing substituted)."""
    b = _check("bolt")
    assert b["tau_max=15.0"]["probe"] == "tau_max"
    t20 = b["tau_max=20.0"]
    assert t20["moved"]["tau_max"]["speed"] < 1 and t20["probe"] == "P_max", t20
    m = _check("miniaq")
    assert all(t["probe"] == "mu_d" and t["moved"]["mu_d"]["speed"] >= 1 for t in m.values()), m
    c = _check("crawler")                                  # 1 cycle (TEETH_CYCLES), < 1 s
    assert all(t["probe"] == "mu" for t in c.values()), c


def test_the_same_world_rerun_is_split_differently_and_fails_on_another_world(monkeypatch):
    """Rule (1) can fail: its rerun is not reference()'s call repeated (the deterministic C engine would
    always pass that) but the same points in reverse order, at RERUN's chunk and one thread; and a
    rerun that returned another world (mu x 1.1) is not the same world.  Crawler, 1 cycle: ~2 s."""
    from gaittwin.core.engines import batch
    calls, run_points = [], batch.run_points

    def spy(points, *a, **kw):
        calls.append(([getattr(p, "mu", None) if not isinstance(p, dict) else p.get("mu") for p in points],
                      kw.get("chunk"), kw.get("nthread")))
        return run_points(points, *a, **kw)
    monkeypatch.setattr(batch, "run_points", spy)
    assert all(t["same"] for t in diag.teeth("crawler"))
    nominal, rerun = calls[0], [c for c in calls if c[1:] == (diag.RERUN["chunk"], diag.RERUN["nthread"])]
    assert nominal == ([0.172, 0.398], 1000, None) and rerun == [([0.398, 0.172], 257, 1)], calls
    monkeypatch.setattr(batch, "run_points", run_points)
    monkeypatch.setattr(diag, "rerun", lambda pts, cls, kw: run_points(
        [dict(p, mu=diag.TEETH * p["mu"]) for p in pts], cls, **kw))
    assert not any(t["same"] for t in diag.teeth("crawler"))


@pytest.mark.slow
@pytest.mark.parametrize("robot", ["crawler_feedback", "snake"])
def test_teeth_at_every_other_robots_agreement_points(robot):
    """The same for the rest of SWEEPS (C engine; ~25 s each): every point caught on its swept
    parameter unless listed in NO_TEETH."""
    assert all(t["probe"] == wa.SWEEPS[robot][1] for t in _check(robot).values())
