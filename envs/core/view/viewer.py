"""The interactive viewer's session (scripts/view.py): real-time pacing, the live real-time factor,
live figures and texts on MuJoCo's passive viewer, the window's layout, and keys.

Pacing: the simulation follows the wall clock times a rate (1 = real time); each frame steps until
the simulated time reaches the target, at most one frame's worth of wall time of stepping, so a
robot that cannot keep up shows it; after falling behind it catches up at most MAX_LAG of simulated
time (no long fast-forward after the machine was busy).  The real-time factor (RTF) drawn on screen is simulated s /
wall s over the last RTF_WINDOW seconds (at least RTF_MIN_SPAN measured, else "measuring"), the
window reaching back past any stall: a catch-up after a stall is averaged with the stall, never
shown as a burst.  Below 0.95 at rate 1 a warning is drawn and printed.  The step is the robot's
`viewer_timestep` (a larger step validated against the reference, models/<robot>/README.md
"Viewer timestep"), else its own.

Layout (`layout`, a pure function of the 3D view's size): the live figures in one column at the
right edge (at least FIG_MIN_WIDTH px wide, HISTORY_S seconds of history, axes with tick values,
units in the titles), the status text at the top left and the keys at the bottom left, sized with
MuJoCo's font metrics so that nothing overlaps.  The camera follows the robot at a distance that
fits the robot's bounding box in the part of the view the figures leave free (`frame_distance`).
MuJoCo's own panels start hidden; tab / shift+tab show them (the layout follows).

Keys (the callback only queues them; the main loop applies them):
  space            pause / resume
  -  /  =          half / double the rate (slow motion, at most real time)
  right arrow      one frame's worth of steps while paused
  backspace        reset the gait to t = 0
  page up / down   the robot's gait parameter (`gait_parameter`: name, step) up / down; restarts
  tab, shift+tab   MuJoCo's left and right panels (MuJoCo's own keys)
"""
from __future__ import annotations

import collections
import copy
import ctypes
import ctypes.util
import dataclasses
import math
import os
import sys
import threading
import time

import mujoco
import numpy as np

from ..model import energy
from .render import gait_text
from ..model.stepper import Stepper

HINT = ("error: no display: the interactive viewer needs one (DISPLAY is not set).\n"
        "  run it under a virtual display:  xvfb-run -a python scripts/view.py [--duration S] [overrides]\n"
        "  or write a video instead:        python scripts/render.py [overrides]")
KEYS = {32: "pause", 45: "slower", 61: "faster", 262: "step", 259: "reset", 266: "gait_up", 267: "gait_down"}
RTF_WARN = 0.95                 # below this at rate 1 the viewer is behind real time: said on screen
RTF_WINDOW = 2.0                # s of wall time the real-time factor is averaged over
RTF_MIN_SPAN = 1.0              # s measured before a real-time factor is shown
MAX_LAG = 0.25                  # s of simulated time the pacing catches up at most after falling behind
CATCHUP_FRAMES = 3              # more than a frame behind: step for up to this many frames of wall time before the
#                                 next frame is drawn (the frame rate gives way before real time does)
HISTORY_S = 5.0                 # s of history in each figure
HISTORY = 1000                  # points kept per line (mjMAXLINEPNT)
FIG_MIN_WIDTH = 250             # px, the figure column's least width (at font scale 100)
FIG_FRACTION = 0.28             # the figure column's share of the view's width
AZIMUTH, ELEVATION = 90.0, -15.0
FILL = 0.8                      # the robot's bounding box fills this share of the free view


def has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def thread_ids() -> set:
    """The kernel ids of this process's threads (Linux; the main thread's alone elsewhere), native
    ones included (e.g. a software OpenGL's rasterizer threads, which Python does not list)."""
    try:
        return {int(t) for t in os.listdir("/proc/self/task")}
    except OSError:
        return {threading.get_native_id()}


