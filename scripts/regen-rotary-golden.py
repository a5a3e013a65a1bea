#!/usr/bin/env python3
"""Regenerates tests/golden/data/rotary/: transformers' own text rotary forward (cos, sin,
inv_freq), the family's apply function (q_embed) and the layout-free rotation table (rot_cos,
rot_sin, rot_partner) for a few small cases, the reference of `ropescope rotary`
(tests/golden/test_rotary_tables.cpp).

Two ways to run transformers:

  scripts/regen-rotary-golden.py --oracle DIR [--cases NAME,...]
      runs DIR/hf_ids.py (position ids and the processor's tokens) and DIR/hf_rotary.py (the
      family's config class, rotary class and apply function, executed from each version's own
      source) with Debian's /usr/bin/python3, once at ATEN_CPU_CAPABILITY=default (the values
      kept) and once at the machine's vector capability (only the elements that differ are kept).

  scripts/regen-rotary-golden.py --installed [--cases NAME,...]
      the transformers package installed in this interpreter (pip install transformers==X torch):
      its config class, rotary class and apply function, on the position ids already stored in
      the case's .npz (which came from get_rope_index through the oracle); writes the case under
      the label v<transformers.__version__> and prints how it compares with the stored versions.

The cases are declared once, below. q is not random: it is the formula qValue() (exact in float32)
so that the C++ test builds the same q without storing it; k is q (hf_rotary.py's default).

Files: one <case>@<version>.npz per case and version (np.savez, uncompressed: the project's npz
reader takes only that) and cases.json with the settings, the command lines, the oracle's commit
and what the vector capability changed. The project's tests never need transformers, torch or the
oracle.
"""
import argparse
import json
import os
import struct
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_process import run_oracle_script  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODELS = os.path.join(ROOT, "resources", "models")
OUT = os.path.join(ROOT, "tests", "golden", "data", "rotary")

# Qwen-style prompt: text, an image (ViT grid 1x4x4: 4 tokens), text, a video (2x2x4: 2 frames of
# 2 tokens), text. GLM's processor gives an image placed before a video that video's frame tokens
# (transformers' own bug up to 5.9), so GLM's prompt has the video first.
VL = [["text", 2], ["image", [1, 4, 4]], ["text", 1], ["video", [2, 2, 4], 1.0], ["text", 1]]
VL_VIDEO_FIRST = [["text", 2], ["video", [2, 2, 4], 1.0], ["text", 1], ["image", [1, 4, 4]],
                  ["text", 1]]
TEXT_IMAGE = [["text", 2], ["image", [1, 4, 4]], ["text", 1]]
YARN = {"type": "yarn", "factor": 4, "original_max_position_embeddings": 32768,
        "mrope_section": [16, 24, 24]}
LLAMA3 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
          "max_position_embeddings": 131072, "rope_theta": 500000.0,
          "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                           "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}

# name -> family (oracle key), the config (a shipped model's config.json, or inline), edits,
# the prompt (or 1-D positions), versions, whether float64 cos/sin are kept, and the ropescope
# arguments that describe the same model.
CASES = {
    "qwen2.5-vl": dict(family="qwen2_5_vl", model="qwen2.5-vl-7b", case=VL,
                       versions=["v4.57.1", "v5.5.4", "main"],
                       ropescope=["--model", "qwen2.5-vl-7b"]),
    "qwen2.5-vl-yarn": dict(family="qwen2_5_vl", model="qwen2.5-vl-7b", case=TEXT_IMAGE,
                            set=["rope_scaling=" + json.dumps(YARN)],
                            versions=["v4.57.1", "v5.5.4"], float64=True,
                            ropescope=["--model", "qwen2.5-vl-7b", "--rope", "yarn",
                                       "--rope-param", "factor=4", "--rope-param",
                                       "original_max_position_embeddings=32768"]),
    "qwen3-vl": dict(family="qwen3_vl", model="qwen3-vl-8b", case=VL,
                     versions=["v4.57.1", "v5.5.4"],
                     ropescope=["--model", "qwen3-vl-8b"]),
    "glm-4.1v": dict(family="glm4v", model="glm-4.1v-9b-thinking", case=VL_VIDEO_FIRST,
                     versions=["v4.57.1", "v5.5.4", "main"],
                     ropescope=["--model", "glm-4.1v-9b-thinking"]),
    "qwen3.5": dict(family="qwen3_5", model="qwen3.5-0.8b", case=VL, versions=["v5.5.4"],
                    ropescope=["--model", "qwen3.5-0.8b"]),
    "llama3": dict(family="llama", config=LLAMA3, positions=8, versions=["v4.57.1", "v5.5.4"],
                   float64=True,
                   ropescope=["--layout", "t8", "--plan", "vanilla", "--head-dim", "128",
                              "--base", "500000", "--rope", "llama3", "--rope-param", "factor=8",
                              "--rope-param", "low_freq_factor=1", "--rope-param",
                              "high_freq_factor=4", "--rope-param",
                              "original_max_position_embeddings=8192"]),
}
RULES = {"v4.57.1": "4.57.1", "v5.5.4": "5.5.4", "main": "main"}


