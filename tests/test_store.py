"""The sweep store (envs/store.py) and the results contract: each reproduction of issue #12
as a test (stale rows, damaged files, a failing first point, two writers, BOLT resume,
unhealthy physics, unbounded runs, and the smaller items)."""
import csv
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

import gaittwin
from gaittwin.bolt.robot import Bolt
from gaittwin.core.engines import batch
from gaittwin.core.runs import store
from gaittwin.core.runs import sweep as sw
from gaittwin.core.model.errors import ConfigError, StepBudgetError, StoreError
from gaittwin.crawler.robot import Crawler
from gaittwin.miniaq.robot import MiniAQ
from gaittwin.snake.robot import Snake
from tests.util import ROOT, assert_fails_early, run_script

CRAWLER = dict(run_kw=dict(cycles=2, nthread=1), extra_columns=("S", "V", "steady"), progress=False)
FAST = ["run.nthread=1", "run.progress=false"]


def _csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def _strict_json(path):
    def bad(c):
        raise ValueError(f"bare {c} in {path}")
    return json.loads(path.read_text(), parse_constant=bad)


# ---- identity ------------------------------------------------------------------------------
def test_canonical_encoding_is_type_stable_and_exact():
    assert store.dumps({"body_fixed": False}) == store.dumps({"body_fixed": 0.0}) == store.dumps({"body_fixed": 0})
    assert store.dumps(np.float64(0.3)) == store.dumps(0.3) and store.dumps(4) == store.dumps(4.0)
    assert store.key_of({"omega": 4.0}, ["omega"]) != store.key_of({"omega": 4.0 + 1e-12}, ["omega"])
    assert store.dumps(math.nan) == '"nan"' and store.dumps(None) == "null"
    assert store.dumps({"b": 1, "a": [1, "x"]}) == '{"a":[1.0,"x"],"b":1.0}'


# ---- 1. stale rows -------------------------------------------------------------------------
def test_changed_nonswept_parameter_and_cycles_are_recomputed(tmp_path):
    kw = dict(run_kw=dict(cycles=2, nthread=1), progress=False)
    a, st = sw.run_sweep(MiniAQ, {}, {"gait": ["trot"], "f": [2.5]}, tmp_path, **kw)
    assert st["computed"] == 1
    b, st = sw.run_sweep(MiniAQ, {"m": 0.046, "tau_max": 0.005}, {"gait": ["trot"], "f": [2.5]}, tmp_path, **kw)
    assert st["computed"] == 1 and st["recomputed"] == {"robot parameters changed": 1}
    assert b[0]["speed"] != a[0]["speed"]
    c, st = sw.run_sweep(MiniAQ, {"m": 0.046, "tau_max": 0.005}, {"gait": ["trot"], "f": [2.5]}, tmp_path,
                         run_kw=dict(cycles=3, nthread=1), progress=False)
    assert st["computed"] == 1 and st["recomputed"] == {"run settings changed": 1} and c[0]["cycles"] == 3
    d, st = sw.run_sweep(MiniAQ, {"m": 0.046, "tau_max": 0.005}, {"gait": ["trot"], "f": [2.5]}, tmp_path,
                         run_kw=dict(cycles=3, nthread=1), progress=False)
    assert st["computed"] == 0 and st["reused"] == 1 and d == c
    rows = _csv(tmp_path / "results.csv")                    # one row per key: the stale one was replaced
    assert len(rows) == 1 and rows[0]["cycles"] == "3"


def test_snake_parameter_change_is_recomputed(tmp_path):
    kw = dict(run_kw=dict(cycles=1, nthread=1), progress=False)
    sw.run_sweep(Snake, {"N": 5, "timestep": 1.25e-4}, {"alpha_deg": [30.0]}, tmp_path, **kw)
    _, st = sw.run_sweep(Snake, {"N": 5, "timestep": 1.25e-4, "kp": 1500.0, "l": 0.09}, {"alpha_deg": [30.0]}, tmp_path, **kw)
    assert st["computed"] == 1 and st["recomputed"] == {"robot parameters changed": 1}


