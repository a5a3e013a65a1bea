"""The Python module against the golden vectors and closed forms (python/tests/reference.py).
Run on the build tree (PYTHONPATH=build/python) and on an installed tree (tests/install)."""

import io
import json
import os
import zipfile
import threading

import numpy as np
import pytest

import ropescope
import reference as ref

CASTLE = os.path.join(ref.SOURCE, "resources", "samples", "castle.png")


@pytest.mark.parametrize("case, spec", [("A", "t3,i4x6,t2"), ("A2", "t3,i2x3,t2")])
@pytest.mark.parametrize("label, design, params", [
    ("vanilla 1D RoPE", "hard", {}),
    ("MRoPE Qwen2-VL (t=k)", "mrope", {"fps": 2, "tokens_per_second": 1}),
    ("spatial-reset (MRoPE-I & MHRoPE design, stride 1)", "mrope-reset", {"temporal_stride": 1}),
    ("VideoRoPE (delta=2)", "videorope", {}),
])
def test_ids_match_the_golden_vectors(case, spec, label, design, params):
    got = ropescope.ids(spec, design=design, **params)
    assert got.dtype == np.float64 and got.shape[1] == 3
    np.testing.assert_array_equal(got, ref.golden_ids(case, label))


def test_ids_match_the_qwen2vl_rule():
    got = ropescope.ids("t3,i4x6,t2,i2x2,t1", design="mrope")
    want = ref.qwen2vl_ids([("t", 3), ("i", 4, 6), ("t", 2), ("i", 2, 2), ("t", 1)])
    np.testing.assert_array_equal(got, want)


def test_ids_are_not_copied_out():
    a = ropescope.ids("t5,i30x30", design="mrope")
    assert not a.flags.owndata and a.base is not None and a.flags.c_contiguous


def test_ptd_of_hard_ids_is_the_mean_absolute_deviation():
    # Circle-RoPE's example: a 3x3 image then 5 text tokens, hard (1-D) ids: PTD = 20/9.
    assert ropescope.ptd("i3x3,t5", design="hard") == pytest.approx(20 / 9, abs=1e-12)
    # Text on both sides: distances |t_text - t_visual| on the 1-D index.
    pos = np.arange(4 + 9 + 4)
    text, vis = np.r_[pos[:4], pos[13:]], pos[4:13]
    want = ref.mean_abs_dev_rows(np.abs(text[:, None] - vis[None, :]).astype(float))
    assert ropescope.ptd("t4,i3x3,t4", design="hard") == pytest.approx(want, rel=1e-12)


def test_ptd_and_bias_between_other_groups():
    # from_= (Python's way to write the keyword from) and to= pick the groups, as --from/--to.
    # Hard ids of t2,a6,i2x2: text 0, 1; audio 2..7; image 8..11; numpy works out both pairs.
    pos = np.arange(12).astype(float)
    text, audio, image = pos[:2], pos[2:8], pos[8:]
    want = ref.mean_abs_dev_rows(np.abs(text[:, None] - audio[None, :]))
    assert ropescope.ptd("t2,a6,i2x2", design="hard", from_="text", to="audio") == pytest.approx(
        want, rel=1e-12)
    want = ref.mean_abs_dev_rows(np.abs(audio[:, None] - image[None, :]))
    assert ropescope.ptd("t2,a6,i2x2", design="hard", from_="audio", to="image") == pytest.approx(
        want, rel=1e-12)
    # The default stays text -> visual: the audio tokens are not visual.
    want = ref.mean_abs_dev_rows(np.abs(text[:, None] - image[None, :]))
    assert ropescope.ptd("t2,a6,i2x2", design="hard") == pytest.approx(want, rel=1e-12)
    with pytest.raises(ValueError, match="share tokens"):
        ropescope.bias_spread("t2,a6,i2x2", from_="image", to="visual")


