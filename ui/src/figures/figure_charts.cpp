#include "figures/figure_charts.h"
#include "figures/zero_bar_labels.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "ropescope/axis_ticks.h"
#include "ropescope/metrics.h"
#include "ropescope/polyline_decimation.h"
#include "ropescope/position_design.h"
#include "style/axis_colors.h"
#include "style/metric_text.h"

namespace ropescope::ui::figure {

namespace {

constexpr const char* kAxisNames[3] = {"t", "h", "w"};

std::unique_ptr<QChart> newChart(const QString& title) {
  auto chart = std::make_unique<QChart>();
  chart->setTitle(title);
  chart->legend()->setAlignment(Qt::AlignTop);
  return chart;
}

QPen linePen(const QColor& c, double width = kLineWidth) {
  QPen pen(c);
  pen.setWidthF(width);
  pen.setCapStyle(Qt::RoundCap);
  pen.setJoinStyle(Qt::RoundJoin);
  return pen;
}

// The series before a rope scaling are named by the chart's note, not its legend (which has
// room for the axes only); a series shown again gets its marker back, so this runs after each.
template <typename Series>
void hideFromLegend(QChart* chart, Series* const* series, int count) {
  for (int i = 0; i < count; ++i)
    if (series[i])
      for (QLegendMarker* m : chart->legend()->markers(series[i])) m->setVisible(false);
}

void roundTicks(QValueAxis* axis, double lo, double hi) {
  axis->setRange(lo, hi);
  axis->setTickType(QValueAxis::TicksDynamic);
  axis->setTickAnchor(0);
  axis->setTickInterval(roundTickStep(hi - lo));
}

}  // namespace

QPen axisCurvePen(int axis, double width) {
  QPen pen = linePen(axisColor(axis), width);
  // Coincident curves (MHRoPE, vanilla RoPE) draw later ones over earlier: h dashed and w
  // dotted keep every axis visible.
  if (axis == 1) pen.setStyle(Qt::DashLine);
  if (axis == 2) pen.setStyle(Qt::DotLine);
  return pen;
}

void showLineStylesInLegend(QChart* chart) {
  chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  // Qt gives a line's marker the series' colour and width but a solid pen: copy the pattern.
  for (QAbstractSeries* s : chart->series())
    if (auto* line = qobject_cast<QLineSeries*>(s))
      for (QLegendMarker* m : chart->legend()->markers(line)) m->setPen(line->pen());
}

AxisTicks fitAxis(QValueAxis* axis, double lo, double hi) {
  // One change per property: each change of an axis lays out its series again (a click on a
  // text token refits both of the profile's axes).
  const AxisTicks t = fitAxisTicks(lo, hi);
  axis->setRange(t.min, t.max);
  if (t.interval > 0) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0);
    axis->setTickInterval(t.interval);
  } else {
    axis->setTickType(QValueAxis::TicksFixed);
    axis->setTickCount(t.ticks);
  }
  return t;
}

QString streamCurveName() {
  return QStringLiteral("along t = h = w (audio)");
}

QPen streamCurvePen(double width) {
  QPen pen(QColor(128, 128, 128));
  pen.setWidthF(width);
  pen.setStyle(Qt::DashDotLine);
  return pen;
}

std::unique_ptr<QChart> decayChart(const std::vector<double>& distance,
                                   const std::array<std::vector<double>, 3>& curves,
                                   const QString& title, const FigureOptions& o,
                                   const std::vector<double>& stream,
                                   const std::array<std::vector<double>, 3>& unscaled) {
  auto chart = newChart(title);
  const DecayParts parts =
      addDecayParts(chart.get(), {!curves[0].empty(), !curves[1].empty(), !curves[2].empty()},
                    !stream.empty(), ChartLook::Publication);
  plotDecay(parts, distance, curves, stream, ChartLook::Publication, unscaled);
  styleChart(chart.get(), o);
  colorDecay(parts);
  // A figure has no note under it: one faint curve names them all in the legend.
  for (QLineSeries* series : parts.unscaled)
    if (series && series->isVisible()) {
      series->setName(QStringLiteral("before scaling"));
      for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(true);
      break;
    }
  return chart;
}