def process_age() -> float | None:
    """Seconds since this process started (Linux: /proc), None where unknown."""
    try:
        start = int(open("/proc/self/stat").read().rpartition(")")[2].split()[19])
        uptime = float(open("/proc/uptime").read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return uptime - start / os.sysconf("SC_CLK_TCK")


def lower_priority(tids, nice: int) -> None:
    """Add `nice` to the CPU niceness of these threads (Linux: per thread); ignored elsewhere."""
    for tid in tids:
        if nice and hasattr(os, "setpriority"):
            try:
                os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + nice))
            except OSError:
                pass


def viewer_robot(robot):
    """The robot at its declared viewer timestep (a larger, validated step), else unchanged."""
    dt = getattr(robot, "viewer_timestep", None)
    if dt is None or dt <= robot.cfg.get("timestep", dt):
        return robot
    return type(robot)(**{**robot.cfg, "timestep": dt})


# ---- layout: rectangles from the window's size (pure) -------------------------------------------
@dataclasses.dataclass(frozen=True)
class Rect:
    """A rectangle in framebuffer pixels, origin at the bottom left (MuJoCo's mjrRect)."""
    left: int
    bottom: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def top(self) -> int:
        return self.bottom + self.height

    def intersects(self, o: "Rect") -> bool:
        return self.left < o.right and o.left < self.right and self.bottom < o.top and o.bottom < self.top

    def union(self, o: "Rect") -> "Rect":
        left, bottom = min(self.left, o.left), min(self.bottom, o.bottom)
        return Rect(left, bottom, max(self.right, o.right) - left, max(self.top, o.top) - bottom)

    def mjr(self) -> mujoco.MjrRect:
        return mujoco.MjrRect(self.left, self.bottom, self.width, self.height)


# MuJoCo's normal font (mjrContext.charWidth at font scale 100) for the characters 32..126, and its
# character height at each font scale; at scale s a character is at most ceil((w + 1) s / 100) wide
# (checked against mjr_makeContext by tests/test_viewer.py).
_CHAR_WIDTH_100 = (
    4, 5, 6, 9, 8, 12, 10, 4, 5, 5, 8, 8, 4, 5, 4, 6, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 4, 4, 8, 8, 8, 7,
    12, 10, 10, 10, 11, 10, 9, 11, 11, 4, 8, 9, 8, 12, 11, 11, 10, 11, 11, 10, 10, 11, 10, 14, 9, 10, 9, 5, 5, 5, 8, 8,
    5, 9, 9, 8, 9, 9, 4, 9, 8, 4, 4, 8, 4, 12, 8, 9, 9, 9, 5, 8, 4, 8, 8, 10, 7, 8, 7, 6, 8, 6, 8)
CHAR_HEIGHT = {100: 18, 150: 28, 200: 37, 250: 45, 300: 54}
PAD = 5                         # mjr_overlay's padding around a text block


def char_width(c: str, scale: int) -> int:
    w = _CHAR_WIDTH_100[ord(c) - 32] if 32 <= ord(c) < 127 else max(_CHAR_WIDTH_100)
    return math.ceil((w + 1) * scale / 100)


def text_box(text: str, scale: int) -> tuple[int, int]:
    """(width, height) of one column of mjr_overlay's text block (render_gl2.c, draw_overlay)."""
    lines = text.split("\n")
    h = CHAR_HEIGHT[scale]
    nc = max(sum(char_width(c, scale) for c in line) for line in lines)
    return PAD + nc + 8, PAD + h * len(lines) + PAD * (len(lines) - 1)


def overlay_rect(view: Rect, gridpos: int, left: str, right: str, scale: int) -> Rect:
    """Where mjr_overlay draws a two-column text block at the top or bottom left of `view`."""
    (w1, h1), (w2, h2) = text_box(left, scale), text_box(right, scale)
    top = gridpos == mujoco.mjtGridPos.mjGRID_TOPLEFT
    def box(skip, w, h):
        bottom = view.top - 1 - PAD - h if top else view.bottom + PAD
        return Rect(view.left + skip + PAD, bottom, w, h)
    return box(0, w1, h1).union(box(w1 - 2, w2, h2))


