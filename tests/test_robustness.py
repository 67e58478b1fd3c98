"""Robustness maps (issue #17, envs/core/analysis/robustness.py): the nominal world is the nominal run,
the draws are seeded and declared, the statistics and the sensitivity ranking are right, and every
robot's experiment runs (tiny here; the report's N in the slow test)."""
from __future__ import annotations

import json

import numpy as np
import pytest

import gaittwin
from gaittwin.core.engines import batch
from gaittwin.core.runs import config
from gaittwin.core.analysis import robustness as rb
from gaittwin.core.analysis import sensitivity as sn
from gaittwin.core.runs import sweep as sw
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.runs.experiment import robot_params, run, run_kw, runner_kw
from tests.util import assert_fails_early

ROBOTS = ("crawler", "snake", "bolt", "miniaq")
TINY = {"crawler": 1, "snake": 1, "bolt": 3, "miniaq": 2}      # cycles of the CI-sized run (BOLT: a stride time)


def _cfg(robot, *overrides, n=2, cycles=None):
    return config.compose([f"experiment={robot}_robustness", f"experiment.n={n}",
                           f"run.cycles={cycles or TINY[robot]}", "run.progress=false", *overrides])


def _plain_run(cfg) -> dict:
    """The nominal point through the normal single-run path (batch.run_point), its results values."""
    cls = gaittwin.robot_class(cfg.robot.name)
    r = cls(**robot_params(cfg))
    kw = runner_kw(run_kw(cfg))
    values, error = batch.batch_values(r, batch.run_point(r, cls, **kw))
    return dict(values, error=error or "")


@pytest.mark.parametrize("robot", ROBOTS)
def test_tiny_run_world0_is_the_nominal_run(robot, tmp_path):
    """Every robot's experiment runs (n = 2, 1-2 cycles): results, sensitivity, plot and summary; its
    world 0 has exactly (==, no tolerance) the metrics of a plain single run of the nominal point."""
    cfg = _cfg(robot)
    summary = run(cfg, tmp_path)
    for f in ("results.csv", "sensitivity.csv", "robustness.png", "summary.json"):
        assert (tmp_path / f).exists(), f
    rows = sw.read_csv(tmp_path / "results.csv")
    assert [int(r["world"]) for r in rows] == [0, 1, 2]
    plain = _plain_run(cfg)
    merit = list(summary["merit"])
    for k in gaittwin.robot_class(robot).metrics:
        if k in plain:
            a, b = rows[0][k], plain[k]
            assert a == b or (isinstance(a, float) and np.isnan(a) and np.isnan(b)), (k, a, b)
    for m in merit:
        assert summary["merit"][m]["nominal"] == plain[m]
    assert rows[0]["error"] == plain["error"]
    # the worlds really differ: every drawn variable takes 3 distinct values
    X = rb.worlds(cfg)[4]
    assert all(len(set(X[:, j])) == 3 for j in range(X.shape[1]))
    assert json.loads((tmp_path / "summary.json").read_text())["n"] == 2


