"""ropescope.attention_readouts(): the fading curve and the picture read-outs against a causal
softmax of attention()'s rows summed here, the uniform case of equal ids, n/a (never 0) without
a picture or without text after it, and bad input in one line."""

import numpy as np
import pytest

import ropescope

SCENE = dict(design="mrope", plan="mrope", head_dim=16)
LAYOUT = "t4,i3x3,t6"  # text 0..3, the picture 4..12 (3 x 3), text 13..18


def test_every_number_is_a_sum_of_the_softmax_rows():
    rng = np.random.default_rng(4)
    q = rng.standard_normal((2, 19, 16)).astype(np.float32)
    k = rng.standard_normal((2, 19, 16)).astype(np.float32)
    r = ropescope.attention_readouts(q, k, LAYOUT, **SCENE)
    assert isinstance(r, ropescope.AttentionReadouts)
    assert r["qk"] == "arrays" and r["heads"] == 2
    p = np.asarray(ropescope.attention(q, k, LAYOUT, causal=True, softmax=True, **SCENE),
                   dtype=np.float64)
    np.testing.assert_array_equal(r.fading_tokens, np.arange(13, 19))
    want = p[:, 13:, 4:13].sum(axis=2)  # [heads, text after the picture]
    np.testing.assert_allclose(r.fading_heads, want, atol=1e-6)
    np.testing.assert_allclose(r.fading, want.mean(axis=0), atol=1e-6)
    a = p[:, 13:, 4:13].mean(axis=(0, 1)).reshape(3, 3)  # A(row, col)
    pic = r.picture("picture 1")
    share = a / a.sum()
    assert pic["rows"] == 3 and pic["cols"] == 3 and pic["queries"] == 6
    assert pic["mass"] == pytest.approx(a.sum(), abs=1e-6)
    assert pic["top_left"] == pytest.approx(share[0, 0], abs=1e-6)
    assert pic["top_row"] == pytest.approx(share[0].sum(), abs=1e-6)
    assert pic["left_column"] == pytest.approx(share[:, 0].sum(), abs=1e-6)
    assert pic["border"] == pytest.approx(1 - share[1, 1], abs=1e-6)
    assert pic["centre_row"] == pytest.approx((share.sum(axis=1) @ np.arange(3)) / 2, abs=1e-6)
    assert pic["centre_col"] == pytest.approx((share.sum(axis=0) @ np.arange(3)) / 2, abs=1e-6)
    np.testing.assert_allclose(pic["row_share"], share.sum(axis=1), atol=1e-6)
    assert pic["row_slope"] == pytest.approx(np.polyfit(np.arange(3), share.sum(axis=1), 1)[0],
                                             abs=1e-6)
    assert pic["uniform"] == {"top_left": 1 / 9, "top_row": 1 / 3, "left_column": 1 / 3,
                              "border": 8 / 9}


def test_equal_ids_give_uniform_weights(tmp_path):
    zeros = tmp_path / "zeros.npy"
    np.save(zeros, np.zeros((19, 3)))
    r = ropescope.attention_readouts(layout=LAYOUT, design="ids-file", ids=str(zeros), heads=2)
    np.testing.assert_allclose(r.fading, 9 / (np.arange(13, 19) + 1), atol=1e-6)
    pic = r.picture(0)
    assert pic["top_left"] == pytest.approx(1 / 9, abs=1e-6)
    assert pic["centre_row"] == pytest.approx(0.5, abs=1e-6)
    assert pic["row_slope"] == pytest.approx(0.0, abs=1e-6)


def test_undefined_values_are_none_with_a_reason():
    r = ropescope.attention_readouts(layout="t8")
    assert r.fading is None and r.fading_heads is None
    assert r["fading"]["undefined"] == "the layout has no picture or video"
    assert r["pictures"] == [] and r["pictures_undefined"] == "the layout has no picture or video"
    r = ropescope.attention_readouts(layout="t4,i2x2")
    assert r["fading"]["undefined"] == "no text token follows the last picture"
    pic = r.picture(0)
    assert pic["undefined"] == "no text token follows it"
    assert pic["top_left"] is None and pic["mass"] is None and pic["row_share"] is None


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="qk must be"):
        ropescope.attention_readouts(layout=LAYOUT, qk="zeros")
    with pytest.raises(ValueError, match="heads"):
        ropescope.attention_readouts(layout=LAYOUT, heads=0)
    with pytest.raises(ValueError):
        ropescope.attention_readouts(layout=LAYOUT, rows=(0, 2))


def test_plot_draws_the_fading_curve_and_shows_n_a():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    r = ropescope.attention_readouts(layout=LAYOUT, qk="random", heads=2)
    try:
        ax = r.plot()
        line = ax.get_lines()[0]
        np.testing.assert_allclose(line.get_xdata(), np.arange(1, 7))
        np.testing.assert_allclose(line.get_ydata(), r.fading)
        assert r._repr_png_() is not None
        assert "visual_share" in r._repr_html_()
        empty = ropescope.attention_readouts(layout="t8")
        ax = empty.plot()
        assert ax.get_lines() == [] and "n/a" in ax.get_title()
        assert "n/a" in empty._repr_html_()
    finally:
        plt.close("all")
