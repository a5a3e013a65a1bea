"""Gemma 3's attention mask for a small prompt with two pictures, from transformers' own
functions, executed: writes tests/golden/data/gemma3_picture_mask.json.

Usage: /usr/bin/python3 tests/golden/gemma3_mask_oracle.py MASKING_UTILS.py MODELING_GEMMA3.py
(two files of huggingface/transformers, or excerpts of them holding whole functions). The
functions named below are cut out of those files with `ast` and run unchanged with torch;
create_masks_for_generate, which create_causal_mask_mapping ends in, is replaced by a stand-in
that returns its keyword arguments, so that the or_mask_function the model builds from
token_type_ids is what is evaluated. A layer's mask is then what masking_utils composes for it:
causal (and the sliding overlay on a sliding layer), or-ed with that function.
"""

import ast
import json
import sys
from collections.abc import Callable
from typing import Optional

import torch
from torch import nn

MASKING = ["and_masks", "or_masks", "causal_mask_function", "sliding_window_overlay"]
GEMMA3 = ["token_type_ids_mask_function", "create_causal_mask_mapping"]


def cut(path, names, space):
    text = open(path).read()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name in names:
            exec(compile(ast.Module([node], []), path, "exec"), space)
    missing = [n for n in names if n not in space]
    if missing:
        raise SystemExit(f"{path} lacks {missing}")


class _Config:
    def get_text_config(self):
        return self


def main(masking_path, gemma_path):
    space = {"torch": torch, "nn": nn, "Callable": Callable, "Optional": Optional,
             "PreTrainedConfig": object, "Cache": object,
             "create_masks_for_generate": lambda **kwargs: kwargs}
    cut(masking_path, MASKING, space)
    cut(gemma_path, GEMMA3, space)
    # <bos> text text <boi> 4 image tokens <eoi> text <boi> 3 image tokens <eoi> text text:
    # token_type_ids 1 on the image soft tokens only, as Gemma3Processor writes them.
    types = [0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0]
    n = len(types)
    tt = torch.tensor([types])
    kwargs = space["create_causal_mask_mapping"](
        _Config(), torch.zeros(1, n, 8), None, torch.arange(n), None, None, tt, None)
    pictures = kwargs["or_mask_function"]
    cases = []
    for layer, window in (("full_attention", 0), ("sliding_attention", 3)):
        base = space["causal_mask_function"]
        if window:
            base = space["and_masks"](space["sliding_window_overlay"](window), base)
        mask = space["or_masks"](base, pictures)
        rows = [[int(bool(mask(torch.tensor(0), torch.tensor(0), torch.tensor(q), torch.tensor(k))))
                 for k in range(n)] for q in range(n)]
        cases.append({"layer": layer, "window": window, "mask": rows})
    out = {"source": "transformers masking_utils.py (and_masks, or_masks, causal_mask_function, "
                     "sliding_window_overlay) at 00c4411 and models/gemma3/modeling_gemma3.py "
                     "(token_type_ids_mask_function, create_causal_mask_mapping) at 0018aa6, "
                     "run by tests/golden/gemma3_mask_oracle.py with torch "
                     + torch.__version__,
           "token_type_ids": types, "cases": cases}
    json.dump(out, sys.stdout, indent=None)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
