"""engine=warp (MuJoCo Warp, extra .[gpu]) against the C engine, on Warp's CPU device.

Every comparison states its tolerance first (scripts/warp_agreement.py TOL: |warp - C| <= abs +
rel*|C|; MuJoCo Warp computes in float32).  The tests needing MuJoCo Warp skip cleanly when it is
not installed; the refusal tests run either way.
"""
from __future__ import annotations

import importlib.util
import sys
import pathlib

import pytest

from envs.core import batch
from envs.core.errors import ConfigError

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import warp_agreement as wa  # noqa: E402

HAVE_WARP = importlib.util.find_spec("mujoco_warp") is not None
needs_warp = pytest.mark.skipif(not HAVE_WARP, reason="mujoco_warp not installed (pip install -e \".[gpu]\" "
                                                      "-c constraints.txt)")


def _cfg(*overrides):
    from envs.core import config
    return config.compose(list(overrides))


def test_warp_engine_is_refused_cleanly_for_a_closed_loop_robot_or_without_the_extra():
    from envs.core import config
    cfg = _cfg("robot=bolt", "experiment=bolt_speed_sweep", "engine=warp")
    with pytest.raises(ConfigError, match="engine='warp'"):
        config.validate(cfg)
    with pytest.raises(ConfigError, match="engine='nope'"):
        config.validate(_cfg("engine=nope"))
    crawler = _cfg("robot=crawler", "experiment=crawler_psi_omega_map", "engine=warp", "run.device=cpu")
    if HAVE_WARP:                  # offered to every robot whose features MuJoCo Warp supports
        from envs.core.experiment import run_kw
        assert config.validate(crawler)["engine"] == "warp"
        assert run_kw(crawler)["engine"] == "warp" and run_kw(crawler)["device"] == "cpu"
    else:                          # without the extra: the install line, before anything runs
        with pytest.raises(ConfigError, match=r"\.\[gpu\]"):
            config.validate(crawler)


@needs_warp
def test_two_worlds_with_two_frictions_give_the_two_single_c_runs():
    """A batch of two worlds differing only in mu (a per-world pair_friction) reproduces each
    single C run (S, V and the contact fractions, TOL) and the two worlds really differ."""
    from envs.crawler.robot import Crawler
    pts = [dict(omega=16.0, mu=0.172), dict(omega=16.0, mu=0.398)]
    kw = dict(cycles=1, stop_when_steady=False, chunk=1000)
    warp = batch.run_points(pts, Crawler, engine="warp", device="cpu", **kw)       # one batch, two worlds
    single = [batch.run_point(p, Crawler, **kw) for p in pts]                        # the C engine, one by one
    S = []
    for w, c in zip(warp, single):
        assert w.problem is None and c.problem is None
        sw, sc = w.robot.summarize(w), c.robot.summarize(c)
        for k in ("S", "V", "foot1_slip_forward", "foot2_slip_forward", "foot1_stick", "foot2_stick"):
            assert wa.within(k, sc[k], sw[k]), (k, sc[k], sw[k], wa.TOL[k])
        assert abs(w.max_penetration - c.max_penetration) <= 2e-5 + 0.1 * c.max_penetration
        S.append((sc["S"], sw["S"]))
    a, r = wa.TOL["S"]
    assert abs(S[0][1] - S[1][1]) > 10 * (a + r * abs(S[0][0])), S      # the frictions really differ per world


@needs_warp
def test_warp_engine_through_the_sweep_store(tmp_path):
    """engine=warp through the resumable loop: the declared columns, stored under engine `warp`,
    reused on a rerun, never reused for engine=mujoco."""
    from envs.core import sweep as sw
    from envs.crawler.robot import Crawler
    robots = [Crawler(omega=16.0, mu=m) for m in (0.172, 0.398)]
    kw = dict(cycles=1, stop_when_steady=False, chunk=1000)
    rows, st = sw.run_rows(robots, tmp_path, key=["mu"], engine=sw.batch_engine(dict(kw, engine="warp",
                                                                                    device="cpu")), progress=False)
    assert st["computed"] == 2 and not st["failed_points"]
    assert list(rows[0]) == sw.columns_of(Crawler, ["mu"])
    _, again = sw.run_rows(robots[:1], tmp_path, key=["mu"], engine=sw.batch_engine(dict(kw, engine="warp",
                                                                                        device="cpu")), progress=False)
    assert again["reused"] == 1
    _, c = sw.run_rows(robots[:1], tmp_path, key=["mu"], engine=sw.batch_engine(kw), progress=False)
    assert c["computed"] == 1 and c["recomputed"] == {"run settings changed": 1}


@needs_warp
@pytest.mark.slow
@pytest.mark.parametrize("robot", ["crawler"] + [pytest.param(r, marks=pytest.mark.xfail(strict=True, reason=why))
                                   for r, why in (("snake", "open: dx, V differ by up to 0.5 % (TOL 0.1 %), README"),
                                                  ("miniaq", "open: yaw rate, lateral drift beyond TOL, README"))])
def test_small_sweep_agrees_with_the_c_engine(robot):
    """Each robot's small sweep (scripts/warp_agreement.py SWEEPS, 2 cycles) within TOL."""
    rows, *_ = wa.compare(robot, device="cpu")
    bad = [r for r in rows if not r[-1]]
    assert rows and not bad, bad
