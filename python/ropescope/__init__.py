"""ropescope: the geometry of rotary position embeddings in vision-language models.

The functions take the same settings as the ``ropescope`` command line, as keyword
arguments: ``head_dim=64`` is ``--head-dim 64``, ``sections=(16, 24, 24)`` is
``--sections 16,24,24``, ``causal=True`` is ``--causal``, and any other name is a parameter
of the design (``fps=4`` is ``--param fps=4``). The math runs in the C++ core, with the GIL
released; results are numpy arrays, and the functions that return a curve or a table return
it with named fields, units and a ``plot()`` (matplotlib, where installed) that draws the figure
ropescope exports; in Jupyter they show themselves. Bad input raises ``ValueError`` with the
command line's one-line message. ``help(ropescope.ids)`` lists every keyword with its range.
A rope scaling is ``rope="yarn", rope_param={"factor": 4.0, ...}`` (``--rope yarn
--rope-param factor=4``; ``rope_params=`` is the same), with the command line's names and
ranges (``help(ropescope.freqs)``).

>>> import ropescope
>>> ropescope.ptd("i3x3,t5", design="hard")
2.2222222222222223
>>> ropescope.decay(plan="vanilla", base=1e4, head_dim=128, max_distance=3).shape
(4,)
"""

import json as _json
import os as _os
import numbers as _numbers
from collections.abc import Mapping as _Mapping

from . import _help
from . import _ropescope as _core
from ._locations import resource_folder as _resource_folder
from ._model_config import model_argument as _model_argument
from ._results import (AttentionReadouts, AttentionValues, BiasProfile, DecayAxes, DecayCurve, DesignComparison,
                       IdBudget, Principles, QkUsage, Scene, Wavelengths)

__version__ = _core.__version__
__all__ = [
    "ids", "ptd", "bias_spread", "decay", "freqs", "grid", "attention", "scene",
    "load_scene", "save_scene", "check_ids", "designs", "models", "IdsCheck", "decay_axes",
    "compare", "profile", "DecayCurve", "DecayAxes", "Wavelengths", "DesignComparison",
    "BiasProfile", "Scene", "AttentionValues", "rotary", "budget", "IdBudget", "principles", "Principles",
    "pixel_map", "qk_usage", "QkUsage", "attention_readouts", "AttentionReadouts", "layers",
]

IdsCheck = _core.IdsCheck

_OPTIONS = _core.option_names()  # command -> {option name: takes a value}
# Keys of a processor output that ropescope reads; pixel_values and the rest are never touched.
_TOKEN_KEYS = ("input_ids", "attention_mask", "mm_token_type_ids", "image_grid_thw",
               "video_grid_thw", "second_per_grid_ts")

# Builds with ropescope_models carry the model configs and samples; others read them from the
# build tree's resources/ or the installed share/ropescope/.
_folder = None if _core.has_shipped_files else _resource_folder()
if _folder:
    _core.set_resource_folder(_folder)


def _word(key, value):
    """One command-line value: numbers round-trip (repr), sequences comma-joined, bytes and
    paths as the file system reads them."""
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        value = value.tolist()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, bytes, _os.PathLike)):
        return _os.fsdecode(value)
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (list, tuple, _Mapping)) or getattr(v, "ndim", 0) for v in value):
            raise ValueError(f"{key}= takes one number or name per item, a flat list "
                             f"(got {value!r})")
        return ",".join(_word(key, v) for v in value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, _numbers.Number):
        return str(value)
    raise ValueError(f"{key}= takes a number, a string or a list of them "
                     f"(got {type(value).__name__} {value!r})")


def _encoded(key, text):
    """`text` as the bytes the core reads: UTF-8, with file names that are not UTF-8 (os.listdir
    hands them over as surrogate escapes) given back their own bytes."""
    try:
        return _os.fsencode(text)
    except UnicodeEncodeError as e:
        shown = key.encode("utf-8", "backslashreplace").decode("utf-8")
        raise ValueError(f"{shown}= is not text: {e.object[e.start:e.end]!r} at position "
                         f"{e.start} is a lone surrogate") from None


# The command line's own options: what it prints and where. A function returns its result (a
# dict or an array) instead; help=, out= and format= were taken and then ignored (help=True even
# computed the default scene instead of the one asked for).
_COMMAND_LINE_ONLY = _help.COMMAND_LINE_ONLY


