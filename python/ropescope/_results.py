"""Results that show themselves: the numbers as numpy arrays under named fields with their units,
plot(ax=None) drawing the figure ropescope exports (_plots.py), and _repr_html_ / _repr_png_ for
Jupyter. Each keeps the form its function returned before: decay() an array, freqs() and scene()
a dict, so code that indexes them reads the same values."""

import base64 as _base64
import html as _html

import numpy as _np

from . import _plots


class Shows:
    """plot(), _repr_png_() and _repr_html_() over a result's _draw(ax), _caption() and
    _rows() (name, unit, values)."""

    _three_d = False

    def plot(self, ax=None):
        """Draws the figure onto `ax` (a matplotlib Axes; a 3-D one for a scene), or onto a new
        figure; returns the Axes. Needs matplotlib (ImportError says what to install)."""
        if ax is None:
            ax = _plots.new_axes(self._three_d)
        else:
            _plots.require()
        self._draw(ax)
        return ax

    def _repr_png_(self):
        return _plots.png(self._draw, self._three_d)

    def _repr_html_(self):
        rows = "".join(
            f"<tr><th style='text-align:left'>{_html.escape(name)}</th>"
            f"<td>{_html.escape(unit)}</td><td style='text-align:left'>{_html.escape(shown(v))}"
            "</td></tr>" for name, unit, v in self._rows())
        out = (f"<div><b>{_html.escape(self._caption())}</b><table><tr><th>field</th><th>unit"
               f"</th><th>values</th></tr>{rows}</table>")
        image = self._repr_png_()
        if image is None:
            out += f"<p>{_html.escape(_plots.MISSING)}</p>"
        else:
            out += ("<img src='data:image/png;base64," + _base64.b64encode(image).decode("ascii")
                    + "'/>")
        return out + "</div>"


def shown(values, most=8):
    """A field's values in a line: numbers as Python prints them, NaN as n/a (never 0)."""
    if isinstance(values, str):
        return values
    a = _np.asarray(values)
    if a.ndim == 0:
        return "n/a" if a.dtype.kind == "f" and _np.isnan(a) else str(a.item())
    items = a.reshape(len(a), -1).tolist() if a.ndim > 1 else a.tolist()
    text = ["n/a" if isinstance(v, float) and v != v else repr(v) for v in items[:most]]
    if len(items) > most:
        text.append(f"\u2026 ({len(items)} in all)")
    return "[" + ", ".join(text) + "]"


