# This CPU's DGEMM roofline for bench_bias's kernel: OpenBLAS dgemm through numpy at the bias
# spread's shape (visual 2048 x 128 times 128 x 2048 text, 64 text columns per call, as core
# calls it, and in one call) and at 2048^3, GFLOP/s from the median of the process CPU time
# (one BLAS thread: robust to other load on the machine).
import argparse
import json
import statistics
import sys
import time

import numpy as np

import peer_common as pc


def rate(m, k, n, chunk, repeat):
    a = np.asfortranarray(np.cos(0.001 * np.arange(m * k)).reshape(m, k))
    b = np.asfortranarray(np.sin(0.003 * np.arange(k * chunk)).reshape(k, chunk))
    out = np.empty((m, chunk), order="F")
    cpu = []
    for _ in range(repeat + 1):
        start = time.process_time()
        for _ in range(n // chunk):
            np.matmul(a, b, out=out)
        cpu.append(time.process_time() - start)
    return 2.0 * m * k * n / statistics.median(cpu[1:]) * 1e-9


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    record = {
        "case": "dgemm-roofline",
        "gflops_2048x128x2048_chunk64": rate(2048, 128, 2048, 64, args.repeat),
        "gflops_2048x128x2048": rate(2048, 128, 2048, 2048, args.repeat),
        "gflops_2048x2048x2048": rate(2048, 2048, 2048, 2048, args.repeat),
        "numpy": np.__version__,
        "blas": pc.blas_library(),
    }
    json.dump(record, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    sys.exit(main())
