#include "figures/figure_views.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBuffer>
#include <QChart>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QPdfWriter>
#include <QSet>
#include <QSvgGenerator>

#include <algorithm>
#include <cmath>

#include <vtkRenderer.h>

#include "figures/figure_view_kit.h"
#include "figures/row_names.h"
#include "platform/file_output.h"
#include "ropescope/errors.h"
#include "ropescope/id_cloud.h"
#include "ropescope/scene.h"
#include "space/position_space_view.h"

// What every view shares: the checks, the dispatch to a view's own functions (its FigureView,
// figure_registry.cpp) and the writers of each format. Nothing here names a view.
namespace ropescope::ui {

void prepareSpaceFigure(PositionSpaceView& view, QSize px, double scale) {
  view.setAttribute(Qt::WA_DontShowOnScreen);
  const double dpr = view.devicePixelRatioF();
  view.setFigureScale(scale / dpr);
  view.resize(std::max(1, static_cast<int>(std::lround(px.width() / dpr))),
              std::max(1, static_cast<int>(std::lround(px.height() / dpr))));
  view.setDark(false);
  view.renderer()->GradientBackgroundOff();
  view.renderer()->SetBackground(1.0, 1.0, 1.0);
  // The charts' font, where the system has it (VTK's built-in font otherwise).
  const QString dejavu = QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf");
  if (QFile::exists(dejavu)) view.setTextFontFile(dejavu);
}

namespace {

// Maps the layout canvas onto the image's pixels. An explicit transform, not the image's device
// pixel ratio: QPainter treats a ratio below 1 as 1, which cropped figures under 504 px wide.
void toFigureLogical(QPainter& p, const FigureOptions& o) {
  const double s = figure::effectiveScale(o);
  p.scale(s, s);
}

void paintFigureChart(QChart* chart, QPainter* p, const QSizeF& logical) {
  QGraphicsScene scene;
  layOutFigureChart(chart, &scene, logical);
  scene.render(p, QRectF(QPointF(0, 0), logical), QRectF(QPointF(0, 0), logical));
  scene.removeItem(chart);
}

// Every figure painter starts in a figure font, never the interface's (figure::font says why).
void paintFigureText(QPainter& p, QSizeF logical,
                     const std::function<void(QPainter&, QSizeF)>& paint) {
  p.setFont(figure::font(figure::Text::Label));
  paint(p, logical);
}

void savePainted(const std::string& path, const std::string& format, const FigureOptions& o,
                 const std::function<void(QPainter&, QSizeF)>& paint, const QString& title) {
  const QSizeF logical = figure::logicalSize(o);
  // Encoded in memory, then written by the one output path (whole or not at all).
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (format == "svg") {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(logical.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), logical));
    svg.setResolution(static_cast<int>(figure::kLogicalPerInch));
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("ropescope figure"));
    QPainter p;
    if (!p.begin(&svg)) throw InputError("cannot write output file \"" + path + "\"", "out");
    paintFigureText(p, logical, paint);
    p.end();
  } else if (format == "pdf") {
    QPdfWriter pdf(&buffer);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("ropescope"));
    pdf.setResolution(static_cast<int>(figure::kLogicalPerInch));
    const QSizeF points = logical / figure::kLogicalPerInch * 72.0;
    pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter p;
    if (!p.begin(&pdf)) throw InputError("cannot write output file \"" + path + "\"", "out");
    // The painter's window is the page in device units (144 per inch): the logical canvas.
    paintFigureText(p, logical, paint);
    p.end();
  } else {
    QImage image = figure_kit::blankImage(o);
    {
      QPainter p(&image);
      p.setRenderHint(QPainter::Antialiasing);
      p.setRenderHint(QPainter::TextAntialiasing);
      toFigureLogical(p, o);
      paintFigureText(p, logical, paint);
    }
    image.setDevicePixelRatio(1.0);
    bytes = pngBytes(image, path);
  }
  buffer.close();
  writeBytes(path, bytes);
}

}  // namespace

void checkFigureNeeds(const Scene& scene, const FigureView& view) {
  const auto& segments = scene.layout.segments;
  const auto any = [&segments](auto has) {
    return std::any_of(segments.begin(), segments.end(), has);
  };
  if (view.needs == FigureNeed::Picture &&
      !any([](const Segment& s) { return s.source.isPicture(); }))
    throw InputError(figure_kit::kNeedsPicture, "view");
  if (view.needs == FigureNeed::Audio && !any([](const Segment& s) { return s.isAudio(); }))
    throw InputError(figure_kit::kNeedsAudio, "view");
  if (view.needs == FigureNeed::TextAfterVisual) {
    bool visual = false, textAfter = false;
    for (const Segment& s : segments) {
      visual = visual || s.isVisual();
      if (s.isVisual()) textAfter = false;
      if (visual && s.isText()) textAfter = true;
    }
    if (!textAfter) throw InputError(figure_kit::kNeedsTextAfterVisual, "view");
  }
}