def test_same_seed_same_draws_and_prefix_stable():
    cfg = _cfg("miniaq", n=5)
    cls = gaittwin.Crawler
    d = rb.parse_spread(cls, {"mu1": {"dist": "uniform", "rel": 0.1, "of": "mu"},
                              "kp": {"dist": "normal", "rel": 0.05}})
    p1, names, X1 = rb.draw(cls, {}, d, 50, seed=3)
    p2, _, X2 = rb.draw(cls, {}, d, 50, seed=3)
    _, _, X3 = rb.draw(cls, {}, d, 20, seed=3)
    _, _, X4 = rb.draw(cls, {}, d, 50, seed=4)
    assert p1 == p2 and np.array_equal(X1, X2)
    assert np.array_equal(X1[:21], X3)                  # world k does not depend on n
    assert not np.array_equal(X1[1:], X4[1:])            # another seed: other worlds
    assert p1[0] == {} and names == ["mu1", "kp"] and X1[0].tolist() == [0.172, 400.0]   # world 0 = nominal
    mu, kp = X1[1:, 0], X1[1:, 1]
    assert mu.min() >= 0.172 * 0.9 and mu.max() <= 0.172 * 1.1          # uniform within its half-width
    assert np.all(np.abs(kp - 400) <= 3 * 0.05 * 400)                    # normal truncated at 3 sd
    # the miniaq list parameter: each element drawn, the paper's +-20 deg
    robots, meta, key, names, X = rb.worlds(cfg)[:5]
    ph = X[:, [names.index(f"phase_error_deg[{e}]") for e in range(4)]]
    assert ph[0].tolist() == [0.0] * 4 and np.all(np.abs(ph) <= 20) and robots[0].cfg["phase_error_deg"] is None
    assert robots[3].cfg["phase_error_deg"] == ph[3].tolist() and key[:2] == ["seed", "world"]
    # per-foot friction: `size: 4, of: mu_d` -> four draws around mu_d (+-20 %); the COM offset around 0 (+-3 mm)
    mu = X[:, [names.index(f"mu_d_feet[{e}]") for e in range(4)]]
    assert mu[0].tolist() == [0.3] * 4 and robots[0].cfg["mu_d_feet"] is None and "mu_d" not in names
    assert np.all((mu >= 0.3 * 0.8) & (mu <= 0.3 * 1.2)) and robots[3].cfg["mu_d_feet"] == mu[3].tolist()
    cx = X[:, names.index("com_offset_x")]
    assert cx[0] == 0.0 and np.all(np.abs(cx) <= 0.003) and robots[2].cfg["com_offset_x"] == cx[2]


def test_statistics_and_sensitivity_ranking():
    """A known response: y = 3 x0 - 0.5 x1 + noise; x2 unused.  The ranking is x0, x1, x2, the SRCs
    are the standardized slopes (tolerance 0.05, stated before comparing), failed worlds are left out, and so is a
    health-flagged world that kept its metric (it never counts, not even as the worst case)."""
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (401, 3))
    y = 3 * X[:, 0] - 0.5 * X[:, 1] + 0.01 * rng.standard_normal(401)
    rows = [dict(world=i, y=v, error="") for i, v in enumerate(y)]
    rows[7]["error"], rows[9]["y"] = "MuJoCo warning", np.nan
    rows[11].update(y=-100.0, error="max_penetration 3 mm over the limit")   # health-flagged, its metric kept
    res = sn.analyse(rows, X, ["x0", "x1", "x2"], {"y": "max"})["y"]
    good = np.delete(y, [0, 7, 9, 11])
    assert res["healthy_worlds"] == 397 and res["nominal"] == y[0] and res["worst"] > -100
    assert res["median"] == np.median(good) and res["p5"] == np.percentile(good, 5)
    assert res["worst"] == good.min() and res["worst_world"] not in (0, 7, 9, 11)
    assert [s["parameter"] for s in res["sensitivity"]] == ["x0", "x1", "x2"] and res["most_sensitive"] == "x0"
    sd = np.std(good)
    tol = 0.05
    assert abs(res["sensitivity"][0]["src"] - 3 * np.std(X[1:, 0]) / sd) < tol
    assert abs(res["sensitivity"][1]["src"] + 0.5 * np.std(X[1:, 1]) / sd) < tol
    assert res["sensitivity"][1]["spearman_rho"] < 0 and abs(res["sensitivity"][2]["spearman_rho"]) < 0.15
    assert res["most_sensitive_significant"] and res["most_sensitive_eta2"] == "x0"
    assert sn.worst_index(np.array([1.0, -5.0, 3.0]), "abs") == 1 and sn.worst_index(np.array([1.0, 2.0]), "min") == 1


