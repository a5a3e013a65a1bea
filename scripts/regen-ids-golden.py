#!/usr/bin/env python3
"""Regenerates tests/golden/data/hf_ids_golden.jsonl: position ids and rope_deltas that transformers'
own code returns, per model family x transformers release, on the processor outputs of many cases.

Two ways to execute transformers:

  --oracle DIR   the transformers oracle (a folder holding hf_ids.py and transformers' source files of
                 every release v4.45.0 ... v5.15.0 and main; it executes each release's own processor
                 text and get_rope_index). Run it with an interpreter that has torch (Debian's
                 /usr/bin/python3 with python3-torch). This is how the committed file was made.
  --installed    the transformers installed in this interpreter (pip install transformers==X):
                 replays the processor outputs stored in the golden file through that release's own
                 get_rope_index, with the model configs the golden set was made with (the shipped
                 resources/models and tests/golden/data/hf_ids_models, not the config classes'
                 defaults: Qwen2.5-VL's default tokens_per_second is 4, the checkpoint's 2), and
                 prints, per case, whether its ids and rope_deltas equal the stored ones for that
                 release's class; with --out it also writes those cases with the installed
                 release's own ids (version label v<installed>), the re-derived reference (the
                 processor itself needs tokenizer files from the hub, so the stored processor
                 outputs are used as they are).

Output, one JSON object per line (sorted keys, compact):
  {"family", "version" (a tag, "v5.5.4", or "main"), "case" (name), "segments" (the case), "inputs"
   (the processor output: input_ids, attention_mask, grids, ...; [B, N] for batches),
   "use_audio_in_video", "position_ids" ([3, N] or [3, B, N]), "rope_deltas" ([B]), "dtype",
   "error" (what transformers raised, else null)}
Versions: the first and the last release of every behaviour class of the oracle's CLASSES.md
(hf_classes.EXPECTED), and main.

Usage:
  nice -n 15 /usr/bin/python3 scripts/regen-ids-golden.py --oracle ../shared/oracles/transformers \\
      --out tests/golden/data/hf_ids_golden.jsonl
  python3 scripts/regen-ids-golden.py --installed --golden tests/golden/data/hf_ids_golden.jsonl \\
      [--compare-with v4.57.1] [--out rederived-4.57.1.jsonl]
"""

import argparse
import copy
import inspect
import json
import os
import sys

# Cases. Grids are ViT grids (merge 2); spg = seconds per temporal grid; ["pad", n] left padding.
VL_CASES = {
    "text": [["text", 4]],
    "image": [["text", 2], ["image", [1, 4, 6]], ["text", 2]],
    "image_large": [["text", 3], ["image", [1, 28, 20]], ["text", 2]],
    "image_tall": [["text", 1], ["image", [1, 40, 4]], ["text", 1]],
    "two_images": [["text", 1], ["image", [1, 4, 4]], ["text", 2], ["image", [1, 8, 12]], ["text", 1]],
    "video_long": [["text", 2], ["video", [6, 4, 4], 1.0], ["text", 2]],
    "video_wide": [["text", 2], ["video", [2, 4, 12], 1.0], ["text", 2]],
    "video_spg0.5": [["text", 2], ["video", [4, 4, 6], 0.5], ["text", 2]],
    "video_spg1.5": [["text", 2], ["video", [3, 4, 4], 1.5], ["text", 2]],
    "video_spg_frac": [["text", 2], ["video", [4, 4, 4], 0.7], ["text", 2]],
    "video_spg_large": [["text", 2], ["video", [3, 6, 4], 12.0], ["text", 2]],
    "image_video": [["text", 2], ["image", [1, 4, 4]], ["text", 1], ["video", [2, 4, 4], 1.0], ["text", 2]],
    "video_image": [["text", 2], ["video", [2, 4, 4], 1.0], ["text", 1], ["image", [1, 4, 4]], ["text", 2]],
    "two_videos": [["text", 1], ["video", [2, 4, 4], 1.0], ["text", 1], ["video", [2, 4, 4], 2.0], ["text", 1]],
    "video_one_frame": [["text", 2], ["video", [1, 4, 4], 1.0], ["text", 1]],
    "pad_image": [["pad", 3], ["text", 2], ["image", [1, 8, 6]], ["text", 2]],
    "pad_video": [["pad", 2], ["text", 1], ["video", [4, 4, 4], 1.0], ["text", 1]],
}
# ERNIE merges frame pairs: its video processor makes even T only.
ERNIE_CASES = {k: v for k, v in VL_CASES.items()
               if not any(s[0] == "video" and s[1][0] % 2 for s in v)}
