import importlib.util
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gaittwin  # noqa: E402,F401  (chooses the GL backend before anything imports MuJoCo)


# Optional extras a test may need: (module, the extra's install command, a skip reason's words that name it).
EXTRAS = (
    ("mujoco_warp", 'pip install -e ".[gpu]" -c constraints.txt', r"mujoco_warp|\[gpu\]"),
    ("ray", 'pip install -e ".[ray]"', r"\bray\b"),
    ("ruff", 'pip install -e ".[dev]"', r"\bruff\b"),
    ("importlinter", 'pip install -e ".[dev]"', r"import-?linter"),
)
SYSTEM = (("xvfb", "apt-get install xvfb (scripts/setup.sh does it as root)", r"xvfb|Xvfb"),
          ("OpenGL", "apt-get install libosmesa6 (or libegl1 libgl1)", r"OpenGL|libEGL|libOSMesa"))


def _reason(report) -> str:
    r = report.longrepr
    return r[2] if isinstance(r, tuple) and len(r) == 3 else str(r)


def pytest_terminal_summary(terminalreporter):
    """At the end: which skips came from a missing optional extra or system package, and what installs it."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    counts: dict = {}
    for rep in skipped:
        why = _reason(rep)
        hit = next(((name, cmd) for name, cmd, words in EXTRAS
                    if importlib.util.find_spec(name) is None and re.search(words, why)), None)
        hit = hit or next(((name, cmd) for name, cmd, words in SYSTEM if re.search(words, why)), None)
        hit = hit or ("other", why.removeprefix("Skipped: "))
        counts[hit] = counts.get(hit, 0) + 1
    tr = terminalreporter
    tr.section("skips explained")
    for (name, what), n in sorted(counts.items(), key=lambda kv: (kv[0][0] == "other", -kv[1])):
        if name == "other":
            tr.write_line(f"{n:3d} skipped: {what}")
        else:
            tr.write_line(f"{n:3d} skipped: {name} is missing; install: {what}")
