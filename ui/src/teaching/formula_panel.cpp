#include "teaching/formula_panel.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

#include "figures/figure_charts.h"
#include "model/scene_model.h"
#include "ropescope/position_design.h"
#include "style/axis_colors.h"
#include "style/metric_text.h"

namespace ropescope::ui {

namespace {

// Where a design's distances are measured, as the Ids line says it ("in the space space" read
// the core's one-word name into a phrase that already said "space").
QString distanceSpaceText(MetricSpace space) {
  switch (space) {
    case MetricSpace::Line:
      return QStringLiteral("along the line of t");
    case MetricSpace::Plane:
      return QStringLiteral("in the (h, w) plane");
    case MetricSpace::Space:
      return QStringLiteral("in (t, h, w) space");
    case MetricSpace::FourMaps:
      return QStringLiteral("over the four maps");
  }
  return QString();
}

const char* const kAxisNames[3] = {"t", "h", "w"};

// `axis`: static_cast<int>(Axis); the colours of axis_colors.h.
QString colourOf(int axis) {
  return axisColor(axis).name();
}

// "10<sup>6</sup>" for a power of ten, else the number.
QString baseText(double base) {
  const double e = std::log10(base);
  if (std::abs(e - std::round(e)) < 1e-12 && e >= 1)
    return QStringLiteral("(10<sup>%1</sup>)").arg(static_cast<int>(std::round(e)));
  return formatNumber(base);
}

QString deltaText(const Id3& d) {
  return QStringLiteral("(%1, %2, %3)")
      .arg(formatNumber(d[0]), formatNumber(d[1]), formatNumber(d[2]));
}

QString line(const QString& what, const QString& math) {
  return QStringLiteral("<div style='margin-bottom:3px'><b>%1</b>&nbsp; %2</div>").arg(what, math);
}

// Which q/k dims the pairs rotate under the layout (core's pairDims), and the dims that pass
// through under partial rotary. Only where it says more than the common case (NeoX over the
// whole head): one more line for every scene would push the window past a laptop's height.
QString pairsLine(const RotaryConfig& rotary) {
  const int n = rotary.pairCount(), d = rotary.headDim;
  if (n < 1 || (rotary.pairs == PairLayout::NeoX && 2 * n >= d)) return {};
  const bool gptj = rotary.pairs == PairLayout::GptJ;
  const PairDims first = pairDims(rotary.pairs, 0, n), last = pairDims(rotary.pairs, n - 1, n);
  QString text =
      QStringLiteral("%1: pair k rotates q/k dims %2; k = 0: %3, %4; k = %5: %6, %7")
          .arg(gptj ? QStringLiteral("GPT-J") : QStringLiteral("NeoX (rotate_half)"),
               gptj ? QStringLiteral("(2k, 2k + 1)") : QStringLiteral("(k, k + %1)").arg(n))
          .arg(first.first)
          .arg(first.second)
          .arg(n - 1)
          .arg(last.first)
          .arg(last.second);
  if (2 * n < d)
    text += QStringLiteral("; dims %1…%2 pass through (partial rotary)").arg(2 * n).arg(d - 1);
  return line(QStringLiteral("Pairs"), text);
}

}  // namespace

QString formatNumber(double v, int digits) {
  if (!std::isfinite(v)) return QStringLiteral("—");
  if (std::abs(v) < 1e-12) v = 0.0;
  QString s = QString::number(v, 'g', digits);
  if (s.contains(QLatin1Char('e'))) {
    // 1.5e-07 -> 1.5·10⁻⁷ typeset
    const qsizetype at = s.indexOf(QLatin1Char('e'));
    const int exponent = s.mid(at + 1).toInt();
    s = s.left(at) + QStringLiteral("·10<sup>%1</sup>").arg(exponent);
  }
  s.replace(QLatin1Char('-'), QChar(0x2212));
  return s;
}

FormulaPanel::FormulaPanel(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("formulaPanel"));
  setTextFormat(Qt::RichText);
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setAlignment(Qt::AlignLeft | Qt::AlignTop);
  setMargin(6);
  setDark(true);
}

void FormulaPanel::setFormulas(const QString& html) {
  setText(html);
}

void FormulaPanel::follow(SceneModel* model, Formulas formulas) {
  const auto show = [this, model, formulas] {
    setFormulas(formulas(model->validScene(), model->metrics()));
  };
  connect(model, &SceneModel::changed, this, show);
  connect(model, &SceneModel::biasChanged, this, show);
  show();
}

