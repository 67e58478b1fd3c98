#!/usr/bin/env bash
# One-command setup on a fresh machine (only Python needed): a virtual environment
# in .venv with gaittwin and its pinned dependencies, plus, where apt-get is
# available and we are root, the system libraries for headless rendering
# (OSMesa) and for the viewer's headless smoke test (Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  missing=""
  dpkg -s libosmesa6 >/dev/null 2>&1 || missing="$missing libosmesa6"
  dpkg -s xvfb >/dev/null 2>&1 || missing="$missing xvfb"
  dpkg -s libgl1 >/dev/null 2>&1 || missing="$missing libgl1"
  dpkg -s libglfw3 >/dev/null 2>&1 || missing="$missing libglfw3"
  if [ -n "$missing" ]; then
    echo "installing system packages:$missing"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null) \
      || echo "warning: could not install$missing; rendering or the viewer test may be skipped" >&2
  fi
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev]"
echo "gaittwin is set up: .venv/bin/python scripts/run.py"