def q_value(h, n, d):
    """q[h, n, d]: a fixed pattern, exact in float32 (tests/golden/test_rotary_tables.cpp)."""
    return ((n * 131 + d * 17 + h * 71) % 97 - 48) / 16.0 + ((n * 7 + d * 3 + h) % 13) / 4096.0


def make_q(heads, n, d):
    q = np.zeros((heads, n, d), dtype=np.float32)
    for h in range(heads):
        for i in range(n):
            for j in range(d):
                q[h, i, j] = q_value(h, i, j)
    return q


def config_arg(case):
    if "config" in case:
        return json.dumps(case["config"])
    return os.path.join(MODELS, case["model"], "config.json")


def run(cmd, capability):
    res = run_oracle_script(cmd, capability)
    if res.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}\n{res.stdout}\n{res.stderr}")
    return res.stdout


def ulps(a, b):
    ia = a.astype(np.float32).view(np.int32).astype(np.int64)
    ib = b.astype(np.float32).view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)  # sign-magnitude -> a line of integers
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def from_oracle(oracle, names):
    meta = {}
    py = "/usr/bin/python3"
    for name in names:
        case = CASES[name]
        kept = []  # (file, arrays) of this case's earlier versions
        for version in case["versions"]:
            with tempfile.TemporaryDirectory() as tmp:
                ids_cmd = None
                rot_cmd = [py, os.path.join(oracle, "hf_rotary.py"), "--family", case["family"],
                           "--version", version, "--config", config_arg(case), "--heads", "1",
                           "--kv-heads", "1"]
                for s in case.get("set", []):
                    rot_cmd += ["--set", s]
                inputs = None
                if "case" in case:
                    ids_cmd = [py, os.path.join(oracle, "hf_ids.py"), "--family", case["family"],
                               "--version", version, "--case", json.dumps(case["case"])]
                    ids = json.loads(run(ids_cmd, "default"))
                    if ids.get("error"):
                        raise SystemExit(f"{name} {version}: {ids['error']}")
                    inputs = ids["inputs"]
                    with open(os.path.join(tmp, "ids.json"), "w") as f:
                        json.dump(ids, f)
                    rot_cmd += ["--ids-json", os.path.join(tmp, "ids.json")]
                else:
                    rot_cmd += ["--position-ids", json.dumps(list(range(case["positions"])))]
                d = json.load(open(os.path.join(MODELS, case["model"], "config.json"))) \
                    if "model" in case else case["config"]
                head_dim = head_dim_of(d)
                n = probe_tokens(rot_cmd + ["--out", os.path.join(tmp, "probe")])
                q = make_q(1, n, head_dim)
                np.save(os.path.join(tmp, "q.npy"), q)
                rot_cmd += ["--q", os.path.join(tmp, "q.npy")]
                if case.get("float64"):
                    rot_cmd += ["--float64"]
                out_s = os.path.join(tmp, "scalar")
                out_v = os.path.join(tmp, "vector")
                run(rot_cmd + ["--out", out_s], "default")
                run(rot_cmd + ["--out", out_v], None)
                arrays = {}
                for f in ("position_ids", "inv_freq", "cos", "sin", "rot_cos", "rot_sin",
                          "rot_partner", "q_embed"):
                    arrays[f] = np.load(os.path.join(out_s, f + ".npy"))
                if case.get("float64"):
                    for f in ("cos_f64", "sin_f64"):
                        arrays[f] = np.load(os.path.join(out_s, f + ".npy"))
                vector = {}
                for f in ("inv_freq", "cos", "sin", "q_embed"):
                    v = np.load(os.path.join(out_v, f + ".npy"))
                    u = ulps(arrays[f], v)
                    idx = np.flatnonzero(u)
                    vector[f] = {"differing": int(idx.size), "of": int(u.size),
                                 "max_ulp": int(u.max()) if u.size else 0}
                    if idx.size:
                        arrays[f + "_vec_idx"] = idx.astype(np.int64)
                        arrays[f + "_vec_val"] = v.reshape(-1)[idx]
                summary = json.load(open(os.path.join(out_s, "summary.json")))
                key = f"{name}@{version}"
                # A version whose arrays equal an earlier version's shares its file.
                npz = key + ".npz"
                for f, a in kept:
                    if a.keys() == arrays.keys() and all(
                            a[k].shape == arrays[k].shape and np.array_equal(a[k], arrays[k])
                            for k in a):
                        npz = f
                        break
                else:
                    np.savez(os.path.join(OUT, npz), **arrays)
                    kept.append((npz, arrays))
                meta[key] = {
                    "case": name, "version": version, "commit": summary["commit"], "npz": npz,
                    "family": case["family"], "rules": RULES[version],
                    "ropescope_args": case["ropescope"] + ["--rules", RULES[version]],
                    "tokens": inputs, "tokens_count": n, "head_dim": head_dim,
                    "rope_type": summary["rope_type"],
                    "attention_scaling": summary["attention_scaling"],
                    "apply_function": summary["apply_function"],
                    "apply_extra_args": summary["apply_extra_args"],
                    "rot_check": summary.get("rot_check"),
                    "shapes": {k: v["shape"] for k, v in summary["files"].items()},
                    "vector_capability": vector,
                    "commands": {"hf_ids": relative(ids_cmd, oracle, tmp) if ids_cmd else None,
                                 "hf_rotary": relative(rot_cmd, oracle, tmp)},
                }
                print(key, summary["files"]["cos.npy"]["shape"], summary["rope_type"],
                      summary["attention_scaling"], summary.get("rot_check"),
                      {k: (v["differing"], v["max_ulp"]) for k, v in vector.items()},
                      file=sys.stderr)
    return meta


