"""The third adversarial battery's reproductions, each the smallest run that shows it: no traceback, no
silent wrong result, no damaged file, no accepted bad input."""
import importlib.util
import json
import sqlite3
import sys

import pytest

from gaittwin.app import common, render as render_app
from gaittwin.bolt.robot import Bolt
from gaittwin.cli import export
from gaittwin.core.analysis import trajectory as tj
from gaittwin.core.engines import batch
from gaittwin.core.model.errors import ConfigError, StepBudgetError
from gaittwin.core.runs import config, experiment, identity, rundir, store
from gaittwin.core.runs import sweep as sw
from gaittwin.crawler.robot import Crawler
from tests.util import ROOT, run_script

KW = dict(run_kw=dict(cycles=1, nthread=1), progress=False)


def one_line(capsys, *needles):
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1, err
    for n in needles:
        assert n in err, err


def job(*overrides):
    return config.validate(config.compose(list(overrides)))


# ---- tracebacks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("override, needle", [("=2", "no key"), ("robot=null", "robot=None"),
                                              ("experiment=null", "experiment=None")])
def test_hydra_grammar_errors_are_one_line(override, needle, capsys):
    with pytest.raises(SystemExit) as e:
        common.checked([override])
    assert e.value.code == 2
    one_line(capsys, needle)
    with pytest.raises(SystemExit) as e:
        render_app.main([override])
    assert e.value.code == 2
    one_line(capsys, needle)


