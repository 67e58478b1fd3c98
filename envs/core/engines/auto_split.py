"""engine="auto" in the batch runner: the longest points on the C batch runner's threads, the rest on
MuJoCo Warp, both at once (envs/core/engines/batch.py run_points).

Why: on the device every world of a batch steps in lock step, so one long point (Fig. 6's omega
0.3 takes 53x the steps of omega 16) holds the batch for its whole length while the other worlds
have long finished; the C threads, whose cost is the steps they run, take those points better.

The split rule, stated: a point's cost is its step bound n_i = cycles x steps_per_cycle (an early
stop when steady only shortens it).  For a threshold L, the points with n_i > L go to the C
threads and the others to warp; the estimated wall times are

    C:    sum_{n_i > L} n_i / cpu_rate                         (cpu_rate: C steps/s on all threads)
    warp: max(L_warp x step_s, sum_{n_i <= L} n_i / warp_rate)  (L_warp: its longest point; step_s:
          seconds per batch step at its nworld; warp_rate: its world-steps/s)

and L is the one (over the distinct n_i, and "none to C") that minimises the larger of the two.
The rates default to what this project measured (README "Engines"): on a CUDA device the H100
machine's (bench a: 2.92 M world-steps/s at 16,384 worlds, so 5.6 ms a batch step; the C runner
29,000 steps/s a thread), on Warp's CPU device this machine's (~300 world-steps/s for 2-8 worlds;
the C runner ~30,000 steps/s a thread).  Rows are the same as either engine's alone: each point
runs whole on one engine (Run.engine names it)."""
from __future__ import annotations

RATES = {   # device kind: (warp world-steps/s, seconds per batch step, C steps/s per thread)
    "cuda": (2.92e6, 5.6e-3, 2.9e4),
    "cpu": (300.0, 8 / 300.0, 3.0e4),
}


def split(steps, nthread: int, device: str, rates: tuple | None = None) -> tuple[list[int], list[int], dict]:
    """(indices for the C threads, indices for warp, the estimate) of points with step bounds
    `steps`, by the rule above; rates: (warp world-steps/s, s per batch step, C steps/s per thread),
    default RATES of the device kind."""
    warp_rate, step_s, per_thread = rates or RATES["cuda" if device.startswith("cuda") else "cpu"]
    cpu_rate = per_thread * max(1, nthread)
    order = sorted(range(len(steps)), key=lambda i: -steps[i])
    n = [float(steps[i]) for i in order]
    prefix = [0.0]
    for x in n:
        prefix.append(prefix[-1] + x)
    best = None
    for k in range(len(n) + 1):            # the k longest points to the C threads
        if 0 < k < len(n) and n[k] == n[k - 1]:
            continue                       # a threshold between equal step counts is no threshold
        t_c = prefix[k] / cpu_rate
        t_w = max(n[k] * step_s, (prefix[-1] - prefix[k]) / warp_rate) if k < len(n) else 0.0
        if best is None or max(t_c, t_w) < best[0]:
            best = (max(t_c, t_w), k, t_c, t_w)
    _, k, t_c, t_w = best
    return sorted(order[:k]), sorted(order[k:]), dict(cpu_points=k, warp_points=len(n) - k,
                                                      est_cpu_s=t_c, est_warp_s=t_w)