def test_model_files_and_mujoco_version_are_part_of_the_identity(tmp_path, monkeypatch):
    sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **CRAWLER)
    monkeypatch.setattr(Crawler, "models_hash", classmethod(lambda cls: "another model"))
    _, st = sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **CRAWLER)
    assert st["recomputed"] == {"model files changed": 1}
    monkeypatch.setattr("mujoco.__version__", "0.0.0")
    _, st = sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path, **CRAWLER)
    assert st["recomputed"] == {"MuJoCo version changed": 1}


def test_cli_miniaq_stale_rows_repro(tmp_path):
    """Issue repro: a changed robot.m / robot.tau_max into the same directory was reused (computed: 0)."""
    args = ["scripts/run.py", "experiment=miniaq_gait_sweep", "run.cycles=2", "sweep.gait=[trot]", "sweep.f=[2.5]",
            *FAST, f"hydra.run.dir={tmp_path}"]
    assert run_script(*args).returncode == 0
    first = _strict_json(tmp_path / "summary.json")
    res = run_script(*args, "robot.m=0.046", "robot.tau_max=0.005")
    assert res.returncode == 0, res.stderr[-2000:]
    s = _strict_json(tmp_path / "summary.json")
    assert s["computed"] == 1 and s["recomputed"] == {"robot parameters changed": 1}
    assert s["speed"]["trot@2.5Hz"] != first["speed"]["trot@2.5Hz"]


def test_results_csv_is_the_runs_grid_and_export_has_every_point(tmp_path, capsys):
    """Issue #23: a rerun into the same directory with a changed non-swept parameter writes only its own
    grid, in grid order, to results.csv; the store keeps the first run's points, `gaittwin export` writes all."""
    args = ["scripts/run.py", "run.cycles=2", "experiment.overlay=null", *FAST, f"hydra.run.dir={tmp_path}"]
    assert run_script(*args, "sweep.omega=[4,6]").returncode == 0
    res = run_script(*args, "sweep.omega=[6,4]", "robot.m0=0.4")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = _csv(tmp_path / "results.csv")
    assert [(float(r["omega"]), float(r["m0"])) for r in rows] == [(6.0, 0.4), (4.0, 0.4)]
    from gaittwin.cli import main
    assert main(["export", str(tmp_path)]) == 0 and "results_all.csv: 4 rows" in capsys.readouterr().out
    every = {(float(r["omega"]), float(r["m0"])) for r in _csv(tmp_path / "results_all.csv")}
    assert every == {(4.0, 0.194), (6.0, 0.194), (4.0, 0.4), (6.0, 0.4)}
    assert _csv(tmp_path / "results.csv") == rows                  # the run's own table is left as it was
    assert main(["export", str(tmp_path / "none")]) == 2 and "no results store" in capsys.readouterr().err


def test_crawler_keys_every_changed_parameter(tmp_path):
    """Crawler rows are keyed by every parameter that differs from its default: robot.m0=0.4 and the
    default m0 are different rows (both kept, m0 shown), never one reused for the other."""
    from gaittwin.core.runs import config
    from gaittwin.crawler.paper.engines import simulate_rows
    cfg = config.compose(["run.cycles=2", "run.stop_when_steady=false", "run.nthread=1", "run.progress=false"])
    a, st = simulate_rows(cfg, [dict(omega=4.0, m0=0.4)], tmp_path)
    b, st = simulate_rows(cfg, [dict(omega=4.0)], tmp_path)
    assert st["computed"] == 1 and b[0]["m0"] == 0.194 and b[0]["S"] != a[0]["S"]
    rows = _csv(tmp_path / "results.csv")          # both points this process asked for, in the order asked
    assert [float(r["m0"]) for r in rows] == [0.4, 0.194]
    _, st = simulate_rows(cfg, [dict(omega=4.0, m0=0.4)], tmp_path)
    assert st["computed"] == 0


