"""What the scripts in scripts/ share: importing gaittwin first (it chooses the GL backend before MuJoCo
is imported), and a study's end (`finish`: its results to --json, exit status 0)."""
from __future__ import annotations

import gaittwin  # noqa: F401
from gaittwin.core.runs.study import finish  # noqa: F401
