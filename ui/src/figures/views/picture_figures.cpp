// The picture views: "picture" and "picture-bias", the Picture tab's picture with its grid and
// the selected text token's distance or positional-bias heat map (the options' segment, picked
// token and temporal patch); their data is every patch of the shown picture.
#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <array>
#include <memory>

#include "figures/figure_view_kit.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "picture/picture_canvas.h"
#include "picture/picture_view.h"
#include "ropescope/errors.h"
#include "ropescope/token_groups.h"

namespace ropescope::ui::figure_views {

namespace {

// The picture view on its own model showing what the Picture tab shows (the options' segment,
// picked token and temporal patch), painted on any device at `logical` size.
struct PictureHeatmapFigure {
  SceneModel model;
  PictureView view;
  PictureHeatmapFigure(const Scene& scene, bool bias, const FigureOptions& o) : view(&model) {
    figure_kit::checkFigureSegment(scene, o, true);
    figure_kit::showComputed(model, scene);
    if (o.segment >= 0) view.showSegment(o.segment);
    if (view.shownSegment() < 0) throw InputError(figure_kit::kNeedsPicture, "view");
    const Segment& seg = shown();
    const int patches = seg.kind == SegmentKind::Video ? seg.frames : 1;
    if (o.temporalPatch < 0 || o.temporalPatch >= patches)
      throw InputError("--temporal-patch " + std::to_string(o.temporalPatch) +
                           " is not a temporal patch of " +
                           visualSegmentName(model.validScene().layout,
                                             static_cast<std::size_t>(view.shownSegment()))
                               .toStdString() +
                           ", which has " + std::to_string(patches) + " (0.." +
                           std::to_string(patches - 1) + ")",
                       "temporal-patch");
    view.setUnpickedTemporal(o.temporalPatch);
    model.setSelectedVisual(o.selectedVisual);
    view.setOverlay(bias ? PictureOverlay::Bias : PictureOverlay::Distance);
    QPalette pal = view.palette();
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::Window, Qt::white);
    pal.setColor(QPalette::Text, figure::foreground());
    pal.setColor(QPalette::WindowText, figure::foreground());
    pal.setColor(QPalette::Mid, QColor(120, 120, 120));
    view.setPalette(pal);
  }
  const Segment& shown() const {
    return model.validScene().layout.segments[static_cast<std::size_t>(view.shownSegment())];
  }
  // What it shows: the value, the text token, the design; the picture's name when the layout
  // has several, and a video's temporal patch.
  QString title(bool bias) const {
    const Layout& layout = model.validScene().layout;
    QString text = QStringLiteral("%1 of text token %2 to each patch (%3)")
                       .arg(bias ? QStringLiteral("Positional bias") : QStringLiteral("Distance"))
                       .arg(model.validScene().selectedText)
                       .arg(QString::fromStdString(model.metrics().designUsed));
    const auto pictures = std::count_if(layout.segments.begin(), layout.segments.end(),
                                        [](const Segment& s) { return s.source.isPicture(); });
    if (pictures > 1)
      text += QStringLiteral(", ") +
              visualSegmentName(layout, static_cast<std::size_t>(view.shownSegment()));
    if (shown().kind == SegmentKind::Video)
      text += QStringLiteral(", ") + temporalPatchText(view.temporal(), shown().frames);
    return text;
  }
  void paint(QPainter& p, QSizeF logical, const FigureOptions& o, bool bias) {
    const double band = o.title ? 26.0 : 0.0;
    // The canvas fills its widget to the edge; on a page it keeps the page's margin (its colour
    // bar's labels ended a layout pixel from the edge: 1-2 px at 300x200).
    const double m = figure::kPageMargin;
    const double top = std::max(band, m);
    view.canvas()->resize(static_cast<int>(logical.width() - 2 * m),
                          static_cast<int>(logical.height() - top - m));
    p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
    if (o.title) figure_kit::paintFigureTitle(p, title(bias), logical.width(), band);
    p.save();
    p.translate(m, top);
    p.setFont(figure::font(figure::Text::Label));
    view.canvas()->paint(p);
    p.restore();
  }
  // Every patch of the shown picture, every temporal patch of a video (the `temporal` column):
  // its cell, visual token and value.
  Table table(bool bias) const {
    const SceneMetrics& m = model.metrics();
    const auto& values = bias ? m.selectedBias : m.selectedDistance;
    Table t;
    t.columns = {"temporal", "row", "col", "visual", bias ? "bias" : "distance"};
    long visual = 0;
    std::vector<std::pair<std::array<int, 3>, long>> cells;
    for (std::size_t i = 0; i < m.ids.size(); ++i) {
      const TokenInfo& info = m.ids.tokens[i];
      if (!inGroup(info.modality, TokenGroup::Visual)) continue;
      if (info.segment == view.shownSegment())
        cells.push_back({{info.frame, info.row, info.col}, visual});
      ++visual;
    }
    std::sort(cells.begin(), cells.end());
    for (const auto& [at, v] : cells) {
      if (v >= static_cast<long>(values.size())) continue;
      t.rows.push_back({static_cast<long long>(at[0]), static_cast<long long>(at[1]),
                        static_cast<long long>(at[2]), static_cast<long long>(v),
                        values[static_cast<std::size_t>(v)]});
    }
    return t;
  }
};

std::string pictureFigureData(const Scene& scene, const FigureView& view, TableFormat format,
                              const FigureOptions& o, bool bias) {
  return figure_kit::tableText(view, PictureHeatmapFigure(scene, bias, o).table(bias), format);
}

FigurePainter pictureFigurePainter(const Scene& scene, const FigureOptions& o, bool bias) {
  auto h = std::make_shared<PictureHeatmapFigure>(scene, bias, o);
  return [h, o, bias](QPainter& p, QSizeF logical) { h->paint(p, logical, o, bias); };
}

}  // namespace

FigureView pictureView() {
  return {
      .name = "picture",
      .description = "the picture with its grid and the text token's distance heat map",
      .kind = FigureKind::Heatmap,
      .formats = figure_kit::chartFormats(),
      .needs = FigureNeed::Picture,
      .data = [](const Scene& s, const FigureView& v, TableFormat f,
                 const FigureOptions& o) { return pictureFigureData(s, v, f, o, false); },
      .painter = [](const Scene& s,
                    const FigureOptions& o) { return pictureFigurePainter(s, o, false); },
      .offeredOn = {FigureSurface::Picture},
  };
}

FigureView pictureBiasView() {
  return {
      .name = "picture-bias",
      .description = "the picture with its grid and the positional-bias heat map",
      .kind = FigureKind::Heatmap,
      .formats = figure_kit::chartFormats(),
      .needs = FigureNeed::Picture,
      .data = [](const Scene& s, const FigureView& v, TableFormat f,
                 const FigureOptions& o) { return pictureFigureData(s, v, f, o, true); },
      .painter = [](const Scene& s,
                    const FigureOptions& o) { return pictureFigurePainter(s, o, true); },
      .offeredOn = {FigureSurface::Picture},
  };
}

}  // namespace ropescope::ui::figure_views
