// What the views' own files (figures/views/) share: the scene's metrics at the figure's decay
// distance, a blank canvas, the offscreen 3-D renderer, figure titles, the tables' text and the
// one-line refusals of a scene that lacks what a view needs.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <string>
#include <vector>

#include "figures/figure_style.h"
#include "figures/figure_views.h"
#include "ropescope/position_ids.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/table_report.h"

class QPainter;

namespace ropescope::ui {

class SceneModel;

namespace figure_kit {

inline constexpr const char* kNeedsPicture =
    "this view needs a picture in the layout (an img:FILE item)";
inline constexpr const char* kNeedsAudio =
    "this view needs audio in the layout (an a<N> or aud:FILE item)";
inline constexpr const char* kNeedsTextAfterVisual =
    "this view needs text after a picture or video in the layout (e.g. t4,i3x3,t8)";

// The formats a view writes: a chart or painted figure (svg pdf png csv json), a 3-D view
// (png csv json), and the space view, which also writes its ids as a point cloud (ply gltf).
const std::vector<std::string>& chartFormats();
const std::vector<std::string>& spaceFormats();
const std::vector<std::string>& cloudFormats();

// The four schemes of the Circle-RoPE paper, in its order (hard, unordered, spatial, circle).
const std::vector<std::string>& circleSchemes();

// The scene's metrics with decay curves out to o.maxDistance.
SceneMetrics metricsOf(const Scene& scene, const FigureOptions& o);

// A view's table as CSV or JSON, titled "NAME: description" (core's tableReport).
std::string tableText(const FigureView& view, const Table& t, TableFormat format);

// A white image of o.size pixels that prints at the figure's scale.
QImage blankImage(const FigureOptions& o);

// A design's title with its PTD as every view shows it (metric_text.h): n/a with what is
// missing, or only "n/a" where `shortForm` (a quarter of the compare figure).
QString ptdTitle(const std::string& design, const PtdResult& ptd, bool shortForm = false);

// A 3-D view of `ids`, `px` device pixels, drawn offscreen (no screen grab).
QImage renderSpace(const Scene& scene, const PositionIds& ids, long selectedToken,
                   const QString& title, QSize px, double scale, const FigureOptions& o,
                   bool key = true);

// A figure's own model showing `scene` with every result computed (a large scene waits for its
// worker). Throws what the model refused.
void showComputed(SceneModel& model, const Scene& scene);

// Refuses in one line an o.segment that is not a picture (or a sound, `picture` false) of the
// layout; -1 (the view's own first) passes.
void checkFigureSegment(const Scene& scene, const FigureOptions& o, bool picture);

// A figure's title in its band: the title font, shrunk to fit a narrow canvas (never cut).
void paintFigureTitle(QPainter& p, const QString& title, double width, double band);

}  // namespace figure_kit
}  // namespace ropescope::ui
