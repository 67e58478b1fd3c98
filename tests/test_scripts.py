"""The three ways people use a twin: experiment (Hydra), video, interactive viewer."""
import csv
import json
import shutil
import subprocess

import numpy as np
import pytest

from tests.util import ROOT, assert_fails_early, render_frames, run_script


def test_frequency_sweep_writes_contract_files(tmp_path):
    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=crawler_frequency_sweep", "sweep.omega=[0.3,8]",
                     f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = list(csv.DictReader(open(out / "results.csv")))
    assert [float(r["omega"]) for r in rows] == [0.3, 8.0]
    for col in ("omega", "psi_deg", "A_deg", "phi0_deg", "mu", "S", "V", "steady",
                "work_per_cycle", "mean_power", "cost_of_transport"):
        assert col in rows[0]
    assert all(float(r["cost_of_transport"]) > 0 for r in rows)
    r03 = rows[0]
    assert float(r03["S"]) > 0.15 and r03["steady"] == "True"
    assert float(r03["V"]) == pytest.approx(float(r03["S"]) * 0.3 / (2 * np.pi))
    assert (out / "S_V_vs_omega.png").stat().st_size > 10_000
    assert (out / ".hydra" / "config.yaml").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["points"] == 2 and summary["steps_per_s"] > 0
    assert summary["wall_s"] > 0 and summary["wall_s_hybrid"] > 0     # the overlay's time too, not only the twin's
    assert summary["reused_hybrid"] == 0      # fresh run dir: every overlay point was computed (and timed)
    # the per-sample time series of the configured point (robot.omega, default 1 rad/s)
    ts = list(csv.DictReader(open(out / "timeseries.csv")))
    assert summary["timeseries_point"]["omega"] == 1.0 and summary["timeseries_point"]["error"] is None
    assert len(ts) == 200 * summary["timeseries_point"]["cycles"] + 1
    for col in ("t", "phi1_ref_deg", "phi1_deg", "x", "z", "theta_deg", "contact1", "foot1_vel", "foot2_normal_force",
                "power"):
        assert col in ts[0]
    assert min(float(r["power"]) for r in ts) >= 0 and max(float(r["power"]) for r in ts) > 0
    # a rerun of a finished sweep recomputes nothing and keeps the file as it was
    before = (out / "results.csv").read_bytes()
    res = run_script("scripts/run.py", "sweep.omega=[0.3,8]", f"hydra.run.dir={out}")
    assert res.returncode == 0
    assert json.loads((out / "summary.json").read_text())["computed"] == 0
    assert (out / "results.csv").read_bytes() == before


@pytest.mark.parametrize("override, param", [
    ("sweep.omega=[1,-2]", "sweep.omega"),
    ("robot.mu=0", "robot.mu"),
    ("robot.A_deg=70", "A_deg"),
    ("robot.name=hexapod", "robot"),
    ("+sweep.nonsense=[1]", "sweep.nonsense"),
])
def test_bad_input_fails_early_and_leaves_nothing(tmp_path, override, param):
    assert_fails_early(tmp_path, param, override)


def test_video_is_written(tmp_path):
    imgs = render_frames(tmp_path, 320, 240, "--cycles", "1", "robot.omega=4")
    assert len(imgs) >= 40
    assert imgs[0].std() > 5          # not a blank frame
    assert np.abs(imgs[0].astype(int) - imgs[len(imgs) // 2]).mean() > 0.1   # the robot moves


def test_viewer_runs_headless_under_xvfb():
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        pytest.skip("xvfb-run is not installed (apt-get install xvfb); the viewer needs a display")
    import sys
    res = subprocess.run([xvfb, "-a", sys.executable, "scripts/view.py", "--duration", "1", "robot.omega=3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "viewer closed" in res.stdout and "real-time factor" in res.stdout   # the speed: test_viewer.py (slow)
