"""The headless GL verdict is cached (envs/core/model/gl.py): the probe, a fresh interpreter rendering once, is
most of a command's start-up cost beyond its imports; it runs again only when what it depends on changes.
(Start-up times themselves are printed by scripts/bench/latency.py, not tested.)"""
import json

from gaittwin.core.model import gl


def _fake_probe(calls, verdicts):
    def probe(backend, timeout=60.0):
        calls.append(backend)
        return verdicts[backend]
    return probe


def test_the_probe_runs_once_per_key(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(gl, "CACHE", tmp_path / "gl.json")
    monkeypatch.setattr(gl, "probe", _fake_probe(calls, {"egl": (False, "EGLError"), "osmesa": (True, "")}))
    monkeypatch.delenv("GAITTWIN_GL_CACHE", raising=False)
    assert gl._headless() == ("osmesa", "egl: EGLError") and calls == ["egl", "osmesa"]
    assert json.loads((tmp_path / "gl.json").read_text())["backend"] == "osmesa"
    assert gl._headless() == ("osmesa", "egl: EGLError") and calls == ["egl", "osmesa"]     # from the cache
    monkeypatch.setattr(gl, "_cache_key", lambda: "another interpreter or library")
    assert gl._headless()[0] == "osmesa" and calls == ["egl", "osmesa"] * 2                # key changed: probed
    monkeypatch.setenv("GAITTWIN_GL_CACHE", "0")
    gl._headless()
    assert calls == ["egl", "osmesa"] * 3                                                   # opted out: probed


def test_a_damaged_cache_is_probed_over_and_nothing_works_is_disable(tmp_path, monkeypatch):
    calls = []
    (tmp_path / "gl.json").write_text("{not json")
    monkeypatch.setattr(gl, "CACHE", tmp_path / "gl.json")
    monkeypatch.setattr(gl, "probe", _fake_probe(calls, {"egl": (False, "no"), "osmesa": (False, "none")}))
    monkeypatch.delenv("GAITTWIN_GL_CACHE", raising=False)
    assert gl._headless() == ("disable", "egl: no; osmesa: none") and len(calls) == 2
    assert gl._headless() == ("disable", "egl: no; osmesa: none") and len(calls) == 2