def test_circle_ptd_is_zero():
    # The cone puts every visual token at the same distance from each text token.
    assert ropescope.ptd("t4,i6x6,t8", design="circle", dff=0) == pytest.approx(0, abs=1e-9)


def test_bias_spread_of_vanilla_rope():
    base, d = 1e4, 32
    th = ref.theta(base, d)
    pos = np.arange(3 + 4 + 2)
    text, vis = np.r_[pos[:3], pos[7:]], pos[3:7]
    delta = text[:, None] - vis[None, :]
    b = np.cos(delta[..., None] * th).mean(axis=2)
    got = ropescope.bias_spread("t3,i2x2,t2", design="hard", plan="vanilla", base=base,
                                head_dim=d)
    assert got == pytest.approx(ref.mean_abs_dev_rows(b), rel=1e-9)


def test_decay_matches_roformer_and_the_golden_row():
    distances, want = ref.golden_decay("base=10000 ")
    u = ropescope.decay(plan="vanilla", base=1e4, head_dim=128, max_distance=200)
    assert u.shape == (201,)
    np.testing.assert_allclose(u[distances], want, rtol=1e-11)
    np.testing.assert_allclose(u, ref.decay_bound(ref.theta(1e4, 128), range(201)), rtol=1e-10)


def test_decay_along_one_axis_matches_the_golden_row():
    distances, want = ref.golden_decay("MRoPE [16,24,24] chunked H ")
    u = ropescope.decay(plan="mrope", base=1e4, axis="h", sections=(16, 24, 24),
                        max_distance=200)
    np.testing.assert_allclose(u[distances], want, rtol=1e-11)


def test_freqs():
    f = ropescope.freqs(plan="mrope", base=1e6, head_dim=128)
    np.testing.assert_allclose(f["theta"], ref.theta(1e6, 128), rtol=1e-15)
    np.testing.assert_allclose(f["wavelength"], 2 * np.pi / ref.theta(1e6, 128), rtol=1e-15)
    assert f["axis"][:16] == ["t"] * 16 and f["axis"][16:40] == ["h"] * 24
    np.testing.assert_array_equal(f["dims"][:, 1] - f["dims"][:, 0], 64)  # NeoX: p, p + 64
    # Pairs whose wavelength fits the context, as the CLI counts them.
    assert f["full_turn_pairs"] == int(np.sum(f["wavelength"] <= f["context_length"]))
    assert 0 < f["full_turn_pairs"] < 64


def test_grid_is_smart_resize():
    (g,) = ropescope.grid(CASTLE)
    h, w = g["height"], g["width"]
    rows, cols = round(h / 28), round(w / 28)  # within min/max pixels: round to the factor
    assert g["grid"] == (rows, cols) and g["tokens"] == rows * cols
    assert g["resized"] == (rows * 28, cols * 28)


def test_grid_reads_a_shipped_sample_by_name(tmp_path, monkeypatch):
    # Away from the samples folder: the name alone finds the sample, as `ropescope grid` does.
    monkeypatch.chdir(tmp_path)
    (g,) = ropescope.grid("castle.png")
    (direct,) = ropescope.grid(CASTLE)
    assert g["grid"] == direct["grid"] and g["tokens"] == direct["tokens"] == 99
    with pytest.raises(ValueError, match="nowhere.png"):
        ropescope.grid("nowhere.png")


def test_attention_of_identical_qk_is_the_positional_bias():
    base, d, n = 1e4, 16, 6
    logits = ropescope.attention(layout=f"t{n}", design="hard", plan="vanilla", base=base,
                                 head_dim=d)
    assert logits.shape == (1, n, n) and logits.dtype == np.float32
    delta = np.arange(n)[:, None] - np.arange(n)[None, :]
    bias = np.cos(delta[..., None] * ref.theta(base, d)).mean(axis=2)
    np.testing.assert_allclose(logits[0] * np.sqrt(d), bias, atol=1e-5)