@pytest.mark.parametrize("spread, key", [
    ({"kp": {"dist": "uniform", "rel": 1.5}}, "experiment.spread.kp"),          # leaves kp > 0
    ({"bogus": {"dist": "uniform", "rel": 0.1}}, "experiment.spread.bogus"),
    ({"kp": {"dist": "triangular", "rel": 0.1}}, "experiment.spread.kp.dist"),
    ({"kp": {"dist": "uniform", "rel": 0.1, "abs": 1}}, "experiment.spread.kp"),
    ({"kp": {"dist": "uniform", "rel": -0.1}}, "experiment.spread.kp.rel"),
    ({"psi_deg": {"dist": "uniform", "abs": 400}}, "experiment.spread.psi_deg"),
    ({"mu1": {"dist": "uniform", "rel": 0.1}}, "experiment.spread.mu1"),        # null nominal, no `of`
    ({"kp": {"dist": "uniform", "rel": 0.1, "size": 2}}, "experiment.spread.kp.size"),
    ({"kp": {"dist": "normal", "rel": 0.1, "side": "up"}}, "experiment.spread.kp.side"),   # uniform only
    ({"kp": {"dist": "uniform", "rel": 0.1, "side": "left"}}, "experiment.spread.kp.side"),
    ({"kv": {"dist": "uniform", "abs": 1.5, "side": "down"}}, "experiment.spread.kv"),      # 1.2 - 1.5 < 0
])
def test_bad_spread_one_error(spread, key):
    with pytest.raises(ConfigError) as e:
        rb.draw(gaittwin.Crawler, {}, rb.parse_spread(gaittwin.Crawler, spread), 3, 0)
    assert str(e.value).startswith(f"{key}=")


def test_a_one_sided_spread_past_its_range_end_says_the_range():
    """A nominal at its range's end (kv = 0, ge=0) drawn to that side: the range's message (a width keeping kv
    within its range), not "takes no value but its nominal" (checked before the robot's own refusals)."""
    with pytest.raises(ConfigError) as e:
        rb.draw(gaittwin.Crawler, {"kv": 0.0}, rb.parse_spread(gaittwin.Crawler, {"kv": {"dist": "uniform", "abs": 0.5,
                                                                                "side": "down"}}), 3, 0)
    assert str(e.value).startswith("experiment.spread.kv=") and "within" in str(e.value), str(e.value)
    assert "no value of kv but its nominal" not in str(e.value)


def test_one_sided_uniform_draws_only_above_or_below_the_nominal():
    """side: up / down: uniform on nominal + [0, w] / nominal - [0, w] (a quantity whose nominal is
    the end of its range, e.g. a passive joint's damping of 0); both: the symmetric default."""
    for side, lo, hi in (("up", 1.2, 1.7), ("down", 0.7, 1.2), ("both", 0.7, 1.7)):
        d = rb.parse_spread(gaittwin.Crawler, {"kv": {"dist": "uniform", "abs": 0.5, "side": side}})
        assert d[0].support(1.2) == pytest.approx((lo, hi))
        _, names, X = rb.draw(gaittwin.Crawler, {}, d, 400, 0)
        x = X[1:, 0]
        assert X[0, 0] == 1.2 and lo <= x.min() and x.max() <= hi, (side, x.min(), x.max())
        assert x.max() - x.min() > 0.9 * (hi - lo)                        # fills its interval
        if side == "both":
            assert (x < 1.2).any() and (x > 1.2).any()


def test_bad_options_exit_2_nothing_written(tmp_path):
    assert_fails_early(tmp_path, "experiment.spread.kp", "experiment=crawler_robustness",
                       "experiment.spread.kp.rel=1.5", text="(0, 1e+06]")
    assert_fails_early(tmp_path, "experiment.merit.S", "experiment=crawler_robustness", "experiment.merit.S=best")
    with pytest.raises(ConfigError, match="^engine=") as e:
        rb.batch_path_engine(_cfg("crawler", "engine=hybrid"))
    assert "batch path" in str(e.value)