def _rope_words(key, value):
    """rope_param= as --rope-param words: a dict {name: a number, True/False or a list of
    numbers}, or the command line's own "name=value" text (or a list of them). The rope type's
    names and ranges are the command line's table, checked by the core."""
    if isinstance(value, (str, bytes)):
        value = [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, bytes)) for v in value):
        return [w for v in value for w in (b"--rope-param", _encoded(key, _os.fsdecode(v)))]
    if not isinstance(value, _Mapping):
        raise ValueError(f"{key}= takes a dict of rope parameters, e.g. {{'factor': 4.0}} "
                         f"(got {type(value).__name__} {value!r})")
    words = []
    for name, v in value.items():
        if not isinstance(name, str):
            raise ValueError(f"{key}= names each parameter with a string (got {name!r})")
        if hasattr(v, "tolist"):  # numpy scalars and arrays
            v = v.tolist()
        number = isinstance(v, _numbers.Real)
        numbers = isinstance(v, (list, tuple)) and len(v) > 0 and all(
            isinstance(x, _numbers.Real) and not isinstance(x, bool) for x in v)
        if not (number or numbers):
            raise ValueError(f"{key}[{name!r}] must be a number, True/False or a list of numbers "
                             f"(got {type(v).__name__} {v!r})")
        words += [b"--rope-param", _encoded(key, f"{name}={_word(key, v)}")]
    return words


def _args(command, options):
    table = _OPTIONS[command]
    words = []
    if options.get("rope_param") is not None and options.get("rope_params") is not None:
        raise ValueError("give either rope_param= or rope_params= (the same dict), not both")
    for key, value in options.items():
        if hasattr(value, "tolist"):  # numpy scalars and arrays
            value = value.tolist()
        if value is None:
            continue
        if key in ("rope_param", "rope_params") and "rope-param" in table:
            words += _rope_words(key, value)
            continue
        # A trailing underscore is Python's way to write a keyword as a name: from_="audio".
        name = key.rstrip("_").replace("_", "-")
        if name == "ids" and not isinstance(value, (str, bytes, _os.PathLike)):
            raise ValueError("ids= names a .npy file of position ids, [N, 3] or [3, N] "
                             f"(got {type(options[key]).__name__}); write an array with "
                             "numpy.save first")
        if name in _COMMAND_LINE_ONLY:
            raise ValueError(f"{key}= is an option of the command line only: {command}() returns "
                             "its result (see help(ropescope))")
        if name in table:
            if table[name]:
                words += [b"--" + _encoded(key, name), _encoded(key, _word(key, value))]
            elif value is True:
                words.append(b"--" + _encoded(key, name))
            elif value is not False:
                raise ValueError(f"{key}= is a switch: True or False (got {value!r})")
        elif "param" in table:
            words += [b"--param", _encoded(key, f"{key}={_word(key, value)}")]
        else:  # decay, freqs, grid: no design parameters
            known = ", ".join(sorted(n.replace("-", "_") for n in table
                                     if n not in _COMMAND_LINE_ONLY))
            raise ValueError(f"unknown keyword {key}= for {command} (accepted: {known})")
    return words


