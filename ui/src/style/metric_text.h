// The one way the app writes a metric's value (PTD, bias spread) in every view, title, label,
// tooltip, status line and exported figure, so one number never reads four ways.
#pragma once

#include <QString>

#include <cstddef>
#include <string>

namespace ropescope {
struct SceneMetrics;
}

namespace ropescope::ui {

// Significant digits of a shown metric (hard embedding's PTD: 2.2222, as the papers print it).
inline constexpr int kMetricDigits = 5;
// Below this a metric is the rounding noise of a zero (circle's PTD of 4.6e-16) and shown as 0.
inline constexpr double kMetricNoise = 1e-9;

// The value as shown: 0 for rounding noise, else the value (NaN stays NaN).
double shownMetric(double value);
// "n/a" for an undefined value (NaN), else shownMetric(value) to kMetricDigits significant
// digits: "2.2222", "0", "0.055401".
QString metricText(double value);
// metricText, and for an undefined value the reason core gives: "n/a (PTD needs at least one
// text and one visual token (layout has 5 text, 0 visual))".
QString metricText(double value, const std::string& undefinedReason);
// For titles, where a sentence would be cut: metricText, and for an undefined value the missing
// tokens in a few words: "n/a (no visual token)".
QString metricTitleText(double value, std::size_t nText, std::size_t nVisual);

// The bias spread of live metrics: metricText (with the core's reason for an undefined one when
// `withReason`), or "computing…" while it comes in from the background (biasPending): never
// "n/a" for a value that is only not there yet.
QString biasSpreadText(const SceneMetrics& m, bool withReason);

}  // namespace ropescope::ui