def test_asked_points_once_in_order_keyed_once(tmp_path):
    """A run's asked points (rundir.asked) keep each point once, in the order first asked (an identification
    asks many times), and address them under any key columns, a wider set included."""
    from gaittwin.core.runs import rundir
    rundir.new_run(tmp_path)
    a = rundir.asked(tmp_path, "r.csv")
    a.extend([dict(omega=4.0, m0=0.4), dict(omega=6.0, m0=0.4)])
    a.extend([dict(omega=4, m0=0.4), dict(omega=9.0, m0=0.4), dict(omega=6.0, m0=0.5)])    # 4 == 4.0: asked again
    assert rundir.asked(tmp_path, "r.csv") is a and len(a.rows) == 4
    assert a.keys(["omega"]) == [store.key_of(dict(omega=w), ["omega"]) for w in (4.0, 6.0, 9.0, 6.0)]
    assert a.keys(["omega", "m0"]) == [store.key_of(dict(omega=w, m0=m), ["omega", "m0"])
                                       for w, m in ((4.0, 0.4), (6.0, 0.4), (9.0, 0.4), (6.0, 0.5))]
    a.extend([dict(omega=1.0, m0=0.4)])
    assert a.keys(["omega"])[-1] == store.key_of(dict(omega=1.0), ["omega"]) and len(a.keys(["omega"])) == 5
    rundir.new_run(tmp_path)
    assert rundir.asked(tmp_path, "r.csv").rows == []


def test_a_run_of_many_calls_writes_results_csv_at_its_end_the_same_file(tmp_path, monkeypatch):
    """Each run_rows call of a run used to read and rewrite every row the run had asked for (an identification's
    calls: quadratic in the run).  In a run (rundir.new_run) a call reads only its own points and writes
    results.csv at most every EXPORT_EVERY_S (30 s: here only the first call) and at the run's end
    (rundir.finish_run): the same rows returned, the same file byte for byte as a write on every call."""
    from gaittwin.core.runs import rundir
    eng = sw.Engine("fake", lambda rs, add: [add(j, {"y": 2 * r.cfg["omega"]}) for j, r in enumerate(rs)] and 0,
                    {}, metrics=("y",))
    calls = [[1.0, 2.0], [3.0], [2.0, 4.0], [5.0], [0.5]]

    def run(out):
        return [sw.run_rows([Crawler(omega=w) for w in ws], out, key=["omega"], engine=eng, progress=False)[0]
                for ws in calls]
    every = run(tmp_path / "every")                     # outside a run: each call writes the file
    writes, write_csv = [], store.write_csv
    monkeypatch.setattr(store, "write_csv", lambda path, *a: (writes.append(path.name), write_csv(path, *a)))
    rundir.new_run(tmp_path / "run")
    assert run(tmp_path / "run") == every and writes == ["results.csv"]
    rundir.finish_run(tmp_path / "run")
    assert writes == ["results.csv"] * 2
    assert (tmp_path / "run" / "results.csv").read_bytes() == (tmp_path / "every" / "results.csv").read_bytes()
    assert [float(r["omega"]) for r in _csv(tmp_path / "run" / "results.csv")] == [1.0, 2.0, 3.0, 4.0, 5.0, 0.5]
    rundir.finish_run(tmp_path / "run")                 # nothing left: not written again
    sw.run_rows([Crawler(omega=6.0)], tmp_path / "run", key=["omega"], engine=eng, progress=False)
    assert writes == ["results.csv"] * 3                # after the run: each call writes the file again


def test_results_csv_has_one_clock_mid_call_and_at_a_calls_end(tmp_path, monkeypatch):
    """The store's thread rewrites results.csv mid-call (store.Committer) and run_rows at a call's end: both
    on one clock (rundir.Asked.due), so every write is on it (it had its own: a mid-call write the call's end
    did not know of, and a second write right after it).  A fake clock: the second call's two points 31 s apart
    (EXPORT_EVERY_S 30): one write mid-call (after either point: the thread's timing), none at the call's end
    (on the clock: too soon), the rest at the run's end."""
    import time
    import types
    from gaittwin.core.runs import rundir
    clock = [1000.0]
    fake = types.SimpleNamespace(monotonic=lambda: clock[0], perf_counter=time.perf_counter, time=time.time)
    monkeypatch.setattr(rundir, "time", fake)
    monkeypatch.setattr(store, "time", fake)

    def simulate(rs, add):
        for j, r in enumerate(rs):
            clock[0] += 31.0 if j else 0.0          # a call's points 31 s apart
            add(j, {"y": 2 * r.cfg["omega"]})
        return 0
    eng = sw.Engine("fake", simulate, {}, metrics=("y",))
    out = tmp_path / "run"
    rundir.new_run(out)
    writes, write_csv = [], store.write_csv

    def spy(path, *a):
        writes.append((clock[0], rundir.asked(out, "results.csv").written))
        return write_csv(path, *a)
    monkeypatch.setattr(store, "write_csv", spy)
    sw.run_rows([Crawler(omega=1.0)], out, key=["omega"], engine=eng, progress=False)
    assert len(writes) == 1                                   # the first call's end
    sw.run_rows([Crawler(omega=w) for w in (2.0, 3.0)], out, key=["omega"], engine=eng, progress=False)
    assert len(writes) == 2 and all(now == written for now, written in writes), writes
    assert rundir.asked(out, "results.csv").behind           # the point after the mid-call write: left to the end
    rundir.finish_run(out)
    assert len(writes) == 3 and [float(r["omega"]) for r in _csv(out / "results.csv")] == [1.0, 2.0, 3.0]


