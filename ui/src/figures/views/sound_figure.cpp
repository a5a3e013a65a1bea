// The "sound" view: the Sound tab's waveform and spectrogram of one audio segment (the options'
// segment, else the first) with each audio token's span coloured by the options' map; its data is
// every audio token's span with the selected text token's distance and bias to it.
#include <QPainter>

#include <algorithm>
#include <memory>

#include "figures/figure_view_kit.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "ropescope/errors.h"
#include "ropescope/sound_display.h"
#include "sound/sound_view.h"

namespace ropescope::ui::figure_views {

namespace {

// The Sound tab on its own model (the options' audio segment, else the first, and its map),
// painted on any device.
struct SoundTabFigure {
  SceneModel model;
  SoundView view;
  SoundOverlay overlay;
  SoundTabFigure(const Scene& scene, const FigureOptions& o)
      : view(&model), overlay(o.soundOverlay) {
    figure_kit::checkFigureSegment(scene, o, false);
    figure_kit::showComputed(model, scene);
    if (o.segment >= 0) view.showSegment(o.segment);
    if (view.shownSegment() < 0) throw InputError(figure_kit::kNeedsAudio, "view");
    view.setOverlay(overlay);
  }
  QString title() const {
    const Layout& layout = model.validScene().layout;
    const QString design = QString::fromStdString(model.metrics().designUsed);
    QString text = overlay == SoundOverlay::None
                       ? QStringLiteral("Audio tokens' spans (%1)").arg(design)
                       : QStringLiteral("%1 from text token %2 (%3)")
                             .arg(overlay == SoundOverlay::Bias ? QStringLiteral("Positional bias")
                                                                : QStringLiteral("Distance"))
                             .arg(model.validScene().selectedText)
                             .arg(design);
    if (std::count_if(layout.segments.begin(), layout.segments.end(),
                      [](const Segment& s) { return s.isAudio(); }) > 1)
      text += QStringLiteral(", ") +
              audioSegmentName(layout, static_cast<std::size_t>(view.shownSegment()));
    return text;
  }
  void paint(QPainter& p, QSizeF logical, const FigureOptions& o) {
    const double band = o.title ? 26.0 : 0.0;
    p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
    // A long design name on a narrow canvas: the title's font shrinks to fit, never cut.
    if (o.title) figure_kit::paintFigureTitle(p, title(), logical.width(), band);
    p.save();
    p.translate(0, band);
    p.setFont(figure::font(figure::Text::Label));
    view.paintFigure(p, QSizeF(logical.width(), logical.height() - band), false);
    p.restore();
  }
  // Every audio token's span, with the selected text token's distance and bias to it (core's
  // distancesToAudio / biasToAudio) when the layout has a text token.
  Table table() const {
    const SceneMetrics& m = model.metrics();
    Table t;
    t.columns = {"audio", "token", "segment", "index", "start_s", "end_s"};
    std::vector<double> d, b;
    if (m.selectedToken >= 0) {
      d = distancesToAudio(m.ids, static_cast<std::size_t>(m.selectedToken));
      b = biasToAudio(m.ids, m.pairs, static_cast<std::size_t>(m.selectedToken));
      t.columns.push_back("distance");
      t.columns.push_back("bias");
    }
    const std::vector<AudioTokenSpan>& spans = view.spans();
    for (std::size_t a = 0; a < spans.size(); ++a) {
      std::vector<TableCell> row{static_cast<long long>(a),
                                 static_cast<long long>(spans[a].token),
                                 static_cast<long long>(spans[a].segment),
                                 static_cast<long long>(spans[a].index),
                                 spans[a].start,
                                 spans[a].end};
      if (m.selectedToken >= 0) {
        row.push_back(d[a]);
        row.push_back(b[a]);
      }
      t.rows.push_back(std::move(row));
    }
    return t;
  }
};

}  // namespace

FigureView soundView() {
  return {
      .name = "sound",
      .description =
          "the Sound tab: the first audio segment's waveform and spectrogram, each audio token's "
          "span coloured by the text token's distance",
      .kind = FigureKind::Painted,
      .formats = figure_kit::chartFormats(),
      .needs = FigureNeed::Audio,
      .data =
          [](const Scene& s, const FigureView& v, TableFormat f, const FigureOptions& o) {
            return figure_kit::tableText(v, SoundTabFigure(s, o).table(), f);
          },
      .painter = [](const Scene& s, const FigureOptions& o) -> FigurePainter {
        auto f = std::make_shared<SoundTabFigure>(s, o);
        return [f, o](QPainter& p, QSizeF logical) { f->paint(p, logical, o); };
      },
      .offeredOn = {FigureSurface::Sound},
  };
}

}  // namespace ropescope::ui::figure_views
