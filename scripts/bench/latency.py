"""How long the command takes to answer: a rejected override, `gaittwin list`, `gaittwin params crawler`.

    python scripts/bench/latency.py [--runs 5]

Each command runs `--runs` times in a fresh interpreter (this one: `python -m gaittwin.cli ...`, what the
`gaittwin` entry point runs); printed: the median and range of the wall time, the median CPU time (user +
system: roughly a quiet machine's wall time), the exit code, and the 1-minute load average before and after
(`os.getloadavg`, as `uptime` shows it).  For scale: the bare interpreter (`python -c pass`) and `import
gaittwin`.  Target: the rejection under 1 s on a quiet 2-core machine (issue #38); under load every figure
grows, so read them with the load beside them.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ("python -c pass", ["-c", "pass"], 0),
    ("import gaittwin", ["-c", "import gaittwin"], 0),
    ("gaittwin run robot.omega=-1 (rejected)", ["-m", "gaittwin.cli", "run", "robot.omega=-1"], 2),
    ("gaittwin list", ["-m", "gaittwin.cli", "list"], 0),
    ("gaittwin params crawler", ["-m", "gaittwin.cli", "params", "crawler"], 0),
]


def timed(args, cwd) -> tuple[float, float, int, str]:
    """(wall s, CPU s (user + system, the command and its children), exit code, last stderr line)."""
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
    return wall, cpu, res.returncode, res.stderr.strip().splitlines()[-1:] and res.stderr.strip().splitlines()[-1]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs of each command (the median is printed)")
    a = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    print(f"{os.cpu_count()} CPU cores; MUJOCO_GL={os.environ.get('MUJOCO_GL', '(unset)')}; "
          f"1-min load before: {load0:.2f}")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):     # every start compiles gaittwin's sources: ~0.3-0.4 s more
        print("PYTHONDONTWRITEBYTECODE is set: no bytecode cache, every figure includes compiling the sources "
              "(set PYTHONPYCACHEPREFIX=<dir> and unset it to measure what an installed gaittwin starts in)")
    bad = 0
    with tempfile.TemporaryDirectory() as cwd:          # a rejected run must not leave anything behind
        for label, args, want in COMMANDS:
            times, cpus, codes, last = [], [], set(), ""
            for _ in range(a.runs):
                t, cpu, rc, last = timed(args, cwd)
                times.append(t)
                cpus.append(cpu)
                codes.add(rc)
            ok = codes == {want}
            bad += not ok
            print(f"{label:<42} median {statistics.median(times):6.2f} s  (min {min(times):.2f}, max {max(times):.2f}, "
                  f"{a.runs} runs); CPU median {statistics.median(cpus):.2f} s  exit {sorted(codes)}{'' if ok else f' EXPECTED {want}'}")
            if want == 2:
                print(f"{'':<42} {last}")
        left = os.listdir(cwd)
    print(f"1-min load after: {os.getloadavg()[0]:.2f}" + (f"; LEFT BEHIND: {left}" if left else ""))
    return 1 if bad or left else 0


if __name__ == "__main__":
    sys.exit(main())
