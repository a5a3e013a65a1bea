"""The figures ropescope exports (docs/user/figures.md), drawn with matplotlib onto an Axes: the
decay bound per axis, the id budget (largest id per axis against tokens), the design-principles
verdicts and each axis's frequency strip, the PTD and bias-spread bars of every design, the bias profile of a text
token, the wavelength of every pair, real q/k's norm per pair and sinks per head, and a scene's
position ids as a 3-D scatter. The colours are
the desktop app's (ui/src/style/axis_colors.h, modality_colors.h, figures/figure_style.cpp).

matplotlib is optional: it is imported when a figure is drawn, and its absence is one line
saying what to install."""

import io as _io
import math as _math

import numpy as _np

MISSING = ("plot() needs matplotlib: install python3-matplotlib (Debian) or "
           "`pip install matplotlib` in this environment")

# t, h, w, h+w-t (VRoPE's fourth map); the app's colours and line styles (h dashed, w dotted:
# coincident curves stay visible).
AXIS_COLOURS = {"t": (228, 87, 86), "h": (84, 178, 75), "w": (76, 140, 220),
                "h+w-t": (160, 90, 200)}
AXIS_LINES = {"t": "-", "h": "--", "w": ":", "h+w-t": "-."}
MODALITY_COLOURS = {"text": (90, 90, 90), "image": (245, 140, 40), "video": (170, 100, 230),
                    "audio": (30, 190, 200)}
NEUTRAL_BAR, CURRENT, DISTANCE, BIAS = (150, 165, 190), (215, 40, 140), (40, 90, 200), (210, 100, 20)
STREAM = (128, 128, 128)


def rgb(c):
    return tuple(v / 255 for v in c)


