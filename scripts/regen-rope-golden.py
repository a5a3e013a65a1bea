#!/usr/bin/env python3
"""Regenerates tests/golden/data/rope_scaling_reference.json: transformers' own inv_freq and
attention factor for every rope type ropescope models, from executing transformers.

Two ways to run transformers' modeling_rope_utils.py:

  scripts/regen-rope-golden.py --installed [--out FILE]
      imports ROPE_INIT_FUNCTIONS and LlamaRotaryEmbedding from the transformers package installed
      in this interpreter (pip install transformers==X torch) and writes one version's entries.

  scripts/regen-rope-golden.py --oracle DIR [--versions v4.57.1,v5.3.0,...] [--out FILE]
      runs DIR/hf_rope.py (the transformers oracle: the versions' own source files, executed)
      with Debian's /usr/bin/python3 for each version.

The cases are declared once, below. Every case is a flat (<= 4.57 layout) Llama config, which
every version reads (v5 standardises it into rope_parameters); the Llama path is the generic
ROPE_INIT_FUNCTIONS path that every family's rotary class uses for a non-default type.

torch's CPU pow on AVX2 / AVX-512 builds uses SLEEF's vector powf (error bound 1 ulp), which can
differ in the last bit from the scalar powf; the bit-exact values are those of
ATEN_CPU_CAPABILITY=default (set below for every run), the vector ones are stored beside them.
The project's tests read only the JSON file; they never need transformers, torch or the oracle.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_process import run_oracle_script  # noqa: E402

PHI3_SHORT = [1.0 + 0.0125 * i for i in range(48)]
PHI3_LONG = [1.0 + 0.5 * i for i in range(48)]


def llama(head_dim, theta, max_pos, scaling=None, heads=8):
    cfg = {"model_type": "llama", "hidden_size": head_dim * heads, "num_attention_heads": heads,
           "head_dim": head_dim, "max_position_embeddings": max_pos, "rope_theta": theta}
    if scaling is not None:
        cfg["rope_scaling"] = scaling
    return cfg


# name -> (config, max position ids to run the forward at, first version that has the type,
#          ropescope's rope type and parameters, its rotary dim / head dim)
CASES = {
    "qwen2.5-vl-yarn": dict(
        config=llama(128, 1000000.0, 128000, {"rope_type": "yarn", "factor": 4.0,
                                              "original_max_position_embeddings": 32768}),
        note="Qwen2.5-VL-7B's README YaRN block (factor 4, original 32768) on its rotary"),
    "qwen3.5-yarn": dict(
        config=dict(llama(256, 10000000.0, 1010000, {"rope_type": "yarn", "factor": 4.0,
                                                     "original_max_position_embeddings": 262144}),
                    partial_rotary_factor=0.25),
        note="Qwen3.5's YaRN block (factor 4 from 262144, partial rotary 0.25, theta 1e7)"),
    "yarn-no-truncate": dict(
        config=llama(64, 150000.0, 131072, {"rope_type": "yarn", "factor": 32.0,
                                            "original_max_position_embeddings": 4096,
                                            "beta_fast": 32.0, "beta_slow": 1.0,
                                            "truncate": False}),
        note="gpt-oss-style YaRN: truncate false"),
    "yarn-mscale": dict(
        config=llama(64, 10000.0, 163840, {"rope_type": "yarn", "factor": 40.0,
                                           "original_max_position_embeddings": 4096,
                                           "beta_fast": 32.0, "beta_slow": 1.0,
                                           "mscale": 1.0, "mscale_all_dim": 0.707}),
        note="DeepSeek-V3-style YaRN: mscale / mscale_all_dim (mscale_all_dim changed from 1)"),
    "yarn-attention-factor": dict(
        config=llama(128, 1000000.0, 131072, {"rope_type": "yarn", "factor": 2.5,
                                              "original_max_position_embeddings": 32768,
                                              "attention_factor": 1.25, "beta_fast": 16.0,
                                              "beta_slow": 2.0}),
        note="YaRN with a given attention_factor and non-default betas"),
    "linear": dict(
        config=llama(256, 1000000.0, 131072, {"rope_type": "linear", "factor": 8.0}),
        note="Gemma-3-style global layers: linear factor 8"),
    "dynamic": dict(
        config=llama(128, 10000.0, 4096, {"rope_type": "dynamic", "factor": 2.0}),
        max_position_ids=[100, 8191, 40000],
        note="dynamic NTK; the forward at max position ids 100 (no update), 8191, 40000"),
    "llama3": dict(
        config=llama(128, 500000.0, 131072, {"rope_type": "llama3", "factor": 8.0,
                                             "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                             "original_max_position_embeddings": 8192}),
        note="Llama 3.1 8B's rope_scaling"),
    "longrope": dict(
        config=dict(llama(96, 10000.0, 131072, {"rope_type": "longrope",
                                                "short_factor": PHI3_SHORT,
                                                "long_factor": PHI3_LONG}),
                    original_max_position_embeddings=4096),
        max_position_ids=[4095, 4096],
        note="Phi-3-style longrope (synthetic factor lists; original length at the top level); "
             "the forward at max position ids 4095 (short) and 4096 (long)"),
    "proportional": dict(
        config=llama(512, 1000000.0, 131072, {"rope_type": "proportional",
                                              "partial_rotary_factor": 0.25}),
        since="v5.5.0",
        note="Gemma-4-style proportional: head dim 512, 64 of 256 pairs rotated"),
    "proportional-factor": dict(
        config=llama(512, 1000000.0, 131072, {"rope_type": "proportional",
                                              "partial_rotary_factor": 0.25, "factor": 8.0}),
        since="v5.5.0",
        note="proportional with factor 8"),
    "default": dict(
        config=llama(128, 1000000.0, 128000),
        note="no scaling (Qwen2.5-VL's rotary)"),
}

VERSIONS = ["v4.57.1", "v5.3.0", "v5.4.0", "v5.5.3", "v5.5.4", "main"]
ORDER = VERSIONS + ["installed"]


def version_key(v):
    if v == "main":
        return (99,)
    return tuple(int(x) for x in v.lstrip("v").split(".")[:3] if x.isdigit())


def entry(inv_values, bits, factor, after=None, bits_vector=None):
    out = {"inv_freq": inv_values, "f32_bits": bits, "attention_factor": factor}
    if bits_vector is not None and bits_vector != bits:
        out["f32_bits_vector_pow"] = bits_vector
    if after:
        out["after_forward"] = after
    return out


def run_oracle(oracle, version, case, capability):
    cmd = ["/usr/bin/python3", os.path.join(oracle, "hf_rope.py"), "--version", version,
           "--family", "llama", "--config", json.dumps(case["config"]), "--no-float64"]
    if case.get("max_position_ids"):
        cmd += ["--max-position-id", ",".join(str(p) for p in case["max_position_ids"])]
    res = run_oracle_script(cmd, capability)
    d = json.loads(res.stdout)
    if d.get("error"):
        raise SystemExit(f"{version}: transformers raised: {d['error']}")
    return d


def from_oracle(oracle, versions):
    out = {}
    for name, case in CASES.items():
        out[name] = {}
        for v in versions:
            if "since" in case and version_key(v) < version_key(case["since"]):
                continue
            d = run_oracle(oracle, v, case, "default")
            vec = run_oracle(oracle, v, case, None)
            after = []
            for a, av in zip(d.get("after_forward", []), vec.get("after_forward", [])):
                after.append({"max_position_id": a["max_position_id"],
                              "inv_freq": a["inv_freq"]["values"],
                              "f32_bits": a["inv_freq"]["f32_bits"],
                              "attention_factor": a["attention_factor"],
                              **({"f32_bits_vector_pow": av["inv_freq"]["f32_bits"]}
                                 if av["inv_freq"]["f32_bits"] != a["inv_freq"]["f32_bits"] else {})})
            out[name][v] = entry(d["inv_freq"]["values"], d["inv_freq"]["f32_bits"],
                                 d["attention_factor"], after, vec["inv_freq"]["f32_bits"])
            out[name][v]["commit"] = d.get("commit")
    return out


def from_installed():
    os.environ.setdefault("ATEN_CPU_CAPABILITY", "default")  # before torch loads
    import struct
    import torch
    import transformers
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    def bits(t):
        return ["0x%08x" % struct.unpack("<I", struct.pack("<f", float(x)))[0] for x in t.tolist()]

    label = "v" + transformers.__version__
    out = {}
    for name, case in CASES.items():
        if "since" in case and version_key(label) < version_key(case["since"]):
            continue
        config = LlamaConfig(**{k: v for k, v in case["config"].items() if k != "model_type"})
        rotary = LlamaRotaryEmbedding(config=config)
        inv = rotary.inv_freq.detach().clone()
        factor = float(rotary.attention_scaling)
        after = []
        for p in case.get("max_position_ids", []):
            x = torch.zeros(1, 1, dtype=torch.float32)
            rotary(x, torch.tensor([[0, p]]))
            after.append({"max_position_id": p, "inv_freq": rotary.inv_freq.tolist(),
                          "f32_bits": bits(rotary.inv_freq),
                          "attention_factor": float(rotary.attention_scaling)})
        out[name] = {label: entry(inv.tolist(), bits(inv), factor, after)}
    return out


def grouped(by_version):
    """Versions whose outputs are identical share one result: [{"versions": [...], ...}]."""
    out = []
    for version, result in by_version.items():
        body = {k: v for k, v in result.items() if k != "commit"}
        for g in out:
            if g["body"] == body:
                g["versions"].append(version)
                g["commits"].append(result.get("commit"))
                break
        else:
            out.append({"versions": [version], "commits": [result.get("commit")], "body": body})
    return [{"versions": g["versions"], "commits": g["commits"], **g["body"]} for g in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--installed", action="store_true")
    src.add_argument("--oracle", metavar="DIR")
    ap.add_argument("--versions", default=",".join(VERSIONS))
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "tests",
                                                  "golden", "data", "rope_scaling_reference.json"))
    args = ap.parse_args()
    results = from_installed() if args.installed else from_oracle(args.oracle,
                                                                  args.versions.split(","))
    doc = {
        "_provenance": (
            "Generated by scripts/regen-rope-golden.py from executing transformers' "
            "modeling_rope_utils.py (LlamaRotaryEmbedding + ROPE_INIT_FUNCTIONS) "
            + ("of the installed package" if args.installed else
               "of each version, through the transformers oracle's hf_rope.py")
            + ", torch at ATEN_CPU_CAPABILITY=default (scalar powf). f32_bits are the float32 "
            "inv_freq bit patterns; f32_bits_vector_pow, where present, what torch's AVX2 build "
            "gives (SLEEF vector powf). See docs/reference-data.md."),
        "cases": {name: {"config": case["config"], "note": case["note"],
                         "max_position_ids": case.get("max_position_ids", []),
                         "results": grouped(results.get(name, {}))}
                  for name, case in CASES.items()},
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print("wrote", args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