@dataclasses.dataclass(frozen=True)
class Layout:
    figures: list           # Rect per figure, top to bottom, in one column at the right edge
    texts: list             # Rect per text block, as MuJoCo will draw it
    free: Rect              # the view left of the figure column (the robot is framed in it)


def layout(view: Rect, nfig: int, texts, scale: int = 100) -> Layout:
    """The figure column and the text blocks in `view` (the 3D view: the window less MuJoCo's
    panels).  texts: (gridpos, left, right) as drawn; scale: MuJoCo's font scale."""
    fw = max(math.ceil(FIG_MIN_WIDTH * scale / 100), round(FIG_FRACTION * view.width))
    fw = min(fw, view.width // 2)
    h = view.height // max(nfig, 1)
    x = view.right - fw
    figs = [Rect(x, view.top - (k + 1) * h, fw, h) for k in range(nfig)]
    boxes = [overlay_rect(view, g, a, b, scale) for g, a, b in texts]
    return Layout(figs, boxes, Rect(view.left, view.bottom, view.width - fw, view.height))


def font_scale(width_px: int, width_mm: float, b2w: float = 1.0) -> int:
    """The font scale MuJoCo's viewer picks for a monitor (simulate.cc, ComputeFontScale):
    b2w is the framebuffer / window ratio (2 on a Retina display, else 1)."""
    ppi = b2w * 25.4 * width_px / width_mm if width_mm > 0 else 0.0
    fs = 100 * b2w if b2w > 1 else (ppi if 50 < ppi < 350 else 150)
    fs = int(fs * 0.02 + 0.5) * 50
    return min(300, max(100, fs))


# ---- the window: sized to the screen -------------------------------------------------------------
def screen() -> tuple[int, int, int] | None:
    """(width, height, font scale) of the primary monitor's video mode (GLFW), None without one.
    Also asks GLFW to open the next window maximized (honoured by window managers)."""
    import glfw
    if not glfw.init():
        return None
    mon = glfw.get_primary_monitor()
    mode = glfw.get_video_mode(mon) if mon else None
    if not mode or mode.size.width <= 0:
        return None
    glfw.window_hint(glfw.MAXIMIZED, glfw.TRUE)
    width_mm, _ = glfw.get_monitor_physical_size(mon)
    b2w = glfw.get_monitor_content_scale(mon)[0] if sys.platform == "darwin" else 1.0
    return mode.size.width, mode.size.height, font_scale(mode.size.width, width_mm, b2w)


def fill_screen(width: int, height: int) -> bool:
    """On an X server without a window manager (e.g. Xvfb), where GLFW's maximize request is not
    honoured: move this process's top-level windows to (0, 0) and size them width x height.
    False (nothing done) elsewhere: with a window manager, or without X11."""
    lib = ctypes.util.find_library("X11")
    if not lib or not os.environ.get("DISPLAY"):
        return False
    x = ctypes.CDLL(lib)
    ul, vp, ci = ctypes.c_ulong, ctypes.c_void_p, ctypes.c_int
    x.XOpenDisplay.restype, x.XOpenDisplay.argtypes = vp, [ctypes.c_char_p]
    x.XDefaultRootWindow.restype, x.XDefaultRootWindow.argtypes = ul, [vp]
    x.XInternAtom.restype, x.XInternAtom.argtypes = ul, [vp, ctypes.c_char_p, ci]
    x.XGetWindowProperty.argtypes = [vp, ul, ul, ctypes.c_long, ctypes.c_long, ci, ul, ctypes.POINTER(ul),
                                     ctypes.POINTER(ci), ctypes.POINTER(ul), ctypes.POINTER(ul), ctypes.POINTER(vp)]
    x.XQueryTree.argtypes = [vp, ul, ctypes.POINTER(ul), ctypes.POINTER(ul), ctypes.POINTER(ctypes.POINTER(ul)),
                             ctypes.POINTER(ctypes.c_uint)]
    x.XMoveResizeWindow.argtypes = [vp, ul, ci, ci, ctypes.c_uint, ctypes.c_uint]
    x.XFree.argtypes, x.XSync.argtypes, x.XCloseDisplay.argtypes = [vp], [vp, ci], [vp]
    dpy = x.XOpenDisplay(None)
    if not dpy:
        return False

    def prop(window, atom):
        """The first item of a 32-bit window property, None if unset."""
        kind, fmt, n, after, data = ul(), ci(), ul(), ul(), vp()
        if not atom or x.XGetWindowProperty(dpy, window, atom, 0, 1, 0, 0, ctypes.byref(kind), ctypes.byref(fmt),
                                            ctypes.byref(n), ctypes.byref(after), ctypes.byref(data)) != 0:
            return None
        value = ctypes.cast(data, ctypes.POINTER(ul))[0] if data.value and n.value and fmt.value == 32 else None
        if data.value:
            x.XFree(data)
        return value

    try:
        root = x.XDefaultRootWindow(dpy)
        if prop(root, x.XInternAtom(dpy, b"_NET_SUPPORTING_WM_CHECK", 1)) is not None:
            return False                        # a window manager: GLFW's maximize request stands
        pid = x.XInternAtom(dpy, b"_NET_WM_PID", 1)
        r, p, kids, n = ul(), ul(), ctypes.POINTER(ul)(), ctypes.c_uint()
        if not x.XQueryTree(dpy, root, ctypes.byref(r), ctypes.byref(p), ctypes.byref(kids), ctypes.byref(n)):
            return False
        ours = [kids[i] for i in range(n.value) if prop(kids[i], pid) == os.getpid()]
        if n.value:
            x.XFree(kids)
        for w in ours:
            x.XMoveResizeWindow(dpy, w, 0, 0, width, height)
        x.XSync(dpy, 0)
        return bool(ours)
    finally:
        x.XCloseDisplay(dpy)


class Painter:
    """Hands texts and figures to MuJoCo's viewer from a thread of its own: the viewer's set_texts
    and set_figures wait (spinning) until the render thread has drawn the previous ones, which on
    a slow or busy machine would hold up the physics.  Only the newest texts and figures are drawn."""

    def __init__(self, handle, nice: int = 10):
        self.handle, self.nice = handle, nice
        self._next, self._stop = None, False
        self._cv = threading.Condition()
        self.thread = threading.Thread(target=self._run, name="viewer-painter", daemon=True)
        self.thread.start()

    def put(self, texts, figures) -> None:
        with self._cv:
            self._next = (texts, figures)
            self._cv.notify()

    def _run(self) -> None:
        lower_priority([threading.get_native_id()], self.nice)
        while True:
            with self._cv:
                while self._next is None and not self._stop:
                    self._cv.wait()
                if self._stop:
                    return
                (texts, figures), self._next = self._next, None
            self.handle.set_texts(texts)
            self.handle.set_figures(figures)

    def close(self) -> None:
        with self._cv:
            self._stop = True
            self._cv.notify()


# ---- the camera: the robot framed in the free view -----------------------------------------------
def robot_points(model, data) -> np.ndarray:
    """Corners of the bounding boxes of the robot's geoms (every geom not on the world body), world frame."""
    ids = np.flatnonzero(model.geom_bodyid > 0)
    signs = np.array([[i, j, k] for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)], float)
    aabb = model.geom_aabb[ids]                                   # (n, 6): centre, half sizes (geom frame)
    local = aabb[:, None, :3] + signs[None] * aabb[:, None, 3:]   # (n, 8, 3)
    rot = data.geom_xmat[ids].reshape(-1, 3, 3)
    return (np.einsum("nij,nkj->nki", rot, local) + data.geom_xpos[ids][:, None]).reshape(-1, 3)


