"""Results that show themselves: the arrays behind each figure, the figures drawn from them
(matplotlib, checked through the Axes' artists, not pixels), the Jupyter representations, and
all of it without matplotlib."""

import json
import os
import sys

import numpy as np
import pytest

import ropescope
import reference as ref

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_decay_is_still_the_array_and_plots_it():
    u = ropescope.decay(plan="vanilla", base=1e4, head_dim=128, max_distance=200)
    want = ref.decay_bound(ref.theta(1e4, 128), range(201))
    np.testing.assert_allclose(u, want, rtol=1e-10)
    # Slices and arithmetic are plain arrays (the fields describe the whole curve only).
    assert type(u[3:5]) is np.ndarray and type(u * 2) is np.ndarray
    assert type(np.asarray(u)) is np.ndarray and u.shape == (201,)
    np.testing.assert_array_equal(u.distance, np.arange(201))
    ax = u.plot()
    (line,) = ax.get_lines()
    np.testing.assert_array_equal(line.get_ydata(), np.asarray(u))
    np.testing.assert_array_equal(line.get_xdata(), np.arange(201))
    assert line.get_label() == "along t = h = w (text)"
    assert ax.get_xlabel() == "relative distance \u03b4 (positions)"
    assert ropescope.decay(plan="mrope", axis="h", max_distance=3).label == "along h"
    # The given Axes is drawn on and returned.
    fig, mine = plt.subplots()
    assert ropescope.decay(plan="vanilla", max_distance=4).plot(ax=mine) is mine
    assert len(mine.get_lines()) == 1


def test_decay_axes_are_the_three_decay_curves():
    d = ropescope.decay_axes(plan="mrope", base=1e6, sections=(16, 24, 24), max_distance=64)
    for a in "thw":
        np.testing.assert_array_equal(d[a], ropescope.decay(plan="mrope", base=1e6, axis=a,
                                                            sections=(16, 24, 24),
                                                            max_distance=64))
    assert not np.allclose(d.t, d.w)  # M-RoPE: each axis has its own pairs
    lines = d.plot().get_lines()
    assert [l.get_label() for l in lines] == ["along t", "along h", "along w"]
    np.testing.assert_array_equal(lines[1].get_ydata(), d.h)
    with pytest.raises(ValueError, match=r"^decay_axes draws t, h and w: leave out axis="):
        ropescope.decay_axes(axis="t")
    with pytest.raises(KeyError):
        d["x"]


def test_freqs_plot_the_wavelength_of_every_pair():
    f = ropescope.freqs(plan="mrope", base=1e6, head_dim=128)
    assert isinstance(f, dict) and f.units["wavelength"] == "positions"
    ax = f.plot()
    assert ax.get_yscale() == "log"
    points = {c.get_label(): c.get_offsets() for c in ax.collections}
    assert sorted(points) == ["axis h", "axis t", "axis w"]
    assert len(points["axis t"]) == 16 and len(points["axis h"]) == 24
    np.testing.assert_allclose(points["axis t"][:, 1], f["wavelength"][:16])


def test_compare_gives_every_design_with_the_app_bars():
    c = ropescope.compare("i3x3,t5", design="circle")
    names = c.design
    assert {"hard", "mrope", "circle"} <= set(names) and len(c.ptd) == len(names)
    # Each design with its defaults; circle (the scene's) with the scene's parameters.
    assert c.ptd[names.index("hard")] == pytest.approx(20 / 9, abs=1e-12)
    assert c.ptd[names.index("circle")] == pytest.approx(0, abs=1e-9)
    assert c.current.tolist() == [n == "circle" for n in names]
    assert c.bias_spread[names.index("hard")] == pytest.approx(
        ropescope.bias_spread("i3x3,t5", design="hard"), rel=1e-12)
    ax = c.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "\u25b8 circle" in labels and "hard" in labels
    widths = [b.get_width() for b in ax.patches]
    assert max(widths) == pytest.approx(np.nanmax(c.ptd))
    with pytest.raises(ValueError, match=r'^metric must be "ptd" or "bias_spread"'):
        c.plot(metric="PTD")
    with pytest.raises(ValueError, match=r"^compare measures text -> visual"):
        ropescope.compare("t2,i2x2", from_="audio")


