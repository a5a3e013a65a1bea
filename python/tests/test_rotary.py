"""ropescope.rotary(): the tables of `ropescope rotary` as arrays. Compared bit for bit with
transformers' own rotary forward and apply function (tests/golden/data/rotary, made by
scripts/regen-rotary-golden.py from the transformers oracle), plus properties of the rotation."""

import json
import math
import os

import numpy as np
import pytest

import ropescope

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "golden", "data", "rotary")
MODELS = {"qwen2.5-vl": "qwen2.5-vl-7b", "qwen2.5-vl-yarn": "qwen2.5-vl-7b",
          "qwen3-vl": "qwen3-vl-8b", "glm-4.1v": "glm-4.1v-9b-thinking",
          "qwen3.5": "qwen3.5-0.8b"}
YARN = {"factor": 4, "original_max_position_embeddings": 32768}


def q_pattern(heads, n, d):
    """The q the golden cases were made with (regen-rotary-golden.py q_value), exact in float32."""
    h, i, j = np.meshgrid(np.arange(heads), np.arange(n), np.arange(d), indexing="ij")
    return (((i * 131 + j * 17 + h * 71) % 97 - 48) / 16.0
            + ((i * 7 + j * 3 + h) % 13) / 4096.0).astype(np.float32)


def golden_cases():
    with open(os.path.join(GOLDEN, "cases.json")) as f:
        cases = json.load(f)["cases"]
    return [(k, c) for k, c in sorted(cases.items()) if c["case"] in MODELS]


@pytest.mark.parametrize("key,case", golden_cases(), ids=[k for k, _ in golden_cases()])
def test_tables_equal_transformers_bit_for_bit(key, case):
    g = np.load(os.path.join(GOLDEN, case["npz"]))
    extra = {"rope": "yarn", "rope_param": YARN} if case["case"] == "qwen2.5-vl-yarn" else {}
    n, d = case["tokens_count"], case["head_dim"]
    r = ropescope.rotary(model=MODELS[case["case"]], tokens=case["tokens"], rules=case["rules"],
                         q=q_pattern(1, n, d)[0], **extra)
    assert np.array_equal(r["position_ids"], g["position_ids"])
    for name in ("inv_freq", "cos", "sin", "rot_cos", "rot_sin"):
        assert r[name].dtype == np.float32
        assert r[name].shape == g[name].shape, name
        assert np.array_equal(r[name].view(np.uint32), g[name].view(np.uint32)), name
    assert np.array_equal(r["rot_partner"], g["rot_partner"])
    assert np.array_equal(r["q_embed"].view(np.uint32), g["q_embed"][0, 0].view(np.uint32))
    assert r["attention_factor"] == case["attention_scaling"]
    assert r["rope_type"] == case["rope_type"]


def test_rotation_keeps_pair_norms_times_the_attention_factor():
    layout = "t2,i2x2,t2,v2x2x2,t2"
    n = ropescope.ids(layout, model="qwen2.5-vl-7b").shape[0]
    q = np.random.default_rng(0).standard_normal((2, n, 128)).astype(np.float32)
    r = ropescope.rotary(layout=layout, model="qwen2.5-vl-7b", rope="yarn",
                         rope_param=YARN, q=q, k=q[:1])
    f = 0.1 * math.log(4.0) + 1.0
    assert r["attention_factor"] == f
    assert r["cos"].shape == (3, 1, n, 128) and r["cos_layout"] == "per_axis"
    c, s = r["cos_f64"], r["sin_f64"]
    assert np.allclose(c * c + s * s, f * f, rtol=0, atol=1e-13)
    partner = r["rot_partner"]
    qe = r["q_embed"].astype(np.float64)
    x = q.astype(np.float64)
    norm_in = x ** 2 + x[..., partner] ** 2
    norm_out = qe ** 2 + qe[..., partner] ** 2
    assert np.allclose(norm_out, norm_in * f * f, rtol=2e-6)
    assert r["k_embed"].shape == (1, n, 128)
    # The rotation table applied by hand is q_embed, bit for bit (float32 products, then the sum).
    rc, rs = r["rot_cos"], r["rot_sin"]
    by_hand = (q * rc) + (q[..., partner] * rs)
    assert np.array_equal(by_hand, r["q_embed"])


def test_one_dimensional_rotary_without_a_model():
    r = ropescope.rotary(layout="t5", plan="vanilla", head_dim=64, base=10000)
    assert r["family"] is None and r["position_ids"].shape == (1, 5)
    assert r["cos"].shape == (1, 5, 64)
    assert np.array_equal(r["position_ids"][0], np.arange(5))
    inv = (1.0 / (10000.0 ** (np.arange(0, 64, 2, dtype=np.float32) / 64))).astype(np.float32)
    assert np.allclose(r["inv_freq"], inv, rtol=2e-7)


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match=r"q has shape \[3, 128\]; expected \[4, 128\]"):
        ropescope.rotary(layout="t4", model="qwen2.5-vl-7b", q=np.zeros((3, 128), np.float32))
    with pytest.raises(ValueError, match="rope type yarn has no parameter"):
        ropescope.rotary(layout="t4", model="qwen2.5-vl-7b", rope="yarn",
                         rope_param={"factor": 4, "original_max_position_embeddings": 32768,
                                     "ramp": 2})
    with pytest.raises(ValueError, match="out= is an option of the command line only"):
        ropescope.rotary(layout="t4", out="x")
