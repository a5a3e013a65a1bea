"""ropescope.budget(): the id budget with the command line's numbers, None (never 0) where the
trained length is unknown, the model's trained length, and the plot of tokens against the
largest id per axis with the trained length."""

import numpy as np
import pytest

import ropescope


def test_budget_has_the_hand_worked_numbers():
    b = ropescope.budget("t3,i4x6,t2", design="mrope", trained_length=16)
    assert isinstance(b, ropescope.IdBudget)
    assert b["tokens"] == 29 and b["largest_id"] == 10 and b["rope_deltas"] == -18
    assert b.trained_length == 16
    assert b.yarn_factor == pytest.approx(11 / 16)
    assert b["yarn"]["factor_from_tokens"] == pytest.approx(29 / 16)
    c = b["curve"]
    assert c["tokens"].dtype == np.int64 and len(c["tokens"]) == 29
    assert c["max_w"][26] == 8 and c["max_h"][26] == 6 and c["max_t"][26] == 3


def test_points_decimate_the_curve():
    c = ropescope.budget("t3,i4x6,t2", design="mrope", points=5)["curve"]
    np.testing.assert_array_equal(c["tokens"], [1, 8, 15, 22, 29])
    np.testing.assert_array_equal(c["largest_id"], [0, 7, 8, 8, 10])


def test_without_a_trained_length_the_ratios_are_none():
    b = ropescope.budget("t3,i4x6,t2", design="mrope")
    assert b.trained_length is None and b.yarn_factor is None
    assert all(a["ratio"] is None and a["share_outside"] is None for a in b["axes"])
    assert "no trained length" in b["trained_length"]["undefined"]
    assert "n/a" in b._caption()


def test_the_model_gives_the_trained_length():
    b = ropescope.budget("qwen3-vl:v40x16x16/ts6", model="qwen3-vl-8b")
    assert b.trained_length == 262144
    assert b["largest_id"] == 40 * 24 - 1
    assert b.yarn_factor < b["yarn"]["factor_from_tokens"]


def test_a_processor_output_takes_the_models_trained_length():
    # Qwen3-VL: text, vision start, an 8 x 8 patch image (4 x 4 tokens after the merge), end.
    ids = [1, 2, 151652] + [151655] * 16 + [151653, 3]
    b = ropescope.budget(model="qwen3-vl-8b",
                         tokens={"input_ids": [ids], "image_grid_thw": [[1, 8, 8]]})
    assert b.trained_length == 262144
    assert b["tokens"] == 21 and b["largest_id"] == 8 and b["rope_deltas"] == -12


def test_bad_input_is_one_line():
    with pytest.raises(ValueError, match="--points expects a whole number in 2..1048576"):
        ropescope.budget("t4", points=1)
    with pytest.raises(ValueError, match="--trained-length"):
        ropescope.budget("t4", trained_length=0)


def test_budget_plots_the_largest_ids_and_the_trained_length():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    try:
        b = ropescope.budget("t3,i4x6,t2", design="mrope", trained_length=16)
        ax = b.plot()
        lines = {line.get_label(): line for line in ax.get_lines()}
        assert {"largest t id", "largest h id", "largest w id", "trained length",
                "one id per token"} <= set(lines)
        np.testing.assert_array_equal(lines["largest w id"].get_ydata(), b["curve"]["max_w"])
        assert list(lines["trained length"].get_ydata()) == [16, 16]
    finally:
        plt.close("all")
