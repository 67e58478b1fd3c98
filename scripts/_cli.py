"""What the scripts in scripts/ share: the installed package's checks (gaittwin.app.common)."""
from __future__ import annotations

import pathlib

import gaittwin  # noqa: F401  (chooses the GL backend before MuJoCo is imported)
from gaittwin.app.common import checked, or_exit, robot_from, robot_or_exit  # noqa: F401
from gaittwin.core.runs.study import finish  # noqa: F401  (a study's end: --json, exit 0)

ROOT = pathlib.Path(__file__).resolve().parent.parent