def test_a_parameter_the_robot_fixes_is_refused_at_once_with_the_way_out():
    """bolt_robustness with BOLT's plastic foot: with no bumper, contact_timeconst has no effect and the robot takes
    no value but its default, so no width of its spread can be drawn: one ConfigError naming
    experiment.spread.contact_timeconst says to drop the entry (it said to narrow it); dropped, the worlds draw.  On
    the experiment's default 0.40 m bumper it acts on the bumper and is drawn.  Nothing is simulated (< 1 s)."""
    plastic = ["robot=bolt", "robot/foot=plastic", "robot.bumper_height=null"]
    with pytest.raises(ConfigError, match="drop it") as e:
        rb.worlds(_cfg("bolt", *plastic))
    assert str(e.value).startswith("experiment.spread.contact_timeconst=") and "\n" not in str(e.value)
    robots, *_, dists, _, _ = rb.worlds(_cfg("bolt", *plastic, "~experiment.spread.contact_timeconst"))
    assert "contact_timeconst" not in [d.name for d in dists] and len(robots) == 3
    assert len({r.cfg["mu"] for r in robots}) == 3                   # the other spreads still drawn
    robots, *_, dists, _, _ = rb.worlds(_cfg("bolt", "robot=bolt", "robot/foot=plastic"))
    assert len({r.cfg["contact_timeconst"] for r in robots}) == 3 and robots[0].cfg["bumper_height"] == 0.4


def test_resume_reuses_and_a_new_seed_never_gives_stale_rows(tmp_path):
    cfg = _cfg("bolt")
    first = run(cfg, tmp_path)
    again = run(cfg, tmp_path)
    same = lambda a, b: json.dumps(sw.finite(a["merit"])) == json.dumps(sw.finite(b["merit"]))   # NaN == NaN  # noqa: E731
    assert again["reused"] == 3 and again["computed"] == 0 and same(again, first)
    other = run(_cfg("bolt", "experiment.seed=1"), tmp_path)
    assert other["computed"] == 3 and not same(other, first)
    rows = sw.read_csv(tmp_path / "results.csv")
    assert [(int(r["seed"]), int(r["world"])) for r in rows[:3]] == [(1, 0), (1, 1), (1, 2)]   # this run first


@pytest.mark.slow
@pytest.mark.parametrize("robot, cycles", [("crawler", 10), ("snake", 4), ("bolt", 20), ("miniaq", 13)])
def test_report_size_run(robot, cycles, tmp_path):
    """The N = 32 run the README reports: every world healthy enough for statistics."""
    summary = run(_cfg(robot, n=32, cycles=cycles), tmp_path)
    for m, r in summary["merit"].items():
        assert r["healthy_worlds"] >= 16 and r["most_sensitive"] is not None, (m, r)


def test_peaked_response_shows_in_eta2_and_derived_ratio():
    """A merit that peaks where two drawn variables are equal (the crawler's S over mu2/mu1): no
    variable's rank correlation is above noise, the declared ratio's eta^2 is (tolerances: the
    statistics' own noise levels, computed before comparing)."""
    rng = np.random.default_rng(1)
    X = rng.uniform(0.9, 1.1, (201, 3))
    X[0] = 1.0
    y = 1.0 - 50 * (X[:, 1] / X[:, 0] - 1.0) ** 2 + 0.01 * rng.standard_normal(201)
    Xd, names = sn.add_derived(X, ["a", "b", "c"], {"b/a": ["b", "a"]})
    assert names[-1] == "b/a" and np.allclose(Xd[:, 3], X[:, 1] / X[:, 0])
    res = sn.analyse([dict(y=v, error="") for v in y], Xd, names, {"y": "max"}, drawn=3)["y"]
    by = {s["parameter"]: s for s in res["sensitivity"]}
    assert abs(by["b/a"]["spearman_rho"]) < res["rho_noise"] and np.isnan(by["b/a"]["src"])   # blind to a peak
    assert by["b/a"]["eta2"] > max(0.5, res["eta2_noise"]) and res["most_sensitive_eta2"] == "b/a"
    with pytest.raises(ConfigError, match="^experiment.derived.r="):
        sn.add_derived(X, ["a", "b", "c"], {"r": ["b", "z"]})


def test_robustness_plot_units_and_noise_label():
    from gaittwin.core.view.robustness_plot import noise_label, unit_of
    assert [unit_of(m) for m in ("S", "speed", "yaw_rate_deg_s", "roll_amplitude_deg", "cost_of_transport",
                                 "dx_period", "touchdowns")] == ["m", "m/s", "deg/s", "deg", "1", "m", "SI"]
    assert noise_label(0.45, 32) == "|rho| < 0.45: noise (family-wise 5 %)"
    assert noise_label(1.71, 4) == "all |rho| within noise (4 worlds: too few)"