def test_attention_on_numpy_qk_matches_hugging_face_rotate_half():
    rng = np.random.default_rng(7)
    base, d, n = 1e4, 16, 9
    q = rng.standard_normal((2, n, d)).astype(np.float32)
    k = rng.standard_normal((1, n, d)).astype(np.float32)
    ids = ropescope.ids(f"t{n}", design="hard")
    angles = ids[:, :1] * ref.theta(base, d)[None, :]
    kr = ref.rotate_neox(k[0].astype(float), angles)
    got = ropescope.attention(q, k, layout=f"t{n}", design="hard", plan="vanilla", base=base,
                              head_dim=d, causal=True, softmax=True)
    for h in range(2):
        logits = ref.rotate_neox(q[h].astype(float), angles) @ kr.T / np.sqrt(d)
        logits[np.triu_indices(n, 1)] = -np.inf
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        np.testing.assert_allclose(got[h], p / p.sum(axis=1, keepdims=True), atol=1e-5)
    rows = ropescope.attention(q, k, layout=f"t{n}", design="hard", plan="vanilla",
                               base=base, head_dim=d, rows=(2, 5))
    assert rows.shape == (2, 3, n)


def test_attention_refuses_a_wrong_shape():
    with pytest.raises(ValueError, match=r"^q has head dim 8 .* the plan's head dim is 16"):
        ropescope.attention(np.zeros((3, 8)), np.zeros((3, 8)), layout="t3", head_dim=16)


def test_attention_refuses_logits_past_float32():
    # q . k / sqrt(d) over 3.4e38 is infinite: a ValueError naming the head, not an array of NaN.
    q = np.ones((2, 4, 8), dtype=np.float32)
    q[1] *= 1e20
    for kw in (dict(), dict(softmax=True), dict(pool=2)):
        with pytest.raises(ValueError, match=r"^the logits of head 1 overflow float32"):
            ropescope.attention(q, q, layout="t4", design="hard", plan="vanilla", head_dim=8, **kw)
    assert np.isfinite(ropescope.attention(q[:1], q[:1], layout="t4", design="hard",
                                           plan="vanilla", head_dim=8)).all()


def test_attention_arguments_are_checked_in_one_line():
    # A result the module could not hold, switches given as words, negative or oversized whole
    # numbers: ValueError naming the argument, never MemoryError or pybind's TypeError.
    for kw, msg in [(dict(layout="t200000", head_dim=2), r"at most 2\^30"),
                    (dict(layout="t4", softmax="no"), r"^softmax must be true or false"),
                    (dict(layout="t4", causal="yes"), r"^causal must be true or false"),
                    (dict(layout="t4", pool=-1), r"^pool must be a whole number"),
                    (dict(layout="t4", heads=2**40), r"^heads must be 1\.\.256"),
                    (dict(layout="t4", seed=-1), r"^seed must be a whole number"),
                    (dict(layout="t4", threads=-5), r"^threads must be a whole number"),
                    (dict(layout="t4", rows=(1, 2, 3)), r"^rows must be a pair")]:
        with pytest.raises(ValueError, match=msg):
            ropescope.attention(**kw)
    # Slices read as Python reads them over the layout's tokens: open and negative ends.
    full = ropescope.attention(layout="t8", design="hard", plan="vanilla", head_dim=8)
    part = ropescope.attention(layout="t8", design="hard", plan="vanilla", head_dim=8,
                               rows=slice(-3, None))
    assert part.shape == (1, 3, 8)
    np.testing.assert_allclose(part, full[:, 5:, :], atol=1e-6)
    assert ropescope.attention(layout="t8", softmax="true").sum(axis=-1) == pytest.approx(1, abs=1e-6)


