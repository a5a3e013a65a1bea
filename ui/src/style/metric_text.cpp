#include "style/metric_text.h"

#include <cmath>

#include "ropescope/metrics.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::ui {

double shownMetric(double value) {
  return std::abs(value) < kMetricNoise ? 0.0 : value;
}

QString metricText(double value) {
  if (std::isnan(value)) return QStringLiteral("n/a");
  return QString::number(shownMetric(value), 'g', kMetricDigits);
}

QString metricText(double value, const std::string& undefinedReason) {
  if (undefinedReason.empty() && !std::isnan(value)) return metricText(value);
  if (undefinedReason.empty()) return QStringLiteral("n/a");
  return QStringLiteral("n/a (%1)").arg(QString::fromStdString(undefinedReason));
}

QString metricTitleText(double value, std::size_t nText, std::size_t nVisual) {
  const std::string missing = missingTokensText(nText, nVisual);
  return missing.empty() ? metricText(value) : metricText(value, missing);
}

QString biasSpreadText(const SceneMetrics& m, bool withReason) {
  if (m.biasPending) return QStringLiteral("computing\u2026");
  return withReason ? metricText(m.bias.spread, m.bias.undefinedReason) : metricText(m.bias.spread);
}

}  // namespace ropescope::ui
