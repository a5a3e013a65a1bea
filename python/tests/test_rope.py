"""Rope scaling from Python: rope=, rope_param={...} (or rope_params=) and max_position_id= take
the command line's parameter tables; results carry the attention factor. The numbers are those
`ropescope freqs --model qwen2.5-vl-yarn-7b` prints (docs/long-context.md) and transformers'
YaRN formulas written out here."""

import math

import numpy as np
import pytest

import ropescope

YARN = {"factor": 4.0, "original_max_position_embeddings": 32768}
FACTOR = 0.1 * math.log(4.0) + 1.0  # YaRN's attention factor: 1.1386
PER_AXIS = {"t": {"unchanged": 16, "ramped": 0, "scaled": 0, "not_rotated": 0},
            "h": {"unchanged": 8, "ramped": 16, "scaled": 0, "not_rotated": 0},
            "w": {"unchanged": 0, "ramped": 0, "scaled": 24, "not_rotated": 0}}


def test_shipped_yarn_config_gives_the_clis_table():
    f = ropescope.freqs(model="qwen2.5-vl-yarn-7b")
    assert f["rope"] == "yarn"
    assert f["per_axis"] == PER_AXIS
    assert f["attention_factor"] == FACTOR == f.attention_factor
    assert f.attention_factor == pytest.approx(1.1386, abs=5e-5)
    assert f.logit_scale == pytest.approx(1.2965, abs=5e-5)
    assert f.logit_scale == FACTOR * FACTOR
    scaling = f["scaling"]
    assert scaling[:24] == ["unchanged"] * 24
    assert scaling[24:40] == ["ramped"] * 16
    assert scaling[40:] == ["scaled"] * 24
    # Pairs 40..63 are the unscaled ladder divided by the factor, 0..23 left alone.
    unscaled = 1e6 ** (-np.arange(64) / 64.0)
    np.testing.assert_allclose(f["theta_unscaled"], unscaled, rtol=1e-13)
    np.testing.assert_allclose(f["theta"][40:], unscaled[40:] / 4, rtol=1e-13)
    np.testing.assert_allclose(f["theta"][:24], unscaled[:24], rtol=1e-13)
    assert np.all(f["theta"][24:40] < unscaled[24:40])
    assert np.all(f["theta"][24:40] > unscaled[24:40] / 4)
    assert f["inv_freq_f32"].dtype == np.float32
    np.testing.assert_allclose(f["inv_freq_f32"], f["theta"], rtol=1e-6)  # float32 ops


def test_keywords_give_the_same_scaling_as_the_config():
    shipped = ropescope.freqs(model="qwen2.5-vl-yarn-7b")
    for key in ("rope_param", "rope_params"):
        given = ropescope.freqs(model="qwen2.5-vl-7b", rope="yarn", **{key: YARN})
        np.testing.assert_array_equal(given["theta"], shipped["theta"])
        assert given["per_axis"] == PER_AXIS and given.attention_factor == FACTOR
    # The command line's own text works too, and numpy values are their numbers.
    text = ropescope.freqs(model="qwen2.5-vl-7b", rope="yarn",
                           rope_param=["factor=4", "original_max_position_embeddings=32768"])
    np.testing.assert_array_equal(text["theta"], shipped["theta"])
    numpy = ropescope.freqs(model="qwen2.5-vl-7b", rope="yarn",
                            rope_param={"factor": np.float64(4),
                                        "original_max_position_embeddings": np.int64(32768)})
    np.testing.assert_array_equal(numpy["theta"], shipped["theta"])


def test_without_a_scaling_the_factor_is_one():
    f = ropescope.freqs(model="qwen2.5-vl-7b")
    assert f["rope"] is None and f.attention_factor == 1.0 and f.logit_scale == 1.0
    assert "per_axis" not in f and "scaling" not in f
    d = ropescope.decay(plan="vanilla", max_distance=3)
    assert d.rope is None and d.attention_factor == 1.0


def test_linear_divides_every_theta():
    plain = ropescope.freqs(plan="vanilla", base=1e4, head_dim=64)
    linear = ropescope.freqs(plan="vanilla", base=1e4, head_dim=64, rope="linear",
                             rope_param={"factor": 8})
    np.testing.assert_allclose(linear["theta"], plain["theta"] / 8, rtol=1e-15)
    assert sum(c["scaled"] for c in linear["per_axis"].values()) == 32