def camera_axes(azimuth: float, elevation: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(right, up, forward) of MuJoCo's free / tracking camera (mjv_cameraFrame)."""
    a, e = math.radians(azimuth), math.radians(elevation)
    fwd = np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])
    up = np.array([-math.sin(e) * math.cos(a), -math.sin(e) * math.sin(a), math.cos(e)])
    return np.cross(fwd, up), up, fwd


def frame_distance(points, lookat, view: Rect, free: Rect, fovy_deg: float,
                   azimuth: float = AZIMUTH, elevation: float = ELEVATION, fill: float = FILL) -> float:
    """The camera distance at which `points` (world) seen from `lookat` (the view's centre) stay
    within `fill` of the part of `free` that is symmetric about the view's centre."""
    right, up, fwd = camera_axes(azimuth, elevation)
    p = np.asarray(points, float) - np.asarray(lookat, float)
    cx = view.left + view.width / 2
    half_w = fill * max(1.0, min(cx - free.left, free.right - cx))
    half_h = fill * free.height / 2
    f = view.height / 2 / math.tan(math.radians(fovy_deg) / 2)   # px per unit length at unit depth
    z = p @ fwd
    need = np.maximum(np.abs(p @ right) * f / half_w, np.abs(p @ up) * f / half_h) - z
    return float(max(need.max(), 1e-3 - z.min()))


