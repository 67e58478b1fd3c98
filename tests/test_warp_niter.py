"""scripts/warp_niter.py: MuJoCo Warp's solver iterations over the crawler's omega range (issue 29);
bad arguments exit 2 before anything runs, and a count is read from Warp's CPU device."""
from __future__ import annotations

import importlib.util
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import warp_niter  # noqa: E402


@pytest.mark.parametrize("argv", [["--steps", "0"], ["--windows", "0"], ["--omega", "0.1"], ["--omega", "20"],
                                  ["--psi-deg", "400"], ["--mu", "-1"]])
def test_bad_arguments_exit_2_naming_them(argv, capsys):
    assert warp_niter.main(argv) == 2
    err = capsys.readouterr().err
    assert argv[0].lstrip("-").replace("-", "_").split("_")[0] in err, err


@pytest.mark.skipif(importlib.util.find_spec("mujoco_warp") is None, reason="mujoco_warp not installed")
def test_counts_the_solver_iterations_of_each_step():
    """omega 16, one window of 5 steps in its second cycle: each step's solver_niter is read (the
    crawler's Newton solver needs at least one iteration with contacts, and at most its cap)."""
    c = warp_niter.count(16.0, 0.172, steps=5, windows=1, dev="cpu")
    assert c["steps"] == 5 and c["cap"] == 100 and c["steps_per_cycle"] == 2000
    assert 1 <= c["mean"] <= c["max"] <= c["cap"] and 0 <= c["at_cap"] <= 1