def _plain(value):
    """A tensor, array or list as nested Python lists (torch: .tolist(); numpy: __array__)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "__array__"):
        import numpy
        return numpy.asarray(value).tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _tokens_json(tokens):
    """A transformers processor output (BatchFeature, dict, or object with attributes) as the
    tokens-file JSON core reads."""
    out = {}
    for key in _TOKEN_KEYS:
        if isinstance(tokens, _Mapping) or hasattr(tokens, "keys"):
            if key not in tokens:
                continue
            value = tokens[key]
        elif hasattr(tokens, key):
            value = getattr(tokens, key)
        else:
            continue
        if value is not None:
            value = _plain(value)
            if key == "attention_mask":  # a bool mask (numpy or torch) reads as 0/1
                value = _json.loads(_json.dumps(value).replace("true", "1").replace("false", "0"))
            out[key] = value
    try:
        return _json.dumps(out, allow_nan=False)
    except ValueError:
        raise ValueError("tokens: a value is not finite (NaN or infinity)") from None


def _json_value(value):
    """numpy scalars and arrays (np.int64(1) from an array) as the JSON values they hold."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _inputs(command, layout=None, scene=None, model=None, tokens=None, **options):
    scene_json = None
    if isinstance(scene, _Mapping):
        try:
            scene_json = _json.dumps(scene, allow_nan=False, default=_json_value)
        except (TypeError, ValueError) as e:
            raise ValueError(f"scene: not a scene dict of JSON values ({e})") from None
    elif scene is not None:
        options["scene"] = scene  # a scene file
    if layout is not None:
        if scene is not None:
            raise ValueError("give either layout or scene, not both")
        if tokens is not None:
            raise ValueError("give either layout or tokens, not both")
        options["layout"] = layout
    # A tokens file (.json or .npz) is read by core, as the CLI's --tokens reads it.
    path = isinstance(tokens, (str, bytes, _os.PathLike))
    return _core.Inputs(_args(command, options), scene_json,
                        None if tokens is None or path else _tokens_json(tokens),
                        b"" if model is None else _encoded("model", _model_argument(model)),
                        _encoded("tokens", _os.fsdecode(tokens)) if path else b"")


