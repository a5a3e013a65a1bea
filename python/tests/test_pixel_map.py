"""ropescope.pixel_map(): the token -> pixel map against a direct computation from the
processors' rules, on pictures of many sizes (odd sizes, extreme aspect ratios, one tile, many
tiles): InternVL's tile choice and tile/thumbnail rectangles, and Qwen grid rectangles."""

import pytest

import ropescope


def internvl_grid(w, h, lo=1, hi=12, size=448):
    """The tile grid as InternVL's dynamic_preprocess chooses it: the candidates as a Python set
    sorted by tile count, the closest aspect ratio, ties to the later grid when the picture is
    larger than half the grid's area."""
    grids = sorted({(i, j) for n in range(lo, hi + 1) for i in range(1, n + 1)
                    for j in range(1, n + 1) if lo <= i * j <= hi}, key=lambda g: g[0] * g[1])
    best, best_diff = (1, 1), float("inf")
    for i, j in grids:
        diff = abs(w / h - i / j)
        if diff < best_diff:
            best, best_diff = (i, j), diff
        elif diff == best_diff and w * h > 0.5 * size * size * i * j:
            best = (i, j)
    return best


def expected_tiled(w, h, lo=1, hi=12):
    """Every token's rectangle: tiles row-major, 16 x 16 tokens of 28 px each, then the
    thumbnail; mapped back from the resized picture to w x h."""
    cols, rows = internvl_grid(w, h, lo, hi)
    out = []
    for t in range(cols * rows):
        left, top = (t % cols) * 448, (t // cols) * 448
        for r in range(16):
            for c in range(16):
                sx, sy = w / (cols * 448), h / (rows * 448)
                out.append((t, False, (left + 28 * c) * sx, (top + 28 * r) * sy,
                            (left + 28 * (c + 1)) * sx, (top + 28 * (r + 1)) * sy))
    if cols * rows > 1:
        for r in range(16):
            for c in range(16):
                sx, sy = w / 448, h / 448
                out.append((cols * rows, True, 28 * c * sx, 28 * r * sy, 28 * (c + 1) * sx,
                            28 * (r + 1) * sy))
    return out


SIZES = [(1, 1), (448, 448), (449, 447), (896, 896), (1920, 1080), (1080, 1920), (333, 7777),
         (7777, 333), (100, 3000), (3001, 99), (641, 479), (4096, 2160), (1, 5000)]


@pytest.mark.parametrize("w,h", SIZES)
def test_tiled_rectangles_match_the_processor_rule(w, h):
    m = ropescope.pixel_map(f"t2,tiled:{w}x{h},t1")
    want = expected_tiled(w, h)
    assert m["count"] == len(want)
    for k, (cell, (tile, thumb, x0, y0, x1, y1)) in enumerate(zip(m["cells"], want)):
        assert cell["token"] == 2 + k
        assert cell["tile"] == tile and cell["thumbnail"] == thumb
        assert (cell["width"], cell["height"]) == (w, h)
        assert cell["x0"] == pytest.approx(x0) and cell["x1"] == pytest.approx(x1)
        assert cell["y0"] == pytest.approx(y0) and cell["y1"] == pytest.approx(y1)


@pytest.mark.parametrize("lo,hi", [(1, 1), (1, 6), (2, 9), (4, 4), (1, 40)])
def test_tile_ranges(lo, hi):
    for w, h in SIZES:
        cols, rows = internvl_grid(w, h, lo, hi)
        m = ropescope.pixel_map(f"tiled:{w}x{h}/{lo}-{hi}")
        tiles = cols * rows + (1 if cols * rows > 1 else 0)
        assert m["count"] == 256 * tiles, (w, h, lo, hi)


@pytest.mark.parametrize("rows,cols,preset,factor", [(1, 1, "qwen2.5-vl", 28),
                                                      (3, 5, "qwen2.5-vl", 28),
                                                      (7, 2, "qwen3-vl", 32)])
def test_grid_rectangles_are_factor_squares(rows, cols, preset, factor):
    m = ropescope.pixel_map(f"t1,i{rows}x{cols}", grid_preset=preset)
    assert m["count"] == rows * cols
    for k, cell in enumerate(m["cells"]):
        r, c = divmod(k, cols)
        assert cell["tile"] is None and not cell["thumbnail"]
        assert (cell["row"], cell["col"]) == (r, c)
        assert (cell["x0"], cell["y0"], cell["x1"], cell["y1"]) == \
            (c * factor, r * factor, (c + 1) * factor, (r + 1) * factor)
        assert (cell["width"], cell["height"]) == (cols * factor, rows * factor)


def test_video_frames_pair_by_temporal_patch_size():
    m = ropescope.pixel_map("v3x1x2")
    assert [(c["first_frame"], c["last_frame"]) for c in m["cells"]] == \
        [(0, 1), (0, 1), (2, 3), (2, 3), (4, 5), (4, 5)]
    m = ropescope.pixel_map("v3x1x1", temporal_patch_size=3)
    assert [c["last_frame"] for c in m["cells"]] == [2, 5, 8]
    with pytest.raises(ValueError, match="temporal-patch-size"):
        ropescope.pixel_map("v3x1x1", temporal_patch_size=0)
