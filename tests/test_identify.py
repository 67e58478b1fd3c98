"""Issue #27: trajectory format (envs/core/analysis/trajectory.py) and identification (envs/core/analysis/identify.py).

Every fit here is calibration, not validation: synthetic data written by the twin at hidden values
(1 % noise, a random time offset), fitted by the same twin.  Tolerances are stated before comparing:
the issue's 3 % on each identifiable parameter; the time offset within one sample interval.
CI: crawler (omega = 5 rad/s, 2 cycles), a small snake (N = 4, n = 2, T_step 0.25 s, coarse
timestep: the data and the fit use the same twin), BOLT and MinIAQ-II one parameter over 1 cycle; the
full recoveries (two or three parameters) are `slow`."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from gaittwin.core.runs import config
from gaittwin.core.analysis import trajectory as tj
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.runs.experiment import run
from tests.util import ROOT, assert_fails_early

TOL_REL = 0.03          # the recovery target, per identifiable parameter
CRAWLER = ["robot.omega=5"]
SNAKE = ["robot.N=4", "robot.n=2", "robot.T_step=0.25", "robot.timestep=1.25e-4"]


def _write(out, robot, base, hidden, cycles=2, noise=0.01, offset="null", seed=1):
    out.mkdir(parents=True, exist_ok=True)
    cfg = config.compose([f"experiment={robot}_trajectory", *base, *hidden, f"experiment.cycles={cycles}",
                          f"experiment.noise_rel={noise}", f"experiment.time_offset={offset}",
                          f"experiment.seed={seed}", "run.progress=false"])
    return run(cfg, out)


def _identify(out, robot, base, data, *extra):
    cfg = config.compose([f"experiment={robot}_identify", *base, f"experiment.data={data}", "run.progress=false",
                          *extra])
    return run(cfg, out)


@pytest.fixture(scope="module")
def crawler_data(tmp_path_factory):
    d = tmp_path_factory.mktemp("crawler_data")
    s = _write(d, "crawler", CRAWLER, ["robot.mu=0.2", "robot.m0=0.22"])
    return d / "trajectory.csv", s


def test_trajectory_format(crawler_data):
    """trajectory.csv: t first (s), one column per declared channel, SI units in the sidecar; the reader
    takes it back unchanged; the sidecar says it is synthetic, with its offset and noise."""
    path, s = crawler_data
    import gaittwin
    robot = gaittwin.robot_class("crawler")(omega=5.0)
    data = tj.read(path, robot)
    meta = json.loads(tj.sidecar_path(path).read_text())
    assert data.names == list(tj.channels(robot)) == ["x", "z", "theta", "phi1", "phi2", "contact1", "contact2"]
    assert meta["units"] == {"t": "s", "x": "m", "z": "m", "theta": "rad", "phi1": "rad", "phi2": "rad",
                             "contact1": "1", "contact2": "1"}
    assert meta["synthetic"]["noise_rel"] == 0.01 and 0 <= meta["synthetic"]["time_offset"] < robot.period
    assert len(data.t) == s["samples"] and set(np.unique(data.values["contact1"])) <= {0.0, 1.0}
    assert np.all(np.diff(data.t) > 0) and data.t[-1] - data.t[0] >= robot.period


def _mutate(src, dst, case):
    """A copy of the trajectory src (csv + sidecar) in dst, damaged as `case` says; the expected reason."""
    csv_ = (src.read_text().splitlines())
    meta = json.loads(tj.sidecar_path(src).read_text())
    head, rows = csv_[0].split(","), [r.split(",") for r in csv_[1:]]
    why = {"missing sidecar": "sidecar", "unknown column": "unknown column", "missing t": "not 't'",
           "NaN": "NaN", "empty cell": "not a number", "duplicated time": "duplicated time",
           "non-monotonic time": "not monotonic", "sparse sampling": "sampling below the gait",
           "unit mismatch": "unit mismatch", "too short": "too short for one cycle"}[case]
    if case == "unknown column":
        head.append("foo")
        rows = [r + ["1.0"] for r in rows]
        meta["units"]["foo"] = "m"
    elif case == "missing t":
        head, rows = head[1:], [r[1:] for r in rows]
    elif case == "NaN":
        rows[5][2] = "nan"
    elif case == "empty cell":
        rows[5][2] = ""
    elif case == "duplicated time":
        rows[6][0] = rows[5][0]
    elif case == "non-monotonic time":
        rows[5][0], rows[6][0] = rows[6][0], rows[5][0]
    elif case == "sparse sampling":
        rows = rows[::15]
    elif case == "unit mismatch":
        meta["units"]["theta"] = "deg"
    elif case == "too short":
        rows = rows[:60]
    p = dst / "trajectory.csv"
    p.write_text("\n".join(",".join(r) for r in [head] + rows) + "\n")
    if case != "missing sidecar":
        tj.sidecar_path(p).write_text(json.dumps(meta))
    return p, why


BAD = ["missing sidecar", "unknown column", "missing t", "NaN", "empty cell", "duplicated time", "non-monotonic time",
       "sparse sampling", "unit mismatch", "too short"]


@pytest.mark.parametrize("case", BAD)
def test_bad_data_is_refused_before_anything_is_written(crawler_data, tmp_path, case):
    """Each bad file: one ConfigError naming experiment.data and why, and the run directory stays empty."""
    d = tmp_path / "data"
    d.mkdir()
    path, why = _mutate(crawler_data[0], d, case)
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ConfigError, match=why) as e:
        _identify(out, "crawler", CRAWLER, path)
    assert str(e.value).startswith("experiment.data=") and "\n" not in str(e.value)
    assert list(out.iterdir()) == []


def test_missing_channel_and_bad_params_are_refused(crawler_data, tmp_path):
    path = crawler_data[0]
    with pytest.raises(ConfigError, match="experiment.channels"):
        _identify(tmp_path, "crawler", CRAWLER, path, "experiment.channels=[x,nope]")
    with pytest.raises(ConfigError, match="experiment.params"):
        _identify(tmp_path, "crawler", CRAWLER, path, "experiment.params=[mu,psi]")
    with pytest.raises(ConfigError, match="experiment.bounds.mu"):
        _identify(tmp_path, "crawler", CRAWLER, path, "+experiment.bounds.mu=[0.1,6]")
    assert list(tmp_path.iterdir()) == []


def test_a_trajectory_fit_refuses_ray_and_a_table_fit_takes_it(crawler_data, tmp_path, monkeypatch):
    """run.launcher=ray: a trajectory fit's candidates are recorded and scored in this process, so it is refused
    (one ConfigError naming run.launcher, nothing written) rather than run locally in silence; a per-cycle table
    fit builds (its candidates go through the batch path's Ray engine).  Ray itself is not needed: its presence is
    faked for the config check, and nothing is simulated."""
    import importlib.util

    from gaittwin.core.analysis import cycle_table
    from gaittwin.core.analysis.identify import problem_of
    from gaittwin.core.analysis.identify_cycles import CycleProblem
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: object() if name == "ray" else real(name, *a))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ConfigError, match="run.launcher") as e:
        _identify(out, "crawler", CRAWLER, crawler_data[0], "run.launcher=ray")
    assert str(e.value).startswith("run.launcher='ray'") and list(out.iterdir()) == []
    cycle_table.write(tmp_path / "table.csv", "crawler", {"omega": [5.0, 6.0], "S": [0.01, 0.012]},
                      {"omega": "rad/s", "S": "m"}, source="test: ray")
    cfg = config.compose(["experiment=crawler_identify", *CRAWLER, f"experiment.data={tmp_path / 'table.csv'}",
                          "experiment.params=[mu]", "run.launcher=ray", "run.progress=false"])
    p, _, _ = problem_of(cfg, out)
    assert isinstance(p, CycleProblem) and p.base_engine.simulate.__module__ == "gaittwin.core.engines.ray_runner"


def test_the_landscape_study_builds_the_runners_fit(tmp_path):
    """scripts/studies/identify_landscape.py's fit is the runner's (identify.problem_of: the same channels and search
    box); at the hidden values its cost is the data's 1 % noise, 5 channels x 1e-4 = 5e-4 (tolerance: a factor
    2 either way, stated first), and 10 % off them it is higher (crawler, 1 cycle, ~5 s)."""
    import sys

    from gaittwin.core.analysis.identify import search_box
    sys.path.insert(0, str(ROOT / "scripts" / "studies"))
    import identify_landscape as study
    p, x = study.problem(tmp_path, "crawler", 1, None)
    lo, hi = search_box(p.cls, p.names, p.nominal.cfg, {})
    assert p.names == ["mu", "m0"] and p.channels == ["x", "z", "theta", "phi1", "phi2"]
    assert np.array_equal(p.lo, lo) and np.array_equal(p.hi, hi)
    truth, off = [r["cost"] for r in p.evaluate([x, 1.1 * x])]
    assert 2.5e-4 <= truth <= 1e-3 and off > truth


def test_bad_data_exits_2_and_leaves_no_run_dir(crawler_data, tmp_path):
    """Through scripts/run.py: a NaN in the data is exit code 2, one line naming experiment.data, no run dir."""
    d = tmp_path / "data"
    d.mkdir()
    path, _ = _mutate(crawler_data[0], d, "NaN")
    assert_fails_early(tmp_path, "experiment.data", "experiment=crawler_identify", *CRAWLER,
                       f"experiment.data={path}", text="NaN")


def test_check_only_names_the_flat_direction(crawler_data, tmp_path):
    """At the nominal point, mu moves x strongly (identifiable at 1 % noise); the contact's impratio barely
    moves anything: not identifiable, and named in a flat direction.  Nothing is fitted."""
    s = _identify(tmp_path, "crawler", CRAWLER, crawler_data[0], "experiment.check_only=true",
                  "experiment.params=[mu,impratio]")
    assert s["mode"] == "check_only" and s["identifiable"] == {"mu": True, "impratio": False}
    assert s["most_sensitive_channel"]["mu"] == "x"
    assert any("impratio" in f["direction"] for f in s["flat_directions"])
    assert not any("mu" in f["components"] and abs(f["components"]["mu"]) > 0.2 for f in s["flat_directions"])
    assert (tmp_path / "identifiability.csv").exists() and not (tmp_path / "fit.csv").exists()


def test_crawler_recovers_mu_and_m0(crawler_data, tmp_path):
    """Hidden mu = 0.2, m0 = 0.22 (nominal 0.172, 0.194), 2 cycles, 1 % noise, random offset: both within 3 %,
    both identifiable; the time offset within one sample; a rerun into the same directory reuses every
    stored candidate (the local stage re-simulates only for residual vectors) and gives the same fit."""
    path, s = crawler_data
    extra = ("experiment.n_global=12", "experiment.max_nfev=8", "experiment.starts=1")
    f = _identify(tmp_path, "crawler", CRAWLER, path, *extra)
    for k, true in (("mu", 0.2), ("m0", 0.22)):
        assert abs(f["fitted"][k] / true - 1) <= TOL_REL, (k, f["fitted"][k])
        assert f["identifiable"][k], (k, f["rel_sd"])
    dt = 2 * np.pi / 5 / 200
    assert abs(f["time_offset"] - s["synthetic_time_offset"]) <= dt
    for name in ("fit.csv", "fitted_trajectory.csv", "identify.png", "candidates.csv", "summary.json"):
        assert (tmp_path / name).exists(), name
    assert "calibration, not validation" in f["note"]
    assert f["misfit_channels"] == [] and all(q <= 2 for q in f["misfit_ratio"].values()), f["misfit_ratio"]
    again = _identify(tmp_path, "crawler", CRAWLER, path, *extra)
    assert again["reused"] == again["evaluations"] and again["fitted"] == f["fitted"]


@pytest.mark.slow      # about 40 s on 2 cores; the crawler, BOLT and MinIAQ-II fits run in CI
def test_snake_recovers_T_step(tmp_path):
    """A small snake (N = 4, n = 2): hidden T_step = 0.26 s (nominal 0.25 s), 1 cycle, 1 % noise, random
    offset: within 3 %, identifiable (the step time sets the joints' timing)."""
    d = tmp_path / "data"
    _write(d, "snake", SNAKE, ["robot.T_step=0.26"], cycles=1)
    f = _identify(tmp_path / "fit", "snake", SNAKE, d / "trajectory.csv", "experiment.params=[T_step]",
                  "experiment.n_global=3", "experiment.max_nfev=8", "experiment.starts=1")
    assert abs(f["fitted"]["T_step"] / 0.26 - 1) <= TOL_REL and f["identifiable"]["T_step"], f["fitted"]


def test_bolt_recovers_m_5(tmp_path):
    """BOLT's tibia mass m_5 (nominal 0.9754 kg): hidden 1.02 kg, 1 cycle, 1 % noise, random offset: within 3 %,
    claimed only with its sd, widened by the cost's teeth, at most 1 %.  BOLT's cost is jagged (contact events): its
    teeth are measured above the noise, so its sd is wider than the noise alone gives (measured: +0.19 %, sd 3.5 %,
    0.1 % from the noise alone; not claimed).  The default local stage: one least-squares fit from each of the
    distinct global candidates (here two of the three: the hypercube's point 1.0219 lies within DISTINCT of the box
    of the nominal 0.9754), the lowest final cost kept.  Disclosed: that hypercube point is 0.19 % from the hidden
    value by chance and the local stage stays there; the slow test is the recovery that does not lean on it."""
    d = tmp_path / "data"
    _write(d, "bolt", ["robot.m_5=0.9754"], ["robot.m_5=1.02"], cycles=1)
    f = _identify(tmp_path / "fit", "bolt", ["robot.m_5=0.9754"], d / "trajectory.csv", "experiment.params=[m_5]",
                  "experiment.n_global=2", "experiment.max_nfev=8")
    from gaittwin.core.analysis.identify import DISTINCT
    assert abs(f["fitted"]["m_5"] / 1.02 - 1) <= TOL_REL, f["fitted"]
    assert f["teeth_over_noise"] > 1 and f["rel_sd"]["m_5"] > f["rel_sd_noise"]["m_5"], f
    # a claim is never wrong: claimed only within 3 sd (sd <= 1 %) of the hidden value; measured here: not claimed
    assert not f["identifiable"]["m_5"], f
    starts, span = f["local_starts"], f["search_box"]["m_5"][1] - f["search_box"]["m_5"][0]
    m = sorted(s["start"]["m_5"] for s in starts)
    assert len(starts) >= 2 and all(b - a > DISTINCT * span for a, b in zip(m, m[1:])), starts
    best = min(starts, key=lambda s: s["end_cost"])
    assert f["fitted"]["m_5"] == best["end"]["m_5"] and f["cost"] == pytest.approx(best["end_cost"], rel=1e-12)


def test_miniaq_kp_from_x_and_cranks_is_flagged(tmp_path):
    """MinIAQ-II's servo gain kp (nominal 0.5 N m/rad), hidden 0.52, 1 cycle, fitted on x and the crank angles only:
    these hardly move with kp (scripts/studies/identify_landscape.py: the cost within 0.1 % over kp +-10 %), so the data
    cannot pin kp: its sd from the noise alone is above 1 % and it is not claimed.  (Measured at seed 4: +10 %, sd
    9.7 % from the noise alone; an earlier 1 % finite-difference step saw a tooth and gave sd 1.2 %.)"""
    d = tmp_path / "data"
    _write(d, "miniaq", [], ["robot.kp=0.52"], cycles=1)
    f = _identify(tmp_path / "fit", "miniaq", [], d / "trajectory.csv", "experiment.params=[kp]",
                  "experiment.channels=[x,fl_crank,fr_crank,hl_crank,hr_crank]", "experiment.n_global=2",
                  "experiment.max_nfev=8", "experiment.starts=1")
    assert f["rel_sd_noise"]["kp"] > 0.01 and not f["identifiable"]["kp"], (f["fitted"], f["rel_sd_noise"])


def test_starting_points_are_the_lowest_distinct_candidates():
    """The local stage's starts: by cost, skipping a candidate within DISTINCT of the box of one already taken in
    every parameter; fewer than asked when there are not enough distinct ones."""
    from types import SimpleNamespace

    from gaittwin.core.analysis.identify import DISTINCT, starting_points
    p = SimpleNamespace(lo=np.array([0.0, 0.0]), hi=np.array([1.0, 10.0]))
    near = DISTINCT / 2
    rows = [dict(x=np.array(x), cost=c) for x, c in (([0.5, 5.0], 1.0), ([0.5 + near, 5.0 + 10 * near], 1.1),
                                                    ([0.5, 5.0 + 20 * DISTINCT], 1.2), ([0.9, 1.0], 0.9))]
    got = starting_points(p, rows, 3)
    assert [r["cost"] for r in got] == [0.9, 1.0, 1.2]
    assert [r["cost"] for r in starting_points(p, rows[:2], 3)] == [1.0]


@pytest.mark.slow
def test_crawler_full_recovery_flags_impratio(tmp_path):
    """Issue #27 target: omega = 5, 3 cycles, hidden mu 0.2, m0 0.22 and impratio 150 (nominal 100): mu and m0
    within 3 % and identifiable, impratio flagged not identifiable."""
    d = tmp_path / "data"
    _write(d, "crawler", CRAWLER, ["robot.mu=0.2", "robot.m0=0.22", "robot.impratio=150"], cycles=3, seed=5)
    f = _identify(tmp_path / "fit", "crawler", CRAWLER, d / "trajectory.csv", "experiment.params=[mu,m0,impratio]")
    for k, true in (("mu", 0.2), ("m0", 0.22)):
        assert abs(f["fitted"][k] / true - 1) <= TOL_REL and f["identifiable"][k], (k, f["fitted"], f["rel_sd"])
    assert "impratio" in f["not_identifiable"]


@pytest.mark.slow
def test_snake_full_recovery_mu_and_T_step(tmp_path):
    """The prototype snake (N = 8, n = 4, default timestep), hidden mu 0.45 and T_step 0.55 s, 1 cycle: both within 3 %."""
    d = tmp_path / "data"
    _write(d, "snake", [], ["robot.mu=0.45", "robot.T_step=0.55"], cycles=1, seed=2)
    f = _identify(tmp_path / "fit", "snake", [], d / "trajectory.csv", "experiment.n_global=6",
                  "experiment.max_nfev=6", "experiment.starts=1")
    for k, true in (("mu", 0.45), ("T_step", 0.55)):
        assert abs(f["fitted"][k] / true - 1) <= TOL_REL and f["identifiable"][k], (k, f["fitted"], f["rel_sd"])
    shutil.rmtree(tmp_path)


@pytest.mark.slow
def test_bolt_full_recovery(tmp_path):
    """Issue #27 target, BOLT: m_5 and the foot contact's stiffness (as its time constant; the parameter by name,
    whatever its declared default), 3 cycles, 1 % noise, random offset, default channels and the default strategy
    (CMA-ES 16 candidates, least squares from the 3 best distinct, 5 % finite-difference step): both within 3 %, and
    claimed only if their sd (widened by the cost's teeth) is at most 1 %.  Measured (README): +0.75 %, +0.48 %, cost
    1.01 x the cost at the hidden values, sd 2.3 %, 2.7 % (not claimed; 0.2 % from the noise alone); CMA-ES seeds 1
    and 2 gave -0.04 %, -0.12 % and +2.6 %, +1.8 %.  With the earlier 1 % step and one start the fit stayed at
    +4.4 %, +8.7 %."""
    hidden = {"m_5": 1.05, "contact_timeconst": 0.0012}
    d = tmp_path / "data"
    _write(d, "bolt", ["robot.m_5=0.9754"], [f"robot.{k}={v}" for k, v in hidden.items()], cycles=3, seed=4)
    f = _identify(tmp_path / "fit", "bolt", ["robot.m_5=0.9754"], d / "trajectory.csv",
                  f"experiment.params=[{','.join(hidden)}]")
    assert f["search"] == "cmaes" and len(f["local_starts"]) == 3
    for k, true in hidden.items():
        assert abs(f["fitted"][k] / true - 1) <= TOL_REL, (k, f["fitted"])
        # the outcome, not the rule restated: a claim (sd <= 1 %) must lie within 3 sd of the hidden value
        assert not f["identifiable"][k] or abs(f["fitted"][k] / true - 1) <= 3 * f["rel_sd"][k], (k, f)


@pytest.mark.slow
def test_miniaq_full_claims_only_what_it_recovers(tmp_path):
    """Issue #27's MinIAQ-II pair, mu_d and kp, 3 cycles, 1 % noise, random offset, default channels and strategy:
    every parameter claimed is within 3 %.  kp's information is in yaw and y, which are jagged functions of the
    parameters (scripts/studies/identify_landscape.py: the cost changes 20-fold between points 0.4 % apart): measured
    mu_d -0.09 %, kp +35 %, nothing claimed (yaw a misfit, a lower-cost candidate on the way)."""
    hidden = {"mu_d": 0.33, "kp": 0.55}
    d = tmp_path / "data"
    _write(d, "miniaq", [], [f"robot.{k}={v}" for k, v in hidden.items()], cycles=3, seed=4)
    f = _identify(tmp_path / "fit", "miniaq", [], d / "trajectory.csv", f"experiment.params=[{','.join(hidden)}]")
    for k, true in hidden.items():
        assert not f["identifiable"][k] or abs(f["fitted"][k] / true - 1) <= TOL_REL, (k, f["fitted"], f["rel_sd"])
