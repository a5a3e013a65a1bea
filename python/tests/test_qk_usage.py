"""ropescope.qk_usage(): the pair norms against numpy, post-RoPE q/k giving the same norms, the
sinks against a causal softmax of attention()'s logits, n/a (never 0) without a picture, bad
input in one line, and the plots."""

import numpy as np
import pytest

import ropescope

SCENE = dict(design="mrope", plan="mrope", head_dim=8)


def random_qk(heads, kv_heads, n=10, d=8, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((heads, n, d)).astype(np.float32),
            rng.standard_normal((kv_heads, n, d)).astype(np.float32))


def pair_norms(x, pairs):
    """[heads, pairs]: mean over tokens of the norm of dims (p, p + pairs) (NeoX)."""
    x = x.astype(np.float64)
    return np.hypot(x[..., :pairs], x[..., pairs:2 * pairs]).mean(axis=1)


def test_norms_match_numpy_and_grouped_heads():
    q, k = random_qk(4, 2, seed=1)
    u = ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    assert isinstance(u, ropescope.QkUsage)
    assert u["q_heads"] == 4 and u["kv_heads"] == 2 and u["tokens"] == 10
    qn, kn = pair_norms(q, 4), pair_norms(k, 4)[[0, 0, 1, 1]]  # q head h reads k head h // 2
    np.testing.assert_allclose(u.head_norm_product, qn * kn, rtol=1e-12)
    np.testing.assert_allclose(u.norm_product, (qn * kn).mean(axis=0), rtol=1e-12)
    shares = np.array([p["share"] for p in u["pairs"]])
    np.testing.assert_allclose(shares.sum(), 1.0, rtol=1e-12)
    freqs = ropescope.freqs(plan="mrope", head_dim=8)
    np.testing.assert_allclose(u.theta, freqs["theta"])
    assert u.axis == list(freqs["axis"])


def test_rotated_q_and_k_give_the_same_norms():
    q, k = random_qk(2, 2, seed=2)
    t = ropescope.rotary("t3,i2x2,t3", q=q, k=k, **SCENE)
    a = ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    b = ropescope.qk_usage(t["q_embed"], t["k_embed"], "t3,i2x2,t3", **SCENE)
    np.testing.assert_allclose(b.head_norm_product, a.head_norm_product, rtol=1e-5)


def test_sinks_are_the_causal_softmax_of_attention():
    q, k = random_qk(2, 2, seed=3)
    u = ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    assert u.sink_names == ["first token", "picture 1"]
    assert [t["token"] for t in u["sinks"]["targets"]] == [0, 3]
    logits = np.asarray(ropescope.attention(q, k, "t3,i2x2,t3", **SCENE), dtype=np.float64)
    n = logits.shape[-1]
    logits[:, np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] = -np.inf
    p = np.exp(logits - logits.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    want = np.stack([p[:, c:, c].mean(axis=1) for c in (0, 3)], axis=1)
    np.testing.assert_allclose(u.sink, want, atol=1e-6)
    np.testing.assert_allclose(u["sinks"]["mean"], want.mean(axis=0), atol=1e-6)


def test_without_a_picture_the_picture_sinks_are_not_available():
    q, k = random_qk(1, 1, n=6, seed=4)
    u = ropescope.qk_usage(q[0], k[0], "t6", **SCENE)
    assert u.sink_names == ["first token"]
    assert u["sinks"]["pictures_undefined"] == "the layout has no picture or video"
    assert "pictures n/a" in u._caption()


def test_bad_input_names_the_problem():
    q, k = random_qk(1, 1, n=9, seed=5)
    with pytest.raises(ValueError, match="q has 9 tokens .* but the layout has 10"):
        ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    q, k = random_qk(3, 2, seed=5)
    with pytest.raises(ValueError, match="q has 3 heads, not a multiple of the 2 heads of k"):
        ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    q, k = random_qk(1, 1, d=6, seed=5)
    with pytest.raises(ValueError, match="head dim 6 .* the plan's head dim is 8"):
        ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
    with pytest.raises(ValueError, match="q must be an array of numbers"):
        ropescope.qk_usage("q.npy", k, "t3,i2x2,t3", **SCENE)


def test_plots_draw_the_pairs_and_the_sinks():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    try:
        q, k = random_qk(2, 2, seed=6)
        u = ropescope.qk_usage(q, k, "t3,i2x2,t3", **SCENE)
        ax = u.plot()
        heights = sorted((patch.get_x() + patch.get_width() / 2, patch.get_height())
                         for patch in ax.patches)
        np.testing.assert_allclose([h for _, h in heights], u.norm_product)
        ax = u.plot_sinks()
        bars = [patch.get_height() for patch in ax.patches]
        np.testing.assert_allclose(sorted(bars), sorted(u.sink.ravel()))
        assert u._repr_png_() is not None
    finally:
        plt.close("all")
