"""numpy peer of bench_attention: the same shapes (N = 8192, d = 128, float32) with numpy's
matmul on OpenBLAS (libopenblas0-pthread via update-alternatives). Prints one JSON line:
the sgemm FLOP rate of q @ k.T and the time of the whole pass (rotate_half RoPE with
precomputed cos/sin, logits / sqrt(d), row softmax), best of --repeat runs."""
import argparse
import json
import time

import numpy as np


def rotate(x, cos, sin):
    h = cos.shape[1]
    x0, x1 = x[:, :h], x[:, h:2 * h]
    return np.concatenate([x0 * cos - x1 * sin, x1 * cos + x0 * sin, x[:, 2 * h:]], axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    q = rng.standard_normal((a.n, a.d), dtype=np.float32)
    k = rng.standard_normal((a.n, a.d), dtype=np.float32)
    ang = rng.uniform(0, 6.28, (a.n, a.d // 2))
    cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    scale = np.float32(1.0 / np.sqrt(a.d))
    out = np.empty((a.n, a.n), dtype=np.float32)

    # Wall time, and process CPU time: on a shared machine the CPU time of a one-thread run is
    # the figure least disturbed by other load (Google Benchmark prints both too).
    best_mm = best_pass = cpu_mm = cpu_pass = float("inf")
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        np.matmul(q, k.T, out=out)
        best_mm = min(best_mm, time.perf_counter() - t0)
        cpu_mm = min(cpu_mm, time.process_time() - c0)
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        qr = rotate(q, cos, sin) * scale
        kr = rotate(k, cos, sin)
        np.matmul(qr, kr.T, out=out)
        out -= out.max(axis=1, keepdims=True)
        np.exp(out, out=out)
        out /= out.sum(axis=1, keepdims=True)
        best_pass = min(best_pass, time.perf_counter() - t0)
        cpu_pass = min(cpu_pass, time.process_time() - c0)
    flops = 2.0 * a.n * a.n * a.d
    print(json.dumps({"case": "attention", "n": a.n, "d": a.d,
                      "matmul_s": best_mm, "matmul_gflops": flops / best_mm / 1e9,
                      "whole_pass_s": best_pass, "matmul_cpu_s": cpu_mm,
                      "whole_pass_cpu_s": cpu_pass, "blas": str(np.__config__.blas_opt_info)
                      if hasattr(np.__config__, "blas_opt_info") else "?"}))


if __name__ == "__main__":
    main()
