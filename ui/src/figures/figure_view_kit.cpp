#include "figures/figure_view_kit.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QResizeEvent>

#include <cmath>
#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "ropescope/errors.h"
#include "ropescope/position_design.h"
#include "space/position_space_view.h"
#include "style/metric_text.h"

namespace ropescope::ui::figure_kit {

const std::vector<std::string>& chartFormats() {
  static const std::vector<std::string> formats = {"svg", "pdf", "png", "csv", "json"};
  return formats;
}

const std::vector<std::string>& spaceFormats() {
  static const std::vector<std::string> formats = {"png", "csv", "json"};
  return formats;
}

const std::vector<std::string>& cloudFormats() {
  static const std::vector<std::string> formats = {"png", "csv", "json", "ply", "gltf"};
  return formats;
}

const std::vector<std::string>& circleSchemes() {
  static const std::vector<std::string> designs = {"hard", "unordered", "spatial", "circle"};
  return designs;
}

SceneMetrics metricsOf(const Scene& scene, const FigureOptions& o) {
  return computeSceneMetrics(scene, o.maxDistance);
}

std::string tableText(const FigureView& view, const Table& t, TableFormat format) {
  return tableReport(t, format, view.name + ": " + view.description);
}

QImage blankImage(const FigureOptions& o) {
  QImage image(o.size, QImage::Format_RGB32);
  image.fill(Qt::white);
  const double s = figure::effectiveScale(o);
  // Pixels per inch so that the canvas prints at 144 logical px per inch.
  const int dpm = static_cast<int>(std::lround(figure::kLogicalPerInch * s / 0.0254));
  image.setDotsPerMeterX(dpm);
  image.setDotsPerMeterY(dpm);
  return image;
}

// The PTD as every view shows it (metric_text.h): hard 2.2222, unordered 0, circle 0 (its 1e-16
// is rounding), n/a with what is missing when the layout has no text or no visual token.
// `shortForm`: a quarter of the compare figure has room for "n/a" only; the reason (the same in
// every quarter) is the space view's and the formulas'.
QString ptdTitle(const std::string& design, const PtdResult& ptd, bool shortForm) {
  return QStringLiteral("%1  PTD %2")
      .arg(QString::fromStdString(findDesign(design).title()),
           shortForm ? metricText(ptd.ptd) : metricTitleText(ptd.ptd, ptd.nText, ptd.nVisual));
}

QImage renderSpace(const Scene& scene, const PositionIds& ids, long selectedToken,
                   const QString& title, QSize px, double scale, const FigureOptions& o, bool key) {
  PositionSpaceView view;
  prepareSpaceFigure(view, px, scale);
  if (o.colorByModality) view.setColorMode(ColorMode::Modality);
  view.setLayout(scene.layout);
  view.showIds(ids, selectedToken, -1);
  view.setTitle(o.title ? title : QString());
  view.setAxisKeyVisible(o.legend && key);
  view.grabFramebuffer();  // creates the context
  // A hidden widget gets no resize event: send one so VTK sizes its window and DPI.
  QResizeEvent resize(view.size(), view.size());
  QApplication::sendEvent(&view, &resize);
  view.applyPreset(CameraPreset::Default);
  QImage image = view.grabFramebuffer().convertToFormat(QImage::Format_RGB32);
  if (image.size() != px) image = image.scaled(px, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  image.setDevicePixelRatio(1.0);
  return image;
}

// A scene past the model's background size is computed on its worker (waited for here; before,
// such a picture figure showed the default scene and failed with "needs a picture").
void showComputed(SceneModel& model, const Scene& scene) {
  model.setScene(scene);
  model.waitForMetrics(std::numeric_limits<int>::max());
  if (model.isStale())
    throw InputError(model.problem()->message.toStdString(), model.problem()->field.toStdString());
}

void checkFigureSegment(const Scene& scene, const FigureOptions& o, bool picture) {
  if (o.segment < 0) return;
  const auto& segments = scene.layout.segments;
  const auto fits = [&](std::size_t i) {
    return picture ? segments[i].source.isPicture() : segments[i].isAudio();
  };
  if (o.segment < static_cast<int>(segments.size()) && fits(std::size_t(o.segment))) return;
  std::string those;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (fits(i))
      those += (those.empty() ? "" : ", ") + std::to_string(i) + " is " +
               (picture ? visualSegmentName(scene.layout, i) : audioSegmentName(scene.layout, i))
                   .toStdString();
  throw InputError("--segment " + std::to_string(o.segment) + " is no " +
                       (picture ? "picture or video" : "sound") + " of the layout (segments 0.." +
                       std::to_string(segments.size() - 1) +
                       "): " + (those.empty() ? std::string("it has none") : those),
                   "segment");
}

void paintFigureTitle(QPainter& p, const QString& title, double width, double band) {
  QFont f = figure::font(figure::Text::Title);
  const double room = width - 8;
  while (f.pixelSize() > 9 && QFontMetricsF(f).horizontalAdvance(title) > room)
    f.setPixelSize(f.pixelSize() - 1);
  p.setFont(f);
  p.setPen(figure::foreground());
  p.drawText(QRectF(4, 0, room, band), Qt::AlignCenter, title);
}

}  // namespace ropescope::ui::figure_kit