DecayParts addDecayParts(QChart* chart, const std::array<bool, 3>& axes, bool stream,
                         ChartLook look) {
  DecayParts parts;
  parts.chart = chart;
  parts.x = new QValueAxis;
  parts.x->setTitleText(QString::fromUtf8("relative distance \xce\xb4 (positions)"));
  parts.x->setLabelFormat(QStringLiteral("%d"));
  parts.y = new QValueAxis;
  parts.y->setTitleText(QString::fromUtf8("decay bound U(\xce\xb4)"));
  if (look == ChartLook::Publication) parts.y->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(parts.x, Qt::AlignBottom);
  chart->addAxis(parts.y, Qt::AlignLeft);
  const auto add = [&](const QString& name) {
    auto* series = new QLineSeries;
    series->setName(name);
    chart->addSeries(series);
    series->attachAxis(parts.x);
    series->attachAxis(parts.y);
    return series;
  };
  // The curves before a rope scaling first: drawn under the scaled ones.
  for (int a = 0; a < 3; ++a)
    if (axes[static_cast<std::size_t>(a)])
      parts.unscaled[a] =
          add(QStringLiteral("along %1, before scaling").arg(QLatin1String(kAxisNames[a])));
  for (int a = 0; a < 3; ++a)
    if (axes[static_cast<std::size_t>(a)])
      parts.axis[a] = add(QStringLiteral("along %1").arg(QLatin1String(kAxisNames[a])));
  if (stream) parts.stream = add(streamCurveName());
  return parts;
}

void plotDecay(const DecayParts& parts, const std::vector<double>& distance,
               const std::array<std::vector<double>, 3>& curves, const std::vector<double>& stream,
               ChartLook look, const std::array<std::vector<double>, 3>& unscaled) {
  double hi = 0;
  const auto plot = [&](QLineSeries* series, const std::vector<double>& curve) {
    if (!series) return;
    QList<QPointF> pts;
    pts.reserve(static_cast<qsizetype>(std::min(curve.size(), distance.size())));
    for (std::size_t i = 0; i < curve.size() && i < distance.size(); ++i) {
      pts.append(QPointF(distance[i], curve[i]));
      hi = std::max(hi, curve[i]);
    }
    series->replace(pts);
  };
  for (int a = 0; a < 3; ++a) plot(parts.axis[a], curves[static_cast<std::size_t>(a)]);
  for (int a = 0; a < 3; ++a) {
    if (!parts.unscaled[a]) continue;
    plot(parts.unscaled[a], unscaled[static_cast<std::size_t>(a)]);
    parts.unscaled[a]->setVisible(!unscaled[static_cast<std::size_t>(a)].empty());
  }
  hideFromLegend(parts.chart, parts.unscaled, 3);
  plot(parts.stream, stream);
  const double last = distance.empty() ? 1.0 : std::max(1.0, distance.back());
  // Paper: round ticks; the screen: Qt's, which follow the chart's size.
  if (look == ChartLook::Publication)
    roundTicks(parts.x, 0, last);
  else
    parts.x->setRange(0, last);
  parts.y->setRange(0.0, hi > 0 ? hi * 1.05 : 1.0);  // U is a mean of moduli: never below 0
  parts.y->applyNiceNumbers();
}

void colorDecay(const DecayParts& parts) {
  for (int a = 0; a < 3; ++a)
    if (parts.axis[a]) parts.axis[a]->setPen(axisCurvePen(a));
  if (parts.stream) parts.stream->setPen(streamCurvePen());
  for (int a = 0; a < 3; ++a)
    if (parts.unscaled[a]) parts.unscaled[a]->setPen(unscaledCurvePen(a));
  showLineStylesInLegend(parts.chart);
  hideFromLegend(parts.chart, parts.unscaled, 3);
}

QPen unscaledCurvePen(int axis) {
  QPen pen = axisCurvePen(axis, kLineWidth * 0.75);
  QColor c = pen.color();
  c.setAlpha(110);
  pen.setColor(c);
  return pen;
}

