// Formula panels: beside each chart and view, what is plotted as careful Unicode/HTML math, with
// the current numbers substituted (n pairs, base, the value at the current Δ, the design's
// parameters). The numbers come from core (SceneMetrics, Phasor); this file only typesets them.
#pragma once

#include <QLabel>
#include <QString>

#include <functional>

#include "ropescope/phasor.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::ui {

class SceneModel;

// A compact rich-text panel; selectable, so a formula can be copied.
class FormulaPanel : public QLabel {
  Q_OBJECT
 public:
  using Formulas = std::function<QString(const Scene&, const SceneMetrics&)>;

  explicit FormulaPanel(QWidget* parent = nullptr);
  void setFormulas(const QString& html);
  // Observes `model`: shows formulas(its valid scene, its metrics) now and after each change
  // the model reports, the panel's own view of the model (no window drives it).
  void follow(SceneModel* model, Formulas formulas);
  void setDark(bool dark);
};

// θ_k, φ_k, S_j, U and b for the phasor view at one displacement.
// equal: b at the same distance along t, h, w and (d, d, d), or null to leave that line out.
// pairs: the table the phasor was computed from; with a rope scaling its lines say so (the θ
// are the scaled ones) and give the attention factor.
QString phasorFormulas(const Phasor& phasor, const RotaryConfig& rotary,
                       const AxisBias* equal = nullptr, double distance = 0.0,
                       const PairTable* pairs = nullptr);
// With a rope scaling (pairs.scaled()): the type, what it did per axis, the attention factor and
// the logit scale, and for a sequence-dependent type its switch; empty without one.
QString ropeScalingLine(const PairTable& pairs, const RopeScaling& rope);
// The charts: decay bound per axis, PTD and bias spread, wavelengths.
QString chartsFormulas(const Scene& scene, const SceneMetrics& metrics);
// The 3-D view: the ids of the design (the cone for Circle-RoPE, with α, R, β).
QString positionFormulas(const Scene& scene, const SceneMetrics& metrics);

// Number formatting shared by the panels: up to `digits` significant digits, Unicode minus.
QString formatNumber(double v, int digits = 6);

}  // namespace ropescope::ui