def test_other_bad_arguments_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match=r"^unknown keyword head_dimension= for decay \(accepted: "):
        ropescope.decay(head_dimension=64)
    # The command line's own options are refused, not ignored: help=True computed the default
    # scene, out= wrote nothing; the accepted list does not offer them.
    for call, key in [(lambda: ropescope.ptd("t2,i2x2", design="hard", help=True), "help"),
                      (lambda: ropescope.decay(max_distance=2, out=str(tmp_path / "x.json")), "out"),
                      (lambda: ropescope.ids("t2,i2x2", format="csv"), "format")]:
        with pytest.raises(ValueError, match=rf"^{key}= is an option of the command line only"):
            call()
    assert not (tmp_path / "x.json").exists()
    with pytest.raises(ValueError) as listed:
        ropescope.decay(head_dimension=64)
    assert not {"out", "format", "help"} & {k.strip() for k in
                                            str(listed.value).split("accepted: ")[1][:-1].split(",")}
    with pytest.raises(ValueError, match=r"^q is complex"):
        ropescope.attention(np.ones((3, 8), complex), np.ones((3, 8)), layout="t3", head_dim=8)
    with pytest.raises(ValueError, match=r"is a folder"):
        ropescope.load_scene(tmp_path)
    with pytest.raises(ValueError, match=r"^tokens file .*none.json\" does not exist"):
        ropescope.ids(model="qwen2.5-vl-7b", tokens=tmp_path / "none.json")
    inputs = {"input_ids": np.array([INPUT_IDS]), "attention_mask": np.array([MASK]),
              "image_grid_thw": np.array([[1, 4, 6]], dtype=float)}
    with pytest.raises(ValueError, match=r"^tokens: a value is not finite"):
        ropescope.ids(model="qwen2.5-vl-7b", tokens=dict(inputs, image_grid_thw=[[1, 4, np.nan]]))
    # A bool attention mask is the 0/1 mask it stands for.
    as_bool = dict(inputs, attention_mask=np.array([MASK], dtype=bool))
    np.testing.assert_array_equal(ropescope.ids(model="qwen2.5-vl-7b", tokens=as_bool),
                                  ropescope.ids(model="qwen2.5-vl-7b", tokens=inputs))


def test_odd_python_values_are_value_errors(tmp_path):
    # Each was a pybind11 TypeError listing the C++ signature, or was read as its repr.
    for call, msg in [
            (lambda: ropescope.attention(layout="t3", qk=5), r'^qk must be "identical" or "random"'),
            (lambda: ropescope.attention(np.ones((3, 8)), np.ones((3, 8)), layout="t3", head_dim=8,
                                         qk="random"), r"^give either q and k or qk, not both"),
            (lambda: ropescope.ids("t5\ud800"), r"^layout= is not text: '\\ud800' at position 2"),
            (lambda: ropescope.ids(model="\ud800", tokens={"input_ids": [1]}), r"^model= is not text"),
            (lambda: ropescope.load_scene("\ud800.json"), r"^path= is not text"),
            (lambda: ropescope.ids("t5", **{"\ud800": 1}), r"^\\ud800= is not text"),
            (lambda: ropescope.ids("t2,i2x2", design="mrope", sections=[[16, 24], 24]),
             r"^sections= takes one number or name per item, a flat list"),
            (lambda: ropescope.ids("t5", base={"a": 1}), r"^base= takes a number, a string or a list"),
            (lambda: ropescope.attention([[1.0] * 8, [1.0]], np.ones((2, 8)), layout="t2",
                                         head_dim=8), r"^q is not an array of numbers"),
            (lambda: ropescope.check_ids(None, model="qwen2.5-vl-7b", tokens={"input_ids": [1]}),
             r"^position_ids must be an array of numbers \(got NoneType\)"),
            (lambda: ropescope.check_ids(np.zeros((3, 1), complex), model="qwen2.5-vl-7b",
                                         tokens={"input_ids": [1]}), r"^position_ids is complex"),
            (lambda: ropescope.check_ids("pos.npy", model="qwen2.5-vl-7b", tokens={"input_ids": [1]}),
             r"^position_ids is the array the model computed"),
            (lambda: ropescope.ptd("t3,i2x3", ids=np.zeros((9, 3))),
             r"^ids= names a \.npy file of position ids, \[N, 3\] or \[3, N\] \(got ndarray\)"),
            (lambda: ropescope.ids("t5", base=[1, 2]),
             r'^--base expects a number in \(1, 1e\+12\] \(got "1,2"\)')]:
        with pytest.raises(ValueError, match=msg):
            call()
    # bytes and paths are what the file system holds: a layout as bytes is the layout, and a
    # file name that is not UTF-8 reaches the core as its own bytes.
    np.testing.assert_array_equal(ropescope.ids(b"t2,i2x2"), ropescope.ids("t2,i2x2"))
    # numpy values in a scene dict are the values they hold.
    s = ropescope.scene("t2,i2x2", design="hard")
    assert ropescope.ptd(scene=dict(s, selected_text=np.int64(1))) == ropescope.ptd(scene=s)
    name = tmp_path / os.fsdecode(b"\xff.json")
    ropescope.save_scene(ropescope.scene("t2,i2x2", design="hard"), name)
    assert os.path.exists(os.fsencode(tmp_path) + b"/\xff.json")
    assert ropescope.load_scene(name)["design"] == "hard"