QString scalingCountsText(const PairTable& pairs) {
  if (!pairs.scaled()) return {};
  const ScalingCounts counts = scalingCounts(pairs);
  bool notRotated = false;
  for (const auto& axis : counts)
    notRotated = notRotated || axis[static_cast<std::size_t>(PairScaling::NotRotated)] > 0;
  const int kinds = notRotated ? kPairScalingCount : kPairScalingCount - 1;
  QStringList perAxis;
  for (Axis a : {Axis::T, Axis::H, Axis::W, Axis::Mix, Axis::None}) {
    const auto& row = counts[static_cast<std::size_t>(a)];
    bool any = false;
    for (int n : row) any = any || n > 0;
    if (!any) continue;
    QStringList numbers;
    for (int k = 0; k < kinds; ++k) numbers << QString::number(row[static_cast<std::size_t>(k)]);
    perAxis << QStringLiteral("%1 %2").arg(QLatin1String(axisName(a)),
                                           numbers.join(QLatin1Char('/')));
  }
  QStringList names;
  for (int k = 0; k < kinds; ++k)
    names << QString::fromLatin1(pairScalingName(static_cast<PairScaling>(k)))
                 .replace(QLatin1Char('_'), QLatin1Char(' '));
  return perAxis.join(QString::fromUtf8(" \xc2\xb7 ")) + QStringLiteral(" (") +
         names.join(QLatin1Char('/')) + QLatin1Char(')');
}

namespace {

// The horizontal bars both bar figures draw: one set over categories `names` (a bar axis counts
// from the bottom), a value axis from 0 with `room` above the largest value, the publication
// look. Value labels at the bars' ends when `labels`.
QHorizontalBarSeries* addHorizontalBars(QChart* chart, QBarSet* set, const QStringList& names,
                                        const QString& valueTitle, double top, double room,
                                        bool labels, const FigureOptions& o) {
  auto* series = new QHorizontalBarSeries;
  series->append(set);
  series->setBarWidth(0.7);
  series->setLabelsVisible(labels);
  series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
  series->setLabelsPrecision(kMetricDigits);
  chart->addSeries(series);
  auto* cat = new QBarCategoryAxis;
  cat->append(names);
  cat->setTruncateLabels(false);
  auto* val = new QValueAxis;
  val->setTitleText(valueTitle);
  val->setRange(0, top > 0 ? top * room : 1.0);
  val->applyNiceNumbers();
  val->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(cat, Qt::AlignLeft);
  chart->addAxis(val, Qt::AlignBottom);
  series->attachAxis(cat);
  series->attachAxis(val);
  chart->legend()->hide();
  styleChart(chart, o);
  cat->setGridLineVisible(false);
  set->setColor(neutralBar());
  set->setBorderColor(neutralBar());
  set->setLabelColor(foreground());
  set->setLabelFont(font(Text::Label));
  ZeroBarLabels::attach(chart, series, set);
  return series;
}

}  // namespace

DesignBars designBars(const std::vector<DesignSummary>& designs, const std::string& current,
                      bool ptd) {
  DesignBars b;
  if (!designs.empty()) b.undefined = ptd ? designs[0].ptdUndefined : designs[0].biasUndefined;
  for (const DesignSummary& d : designs) {
    const double v = ptd ? d.ptd : d.biasSpread;
    // The scene's design is marked in its name too: its bar's colour shows nothing when its
    // value is 0 (Circle-RoPE's PTD) or undefined.
    const bool isCurrent = d.design == current;
    b.names << (isCurrent ? QStringLiteral("\u25b8 ") : QString()) +
                   QString::fromStdString(d.design);
    b.values << (std::isnan(v) ? 0.0 : shownMetric(v));
    if (!std::isnan(v)) b.top = std::max(b.top, v);
    if (isCurrent) b.highlighted = static_cast<int>(b.names.size() - 1);
  }
  return b;
}

QString designBarsUndefinedText(const std::vector<DesignSummary>& designs, bool ptd) {
  const DesignSummary& d = designs.front();
  // No text or no visual token: n/a and which; otherwise why it was not computed (the layout's
  // cost, a cancel), the same for every design.
  if (!missingTokensText(d.nText, d.nVisual).empty())
    return metricTitleText(std::nan(""), d.nText, d.nVisual);
  return QString::fromStdString(ptd ? d.ptdUndefined : d.biasUndefined);
}