def test_a_failed_single_run_is_a_row_with_error(tmp_path):
    out = tmp_path / "run"
    res = run_script("scripts/run.py", "experiment=miniaq_turn", "robot.timestep=1e-3", "run.nthread=1", "run.cycles=3",
                     f"hydra.run.dir={out}", timeout=300)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    rows = sw.read_csv(out / "results.csv")
    assert len(rows) == 1 and "BADQACC" in rows[0]["error"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["all_healthy"] is False and "BADQACC" in summary["error"]
    assert (out / ".hydra" / "config.yaml").exists()


def test_miniaq_c_max_zero_is_refused_in_one_line():
    with pytest.raises(ConfigError, match=r"c_max=0.0 is not allowed"):
        job("experiment=miniaq_trot", "robot.c_max=0")


def test_render_out_is_checked_before_rendering(tmp_path, capsys, monkeypatch):
    from gaittwin.core.view import render
    monkeypatch.setattr(render, "render_video", lambda *a, **k: pytest.fail("rendered before checking --out"))
    assert render_app.main(["--out", str(tmp_path)]) == 2
    one_line(capsys, "--out", "directory")
    ro = tmp_path / "ro"
    ro.mkdir(mode=0o500)
    if not render_app.unwritable(ro / "x.mp4"):          # root writes anywhere: nothing to check
        pytest.skip("running as root")
    assert render_app.main(["--out", str(ro / "gait.mp4")]) == 2
    one_line(capsys, "cannot be written")


def test_a_full_file_system_at_claim_time_is_one_line(tmp_path, monkeypatch):
    class Full:
        def __init__(self, *a, **k):
            self.f = open(*a, **k)

        def write(self, s):
            raise OSError(28, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.f, name)
    monkeypatch.setattr(rundir, "open", Full, raising=False)
    with pytest.raises(rundir.RunDirError, match="cannot be claimed: No space left on device"):
        rundir.claim(tmp_path, config.compose(["experiment=crawler_frequency_sweep"]))


# ---- silent wrong results -------------------------------------------------------------------------------
def test_an_unhealthy_trajectory_is_flagged_and_refused_as_data(tmp_path):
    j = job("experiment=crawler_trajectory", "robot.contact_timeconst=1", "robot.omega=8", "experiment.cycles=1",
            "run.nthread=1")
    s = experiment.run(j, tmp_path)
    assert s["all_healthy"] is False and "penetration" in s["error"]
    assert "penetration" in sw.read_csv(tmp_path / "results.csv")[0]["error"]
    with pytest.raises(ConfigError, match="not a valid result"):
        tj.read(tmp_path / "trajectory.csv", Crawler(omega=8))


def test_a_nan_metric_is_an_error_single_run_and_sweep(tmp_path):
    (tmp_path / "one").mkdir()
    s = experiment.run(job("experiment=bolt_running", "run.cycles=1", "run.nthread=1"), tmp_path / "one")
    assert s["all_healthy"] is False and "stride_time" in s["error"]
    rows, st = sw.run_sweep(Bolt, {}, {"crank_period": [0.3]}, tmp_path / "sweep", **KW)
    assert "stride_time" in rows[0]["error"] and st["all_healthy"] is False


def test_code_identity_is_the_whole_package():
    files = set(identity.code_files())
    imported = {identity.pathlib.Path(m.__file__).resolve() for n, m in list(sys.modules.items())
                if n.startswith("gaittwin") and n.split(".")[1:2] not in (["configs"], ["models"])    # data, not code
                and getattr(m, "__file__", None)}
    assert imported <= files and identity.PACKAGE / "core" / "model" / "energy.py" in files


def test_duplicate_points_are_merged_before_counting(tmp_path):
    assert job("experiment=crawler_frequency_sweep", "sweep.omega=[2,2,3,2.0]").sweep["omega"] == (2.0, 3.0)
    rows, st = sw.run_sweep(Crawler, {}, {"omega": [8.0, 8.0, 8]}, tmp_path, **KW)
    assert (st["points"], st["computed"], st["reused"]) == (1, 1, 0)
    assert len(sw.read_csv(tmp_path / "results.csv")) == 1


def test_export_never_overwrites_a_users_file(tmp_path, capsys):
    sw.run_sweep(Crawler, {}, {"omega": [8.0]}, tmp_path, **KW)
    mine = tmp_path / "results_all.csv"
    mine.write_text("my own notes\n")
    assert export(tmp_path) == 0
    assert (tmp_path / "results_all.csv.bak").read_text() == "my own notes\n"
    assert export(tmp_path) == 0                        # its own last export: replaced, nothing moved
    assert not (tmp_path / "results_all.csv.bak1").exists() and len(sw.read_csv(mine)) == 1


# ---- damage ---------------------------------------------------------------------------------------------
def test_a_failing_rerun_keeps_results_csv(tmp_path, monkeypatch):
    j = job("experiment=crawler_frequency_sweep", "sweep.omega=[8]", "robot.omega=8", "experiment.overlay=null",
            "run.cycles=1", "run.nthread=1", "run.progress=false")
    experiment.run(j, tmp_path)
    before = {f: (tmp_path / f).read_bytes() for f in ("results.csv", "summary.json")}

    def full(*a, **k):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(store.Store, "put", full)
    with pytest.raises(sqlite3.OperationalError):
        experiment.run(job("experiment=crawler_frequency_sweep", "sweep.omega=[7]", "robot.omega=8",
                           "experiment.overlay=null", "run.cycles=1", "run.nthread=1", "run.progress=false"), tmp_path)
    assert {f: (tmp_path / f).read_bytes() for f in before} == before


# ---- accepted bad inputs --------------------------------------------------------------------------------
def test_output_paths_of_the_fidelity_report_are_checked(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("fidelity_report_script", ROOT / "scripts" / "fidelity_report.py")
    fr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fr)
    for argv, needle in ((["--out", ""], "--out=''"), (["--resume", "--work", str(tmp_path / "missing")], "no such")):
        with pytest.raises(SystemExit) as e:
            fr.main(argv)
        assert e.value.code == 2
        one_line(capsys, needle)
    assert list(tmp_path.iterdir()) == []


def test_run_device_is_checked_on_every_engine():
    with pytest.raises(ConfigError, match="run.device='bogus'"):
        job("experiment=crawler_frequency_sweep", "run.device=bogus")


@pytest.fixture(scope="module")
def good_trajectory(tmp_path_factory):
    out = tmp_path_factory.mktemp("traj")
    experiment.run(job("experiment=crawler_trajectory", "robot.omega=8", "experiment.cycles=1", "run.nthread=1"), out)
    return out


@pytest.mark.parametrize("field, value, needle", [("period", -1, "period"), ("period", "abc", "period"),
                                                  ("robot", "snake", "another robot"), ("format", "csv 2", "format")])
def test_trajectory_sidecar_fields_are_checked(good_trajectory, tmp_path, field, value, needle):
    csv, side = tmp_path / "t.csv", tmp_path / "t.json"
    csv.write_bytes((good_trajectory / "trajectory.csv").read_bytes())
    meta = json.loads((good_trajectory / "trajectory.json").read_text())
    tj.read(good_trajectory / "trajectory.csv", Crawler(omega=8))           # the file as written is data
    side.write_text(json.dumps(dict(meta, **{field: value})))
    with pytest.raises(ConfigError, match=needle):
        tj.read(csv, Crawler(omega=8))


def test_an_absurd_sample_is_refused(good_trajectory, tmp_path):
    lines = (good_trajectory / "trajectory.csv").read_text().splitlines()
    cells = lines[5].split(",")
    cells[1] = "1e300"
    (tmp_path / "t.csv").write_text("\n".join(lines[:5] + [",".join(cells)] + lines[6:]) + "\n")
    (tmp_path / "t.json").write_bytes((good_trajectory / "trajectory.json").read_bytes())
    with pytest.raises(ConfigError, match="1e\\+300 is beyond"):
        tj.read(tmp_path / "t.csv", Crawler(omega=8))


def test_a_late_refusal_is_made_before_anything_runs():
    with pytest.raises(StepBudgetError):
        job("experiment=crawler_frequency_sweep", "sweep.omega=[2]", "robot.omega=1e-6")


# ---- determinism ----------------------------------------------------------------------------------------
def test_energy_does_not_depend_on_the_chunk_size():
    runs = [batch.run_point(Crawler(omega=8), None, cycles=1, nthread=1, chunk=c) for c in (7, 100000)]
    vals = [Crawler(omega=8).summarize(r) for r in runs]
    for k in ("work_per_cycle", "mean_power", "cost_of_transport"):
        assert repr(vals[0][k]) == repr(vals[1][k]), k
