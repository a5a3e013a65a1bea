#include "figures/figure_views.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBuffer>
#include <QChart>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QPainter>
#include <QPdfWriter>
#include <QResizeEvent>
#include <QSet>
#include <QSvgGenerator>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "figures/figure_attention.h"
#include "figures/figure_charts.h"
#include "figures/figure_principles.h"
#include "figures/row_names.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "picture/picture_canvas.h"
#include "picture/picture_view.h"
#include "platform/file_output.h"
#include "ropescope/attention_readouts.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/id_cloud.h"
#include "ropescope/named.h"
#include "ropescope/phasor.h"
#include "ropescope/position_design.h"
#include "ropescope/principles_report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/sound_display.h"
#include "ropescope/table_report.h"
#include "ropescope/token_groups.h"
#include "ropescope/wavelengths.h"
#include "sound/sound_view.h"
#include "space/position_space_view.h"
#include "style/metric_text.h"
#include "teaching/phasor_view.h"

namespace ropescope::ui {

namespace {

constexpr const char* kAxisNames[3] = {"t", "h", "w"};
const std::vector<std::string> kChartFormats = {"svg", "pdf", "png", "csv", "json"};
const std::vector<std::string> kSpaceFormats = {"png", "csv", "json"};
// The space view also exports its ids as a 3-D point cloud (core id_cloud.h).
const std::vector<std::string> kCloudFormats = {"png", "csv", "json", "ply", "gltf"};
constexpr const char* kNeedsPicture = "this view needs a picture in the layout (an img:FILE item)";
constexpr const char* kNeedsAudio =
    "this view needs audio in the layout (an a<N> or aud:FILE item)";
constexpr const char* kNeedsTextAfterVisual =
    "this view needs text after a picture or video in the layout (e.g. t4,i3x3,t8)";
// The four schemes of the Circle-RoPE paper, in its order.
const std::vector<std::string> kCompareDesigns = {"hard", "unordered", "spatial", "circle"};
// The fading view's q/k: the same random q/k (seed 0, 4 heads) for every design, so that its
// curves differ by position alone.
constexpr int kFadingHeads = 4;

// The fading view's curves: the Circle-RoPE paper's four schemes and the scene's design (when
// another), each the mean visual share over heads (attention_readouts.h).
struct FadingFigure {
  std::vector<std::size_t> tokens;
  std::vector<double> uniform;
  std::vector<figure::FadingCurve> curves;
  std::string current;
};

FadingFigure fadingFigure(const Scene& scene) {
  FadingFigure f;
  f.current = effectiveDesign(scene);
  std::vector<std::string> designs = kCompareDesigns;
  if (std::find(designs.begin(), designs.end(), f.current) == designs.end())
    designs.push_back(f.current);
  QkSourceSpec source;
  source.kind = QkSourceSpec::Kind::Random;
  source.heads = kFadingHeads;
  for (const std::string& d : designs) {
    const AttentionReadouts r = sceneAttentionReadouts(sceneUnderDesign(scene, d), source);
    if (!r.fadingUndefined.empty()) throw InputError(kNeedsTextAfterVisual, "view");
    f.tokens = r.fadingTokens;
    f.uniform = r.fadingUniform;
    f.curves.push_back({d, r.fading});
  }
  return f;
}

SceneMetrics metricsOf(const Scene& scene, const FigureOptions& o) {
  return computeSceneMetrics(scene, o.maxDistance);
}

bool hasPairs(const PairTable& pairs, int axis) {
  return !pairs.pairsOf(static_cast<Axis>(axis)).empty();
}

// Per-axis decay curves: the full form of SceneMetrics, or the subset form (only the moving
// axis's pairs). Axes without pairs are left empty.
// MHRoPE gives each KV head one axis: the subset curve of an axis is that of a head carrying it
// (the Revisiting paper's Fig. 4b), not of the scene's kv_head only.
std::array<std::vector<double>, 3> decayCurves(const Scene& scene, const SceneMetrics& m,
                                               bool subset, int maxD) {
  std::array<std::vector<double>, 3> curves;
  for (int a = 0; a < 3; ++a) {
    const Id3 dir{a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0};
    if (!hasPairs(m.pairs, a)) {
      if (!subset || scene.frequency.plan != "multihead") continue;
      FrequencySpec spec = scene.frequency;
      for (int head = 0; head < spec.kvHeads && curves[a].empty(); ++head) {
        spec.kvHead = head;
        const PairTable pairs = resolvePairs(spec);
        if (hasPairs(pairs, a)) curves[a] = decayCurve(pairs, dir, maxD, DecayForm::Subset);
      }
      continue;
    }
    curves[a] = subset ? decayCurve(m.pairs, dir, maxD, DecayForm::Subset) : m.decayAxis[a];
  }
  return curves;
}

// The same curves before the scene's rope scaling (core's unscaledPairs), for the axes
// `curves` has; all empty without a scaling.
std::array<std::vector<double>, 3> unscaledDecayCurves(
    const SceneMetrics& m, const std::array<std::vector<double>, 3>& curves, bool subset,
    int maxD) {
  std::array<std::vector<double>, 3> out;
  if (!m.pairs.scaled()) return out;
  const PairTable plain = unscaledPairs(m.pairs);
  for (int a = 0; a < 3; ++a) {
    if (curves[a].empty() || !hasPairs(m.pairs, a)) continue;
    const Id3 dir{a == 0 ? 1.0 : 0.0, a == 1 ? 1.0 : 0.0, a == 2 ? 1.0 : 0.0};
    out[a] = subset ? decayCurve(plain, dir, maxD, DecayForm::Subset) : m.decayAxisUnscaled[a];
  }
  return out;
}

// 10000 for RoFormer's base, 1e6 / 5e6 for the Qwen bases.
QString baseText(double base) {
  if (base < 1e5) return QString::number(base, 'g', 6);
  const int e = static_cast<int>(std::floor(std::log10(base)));
  const double m = base / std::pow(10.0, e);
  return QStringLiteral("%1e%2").arg(QString::number(m, 'g', 4)).arg(e);
}

// The papers' names of the frequency plans, for titles.
QString planTitle(const std::string& plan) {
  static const std::map<std::string, const char*> names = {
      {"vanilla", "RoPE"},     {"mrope", "MRoPE"},         {"interleaved", "MRoPE-I"},
      {"multihead", "MHRoPE"}, {"videorope", "VideoRoPE"}, {"videorope-repo", "VideoRoPE"},
      {"hope", "HoPE"},        {"mm-rope", "MM-RoPE"}};
  const auto it = names.find(plan);
  return it == names.end() ? QString::fromStdString(plan) : QLatin1String(it->second);
}

// The PTD as every view shows it (metric_text.h): hard 2.2222, unordered 0, circle 0 (its 1e-16
// is rounding), n/a with what is missing when the layout has no text or no visual token.
// `shortForm`: a quarter of the compare figure has room for "n/a" only; the reason (the same in
// every quarter) is the space view's and the formulas'.
QString compareTitle(const std::string& design, const PtdResult& ptd, bool shortForm = false) {
  return QStringLiteral("%1  PTD %2")
      .arg(QString::fromStdString(findDesign(design).title()),
           shortForm ? metricText(ptd.ptd) : metricTitleText(ptd.ptd, ptd.nText, ptd.nVisual));
}

// A 3-D view of `ids`, `px` device pixels, drawn offscreen (no screen grab).
QImage renderSpace(const Scene& scene, const PositionIds& ids, long selectedToken,
                   const QString& title, QSize px, double scale, const FigureOptions& o,
                   bool key = true) {
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

}  // namespace

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

// Maps the layout canvas onto the image's pixels. An explicit transform, not the image's device
// pixel ratio: QPainter treats a ratio below 1 as 1, which cropped figures under 504 px wide.
void toLogical(QPainter& p, const FigureOptions& o) {
  const double s = figure::effectiveScale(o);
  p.scale(s, s);
}

QImage spaceImage(const Scene& scene, const FigureOptions& o) {
  const SceneMetrics m = metricsOf(scene, o);
  const QString title = compareTitle(m.designUsed, m.ptd);
  QImage out = blankImage(o);
  const QImage view =
      renderSpace(scene, m.ids, m.selectedToken, title, o.size, figure::effectiveScale(o), o);
  QPainter p(&out);
  p.drawImage(0, 0, view);
  return out;
}

QImage compareImage(const Scene& scene, const FigureOptions& o) {
  QImage out = blankImage(o);
  QPainter p(&out);
  const int w = o.size.width(), h = o.size.height();
  const int cw[2] = {w / 2, w - w / 2}, ch[2] = {h / 2, h - h / 2};
  for (std::size_t i = 0; i < kCompareDesigns.size(); ++i) {
    const int col = static_cast<int>(i % 2), row = static_cast<int>(i / 2);
    const Scene s = sceneUnderDesign(scene, kCompareDesigns[i]);
    const SceneMetrics m = metricsOf(s, o);
    const QImage panel =
        renderSpace(s, m.ids, m.selectedToken, compareTitle(kCompareDesigns[i], m.ptd, true),
                    QSize(cw[col], ch[row]), figure::effectiveScale(o), o, i == 1);
    p.drawImage(col * cw[0], row * ch[0], panel);
  }
  // Hairlines between the panels.
  QPen pen(figure::gridColor());
  pen.setWidthF(std::max(1.0, figure::effectiveScale(o)));
  p.setPen(pen);
  p.drawLine(QPointF(cw[0], 0), QPointF(cw[0], h));
  p.drawLine(QPointF(0, ch[0]), QPointF(w, ch[0]));
  return out;
}

// A figure's own model showing `scene` with every result computed: a scene past the model's
// background size is computed on its worker (waited for here; before, such a picture figure
// showed the default scene and failed with "needs a picture"). Throws what the model refused.
void showComputed(SceneModel& model, const Scene& scene) {
  model.setScene(scene);
  model.waitForMetrics(std::numeric_limits<int>::max());
  if (model.isStale())
    throw InputError(model.problem()->message.toStdString(), model.problem()->field.toStdString());
}

// The segment a picture or sound figure shows: `o.segment` when it is one `isKind` takes, the
// view's own first one when it is -1; anything else is refused in one line.
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

// A figure's title in its band: the title font, shrunk to fit a narrow canvas (never cut).
void paintFigureTitle(QPainter& p, const QString& title, double width, double band) {
  QFont f = figure::font(figure::Text::Title);
  const double room = width - 8;
  while (f.pixelSize() > 9 && QFontMetricsF(f).horizontalAdvance(title) > room)
    f.setPixelSize(f.pixelSize() - 1);
  p.setFont(f);
  p.setPen(figure::foreground());
  p.drawText(QRectF(4, 0, room, band), Qt::AlignCenter, title);
}

// The picture view on its own model showing what the Picture tab shows (the options' segment,
// picked token and temporal patch), painted on any device at `logical` size.
struct Heatmap {
  SceneModel model;
  PictureView view;
  Heatmap(const Scene& scene, bool bias, const FigureOptions& o) : view(&model) {
    checkFigureSegment(scene, o, true);
    showComputed(model, scene);
    if (o.segment >= 0) view.showSegment(o.segment);
    if (view.shownSegment() < 0) throw InputError(kNeedsPicture, "view");
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
    if (o.title) paintFigureTitle(p, title(bias), logical.width(), band);
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

// The Sound tab on its own model (the options' audio segment, else the first, and its map),
// painted on any device.
struct SoundFigure {
  SceneModel model;
  SoundView view;
  SoundOverlay overlay;
  SoundFigure(const Scene& scene, const FigureOptions& o) : view(&model), overlay(o.soundOverlay) {
    checkFigureSegment(scene, o, false);
    showComputed(model, scene);
    if (o.segment >= 0) view.showSegment(o.segment);
    if (view.shownSegment() < 0) throw InputError(kNeedsAudio, "view");
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
    if (o.title) paintFigureTitle(p, title(), logical.width(), band);
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

// The phasor picture of the Phasors tab for the options' displacement (core's computePhasor on
// the scene's pair table).
Phasor phasorOf(const Scene& scene, const FigureOptions& o) {
  const Id3 delta =
      o.phasorDelta ? *o.phasorDelta : directionDisplacement(o.phasorAlong, o.phasorDistance);
  return computePhasor(metricsOf(scene, o).pairs, delta);
}

void paintPhasorFigure(QPainter& p, QSizeF logical, const Phasor& ph, const FigureOptions& o) {
  p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
  p.setFont(figure::font(figure::Text::Label));
  paintPhasor(p, QRectF(QPointF(0, 0), logical).toAlignedRect(), ph, false,
              o.title ? phasorCaption(ph) : QString());
}

Table phasorTable(const Phasor& ph) {
  Table t;
  t.columns = {"pair",   "axis",       "theta",       "delta_t", "delta_h", "delta_w",
               "phase",  "wrapped",    "turns",       "re",      "im",      "sum_re",
               "sum_im", "sum_length", "decay_bound", "bias"};
  for (const PhasorPair& q : ph.pairs)
    t.rows.push_back({static_cast<long long>(q.index), std::string(axisName(q.axis)), q.theta,
                      ph.delta[0], ph.delta[1], ph.delta[2], q.phase, q.wrapped, q.turns, q.re,
                      q.im, q.sumRe, q.sumIm, q.sumLength, ph.decayBound, ph.bias});
  return t;
}

void paintChart(QChart* chart, QPainter* p, const QSizeF& logical) {
  QGraphicsScene scene;
  layOutFigureChart(chart, &scene, logical);
  scene.render(p, QRectF(QPointF(0, 0), logical), QRectF(QPointF(0, 0), logical));
  scene.removeItem(chart);
}

bool isBias(const FigureView& v) {
  return v.name == "picture-bias";
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
    QImage image = blankImage(o);
    {
      QPainter p(&image);
      p.setRenderHint(QPainter::Antialiasing);
      p.setRenderHint(QPainter::TextAntialiasing);
      toLogical(p, o);
      paintFigureText(p, logical, paint);
    }
    image.setDevicePixelRatio(1.0);
    bytes = pngBytes(image, path);
  }
  buffer.close();
  writeBytes(path, bytes);
}

}  // namespace

const std::vector<FigureView>& figureViews() {
  static const std::vector<FigureView> views = {
      {"space",
       "3-D position ids of the scene's design, titled with its PTD (ply, gltf: the id cloud)",
       FigureKind::Space, kCloudFormats},
      {"compare", "the four schemes of the Circle-RoPE paper (hard, unordered, spatial, circle)",
       FigureKind::Space, kSpaceFormats},
      {"decay", "decay bound U(delta) per axis, full form (all pairs)", FigureKind::Chart,
       kChartFormats},
      {"decay-subset", "decay bound per axis, subset form (only the moving axis's pairs)",
       FigureKind::Chart, kChartFormats},
      {"ptd", "PTD of every design on the scene's layout", FigureKind::Chart, kChartFormats},
      {"bias", "bias spread of every design on the scene's layout", FigureKind::Chart,
       kChartFormats},
      {"modality-ptd", "PTD between every two modalities (text, image, video, audio)",
       FigureKind::Chart, kChartFormats},
      {"modality-bias", "bias spread between every two modalities", FigureKind::Chart,
       kChartFormats},
      {"profile", "the selected text token's distance and bias to every visual token",
       FigureKind::Chart, kChartFormats},
      {"wavelengths", "wavelength 2pi/theta of every rotary pair", FigureKind::Chart,
       kChartFormats},
      {"age", "AGE schedule: which decoder layers use circle ids", FigureKind::Chart,
       kChartFormats},
      {"picture", "the picture with its grid and the text token's distance heat map",
       FigureKind::Heatmap, kChartFormats, FigureNeed::Picture},
      {"picture-bias", "the picture with its grid and the positional-bias heat map",
       FigureKind::Heatmap, kChartFormats, FigureNeed::Picture},
      {"attention", "RoPE attention logits with identical q and k (pure positional attention)",
       FigureKind::Heatmap, kChartFormats},
      {"phasor",
       "the Phasors tab: every rotary pair's phase at a displacement (--distance, --along)",
       FigureKind::Painted, kChartFormats},
      {"sound",
       "the Sound tab: the first audio segment's waveform and spectrogram, each audio token's "
       "span coloured by the text token's distance",
       FigureKind::Painted, kChartFormats, FigureNeed::Audio},
      {"principles",
       "the design principles of arXiv 2510.23095 (coherence, frequency use, text prior): the "
       "scene's design and the paper's designs",
       FigureKind::Painted, kChartFormats},
      {"fading",
       "visual fading: each text token's attention on the visual tokens after the last picture, "
       "a curve per design (hard, unordered, spatial, circle and the scene's) on the same random "
       "q/k",
       FigureKind::Chart, kChartFormats, FigureNeed::TextAfterVisual},
  };
  return views;
}

const FigureView& findFigureView(const std::string& name) {
  return findByName(
      figureViews(), name, [](const FigureView& v) { return v.name; }, "view", "view");
}

void checkFigureNeeds(const Scene& scene, const FigureView& view) {
  const auto& segments = scene.layout.segments;
  const auto any = [&segments](auto has) {
    return std::any_of(segments.begin(), segments.end(), has);
  };
  if (view.needs == FigureNeed::Picture &&
      !any([](const Segment& s) { return s.source.isPicture(); }))
    throw InputError(kNeedsPicture, "view");
  if (view.needs == FigureNeed::Audio && !any([](const Segment& s) { return s.isAudio(); }))
    throw InputError(kNeedsAudio, "view");
  if (view.needs == FigureNeed::TextAfterVisual) {
    bool visual = false, textAfter = false;
    for (const Segment& s : segments) {
      visual = visual || s.isVisual();
      if (s.isVisual()) textAfter = false;
      if (visual && s.isText()) textAfter = true;
    }
    if (!textAfter) throw InputError(kNeedsTextAfterVisual, "view");
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
  const std::string title = view.name + ": " + view.description;
  Table t;
  if (view.name == "principles") {
    const std::vector<PrinciplesVerdict> rows = principlesFigureRows(scene);
    if (format == TableFormat::Json) return principlesReport(rows, PrinciplesFormat::Json);
    t.columns = {"label", "design", "plan", "coherence", "frequency", "text_prior"};
    for (const PrinciplesVerdict& r : rows)
      t.rows.push_back({r.label, r.design, r.plan, std::string(verdictName(r.coherence.verdict)),
                        std::string(verdictName(r.frequency.verdict)),
                        std::string(verdictName(r.text.verdict))});
  } else if (view.name == "space") {
    return idsReport(metricsOf(scene, o).ids, format);
  } else if (view.name == "compare") {
    t.columns = {"design", "ptd", "token", "modality", "t", "h", "w"};
    for (const std::string& d : kCompareDesigns) {
      const SceneMetrics m = metricsOf(sceneUnderDesign(scene, d), o);
      for (std::size_t i = 0; i < m.ids.size(); ++i)
        t.rows.push_back({d, m.ptd.ptd, static_cast<long long>(i),
                          std::string(modalityName(m.ids.tokens[i].modality)), m.ids.ids[i][0],
                          m.ids.ids[i][1], m.ids.ids[i][2]});
    }
  } else if (view.name == "decay" || view.name == "decay-subset") {
    const SceneMetrics m = metricsOf(scene, o);
    const bool subset = view.name == "decay-subset";
    const auto curves = decayCurves(scene, m, subset, o.maxDistance);
    const auto unscaled = unscaledDecayCurves(m, curves, subset, o.maxDistance);
    // The stream (t = h = w) curve is full form only: the subset form moves one axis.
    const bool stream = view.name == "decay" && !m.decayStream.empty();
    t.columns = {"distance"};
    for (int a = 0; a < 3; ++a)
      if (!curves[a].empty()) t.columns.push_back(std::string("U_") + kAxisNames[a]);
    for (int a = 0; a < 3; ++a)
      if (!unscaled[a].empty())
        t.columns.push_back(std::string("U_") + kAxisNames[a] + "_unscaled");
    if (stream) t.columns.push_back("U_thw");
    for (std::size_t i = 0; i < m.decayDistance.size(); ++i) {
      std::vector<TableCell> row{m.decayDistance[i]};
      for (int a = 0; a < 3; ++a)
        if (!curves[a].empty()) row.push_back(curves[a][i]);
      for (int a = 0; a < 3; ++a)
        if (!unscaled[a].empty()) row.push_back(unscaled[a][i]);
      if (stream) row.push_back(m.decayStream[i]);
      t.rows.push_back(std::move(row));
    }
  } else if (view.name == "ptd" || view.name == "bias") {
    t.columns = {"design", "title", "ptd", "bias_spread"};
    for (const DesignSummary& d : compareDesigns(scene))
      t.rows.push_back({d.design, d.title, d.ptd, d.biasSpread});
  } else if (view.name == "modality-ptd" || view.name == "modality-bias") {
    t.columns = {"from", "to", "n_from", "n_to", "ptd", "bias_spread", "not_computed"};
    for (const ModalityPairMetrics& r : sceneModalityMetrics(scene))
      t.rows.push_back({std::string(tokenGroupName(r.groups.from)),
                        std::string(tokenGroupName(r.groups.to)), static_cast<long long>(r.nFrom),
                        static_cast<long long>(r.nTo), r.ptd, r.biasSpread, r.skipped});
  } else if (view.name == "profile") {
    const SceneMetrics m = metricsOf(scene, o);
    t.columns = {"visual", "distance", "bias"};
    for (std::size_t i = 0; i < m.selectedDistance.size(); ++i)
      t.rows.push_back({static_cast<long long>(i), m.selectedDistance[i],
                        i < m.selectedBias.size() ? m.selectedBias[i] : 0.0});
  } else if (view.name == "wavelengths") {
    const SceneMetrics m = metricsOf(scene, o);
    return freqsReport(m.wavelengths, kDefaultContextLength, format);
  } else if (view.name == "age") {
    t.columns = {"layer", "circle"};
    const std::vector<bool> layers = ageLayers(scene.age);
    for (std::size_t l = 0; l < layers.size(); ++l)
      t.rows.push_back({static_cast<long long>(l), static_cast<long long>(layers[l] ? 1 : 0)});
  } else if (view.name == "attention") {
    t = attentionTable(attentionFigure(scene));
  } else if (view.name == "fading") {
    const FadingFigure f = fadingFigure(scene);
    t.columns = {"text_token", "token", "uniform"};
    for (const auto& c : f.curves) t.columns.push_back(c.design);
    for (std::size_t i = 0; i < f.tokens.size(); ++i) {
      std::vector<TableCell> row = {static_cast<long long>(i + 1),
                                    static_cast<long long>(f.tokens[i]), f.uniform[i]};
      for (const auto& c : f.curves) row.push_back(c.share[i]);
      t.rows.push_back(std::move(row));
    }
  } else if (view.name == "phasor") {
    t = phasorTable(phasorOf(scene, o));
  } else if (view.name == "sound") {
    t = SoundFigure(scene, o).table();
  } else {  // picture heat maps
    t = Heatmap(scene, isBias(view), o).table(isBias(view));
  }
  return tableReport(t, format, title);
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
  if (view.name == "ptd" || view.name == "bias")
    return figure::designBarsChart(compareDesigns(scene), effectiveDesign(scene),
                                   view.name == "ptd", o);
  if (view.name == "modality-ptd" || view.name == "modality-bias")
    return figure::modalityBarsChart(sceneModalityMetrics(scene), view.name == "modality-ptd", o);
  if (view.name == "age") return figure::ageChart(scene.age, o);
  if (view.name == "fading") {
    checkFigureNeeds(scene, view);
    const FadingFigure f = fadingFigure(scene);
    return figure::fadingChart(
        f.curves, f.uniform, f.current,
        QStringLiteral("Visual fading, %1 random q/k heads").arg(kFadingHeads), o);
  }
  const SceneMetrics m = metricsOf(scene, o);
  if (view.name == "decay" || view.name == "decay-subset") {
    const bool subset = view.name == "decay-subset";
    const auto curves = decayCurves(scene, m, subset, o.maxDistance);
    // With a rope scaling the faint curves are the plan's before it, as in the live chart; the
    // title names the scaling in place of the base, so that it fits a column; decayChart names the
    // faint curves in the legend.
    const QString title = m.pairs.scaled()
                              ? QStringLiteral("%1 decay%2, d %3, %4")
                                    .arg(planTitle(scene.frequency.plan),
                                         subset ? QStringLiteral(" (subset)") : QString())
                                    .arg(scene.frequency.rotary.headDim)
                                    .arg(QString::fromStdString(m.pairs.ropeType))
                              : QStringLiteral("%1 decay per axis%2, d %3, base %4")
                                    .arg(planTitle(scene.frequency.plan),
                                         subset ? QStringLiteral(" (subset)") : QString())
                                    .arg(scene.frequency.rotary.headDim)
                                    .arg(baseText(scene.frequency.rotary.base));
    return figure::decayChart(m.decayDistance, curves, title, o,
                              subset ? std::vector<double>{} : m.decayStream,
                              unscaledDecayCurves(m, curves, subset, o.maxDistance));
  }
  if (view.name == "profile") return figure::profileChart(m, scene.selectedText, o);
  if (view.name == "wavelengths") return figure::wavelengthChart(m, o);
  throw InputError("view " + view.name + " is not a chart", "view");
}

QImage figureImage(const Scene& scene, const FigureView& view, const FigureOptions& o) {
  figure::validate(o);
  validateScene(scene);
  if (view.name == "space") return spaceImage(scene, o);
  if (view.name == "compare") return compareImage(scene, o);
  QImage image = blankImage(o);
  {
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    toLogical(p, o);
    p.setFont(figure::font(figure::Text::Label));
    if (view.name == "attention") {
      paintAttentionFigure(p, figure::logicalSize(o), attentionFigure(scene), o);
    } else if (view.name == "phasor") {
      paintPhasorFigure(p, figure::logicalSize(o), phasorOf(scene, o), o);
    } else if (view.name == "principles") {
      paintPrinciplesFigure(p, figure::logicalSize(o), principlesFigureRows(scene), o);
    } else if (view.name == "sound") {
      SoundFigure f(scene, o);
      f.paint(p, figure::logicalSize(o), o);
    } else if (view.kind == FigureKind::Heatmap) {
      Heatmap h(scene, isBias(view), o);
      h.paint(p, figure::logicalSize(o), o, isBias(view));
    } else {
      auto chart = figureChart(scene, view, o);
      paintChart(chart.get(), &p, figure::logicalSize(o));
    }
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
  if (view.kind == FigureKind::Space) {
    writePng(path, figureImage(scene, view, o));
    return;
  }
  if (view.name == "attention") {
    const AttentionFigure a = attentionFigure(scene);
    savePainted(
        path, format, o,
        [&](QPainter& p, QSizeF logical) { paintAttentionFigure(p, logical, a, o); }, title);
    return;
  }
  if (view.name == "phasor") {
    const Phasor ph = phasorOf(scene, o);
    savePainted(
        path, format, o, [&](QPainter& p, QSizeF logical) { paintPhasorFigure(p, logical, ph, o); },
        title);
    return;
  }
  if (view.name == "principles") {
    const std::vector<PrinciplesVerdict> rows = principlesFigureRows(scene);
    savePainted(
        path, format, o,
        [&](QPainter& p, QSizeF logical) { paintPrinciplesFigure(p, logical, rows, o); }, title);
    return;
  }
  if (view.name == "sound") {
    SoundFigure f(scene, o);
    savePainted(
        path, format, o, [&](QPainter& p, QSizeF logical) { f.paint(p, logical, o); }, title);
    return;
  }
  if (view.kind == FigureKind::Heatmap) {
    Heatmap h(scene, isBias(view), o);
    savePainted(
        path, format, o, [&](QPainter& p, QSizeF logical) { h.paint(p, logical, o, isBias(view)); },
        title);
    return;
  }
  auto chart = figureChart(scene, view, o);
  savePainted(
      path, format, o, [&](QPainter& p, QSizeF logical) { paintChart(chart.get(), &p, logical); },
      title);
}

}  // namespace ropescope::ui
