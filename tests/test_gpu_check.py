"""scripts/gpu_check.sh without a device: it parses (bash -n), answers --help, refuses a bad argument
with exit code 2, and its cuda section limits add up to the issue's 8 minutes at most (issue 29)."""
from __future__ import annotations

import pathlib
import re
import subprocess

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "gpu_check.sh"


def test_gpu_check_parses_and_answers_help():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    r = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and "Usage: bash scripts/gpu_check.sh" in r.stdout
    assert "How each cuda limit was set" in r.stdout and "niter 45" in r.stdout
    bad = subprocess.run(["bash", str(SCRIPT), "--bogus"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "--bogus" in bad.stderr


def test_gpu_check_section_limits_fit_eight_minutes_and_match_the_header():
    text = SCRIPT.read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("else L1="))
    lim = {k: int(v) for k, v in re.findall(r"(L\d)=\$\{L\d:-(\d+)\}", line)}
    assert set(lim) == {"L1", "L2", "L3", "L4", "L5", "L6"}
    assert sum(lim.values()) <= 8 * 60, lim
    assert f"section limits {sum(lim.values())} s on cuda" in text
    head = (f"agreement {lim['L1']}, a {lim['L2']}, c {lim['L3']}, b {lim['L4']}, niter {lim['L5']}, split {lim['L6']}")
    assert head in text