def test_a_failing_runner_still_leaves_results_csv_of_its_finished_calls(tmp_path, monkeypatch):
    """experiment.compute writes the results files a run left to its end (rundir.finish_run) also when its
    runner fails after some calls: results.csv holds every point those calls finished, as before."""
    from gaittwin.core.runs import config, experiment
    eng = sw.Engine("fake", lambda rs, add: [add(j, {"y": 2 * r.cfg["omega"]}) for j, r in enumerate(rs)] and 0,
                    {}, metrics=("y",))

    def runner(job, out):
        for w in (1.0, 2.0, 3.0):
            sw.run_rows([Crawler(omega=w)], out, key=["omega"], engine=eng, progress=False)
        raise RuntimeError("the runner fails after three calls")
    monkeypatch.setattr(experiment, "runner_of", lambda cls: runner)
    with pytest.raises(RuntimeError, match="three calls"):
        experiment.compute(config.compose(["run.progress=false"]), tmp_path)
    assert [float(r["omega"]) for r in _csv(tmp_path / "results.csv")] == [1.0, 2.0, 3.0]


# ---- 2. damaged files ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    out = tmp_path_factory.mktemp("clean")
    rows, _ = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, out, **CRAWLER)
    return out, rows


@pytest.mark.parametrize("damage", ["cut", "garbage", "wrong_value", "deleted"])
def test_damaged_results_csv_resumes_to_clean_results(tmp_path, clean, damage):
    src, rows = clean
    out = tmp_path / "run"
    shutil.copytree(src, out)
    res = out / "results.csv"
    text = res.read_text()
    if damage == "cut":
        res.write_text(text[: len(text) * 2 // 3])                     # mid-line
    elif damage == "garbage":
        res.write_text(text + '9.0,"unterminated quote,\x00\x01 garbage')
    elif damage == "wrong_value":
        lines = text.splitlines()
        cells = lines[1].split(",")
        cells[7] = "0.123"                                             # S of the first row
        res.write_text("\n".join([lines[0], ",".join(cells)] + lines[2:]) + "\n")
    else:
        res.unlink()
    again, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, out, **CRAWLER)
    assert st["computed"] == 0 and again == rows
    assert res.read_text() == (src / "results.csv").read_text()


def test_garbage_database_is_refused(tmp_path, clean):
    src, _ = clean
    shutil.copytree(src, tmp_path / "run")
    db = tmp_path / "run" / "results.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="damaged"):
        sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "run", **CRAWLER)
    assert db.read_bytes() == b"this is not a database" * 100       # left as it was, for salvage


def test_truncated_database_is_refused(tmp_path, clean):
    src, _ = clean
    shutil.copytree(src, tmp_path / "run")
    db = tmp_path / "run" / "results.sqlite"
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    with pytest.raises(StoreError, match="damaged"):
        sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "run", **CRAWLER)


def test_emptied_database_recomputes_and_keeps_the_old_csv_aside(tmp_path, clean):
    src, rows = clean
    shutil.copytree(src, tmp_path / "run")
    (tmp_path / "run" / "results.sqlite").write_bytes(b"")
    again, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "run", **CRAWLER)
    assert st["computed"] == 3 and st["moved_aside"] == "results.csv.bak" and again == rows
    assert (tmp_path / "run" / "results.csv.bak").read_text() == (src / "results.csv").read_text()