std::string figureFormat(const FigureView& view, const std::string& path) {
  const auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? std::string() : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string known;
  for (const std::string& f : view.formats) {
    if (f == ext) return f;
    known += (known.empty() ? "." : ", .") + f;
  }
  throw InputError("view " + view.name + " cannot be written as \"" + path +
                       "\" (accepted extensions: " + known + ")",
                   "out");
}

std::string figureData(const Scene& scene, const FigureView& view, TableFormat format,
                       const FigureOptions& o) {
  return view.data(scene, view, format, o);
}

namespace {

// True when Qt Charts drew every name of `axis` (it hides a name that would overlap its
// neighbour, by its own rule for the label's box).
bool everyNameShows(QGraphicsScene* scene, QBarCategoryAxis* axis) {
  QSet<QString> shown;
  for (QGraphicsItem* item : scene->items())
    if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
      shown.insert(text->toPlainText());
  for (const QString& name : axis->categories())
    if (!shown.contains(name)) return false;
  return true;
}

}  // namespace

void layOutFigureChart(QChart* chart, QGraphicsScene* scene, const QSizeF& logical) {
  scene->addItem(chart);
  chart->setGeometry(QRectF(QPointF(0, 0), logical));
  QApplication::processEvents();  // lets the chart lay out its axes and legend
  // With many rows (every design) Qt Charts hides some category names: the figure draws them
  // itself, as large as the rows allow (figure::RowNames).
  for (QAbstractAxis* axis : chart->axes(Qt::Vertical)) {
    auto* categories = qobject_cast<QBarCategoryAxis*>(axis);
    if (!categories || categories->count() == 0 || everyNameShows(scene, categories)) continue;
    QAbstractBarSeries* bars = nullptr;
    for (QAbstractSeries* s : chart->series())
      if (s->attachedAxes().contains(categories)) bars = qobject_cast<QAbstractBarSeries*>(s);
    if (!bars) continue;
    figure::RowNames::attach(chart, bars, categories);
    QApplication::processEvents();  // lays the chart out with the names' margin
  }
  scene->setSceneRect(QRectF(QPointF(0, 0), logical));
}

std::unique_ptr<QChart> figureChart(const Scene& scene, const FigureView& view,
                                    const FigureOptions& o) {
  if (!view.chart) throw InputError("view " + view.name + " is not a chart", "view");
  return view.chart(scene, view, o);
}

namespace {

// What paints a Chart, Painted or Heatmap view at its logical size: its own painter, or its
// chart laid out as every export lays it out.
FigurePainter figurePainterOf(const Scene& scene, const FigureView& view, const FigureOptions& o) {
  if (view.painter) return view.painter(scene, o);
  std::shared_ptr<QChart> chart = figureChart(scene, view, o);
  return [chart](QPainter& p, QSizeF logical) { paintFigureChart(chart.get(), &p, logical); };
}

}  // namespace

QImage figureImage(const Scene& scene, const FigureView& view, const FigureOptions& o) {
  figure::validate(o);
  validateScene(scene);
  if (view.image) return view.image(scene, o);
  QImage image = figure_kit::blankImage(o);
  {
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    toFigureLogical(p, o);
    p.setFont(figure::font(figure::Text::Label));
    figurePainterOf(scene, view, o)(p, figure::logicalSize(o));
  }
  return image;
}

void exportFigure(const Scene& scene, const std::string& viewName, const std::string& path,
                  const FigureOptions& o) {
  const FigureView& view = findFigureView(viewName);
  const std::string format = figureFormat(view, path);
  figure::validate(o);
  validateScene(scene);
  checkFigureNeeds(scene, view);
  checkOutputPath(path);  // a folder or a read-only file is refused before the drawing
  if (format == "ply" || format == "gltf") {
    const std::string bytes =
        idCloud(effectiveIds(scene), format == "ply" ? CloudFormat::Ply : CloudFormat::Gltf);
    writeFileAtomically(path, bytes);
    return;
  }
  if (format == "csv" || format == "json") {
    const std::string text =
        figureData(scene, view, format == "csv" ? TableFormat::Csv : TableFormat::Json, o);
    writeFileAtomically(path, text);
    return;
  }
  const QString title = QString::fromStdString(view.name + ": " + view.description);
  if (view.image) {
    writePng(path, figureImage(scene, view, o));
    return;
  }
  savePainted(path, format, o, figurePainterOf(scene, view, o), title);
}

}  // namespace ropescope::ui