def test_large_qk_are_borrowed_not_copied():
    # In a fresh interpreter (its peak memory is its own): q = k of 64 MiB, one query row. The
    # CPU backend holds the rotated q and the rotated, packed k, and the problem its rotary
    # table (cos and sin of 512 pairs a token), 3 x 64 MiB; a copy of q and k on the way in
    # would add 2 x 64 MiB more (5x).
    import subprocess
    import sys
    code = """
import resource, numpy as np, ropescope
n, d = 16384, 1024
q = np.random.default_rng(1).standard_normal((n, d), dtype=np.float32)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = ropescope.attention(q, q, layout=f"t{n}", design="hard", plan="vanilla", head_dim=d,
                          rows=(0, 1))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024 / q.nbytes)
"""
    env = dict(os.environ)
    growth = float(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                  capture_output=True, text=True).stdout)
    assert 2.5 < growth < 4.0, growth


def test_grid_says_an_animation_is_a_video():
    (gif,) = ropescope.grid("moving.gif")
    assert (gif["tokens"], gif["frames"], gif["temporal_patches"], gif["video_tokens"]) == (16, 8, 4, 64)
    (still,) = ropescope.grid("castle.png")
    assert "frames" not in still


def test_every_shipped_picture_is_found():
    for name in ("castle.jpg", "checker.png", "moving.gif"):
        assert ropescope.ids(f"t1,img:{name}", design="mrope").shape[0] > 1


# A Qwen2.5-VL processor output (token ids of the shipped config): 3 text, <|vision_start|>,
# an image of ViT grid (1, 4, 6) = 2 x 3 LLM tokens, <|vision_end|>, 2 text, left-padded by 2.
INPUT_IDS = [151643, 151643, 10, 11, 12, 151652] + [151655] * 6 + [151653, 13, 14]
MASK = [0, 0] + [1] * 13
WANT = ref.qwen2vl_ids([("t", 4), ("i", 2, 3), ("t", 3)])


class FakeTensor:
    """What a torch tensor offers ropescope: .tolist() (torch is not imported)."""

    def __init__(self, values):
        self.values = values

    def tolist(self):
        return self.values


@pytest.mark.parametrize("wrap", [
    lambda v: v,
    np.array,
    FakeTensor,
])
def test_ids_of_a_processor_output(wrap):
    inputs = {"input_ids": wrap([INPUT_IDS]), "attention_mask": wrap([MASK]),
              "image_grid_thw": wrap([[1, 4, 6]]), "pixel_values": object()}
    got = ropescope.ids(model="qwen2.5-vl-7b", tokens=inputs)
    np.testing.assert_array_equal(got, WANT)