def test_decay_and_attention_carry_the_factor():
    d = ropescope.decay(model="qwen2.5-vl-yarn-7b", axis="w", max_distance=50)
    assert d.rope == "yarn" and d.attention_factor == FACTOR
    assert d[:3].shape == (3,)  # slices stay plain arrays
    axes = ropescope.decay_axes(model="qwen2.5-vl-yarn-7b", max_distance=5)
    assert axes.attention_factor == FACTOR
    # The w pairs are all divided by 4: the curve along w is the unscaled one at a quarter of
    # the distance, U_scaled(4 d) = U_unscaled(d).
    plain = ropescope.decay(model="qwen2.5-vl-7b", axis="w", max_distance=50)
    np.testing.assert_allclose(np.asarray(d)[::4][:13], np.asarray(plain)[:13], rtol=1e-12)


def test_attention_logits_are_scaled_by_the_factor_squared():
    kw = dict(layout="t5,i3x3,t2", qk="random", seed=4, causal=True)
    scaled = ropescope.attention(model="qwen2.5-vl-yarn-7b", **kw)
    plain = ropescope.attention(model="qwen2.5-vl-yarn-7b", rope_param={"attention_factor": 1},
                                **kw)
    assert scaled.rope == "yarn" and scaled.attention_factor == FACTOR
    assert scaled.logit_scale == pytest.approx(1.2965, abs=5e-5)
    assert plain.attention_factor == 1.0 and plain.logit_scale == 1.0
    mask = np.isfinite(plain)
    np.testing.assert_allclose(np.asarray(scaled)[mask], np.asarray(plain)[mask] * FACTOR ** 2,
                               rtol=2e-5, atol=2e-6)
    # The same from rope= on the plain config.
    given = ropescope.attention(model="qwen2.5-vl-7b", rope="yarn", rope_params=YARN, **kw)
    np.testing.assert_array_equal(given, scaled)


@pytest.mark.parametrize("kw, message", [
    (dict(rope="yarn", rope_param={"factor": 4, "original_max_position_embeddings": 32768,
                                   "ramp": 2}),
     r'^--rope-param ramp: rope type yarn has no parameter "ramp" \(accepted: factor, '),
    (dict(rope="ntk", rope_param={"factor": 2}), r'unknown rope type "ntk" \(accepted: default'),
    (dict(rope="linear", rope_param={"factor": "4"}),
     r"^rope_param\['factor'\] must be a number, True/False or a list of numbers \(got str"),
    (dict(rope="linear", rope_param={"factor": None}),
     r"^rope_param\['factor'\] must be a number"),
    (dict(rope="linear", rope_param={"factor": [[1, 2]]}),
     r"^rope_param\['factor'\] must be a number"),
    (dict(rope="linear", rope_param=4), r"^rope_param= takes a dict of rope parameters"),
    (dict(rope="linear", rope_param={4: 4}), r"^rope_param= names each parameter with a string"),
    (dict(rope="linear", rope_param={"factor": 0}), r"factor must be in "),
    (dict(rope="linear", rope_param={"factor": 2}, rope_params={"factor": 2}),
     r"^give either rope_param= or rope_params="),
    (dict(rope_param={"factor": 2}), r"^--rope-param needs --rope TYPE"),
    (dict(rope="dynamic", rope_param={"factor": 2, "max_position_embeddings": 4096},
          max_position_id=-1), r"max-position-id"),
])
def test_bad_scalings_are_one_line(kw, message):
    with pytest.raises(ValueError, match=message) as e:
        ropescope.freqs(plan="vanilla", **kw)
    assert "\n" not in str(e.value)


def test_a_scene_carries_the_scaling_and_round_trips(tmp_path):
    s = ropescope.scene("t4,i2x2", model="qwen2.5-vl-7b", rope="yarn", rope_param=YARN)
    rope = s["frequency"]["rope"]
    assert rope == {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768.0}
    path = tmp_path / "yarn.json"
    ropescope.save_scene(s, path)
    back = ropescope.load_scene(path)
    assert back["frequency"]["rope"] == rope
    f = ropescope.freqs(scene=str(path))
    assert f["per_axis"] == PER_AXIS and f.attention_factor == FACTOR
    with pytest.raises(ValueError,
                       match=r'frequency\.rope: rope type yarn has no parameter "ramp"'):
        ropescope.freqs(scene=dict(back, frequency=dict(back["frequency"],
                                                        rope=dict(rope, ramp=2))))