void FormulaPanel::setDark(bool dark) {
  setStyleSheet(dark ? QStringLiteral("QLabel { background: #25272b; color: #e6e6e6; "
                                      "border: 1px solid #444; font-size: 12px; }")
                     : QStringLiteral("QLabel { background: #f7f7f2; color: #202020; "
                                      "border: 1px solid #c8c8c8; font-size: 12px; }"));
}

QString ropeScalingLine(const PairTable& pairs, const RopeScaling& rope) {
  if (!pairs.scaled()) return {};
  QString text =
      QStringLiteral(
          "%1: θ<sub>k</sub> scaled per pair, %2; attention factor <b>%3</b> "
          "multiplies cos and sin, so every logit × <b>%4</b> (its square)")
          .arg(QString::fromStdString(pairs.ropeType),
               figure::scalingCountsText(pairs).toHtmlEscaped(),
               formatNumber(pairs.attentionFactor, 5), formatNumber(pairs.logitScale(), 5));
  if (pairs.switchLength > 0) {
    if (rope.maxPositionId < 0)
      text += QStringLiteral("; switch past seq_len %1, no max position id: as built")
                  .arg(pairs.switchLength);
    else
      text += QStringLiteral("; switch past seq_len %1 (max id + 1): max id %2 is %3")
                  .arg(pairs.switchLength)
                  .arg(rope.maxPositionId)
                  .arg(pairs.switched ? QStringLiteral("<b>past it</b>")
                                      : QStringLiteral("not past it"));
  }
  return line(QStringLiteral("Rope scaling"), text);
}

QString phasorFormulas(const Phasor& ph, const RotaryConfig& rotary, const AxisBias* equal,
                       double distance, const PairTable* pairs) {
  const int n = static_cast<int>(ph.pairs.size());
  const int d = rotary.effectiveRotaryDim();
  const bool scaled = pairs && pairs->scaled();
  QStringList out;
  out << line(
      QStringLiteral("Frequency"),
      QStringLiteral("θ<sub>k</sub> = %4b<sup>−2k/d</sup> = %1<sup>−2k/%2</sup>, "
                     "k = 0…%3")
          .arg(baseText(rotary.base))
          .arg(d)
          .arg(n - 1)
          .arg(scaled ? QStringLiteral("%1-scaled ").arg(QString::fromStdString(pairs->ropeType))
                      : QString()));
  if (scaled) {
    out << line(
        QStringLiteral("Attention factor"),
        QStringLiteral("<b>%1</b> multiplies cos and sin (%2): logits × <b>%3</b>")
            .arg(formatNumber(pairs->attentionFactor, 5), QString::fromStdString(pairs->ropeType),
                 formatNumber(pairs->logitScale(), 5)));
  }
  out << pairsLine(rotary);
  out << line(QStringLiteral("Phase"),
              QStringLiteral("φ<sub>k</sub> = θ<sub>k</sub>·Δ<sub>a(k)</sub>, "
                             "Δ = (Δ<sub>t</sub>, Δ<sub>h</sub>, Δ<sub>w</sub>) = %1")
                  .arg(deltaText(ph.delta)));
  // The fastest pair of each axis (the first of its section).
  QStringList examples;
  bool seen[5] = {false, false, false, false, false};  // by Axis
  for (int k = 0; k < n; ++k) {
    const PhasorPair& p = ph.pairs[k];
    const int a = std::clamp(static_cast<int>(p.axis), 0, 4);
    if (seen[a]) continue;
    seen[a] = true;
    examples << QStringLiteral(
                    "<span style='color:%1'>φ<sub>%2</sub></span> = %3·%4 = %5 "
                    "rad = %6 turns, drawn at %7 rad")
                    .arg(colourOf(a))
                    .arg(k)
                    .arg(formatNumber(p.theta, 4))
                    .arg(formatNumber(axisCoordinate(p.axis, ph.delta)))
                    .arg(formatNumber(p.phase, 5))
                    .arg(formatNumber(p.turns, 4))
                    .arg(formatNumber(p.wrapped, 4));
  }
  out << line(QString(), examples.join(QStringLiteral("<br>")));
  out << line(QStringLiteral("Spiral"),
              QStringLiteral("S<sub>j</sub> = Σ<sub>k&lt;j</sub> e<sup>iφ<sub>k</sub></sup>, "
                             "j = 1…%1; |S<sub>%1</sub>| = %2")
                  .arg(n)
                  .arg(formatNumber(std::hypot(ph.endRe, ph.endIm), 5)));
  out << line(QStringLiteral("Decay bound"),
              QStringLiteral("U(Δ) = <sup>1</sup>⁄<sub>%1</sub> Σ<sub>j</sub> |S<sub>j</sub>| = "
                             "<b>%2</b> &nbsp;(U(0) = <sup>%3</sup>⁄<sub>2</sub> = %4)")
                  .arg(n)
                  .arg(formatNumber(ph.decayBound, 6))
                  .arg(n + 1)
                  .arg(formatNumber((n + 1) / 2.0)));
  QStringList perAxis;
  for (int a = 0; a < 4; ++a)  // coordinate slots
    if (ph.axisPairs[a] > 0)
      perAxis << QStringLiteral("<span style='color:%1'>%2: %3 (%4 pairs)</span>")
                     .arg(colourOf(static_cast<int>(kCoordinateAxes[a])),
                          QLatin1String(axisName(kCoordinateAxes[a])),
                          formatNumber(ph.axisBias[a], 4))
                     .arg(ph.axisPairs[a]);
  out << line(QStringLiteral("Bias"),
              QStringLiteral("b(Δ) = <sup>1</sup>⁄<sub>%1</sub> Σ<sub>k</sub> cos φ<sub>k</sub> = "
                             "<b>%2</b>; mean cos per axis: %3")
                  .arg(n)
                  .arg(formatNumber(ph.bias, 6))
                  .arg(perAxis.join(QStringLiteral(", "))));
  if (equal) {
    const QString d = formatNumber(distance);
    out << line(QStringLiteral("Same distance"),
                QStringLiteral("b(%1,0,0) = <span style='color:%5'>%2</span>, b(0,%1,0) = <span "
                               "style='color:%6'>%3</span>, b(0,0,%1) = <span "
                               "style='color:%7'>%4</span>, b(%1,%1,%1) = %8")
                    .arg(d, formatNumber(equal->t, 5), formatNumber(equal->h, 5),
                         formatNumber(equal->w, 5), colourOf(0), colourOf(1), colourOf(2))
                    .arg(formatNumber(equal->text, 5)));
  }
  return out.join(QString());
}