def require():
    """matplotlib, or ImportError with the one line that says what to install."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise ImportError(MISSING) from None
    return matplotlib


def available():
    try:
        require()
    except ImportError:
        return False
    return True


def new_axes(three_d=False):
    """An Axes on a new pyplot figure (shown inline in Jupyter), one column wide (3.5 in)."""
    require()
    import matplotlib.pyplot as plt
    fig = plt.figure(figsize=(3.5, 3.5 if three_d else 2.5), layout="constrained")
    return fig.add_subplot(projection="3d" if three_d else None)


def png(draw, three_d=False):
    """PNG bytes of a figure drawn by draw(ax), off pyplot (no window, no global state); None
    without matplotlib (Jupyter then shows the other representations)."""
    if not available():
        return None
    from matplotlib.figure import Figure
    fig = Figure(figsize=(3.5, 3.5 if three_d else 2.5), dpi=150, layout="constrained")
    draw(fig.add_subplot(projection="3d" if three_d else None))
    out = _io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def decay(ax, distance, curves, title):
    """curves: [(label, axis key or None, U)]; U against the relative distance."""
    for label, axis, u in curves:
        colour = rgb(AXIS_COLOURS.get(axis, STREAM))
        ax.plot(distance, u, AXIS_LINES.get(axis, "-."), color=colour, lw=1, label=label)
    ax.set_xlabel("relative distance \u03b4 (positions)")
    ax.set_ylabel("decay bound U(\u03b4)")
    ax.set_xlim(0, max(1, distance[-1]) if len(distance) else 1)
    ax.set_ylim(bottom=0)  # U is a mean of moduli: never below 0
    ax.legend(loc="upper right", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


def budget(ax, tokens, largest, trained, title):
    """largest: [(axis key, running largest id)] against the tokens so far; the diagonal is one
    id per token (a 1-D rotary), the horizontal line the trained length (None: not drawn)."""
    top = float(tokens[-1]) if len(tokens) else 1.0
    ax.plot([0, top], [0, top], "-", color=rgb(STREAM), lw=0.8, label="one id per token")
    for axis, values in largest:
        ax.plot(tokens, values, AXIS_LINES.get(axis, "-"), color=rgb(AXIS_COLOURS.get(axis, STREAM)),
                lw=1, label=f"largest {axis} id")
    if trained is not None:
        ax.axhline(trained, color=rgb(CURRENT), lw=0.8, ls="--", label="trained length")
    ax.set_xlabel("tokens")
    ax.set_ylabel("largest position id")
    ax.set_xlim(0, max(1.0, top))
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


VERDICT_COLOURS = {"pass": (120, 190, 120), "fail": (225, 110, 100), "n/a": (200, 200, 200)}


def principles(ax, rows, title):
    """One row per design, one column per principle, each cell coloured by its verdict and
    labelled with the number behind it (core's principlesCells, the rows' "cells")."""
    names = ["position coherence", "frequency use", "textual prior"]
    keys = ("coherence", "frequency", "text_prior")
    n = len(rows)
    for i, row in enumerate(rows):
        y = n - 1 - i
        for j, key in enumerate(keys):
            verdict = row[key]["verdict"]
            ax.add_patch(_patch(j, y, rgb(VERDICT_COLOURS.get(verdict, (200, 200, 200)))))
            ax.text(j + 0.5, y + 0.62, verdict, ha="center", va="center", fontsize="small",
                    weight="bold")
            ax.text(j + 0.5, y + 0.3, row["cells"][j], ha="center", va="center",
                    fontsize="x-small")
    ax.set_xlim(0, 3)
    ax.set_ylim(0, max(1, n))
    ax.set_xticks([0.5, 1.5, 2.5])
    ax.set_xticklabels(names, fontsize="small")
    ax.xaxis.tick_top()
    ax.set_yticks([n - 1 - i + 0.5 for i in range(n)])
    ax.set_yticklabels([r["label"] for r in rows], fontsize="small")
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(title, fontsize="medium", pad=24)
    return ax


def _patch(x, y, colour):
    from matplotlib.patches import Rectangle
    return Rectangle((x + 0.03, y + 0.05), 0.94, 0.9, color=colour, lw=0)


def spectrum(ax, row):
    """A strip per axis: a tick at log10 of each frequency the axis turns with, the plan's range
    shaded; an axis with no rotating pair says so (HoPE's time: frequency 0)."""
    f = row["frequency"]
    lo, hi = _math.log10(f["plan_lowest"]), _math.log10(f["plan_highest"])
    for i, a in enumerate(f["axes"]):
        y = len(f["axes"]) - 1 - i
        ax.axhspan(y - 0.35, y + 0.35, xmin=0, xmax=1, color=rgb((235, 235, 235)), lw=0)
        xs = [_math.log10(t) for t in a["thetas"] if t > 0]
        colour = rgb(AXIS_COLOURS.get(a["axis"], STREAM))
        ax.vlines(xs, y - 0.3, y + 0.3, color=colour, lw=1)
        if not xs:
            why = (f"no rotating pair; the plan has {f['nope_pairs']} at frequency 0 (NoPE)"
                   if f["nope_pairs"] or a["pairs"] else "no pair")
            ax.text((lo + hi) / 2, y, why, ha="center", va="center", fontsize="small")
    ax.set_yticks(range(len(f["axes"])))
    ax.set_yticklabels([a["axis"] for a in f["axes"]][::-1])
    ax.set_xlim(lo - 0.1, hi + 0.1)
    ax.set_xlabel("log10 frequency (radians per position)")
    ax.set_title(f"Frequencies per axis: {row['label']} (plan {row['plan']})", fontsize="medium")
    return ax


def design_bars(ax, names, values, current, what, unit, undefined):
    """Horizontal bars, one per design, the scene's design marked; NaN draws no bar (never 0)
    and an undefined metric says why in the title."""
    y = _np.arange(len(names))[::-1]
    shown = _np.where(_np.isnan(values), 0.0, values)
    colours = [rgb(CURRENT if c else NEUTRAL_BAR) for c in current]
    bars = ax.barh(y, shown, color=colours, height=0.7)
    for bar, v in zip(bars, values):
        if _math.isnan(v):
            bar.set_visible(False)
        else:
            ax.annotate(f"{v:.4g}", (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                        xytext=(2, 0), textcoords="offset points", va="center",
                        fontsize="x-small")
    ax.set_yticks(y, [("\u25b8 " if c else "") + n for n, c in zip(names, current)],
                  fontsize="x-small")
    ax.set_xlabel(f"{what} ({unit})" if unit else what)
    top = _np.nanmax(values) if not _np.all(_np.isnan(values)) else 0.0
    ax.set_xlim(0, top * 1.3 if top > 0 else 1.0)
    title = f"{what} of every design"
    if undefined:
        title += f": n/a ({undefined})"
    ax.set_title(title, fontsize="medium")
    return ax


def profile(ax, distance, bias, title):
    """Distance (left axis) and bias (right axis) from one text token to every visual token."""
    x = _np.arange(len(distance))
    ax.plot(x, distance, color=rgb(DISTANCE), lw=1, label="distance")
    ax.set_xlabel("visual token index")
    ax.set_ylabel("distance d", color=rgb(DISTANCE))
    right = ax.twinx()
    right.plot(x, bias, color=rgb(BIAS), lw=1, label="bias")
    right.set_ylabel("bias b", color=rgb(BIAS))
    ax.set_title(title, fontsize="medium")
    return ax


def wavelengths(ax, index, axis, wavelength, title):
    """The wavelength 2\u03c0/\u03b8 of every pair on a log scale, coloured by its axis; NoPE
    pairs (no wavelength) are counted in the title, not drawn."""
    for name in AXIS_COLOURS:
        keep = (_np.asarray(axis) == name) & ~_np.isnan(wavelength)
        if keep.any():
            ax.scatter(index[keep], wavelength[keep], s=6, color=rgb(AXIS_COLOURS[name]),
                       label=f"axis {name}")
    ax.set_yscale("log")
    ax.set_xlabel("pair index p")
    ax.set_ylabel("wavelength (positions)")
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


def scene_ids(ax, ids, modality, title):
    """Position ids (t, h, w) as a static 3-D scatter coloured by modality."""
    for name, colour in MODALITY_COLOURS.items():
        keep = _np.asarray(modality) == name
        if keep.any():
            ax.scatter(ids[keep, 0], ids[keep, 1], ids[keep, 2], s=8, color=rgb(colour),
                       label=name, depthshade=False)
    ax.set_xlabel("t")
    ax.set_ylabel("h")
    ax.set_zlabel("w")
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


def pair_usage(ax, index, axis, product, title):
    """The mean norm product ||q_p|| ||k_p|| of every rotary pair as bars coloured by the axis the
    plan gives the pair (NoPE pairs grey)."""
    axis = _np.asarray(axis)
    for name in list(AXIS_COLOURS) + ["none"]:
        keep = axis == name
        if keep.any():
            ax.bar(_np.asarray(index)[keep], _np.asarray(product)[keep], width=0.8,
                   color=rgb(AXIS_COLOURS.get(name, STREAM)), label=f"axis {name}")
    ax.set_xlabel("pair index p")
    ax.set_ylabel("mean ||q_p|| ||k_p||")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


def sinks(ax, names, values, threshold, title):
    """Each head's mean attention on each sink target (grouped bars, one group per head), the
    sink threshold as a dashed line."""
    values = _np.asarray(values, dtype=float)
    heads, targets = values.shape
    width = 0.8 / max(1, targets)
    for j, name in enumerate(names):
        colour = STREAM if j == 0 else MODALITY_COLOURS["image"]
        ax.bar(_np.arange(heads) + (j - (targets - 1) / 2) * width, values[:, j], width=width,
               color=rgb(colour), alpha=1.0 if j < 2 else 0.6, label=name)
    ax.axhline(threshold, color=rgb(CURRENT), lw=0.8, ls="--", label=f"threshold {threshold}")
    ax.set_xticks(_np.arange(heads))
    ax.set_xlabel("head")
    ax.set_ylabel("mean attention")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper right", fontsize="small", frameon=False)
    ax.set_title(title, fontsize="medium")
    return ax


def fading(ax, text_index, share, title):
    """The share of each text token's attention on the visual tokens against its place in the
    text after the last picture; nothing drawn when the share is n/a (None)."""
    if share is not None:
        ax.plot(text_index, share, "-", color=rgb(STREAM), lw=1)
    ax.set_xlabel("text token after the last picture")
    ax.set_ylabel("attention on visual tokens")
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize="medium")
    return ax
