"""docs/user/notebook.md run as written: its code blocks in order, in one namespace, after the
block that loads the checkpoint. Without the checkpoint (CI is offline) `model` and `inputs` are
stand-ins with the attributes the recipe reads: a Qwen2.5-VL config object (the shipped
config.json behind to_json_string, as transformers' PretrainedConfig offers it), a processor
output of numpy arrays, and a get_rope_index that returns Qwen2-VL's rule (reference.py, written
from the definition) for the padded batch row, as transformers does."""

import os
import re

import numpy as np
import pytest

import reference as ref

RECIPE = os.path.join(ref.SOURCE, "docs", "user", "notebook.md")
CONFIG = os.path.join(ref.SOURCE, "resources", "models", "qwen2.5-vl-7b", "config.json")
LOADS_THE_CHECKPOINT = "# in your notebook: the checkpoint"

# 3 text, <|vision_start|>, an image of ViT grid (1, 4, 6) = 2 x 3 LLM tokens, <|vision_end|>,
# 2 text, left-padded by 2 (the shipped config's token ids).
INPUT_IDS = [151643, 151643, 10, 11, 12, 151652] + [151655] * 6 + [151653, 13, 14]
MASK = [0, 0] + [1] * 13


class Config:
    _name_or_path = "Qwen/Qwen2.5-VL-7B-Instruct"

    def to_json_string(self, use_diff=True):
        assert use_diff is False  # the whole config, defaults included
        with open(CONFIG, encoding="utf-8") as f:
            return f.read()


class TextModel:
    def get_rope_index(self, input_ids, image_grid_thw=None, video_grid_thw=None,
                       attention_mask=None):
        assert video_grid_thw is None and image_grid_thw.tolist() == [[1, 4, 6]]
        want = ref.qwen2vl_ids([("t", 4), ("i", 2, 3), ("t", 3)])
        mask = np.asarray(attention_mask[0], dtype=bool)
        out = np.ones((3, 1, mask.size), dtype=np.int64)  # padding at 1, as transformers fills it
        out[:, 0, mask] = want.T
        return out, np.zeros((1, 1), dtype=np.int64)


class Model:
    config = Config()
    model = TextModel()  # get_rope_index on model.model, as in recent transformers


def blocks():
    with open(RECIPE, encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)


def test_the_recipe_runs_on_a_processor_output(monkeypatch, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    monkeypatch.chdir(tmp_path)
    code = blocks()
    assert code[0].startswith(LOADS_THE_CHECKPOINT) and len(code) >= 4
    inputs = {"input_ids": np.array([INPUT_IDS]), "attention_mask": np.array([MASK]),
              "image_grid_thw": np.array([[1, 4, 6]]), "pixel_values": object()}
    ns = {"model": Model(), "inputs": inputs}
    for block in code[1:]:
        exec(compile(block, RECIPE, "exec"), ns)
    # What the recipe computed, against the rule and the closed forms.
    np.testing.assert_array_equal(ns["ids"], ref.qwen2vl_ids([("t", 4), ("i", 2, 3), ("t", 3)]))
    assert ns["check"] and str(ns["check"]).startswith("identical (13 tokens")
    designs = ns["designs"]
    assert designs.design[int(np.flatnonzero(designs.current)[0])] == "qwen2.5-vl"
    assert designs.ptd[designs.design.index("circle")] == pytest.approx(0, abs=1e-9)
    # U(0) = (1/n) sum_j j = (n + 1) / 2 over the 64 pairs of head dim 128, along every axis;
    # M-RoPE's axes carry different pairs, so the curves part.
    decay = ns["decay"]
    assert decay.t[0] == decay.h[0] == decay.w[0] == 32.5 and decay.distance[-1] == 256
    assert not np.allclose(decay.t, decay.w)
    # Three figures (the scene's 3-D ids, the PTD bars, the decay): drawn, with data.
    figures = [plt.figure(n) for n in plt.get_fignums()]
    assert len(figures) == 3
    plt.close("all")