def input_unit(model, i: int) -> str:
    """The unit of control column i: a servo's target on a hinge (rad) or slide (m), or its rate."""
    if model.actuator_trntype[i] != mujoco.mjtTrn.mjTRN_JOINT:
        return ""
    slide = model.jnt_type[model.actuator_trnid[i, 0]] == mujoco.mjtJoint.mjJNT_SLIDE
    bias = model.actuator_biasprm[i]
    if bias[1] != 0:
        return "m" if slide else "rad"
    return ("m/s" if slide else "rad/s") if bias[2] != 0 else ""


def short_names(names: list) -> list:
    """Legend names: without the suffix they all share ('fl_touch', 'fr_touch' -> 'fl', 'fr')."""
    if len(names) < 2:
        return list(names)
    suffix = "_" + names[0].rsplit("_", 1)[-1]
    return [n.removesuffix(suffix) for n in names] if all(n.endswith(suffix) for n in names) else list(names)


@dataclasses.dataclass
class Signals:
    """The live signals of one robot, read from the sensors the model already has."""
    touch: list          # names of touch sensors (contact normal force)
    inputs: list         # control columns drawn: the first actuators sharing the first one's unit
    unit: str            # their unit

    @classmethod
    def of(cls, model) -> "Signals":
        touch = [model.sensor(i).name for i in range(model.nsensor) if model.sensor_type[i] == mujoco.mjtSensor.mjSENS_TOUCH]
        unit = input_unit(model, 0) if model.nu else ""
        inputs = [i for i in range(model.nu) if input_unit(model, i) == unit][:4]
        return cls(touch[:4], inputs, unit)


