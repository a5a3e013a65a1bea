# numpy peer of bench_bias: positional bias b = (1/n) sum_p cos(theta_p * delta[axis(p)]) from
# every text token to every visual token, and its spread (mean over text of the MAD over visual).
import argparse
import json
import sys

import numpy as np

import peer_common as pc


def pair_table(head_dim, base, sections):
    """Chunked M-RoPE plan: sections[0] pairs on t, then h, then w; theta_p = base^(-2p/d)."""
    n = head_dim // 2
    theta = base ** ((-2.0 * np.arange(n)) / head_dim)
    axis = np.repeat(np.arange(3), sections)
    assert len(axis) == n
    return theta, axis


def _spread(b_rows, per_text, mean_b, s):
    m = b_rows.mean(axis=1)
    b_rows -= m[:, None]
    np.abs(b_rows, out=b_rows)
    per_text[s:s + len(m)] = b_rows.mean(axis=1)
    mean_b[s:s + len(m)] = m


def bias_direct(ids, text, theta, axis, rows=8):
    """The definition, vectorised over (text chunk x visual): one cos per pair and token pair."""
    T, V = ids[text], ids[~text]
    nt, nv, n = len(T), len(V), len(theta)
    per_text, mean_b = np.empty(nt), np.empty(nt)
    acc = np.empty((rows, nv))
    delta = np.empty((3, rows, nv))
    tmp = np.empty((rows, nv))
    for s in range(0, nt, rows):
        e = min(s + rows, nt)
        b, t = acc[: e - s], tmp[: e - s]
        for a in range(3):
            np.subtract(T[s:e, a:a + 1], V[:, a], out=delta[a, : e - s])
        b.fill(0.0)
        for th, a in zip(theta, axis):
            np.multiply(delta[a, : e - s], th, out=t)
            np.cos(t, out=t)
            b += t
        b /= n
        _spread(b, per_text, mean_b, s)
    return float(per_text.mean()), per_text, mean_b


def bias_gemm(ids, text, theta, axis, rows=512):
    """cos(x - y) = cos x cos y + sin x sin y: b = [cos|sin](text) @ [cos|sin](visual)^T / n, one
    BLAS matrix product per chunk of text rows (the fast numpy form; uses BLAS threads)."""
    T, V = ids[text], ids[~text]
    nt, n = len(T), len(theta)
    pt = T[:, axis] * theta  # (nt, n) phases of the text tokens
    pv = V[:, axis] * theta
    A = np.concatenate([np.cos(pt), np.sin(pt)], axis=1)
    B = np.ascontiguousarray(np.concatenate([np.cos(pv), np.sin(pv)], axis=1).T)
    per_text, mean_b = np.empty(nt), np.empty(nt)
    for s in range(0, nt, rows):
        e = min(s + rows, nt)
        b = A[s:e] @ B
        b /= n
        _spread(b, per_text, mean_b, s)
    return float(per_text.mean()), per_text, mean_b


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--design", default="mrope")
    ap.add_argument("--layout", default="t1024,i32x64,t1024")
    ap.add_argument("--params", default="{}", help="design parameters as JSON (core's defaults)")
    ap.add_argument("--form", choices=["direct", "gemm"], default="direct")
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--base", type=float, default=1e6)
    ap.add_argument("--sections", default="16,24,24")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ids-npy", help="ids core wrote, compared after timing")
    ap.add_argument("--pairs-npy", help="core's pair table (axis, theta), compared after timing")
    args = ap.parse_args()
    params = json.loads(args.params)
    sections = [int(x) for x in args.sections.split(",")]
    fn = bias_direct if args.form == "direct" else bias_gemm

    def run():
        ids, text = pc.design_ids(args.design, args.layout, params)
        theta, axis = pair_table(args.head_dim, args.base, sections)
        return ids, text, theta, axis, fn(ids, text, theta, axis)

    (ids, text, theta, axis, (spread, per_text, mean_b)), seconds = pc.timed(run, args.repeat)
    record = {
        "case": f"bias/{args.design}",
        "form": args.form,
        "layout": args.layout,
        "spread": spread,
        "sum_per_text": float(per_text.sum()),
        "sum_mean_bias": float(mean_b.sum()),
    }
    if args.ids_npy:
        record["ids_max_abs_diff"] = pc.compare_ids(ids, text, args.ids_npy)
    if args.pairs_npy:
        ref = np.load(args.pairs_npy)
        same_axes = ref.shape == (len(theta), 2) and np.array_equal(ref[:, 0], axis)
        record["pairs_theta_max_rel_diff"] = (float(np.max(np.abs(ref[:, 1] - theta) / theta))
                                              if same_axes else float("inf"))
    pc.emit(record, seconds)


if __name__ == "__main__":
    sys.exit(main())