def test_layers_and_layer():
    """ropescope.layers() lists every layer as `ropescope layers --format json`; layer= picks one
    layer's rotary (Gemma 3: global layers θ 1e6 divided by 8, sliding ones θ 1e4 unscaled); a
    NoPE layer of Llama 4 is refused in one line, and so is a layer out of range."""
    stack = ropescope.layers("gemma-3-4b-it")
    assert len(stack["layers"]) == 34
    assert [l["index"] for l in stack["layers"] if l["type"] == "full_attention"] == [5, 11, 17, 23, 29]
    full = ropescope.freqs(model="gemma-3-4b-it", layer=5)
    np.testing.assert_allclose(full["theta"], 1e6 ** (-np.arange(128) / 128.0) / 8, rtol=1e-13)
    sliding = ropescope.freqs(model="gemma-3-4b-it", layer=4)
    np.testing.assert_allclose(sliding["theta"], 1e4 ** (-np.arange(128) / 128.0), rtol=1e-13)
    with pytest.warns(UserWarning, match="use_qk_norm = true") as said:
        llama = ropescope.layers("llama-4-scout-17b-16e")
    assert sum("use_qk_norm" in str(w.message) for w in said) == 1
    assert llama["layers"][3]["rotary"] is None
    assert llama["layers"][3]["temperature"] == {"floor_scale": 8192.0, "attn_scale": 0.1}
    with pytest.raises(ValueError, match="layer 3 of llama-4-scout-17b-16e has no rotary"):
        ropescope.decay(model="llama-4-scout-17b-16e", layer=3)
    with pytest.raises(ValueError, match=r"--layer expects a whole number in 0\.\.47"):
        ropescope.freqs(model="llama-4-scout-17b-16e", layer=48)


def test_attention_of_a_layer():
    """attention(model=, layer=) applies the layer's mask and position encoding: Llama 4's NoPE
    layer 3 with identical q and k has no position, so each row is uniform over its causal keys
    (the temperature is 1 below 8191 tokens); Gemma 3's sliding layer 0 lets a picture's tokens
    see each other. Llama 4's use_qk_norm, not modelled, warns once."""
    with pytest.warns(UserWarning, match="use_qk_norm = true") as said:
        a = ropescope.attention(layout="t9", model="llama-4-scout-17b-16e", layer=3,
                                softmax=True)
    assert sum("use_qk_norm" in str(w.message) for w in said) == 1
    for i in range(9):
        np.testing.assert_allclose(a[0, i, :i + 1], 1.0 / (i + 1), rtol=1e-5)
        assert (a[0, i, i + 1:] == 0).all()
    g = ropescope.attention(layout="t3,i2x2,t2", model="gemma-3-4b-it", layer=0, qk="random",
                            softmax=True)
    seen = g[0] > 0
    picture = np.zeros((9, 9), bool)
    picture[3:7, 3:7] = True
    np.testing.assert_array_equal(seen, np.tril(np.ones((9, 9), bool)) | picture)


def test_text_only_models_and_layer_type():
    """llama-3.1-8b's llama3 block: pairs whose wavelength is below 8192 / 4 kept, above
    8192 / 1 divided by 8 (the llama3 rule written out here); a rope block per layer type picks
    full_attention unless layer_type= names another, and refuses a name it does not have."""
    f = ropescope.freqs(model="llama-3.1-8b")
    assert f["rope"] == "llama3"
    unscaled = 500000.0 ** (-np.arange(64) / 64.0)
    wavelength = 2 * math.pi / unscaled
    np.testing.assert_allclose(f["theta_unscaled"], unscaled, rtol=1e-13)
    short, long = wavelength < 8192 / 4.0, wavelength > 8192 / 1.0
    np.testing.assert_allclose(f["theta"][short], unscaled[short], rtol=1e-13)
    np.testing.assert_allclose(f["theta"][long], unscaled[long] / 8, rtol=1e-13)
    ids = ropescope.ids(model="llama-3.1-8b", tokens={"input_ids": [[7, 8, 9]]})
    np.testing.assert_array_equal(ids, [[0, 0, 0], [1, 1, 1], [2, 2, 2]])

    full = ropescope.freqs(model="gemma-4-style-proportional")
    assert full["rope"] == "proportional" and len(full["theta"]) == 256
    assert np.all(full["theta"][64:] == 0) and np.all(full["theta"][:64] > 0)
    sliding = ropescope.freqs(model="gemma-4-style-proportional", layer_type="sliding_attention")
    np.testing.assert_allclose(sliding["theta"], 1e4 ** (-np.arange(256) / 256.0), rtol=1e-13)
    with pytest.raises(ValueError, match='layer type "global" has no block in rope_parameters '
                                         r'\(accepted: full_attention, sliding_attention\)'):
        ropescope.freqs(model="gemma-4-style-proportional", layer_type="global")
