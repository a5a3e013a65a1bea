# numpy peer of bench_decay: RoFormer's decay bound U(r) = (1/n) sum_j |S_j(r)| at integer
# distances 0..max for one axis of a vanilla head (all pairs move), vectorised over chunks of r.
import argparse
import sys

import numpy as np

import peer_common as pc


def decay_curve(head_dim, base, max_distance, rows=4096):
    """S_j = sum_{k<j} e^{i r theta_k} as a cumulative sum along the pairs; float64 throughout.
    cos and sin are taken separately (numpy's SIMD loops; faster than exp(1j*phi))."""
    n = head_dim // 2
    theta = base ** ((-2.0 * np.arange(n)) / head_dim)
    r = np.arange(max_distance + 1, dtype=np.float64)
    out = np.empty(len(r))
    for s in range(0, len(r), rows):
        phi = np.multiply.outer(r[s:s + rows], theta)
        re = np.cumsum(np.cos(phi), axis=1)
        im = np.cumsum(np.sin(phi), axis=1)
        out[s:s + rows] = np.hypot(re, im).sum(axis=1) / n
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--base", type=float, default=1e4)
    ap.add_argument("--max-distance", type=int, default=99999)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--reference-npy", help="core's curve, compared element-wise after timing")
    args = ap.parse_args()
    u, seconds = pc.timed(lambda: decay_curve(args.head_dim, args.base, args.max_distance),
                          args.repeat)
    record = {
        "case": f"decay/vanilla{args.head_dim}",
        "count": len(u),
        "sum": float(u.sum()),
        "u10": float(u[10]),
        "u200": float(u[200]),
        "ulast": float(u[-1]),
    }
    if args.reference_npy:
        ref = np.load(args.reference_npy)
        record["max_rel_diff"] = (float(np.max(np.abs(u - ref) / np.abs(ref)))
                                  if ref.shape == u.shape else float("inf"))
    pc.emit(record, seconds)


if __name__ == "__main__":
    sys.exit(main())
