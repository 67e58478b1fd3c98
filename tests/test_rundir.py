"""Issue #30's battery, the classes of run directories, file-system errors, budgets, code identity
and the fidelity report script: each reproduction as a CI-sized test (one point, one cycle)."""
import importlib.util
import resource
import signal
import subprocess
import sys
import time

import pytest
from omegaconf import OmegaConf

from gaittwin.core.report import report as fidelity
from gaittwin.core.runs import rundir
from gaittwin.core.runs import sweep as sw
from gaittwin.core.model.errors import ConfigError, StepBudgetError
from gaittwin.bolt.robot import Bolt
from gaittwin.crawler.robot import Crawler
from tests.util import ROOT, run_script

POINT = ["sweep.omega=[4]", "run.cycles=1", "run.nthread=1", "run.progress=false", "experiment.overlay=null"]
KW = dict(run_kw=dict(cycles=1, nthread=1), progress=False)


def one_line_exit_2(res, *needles):
    """exit code 2, one line on stderr starting with 'error:', no traceback, containing the needles
    (Warp's own native notice on a machine without a CUDA driver is not ours: left out)."""
    err = "\n".join(ln for ln in res.stderr.strip().splitlines() if not ln.startswith("Warp CUDA warning"))
    assert res.returncode == 2, (res.returncode, err[-2000:])
    assert err.startswith("error:") and len(err.splitlines()) == 1 and "Traceback" not in err, err[-2000:]
    for n in needles:
        assert n in err, err


# ---- a run directory belongs to one robot and one run's settings at a time ---------------------------
def _cfg(robot="crawler", cycles=1, omega=(4.0,)):
    return OmegaConf.create({"robot": {"name": robot}, "run": {"cycles": cycles}, "sweep": {"omega": list(omega)}})


def test_a_second_writer_with_other_settings_is_refused(tmp_path):
    a = rundir.claim(tmp_path, _cfg())
    assert a.first
    b = rundir.claim(tmp_path, _cfg(omega=(5.0,)))        # same settings, another grid: may join
    assert not b.first
    with pytest.raises(rundir.RunDirError, match="in use by another run .* with different settings"):
        rundir.claim(tmp_path, _cfg(cycles=2))
    assert not a.alone()                                   # b writes there too: a failing a removes nothing
    a.fh.close()
    assert b.alone()
    b.fh.close()
    c = rundir.claim(tmp_path, _cfg(cycles=2))             # free again: the new settings own it
    assert c.first
    c.fh.close()


def test_cli_second_robot_is_refused_and_the_run_kept(tmp_path):
    out = tmp_path / "run"
    assert run_script("scripts/run.py", *POINT, f"hydra.run.dir={out}").returncode == 0
    before = (out / "results.csv").read_bytes(), (out / ".hydra" / "config.yaml").read_bytes()
    res = run_script("scripts/run.py", "experiment=bolt_foot_path", f"hydra.run.dir={out}")
    one_line_exit_2(res, "holds a crawler run", "bolt")
    assert ((out / "results.csv").read_bytes(), (out / ".hydra" / "config.yaml").read_bytes()) == before


def test_default_directories_never_collide(tmp_path, monkeypatch):
    base = tmp_path / "outputs" / "x" / "2026-01-01_00-00-00"
    assert [rundir._claim_unique(base) for _ in range(3)] == [base, base.with_name(base.name + "_1"),
                                                             base.with_name(base.name + "_2")]
    monkeypatch.chdir(tmp_path)
    dirs = [rundir._given(rundir.prepare(["sweep.omega=[2]"]), "hydra.run.dir") for _ in range(2)]
    assert dirs[0] != dirs[1] and all((tmp_path / d).is_dir() for d in dirs)
    assert all(d.startswith("outputs/crawler_frequency_sweep/") for d in dirs)


def test_a_moved_csv_never_clobbers_a_users_file(tmp_path):
    (tmp_path / "results.csv").write_text("the user's table\n")
    (tmp_path / "results.csv.bak").write_text("the user's backup\n")
    _, st = sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **KW)
    assert st["moved_aside"] == "results.csv.bak1"
    assert (tmp_path / "results.csv.bak").read_text() == "the user's backup\n"
    assert (tmp_path / "results.csv.bak1").read_text() == "the user's table\n"


# ---- file-system errors: one line, exit 2, nothing left behind ----------------------------------------
def test_bad_run_directories_are_one_line_errors(tmp_path):
    (tmp_path / "file").write_text("x")
    (tmp_path / "d" / "results.csv").mkdir(parents=True)
    cases = [([f"hydra.run.dir={tmp_path / 'file'}"], "is an existing file"),
             (["hydra.run.dir=" + str(tmp_path / "${oc.env:GAITTWIN_SURELY_UNSET}")], "GAITTWIN_SURELY_UNSET"),
             ([f"hydra.run.dir={tmp_path / 'd'}"], "results.csv is a directory"),
             (["hydra.run.dir=/proc/gaittwin/run"], "cannot be written")]
    for argv, needle in cases:
        with pytest.raises(rundir.RunDirError, match=needle.replace("$", r"\$")):
            rundir.prepare(argv)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "file"]


def test_cli_run_dir_a_file_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    one_line_exit_2(run_script("scripts/run.py", *POINT, f"hydra.run.dir={tmp_path / 'file'}"), "existing file")
    assert (tmp_path / "file").read_text() == "x"


