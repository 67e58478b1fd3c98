"""Metrics shared by all robots: per-cycle displacement, steady state, contact modes.

Everything here works on recorded arrays (samples of sensor data), never on a
live simulation, so the single-run path and the batch path share it exactly.
"""
from __future__ import annotations

import dataclasses

import numpy as np

# Contact mode codes (per foot, per sample).
LIFTOFF, STICK, SLIP_FORWARD, SLIP_BACKWARD = 0, 1, 2, 3
MODE_NAMES = {LIFTOFF: "liftoff", STICK: "stick", SLIP_FORWARD: "slip_forward", SLIP_BACKWARD: "slip_backward"}


def per_cycle(x_at_boundaries) -> np.ndarray:
    """Net displacement per cycle from a signal sampled at t = 0, T, 2T, ..."""
    return np.diff(np.asarray(x_at_boundaries, float))


@dataclasses.dataclass(frozen=True)
class SteadyState:
    value: float     # steady per-cycle value (mean over one detected period)
    steady: bool     # True if detected, False if max cycles ran out
    period: int      # 1 for a period-1 gait, 2 for a two-step periodic gait, 0 if not steady
    cycles: int      # cycles used


def steady_state(values, rtol: float = 2e-3, atol: float = 2e-5, repeats: int = 2,
                 max_period: int = 2, n_avg: int = 4) -> SteadyState:
    """Detect a steady per-cycle value.

    Steady with period p when the last `repeats` cycle-to-cycle changes at lag p
    are all within atol + rtol*|value|.  The value is the mean over the last p
    cycles.  Not steady: the mean of the last n_avg cycles, flagged.
    """
    v = np.asarray(values, float)
    for p in range(1, max_period + 1):
        if len(v) < p + repeats:
            continue
        tail = v[-(p + repeats):]
        ref = np.mean(np.abs(tail))
        if np.all(np.abs(tail[p:] - tail[:-p]) <= atol + rtol * ref):
            return SteadyState(float(np.mean(v[-p:])), True, p, len(v))
    return SteadyState(float(np.mean(v[-n_avg:])) if len(v) else float("nan"), False, 0, len(v))


def contact_modes(vx, fn, v_stick: float = 1e-3, f_min: float = 1e-6, forward: float = 1.0) -> np.ndarray:
    """Classify each sample of one foot: lift-off, stick, slip forward/backward.

    vx: tangential foot velocity (m/s); fn: normal force (N); forward: +1/-1, the
    advancement direction along x.  A foot with fn <= f_min is lifted off.
    """
    vx = np.asarray(vx, float) * forward
    fn = np.asarray(fn, float)
    m = np.full(vx.shape, STICK, dtype=np.int8)
    m[vx > v_stick] = SLIP_FORWARD
    m[vx < -v_stick] = SLIP_BACKWARD
    m[fn <= f_min] = LIFTOFF
    return m


def mode_fractions(modes) -> dict:
    modes = np.asarray(modes)
    return {name: float(np.mean(modes == code)) for code, name in MODE_NAMES.items()}


def intervals(mask) -> list[tuple[int, int]]:
    """[start, stop) index intervals where a boolean mask is True."""
    m = np.r_[False, np.asarray(mask, bool), False]
    d = np.diff(m.astype(np.int8))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)))


def duty_factor(contact) -> float:
    """Fraction of samples in contact (one foot, one or more strides)."""
    return float(np.mean(np.asarray(contact, bool)))


def support_fractions(contacts, counts=(0, 1, 2, 3, 4)) -> dict:
    """Fraction of samples with k feet in contact; contacts is (samples, feet) bool."""
    n = np.asarray(contacts, bool).sum(axis=1)
    return {int(k): float(np.mean(n == k)) for k in counts}


# ---- gait diagrams (legged robots): contact intervals, duty factors, support pattern ----
PUSH, DRAG = 1, -1   # friction on a foot in contact pushes the body forward / drags it backward


@dataclasses.dataclass(frozen=True)
class GaitDiagram:
    """Per-foot contact record of a gait (samples x feet), as in a gait diagram.

    contact: bool (samples, feet); push: int8 (samples, feet), PUSH/DRAG where in contact, 0
    in the air; intervals[j]: [start, stop) sample intervals of foot j's contacts;
    segments[j]: (start, stop, PUSH|DRAG) runs within those intervals.
    """

    contact: np.ndarray
    push: np.ndarray
    intervals: list
    segments: list
    duty_factor: list          # per foot: fraction of samples in contact
    drag_fraction: list        # per foot: fraction of its contact samples with backward friction
    support_fraction: dict     # k -> fraction of samples with k feet in contact


def gait_diagram(contact, forward_force, counts=None) -> GaitDiagram:
    """Gait diagram of a contact record.

    contact: (samples, feet) bool; forward_force: (samples, feet), the friction force on each
    foot along the direction of travel (> 0 pushes the body forward, as green in the MinIAQ-II
    paper's Figs. 8-9; < 0 drags it backward, red).  A contact sample with exactly zero force
    counts as pushing (no drag).
    """
    c = np.asarray(contact, bool)
    ff = np.asarray(forward_force, float)
    if c.ndim != 2 or ff.shape != c.shape:
        raise ValueError("contact and forward_force must both be (samples, feet)")
    nfeet = c.shape[1]
    push = np.where(c, np.where(ff < 0, DRAG, PUSH), 0).astype(np.int8)
    ivs, segs, duty, drag = [], [], [], []
    for j in range(nfeet):
        ivs.append([(int(a), int(b)) for a, b in intervals(c[:, j])])
        s = []
        for code in (PUSH, DRAG):
            s += [(int(a), int(b), code) for a, b in intervals(push[:, j] == code)]
        segs.append(sorted(s))
        duty.append(duty_factor(c[:, j]) if len(c) else float("nan"))
        n_c = int(c[:, j].sum())
        drag.append(float(np.sum(push[:, j] == DRAG) / n_c) if n_c else 0.0)
    counts = tuple(range(nfeet + 1)) if counts is None else counts
    return GaitDiagram(c, push, ivs, segs, duty, drag, support_fractions(c, counts))
