import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_script(*args, timeout=600, env=None, cwd=None):
    """Run a project script with this interpreter; returns CompletedProcess."""
    return subprocess.run([sys.executable, *map(str, args)], cwd=cwd or ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})