OMNI_CASES = {
    "text": [["text", 4]],
    "image": [["text", 2], ["image", [1, 4, 6]], ["text", 2]],
    "video_long": [["text", 2], ["video", [6, 4, 4], 1.0], ["text", 2]],
    "video_spg_frac": [["text", 2], ["video", [4, 4, 4], 0.7], ["text", 2]],
    "audio": [["text", 2], ["audio", 400], ["text", 2]],
    "audio_long": [["text", 1], ["audio", 3100], ["text", 1]],
    "audio_image_video": [["text", 1], ["audio", 160], ["image", [1, 4, 4]], ["text", 1],
                          ["video", [2, 4, 4], 1.0], ["text", 1]],
    "video_audio": [["text", 2], ["video_audio", [4, 4, 4], 1.0, 400], ["text", 2]],
    "video_audio_spg0.5": [["text", 1], ["video_audio", [6, 4, 4], 0.5, 300], ["text", 1]],
    "pad_audio_image": [["pad", 2], ["text", 2], ["audio", 160], ["image", [1, 4, 4]], ["text", 1]],
}
# Batches: two cases padded to one length ("left" as for generation, "right" as for training).
VL_BATCHES = {"batch_left": ("image", "video_spg0.5", "left"), "batch_right": ("two_images", "image", "right")}
OMNI_BATCHES = {"batch_left": ("audio", "image", "left")}
# A one-row case with right padding.
RIGHT_PAD = {"pad_right_image": ("image", 3)}

# The model config each family's golden cases were computed with (relative to the repository).
CONFIGS = {"qwen2_vl": "resources/models/qwen2-vl-7b/config.json",
           "qwen2_5_vl": "resources/models/qwen2.5-vl-7b/config.json",
           "qwen3_vl": "resources/models/qwen3-vl-8b/config.json",
           "qwen3_5": "resources/models/qwen3.5-0.8b/config.json",
           "glm4v": "resources/models/glm-4.1v-9b-thinking/config.json",
           "ernie4_5_vl": "resources/models/ernie-4.5-vl-28b-a3b/config.json",
           "qwen2_5_omni": "tests/golden/data/hf_ids_models/qwen2.5-omni/config.json",
           "qwen3_omni": "tests/golden/data/hf_ids_models/qwen3-omni/config.json"}
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FAMILIES = ["qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_5", "glm4v", "ernie4_5_vl", "qwen2_5_omni", "qwen3_omni"]
OMNI = ("qwen2_5_omni", "qwen3_omni")
PER_TOKEN = ("input_ids", "attention_mask", "mm_token_type_ids")


def cases_of(family):
    return OMNI_CASES if family in OMNI else ERNIE_CASES if family == "ernie4_5_vl" else VL_CASES


def pad_rows(rows, side):
    """Processor outputs of batch size 1 -> one padded batch (pad id 0, attention 0)."""
    n = max(len(r["input_ids"][0]) for r in rows)
    out = {}
    for key in sorted({k for r in rows for k in r}):
        if key in PER_TOKEN:
            if any(key not in r for r in rows):
                raise SystemExit(f"batch rows differ in keys ({key})")
            padded = []
            for r in rows:
                row = r[key][0]
                fill = [0] * (n - len(row))
                padded.append(fill + row if side == "left" else row + fill)
            out[key] = padded
        elif key == "feature_attention_mask":
            width = max(len(x) for r in rows for x in r.get(key, []))
            out[key] = [x + [0] * (width - len(x)) for r in rows for x in r.get(key, [])]
        else:  # grids, second_per_grid_ts: concatenated over the batch
            out[key] = [x for r in rows for x in r.get(key, [])]
    return out