def ids(layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """Position ids (t, h, w) of every token, as a float64 array of shape [N, 3].

    layout: a layout spec ("t5,i3x3,t2", "t4,img:photo.jpg,t8", "qwen2.5-vl:i3x3"), or
    scene: a scene dict (see scene()) or a scene file, or
    model= and tokens=: a model name or checkpoint folder and the processor's output
    (a dict or BatchFeature of lists, numpy arrays or torch tensors), whose token sequence
    becomes the layout. design: hard, mrope, circle, ... or a model family (qwen2.5-vl).
    Other keywords: frequency-plan options (plan, base, head_dim, sections, ...) and design
    parameters (alpha, radius, dff, fps, rules, ...).
    """
    return _core.ids(_inputs("ids", layout, scene, model, tokens, design=design, **params))


def ptd(layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """Per-Token Distance: mean over text tokens of the mean absolute deviation of their
    distances to the visual tokens. Same inputs as ids(); threads=N (0 = all cores);
    from_="audio", to="visual" (text, visual, image, video, audio) measure between other groups."""
    return _core.ptd(_inputs("ptd", layout, scene, model, tokens, design=design, **params))


def bias_spread(layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """Spread of the positional bias b = (1/n) sum_p cos(phase_p) over the visual tokens,
    averaged over text tokens. Same inputs as ids(), plus the frequency plan; from_= and to= as
    in ptd()."""
    return _core.bias_spread(
        _inputs("bias", layout, scene, model, tokens, design=design, **params))


def decay(*, plan=None, base=None, axis=None, max_distance=None, model=None, **options):
    """RoFormer's long-term decay bound U(delta) for delta = 0..max_distance (float64 array).

    plan: vanilla, mrope, ...; base; head_dim; axis: "t", "h" or "w" (default: all three
    together, the text axis) or direction=(t, h, w); form="subset" for the axis-only form.
    Returns a DecayCurve: the array of U (a pure number), with .distance (positions) and
    .plot().
    """
    u, rope = _core.decay(_inputs("decay", model=model, plan=plan, base=base, axis=axis,
                                  max_distance=max_distance, **options))
    direction = options.get("direction")
    if axis is not None:
        label = f"along {axis}"
    elif direction is not None:
        label = "along (" + ", ".join(_word("direction", v) for v in direction) + ")"
    else:
        label = "along t = h = w (text)"
    return DecayCurve(u, label, axis if isinstance(axis, str) else None, rope)


def decay_axes(*, plan=None, base=None, max_distance=None, model=None, **options):
    """The decay bound moving along t, along h and along w (full form), as the desktop app's
    decay figure: a DecayAxes with fields distance, t, h, w and .plot(). Keywords as decay()'s,
    without axis= and direction=."""
    for key in ("axis", "direction"):
        if key in options:
            raise ValueError(f"decay_axes draws t, h and w: leave out {key}= (decay() takes it)")
    curves = [_core.decay(_inputs("decay", model=model, plan=plan, base=base, axis=a,
                                  max_distance=max_distance, **options)) for a in "thw"]
    return DecayAxes(*(u for u, _ in curves), rope=curves[0][1])


def freqs(*, plan=None, base=None, model=None, **options):
    """Every rotary pair: index, axis, theta, wavelength (NaN for a NoPE pair), full_turn
    within context (default 32768) and the two q/k dims it rotates, as a dict of arrays, with
    context_length, pair_layout and full_turn_pairs (how many pairs turn fully), as the CLI's.
    rope (the scaling's type or None), attention_factor and logit_scale (its square); with a
    scaling also theta_unscaled, scaling (unchanged, ramped, scaled, not_rotated),
    inv_freq_f32 (transformers' float32 values) per pair and per_axis counts.
    A Wavelengths dict: .units, and .plot() draws every pair's wavelength by axis."""
    return Wavelengths(_core.freqs(_inputs("freqs", model=model, plan=plan, base=base, **options)))


def grid(*pictures, **options):
    """Each picture's size, smart_resize size and LLM grid, as the grid command prints them.
    Options: design (a model family cuts as its processor does), preset ("qwen2.5-vl",
    "qwen3-vl"), min_pixels, max_pixels, patch, merge."""
    files = [_encoded("picture", p) for p in pictures]
    return _core.grid(_inputs("grid", **options), files)


def attention(q=None, k=None, layout=None, *, design=None, scene=None, model=None,
              tokens=None, qk=None, heads=1, seed=0, causal=False, softmax=False,
              rows=None, pool=0, threads=0, **params):
    """RoPE attention logits q'k'^T/sqrt(d) (softmax=True: probabilities) on the CPU.

    q, k: pre-RoPE arrays [N, d] or [heads, N, d] (any float dtype; q heads a multiple of k
    heads); without them qk="identical" (the default: the pure positional bias) or
    qk="random" (seed).
    rows=(a, b): query rows a..b-1; pool=B: means over B x B blocks. Returns float32
    [heads, rows, N] (pooled: [heads, ceil(N/B), ceil(N/B)]), an AttentionValues array with
    .rope, .attention_factor and .logit_scale: a rope scaling (rope=, rope_param={...}, or the
    model's) multiplies cos and sin by its attention factor, as transformers does, so the
    rotated part of every logit carries its square.
    model=, layer=N (or layer_type=): that layer's mask (sliding window, chunk, Gemma 3's picture
    blocks) and rotary, or none with Llama 4's q temperature (docs/user/attention.md); settings
    of the model the preview does not model warn (UserWarning).
    """
    qa, ka, qk = _qk_arrays(q, k, qk)
    inputs = _inputs("attention", layout, scene, model, tokens, design=design, **params)
    if isinstance(rows, slice):
        if rows.step not in (None, 1):
            raise ValueError("rows must be a slice with step 1 or a pair (a, b)")
        # Open and negative ends as Python reads them, over the layout's tokens.
        start, stop, _ = rows.indices(_core.token_count(inputs))
        rows = (start, stop)
    if rows is not None and (not isinstance(rows, (tuple, list)) or len(rows) != 2):
        raise ValueError(f"rows must be a pair (a, b) or a slice (got {rows!r})")
    values, rope = _core.attention(
        inputs, qa, ka, _encoded("qk", qk), _whole("heads", heads),
        _whole("seed", seed, 2**64 - 1), _switch("causal", causal), _switch("softmax", softmax),
        None if rows is None else tuple(_whole("rows", r) for r in rows), _whole("pool", pool),
        _whole("threads", threads))
    return AttentionValues(values, rope)


def rotary(layout=None, *, design=None, scene=None, model=None, tokens=None, q=None, k=None,
           **params):
    """The reference tables of `ropescope rotary` as numpy arrays, for comparing a port of RoPE
    with transformers (docs/user/porting.md): a dict keyed as the command's files, without
    ".npy": position_ids, inv_freq (float32) and inv_freq_f64, cos, sin (float32, in the
    layout the family's transformers rotary forward returns at the rules' release: (3, 1, N, R)
    per axis for Qwen2-VL / Qwen2.5-VL / Qwen2.5-Omni / GLM-4.1V up to 5.0.0rc2, else (1, N, R)),
    cos_f64, sin_f64, rot_cos, rot_sin (N, D) and rot_partner (D,), the layout-free rotation
    out[m] = rot_cos[t, m] * x[m] + rot_sin[t, m] * x[rot_partner[m]] (partner -1: passed
    through), and with q= / k= ([N, D] or [heads, N, D]) q_embed / k_embed; plus family, rules,
    transformers_release, layout_from, rope_type, attention_factor, head_dim, rotary_dim,
    pair_layout, cos_layout and pair_axes.

    model= and tokens= (a processor output), or layout=; rope="yarn", rope_param={...} adds a
    rope scaling (or replaces the model's): its attention factor multiplies cos and sin.
    """
    import numpy
    qa = None if q is None else _real_array("q", _plain_array(q), numpy.float32)
    ka = None if k is None else _real_array("k", _plain_array(k), numpy.float32)
    inputs = _inputs("rotary", layout, scene, model, tokens, design=design, **params)
    return _core.rotary(inputs, qa, ka)


def budget(layout=None, *, design=None, scene=None, model=None, tokens=None, points=None,
           trained_length=None, **params):
    """The id budget of `ropescope budget`: tokens against the largest position id per axis,
    rope_deltas, per axis the largest relative distance against the trained length and the
    share of rotary pairs whose angle there leaves the range seen in training, where dynamic
    scaling switches, and the YaRN factor that covers the ids, (largest id + 1) / trained
    length, beside tokens / trained length (docs/long-context.md#the-id-budget).

    points: the curve's points (the range and default of --points);
    trained_length: the context the model was trained at (default: the rope's
    original_max_position_embeddings, else the model config's max_position_embeddings; without
    either every ratio is None). An IdBudget dict; .plot() draws the curve."""
    inputs = _inputs("budget", layout, scene, model, tokens, design=design, **params)
    return IdBudget(_json.loads(_core.budget(
        inputs, -1 if points is None else _whole("points", points),
        -1 if trained_length is None else _whole("trained_length", trained_length))))


def principles(layout=None, *, designs="scene", design=None, scene=None, model=None,
               tokens=None, **params):
    """The three design principles of multimodal RoPE (arXiv 2510.23095) as a verdict, as
    `ropescope principles`: position coherence (the first text token at or below an earlier
    visual id, the modality interval per axis, the id growth), frequency use (per axis the share
    of the log-frequency range its pairs span, the lowest and highest frequency) and the
    textual prior (text alone against vanilla 1-D RoPE) (docs/math.md#design-principles).

    designs: "scene" (the scene's design), "all" (every design as picking it does) or
    "revisiting" (the paper's rows; without a layout on t8,i4x6,t8,v3x4x4,t8). A Principles
    dict; .plot() draws the verdicts side by side and each axis's spectrum."""
    if designs == "revisiting" and layout is None and scene is None and tokens is None:
        layout = _core.revisiting_layout
    inputs = _inputs("principles", layout, scene, model, tokens, design=design, **params)
    return Principles(_json.loads(_core.principles(inputs, designs)))


def pixel_map(layout=None, *, design=None, scene=None, model=None, tokens=None,
              temporal_patch_size=None, **params):
    """The token -> pixel map of `ropescope pixels`: for every visual token the rectangle of
    the picture it covers, [x0, x1) x [y0, y1) in the picture's own pixels, and the source
    frames first_frame..last_frame (docs/user/pixel-map.md). A dict {"count": N, "cells":
    [...]}, each cell with token, segment, frame, row, col, tile (None unless the picture is
    tiled), thumbnail, x0, y0, x1, y1, first_frame, last_frame, width, height.

    layout: a layout spec ("t4,img:photo.jpg,t8", "t2,tiled:1920x1080,t4"); grid_preset or
    model= decide the factor; temporal_patch_size: frames one temporal patch pairs (default 2)."""
    inputs = _inputs("pixels", layout, scene, model, tokens, design=design, **params)
    return _json.loads(_core.pixel_map(
        inputs, -1 if temporal_patch_size is None else _whole("temporal_patch_size", temporal_patch_size)))


def qk_usage(q, k, layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """What a model does with its rotary pairs and its sinks, from one layer's real q and k, as
    `ropescope qk-usage` (docs/user/attention.md#qk-usage): per rotary pair its axis, theta and
    the mean over the tokens of ||q_p|| and ||k_p||, their product and its share (arXiv
    2410.06205), per head and averaged over heads; per head the mean causal attention (RoPE at
    the scene's ids) on the first token and on each picture's first token over the query rows
    that see it (arXiv 2410.10781).

    q, k: arrays [N, d] or [heads, N, d] (any float dtype; numpy or torch on the CPU), before
    or after RoPE (norms are rotation-invariant); q heads a multiple of k heads. threads=N
    (0 = all cores). A QkUsage dict; .plot() draws the norm per pair, .plot_sinks() the
    sinks."""
    import numpy
    qa = _real_array("q", _plain_array(q), numpy.float32)
    ka = _real_array("k", _plain_array(k), numpy.float32)
    inputs = _inputs("qk-usage", layout, scene, model, tokens, design=design, **params)
    return QkUsage(_json.loads(_core.qk_usage(inputs, qa, ka)))


def attention_readouts(q=None, k=None, layout=None, *, design=None, scene=None, model=None,
                       tokens=None, qk=None, heads=1, seed=0, **params):
    """The positional read-outs of the causal attention, as `ropescope attention --readouts`
    (docs/user/attention.md#positional-read-outs): the share of each text token's softmax on the
    visual tokens for the text after the last picture ("visual fading"), and per picture, over
    the text after it and the heads, the shares of its attention on its top-left token, top row,
    left column and border (with the uniform share of each), its centre of mass (0..1) and its
    row trend (share per row and the least-squares slope).

    q, k: pre-RoPE arrays [N, d] or [heads, N, d] (the model); without them qk="identical"
    (the default: position alone) or qk="random" (seed), heads as attention(). threads=N
    (0 = all cores). An AttentionReadouts dict: .fading, .fading_tokens, .fading_heads
    (numpy; None when n/a, with ["fading"]["undefined"] saying why), ["pictures"] (None for
    an undefined value, with its reason); .plot() draws the fading curve. For a curve per
    design call it once per design."""
    qa, ka, qk = _qk_arrays(q, k, qk)
    inputs = _inputs("attention", layout, scene, model, tokens, design=design, **params)
    out = _json.loads(_core.attention_readouts(
        inputs, qa, ka, _encoded("qk", qk), _whole("heads", heads),
        _whole("seed", seed, 2**64 - 1)))
    if q is not None:
        out["qk"] = "arrays"
    return AttentionReadouts(out)


def _switch(name, value):
    """A true/false argument: bools (numpy's too), 0/1, or the words a scene file takes."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, bool) or value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value in ("true", "false"):
        return value == "true"
    raise ValueError(f"{name} must be true or false (got {value!r})")


def _whole(name, value, top=2**63 - 1):
    """A whole-number argument in 0..top: int-like values, never floats or strings (the core
    checks the option's own range and names it)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise ValueError(f"{name} must be a whole number >= 0 (got {value!r})")
    return value


def scene(layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """A scene as a dict in the scene-file form (layout, design, parameters, plan, ...):
    save_scene() writes it, every function takes it as scene=, the desktop app opens it.
    A Scene dict: .plot() draws its position ids as a 3-D scatter (matplotlib)."""
    return Scene(_json.loads(
        _core.scene_json(_inputs("ids", layout, scene, model, tokens, design=design, **params))))


def _token_info(scene):
    """Each token's modality code and grid cell, int32 [N, 4] (_core.token_info)."""
    return _core.token_info(_inputs("ids", scene=scene))


def compare(layout=None, *, design=None, scene=None, model=None, tokens=None, **params):
    """PTD and bias spread of the layout under every design (each with its defaults; the
    scene's own design keeps its parameters), as the desktop app's bars: a DesignComparison
    with fields design, title, ptd, bias_spread (NaN where undefined; .undefined says why) and
    current; .plot(metric="ptd" or "bias_spread"). Same inputs as ptd(), without from_/to."""
    for key in ("from_", "to"):
        if key in params:
            raise ValueError(f"compare measures text -> visual: leave out {key}= (ptd() takes it)")
    return DesignComparison(
        _core.compare(_inputs("ptd", layout, scene, model, tokens, design=design, **params)))


def profile(layout=None, *, text=0, design=None, scene=None, model=None, tokens=None, **params):
    """The distance d and the bias b from text token `text` (0 = the first text token) to every
    visual token, as the desktop app's profile: a BiasProfile with fields visual (token
    indices), distance, bias and .plot(). Same inputs as bias_spread(), without from_/to."""
    for key in ("from_", "to"):
        if key in params:
            raise ValueError(f"profile measures from a text token: leave out {key}=")
    return BiasProfile(_core.profile(
        _inputs("bias", layout, scene, model, tokens, design=design, **params),
        _whole("text", text)))


def load_scene(path):
    """A scene file read (and checked) as a Scene dict; picture paths become absolute."""
    return Scene(_json.loads(_core.load_scene(_encoded("path", path))))


def save_scene(scene, path):
    """Writes a scene dict to a scene file, atomically (picture paths relative to it)."""
    _core.save_scene(_json.dumps(scene, default=_json_value), _encoded("path", path))


def check_ids(position_ids, *, model, tokens, rules=None):
    """Compares the position_ids a model computed ([3, N], [3, 1, N] or [4, ...]; numpy or
    torch) with get_rope_index of the model's family over tokens (the processor output).
    rules: "hf-4.57" (default), "hf-5.3", "hf-main" or "all". Returns an IdsCheck: true when
    identical; str() is the verdict `ropescope check-ids` prints."""
    import numpy
    if isinstance(position_ids, (str, bytes, _os.PathLike)):
        raise ValueError("position_ids is the array the model computed (numpy or torch); for a "
                         ".npy file give numpy.load(path)")
    dump = _real_array("position_ids", _plain_array(position_ids), numpy.float64)
    return _core.check_ids(dump, _inputs("check-ids", model=model, tokens=tokens),
                            _encoded("rules", rules or ""))


def _real_array(name, value, dtype):
    """`value` as a C-order array of `dtype`, or a ValueError naming the argument: None, text,
    complex numbers and ragged nested lists were numpy's own errors or a warning."""
    import numpy
    if value is None or isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be an array of numbers (got {type(value).__name__})")
    try:
        array = numpy.asarray(value)
        complex_ = numpy.iscomplexobj(array)
        if not complex_:
            array = numpy.ascontiguousarray(array, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name} is not an array of numbers ({e})") from None
    if complex_:
        raise ValueError(f"{name} is complex: give the real {name}")
    return array


def _qk_arrays(q, k, qk):
    """q and k as float32 arrays (numpy arrays or torch tensors; None when not given), and the
    source without them: qk "identical" (the default) or "random"."""
    import numpy
    if qk is not None and (q is not None or k is not None):
        raise ValueError("give either q and k or qk, not both (qk is for runs without q and k)")
    if qk is None:
        qk = "identical"
    if not isinstance(qk, str):
        raise ValueError(f'qk must be "identical" or "random" (got {qk!r})')
    qa = None if q is None else _real_array("q", _plain_array(q), numpy.float32)
    ka = None if k is None else _real_array("k", _plain_array(k), numpy.float32)
    return qa, ka, qk


def _plain_array(value):
    if hasattr(value, "detach"):  # a torch tensor, without importing torch
        value = value.detach().cpu().numpy()
    return value


def designs():
    """Every position design: name, title, summary and parameters (key, range, default)."""
    return _core.designs()


def layers(model):
    """Every decoder layer of a model, as `ropescope layers --model NAME --format json`: per
    layer its index, type, attention kind and window, its rotary (rope type, theta, factor, head
    size, rotated dims, pair layout) or None for a NoPE layer, and Llama 4's temperature
    (floor_scale, attn_scale) or None. layer=N on the other functions picks one layer's rotary
    (docs/long-context.md#a-rotary-per-layer)."""
    return _json.loads(_core.layers(_model_argument(model)))


def models():
    """Names of the shipped model configs (model="qwen2.5-vl-7b")."""
    return _core.models()


_help.document({ids: "ids", ptd: "ptd", bias_spread: "bias", decay: "decay",
                decay_axes: ("decay", {"axis", "direction"}), freqs: "freqs", grid: "grid",
                attention: ("attention", {"readouts"}), rotary: "rotary", budget: "budget", principles: "principles", pixel_map: "pixels", qk_usage: ("qk-usage", {"q", "k"}),
                attention_readouts: ("attention", {"readouts", "rows", "pool", "causal",
                                                   "softmax", "backend"}), scene: "ids", compare: ("ptd", {"from", "to"}),
                profile: ("bias", {"from", "to"})},
               _core.option_help(), _core.designs())
