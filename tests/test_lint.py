"""Lint: `ruff check` with the rules of pyproject.toml [tool.ruff] finds nothing in the project's Python
(the package envs/, scripts/, tests/; studies/ where a checkout still has it)."""
import subprocess
import sys

import pytest

from tests.util import ROOT

PATHS = [p for p in ("envs", "scripts", "studies", "tests") if (ROOT / p).exists()]


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff is a dev dependency: pip install -e '.[dev]'")
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", *PATHS],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"ruff check {' '.join(PATHS)}:\n{res.stdout[-6000:]}{res.stderr[-2000:]}"
