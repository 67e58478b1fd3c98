"""Sweeps at engine speed: grids, resumable results files, Hydra multirun (joblib launcher)."""
import csv
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from gaittwin.core.runs import sweep as sw
from gaittwin.crawler.robot import Crawler
from gaittwin.core.model.errors import ConfigError
from tests.util import ROOT, run_script


def test_grid_is_cartesian_product_in_order():
    g = sw.grid({"omega": [1, 2], "psi_deg": [0, 10, 20]})
    assert len(g) == 6 and g[0] == {"omega": 1, "psi_deg": 0} and g[-1] == {"omega": 2, "psi_deg": 20}
    assert sw.grid({}) == [{}]
    with pytest.raises(ConfigError, match="sweep.omega"):
        sw.grid({"omega": []})


def test_run_sweep_validates_every_point_before_writing(tmp_path):
    with pytest.raises(ConfigError, match="omega"):
        sw.run_sweep(Crawler, {}, {"omega": [1.0, 2.0, -3.0]}, tmp_path / "x", run_kw=dict(cycles=2),
                     progress=False)
    assert not (tmp_path / "x").exists()


def _stored(out) -> int:
    """Rows committed to the run directory's store (read-only; 0 while it does not exist)."""
    db = out / "results.sqlite"
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT count(*) FROM points").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:          # the schema is being created
        return 0


def test_partial_results_resume_without_recomputing(tmp_path):
    kw = dict(run_kw=dict(cycles=3), extra_columns=("S", "V", "steady"), progress=False)
    full, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "a", **kw)
    assert st["computed"] == 3 and st["recomputed"] == {"new point": 3}
    # a store holding only the first finished row, as if the sweep had been killed
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    con = sqlite3.connect(tmp_path / "b" / "results.sqlite")
    con.execute("DELETE FROM points WHERE finished > (SELECT min(finished) FROM points)")
    con.commit()
    con.close()
    resumed, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "b", **kw)
    assert st["computed"] == 2 and st["reused"] == 1
    assert (tmp_path / "b" / "results.csv").read_text() == (tmp_path / "a" / "results.csv").read_text()
    again, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "b", **kw)
    assert st["computed"] == 0 and st["reused"] == 3 and again == resumed


def test_killed_sweep_resumes_to_identical_file(tmp_path):
    args = ["scripts/run.py", "sweep.omega=[1.0,1.5,2.0,3.0,4.0,6.0]", "run.nthread=1", "run.stop_when_steady=false",
            "run.cycles=6", "run.progress=false", "experiment.overlay=null"]
    ref = run_script(*args, f"hydra.run.dir={tmp_path / 'ref'}")
    assert ref.returncode == 0, ref.stderr[-2000:]
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, *args, f"hydra.run.dir={out}"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if _stored(out) >= 1:      # at least one point committed
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n_before = _stored(out)
    assert 1 <= n_before < 6, "kill the sweep mid-run"
    again = run_script(*args, f"hydra.run.dir={out}")
    assert again.returncode == 0, again.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["computed"] == 6 - n_before and summary["reused"] == n_before
    assert (out / "results.csv").read_text() == (tmp_path / "ref" / "results.csv").read_text()


def test_joblib_multirun(tmp_path):
    res = run_script("scripts/run.py", "-m", "hydra/launcher=joblib", "hydra.launcher.n_jobs=2",
                     "sweep.omega=[2.0]", "robot.psi_deg=0,40", "run.nthread=1", "run.progress=false",
                     f"hydra.sweep.dir={tmp_path}")
    assert res.returncode == 0, res.stderr[-2000:]
    S = {}
    for job in ("0", "1"):
        row = next(csv.DictReader(open(tmp_path / job / "results.csv")))
        S[float(row["psi_deg"])] = float(row["S"])
    assert abs(S[0.0]) < 1e-6          # symmetric inputs: no net motion
    assert S[40.0] > 0.05              # phase lag drives the crawler forward
