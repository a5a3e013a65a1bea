# numpy peer of bench_ptd: ids + PTD for a layout, vectorised the way a researcher would write
# it (chunks of text rows broadcast against all visual tokens, float64, in-place buffers).
import argparse
import json
import sys

import numpy as np

import peer_common as pc


def ptd(ids, text, rows=16, sample=0):
    """PTD = mean over text tokens of the mean absolute deviation of d(t, .) over visual tokens.
    Memory: two rows x N_visual buffers (no N_text x N_visual matrix). With sample > 0 only the
    text tokens i * N_text // sample (i < sample) are computed (the per-text arrays then hold
    those rows, and the value is their mean)."""
    T = ids[text]
    if sample:
        T = T[np.arange(sample) * len(T) // sample]
    V = ids[~text]
    vx, vy, vz = (np.ascontiguousarray(V[:, k]) for k in range(3))
    nt, nv = len(T), len(V)
    per_text = np.empty(nt)
    mean_d = np.empty(nt)
    buf = np.empty((rows, nv))
    tmp = np.empty((rows, nv))
    for s in range(0, nt, rows):
        e = min(s + rows, nt)
        d, t = buf[: e - s], tmp[: e - s]
        np.subtract(T[s:e, 0:1], vx, out=d)
        np.multiply(d, d, out=d)
        np.subtract(T[s:e, 1:2], vy, out=t)
        np.multiply(t, t, out=t)
        d += t
        np.subtract(T[s:e, 2:3], vz, out=t)
        np.multiply(t, t, out=t)
        d += t
        np.sqrt(d, out=d)
        m = d.mean(axis=1)
        d -= m[:, None]
        np.abs(d, out=d)
        per_text[s:e] = d.mean(axis=1)
        mean_d[s:e] = m
    return float(per_text.mean()), per_text, mean_d


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--design", default="mrope")
    ap.add_argument("--layout", default="t4000,v16x32x32,t4000")
    ap.add_argument("--params", default="{}", help="design parameters as JSON (core's defaults)")
    ap.add_argument("--rows", type=int, default=16, help="text rows per chunk")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ids-npy", help="ids core wrote, compared after timing")
    ap.add_argument("--sample", type=int, default=0,
                    help="compute only this many evenly spaced text rows (bench_ptd --check-scale "
                    "takes the same ones) and extrapolate the time to all rows")
    args = ap.parse_args()
    params = json.loads(args.params)

    def run():
        ids, text = pc.design_ids(args.design, args.layout, params)
        return ids, text, ptd(ids, text, args.rows, args.sample)

    if args.sample:
        # The ids alone, then the sampled rows: seconds = ids + rows / sample * all text rows.
        (ids, text), ids_seconds = pc.timed(
            lambda: pc.design_ids(args.design, args.layout, params), args.repeat)
        (value, per_text, mean_d), row_seconds = pc.timed(
            lambda: ptd(ids, text, args.rows, args.sample), args.repeat)
        scale = int(text.sum()) / args.sample
        seconds = [(i[0] + r[0] * scale, i[1] + r[1] * scale)
                   for i, r in zip(ids_seconds, row_seconds)]
    else:
        (ids, text, (value, per_text, mean_d)), seconds = pc.timed(run, args.repeat)
    record = {
        "case": f"ptd/{args.design}",
        "layout": args.layout,
        "n_text": int(text.sum()),
        "n_visual": int((~text).sum()),
        "ptd": value,
        "sum_per_text": float(per_text.sum()),
        "sum_mean_distance": float(mean_d.sum()),
        "rows": args.rows,
    }
    if args.sample:
        record = {"case": f"ptd/scale/{args.design}", "layout": args.layout,
                  "n_text": int(text.sum()), "n_visual": int((~text).sum()),
                  "sampled_rows": args.sample, "sum_per_text_sampled": float(per_text.sum()),
                  "sum_mean_distance_sampled": float(mean_d.sum()), "extrapolated": True}
    if args.ids_npy:
        record["ids_max_abs_diff"] = pc.compare_ids(ids, text, args.ids_npy)
    pc.emit(record, seconds)


if __name__ == "__main__":
    sys.exit(main())
