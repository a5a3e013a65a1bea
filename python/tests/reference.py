"""The golden vectors the C++ tests read (tests/golden/data), parsed here, and closed forms of
RoPE's quantities in numpy, written from the definitions (not from ropescope's code)."""

import os

import numpy as np

SOURCE = os.environ.get(
    "ROPESCOPE_SOURCE_DIR",
    os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
GOLDEN = os.path.join(SOURCE, "tests", "golden", "data")


def golden_ids(case, label):
    """Rows t, h, w of one variant of one case of ids_reference.txt, as float64 [N, 3]."""
    with open(os.path.join(GOLDEN, "ids_reference.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(f"CASE {case}:"))
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("CASE "):
            break
        if lines[i].startswith("-- ") and lines[i][3:].split("   rope_delta")[0] == label:
            rows = [lines[i + 1 + a].split(":", 1)[1].split() for a in range(3)]
            return np.array(rows, dtype=np.float64).T
    raise KeyError(f"{case}: {label}")


def golden_decay(prefix):
    """(distances, U) of the decay_bound.txt row that starts with `prefix`."""
    with open(os.path.join(GOLDEN, "decay_bound.txt"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    distances = next(l for l in lines if l.startswith("distances:"))
    distances = [int(x) for x in distances.split("[")[1].rstrip("]").split(",")]
    row = next(l for l in lines if l.startswith(prefix))
    values = [float(x) for x in row[len(prefix):].split()]
    return np.array(distances), np.array(values)


def theta(base, rotary_dim):
    """theta_p = base^(-2p/d), p = 0..d/2-1."""
    return base ** (-2.0 * np.arange(rotary_dim // 2) / rotary_dim)


def decay_bound(thetas, deltas):
    """RoFormer's U(delta) = (1/n) sum_j |S_j|, S_j = sum_{k<j} exp(i delta theta_k)."""
    out = []
    for d in deltas:
        s = np.cumsum(np.exp(1j * d * np.asarray(thetas)))
        out.append(np.abs(s).mean())
    return np.array(out)


def mean_abs_dev_rows(m):
    """Mean over rows of each row's mean absolute deviation."""
    return np.abs(m - m.mean(axis=1, keepdims=True)).mean()


def qwen2vl_ids(segments):
    """Qwen2-VL get_rope_index (t = frame) for text runs ("t", n) and images ("i", rows, cols):
    a text token takes the next position; an image starts at s = next, with t = s,
    h = s + row, w = s + col; after it, next = max id + 1."""
    out, nxt = [], 0
    for seg in segments:
        if seg[0] == "t":
            for _ in range(seg[1]):
                out.append((nxt, nxt, nxt))
                nxt += 1
        else:
            _, rows, cols = seg
            s = nxt
            for r in range(rows):
                for c in range(cols):
                    out.append((s, s + r, s + c))
            nxt = s + max(rows, cols)
    return np.array(out, dtype=np.float64)


def rotate_neox(x, angles):
    """Hugging Face's q * cos + rotate_half(q) * sin with cos = cat(f, f): x [N, d]."""
    cos = np.concatenate([np.cos(angles), np.cos(angles)], axis=1)
    sin = np.concatenate([np.sin(angles), np.sin(angles)], axis=1)
    half = x.shape[1] // 2
    rotated = np.concatenate([-x[:, half:], x[:, :half]], axis=1)
    return x * cos + rotated * sin
