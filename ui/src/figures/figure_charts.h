// The charts of exported figures and the one builder of each chart the Charts tab shows too
// (decay, profile, wavelengths: by ChartLook). The GUI's File -> Export and `ropescope render`
// both draw through these.
#pragma once

#include <QList>
#include <QPen>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "ropescope/age_schedule.h"
#include "ropescope/axis_ticks.h"
#include "ropescope/id_budget.h"
#include "ropescope/scene_metrics.h"

class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace ropescope::ui::figure {

// The pen of axis a's curve (t solid, h dashed, w dotted, in the axis colours); live and
// exported decay charts use it.
QPen axisCurvePen(int axis, double width = kLineWidth);
// Legend markers drawn as a stretch of each series' line (its dash pattern), not as a square.
void showLineStylesInLegend(QChart* chart);

// How a chart is drawn: on the screen in the window's dark or light theme, or in the publication
// look of exported figures (figure_style.h). One builder per chart serves both: the live Charts
// tab adds only hover, click, the picked-token marker and the fitting of its texts to its size.
enum class ChartLook { ScreenDark, ScreenLight, Publication };

// Fits a value axis to [lo, hi] (fitAxisTicks, axis_ticks.h) with one change per property; a
// flat range (e.g. PTD = 0 up to rounding) reads as flat, not as magnified rounding noise. Live
// and exported charts use it.
AxisTicks fitAxis(QValueAxis* axis, double lo, double hi);

// Decay bound per axis: `curves[a]` along axis a (empty: the plan has no pair on it, not drawn),
// and `stream` along t = h = w (SceneMetrics::decayStream; empty: not drawn). Built by
// addDecayParts / plotDecay / colorDecay below, as the live chart is.
// `unscaled`: the curves before a rope scaling, drawn faint under them (empty: none).
std::unique_ptr<QChart> decayChart(const std::vector<double>& distance,
                                   const std::array<std::vector<double>, 3>& curves,
                                   const QString& title, const FigureOptions& o,
                                   const std::vector<double>& stream = {},
                                   const std::array<std::vector<double>, 3>& unscaled = {});
// The decay chart's axes and curves (owned by its chart); a curve not asked for is null.
struct DecayParts {
  QChart* chart = nullptr;
  QValueAxis* x = nullptr;  // distance δ
  QValueAxis* y = nullptr;  // U(δ)
  QLineSeries* axis[3] = {nullptr, nullptr, nullptr};
  QLineSeries* stream = nullptr;  // along t = h = w
  // With a rope scaling, axis a's curve before it (SceneMetrics::decayAxisUnscaled), faint
  // under the scaled one and out of the legend; empty without one.
  QLineSeries* unscaled[3] = {nullptr, nullptr, nullptr};
};
// Adds the decay chart's axes and the curves asked for (`axes[a]`, `stream`) to `chart`.
DecayParts addDecayParts(QChart* chart, const std::array<bool, 3>& axes, bool stream,
                         ChartLook look);
// Plots the curves over `distance` (a curve without a series is skipped) and fits the axes.
// `unscaled`: the curves before a rope scaling (empty without one).
void plotDecay(const DecayParts& parts, const std::vector<double>& distance,
               const std::array<std::vector<double>, 3>& curves, const std::vector<double>& stream,
               ChartLook look, const std::array<std::vector<double>, 3>& unscaled = {});
// The curves' pens (the axis colours and dash patterns in every look) and the legend's line
// markers; after the chart's theme or styleChart, which reset them.
void colorDecay(const DecayParts& parts);
// The stream curve's name and pen, live and exported (grey, dash-dot: not one of the axes).
QString streamCurveName();
QPen streamCurvePen(double width = kLineWidth);
// A curve before the rope scaling: axis a's pen, thinner and faint.
QPen unscaledCurvePen(int axis);
// Per axis, how many pairs the scaling left unchanged, ramped and scaled (and stopped rotating,
// where any did): "t 16/0/0 · h 8/16/0 · w 0/0/24 (unchanged/ramped/scaled)", from core's
// scalingCounts; empty without a scaling.
QString scalingCountsText(const PairTable& pairs);
// What the design bars show, live and exported: one bar per design in the registry's order (a
// horizontal bar axis counts from the bottom: the first design is the lowest bar), undefined
// (NaN) as an empty bar with the reason in `undefined`, rounding noise as 0 (metric_text.h).
// The scene's design is named "▸ design".
struct DesignBars {
  QStringList names;
  QList<qreal> values;
  double top = 0;         // the largest defined value
  int highlighted = -1;   // the scene's design, -1 when not listed
  std::string undefined;  // every design's value is undefined (no text or no visual token): why
};
// Why every design's value of one chart is undefined (b.undefined set): n/a and the tokens
// missing, or the rows' reason (a spread not computed for the layout's cost, a cancel).
QString designBarsUndefinedText(const std::vector<DesignSummary>& designs, bool ptd);
DesignBars designBars(const std::vector<DesignSummary>& designs, const std::string& current,
                      bool ptd);
// PTD (ptd = true) or bias spread of every design, the scene's design highlighted.
std::unique_ptr<QChart> designBarsChart(const std::vector<DesignSummary>& designs,
                                        const std::string& current, bool ptd,
                                        const FigureOptions& o);
// PTD (ptd = true) or bias spread between every two modalities ("text → audio"); pairs the app
// did not compute (over its size limit) are left out and counted in the title.
std::unique_ptr<QChart> modalityBarsChart(const std::vector<ModalityPairMetrics>& rows, bool ptd,
                                          const FigureOptions& o);
// The id budget (id_budget.h): the running largest id on t, h and w against the tokens so far,
// one curve per axis in its pen (axisCurvePen), as core sampled it (IdBudget::curveTokens).
std::unique_ptr<QChart> budgetChart(const IdBudget& budget, const FigureOptions& o);
// The budget curves' pens and legend markers again, after a theme (which resets them).
void colorBudget(QChart* chart);
// "text → audio": a modality pair's name in tables, bars and tooltips.
QString modalityPairName(const GroupPair& groups);
// The selected text token's distance and bias to every visual token.
std::unique_ptr<QChart> profileChart(const SceneMetrics& m, int selectedText,
                                     const FigureOptions& o);
// The wavelength of every rotary pair as points per axis, their range, and the NoPE pairs
// (no wavelength) left out. The live chart and the exported one both plot these.
struct WavelengthPoints {
  QList<QPointF> perAxis[4];  // by coordinate slot (t, h, w, h+w-t)
  // With a rope scaling, the same pairs before it (SceneMetrics::wavelengthsUnscaled).
  QList<QPointF> unscaled[4];
  double lo = 0, hi = 0;  // valid when any (both sets)
  bool any = false;
  int nope = 0;
};
WavelengthPoints wavelengthPoints(const SceneMetrics& m);
// The selected text token's distance and bias to every visual token as points (x = visual
// index), with their ranges. The live profile chart and the exported one both plot these.
// `columns` > 0: only the points that `columns` pixel columns across the chart show
// (ropescope/polyline_decimation.h; the screen draws a few thousand of 250 000, the same to the
// pixel); 0: every point (exported figures). `count` and the ranges are those of every point.
struct ProfilePoints {
  QList<QPointF> distance, bias;
  double dlo = 0, dhi = 0, blo = 0, bhi = 0;  // 0 when there are no points
  qsizetype count = 0;                        // the visual tokens profiled
};
ProfilePoints profilePoints(const SceneMetrics& m, int columns = 0);

// The profile chart's axes and curves (owned by its chart).
struct ProfileParts {
  QChart* chart = nullptr;
  QValueAxis* x = nullptr;          // visual token index
  QValueAxis* distanceY = nullptr;  // left
  QValueAxis* biasY = nullptr;      // right
  QLineSeries* distance = nullptr;
  QLineSeries* bias = nullptr;
};
// Adds the profile's axes and two curves to `chart` (which has none).
ProfileParts addProfileParts(QChart* chart, ChartLook look);
// Plots `pp` and fits the axes to its ranges (every point's, however few are drawn).
void plotProfile(const ProfileParts& parts, const ProfilePoints& pp, ChartLook look);
// The curves' pens and the value axes' label colours in `look`; after the chart's theme or
// styleChart, which reset them.
void colorProfile(const ProfileParts& parts, ChartLook look);
std::unique_ptr<QChart> wavelengthChart(const SceneMetrics& m, const FigureOptions& o);
// The wavelength chart's axes and point series by coordinate slot (owned by its chart); a slot
// not asked for is null.
struct WavelengthParts {
  QChart* chart = nullptr;
  QValueAxis* x = nullptr;     // pair index
  QLogValueAxis* y = nullptr;  // wavelength, log
  QScatterSeries* slot[4] = {nullptr, nullptr, nullptr, nullptr};
  // Each shown slot's pairs before a rope scaling: hollow rings under the points, out of the
  // legend (empty without a scaling).
  QScatterSeries* unscaled[4] = {nullptr, nullptr, nullptr, nullptr};
};
// Adds the axes and a series for each slot `shown` asks for to `chart`.
WavelengthParts addWavelengthParts(QChart* chart, const std::array<bool, 4>& shown, ChartLook look);
// Plots `wp` over `pairs` rotary pairs and fits the axes (the log axis to whole decades).
void plotWavelengths(const WavelengthParts& parts, const WavelengthPoints& wp, std::size_t pairs,
                     ChartLook look);
// The points' colours (the axis colours) and size; after the chart's theme or styleChart.
void colorWavelengths(const WavelengthParts& parts, ChartLook look);
// Visual fading (attention_readouts.h): per design the share of attention on the visual tokens
// against the text token after the last picture (1, 2, ...), `current` (the scene's design) in
// the current colour, and `uniform`, the share under even weights, as a grey dash-dot line.
struct FadingCurve {
  std::string design;
  std::vector<double> share;
};
std::unique_ptr<QChart> fadingChart(const std::vector<FadingCurve>& curves,
                                    const std::vector<double>& uniform, const std::string& current,
                                    const QString& title, const FigureOptions& o);
// Which decoder layers use circle ids (1) and which M-RoPE ids (0).
std::unique_ptr<QChart> ageChart(const AgeSchedule& schedule, const FigureOptions& o);

}  // namespace ropescope::ui::figure