def test_a_damaged_row_is_never_reused(tmp_path, clean):
    """A row changed behind the store's back (its checksum no longer matches) is recomputed."""
    src, rows = clean
    shutil.copytree(src, tmp_path / "run")
    con = sqlite3.connect(tmp_path / "run" / "results.sqlite")
    (key, raw), = con.execute("SELECT key, row FROM points ORDER BY key LIMIT 1").fetchall()
    row = json.loads(raw)
    row["S"] = 0.123
    con.execute("UPDATE points SET row=? WHERE key=?", (json.dumps(row), key))
    con.commit()
    con.close()
    again, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "run", **CRAWLER)
    assert st["recomputed"] == {"damaged row": 1} and again == rows
    assert "0.123" not in (tmp_path / "run" / "results.csv").read_text()


def test_byte_damage_inside_the_database_gives_no_wrong_rows(tmp_path, clean):
    """Flip a digit of a stored value in the file itself: refused (structure check) or recomputed
    (row checksum), never exported."""
    src, rows = clean
    shutil.copytree(src, tmp_path / "run")
    db = tmp_path / "run" / "results.sqlite"
    data = bytearray(db.read_bytes())
    s = repr(rows[1]["S"]).encode()
    i = data.find(s)
    assert i > 0
    data[i + len(s) - 2] = ord("7") if data[i + len(s) - 2] != ord("7") else ord("3")
    db.write_bytes(bytes(data))
    try:
        again, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 6.0, 9.0]}, tmp_path / "run", **CRAWLER)
    except StoreError:
        return
    assert again == rows and st["computed"] >= 1


def test_cli_damaged_database_exits_2_and_keeps_the_run(tmp_path):
    out = tmp_path / "run"
    args = ["scripts/run.py", "sweep.omega=[4]", "run.cycles=2", "experiment.overlay=null", *FAST,
            f"hydra.run.dir={out}"]
    assert run_script(*args).returncode == 0
    (out / "results.sqlite").write_bytes(b"garbage" * 1000)
    res = run_script(*args)
    assert res.returncode == 2 and "error:" in res.stderr and "results.sqlite is damaged" in res.stderr
    assert (out / "results.csv").exists() and (out / "results.sqlite").exists()


# ---- 3. a failing first point ---------------------------------------------------------------
def test_failing_first_point_keeps_every_column(tmp_path):
    """Issue repro: "sweep.omega=[4]" "+sweep.kp=[1e6,400]" robot.kv=0 lost 17 metric columns and crashed."""
    res = run_script("scripts/run.py", "sweep.omega=[4]", "+sweep.kp=[1e6,400]", "robot.kv=0", "run.cycles=2",
                     "experiment.overlay=null", *FAST, f"hydra.run.dir={tmp_path}")
    assert res.returncode == 0, res.stderr[-2000:]
    rows = _csv(tmp_path / "results.csv")
    header = list(rows[0])
    assert set(header) == set(sw.columns_of(Crawler, ["omega", "kp", "kv"] + list(Crawler.columns)))
    assert header[-2:] == ["max_penetration", "error"]
    bad, good = rows
    assert "MuJoCo warning" in bad["error"] and bad["S"] == "" and bad["tracking_error_deg"] == ""
    assert good["error"] == "" and float(good["tracking_error_deg"]) < 1
    s = _strict_json(tmp_path / "summary.json")
    assert s["failed_points"] == 1 and s["all_healthy"] is False and list(s["S_by_point"]) == ["omega=4,kp=400"]
    assert (tmp_path / "S_V_vs_omega.png").exists()


def test_declared_metrics_cover_summarize_for_every_robot():
    for name in sorted(gaittwin.ROBOTS):
        cls = gaittwin.robot_class(name)
        pts = [cls()] + ([cls(body_fixed=True), cls(belt_speed=1.0), cls(spring_stiffness=65000.0)]
                         if cls is Bolt else [])
        for r in pts:
            run = batch.run_point(r, cls, cycles=2, nthread=1)
            assert set(r.summarize(run)) <= set(cls.metrics), (name, set(r.summarize(run)) - set(cls.metrics))
        assert len(set(cls.metrics)) == len(cls.metrics)
        assert cls.health_columns() == (("max_penetration", "max_loop_gap") if cls.loops else ("max_penetration",))
    from gaittwin.crawler.paper import hybrid as H
    assert set(H.summarize(H.simulate(Crawler(omega=4.0), cycles=2))) <= set(Crawler.metrics)