def test_undefined_values_are_nan_never_zero():
    c = ropescope.compare("t3", design="hard")  # no visual token: PTD is undefined
    assert np.isnan(c.ptd).all() and c.undefined["ptd"]
    ax = c.plot()
    assert not any(b.get_visible() for b in ax.patches)
    assert ax.get_title().startswith("PTD of every design: n/a (")
    html = c._repr_html_()
    assert "n/a" in html and "0.0," not in html


def test_profile_is_the_distance_and_bias_to_every_visual_token():
    base, d = 1e4, 32
    p = ropescope.profile("t3,i2x2,t2", text=1, design="hard", plan="vanilla", base=base,
                          head_dim=d)
    # Hard ids: text token 1 at position 1, the visual tokens at 3..6.
    delta = 1 - np.arange(3, 7)
    np.testing.assert_allclose(p.distance, np.abs(delta), rtol=0, atol=0)
    np.testing.assert_allclose(p.bias, np.cos(delta[:, None] * ref.theta(base, d)).mean(axis=1),
                               rtol=1e-12)
    assert p.visual.tolist() == [3, 4, 5, 6] and p.token == 1
    ax = p.plot()
    np.testing.assert_array_equal(ax.get_lines()[0].get_ydata(), p.distance)
    with pytest.raises(ValueError, match=r"^text must be 0\.\.4 \(got 5\)"):
        ropescope.profile("t3,i2x2,t2", text=5)
    with pytest.raises(ValueError, match=r"^the layout has no text token to profile"):
        ropescope.profile("i2x2")


def test_a_scene_draws_its_ids_in_3d():
    s = ropescope.scene("t2,i2x3,t1", design="mrope")
    assert isinstance(s, dict) and json.loads(json.dumps(s)) == s
    ax = s.plot()
    assert ax.name == "3d"
    points = {c.get_label(): c._offsets3d for c in ax.collections}
    assert sorted(points) == ["image", "text"]
    ids = ropescope.ids(scene=s)
    t, h, w = (np.asarray(v) for v in points["image"])
    np.testing.assert_array_equal(np.c_[t, h, w], ids[2:8])


def test_jupyter_representations():
    u = ropescope.decay(plan="vanilla", max_distance=8)
    png = u._repr_png_()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    html = u._repr_html_()
    assert "positions" in html and "data:image/png;base64," in html and "32.5" in html


def test_without_matplotlib_the_numbers_work_and_plot_says_what_to_install(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    u = ropescope.decay(plan="vanilla", max_distance=4)
    assert u[0] == 32.5 and u.shape == (5,)
    with pytest.raises(ImportError, match=r"^plot\(\) needs matplotlib: install "
                                          r"python3-matplotlib \(Debian\) or `pip install "
                                          r"matplotlib`"):
        u.plot()
    assert u._repr_png_() is None
    html = ropescope.compare("t2,i2x2")._repr_html_()
    assert "needs matplotlib" in html and "<img" not in html
    with pytest.raises(ImportError, match=r"^plot\(\) needs matplotlib"):
        ropescope.scene("t2,i2x2").plot()


def test_model_takes_a_config_object_or_dict():
    with open(os.path.join(ref.SOURCE, "resources", "models", "qwen2.5-vl-7b", "config.json"),
              encoding="utf-8") as f:
        config = json.load(f)
    want = ropescope.ids("t2,i2x3", model="qwen2.5-vl-7b")
    np.testing.assert_array_equal(ropescope.ids("t2,i2x3", model=config), want)

    class Config:  # what transformers' PretrainedConfig offers
        _name_or_path = "Qwen/Qwen2.5-VL-7B-Instruct"

        def to_json_string(self, use_diff=True):
            return json.dumps(config)

    np.testing.assert_array_equal(ropescope.ids("t2,i2x3", model=Config()), want)
    assert ropescope.scene("t2", model=Config())["model"].endswith("Qwen2.5-VL-7B-Instruct")
    with pytest.raises(ValueError, match=r"^model= takes a shipped model's name"):
        ropescope.ids("t2", model=3)
