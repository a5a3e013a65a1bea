# Shared parts of the numpy peers: layout specs, the M-RoPE and Circle-RoPE ids built with numpy
# (independently of core), timing, and the JSON line each peer prints for run-benchmarks.sh.
import json
import math
import re
import statistics
import sys
import time

import numpy as np


def parse_layout(spec):
    """'t4000,v16x32x32,t4000' -> [('t', n) | ('v', T, H, W)] (images are T = 1)."""
    segments = []
    for item in spec.split(","):
        m = re.fullmatch(r"t(\d+)|i(\d+)x(\d+)|v(\d+)x(\d+)x(\d+)", item)
        if not m:
            raise ValueError(f"bad layout item {item!r}")
        if m.group(1):
            segments.append(("t", int(m.group(1))))
        elif m.group(2):
            segments.append(("i", 1, int(m.group(2)), int(m.group(3))))
        else:
            segments.append(("v", int(m.group(4)), int(m.group(5)), int(m.group(6))))
    return segments


def _walk(spec, block):
    """The Qwen-VL block walk: text continues at M + 1, a visual block starts at off = M + 1.
    block(kind, T, H, W, off) -> (ids (n, 3), new M). Returns ids (N, 3) and a text mask."""
    parts, text = [], []
    walk_max = -1.0
    for seg in parse_layout(spec):
        if seg[0] == "t":
            p = walk_max + 1.0 + np.arange(seg[1], dtype=np.float64)
            parts.append(np.repeat(p[:, None], 3, axis=1))
            text.append(np.ones(seg[1], dtype=bool))
            walk_max += seg[1]
        else:
            ids, walk_max = block(seg[0], seg[1], seg[2], seg[3], walk_max + 1.0)
            parts.append(ids)
            text.append(np.zeros(len(ids), dtype=bool))
    return np.concatenate(parts), np.concatenate(text)


def mrope_ids(spec, fps=2.0, tokens_per_second=2.0):
    """Qwen2.5-VL M-RoPE: (off + tau(k), off + r, off + c), tau(k) = floor(k * 2/fps * tps)."""
    def block(kind, T, H, W, off):
        k = np.arange(T, dtype=np.float64)
        tau = np.zeros(T) if kind == "i" else np.floor(k * (2.0 / fps) * tokens_per_second)
        kk, rr, cc = np.meshgrid(tau, np.arange(H, dtype=np.float64),
                                 np.arange(W, dtype=np.float64), indexing="ij")
        ids = np.stack([off + kk.ravel(), off + rr.ravel(), off + cc.ravel()], axis=1)
        return ids, off + max(tau[-1], H - 1.0, W - 1.0)
    return _walk(spec, block)


def circle_ids(spec, alpha=0.5, radius=10.0, temporal_stride=1.0):
    """Circle-RoPE with the released options (centred grid, fixed R, no DFF): ring offsets in the
    plane orthogonal to (1,1,1), frame f centred at off + f * stride; M = max over the block."""
    s = 1.0 / math.sqrt(3.0)
    a = np.array([s, s, s])
    u = np.array([-a[1], a[0], 0.0])
    u /= math.sqrt(float(u @ u))
    v = np.array([a[1] * u[2] - a[2] * u[1], a[2] * u[0] - a[0] * u[2], a[0] * u[1] - a[1] * u[0]])
    v /= math.sqrt(float(v @ v))

    def block(kind, T, H, W, off):
        rr, cc = np.meshgrid(np.arange(H, dtype=np.float64), np.arange(W, dtype=np.float64),
                             indexing="ij")
        x = cc.ravel() - (W - 1) / 2.0
        y = rr.ravel() - (H - 1) / 2.0
        phi = np.arctan2(y, x)
        lo, rng = phi.min(), phi.max() - phi.min()
        sa = (phi - lo) / rng * (2.0 * math.pi) if rng > 0 else phi
        ga = 2.0 * math.pi * np.arange(H * W) / (H * W)
        theta = alpha * sa + (1.0 - alpha) * ga
        px, py = radius * np.cos(theta), radius * np.sin(theta)
        P = px[:, None] * u[None, :] + py[:, None] * v[None, :]  # (X, Y, Z) = code's (w, h, t)
        ring = P[:, ::-1]                                        # ids are (t, h, w) = (Z, Y, X)
        centres = off + np.arange(T, dtype=np.float64) * temporal_stride
        ids = (centres[:, None, None] + ring[None, :, :]).reshape(-1, 3)
        return ids, float(ids.max())
    return _walk(spec, block)


def design_ids(design, spec, params):
    if design == "mrope":
        return mrope_ids(spec, params.get("fps", 2.0), params.get("tokens_per_second", 2.0))
    if design == "circle":
        return circle_ids(spec, params.get("alpha", 0.5), params.get("radius", 10.0),
                          params.get("temporal_stride", 1.0))
    raise ValueError(f"no numpy peer for design {design!r}")


def compare_ids(ids, text, path):
    """Max abs difference to the ids core wrote ((N, 4): t, h, w, is_text); inf on a mismatch."""
    ref = np.load(path)
    if ref.shape != (len(ids), 4) or not np.array_equal(ref[:, 3] == 1.0, text):
        return math.inf
    return float(np.max(np.abs(ref[:, :3] - ids)))


def timed(fn, repeat):
    """Runs fn repeat times; returns (last result, [(wall seconds, process CPU seconds)])."""
    seconds, result = [], None
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        result = fn()
        seconds.append((time.perf_counter() - start, time.process_time() - cpu))
    return result, seconds


def blas_library():
    """The BLAS shared object numpy actually loaded (Debian picks it via update-alternatives)."""
    try:
        with open("/proc/self/maps") as maps:
            libs = {line.split()[-1] for line in maps if "blas" in line.lower()}
        return ",".join(sorted(l for l in libs if l.endswith(".so.3") or ".so" in l))
    except OSError:
        return "unknown"


def emit(record, seconds):
    wall = [w for w, _ in seconds]
    record["seconds"] = wall
    record["median_s"] = statistics.median(wall)
    record["min_s"] = min(wall)
    record["cpu_median_s"] = statistics.median(c for _, c in seconds)
    record["numpy"] = np.__version__
    record["blas"] = blas_library()
    json.dump(record, sys.stdout)
    sys.stdout.write("\n")