# ---- 4. two writers ----------------------------------------------------------------------------
WRITER = """
import sys, json, pathlib
sys.path.insert(0, {root!r})
import gaittwin
from gaittwin.core.runs import sweep as sw
from gaittwin.crawler.robot import Crawler
omegas = json.loads(sys.argv[1])
rows, st = sw.run_sweep(Crawler, {{}}, {{"omega": omegas}}, pathlib.Path(sys.argv[2]),
                        run_kw=dict(cycles=2, nthread=1), progress=False)
print(json.dumps(dict(computed=st["computed"], omegas=[r["omega"] for r in rows])))
"""


def test_two_concurrent_writers_keep_all_rows(tmp_path):
    code = WRITER.format(root=str(ROOT))
    grids = ([4.0, 6.0, 9.0, 12.0], [5.0, 7.0, 8.0, 10.0])
    procs = [subprocess.Popen([sys.executable, "-c", code, json.dumps(g), str(tmp_path)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT) for g in grids]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (o, e) in zip(procs, outs):
        assert p.returncode == 0, e[-2000:]
    for g, (o, _) in zip(grids, outs):
        r = json.loads(o.strip().splitlines()[-1])
        assert r["computed"] == 4 and r["omegas"] == g
    rows = _csv(tmp_path / "results.csv")       # a run's table is its own grid: the last one to finish
    assert sorted(float(r["omega"]) for r in rows) in (sorted(grids[0]), sorted(grids[1]))
    from gaittwin.cli import export
    assert export(tmp_path) == 0                   # the store keeps both grids
    rows = _csv(tmp_path / "results_all.csv")
    assert sorted(float(r["omega"]) for r in rows) == sorted(grids[0] + grids[1])
    assert all(r["error"] == "" and r["S"] != "" for r in rows)
    # either grid rerun finds all its rows
    for g in grids:
        _, st = sw.run_sweep(Crawler, {}, {"omega": g}, tmp_path, run_kw=dict(cycles=2, nthread=1), progress=False)
        assert st["computed"] == 0


# ---- 5. BOLT resumes ---------------------------------------------------------------------------
def test_finished_bolt_sweep_recomputes_nothing(tmp_path):
    args = ["scripts/run.py", "experiment=bolt_speed_sweep", "sweep.crank_period=[0.3,0.4]", "run.cycles=2", *FAST,
            f"hydra.run.dir={tmp_path}"]
    assert run_script(*args).returncode == 0
    res = run_script(*args)
    assert res.returncode == 0, res.stderr[-2000:]
    s = _strict_json(tmp_path / "summary.json")
    assert s["computed"] == 0 and s["reused"] == 2


# ---- 6. unhealthy physics ------------------------------------------------------------------------
def test_unhealthy_runs_are_flagged(tmp_path):
    rows, st = sw.run_sweep(Bolt, {"loop_timeconst": 1.0}, {"crank_period": [0.3]}, tmp_path / "bolt",
                            run_kw=dict(cycles=2, nthread=1), progress=False)
    assert "max loop gap" in rows[0]["error"] and rows[0]["max_loop_gap"] > Bolt.max_loop_gap
    assert rows[0]["speed"] is not None                      # measured, but not a valid result
    assert st["all_healthy"] is False and st["failed_points"] == 1
    from gaittwin.core.report.report import health_flags                # the fidelity report lists it
    (flag,) = health_flags(tmp_path / "bolt")
    assert flag[0] == "results.csv" and "crank_period=0.3" in flag[1] and "max loop gap" in flag[2]
    # an in-range but very soft foot contact (the recipe keeps even mu = 5 at omega = 16 under 0.5 mm)
    rows, st = sw.run_sweep(Crawler, {"contact_timeconst": 0.2, "contact_impedance_min": 0.5,
                                      "contact_impedance_max": 0.9}, {"omega": [16.0]}, tmp_path / "crawler", **CRAWLER)
    assert "max penetration" in rows[0]["error"] and rows[0]["max_penetration"] > Crawler.max_penetration
    assert st["all_healthy"] is False
    rows, st = sw.run_sweep(Crawler, {}, {"omega": [4.0]}, tmp_path / "ok", **CRAWLER)
    assert st["all_healthy"] and rows[0]["max_penetration"] < Crawler.max_penetration


def test_cli_unhealthy_sweep_summary(tmp_path):
    res = run_script("scripts/run.py", "experiment=bolt_speed_sweep", "sweep.crank_period=[0.3]", "run.cycles=2",
                     "robot/foot=soft", "robot.loop_timeconst=1.0", *FAST, f"hydra.run.dir={tmp_path}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = _strict_json(tmp_path / "summary.json")
    assert s["all_healthy"] is False and s["failed_points"] == 1 and s["fastest_speed"] is None
    assert "max loop gap" in s["failed"][0]["error"]


def test_retry_failed_recomputes_stored_failures(tmp_path):
    sw.run_sweep(Crawler, {"kp": 1e6, "kv": 0.0}, {"omega": [4.0]}, tmp_path, **CRAWLER)
    _, st = sw.run_sweep(Crawler, {"kp": 1e6, "kv": 0.0}, {"omega": [4.0]}, tmp_path, **CRAWLER)
    assert st["computed"] == 0 and st["failed_points"] == 1
    _, st = sw.run_sweep(Crawler, {"kp": 1e6, "kv": 0.0}, {"omega": [4.0]}, tmp_path, retry_failed=True, **CRAWLER)
    assert st["recomputed"] == {"previous error": 1}


# ---- 7. bounded runs -------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["-1", "0", "2.5", "inf", "nan", "true"])
def test_run_cycles_must_be_a_positive_whole_number(tmp_path, value):
    assert_fails_early(tmp_path, "run.cycles", f"run.cycles={value}", "sweep.omega=[4]")


def test_long_period_is_rejected_before_simulating(tmp_path):
    """Issue repro: omega=1e-4 (in range) asked for 3e8 steps per cycle and hung without a word."""
    out = tmp_path / "bad"
    res = run_script("scripts/run.py", "robot.omega=1e-4", "sweep.omega=[1e-4]", f"hydra.run.dir={out}",
                     timeout=120)
    assert res.returncode == 2 and "error: run.max_steps=" in res.stderr and "period" in res.stderr, res.stderr
    assert not out.exists()


def test_step_budget_applies_to_every_point_and_engine_path(tmp_path):
    with pytest.raises(StepBudgetError, match="run.max_steps"):
        sw.run_sweep(Snake, {}, {"T_step": [0.5, 50.0]}, tmp_path / "x", run_kw=dict(cycles=10, max_steps=10**7),
                     progress=False)
    assert not (tmp_path / "x").exists()
    with pytest.raises(StepBudgetError):
        batch.run_point(Crawler(timestep=1e-6), Crawler, cycles=10, max_steps=10**6)
    with pytest.raises(ConfigError, match="run.cycles"):
        batch.run_point(Crawler(), Crawler, cycles=0)


# ---- 8. the smaller items ----------------------------------------------------------------------------
def test_rejected_rerun_keeps_the_provenance(tmp_path):
    args = ["scripts/run.py", "sweep.omega=[4]", "run.cycles=2", "experiment.overlay=null", *FAST,
            f"hydra.run.dir={tmp_path}"]
    assert run_script(*args).returncode == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / ".hydra").iterdir()}
    assert set(before) == {"config.yaml", "hydra.yaml", "overrides.yaml"}
    res = run_script(*args, "robot.psi_deg=1000")
    assert res.returncode == 2 and "psi_deg" in res.stderr
    assert {p.name: p.read_bytes() for p in (tmp_path / ".hydra").iterdir()} == before
    assert (tmp_path / "results.csv").exists()