def _limit_file_size(n):
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)      # a write past the limit fails (EFBIG), as on a full disk
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return pre


@pytest.mark.parametrize("limit", [3000, 9000])
def test_cli_full_file_system_is_one_line_and_leaves_nothing(tmp_path, limit):
    out = tmp_path / "run"
    res = subprocess.run([sys.executable, "scripts/run.py", *POINT, f"hydra.run.dir={out}"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, preexec_fn=_limit_file_size(limit))
    one_line_exit_2(res)
    assert "cannot rollback" not in res.stderr and not out.exists()


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="the [gpu] extra is not installed")
def test_bogus_warp_device_is_one_line_and_no_run_dir(tmp_path):
    from gaittwin.core.engines import warp_engine
    with pytest.raises(ConfigError, match="run.device='bogus'"):
        warp_engine.device("bogus")
    out = tmp_path / "run"
    one_line_exit_2(run_script("scripts/run.py", *POINT, "engine=warp", "run.device=bogus", f"hydra.run.dir={out}"),
                    "run.device")
    assert not out.exists()


# ---- budgets: run.max_steps bounds the whole point -----------------------------------------------------
def test_treadmill_budget_counts_every_run_of_a_point(tmp_path):
    assert Bolt().check_steps(2, 10**8, runs=7) == 7 * Bolt().check_steps(2, 10**8)
    with pytest.raises(StepBudgetError, match="up to 7 runs"):
        Bolt(crank_period=100.0).check_steps(20, 10**8, runs=7)
    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=bolt_treadmill", "sweep.crank_period=[100]", "run.cycles=20",
                     f"hydra.run.dir={out}", timeout=120)
    one_line_exit_2(res, "run.max_steps", "up to 7 runs")
    assert not out.exists()


# ---- identity: the robot's code -------------------------------------------------------------------------
def test_code_is_part_of_the_identity(tmp_path, monkeypatch):
    from gaittwin.core.runs import identity, store
    files = {p.relative_to(ROOT).as_posix() for p in identity.code_files()}
    assert {"envs/crawler/robot.py", "envs/core/model/robot.py", "envs/core/model/energy.py",
            "envs/core/engines/batch.py", "envs/core/runs/sweep.py"} <= files      # the whole package
    sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **KW)
    monkeypatch.setattr(store, "code_hash", lambda robot_cls=None: "edited energy.py")
    _, st = sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **KW)
    assert st["recomputed"] == {"code changed": 1}


# ---- the fidelity report script ---------------------------------------------------------------------------
def test_fidelity_script_validates_its_arguments(tmp_path):
    (tmp_path / "file").write_text("x")
    fr = "scripts/fidelity_report.py"
    one_line_exit_2(run_script(fr, "--only", "nosuchgroup", "--out", str(tmp_path / "o")), "nosuchgroup")
    one_line_exit_2(run_script(fr, "--out", str(tmp_path / "file")), "existing file")
    one_line_exit_2(run_script(fr, "--out", "/proc/gaittwin/report"), "cannot be written")
    one_line_exit_2(run_script(fr, "--resume"), "--work")
    work = tmp_path / "work"
    (work / "crawler_fig4").mkdir(parents=True)
    (work / "crawler_fig4" / "results.sqlite").write_bytes(b"not a database")
    one_line_exit_2(run_script(fr, "--reduced", "--only", "claims_crawler_frequency", "--work", str(work),
                               "--resume", "--out", str(tmp_path / "o")), "damaged")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "work"]
    assert "default=str(ROOT / \"outputs\"" in (ROOT / fr).read_text()      # never docs/ unless asked


def test_fidelity_report_is_replaced_only_when_finished(tmp_path, monkeypatch):
    png = tmp_path / "fig.png"
    png.write_bytes(b"png")

    def good(ctx):
        ctx.plot(png, "fig.png", "a figure")
        return []

    def killed(ctx):
        raise KeyboardInterrupt

    out = tmp_path / "out"
    monkeypatch.setattr(fidelity, "claim_groups", lambda *registry: [("crawler", "t", good)])
    path = fidelity.generate(out, reduced=True, log=lambda *a: None)
    report = path.read_text()
    assert "fidelity_reduced/fig.png" in report and (out / "fidelity_reduced" / "fig.png").exists()
    monkeypatch.setattr(fidelity, "claim_groups", lambda *registry: [("crawler", "t", killed)])
    with pytest.raises(KeyboardInterrupt):
        fidelity.generate(out, reduced=True, log=lambda *a: None)
    assert path.read_text() == report and (out / "fidelity_reduced" / "fig.png").exists()
    assert sorted(p.name for p in out.iterdir()) == ["fidelity_reduced", "fidelity_report_reduced.json",
                                                    "fidelity_report_reduced.md"]


def test_a_mid_call_write_leaves_the_file_behind_for_the_calls_end():
    """Asked.due in a run: a call's end within `every` of the last write skips it and marks the file behind; a
    mid-call write (store.Committer) then does not clear it (points may finish after it); a call's end's does."""
    a = rundir.Asked(in_run=True)
    a.written = time.monotonic()
    assert a.due(1e9) is False and a.behind is True
    a.written = time.monotonic() - 10.0
    assert a.due(1.0, mid_call=True) is True and a.behind is True
    a.written = time.monotonic() - 10.0
    assert a.due(1.0) is True and a.behind is False
