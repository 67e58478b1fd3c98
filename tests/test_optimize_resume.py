"""A killed optimisation resumes to the same optimum: crawler_optimize killed with SIGKILL once some candidates are in
its store, rerun into the same directory (reusing them), gives the optimum of an uninterrupted run exactly."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.util import ROOT

ARGS = ["experiment=crawler_optimize", "robot.omega=12", "run.cycles=3", "run.stop_when_steady=false", "run.nthread=1",
        "experiment.budget=13", "experiment.batch=4", "experiment.sensitivity=2", "experiment.reference=false",
        "run.progress=false"]


def _run(out, **kw):
    return subprocess.Popen([sys.executable, str(ROOT / "scripts" / "run.py"), *ARGS, f"hydra.run.dir={out}"],
                           cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)


def _stored(out) -> int:
    try:
        with sqlite3.connect(out / "results.sqlite", timeout=1) as con:
            return con.execute("SELECT count(*) FROM points WHERE file = 'candidates.csv'").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_kill_and_resume_gives_the_same_optimum(tmp_path):
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    p = _run(whole)
    assert p.wait(timeout=900) == 0, p.stderr.read().decode()
    p = _run(killed)
    t0 = time.time()
    while _stored(killed) < 6 and p.poll() is None and time.time() - t0 < 900:
        time.sleep(0.2)
    assert p.poll() is None, "the run ended before it could be killed"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    n_killed = _stored(killed)
    assert 6 <= n_killed < 13 + 4
    p = _run(killed)
    assert p.wait(timeout=900) == 0, p.stderr.read().decode()
    a = json.loads((whole / "summary.json").read_text())
    b = json.loads((killed / "summary.json").read_text())
    assert b["optimum"] == a["optimum"] and b["objective"] == a["objective"]
    assert b["reused_points"] >= n_killed - 1 and b["simulated_points"] < a["simulated_points"]
    assert (whole / "history.csv").read_text() == (killed / "history.csv").read_text()