QString chartsFormulas(const Scene& scene, const SceneMetrics& m) {
  const int n = m.pairs.size();
  const int d = scene.frequency.rotary.effectiveRotaryDim();
  QStringList out;
  QStringList tail;
  for (int a = 0; a < 3; ++a)
    if (!m.decayAxis[a].empty())
      tail << QStringLiteral("<span style='color:%1'>%2: %3</span>")
                  .arg(colourOf(a), QLatin1String(kAxisNames[a]),
                       formatNumber(m.decayAxis[a].back(), 5));
  const int maxD = m.decayAxis[0].empty() ? 0 : static_cast<int>(m.decayAxis[0].size()) - 1;
  out << line(QStringLiteral("Decay"),
              QStringLiteral("U(δ) = <sup>1</sup>⁄<sub>%1</sub> Σ<sub>j=1</sub><sup>%1</sup> "
                             "|Σ<sub>k&lt;j</sub> e<sup>iθ<sub>k</sub>δ<sub>a(k)</sub></sup>|, "
                             "U(0) = %2; at δ = %3: %4")
                  .arg(n)
                  .arg(formatNumber((n + 1) / 2.0))
                  .arg(maxD)
                  .arg(tail.join(QStringLiteral(", "))));
  out << line(
      QStringLiteral("PTD"),
      QStringLiteral("<sup>1</sup>⁄<sub>N<sub>t</sub>N<sub>v</sub></sub> "
                     "Σ<sub>t</sub>Σ<sub>i</sub> |d(t,i) − d̄<sub>t</sub>|, "
                     "N<sub>t</sub> = %1, N<sub>v</sub> = %2: <b>%3</b> (%4)%5")
          .arg(m.ptd.nText)
          .arg(m.ptd.nVisual)
          .arg(metricText(m.ptd.ptd, m.ptd.undefinedReason))
          .arg(QString::fromStdString(m.designUsed))
          .arg(m.pairs.scaled() ? QStringLiteral("; unchanged by the rope scaling (ids only)")
                                : QString()));
  out << line(QStringLiteral("Bias spread"),
              QStringLiteral("b(δ) = <sup>1</sup>⁄<sub>%1</sub> Σ<sub>k</sub> cos θ<sub>k</sub>"
                             "δ<sub>a(k)</sub>; mean over t of the mean |b − b̄<sub>t</sub>| over "
                             "the visual tokens: <b>%2</b>")
                  .arg(n)
                  .arg(biasSpreadText(m, true)));
  QString waveTail;
  if (!m.wavelengths.empty() && m.wavelengths.front().wavelength && m.wavelengths.back().wavelength)
    waveTail = QStringLiteral(": λ<sub>0</sub> = %1, λ<sub>%2</sub> = %3")
                   .arg(formatNumber(*m.wavelengths.front().wavelength, 4))
                   .arg(m.wavelengths.size() - 1)
                   .arg(formatNumber(*m.wavelengths.back().wavelength, 4));
  out << line(
      QStringLiteral("Wavelength"),
      QStringLiteral("λ<sub>k</sub> = 2π/θ<sub>k</sub>, θ<sub>k</sub> = "
                     "%4%1<sup>−2k/%2</sup>%3")
          .arg(baseText(scene.frequency.rotary.base))
          .arg(d)
          .arg(waveTail)
          .arg(m.pairs.scaled()
                   ? QStringLiteral("%1-scaled ").arg(QString::fromStdString(m.pairs.ropeType))
                   : QString()));
  out << ropeScalingLine(m.pairs, scene.frequency.rope);
  out << pairsLine(scene.frequency.rotary);
  return out.join(QString());
}