def run_oracle(args):
    sys.path.insert(0, os.path.abspath(args.oracle))
    import hf_classes
    import hf_ids
    import hf_src
    import torch

    src = hf_ids.mirrors_from(None)
    versions = list(hf_src.VERSIONS)

    def raw_call(family, version, inputs, use_aiv):
        """get_rope_index of `version` on a processor output of any batch size."""
        impl, err = hf_ids.build_impl(src, family, version, [])
        if err:
            raise SystemExit(err)
        obj = hf_ids.make_self(impl[0], family, hf_ids.load_config(family))
        try:
            pos, deltas = hf_ids.call_rope_index(obj, family, version, inputs, use_aiv)
        except Exception as e:  # transformers raised: that is the release's behaviour
            return None, None, None, f"get_rope_index raised {type(e).__name__}: {e}"
        p = pos.tolist()
        if pos.dtype.is_floating_point:
            p = [[[float(v) for v in row] for row in axis] for axis in p]
        return p, deltas.reshape(-1).tolist(), str(pos.dtype), None

    lines = []
    families = args.family or FAMILIES
    for family in families:
        firsts = [v for v, _ in hf_classes.EXPECTED[family]]
        picked = []
        for i, first in enumerate(firsts):
            lo = versions.index(first)
            hi = versions.index(firsts[i + 1]) - 1 if i + 1 < len(firsts) else len(versions) - 1
            picked += [versions[lo]] + ([versions[hi]] if hi != lo else [])
        if "main" not in picked:
            picked.append("main")
        for version in picked:
            singles = {}
            for name, segs in cases_of(family).items():
                o = hf_ids.compute(src, family, version, segs)
                singles[name] = o
                lines.append({"family": family, "version": version, "case": name, "segments": segs,
                              "inputs": o["inputs"], "use_audio_in_video": bool(o.get("use_audio_in_video")),
                              "position_ids": o["position_ids"],
                              "rope_deltas": o["rope_deltas"], "dtype": o.get("dtype"), "error": o["error"]})
            extra = dict(OMNI_BATCHES if family in OMNI else VL_BATCHES)
            if family not in OMNI:
                extra.update({k: (v[0], v[1], "right1") for k, v in RIGHT_PAD.items()})
            for name, (a, b, side) in extra.items():
                if side == "right1":
                    base = singles[a]
                    if base["inputs"] is None:
                        continue
                    inputs = copy.deepcopy(base["inputs"])
                    for key in PER_TOKEN:
                        if key in inputs:
                            inputs[key] = [inputs[key][0] + [0] * b]
                    segs = base["case"] + [["pad_right", b]]
                    uaiv = False
                else:
                    if singles[a]["inputs"] is None or singles[b]["inputs"] is None:
                        continue
                    inputs = pad_rows([singles[a]["inputs"], singles[b]["inputs"]], side)
                    segs = [base_case for base_case in (singles[a]["case"], singles[b]["case"])]
                    uaiv = bool(singles[a].get("use_audio_in_video") or singles[b].get("use_audio_in_video"))
                p, d, dt, err = raw_call(family, version, inputs, uaiv)
                if p is not None and side == "right1":
                    p = [axis[0] for axis in p]
                lines.append({"family": family, "version": version, "case": name, "segments": segs,
                              "inputs": inputs, "use_audio_in_video": uaiv, "position_ids": p,
                              "rope_deltas": d, "dtype": dt, "error": err})
            print(f"{family} {version}: {len(cases_of(family)) + len(extra)} cases", file=sys.stderr)
    write_lines(args.out, lines)


def release_key(label):
    """Release order of a label ("v4.57.1", "v5.0.0rc2", "main"; an installed "5.16.0.dev0" too)."""
    if label == "main":
        return (float("inf"),)
    import re
    m = re.match(r"v?(\d+)\.(\d+)\.(\d+)(?:rc(\d+))?", label)
    if not m:
        raise SystemExit(f"not a release: {label}")
    rc = m.group(4)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)), 0 if rc else 1, int(rc or 0))


