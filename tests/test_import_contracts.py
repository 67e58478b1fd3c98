"""Import contracts (pyproject.toml [tool.importlinter], checked by import-linter's `lint-imports`): each
robot's paper above its twin, the twin above core; core imports no robot, app or CLI; robots are
independent of each other; core's stages stand in layers (report and analysis, view, runs, engines, model).

The contracts hold on the checkout, and each is shown to bite: in a scratch copy of the package, one
forbidden import added breaks the contract that forbids it (and, through indirect chains, maybe others)."""
import os
import shutil
import subprocess
import sys

import pytest

from tests.util import ROOT

pytest.importorskip("importlinter", reason="import-linter is a dev dependency: pip install -e '.[dev]'")

LINT = ("import sys; from importlinter.cli import lint_imports_command; "
        "sys.argv[0] = 'lint-imports'; sys.exit(lint_imports_command())")
CORE = "core imports no robot, no app, no cli"
TWIN = "a twin's modules do not import its paper"
INIT = "a robot package (its __init__) does not import its paper"
ROBOTS = "robots are independent of each other"
STAGES = "core stages in layers"
CONTRACTS = (CORE, TWIN, INIT, ROBOTS, STAGES)


def lint_imports(cwd=ROOT, pythonpath=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["COLUMNS"] = "400"                     # one line a contract in the report
    if pythonpath:
        env["PYTHONPATH"] = str(pythonpath)    # a scratch copy of the package shadows the installed one
    return subprocess.run([sys.executable, "-c", LINT, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
                          cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def verdicts(out: str) -> dict:
    found = {}
    for line in out.splitlines():
        for name in CONTRACTS:
            if line.startswith(name) and line.rstrip().endswith(("KEPT", "BROKEN")):
                found[name] = line.rstrip().rsplit(" ", 1)[1]
    return found


def test_the_contracts_hold():
    res = lint_imports()
    assert res.returncode == 0, res.stdout[-6000:] + res.stderr[-2000:]
    assert verdicts(res.stdout) == dict.fromkeys(CONTRACTS, "KEPT"), res.stdout[-3000:]


# (file of the package, a forbidden import added at its end, the contract it breaks)
VIOLATIONS = [
    pytest.param("core/model/errors.py", "from ...crawler import robot as _forbidden", CORE, id="core-imports-a-robot"),
    pytest.param("core/runs/csvio.py", "from ...app import common as _forbidden", CORE, id="core-imports-the-app"),
    pytest.param("bolt/kinematics.py", "from .paper import model as _forbidden", TWIN, id="twin-imports-its-paper"),
    pytest.param("snake/__init__.py", "from .paper import experiments as _forbidden", INIT, id="robot-init-imports-its-paper"),
    pytest.param("miniaq/paper/plots.py", "from ...crawler import robot as _forbidden", ROBOTS, id="robot-imports-another"),
    pytest.param("core/model/stepper.py", "from ..runs import store as _forbidden", STAGES, id="model-imports-runs"),
    pytest.param("core/engines/runs.py", "from ..view import plots as _forbidden", STAGES, id="engines-import-view"),
]


@pytest.mark.parametrize("path, line, broken", VIOLATIONS)
def test_a_forbidden_import_breaks_its_contract(tmp_path, path, line, broken):
    pkg = tmp_path / "gaittwin"
    shutil.copytree(ROOT / "envs", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    with open(pkg / path, "a") as f:
        f.write(f"\n{line}  # a deliberate violation (tests/test_import_contracts.py)\n")
    res = lint_imports(cwd=tmp_path, pythonpath=tmp_path)
    assert res.returncode != 0, res.stdout[-3000:]
    found = verdicts(res.stdout)
    assert set(found) == set(CONTRACTS) and found[broken] == "BROKEN", res.stdout[-3000:]   # (others may break too:
    assert f"gaittwin.{path[:-3].replace('/', '.').removesuffix('.__init__')}" in res.stdout  # indirect chains count)