class Session:
    """One viewer session of `robot`: steps, measures, and draws (see the module docstring)."""

    def __init__(self, robot, fps: float = 60.0, clock=time.perf_counter, scale: int = 100):
        self.base = robot
        self.robot = viewer_robot(robot)
        self.step = Stepper(self.robot, copy.copy(self.robot.model()))   # private: restart() edits its timestep
        self.model, self.data = self.step.model, self.step.data
        self.fps, self.clock, self.scale = float(fps), clock, scale
        self.rate, self.paused = 1.0, False
        self.keys: collections.deque = collections.deque()
        self.signals = Signals.of(self.model)
        self.hist: dict = collections.defaultdict(lambda: collections.deque(maxlen=HISTORY))
        self.rtf = float("nan")
        self.behind = False
        self._window = collections.deque()      # (wall, sim), reaching back RTF_WINDOW s, for the RTF
        self._anchor = (clock(), 0.0)           # (wall, sim) the pacing is measured from
        self.min_rtf = float("inf")             # the lowest full-window RTF seen at rate 1

    # ---- keys ---------------------------------------------------------------------------------
    def key(self, keycode: int) -> None:
        """The viewer's key callback (its own thread): queue a known key."""
        if keycode in KEYS:
            self.keys.append(KEYS[keycode])

    def apply(self, action: str) -> None:
        if action == "pause":
            self.paused = not self.paused
        elif action == "slower":
            self.rate = max(self.rate / 2, 1 / 64)
        elif action == "faster":
            self.rate = min(self.rate * 2, 1.0)
        elif action == "step" and self.paused:
            self.step(max(1, round(1 / self.fps / self.model.opt.timestep)))
        elif action == "reset":
            self.restart(self.robot)
        elif action in ("gait_up", "gait_down"):
            name, d = type(self.robot).gait_parameter
            v = self.robot.cfg[name] + (d if action == "gait_up" else -d)
            try:
                r = type(self.robot)(**{**self.robot.cfg, name: v})
            except Exception as e:              # out of range: keep the gait, say why
                print(f"viewer: {name}={v:g} refused: {e}")
                return
            self.restart(r)
        self._anchor = (self.clock(), self.data.time)
        self._window.clear()
        self.rtf, self.behind = float("nan"), False

    def restart(self, robot) -> None:
        """The gait from t = 0 (the same model: only its timestep follows the new period)."""
        self.robot = robot
        self.model.opt.timestep = robot.timestep
        self.step = Stepper(robot, self.model, self.data)
        self.hist.clear()

    # ---- one frame ------------------------------------------------------------------------------
    def advance(self) -> None:
        """Step towards the paced target time, for at most one frame of wall time."""
        while self.keys:
            self.apply(self.keys.popleft())
        now = self.clock()
        if self.paused:
            self._anchor = (now, self.data.time)
            return
        target = self._anchor[1] + (now - self._anchor[0]) * self.rate
        if target - self.data.time > MAX_LAG:   # fallen far behind: catch up MAX_LAG, drop the rest
            self._anchor = (self._anchor[0], self._anchor[1] - (target - self.data.time - MAX_LAG))
            target = self.data.time + MAX_LAG
        behind = target - self.data.time > 1.0 / self.fps
        budget = now + (CATCHUP_FRAMES if behind else 1) / self.fps
        n = max(1, round(1 / self.fps / self.model.opt.timestep / 4))
        while self.data.time < target and self.clock() < budget:
            self.step(n)
        self._measure()

    def _measure(self) -> None:
        """The RTF over the window: from the newest sample at least RTF_WINDOW old (so a stall
        stays in the window while the simulation catches up) to now."""
        now, sim = self.clock(), self.data.time
        w = self._window
        w.append((now, sim))
        while len(w) > 2 and now - w[1][0] >= RTF_WINDOW:
            w.popleft()
        span = w[-1][0] - w[0][0]
        if span >= RTF_MIN_SPAN:
            self.rtf = (w[-1][1] - w[0][1]) / span
            full = span >= RTF_WINDOW
            self.behind = full and self.rate == 1.0 and self.rtf < RTF_WARN
            if full and self.rate == 1.0:
                self.min_rtf = min(self.min_rtf, self.rtf)
        self._record()

    def _record(self) -> None:
        m, d, r = self.model, self.data, self.robot
        t = d.time
        sd = d.sensordata[None]
        self.hist["progress"].append((t, float(r.progress(sd, m)[0])))
        self.hist["power"].append((t, float(energy.power(sd, m)[0])))
        for i in self.signals.inputs:
            self.hist[f"u{i}"].append((t, float(d.ctrl[i])))
        for name in self.signals.touch:
            self.hist[name].append((t, float(r.sensor(sd, m, name)[0, 0])))
        if r.loops:
            self.hist["loop_gap"].append((t, 1e3 * float(r.loop_gaps(r.readout(sd, m)).max())))

    def speed(self) -> float:
        """Progress over the last (up to) 2 s of history / its duration (m/s)."""
        h = self.hist["progress"]
        if len(h) < 2:
            return float("nan")
        t1, x1 = h[-1]
        t0, x0 = next(((t, x) for t, x in h if t >= t1 - 2.0), h[0])
        return (x1 - x0) / (t1 - t0) if t1 > t0 else float("nan")

    # ---- drawing ------------------------------------------------------------------------------
    def texts(self) -> list:
        """(font, gridpos, left column, right column): the status at the top left, the keys at the bottom left."""
        r = self.robot
        if self.paused:
            state = "PAUSED"
        elif math.isnan(self.rtf):
            state = "measuring"
        else:
            state = f"{self.rtf:.2f}x ({RTF_WINDOW:g}-s mean)" + ("  BEHIND REAL TIME" if self.behind else "")
        rate = "real time" if self.rate == 1 else f"{self.rate:g}x (slow motion)"
        power = self.hist["power"][-1][1] if self.hist["power"] else 0.0
        status = (["robot", "gait", "time", "speed", "motor power", "rate", "real-time factor", "step"],
                  [r.name, gait_text(r, " = ") or "-", f"{self.data.time:.2f} s", f"{self.speed() * 1e3:.1f} mm/s",
                   f"{power:.3g} W", rate, state, f"{self.model.opt.timestep:.3g} s"])
        name, d = getattr(type(r), "gait_parameter", None) or (None, None)
        unit = gait_text(r).partition(" ")[2]
        keys = (["space", "-  /  =", "right arrow", "backspace", "pg up / pg dn", "tab / shift+tab"],
                ["pause / resume", "half / double rate", "one frame (paused)", "restart the gait",
                 f"{name} +/- {d:g} {unit}".rstrip() if name else "-", "MuJoCo's panels"])
        font = mujoco.mjtFont.mjFONT_NORMAL
        return [(font, mujoco.mjtGridPos.mjGRID_TOPLEFT, "\n".join(status[0]), "\n".join(status[1])),
                (font, mujoco.mjtGridPos.mjGRID_BOTTOMLEFT, "\n".join(keys[0]), "\n".join(keys[1]))]

    def panels(self) -> list:
        """(title with unit, history keys, legend names) of each figure, top to bottom."""
        u = self.signals.unit
        out = [("progress [m]", ["progress"], [""]),
               ("inputs: servo targets" + (f" [{u}]" if u else ""), [f"u{i}" for i in self.signals.inputs],
                short_names([self.model.actuator(i).name for i in self.signals.inputs])),
               ("contact normal force [N]", self.signals.touch, short_names(self.signals.touch)),
               ("motor power [W]", ["power"], [""])]
        if self.robot.loops:
            out.append(("loop gap [mm]", ["loop_gap"], [""]))
        return out

    def layout(self, viewport) -> Layout:
        view = Rect(viewport.left, viewport.bottom, viewport.width, viewport.height)
        return layout(view, len(self.panels()), [t[1:] for t in self.texts()], self.scale)

    def figures(self, viewport) -> list:
        """(rect, MjvFigure) pairs in one column at the right edge: the last HISTORY_S seconds."""
        if viewport is None:
            viewport = mujoco.MjrRect(0, 0, 1280, 800)
        rects = self.layout(viewport).figures
        t0 = max(HISTORY_S, math.floor(self.data.time) + 1) - HISTORY_S   # whole seconds: ticks at integers
        out = []
        panels = self.panels()
        for k, (rect, (title, keys, names)) in enumerate(zip(rects, panels)):
            fig = mujoco.MjvFigure()
            fig.title = title
            fig.flg_extend = 1
            fig.figurergba[:] = (0.0, 0.0, 0.0, 0.55)
            fig.panergba[:] = (0.1, 0.1, 0.1, 0.6)
            fig.gridsize[:] = (int(HISTORY_S) + 1, 3)
            fig.range[0][:] = (t0, t0 + HISTORY_S)
            fig.range[1][:] = (0.0, 0.0)                 # the y axis follows the data
            fig.xformat, fig.yformat = "%.0f", "%.3g"
            fig.flg_legend = int(len(keys) > 1)
            fig.linewidth = 2
            bottom = k == len(panels) - 1                # one time axis: its labels under the last figure
            fig.flg_ticklabel[0] = int(bottom)
            if bottom:
                fig.xlabel = "simulated time [s]"
            for j, (key, label) in enumerate(zip(keys[:mujoco.mjMAXLINE], names)):
                pts = np.array([p for p in self.hist.get(key, ()) if p[0] >= t0]).reshape(-1, 2)
                fig.linepnt[j] = len(pts)
                if len(pts):
                    fig.linedata[j, :2 * len(pts)] = pts.ravel()
                fig.linename[j] = label
            out.append((rect.mjr(), fig))
        return out