def write_lines(path, lines):
    """One JSON object per line, sorted keys, compact; the file lands whole (a temporary, renamed)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True, separators=(",", ":")) + "\n")
    os.replace(tmp, path)
    print(f"wrote {len(lines)} cases to {path}", file=sys.stderr)


def config_mod(modeling):
    """The configuration module next to a modeling module."""
    import importlib
    return importlib.import_module(modeling.__name__.replace(".modeling_", ".configuration_"))


def model_config(family, config_cls):
    """The config the golden cases were computed with, as the installed config class reads it (an omni
    checkpoint's thinker part for the thinker's get_rope_index)."""
    with open(os.path.join(REPO, CONFIGS[family])) as f:
        cfg = json.load(f)
    if family in OMNI and "thinker_config" in cfg:
        cfg = cfg["thinker_config"]
    return config_cls.from_dict(cfg)


def run_installed(args):
    """Replays the stored processor outputs through the installed transformers' get_rope_index."""
    import importlib

    import torch
    import transformers

    version = "v" + transformers.__version__
    modules = {"qwen2_vl": ("qwen2_vl.modeling_qwen2_vl", "Qwen2VLModel"),
               "qwen2_5_vl": ("qwen2_5_vl.modeling_qwen2_5_vl", "Qwen2_5_VLModel"),
               "qwen3_vl": ("qwen3_vl.modeling_qwen3_vl", "Qwen3VLModel"),
               "qwen3_5": ("qwen3_5.modeling_qwen3_5", "Qwen3_5Model"),
               "glm4v": ("glm4v.modeling_glm4v", "Glm4vModel"),
               "ernie4_5_vl": ("ernie4_5_vl_moe.modeling_ernie4_5_vl_moe", "Ernie4_5_VLMoeModel"),
               "qwen2_5_omni": ("qwen2_5_omni.modeling_qwen2_5_omni", "Qwen2_5OmniThinkerForConditionalGeneration"),
               "qwen3_omni": ("qwen3_omni_moe.modeling_qwen3_omni_moe", "Qwen3OmniMoeThinkerForConditionalGeneration")}
    with open(args.golden) as f:
        golden = [json.loads(line) for line in f]
    # Per family, the golden release to compare with: --compare-with, else the last golden release
    # at or before the installed one. The set holds the first release of every behaviour class, so
    # that one is in the installed release's class (v4.57.1 is compared with Qwen2-VL's v4.45.0).
    compare_with = {}
    for g in golden:
        v = g["version"]
        if args.compare_with:
            ok = v == args.compare_with
        else:
            ok = release_key(v) <= release_key(version)
        best = compare_with.get(g["family"])
        if ok and (best is None or release_key(v) > release_key(best)):
            compare_with[g["family"]] = v
    checked = agreed = 0
    rederived = []
    for g in golden:
        if g["version"] != compare_with.get(g["family"]) or g["error"] is not None:
            continue
        mod_name, cls_name = modules[g["family"]]
        try:
            mod = importlib.import_module("transformers.models." + mod_name)
        except ImportError:
            continue
        # ERNIE's classes were Ernie4_5_VL_Moe* up to 5.2.0.
        cls_name = cls_name if hasattr(mod, cls_name) else cls_name.replace("VLMoe", "VL_Moe")
        cls = getattr(mod, cls_name)
        config_cls = getattr(config_mod(mod), cls_name.replace("ForConditionalGeneration", "").replace("Model", "")
                             + "Config")
        obj = cls.__new__(cls)
        torch.nn.Module.__init__(obj)
        obj.config = model_config(g["family"], config_cls)
        if hasattr(obj.config, "vision_config"):
            obj.spatial_merge_size = obj.config.vision_config.spatial_merge_size
        inputs = g["inputs"]
        T = lambda k, dt=torch.long: torch.tensor(inputs[k], dtype=dt) if k in inputs else None
        kw = dict(image_grid_thw=T("image_grid_thw"), video_grid_thw=T("video_grid_thw"),
                  attention_mask=T("attention_mask"))
        if g["family"] in OMNI:
            fam = T("feature_attention_mask")
            pos, deltas = obj.get_rope_index(T("input_ids"), kw["image_grid_thw"], kw["video_grid_thw"],
                                             kw["attention_mask"], g["use_audio_in_video"],
                                             fam.sum(1) if fam is not None else None,
                                             T("video_second_per_grid", torch.float32))
        else:
            if "mm_token_type_ids" in inputs and \
                    "mm_token_type_ids" in inspect.signature(obj.get_rope_index).parameters:
                kw["mm_token_type_ids"] = T("mm_token_type_ids", torch.int32)
            if g["family"] == "qwen2_5_vl":
                kw["second_per_grid_ts"] = T("second_per_grid_ts", torch.float32)
            pos, deltas = obj.get_rope_index(T("input_ids"), **kw)
        want = g["position_ids"]
        got = pos.tolist()
        if len(got[0]) == 1 and not isinstance(want[0][0], list):
            got = [axis[0] for axis in got]
        got_deltas = deltas.reshape(-1).tolist()
        same = got == want and got_deltas == g["rope_deltas"]
        checked += 1
        agreed += same
        print(f"{g['family']} {g['case']} (golden {g['version']}): {'same' if same else 'DIFFERENT'}")
        if args.out:
            line = dict(g, version=version, position_ids=got, rope_deltas=got_deltas, dtype=str(pos.dtype))
            rederived.append(line)
    print(f"transformers {version} vs the golden set: {agreed} of {checked} cases agree")
    if checked == 0:
        print("no golden case to compare with (no family of the set in this transformers?)")
        return 1
    if args.out:
        write_lines(args.out, rederived)
    return 0 if agreed == checked else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--oracle", help="the transformers oracle folder (hf_ids.py)")
    g.add_argument("--installed", action="store_true", help="use the installed transformers")
    ap.add_argument("--family", action="append", choices=FAMILIES, help="only this family (repeatable)")
    ap.add_argument("--out", help="--oracle: the file to write (default tests/golden/data/hf_ids_golden.jsonl); "
                    "--installed: also write the cases with the installed release's ids there")
    ap.add_argument("--golden", default="tests/golden/data/hf_ids_golden.jsonl")
    ap.add_argument("--compare-with", help="with --installed: the golden version label to compare with "
                    "(default: per family, the last golden release at or before the installed one)")
    args = ap.parse_args()
    if args.oracle:
        args.out = args.out or "tests/golden/data/hf_ids_golden.jsonl"
        run_oracle(args)
        return 0
    return run_installed(args)


if __name__ == "__main__":
    sys.exit(main())