std::unique_ptr<QChart> designBarsChart(const std::vector<DesignSummary>& designs,
                                        const std::string& current, bool ptd,
                                        const FigureOptions& o) {
  const DesignBars b = designBars(designs, current, ptd);
  // Undefined for every design alike: said in the title, with empty bars and no value labels,
  // never as bars of 0.
  QString title =
      ptd ? QStringLiteral("PTD of every design") : QStringLiteral("Bias spread of every design");
  if (!b.undefined.empty()) title += QStringLiteral(": ") + designBarsUndefinedText(designs, ptd);
  auto chart = newChart(title);
  auto* set = new QBarSet(ptd ? QStringLiteral("PTD") : QStringLiteral("bias spread"));
  set->append(b.values);
  addHorizontalBars(chart.get(), set, b.names,
                    ptd ? QStringLiteral("PTD (positions)") : QStringLiteral("bias spread"), b.top,
                    1.3, b.undefined.empty(), o);  // room for the value labels
  set->setSelectedColor(currentColor());
  if (b.highlighted >= 0) set->selectBar(b.highlighted);
  return chart;
}

QString modalityPairName(const GroupPair& groups) {
  return QStringLiteral("%1 \u2192 %2")
      .arg(QLatin1String(tokenGroupName(groups.from)), QLatin1String(tokenGroupName(groups.to)));
}

std::unique_ptr<QChart> modalityBarsChart(const std::vector<ModalityPairMetrics>& rows, bool ptd,
                                          const FigureOptions& o) {
  QString title = ptd ? QStringLiteral("PTD between modalities")
                      : QStringLiteral("Bias spread between modalities");
  std::vector<const ModalityPairMetrics*> shown;
  for (const ModalityPairMetrics& r : rows)
    if (r.skipped.empty()) shown.push_back(&r);
  if (rows.empty())
    title += QStringLiteral(": one modality only");
  else if (shown.size() < rows.size())
    title += QStringLiteral(" (%1 of %2 pairs: the rest over the app's size limit)")
                 .arg(shown.size())
                 .arg(rows.size());
  auto chart = newChart(title);
  auto* set = new QBarSet(ptd ? QStringLiteral("PTD") : QStringLiteral("bias spread"));
  QStringList names;
  double top = 0;
  // A horizontal bar axis counts from the bottom: appended in reverse, the first pair is on top.
  for (auto it = shown.rbegin(); it != shown.rend(); ++it) {
    const double v = shownMetric(ptd ? (*it)->ptd : (*it)->biasSpread);
    // The value in the category label: Qt Charts draws no value label on a bar of 0 (circle's
    // text -> image PTD), which would read as missing.
    names << modalityPairName((*it)->groups) + QStringLiteral(": ") + metricText(v);
    set->append(v);
    top = std::max(top, v);
  }
  addHorizontalBars(chart.get(), set, names,
                    ptd ? QStringLiteral("PTD (positions)") : QStringLiteral("bias spread"), top,
                    1.05, false, o);
  return chart;
}