def test_values_within_1e_12_are_different_points(tmp_path):
    rows, st = sw.run_sweep(Crawler, {}, {"omega": [4.0, 4.0 + 1e-13]}, tmp_path, **CRAWLER)
    assert st["computed"] == 2 and len(rows) == 2 and len(_csv(tmp_path / "results.csv")) == 2
    assert [r["omega"] for r in rows] == [4.0, 4.0 + 1e-13]


def test_summary_json_has_no_bare_nan(tmp_path):
    sw.write_json(tmp_path / "s.json", dict(a=math.nan, b=[math.inf, np.float64("nan")], c={"d": 1.5}))
    assert _strict_json(tmp_path / "s.json") == dict(a=None, b=[None, None], c={"d": 1.5})
    args = ["scripts/run.py", "sweep.omega=[4]", "run.cycles=2", "experiment.overlay=null", *FAST,
            f"hydra.run.dir={tmp_path / 'run'}"]
    assert run_script(*args).returncode == 0
    assert run_script(*args).returncode == 0                   # computes nothing: steps_per_s is NaN
    assert _strict_json(tmp_path / "run" / "summary.json")["steps_per_s"] is None


class _DiskFull:
    """A text file whose write stops half-way with ENOSPC (a full disk), after writing the first half."""

    def __init__(self, f):
        self.f = f

    def write(self, text):
        self.f.write(text[: len(text) // 2])
        self.f.flush()
        raise OSError(28, "No space left on device")

    def __getattr__(self, name):
        return getattr(self.f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_json_and_csv_writes_are_all_or_nothing(tmp_path, monkeypatch, step):
    """summary.json and results.csv are replaced whole (csvio.replace_atomically): a write interrupted at any
    step (the disk full half-way through the text, fsync or the rename failing) keeps the old file byte for
    byte and leaves no temporary beside it.  (A write straight into the file fails this test: the old file
    is gone half-way.)"""
    from gaittwin.core.runs import csvio
    p, c = tmp_path / "summary.json", tmp_path / "results.csv"
    csvio.write_json(p, dict(a=1.0, b="old"))
    csvio.write_csv(c, ["a"], [dict(a=1.0)])
    old = {f: f.read_bytes() for f in (p, c)}
    with pytest.raises(TypeError):
        csvio.write_json(p, dict(a=object()))                 # not JSON: fails before any file is opened
    with pytest.raises(ZeroDivisionError):
        csvio.write_csv(c, ["a"], (dict(a=1 / x) for x in (1.0, 0.0)))   # fails half-way through the rows
    assert {f: f.read_bytes() for f in (p, c)} == old

    def fail(*a, **k):
        raise OSError(5, f"Input/output error (at {step})")
    if step == "write":
        monkeypatch.setattr(csvio, "open", lambda *a, **k: _DiskFull(open(*a, **k)), raising=False)
    else:
        monkeypatch.setattr(csvio.os, step, fail)
    with pytest.raises(OSError, match="No space|Input/output"):
        csvio.write_json(p, dict(a=2.0, b="new " * 1000))
    with pytest.raises(OSError, match="No space|Input/output"):
        csvio.write_csv(c, ["a"], [dict(a=float(i)) for i in range(1000)])
    monkeypatch.undo()
    assert {f: f.read_bytes() for f in (p, c)} == old
    assert json.loads(p.read_text()) == dict(a=1.0, b="old") and _csv(c) == [dict(a="1.0")]
    assert sorted(f.name for f in tmp_path.iterdir()) == ["results.csv", "summary.json"]


def test_experiment_name_cannot_leave_outputs(tmp_path):
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    res = run_script(ROOT / "scripts" / "run.py", "experiment.name=../..", "sweep.omega=[4]", "run.cycles=1",
                     cwd=work)
    assert res.returncode == 2 and "error: experiment.name=" in res.stderr, res.stderr[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"] and sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b"]
    assert not any(p.is_file() for p in work.rglob("*")), list(work.rglob("*"))


def test_bogus_mujoco_gl_does_not_break_a_run_that_never_renders(tmp_path):
    res = run_script("scripts/run.py", "sweep.omega=[4]", "run.cycles=1", "experiment.overlay=null", *FAST,
                     f"hydra.run.dir={tmp_path}", env={"MUJOCO_GL": "bogus"})
    assert res.returncode == 0, res.stderr[-2000:]
    res = subprocess.run([sys.executable, "-c", "import gaittwin.core.model.gl as g; import gaittwin; g.require()"], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "MUJOCO_GL": "bogus"})
    assert res.returncode != 0 and "MUJOCO_GL='bogus' is not a backend" in res.stderr