def relative(cmd, oracle, tmp):
    out = []
    for a in cmd:
        a = a.replace(oracle.rstrip("/") + "/", "$ORACLE/").replace(tmp + "/", "")
        a = a.replace(ROOT + "/", "")
        out.append(a)
    return " ".join(out)


def head_dim_of(cfg):
    t = cfg.get("thinker_config", cfg)
    t = t.get("text_config", t)
    return t.get("head_dim") or t["hidden_size"] // t["num_attention_heads"]


def probe_tokens(cmd):
    """The token count: a run without q (its random q is thrown away)."""
    run(cmd + ["--no-probe"], "default")
    out = cmd[cmd.index("--out") + 1]
    return int(np.load(os.path.join(out, "position_ids.npy")).shape[-1])


def from_installed(names):
    """The installed transformers on the stored position ids."""
    os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")  # before torch loads
    import importlib
    import torch
    import transformers

    label = "v" + transformers.__version__
    classes = {  # family -> (module, text config class, rotary class, apply function)
        "qwen2_5_vl": ("qwen2_5_vl", "Qwen2_5_VLTextConfig", "Qwen2_5_VLRotaryEmbedding",
                       "apply_multimodal_rotary_pos_emb"),
        "qwen3_vl": ("qwen3_vl", "Qwen3VLTextConfig", "Qwen3VLTextRotaryEmbedding",
                     "apply_rotary_pos_emb"),
        "glm4v": ("glm4v", "Glm4vTextConfig", "Glm4vTextRotaryEmbedding", None),
        "qwen3_5": ("qwen3_5", "Qwen3_5TextConfig", "Qwen3_5TextRotaryEmbedding",
                    "apply_rotary_pos_emb"),
        "llama": ("llama", "LlamaConfig", "LlamaRotaryEmbedding", "apply_rotary_pos_emb"),
    }
    meta = json.load(open(os.path.join(OUT, "cases.json")))["cases"]
    for name in names:
        case = CASES[name]
        stored = [k for k in meta if meta[k]["case"] == name]
        ref = np.load(os.path.join(OUT, meta[stored[-1]]["npz"]))
        mod, cfg_name, rot_name, apply_name = classes[case["family"]]
        m = importlib.import_module(f"transformers.models.{mod}.modeling_{mod}")
        c = importlib.import_module(f"transformers.models.{mod}.configuration_{mod}")
        cfg = json.loads(config_arg(case)) if "config" in case else json.load(open(config_arg(case)))
        cfg = cfg.get("text_config", cfg)
        for s in case.get("set", []):
            k, v = s.split("=", 1)
            cfg[k] = json.loads(v)
        cfg = {k: v for k, v in cfg.items() if k != "model_type"}
        config = getattr(c, cfg_name)(**cfg)
        rotary = getattr(m, rot_name)(config=config)
        pos = torch.from_numpy(ref["position_ids"])
        n = pos.shape[-1]
        cos, sin = rotary(torch.zeros((1, n, 1)), pos)
        d = head_dim_of(cfg)
        q = torch.from_numpy(make_q(1, n, d))[None]
        if apply_name is None:  # GLM: the apply function the text attention calls
            apply_name = ("apply_multimodal_rotary_pos_emb"
                          if hasattr(m, "apply_multimodal_rotary_pos_emb") else "apply_rotary_pos_emb")
        fn = getattr(m, apply_name)
        rope = getattr(config, "rope_parameters", None) or getattr(config, "rope_scaling", None)
        extra = [rope["mrope_section"]] if apply_name == "apply_multimodal_rotary_pos_emb" else []
        q_embed, _ = fn(q, q, cos, sin, *extra)
        got = {"inv_freq": rotary.inv_freq, "cos": cos, "sin": sin, "q_embed": q_embed}
        for k, v in got.items():
            a = v.detach().numpy()
            same = a.shape == ref[k].shape and np.array_equal(a, ref[k])
            print(f"{name} {label} vs {stored[-1]}: {k} {'bit-identical' if same else 'DIFFERS'}")
        np.savez(os.path.join(OUT, f"{name}@{label}.npz"), position_ids=ref["position_ids"],
                 **{k: v.detach().numpy() for k, v in got.items()})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--installed", action="store_true")
    src.add_argument("--oracle", metavar="DIR")
    ap.add_argument("--cases", default=",".join(CASES))
    args = ap.parse_args()
    names = args.cases.split(",")
    os.makedirs(OUT, exist_ok=True)
    if args.installed:
        from_installed(names)
        return
    meta = from_oracle(args.oracle, names)
    path = os.path.join(OUT, "cases.json")
    old = json.load(open(path))["cases"] if os.path.exists(path) else {}
    old.update(meta)
    doc = {
        "_provenance": (
            "Generated by scripts/regen-rotary-golden.py --oracle from executing transformers' "
            "own config class, text rotary class and apply function of each version (the "
            "transformers oracle's hf_ids.py and hf_rotary.py), torch 1.13 CPU at "
            "ATEN_CPU_CAPABILITY=default (scalar cos / sin); what the vector capability (AVX2, "
            "SLEEF) changes is kept as *_vec_idx / *_vec_val. q is the pattern q_value() of the "
            "script, k = q. See docs/reference-data.md."),
        "q_value": "((n*131 + d*17 + h*71) % 97 - 48) / 16 + ((n*7 + d*3 + h) % 13) / 4096",
        "cases": dict(sorted(old.items())),
    }
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
