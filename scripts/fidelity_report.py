#!/usr/bin/env python
"""Regenerate the fidelity report: python scripts/fidelity_report.py [--reduced] [--out docs/].

Writes <out>/fidelity_report.md (reduced: fidelity_report_reduced.md), the fields every verdict
read (<out>/fidelity_report.json, reduced: fidelity_report_reduced.json) and its plots
(<out>/fidelity/*.png, reduced: <out>/fidelity_reduced/*.png).  The claims, the paper's values
and the grids live in envs/<robot>/claims.py (machinery: envs/core/report.py, verdicts:
envs/core/verdict.py).  Full: several minutes on 2 cores; reduced: about five.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from envs.core import report as fidelity  # noqa: E402  (importing envs first chooses the GL backend)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reduced", action="store_true", help="tiny grids, fewer cycles (CI's reproducibility check)")
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parent.parent / "docs"),
                    help="output directory (default: docs/)")
    ap.add_argument("--work", default=None, help="keep the runners' outputs here (default: a temporary dir)")
    ap.add_argument("--resume", action="store_true",
                    help="with --work: reuse the finished sweep points there (after an interrupted run)")
    ap.add_argument("--only", nargs="*", default=None, help="claim groups whose function name contains these")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    path = fidelity.generate(a.out, reduced=a.reduced, work=a.work, only=a.only, resume=a.resume)
    print(f"wrote {path} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
