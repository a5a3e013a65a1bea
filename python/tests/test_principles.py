"""ropescope.principles(): the design-principles verdicts with the command line's numbers, the
Revisiting rows without a layout, None (never 0) where a value is undefined, the plots; and the
discrimination bound and critical dimension that budget() reports per axis."""

import math

import pytest

import ropescope


def test_videorope_overlap_has_the_hand_worked_numbers():
    # tests/core/principles_test.cpp works these out: text token 32 has h 9 <= token 26's 10.
    p = ropescope.principles("t8,i4x6,t8", design="videorope", plan="videorope")
    assert isinstance(p, ropescope.Principles)
    row = p["rows"][0]
    assert row["coherence"]["verdict"] == "fail"
    o = row["coherence"]["overlap"]
    assert (o["text_token"], o["visual_token"], o["axis"]) == (32, 26, "h")
    assert row["coherence"]["smallest_interval"] == [1, -1, -2]
    t = {a["axis"]: a for a in row["frequency"]["axes"]}
    assert t["t"]["share"] == pytest.approx(15 / 63)
    assert t["h"]["share"] == pytest.approx(46 / 63)


def test_revisiting_rows_need_no_layout():
    p = ropescope.principles(designs="revisiting")
    v = p.verdicts
    assert list(v) == ["Vanilla RoPE", "MRoPE", "VideoRoPE", "HoPE", "CircleRoPE", "IL-RoPE",
                       "Omni-RoPE", "MRoPE-I", "MHRoPE"]
    assert v["MRoPE"] == ("pass", "fail", "pass")
    assert v["HoPE"] == ("fail", "fail", "fail")
    assert v["MRoPE-I"] == ("pass", "pass", "pass")


def test_text_only_reads_none_never_zero():
    row = ropescope.principles("t5", design="mrope")["rows"][0]
    assert row["coherence"]["verdict"] == "n/a"
    assert row["coherence"]["smallest_interval"] is None
    assert row["coherence"]["overlapping_text"] is None
    assert "no visual token" in row["coherence"]["reason"]


def test_bad_designs_is_one_line():
    with pytest.raises(ValueError, match="scene, all or revisiting"):
        ropescope.principles("t4", designs="some")


def test_plots_draw_the_verdicts_and_the_spectrum():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    p = ropescope.principles(designs="revisiting")
    ax = p.plot()
    assert len(ax.patches) == 9 * 3
    ax = p.plot_spectrum(row=3)  # HoPE: time does not rotate
    assert any("frequency 0" in t.get_text() for t in ax.texts)


def test_budget_reports_the_bound_and_the_critical_dimension():
    # Llama 2's rotary (base 1e4, 128 dims, 4096 trained): critical dimension 92
    # (arXiv 2310.05209); the bound is the first distance where sum cos(m theta_i) < 0.
    b = ropescope.budget("t100", design="hard", plan="vanilla", base=10000, trained_length=4096)
    t = b["axes"][0]
    assert t["critical_dimension"] == 92 and len(t["full_period_pairs"]) == 46
    thetas = [10000 ** (-2 * p / 128) for p in range(64)]
    m = t["discrimination_bound"]
    assert sum(math.cos(m * x) for x in thetas) < 0
    assert sum(math.cos((m - 1) * x) for x in thetas) >= 0
    assert t["within_bound"] is True
    h = b["axes"][1]
    assert h["discrimination_bound"] is None and h["critical_dimension"] is None
    assert h["critical_undefined"] == "the plan turns no pair with axis h"
