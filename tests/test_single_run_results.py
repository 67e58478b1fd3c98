"""A single run (a Result with no results.csv) writes a one-row results.csv of its summary's scalars;
a run with its own results.csv (a table, or the sweep store's rows) keeps it untouched."""
import numpy as np

from gaittwin.core.runs import rundir
from gaittwin.core.runs.csvio import read_csv
from gaittwin.core.runs.experiment import Result


def test_single_run_writes_one_row_results_csv(tmp_path):
    Result(dict(speed=np.float64(0.5), strides=np.int64(3), steady=True, max_tracking_error_deg=1.5,
                error=None, by_period={"0.5": 1.0})).write(tmp_path)
    rows = read_csv(tmp_path / "results.csv")
    assert len(rows) == 1
    assert list(rows[0]) == ["speed", "strides", "steady", "max_tracking_error_deg", "error"]
    assert rows[0]["speed"] == 0.5 and rows[0]["strides"] == 3 and rows[0]["steady"] is True
    assert (tmp_path / "summary.json").exists()


def test_own_results_csv_not_replaced(tmp_path):
    Result(dict(speed=1.0), tables={"results.csv": {"a": [1, 2]}}).write(tmp_path)
    assert [r["a"] for r in read_csv(tmp_path / "results.csv")] == [1, 2]
    for i, rows in enumerate(({"results.csv": [{"x": 7}]}, {})):    # the sweep store wrote it
        out = tmp_path / f"b{i}"
        out.mkdir()
        rundir.new_run(out)
        rundir.asked(out, "results.csv")
        (out / "results.csv").write_text("x\n7\n")
        Result(dict(speed=1.0), rows=rows).write(out)
        assert (out / "results.csv").read_text() == "x\n7\n"


def test_rerun_replaces_single_run_row(tmp_path):
    for speed in (1.0, 2.0):                    # a rerun into the same directory: never a stale row
        rundir.new_run(tmp_path)
        Result(dict(speed=speed)).write(tmp_path)
        rundir.finish_run(tmp_path)
    assert read_csv(tmp_path / "results.csv") == [{"speed": 2.0}]