def test_check_ids():
    inputs = {"input_ids": np.array([INPUT_IDS]), "attention_mask": np.array([MASK]),
              "image_grid_thw": np.array([[1, 4, 6]])}
    dump = WANT.T[:, None, :].astype(np.int64)  # [3, 1, N], as transformers returns it
    same = ropescope.check_ids(dump, model="qwen2.5-vl-7b", tokens=inputs)
    assert same and str(same).startswith("identical (13 tokens, hf-4.57)")
    dump[2, 0, 5] = 99
    diff = ropescope.check_ids(dump, model="qwen2.5-vl-7b", tokens=inputs, rules="all")
    assert not diff and list(diff.differing) == [5]
    assert "first difference at token 5" in str(diff)
    # The dump of the padded batch row as the model computes it: one column per input_ids entry,
    # padding at position 1 (transformers' masked fill); compared on the unpadded tokens.
    mask = np.array(MASK, dtype=bool)
    padded = np.ones((3, 1, mask.size), dtype=np.int64)
    padded[:, 0, mask] = WANT.T
    assert ropescope.check_ids(padded, model="qwen2.5-vl-7b", tokens=inputs)
    # The padding's positions part releases: 1 up to 5.1.x (hf-4.57 = 4.57.1), 0 from 5.2.0.
    zero = padded.copy()
    zero[:, 0, ~mask] = 0
    pad0 = ropescope.check_ids(zero, model="qwen2.5-vl-7b", tokens=inputs)
    assert not pad0 and "differs at padding token 0" in str(pad0)
    assert ropescope.check_ids(zero, model="qwen2.5-vl-7b", tokens=inputs, rules="5.5.4")
    padded[1, 0, np.flatnonzero(mask)[4]] = 77
    bad = ropescope.check_ids(padded, model="qwen2.5-vl-7b", tokens=inputs)
    assert not bad and list(bad.differing) == [4]
    with pytest.raises(ValueError, match=r"hold 14 tokens, the layout 13"):
        ropescope.check_ids(padded[:, :, 1:], model="qwen2.5-vl-7b", tokens=inputs)


def test_bad_input_is_a_value_error_with_the_cli_message():
    with pytest.raises(ValueError, match=r'^layout item 1 "t0": text length must be 1\.\.'):
        ropescope.ids("t0")
    with pytest.raises(ValueError, match=r"^design circle has no parameter \"colour\""):
        ropescope.ids("t3", design="circle", colour=1)
    with pytest.raises(ValueError, match=r"PTD needs at least one text and one visual token"):
        ropescope.ptd("t3")
    with pytest.raises(ValueError, match=r"^base must be a finite number in \(1, 1e12\]"):
        ropescope.decay(base=0.5)


def test_long_layouts_and_hostile_sizes(tmp_path):
    # Past the old 262,144-token constant: a million-token video's ids, exact at both ends.
    ids = ropescope.ids("t1000,v1000x32x32,t1000", design="mrope")
    assert ids.shape == (1026000, 3)
    np.testing.assert_array_equal(ids[999], [999, 999, 999])
    last = 1000 + max(2 * 999, 31)  # the walk's maximum after the video, then one more
    np.testing.assert_array_equal(ids[-1], [last + 1000] * 3)
    # Hostile sizes are refused at once, in one line, before anything is allocated.
    with pytest.raises(ValueError, match=r"text length must be 1\.\.2147483647 \(got 4294967296\)"):
        ropescope.ids("t4294967296")
    with pytest.raises(ValueError, match=r"video sizes must be 1\.\.4096 \(got 1000000\)"):
        ropescope.ids("v1000000x32x32")
    # A processor output whose input_ids claim 10^9 tokens: the .npz header alone is read.
    header = {"descr": "<i8", "fortran_order": False, "shape": (1, 1000000000)}
    entry = io.BytesIO()
    np.lib.format.write_array_header_1_0(entry, header)
    path = tmp_path / "claims.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("input_ids.npy", entry.getvalue() + bytes(24))
    with pytest.raises(ValueError, match=r"truncated: the shape needs 8000000000 data bytes"):
        ropescope.ids(model="qwen2.5-vl-7b", tokens=str(path))