class Plain(_np.ndarray):
    """An ndarray whose slices and arithmetic are plain arrays: what a result's fields describe
    holds for the whole array only."""

    def __getitem__(self, key):
        return _np.asarray(self)[key]

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        inputs = tuple(_np.asarray(x) if isinstance(x, Plain) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(_np.asarray(x) if isinstance(x, Plain) else x
                                  for x in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __repr__(self):
        return repr(_np.asarray(self))


class RopeScaled:
    """The scene's rope scaling on a result: .rope (the type, None without a scaling),
    .attention_factor (transformers multiplies cos and sin by it) and .logit_scale (its square,
    on the rotated part of every logit)."""

    def _set_rope(self, rope):
        rope = rope or {}
        self.rope = rope.get("type")
        self.attention_factor = rope.get("attention_factor", 1.0)
        self.logit_scale = rope.get("logit_scale", 1.0)

    def _copy_rope(self, obj):
        self.rope = getattr(obj, "rope", None)
        self.attention_factor = getattr(obj, "attention_factor", 1.0)
        self.logit_scale = getattr(obj, "logit_scale", 1.0)


class DecayCurve(Plain, Shows, RopeScaled):
    """RoFormer's decay bound U(delta) for delta = 0..max_distance: the array itself, with
    .distance (positions), .label (the direction the distance moves along), .rope,
    .attention_factor, .logit_scale (RopeScaled) and .plot()."""

    unit = ""  # U is a mean of moduli of sums of unit phasors: a pure number

    def __new__(cls, u, label, axis, rope=None):
        obj = _np.asarray(u).view(cls)
        obj.label, obj.axis = label, axis
        obj._set_rope(rope)
        return obj

    def __array_finalize__(self, obj):
        self.label = getattr(obj, "label", "")
        self.axis = getattr(obj, "axis", None)
        self._copy_rope(obj)

    @property
    def distance(self):
        return _np.arange(len(self), dtype=_np.float64)

    def _caption(self):
        return f"decay bound U(\u03b4) {self.label}"

    def _rows(self):
        return [("distance", "positions", self.distance), ("U", "", _np.asarray(self))]

    def _draw(self, ax):
        _plots.decay(ax, self.distance, [(self.label, self.axis, _np.asarray(self))],
                     "Long-term decay")


class DecayAxes(Shows, RopeScaled):
    """The decay bound moving along t, h and w (full form), as the desktop app's decay figure:
    fields distance (positions), t, h, w; r["h"] is the curve along h; .rope,
    .attention_factor and .logit_scale (RopeScaled)."""

    fields = ("distance", "t", "h", "w")
    units = {"distance": "positions", "t": "", "h": "", "w": ""}

    def __init__(self, t, h, w, rope=None):
        self.t, self.h, self.w = (_np.asarray(c) for c in (t, h, w))
        self.distance = _np.arange(len(self.t), dtype=_np.float64)
        self._set_rope(rope)

    def __getitem__(self, name):
        if name not in self.fields:
            raise KeyError(f"{name!r} (fields: {', '.join(self.fields)})")
        return getattr(self, name)

    def __repr__(self):
        return f"<DecayAxes distance 0..{len(self.t) - 1}>"

    def _caption(self):
        return "decay bound U(\u03b4) along t, h and w"

    def _rows(self):
        return [(f, self.units[f], self[f]) for f in self.fields]

    def _draw(self, ax):
        _plots.decay(ax, self.distance, [(f"along {a}", a, self[a]) for a in "thw"],
                     "Long-term decay per axis")


class Wavelengths(dict, Shows):
    """freqs()'s dict of arrays (index, axis, theta, wavelength, full_turn, dims and the counts)
    with .units and .plot(): the wavelength of every pair, coloured by its axis."""

    units = {"index": "", "axis": "", "theta": "rad/position", "wavelength": "positions",
             "full_turn": "", "dims": "", "context_length": "positions",
             "theta_unscaled": "rad/position", "inv_freq_f32": "rad/position",
             "switch_length": "positions"}

    @property
    def attention_factor(self):
        return self["attention_factor"]

    @property
    def logit_scale(self):
        return self["logit_scale"]

    def _nope(self):
        return int(_np.isnan(self["wavelength"]).sum())

    def _caption(self):
        nope = self._nope()
        return ("Wavelength 2\u03c0/\u03b8 per pair" + (f" ({nope} NoPE)" if nope else "") +
                f"; {self['full_turn_pairs']} turn fully within {self['context_length']:g}")

    def _rows(self):
        return [(k, self.units.get(k, ""), self[k]) for k in
                ("index", "axis", "theta", "wavelength", "full_turn")]

    def _draw(self, ax):
        nope = self._nope()
        _plots.wavelengths(ax, _np.asarray(self["index"]), self["axis"],
                           _np.asarray(self["wavelength"], dtype=float),
                           "Wavelength 2\u03c0/\u03b8 per pair" + (f" ({nope} NoPE)" if nope else ""))


class IdBudget(dict, Shows):
    """budget()'s dict, the fields of `ropescope budget --format json` (tokens, largest_id,
    max_id, min_id, rope_deltas, ids_per_token, trained_length, axes, dynamic, yarn, rope,
    curve), the curve's columns as numpy arrays; an undefined number is None with its reason,
    never 0. .plot() draws the largest id per axis against the tokens, with the trained length."""

    units = {"tokens": "tokens", "largest_id": "positions", "rope_deltas": "positions",
             "ids_per_token": "positions/token", "factor_from_ids": "", "factor_from_tokens": ""}

    def __init__(self, d):
        super().__init__(d)
        curve = self["curve"]
        for key in list(curve):
            curve[key] = _np.asarray(curve[key], dtype=_np.int64 if key == "tokens" else float)

    @property
    def trained_length(self):
        """The trained length in tokens, None when unknown (trained_length["undefined"] says
        why)."""
        return self["trained_length"]["tokens"]

    @property
    def yarn_factor(self):
        """(largest id + 1) / trained length: the YaRN factor that covers the ids; None
        without a trained length."""
        return self["yarn"]["factor_from_ids"]

    def _caption(self):
        return (f"Id budget: {self['tokens']} tokens, largest id {self['largest_id']:g}; "
                f"YaRN factor {shown(_nan(self['yarn']['factor_from_ids']))} from the ids, "
                f"{shown(_nan(self['yarn']['factor_from_tokens']))} from the tokens")

    def _rows(self):
        return [("tokens", "tokens", self["tokens"]),
                ("largest_id", "positions", self["largest_id"]),
                ("rope_deltas", "positions", self["rope_deltas"]),
                ("trained_length", "tokens", _nan(self.trained_length)),
                ("factor_from_ids", "", _nan(self["yarn"]["factor_from_ids"])),
                ("factor_from_tokens", "", _nan(self["yarn"]["factor_from_tokens"]))]

    def _draw(self, ax):
        c = self["curve"]
        _plots.budget(ax, c["tokens"], [(a, c["max_" + a]) for a in "thw"], self.trained_length,
                      "Id budget")


class Principles(dict, Shows):
    """principles()'s dict, the fields of `ropescope principles --format json`: "rows", one per
    design judged, each with its label, design, plan, sections and the three principles
    (coherence, frequency, text_prior), each with its verdict ("pass", "fail", "n/a"), the
    reason and the numbers behind it; an undefined number is None with its reason, never 0.
    .plot() draws the verdicts side by side; plot_spectrum() each axis's frequencies."""

    PRINCIPLES = ("coherence", "frequency", "text_prior")

    @property
    def verdicts(self):
        """{label: (coherence, frequency, text prior)} verdict words."""
        return {r["label"]: tuple(r[p]["verdict"] for p in self.PRINCIPLES) for r in self["rows"]}

    def _caption(self):
        return "Design principles (arXiv 2510.23095): " + ", ".join(
            f"{label} {'/'.join(v)}" for label, v in self.verdicts.items())

    def _rows(self):
        return [(r["label"], "", "/".join(r[p]["verdict"] for p in self.PRINCIPLES))
                for r in self["rows"]]

    def _draw(self, ax):
        _plots.principles(ax, self["rows"], "Design principles")

    def plot_spectrum(self, ax=None, row=0):
        """Each axis's frequencies of row `row` on a log scale (a strip per axis), the plan's
        whole range behind them; returns the Axes."""
        if ax is None:
            ax = _plots.new_axes(False)
        else:
            _plots.require()
        _plots.spectrum(ax, self["rows"][row])
        return ax


def _nan(v):
    """None (undefined) as NaN, which shown() writes n/a."""
    return float("nan") if v is None else v


class AttentionValues(Plain, RopeScaled):
    """attention()'s float32 logits or probabilities, [heads, rows, N]: the array itself, with
    .rope, .attention_factor and .logit_scale (RopeScaled)."""

    def __new__(cls, values, rope=None):
        obj = _np.asarray(values).view(cls)
        obj._set_rope(rope)
        return obj

    def __array_finalize__(self, obj):
        self._copy_rope(obj)


class DesignComparison(Shows):
    """PTD and bias spread of one layout under every design (each with its defaults, the
    scene's own design with the scene's parameters): fields design, title, ptd (positions),
    bias_spread, current (the scene's design); NaN where undefined, .undefined says why.
    plot(ax, metric="ptd" or "bias_spread") draws the app's bars."""

    fields = ("design", "title", "ptd", "bias_spread", "current")
    units = {"design": "", "title": "", "ptd": "positions", "bias_spread": "", "current": ""}

    def __init__(self, rows):
        self.design = [r["design"] for r in rows]
        self.title = [r["title"] for r in rows]
        self.ptd = _np.array([r["ptd"] for r in rows], dtype=_np.float64)
        self.bias_spread = _np.array([r["bias_spread"] for r in rows], dtype=_np.float64)
        self.current = _np.array([r["current"] for r in rows], dtype=bool)
        first = rows[0] if rows else {}
        self.undefined = {"ptd": first.get("ptd_undefined", ""),
                          "bias_spread": first.get("bias_undefined", "")}
        self.n_text, self.n_visual = first.get("n_text", 0), first.get("n_visual", 0)

    def __getitem__(self, name):
        if name not in self.fields:
            raise KeyError(f"{name!r} (fields: {', '.join(self.fields)})")
        return getattr(self, name)

    def __len__(self):
        return len(self.design)

    def __repr__(self):
        return f"<DesignComparison of {len(self)} designs>"

    def _caption(self):
        return f"PTD and bias spread of every design ({self.n_text} text, {self.n_visual} visual tokens)"

    def _rows(self):
        return [(f, self.units[f], self[f]) for f in self.fields if f != "title"]

    def plot(self, ax=None, metric="ptd"):
        """Draws the bars of `metric` ("ptd" or "bias_spread") onto `ax` or a new figure."""
        if metric not in ("ptd", "bias_spread"):
            raise ValueError(f'metric must be "ptd" or "bias_spread" (got {metric!r})')
        if ax is None:
            ax = _plots.new_axes()
        else:
            _plots.require()
        self._draw(ax, metric)
        return ax

    def _draw(self, ax, metric="ptd"):
        _plots.design_bars(ax, self.design, self[metric], self.current,
                           "PTD" if metric == "ptd" else "bias spread", self.units[metric],
                           self.undefined[metric])


class BiasProfile(Shows):
    """The distance d and the bias b from text token `text` to every visual token (the
    desktop app's profile): fields visual (token indices), distance (positions), bias."""

    fields = ("visual", "distance", "bias")
    units = {"visual": "", "distance": "positions", "bias": ""}

    def __init__(self, d):
        self.text, self.token = d["text"], d["token"]
        self.visual, self.distance, self.bias = d["visual"], d["distance"], d["bias"]

    def __getitem__(self, name):
        if name not in self.fields:
            raise KeyError(f"{name!r} (fields: {', '.join(self.fields)})")
        return getattr(self, name)

    def __repr__(self):
        return f"<BiasProfile of text token {self.text} over {len(self.visual)} visual tokens>"

    def _caption(self):
        if not len(self.visual):
            return f"Text token {self.text}: n/a (no visual token)"
        return f"Text token {self.text} to every visual token"

    def _rows(self):
        return [(f, self.units[f], self[f]) for f in self.fields]

    def _draw(self, ax):
        _plots.profile(ax, self.distance, self.bias, self._caption())


MODALITIES = ("text", "image", "video", "audio")  # _core.token_info's codes


class Scene(dict, Shows):
    """A scene dict (the scene-file form) that draws its position ids as a 3-D scatter,
    coloured by modality."""

    _three_d = True

    def tokens(self):
        """(ids [N, 3], modality names [N]) of the scene."""
        from . import ids, _token_info
        info = _token_info(self)
        return ids(scene=dict(self)), _np.array(MODALITIES)[info[:, 0]]

    def _caption(self):
        return f"{self.get('layout', '')} under {self.get('design', '')}"

    def _rows(self):
        ids, modality = self.tokens()
        return [("t, h, w", "positions", ids), ("modality", "", modality.tolist())]

    def _draw(self, ax):
        ids, modality = self.tokens()
        _plots.scene_ids(ax, ids, modality, self._caption())


class QkUsage(dict, Shows):
    """qk_usage()'s dict, the fields of `ropescope qk-usage --format json`: tokens, q_heads,
    kv_heads, head_dim, rotary_dim, pair_layout, "pairs" (per rotary pair its axis, theta, dims
    and the mean over heads of q_norm, k_norm, norm_product and share), "heads" (per q head the
    same per pair and its sink per target) and "sinks" (targets, mean, threshold,
    heads_above_threshold; pictures_undefined says why there is no picture target, never 0).
    .plot() draws the norm product per pair by axis; plot_sinks() the sinks per head."""

    units = {"theta": "rad/position", "norm_product": "", "share": "", "sink": ""}

    @property
    def theta(self):
        return _np.array([p["theta"] for p in self["pairs"]], dtype=float)

    @property
    def axis(self):
        return [p["axis"] for p in self["pairs"]]

    @property
    def norm_product(self):
        """[pairs]: the mean over q heads of mean ||q_p|| x mean ||k_p||."""
        return _np.array([p["norm_product"] for p in self["pairs"]], dtype=float)

    @property
    def head_norm_product(self):
        """[q heads, pairs]."""
        return _np.array([h["norm_product"] for h in self["heads"]], dtype=float)

    @property
    def sink_names(self):
        return [t["name"] for t in self["sinks"]["targets"]]

    @property
    def sink(self):
        """[q heads, targets]: mean causal attention on each target over the rows that see it."""
        return _np.array([h["sink"] for h in self["heads"]], dtype=float)

    def _caption(self):
        means = ", ".join(f"{n} {v:.3g}" for n, v in zip(self.sink_names, self["sinks"]["mean"]))
        undefined = self["sinks"].get("pictures_undefined")
        return (f"q/k usage: {self['q_heads']} heads, {len(self['pairs'])} pairs; mean sink "
                + means + (f"; pictures n/a ({undefined})" if undefined else ""))

    def _rows(self):
        return [("norm_product", "", self.norm_product), ("theta", "rad/position", self.theta)] + [
            (f"sink {n}", "", self.sink[:, j]) for j, n in enumerate(self.sink_names)]

    def _draw(self, ax):
        _plots.pair_usage(ax, _np.arange(len(self["pairs"])), self.axis, self.norm_product,
                          "Norm per rotary pair (mean over heads)")

    def plot_sinks(self, ax=None):
        """Each head's mean attention on the first token and on each picture's first token,
        with the sink threshold; returns the Axes."""
        if ax is None:
            ax = _plots.new_axes(False)
        else:
            _plots.require()
        _plots.sinks(ax, self.sink_names, self.sink, self["sinks"]["threshold"], "Attention sinks")
        return ax


class AttentionReadouts(dict, Shows):
    """attention_readouts()'s dict, the fields of `ropescope attention --readouts --format
    json`: design, plan, tokens, heads, qk, "fading" (tokens, visual_share, heads, or
    visual_share None and "undefined" saying why) and "pictures" (per picture its grid, queries,
    mass, top_left, top_row, left_column, border, "uniform" shares, centre_row, centre_col,
    row_share, row_slope; None where undefined, with the reason in "undefined" or
    pictures_undefined, never 0). .plot() draws the visual share against the text token."""

    units = {"visual_share": "", "text_token": "tokens after the last picture"}

    @property
    def fading_tokens(self):
        """The text tokens after the last visual token (indices into the sequence)."""
        return _np.array(self["fading"]["tokens"], dtype=_np.int64)

    @property
    def fading(self):
        """[fading tokens]: the mean over heads of each token's softmax on the visual tokens;
        None when there is no curve (["fading"]["undefined"] says why)."""
        v = self["fading"]["visual_share"]
        return None if v is None else _np.array(v, dtype=float)

    @property
    def fading_heads(self):
        """[heads, fading tokens], or None as .fading."""
        v = self["fading"].get("heads")
        return None if v is None else _np.array(v, dtype=float).reshape(self["heads"], -1)

    @property
    def picture_names(self):
        return [p["name"] for p in self["pictures"]]

    def picture(self, name_or_index):
        """One picture's dict, by its name ("picture 1") or index."""
        if isinstance(name_or_index, str):
            return next(p for p in self["pictures"] if p["name"] == name_or_index)
        return self["pictures"][name_or_index]

    def _caption(self):
        why = self["fading"].get("undefined")
        f = self.fading
        curve = (f"visual share n/a ({why})" if f is None else
                 f"visual share {f[0]:.3g} at the first text token, {f[-1]:.3g} at the last")
        return f"positional read-outs of {self['design']}, {self['qk']} q/k: {curve}"

    def _rows(self):
        f = self.fading
        rows = [("visual_share", "", _np.full(1, _np.nan) if f is None else f)]
        for p in self["pictures"]:
            for key in ("top_left", "border", "centre_row", "centre_col", "row_slope"):
                v = p[key]
                rows.append((f"{p['name']} {key}", "", _np.nan if v is None else v))
        return rows

    def _draw(self, ax):
        f = self.fading
        why = self["fading"].get("undefined")
        _plots.fading(ax, _np.arange(1, len(self["fading"]["tokens"]) + 1), f,
                      f"Visual fading: {self['design']}" + (f" (n/a: {why})" if f is None else ""))