std::unique_ptr<QChart> budgetChart(const IdBudget& b, const FigureOptions& o) {
  auto chart = newChart(QStringLiteral("Largest id per axis along the sequence"));
  auto* x = new QValueAxis;
  x->setTitleText(QStringLiteral("tokens"));
  auto* y = new QValueAxis;
  y->setTitleText(QStringLiteral("largest id"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  double lo = 0.0, hi = 0.0;
  for (int a = 0; a < 3; ++a) {
    auto* series = new QLineSeries;
    series->setName(QLatin1String(kAxisNames[a]));
    QList<QPointF> points;
    points.reserve(static_cast<qsizetype>(b.curveTokens.size()));
    for (std::size_t i = 0; i < b.curveTokens.size(); ++i) {
      points.append(QPointF(static_cast<double>(b.curveTokens[i]), b.curveMax[i][a]));
      lo = std::min(lo, b.curveMax[i][a]);
      hi = std::max(hi, b.curveMax[i][a]);
    }
    series->replace(points);
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
  }
  // Tokens from 0 to the last, at round steps (no padding: no token before the first).
  const double tokens = static_cast<double>(std::max<std::size_t>(b.tokens, 1));
  x->setRange(0.0, tokens);
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickAnchor(0);
  x->setTickInterval(roundTickStep(tokens));
  fitAxis(y, lo, hi);
  for (QValueAxis* axis : {x, y}) axis->setLabelFormat(QStringLiteral("%.4g"));
  styleChart(chart.get(), o);
  colorBudget(chart.get());
  return chart;
}

void colorBudget(QChart* chart) {
  const QList<QAbstractSeries*> series = chart->series();
  for (int a = 0; a < 3 && a < series.size(); ++a)
    if (auto* line = qobject_cast<QLineSeries*>(series[a])) line->setPen(axisCurvePen(a));
  showLineStylesInLegend(chart);
}

std::unique_ptr<QChart> profileChart(const SceneMetrics& m, int selectedText,
                                     const FigureOptions& o) {
  const std::string missing = missingTokensText(m.ptd.nText, m.ptd.nVisual);
  auto chart = newChart(
      m.selectedToken < 0 ? QStringLiteral("No text token to profile")
      : missing.empty()   ? QStringLiteral("Text token %1 to every visual token").arg(selectedText)
                          : QStringLiteral("Text token %1: n/a (%2)")
                              .arg(selectedText)
                              .arg(QString::fromStdString(missing)));
  const ProfileParts parts = addProfileParts(chart.get(), ChartLook::Publication);
  plotProfile(parts, profilePoints(m), ChartLook::Publication);
  styleChart(chart.get(), o);
  colorProfile(parts, ChartLook::Publication);
  return chart;
}

ProfileParts addProfileParts(QChart* chart, ChartLook look) {
  ProfileParts parts;
  parts.chart = chart;
  parts.x = new QValueAxis;
  parts.x->setTitleText(QStringLiteral("visual token index"));
  parts.x->setLabelFormat(QStringLiteral("%d"));
  parts.distanceY = new QValueAxis;
  parts.distanceY->setTitleText(QStringLiteral("distance d"));
  parts.biasY = new QValueAxis;
  parts.biasY->setTitleText(QStringLiteral("bias b"));
  // The bias axis's label format follows its ticks (plotProfile).
  if (look == ChartLook::Publication) parts.distanceY->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(parts.x, Qt::AlignBottom);
  chart->addAxis(parts.distanceY, Qt::AlignLeft);
  chart->addAxis(parts.biasY, Qt::AlignRight);
  parts.distance = new QLineSeries;
  parts.distance->setName(QStringLiteral("distance"));
  parts.bias = new QLineSeries;
  parts.bias->setName(QStringLiteral("bias"));
  chart->addSeries(parts.distance);
  chart->addSeries(parts.bias);
  parts.distance->attachAxis(parts.x);
  parts.distance->attachAxis(parts.distanceY);
  parts.bias->attachAxis(parts.x);
  parts.bias->attachAxis(parts.biasY);
  return parts;
}

void plotProfile(const ProfileParts& parts, const ProfilePoints& pp, ChartLook look) {
  parts.distance->replace(pp.distance);
  parts.bias->replace(pp.bias);
  // No visual token: nothing to plot, and no numbers on axes that measure nothing (the title
  // says n/a and why).
  const bool none = pp.count == 0;
  for (QValueAxis* a : {parts.x, parts.distanceY, parts.biasY}) a->setVisible(!none);
  const double last = std::max<double>(1, static_cast<double>(pp.count) - 1);
  // Paper: round ticks, whole tokens apart; the screen: Qt's, which follow the chart's size.
  if (look == ChartLook::Publication) {
    roundTicks(parts.x, 0, last);
    parts.x->setTickInterval(std::max(1.0, parts.x->tickInterval()));
  } else {
    parts.x->setRange(0, last);
  }
  fitAxis(parts.distanceY, pp.dlo, pp.dhi);
  // As many decimals as the ticks need: "0.95", not "0.9500" (no elision), and a spread of
  // 5e-5 ticks 0.87195, 0.87200, ..., not "0.872" five times.
  const int decimals = tickDecimals(fitAxis(parts.biasY, pp.blo, pp.bhi));
  const QString format = QStringLiteral("%.") + QString::number(decimals) + QLatin1Char('f');
  if (parts.biasY->labelFormat() != format) parts.biasY->setLabelFormat(format);
}

void colorProfile(const ProfileParts& parts, ChartLook look) {
  if (look == ChartLook::Publication) {
    parts.distance->setPen(linePen(distanceColor()));
    parts.bias->setPen(linePen(biasColor()));
    parts.distanceY->setLabelsColor(distanceColor().darker(120));
    parts.biasY->setLabelsColor(biasColor().darker(120));
    return;
  }
  const bool dark = look == ChartLook::ScreenDark;
  QPen distance(dark ? QColor(120, 190, 255) : QColor(40, 90, 200));
  distance.setWidthF(1.6);
  parts.distance->setPen(distance);
  QPen bias(dark ? QColor(255, 150, 90) : QColor(210, 100, 20));
  bias.setWidthF(1.6);
  parts.bias->setPen(bias);
}

ProfilePoints profilePoints(const SceneMetrics& m, int columns) {
  ProfilePoints p;
  const std::size_t n = m.selectedDistance.size();
  p.count = static_cast<qsizetype>(n);
  // A profile without bias values plots b = 0.
  std::vector<double> padded;
  if (m.selectedBias.size() != n) {
    padded.assign(
        m.selectedBias.begin(),
        m.selectedBias.begin() + static_cast<std::ptrdiff_t>(std::min(n, m.selectedBias.size())));
    padded.resize(n, 0.0);
  }
  const std::vector<double>& bias = m.selectedBias.size() == n ? m.selectedBias : padded;
  for (std::size_t i = 0; i < n; ++i) {
    const double d = m.selectedDistance[i], b = bias[i];
    p.dlo = i ? std::min(p.dlo, d) : d;
    p.dhi = i ? std::max(p.dhi, d) : d;
    p.blo = i ? std::min(p.blo, b) : b;
    p.bhi = i ? std::max(p.bhi, b) : b;
  }
  const auto points = [columns](const std::vector<double>& y) {
    QList<QPointF> out;
    if (columns > 0) {
      const std::vector<std::size_t> keep = decimateForColumns(y, columns);
      out.reserve(static_cast<qsizetype>(keep.size()));
      for (std::size_t i : keep) out.append(QPointF(static_cast<double>(i), y[i]));
    } else {
      out.reserve(static_cast<qsizetype>(y.size()));
      for (std::size_t i = 0; i < y.size(); ++i) out.append(QPointF(static_cast<double>(i), y[i]));
    }
    return out;
  };
  p.distance = points(m.selectedDistance);
  p.bias = points(bias);
  return p;
}

WavelengthPoints wavelengthPoints(const SceneMetrics& m) {
  WavelengthPoints p;
  for (const PairWavelength& w : m.wavelengths) {
    const int a = coordinateSlot(w.axis);
    if (!w.wavelength || a < 0) {
      ++p.nope;
      continue;
    }
    p.perAxis[a].append(QPointF(w.index, *w.wavelength));
    p.lo = p.any ? std::min(p.lo, *w.wavelength) : *w.wavelength;
    p.hi = p.any ? std::max(p.hi, *w.wavelength) : *w.wavelength;
    p.any = true;
  }
  for (const PairWavelength& w : m.wavelengthsUnscaled) {
    const int a = coordinateSlot(w.axis);
    if (!w.wavelength || a < 0) continue;
    p.unscaled[a].append(QPointF(w.index, *w.wavelength));
    p.lo = p.any ? std::min(p.lo, *w.wavelength) : *w.wavelength;
    p.hi = p.any ? std::max(p.hi, *w.wavelength) : *w.wavelength;
    p.any = true;
  }
  return p;
}

std::unique_ptr<QChart> wavelengthChart(const SceneMetrics& m, const FigureOptions& o) {
  const WavelengthPoints wp = wavelengthPoints(m);
  const int nope = wp.nope;
  auto chart = newChart(
      (nope ? QString::fromUtf8("Wavelength 2\xcf\x80/\xce\xb8 per pair (%1 NoPE)").arg(nope)
            : QString::fromUtf8("Wavelength 2\xcf\x80/\xce\xb8 per pair")) +
      (m.pairs.scaled() ? QStringLiteral(", %1-scaled (rings: before)")
                              .arg(QString::fromStdString(m.pairs.ropeType))
                        : QString()));
  std::array<bool, 4> shown{};
  for (int a = 0; a < 4; ++a) shown[static_cast<std::size_t>(a)] = !wp.perAxis[a].isEmpty();
  const WavelengthParts parts = addWavelengthParts(chart.get(), shown, ChartLook::Publication);
  plotWavelengths(parts, wp, m.wavelengths.size(), ChartLook::Publication);
  styleChart(chart.get(), o);
  colorWavelengths(parts, ChartLook::Publication);
  return chart;
}

WavelengthParts addWavelengthParts(QChart* chart, const std::array<bool, 4>& shown,
                                   ChartLook look) {
  WavelengthParts parts;
  parts.chart = chart;
  parts.x = new QValueAxis;
  parts.x->setTitleText(QStringLiteral("pair index p"));
  parts.x->setLabelFormat(QStringLiteral("%d"));
  parts.y = new QLogValueAxis;
  parts.y->setTitleText(QStringLiteral("wavelength (positions)"));
  parts.y->setBase(10);
  parts.y->setLabelFormat(QStringLiteral("%.0e"));
  chart->addAxis(parts.x, Qt::AlignBottom);
  chart->addAxis(parts.y, Qt::AlignLeft);
  // The pairs before a rope scaling first: drawn under the scaled ones.
  for (int a = 0; a < 4; ++a) {
    if (!shown[static_cast<std::size_t>(a)]) continue;
    auto* series = new QScatterSeries;
    series->setName(
        QStringLiteral("%1 before scaling").arg(QLatin1String(axisName(kCoordinateAxes[a]))));
    chart->addSeries(series);
    series->attachAxis(parts.x);
    series->attachAxis(parts.y);
    parts.unscaled[a] = series;
  }
  for (int a = 0; a < 4; ++a) {
    if (!shown[static_cast<std::size_t>(a)]) continue;
    auto* series = new QScatterSeries;
    const QLatin1String axis(axisName(kCoordinateAxes[a]));
    // The screen's legend is short (the title says "per pair"); paper has the room.
    series->setName(look == ChartLook::Publication ? QStringLiteral("axis %1").arg(axis)
                                                   : QString(axis));
    chart->addSeries(series);
    series->attachAxis(parts.x);
    series->attachAxis(parts.y);
    parts.slot[a] = series;
  }
  return parts;
}

void plotWavelengths(const WavelengthParts& parts, const WavelengthPoints& wp, std::size_t pairs,
                     ChartLook look) {
  for (int a = 0; a < 4; ++a)
    if (parts.slot[a]) parts.slot[a]->replace(wp.perAxis[a]);
  for (int a = 0; a < 4; ++a)
    if (parts.unscaled[a]) {
      parts.unscaled[a]->replace(wp.unscaled[a]);
      parts.unscaled[a]->setVisible(!wp.unscaled[a].isEmpty());
    }
  hideFromLegend(parts.chart, parts.unscaled, 4);
  const double n = static_cast<double>(pairs);
  if (look == ChartLook::Publication) roundTicks(parts.x, 0, std::max<double>(1, n - 1));
  parts.x->setRange(-0.5, std::max<double>(1, n) - 0.5);
  if (wp.any)
    parts.y->setRange(std::pow(10, std::floor(std::log10(wp.lo))),
                      std::pow(10, std::ceil(std::log10(wp.hi))));
}

void colorWavelengths(const WavelengthParts& parts, ChartLook look) {
  for (int a = 0; a < 4; ++a) {
    if (!parts.slot[a]) continue;
    parts.slot[a]->setMarkerSize(look == ChartLook::Publication ? 7 : 6);
    parts.slot[a]->setColor(slotColor(a));
    parts.slot[a]->setBorderColor(slotColor(a));
  }
  for (int a = 0; a < 4; ++a) {
    QScatterSeries* ring = parts.unscaled[a];
    if (!ring) continue;
    // The axis colour, light: a faint fill inside a clear ring.
    QColor fill = slotColor(a), edge = slotColor(a);
    fill.setAlpha(50);
    edge.setAlpha(220);
    ring->setMarkerSize(look == ChartLook::Publication ? 9 : 8);
    ring->setColor(fill);
    QPen pen(edge);
    pen.setWidthF(1.0);
    ring->setPen(pen);
  }
  hideFromLegend(parts.chart, parts.unscaled, 4);
}

std::unique_ptr<QChart> ageChart(const AgeSchedule& schedule, const FigureOptions& o) {
  const std::vector<bool> layers = ageLayers(schedule);
  auto chart = newChart(QStringLiteral("AGE schedule: %1, %2 layers")
                            .arg(QLatin1String(ageStrategyName(schedule.strategy)))
                            .arg(schedule.layers));
  auto* x = new QValueAxis;
  x->setTitleText(QStringLiteral("decoder layer"));
  x->setLabelFormat(QStringLiteral("%d"));
  // Two rows named on the axis: circle ids above, M-RoPE ids below.
  auto* y = new QCategoryAxis;
  y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
  y->append(QStringLiteral("M-RoPE"), 0.0);
  y->append(QStringLiteral("circle"), 1.0);
  y->setRange(-0.6, 1.6);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  auto* circle = new QScatterSeries;
  circle->setName(QStringLiteral("circle ids"));
  auto* mrope = new QScatterSeries;
  mrope->setName(QStringLiteral("M-RoPE ids"));
  for (std::size_t l = 0; l < layers.size(); ++l) {
    if (layers[l])
      circle->append(static_cast<double>(l), 1.0);
    else
      mrope->append(static_cast<double>(l), 0.0);
  }
  for (QScatterSeries* s : {circle, mrope}) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  }
  x->setRange(-1, static_cast<double>(layers.size()));
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickAnchor(0);
  x->setTickInterval(layers.size() > 24 ? 8 : 4);
  chart->legend()->hide();
  styleChart(chart.get(), o);
  y->setGridLineVisible(false);
  const double marker = std::clamp(360.0 / std::max<std::size_t>(1, layers.size()), 5.0, 14.0);
  circle->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  mrope->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  circle->setMarkerSize(marker);
  mrope->setMarkerSize(marker);
  circle->setColor(currentColor());
  circle->setBorderColor(currentColor());
  mrope->setColor(neutralBar());
  mrope->setBorderColor(neutralBar());
  return chart;
}

std::unique_ptr<QChart> fadingChart(const std::vector<FadingCurve>& curves,
                                    const std::vector<double>& uniform, const std::string& current,
                                    const QString& title, const FigureOptions& o) {
  auto chart = newChart(title);
  auto* x = new QValueAxis;
  x->setTitleText(QStringLiteral("text token after the last picture"));
  x->setLabelFormat(QStringLiteral("%d"));
  auto* y = new QValueAxis;
  y->setTitleText(QStringLiteral("attention on visual tokens"));
  y->setLabelFormat(QStringLiteral("%g"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  double lo = 1.0, hi = 0.0;
  const auto add = [&](const QString& name, const std::vector<double>& values, const QPen& pen) {
    auto* series = new QLineSeries;
    series->setName(name);
    for (std::size_t i = 0; i < values.size(); ++i) {
      series->append(double(i + 1), values[i]);
      lo = std::min(lo, values[i]);
      hi = std::max(hi, values[i]);
    }
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
    return std::make_pair(series, pen);
  };
  std::vector<std::pair<QLineSeries*, QPen>> pens;
  pens.push_back(add(QStringLiteral("uniform"), uniform, streamCurvePen()));
  // Other designs in the axis colours and line styles (a fourth in the text colour, dash-dot-dot);
  // the scene's own on top, thicker, in its colour.
  int other = 0;
  for (const FadingCurve& c : curves) {
    if (c.design == current) continue;
    QPen pen = axisCurvePen(other % 3);
    if (other >= 3) {
      pen.setColor(foreground());
      pen.setStyle(Qt::DashDotDotLine);
    }
    ++other;
    pens.push_back(add(QString::fromStdString(c.design), c.share, pen));
  }
  for (const FadingCurve& c : curves)
    if (c.design == current)
      pens.push_back(add(QString::fromStdString(c.design), c.share,
                         linePen(currentColor(), kLineWidth * 1.5)));
  fitAxis(x, 1.0, std::max(2.0, double(uniform.size())));
  fitAxis(y, std::max(0.0, lo), std::min(1.0, hi));
  styleChart(chart.get(), o);
  for (const auto& [series, pen] : pens) series->setPen(pen);
  showLineStylesInLegend(chart.get());
  return chart;
}

}  // namespace ropescope::ui::figure