def test_scenes_round_trip(tmp_path):
    s = ropescope.scene("t4,i3x3,t2", design="circle", alpha=0.25, dff=0.5, plan="mrope")
    assert s["design"] == "circle" and s["design_params"]["alpha"] == 0.25
    assert ropescope.scene(scene=s) == s
    path = tmp_path / "s.json"
    ropescope.save_scene(s, path)
    assert ropescope.load_scene(path) == s
    assert json.loads(path.read_text())["format"] == "ropescope-scene"
    np.testing.assert_array_equal(ropescope.ids(scene=s),
                                  ropescope.ids("t4,i3x3,t2", design="circle", alpha=0.25,
                                                dff=0.5))
    np.testing.assert_array_equal(ropescope.ids(scene=str(path)), ropescope.ids(scene=s))


def test_heavy_calls_release_the_gil():
    ticks, done = [0], threading.Event()

    def work():
        ropescope.bias_spread("t2000,i150x150", design="mrope")
        done.set()

    t = threading.Thread(target=work)
    t.start()
    while not done.is_set():
        ticks[0] += 1
    t.join()
    assert ticks[0] > 1000


def test_lists():
    names = [d["name"] for d in ropescope.designs()]
    assert {"hard", "mrope", "circle", "qwen2.5-vl"} <= set(names)
    assert "qwen2.5-vl-7b" in ropescope.models()


def test_shipped_samples_are_found():
    # img:castle.png names the shipped sample wherever the module is (build or installed tree).
    (g,) = ropescope.grid(CASTLE)
    assert ropescope.ids("t1,img:castle.png", design="mrope").shape == (1 + g["tokens"], 3)


def test_numpy_values_as_keywords():
    a = ropescope.ids("t2,i3x3", design="circle", alpha=np.float64(0.25), centre=np.bool_(False),
                      radius=np.int64(4))
    b = ropescope.ids("t2,i3x3", design="circle", alpha=0.25, centre=False, radius=4)
    np.testing.assert_array_equal(a, b)
    u = ropescope.decay(plan="mrope", sections=np.array([16, 24, 24]), max_distance=3)
    np.testing.assert_array_equal(u, ropescope.decay(plan="mrope", sections=(16, 24, 24),
                                                     max_distance=3))


def test_the_package_docstring_examples():
    import doctest
    assert doctest.testmod(ropescope).failed == 0


def test_glm_runs_that_disagree_with_their_grids_warn_and_follow_the_grids():
    # The golden set's GLM-4.1V image_video at 5.3.0: the processor gives the image [1, 4, 4] 10
    # image tokens and each frame of the video [2, 4, 4] 1; transformers' get_rope_index gives
    # the grids' ids over them (tests/golden/data/hf_ids_golden.jsonl).
    with open(os.path.join(ref.GOLDEN, "hf_ids_golden.jsonl")) as f:
        case = next(c for c in map(json.loads, f) if c["family"] == "glm4v"
                    and c["case"] == "image_video" and c["version"] == "v5.3.0")
    with pytest.warns(UserWarning, match=r"^the image run at token 3 has 10 tokens but "
                      r"image_grid_thw\[0\] = \[1, 4, 4\] gives 4 \(and 2 more runs\); ids follow "
                      r"the grids as transformers 5\.3\.0 does$"):
        got = ropescope.ids(model="glm-4.1v-9b-thinking", tokens=case["inputs"], rules="5.3.0")
    np.testing.assert_array_equal(got.T, np.array(case["position_ids"]))
    with pytest.warns(UserWarning, match="as transformers does at every release of GLM-4.1V"):
        check = ropescope.check_ids(np.array(case["position_ids"]), model="glm-4.1v-9b-thinking",
                                    tokens=case["inputs"], rules="5.3.0")
    assert check
