# numpy peer of the million-token rows (scripts/run-million-benchmarks.sh): the M-RoPE ids of a
# layout built block by block with numpy and saved as .npy (what `ropescope ids --out X.npy`
# writes), and the id budget's core, the running largest id per axis (np.maximum.accumulate).
# Prints one JSON line: median seconds of each, and whether the ids equal the file ropescope wrote.
import argparse
import json
import statistics
import sys
import time

import numpy as np

import peer_common as pc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layout", required=True)
    ap.add_argument("--out", required=True, help="where the peer saves its .npy")
    ap.add_argument("--compare", help="the .npy ropescope wrote")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    def ids_and_save():
        ids, _ = pc.mrope_ids(a.layout)
        np.save(a.out, ids)
        return ids

    ids_times, budget_times, ids = [], [], None
    for _ in range(a.repeat):
        start = time.perf_counter()
        ids = ids_and_save()
        ids_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        running = np.maximum.accumulate(ids, axis=0)
        largest = running[-1]
        budget_times.append(time.perf_counter() - start)
    same = None
    if a.compare:
        ref = np.load(a.compare)
        same = bool(ref.shape == ids.shape and np.array_equal(ref, ids))
    json.dump({"tokens": len(ids), "ids_s": statistics.median(ids_times),
               "running_max_s": statistics.median(budget_times),
               "largest": [float(v) for v in largest], "equal_to_ropescope": same,
               "numpy": np.__version__}, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
