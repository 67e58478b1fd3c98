"""The one CSV + sidecar reader (envs/core/trajectory.read_csv) behind both inputs of a fit: a trajectory
(trajectory.read) and a per-cycle table (cycle_table.read).  Hand-written files, no simulation (CI, < 1 s):
each shared defect is refused by both readers with one ConfigError naming experiment.data and the same reason."""
from __future__ import annotations

import json

import numpy as np
import pytest

import gaittwin
from gaittwin.core.analysis import cycle_table
from gaittwin.core.analysis import trajectory as tj
from gaittwin.core.model.errors import ConfigError

T = 2 * np.pi            # the crawler's default gait period (omega = 1 rad/s)


def _trajectory(d, header=("t", "x"), units=None, rows=None):
    t = np.linspace(0.0, T, 41)
    rows = rows if rows is not None else [[repr(float(a)), repr(float(0.01 * a))] for a in t]
    p = d / "trajectory.csv"
    p.write_text("\n".join(",".join(r) for r in [list(header)] + rows) + "\n")
    tj.sidecar_path(p).write_text(json.dumps({"units": units or {"t": "s", "x": "m"}}))
    return p


def _table(d, header=("omega", "S"), units=None, rows=None):
    rows = rows if rows is not None else [["1.0", "0.01"], ["2.0", "0.02"]]
    p = d / "table.csv"
    p.write_text("\n".join(",".join(r) for r in [list(header)] + rows) + "\n")
    tj.sidecar_path(p).write_text(json.dumps({"format": cycle_table.FORMAT, "units": units or {"omega": "rad/s", "S": "m"}}))
    return p


def test_both_readers_take_good_files(tmp_path):
    """A trajectory and a table written by hand read back as written (tolerance: exact, they are the same floats)."""
    robot = gaittwin.Crawler()
    data = cycle_table.load(_trajectory(tmp_path), robot)
    assert data.names == ["x"] and data.t[-1] == T and data.values["x"][-1] == 0.01 * T and len(data.sha256) == 64
    table = cycle_table.load(_table(tmp_path), robot)
    assert table.gait == [{"omega": 1.0}, {"omega": 2.0}] and table.values["S"].tolist() == [0.01, 0.02]


CASES = {   # case: (what is damaged, the reason both readers give)
    "missing sidecar": "sidecar",
    "bad sidecar": "not valid",
    "empty file": "empty file",
    "duplicated column": "duplicated column",
    "unit mismatch": "unit mismatch",
    "not a number": "not a number",
    "NaN": "NaN",
    "short row": "cells",
}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("kind", ["trajectory", "table"])
def test_a_shared_defect_is_refused_alike_by_both_readers(tmp_path, kind, case):
    robot = gaittwin.Crawler()
    write, read = (_trajectory, tj.read) if kind == "trajectory" else (_table, cycle_table.read)
    p = write(tmp_path)
    head, *body = [r.split(",") for r in p.read_text().splitlines()]
    meta = json.loads(tj.sidecar_path(p).read_text())
    if case == "missing sidecar":
        tj.sidecar_path(p).unlink()
    elif case == "bad sidecar":
        tj.sidecar_path(p).write_text("{not json")
    elif case == "empty file":
        p.write_text("\n\n")
    elif case == "duplicated column":
        p.write_text("\n".join(",".join(r + [r[1]]) for r in [head] + body) + "\n")
    elif case == "unit mismatch":
        meta["units"][head[1]] = "mm"
        tj.sidecar_path(p).write_text(json.dumps(meta))
    else:
        body[1][1] = {"not a number": "abc", "NaN": "nan", "short row": body[1][1]}[case]
        if case == "short row":
            body[1] = body[1] + ["1.0"]
        p.write_text("\n".join(",".join(r) for r in [head] + body) + "\n")
    with pytest.raises(ConfigError, match=CASES[case]) as e:
        read(p, robot)
    assert str(e.value).startswith("experiment.data=") and "\n" not in str(e.value)


def test_blank_lines_are_skipped_by_both_readers(tmp_path):
    robot = gaittwin.Crawler()
    for write, read in ((_trajectory, tj.read), (_table, cycle_table.read)):
        p = write(tmp_path)
        lines = p.read_text().splitlines()
        p.write_text("\n".join(lines[:2] + [""] + lines[2:]) + "\n")
        assert len(read(p, robot).names) == 1
