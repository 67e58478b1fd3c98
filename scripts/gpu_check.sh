#!/usr/bin/env bash
# The one short check to run on a lent GPU machine (total well under 8 minutes on an H100):
#   1. install the .[gpu] extra with the mujoco constraint (into .venv, made by setup.sh if absent),
#   2. the warp agreement against the C engine on CUDA (scripts/warp_agreement.py: the crawler and
#      MinIAQ-II sweeps; ROBOTS="crawler snake miniaq" adds the snake's 48000 steps and its compile),
#   3. bench --engine warp: a 32x32-point crawler sweep x 2 cycles on warp (4096 worlds at most) and on
#      the C batch runner (every core), and the Fig. 6 map's wall time extrapolated from its own worlds,
#   4. a summary (the card, versions, the numbers) printed and written to $OUT/gpu_check.txt if $OUT is set.
# Usage: bash scripts/gpu_check.sh [sweep_n]   (each step has its own timeout; a failed step is reported)
set -uo pipefail
cd "$(dirname "$0")/.."
N=${1:-32}
ROBOTS=${ROBOTS:-"crawler miniaq bolt"}
OUTDIR=${OUT:-/tmp}
LOG="$OUTDIR/gpu_check.txt"
: > "$LOG"
say() { echo "$@" | tee -a "$LOG"; }
t0=$(date +%s)
say "== gpu_check $(date -u +%FT%TZ) on $(hostname)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 | sed 's/^/gpu: /' | tee -a "$LOG"
if [ ! -x .venv/bin/python ]; then
  timeout 240 bash scripts/setup.sh > "$OUTDIR/setup.log" 2>&1 || say "setup.sh FAILED (see setup.log)"
fi
timeout 180 .venv/bin/python -m pip install -q -e ".[gpu]" -c constraints.txt > "$OUTDIR/pip.log" 2>&1 \
  && say "install .[gpu]: ok ($(( $(date +%s) - t0 )) s)" || say "install .[gpu]: FAILED (see pip.log)"
.venv/bin/python -c "import mujoco, mujoco_warp, warp; from importlib.metadata import version as v; \
print('versions: mujoco', mujoco.__version__, 'mujoco-warp', v('mujoco-warp'), 'warp', warp.config.version)" 2>&1 \
  | grep versions | tee -a "$LOG"
say "== agreement on cuda ($ROBOTS; sweeps and tolerances in scripts/warp_agreement.py)"
timeout 270 .venv/bin/python scripts/warp_agreement.py --device cuda --robots $ROBOTS 2>&1 \
  | grep -v "^Module\|^Warp\|^   " | tee -a "$LOG"
say "== bench --engine warp (sweep ${N}x${N}, 2 cycles)"
timeout 180 .venv/bin/python scripts/bench.py --engine warp --device cuda --sweep-n "$N" --cycles 2 2>&1 \
  | grep -v "^Module\|^Warp\|^   " | tee -a "$LOG"
say "== done in $(( $(date +%s) - t0 )) s"