QString positionFormulas(const Scene& scene, const SceneMetrics& m) {
  QStringList out;
  const std::string design = m.designUsed.empty() ? scene.design : m.designUsed;
  // PTD reads the ids only: a rope scaling changes the frequencies, not the distances.
  const QString ropeNote =
      m.pairs.scaled() ? QStringLiteral(" (unchanged by the rope scaling)") : QString();
  QString spread;
  if (!m.selectedDistance.empty()) {
    const auto [lo, hi] = std::minmax_element(m.selectedDistance.begin(), m.selectedDistance.end());
    spread = QStringLiteral("; text token %1 to the visual tokens: d ∈ [%2, %3]")
                 .arg(scene.selectedText)
                 .arg(formatNumber(*lo, 5), formatNumber(*hi, 5));
  }
  if (design == "circle") {
    std::vector<ParameterSpec> specs;
    try {
      specs = findDesign("circle").parameters();
    } catch (const std::exception&) {
    }
    const auto get = [&](const char* key) { return scene.designParams.get(key, specs); };
    const bool autoR = get("radius_mode") == 1.0;
    out << line(QStringLiteral("Cone"),
                QStringLiteral("p<sub>i</sub> = s·(1,1,1) + R·(cos ϑ<sub>i</sub>·u + sin "
                               "ϑ<sub>i</sub>·v), u, v ⟂ (1,1,1)"));
    out << line(QStringLiteral("Angle"),
                QStringLiteral("ϑ<sub>i</sub> = α·SA<sub>i</sub> + (1 − α)·GA<sub>i</sub>, "
                               "α = %1; R = %2")
                    .arg(formatNumber(get("alpha"), 4))
                    .arg(autoR ? QStringLiteral("auto (k = %1)").arg(formatNumber(get("auto_k"), 4))
                               : formatNumber(get("radius"), 5)));
    out << line(QStringLiteral("DFF"),
                QStringLiteral("(1 − β)·ring + β·projected grid, β = %1: PTD = <b>%2</b>%3")
                    .arg(formatNumber(get("dff"), 4))
                    .arg(metricText(m.ptd.ptd, m.ptd.undefinedReason) + ropeNote)
                    .arg(spread));
  } else {
    out << line(QStringLiteral("Ids"),
                QStringLiteral("%1: every token at %5; distance d = ‖p<sub>t</sub> − "
                               "p<sub>i</sub>‖ %2; PTD = <b>%3</b>%4")
                    .arg(QString::fromStdString(design), distanceSpaceText(m.ids.space))
                    .arg(metricText(m.ptd.ptd, m.ptd.undefinedReason) + ropeNote)
                    .arg(spread)
                    .arg(m.ids.space == MetricSpace::FourMaps ? QStringLiteral("(t, h, w, h+w−t)")
                                                              : QStringLiteral("(t, h, w)")));
  }
  return out.join(QString());
}

}  // namespace ropescope::ui
