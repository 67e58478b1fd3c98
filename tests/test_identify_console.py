"""A fit speaks on the console (envs/core/analysis/identify.py): the table of parameter, truth, fit, sd and
verdict, the channels in misfit, `claimed`; a fit with every channel in misfit warns and claims nothing.  Data
that cannot be what the fit expects are refused with one line, exit 2: a declared channel missing (unless
experiment.drop_channels names it), angles in degrees under a rad header."""
from __future__ import annotations

import csv
import shutil

import numpy as np
import pytest

from gaittwin.core.analysis import trajectory as tj
from gaittwin.core.analysis.identify_problem import check_data
from gaittwin.core.runs import config
from gaittwin.core.model.errors import ConfigError
from gaittwin.core.runs.experiment import run
from tests.util import assert_fails_early

CRAWLER = ["robot.omega=5"]
QUICK = ["experiment.n_global=0", "experiment.max_nfev=1", "experiment.starts=1", "run.progress=false"]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("crawler_data")
    cfg = config.compose(["experiment=crawler_trajectory", *CRAWLER, "robot.mu=0.2", "robot.m0=0.22",
                          "experiment.cycles=2", "experiment.noise_rel=0.01", "experiment.seed=1",
                          "run.progress=false"])
    run(cfg, d)
    return d / "trajectory.csv"


def _identify(out, path, *extra):
    return run(config.compose(["experiment=crawler_identify", *CRAWLER, f"experiment.data={path}", *QUICK, *extra]),
               out)


def _rewrite(src, dst_dir, change):
    """A copy of the trajectory (and its sidecar) with change(header, rows) -> (header, rows) applied."""
    rows = list(csv.reader(open(src)))
    header, body = change(rows[0], rows[1:])
    dst = dst_dir / "trajectory.csv"
    with open(dst, "w", newline="") as f:
        csv.writer(f).writerows([header, *body])
    shutil.copy(src.with_suffix(".json"), dst.with_suffix(".json"))
    return dst


def _without(col):
    def change(header, body):
        k = header.index(col)
        return header[:k] + header[k + 1:], [r[:k] + r[k + 1:] for r in body]
    return change


def _in_degrees(cols):
    def change(header, body):
        ks = [header.index(c) for c in cols]
        return header, [[repr(float(np.degrees(float(v)))) if j in ks else v for j, v in enumerate(r)] for r in body]
    return change


def test_the_fit_prints_its_table(data, tmp_path, capsys):
    s = _identify(tmp_path, data)
    out = capsys.readouterr().out
    head = next(line for line in out.splitlines() if line.startswith("parameter"))
    assert head.split() == ["parameter", "truth", "nominal", "fit", "sd", "(rel)", "verdict"]
    for name, truth in (("mu", 0.2), ("m0", 0.22)):
        line = next(line for line in out.splitlines() if line.startswith(name + " ") or line.startswith(name + "["))
        assert f"{truth:.6g}" in line and f"{s['fitted'][name]:.6g}" in line and s["verdict"][name] in line
    assert "channels in misfit" in out and f"claimed: {s['claimed']}" in out
    assert s["claimed"] == ", ".join(k for k, v in s["verdict"].items() if v == "claimed") or s["claimed"] == "none"


def test_every_channel_in_misfit_warns_and_claims_nothing(data, tmp_path, capsys):
    """The data mirrored (every value channel's sign flipped): no crawler moves so; every channel is in misfit."""
    d = tmp_path / "data"
    d.mkdir()

    def mirror(header, body):
        flip = [header.index(c) for c in ("x", "z", "theta", "phi1", "phi2")]
        return header, [[repr(-float(v)) if j in flip else v for j, v in enumerate(r)] for r in body]
    s = _identify(tmp_path / "out", _rewrite(data, d, mirror))
    err = capsys.readouterr().err
    assert set(s["misfit_channels"]) == {"x", "z", "theta", "phi1", "phi2"}, s["misfit_ratio"]
    assert s["claimed"] == "none" and "every fitted channel is in misfit" in s["warning"]
    assert "WARNING: every fitted channel is in misfit" in err
    assert all(v.startswith("flagged") for v in s["verdict"].values())


def test_a_missing_channel_is_refused_unless_dropped(data, tmp_path):
    d = tmp_path / "data"
    d.mkdir()
    path = _rewrite(data, d, _without("x"))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ConfigError, match=r"no column 'x'.*experiment.drop_channels=\[x\]") as e:
        _identify(out, path)
    assert str(e.value).startswith("experiment.data=") and "\n" not in str(e.value)
    assert list(out.iterdir()) == []
    s = _identify(out, path, "experiment.drop_channels=[x]", "experiment.check_only=true")
    assert s["channels"] == ["z", "theta", "phi1", "phi2"]
    with pytest.raises(ConfigError, match="experiment.drop_channels"):
        _identify(tmp_path / "other", path, "experiment.drop_channels=[nope]")
    assert_fails_early(tmp_path, "experiment.data", "experiment=crawler_identify", *CRAWLER,
                       f"experiment.data={path}", text="no column 'x'")


def test_angles_in_degrees_are_refused_with_a_hint(data, tmp_path):
    """theta, phi1, phi2 written in degrees (header still rad): each moves far more than a turn per period."""
    d = tmp_path / "data"
    d.mkdir()
    path = _rewrite(data, d, _in_degrees(["theta", "phi1", "phi2"]))
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ConfigError, match="in degrees") as e:
        _identify(out, path)
    assert str(e.value).startswith("experiment.data=") and "\n" not in str(e.value)
    assert list(out.iterdir()) == []
    assert_fails_early(tmp_path, "experiment.data", "experiment=crawler_identify", *CRAWLER,
                       f"experiment.data={path}", text="degrees")


@pytest.mark.parametrize("robot", ["bolt", "miniaq"])
def test_accumulated_crank_angles_pass_the_unit_check(tmp_path, robot):
    """A crank turns once a gait period: its accumulated angle spans turns over the record but at most one (plus
    the margin) within a period; the twin's own trajectory passes the check, its values in degrees do not."""
    cfg = config.compose([f"experiment={robot}_trajectory", "experiment.cycles=3", "run.progress=false"])
    run(cfg, tmp_path)
    point = config.robot_point(cfg)
    data = tj.read(tmp_path / "trajectory.csv", point)
    crank = next(c for c, ch in tj.channels(point).items() if ch.unit == "rad" and "crank" in ch.what)
    assert np.ptp(data.values[crank]) > 2 * 2 * np.pi             # several turns over the record
    opts = {"channels": [], "drop_channels": []}
    assert check_data(data, tj.channels(point), opts, point.period) == []
    data.values[crank] = np.degrees(data.values[crank])
    with pytest.raises(ConfigError, match=f"channel '{crank}'.*in degrees"):
        check_data(data, tj.channels(point), opts, point.period)
