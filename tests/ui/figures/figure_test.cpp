// Figures for papers: every preset x view renders; PNGs have the requested size and
// are not blank; SVG and PDF parse back (QSvgRenderer, pdfinfo); exported CSV equals core's
// numbers and independent formulations; the GUI's export is the same figure as exportFigure.
#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QMouseEvent>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "figures/figure_charts.h"
#include "figures/figure_menu.h"
#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "figures/zero_bar_labels.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "ropescope/errors.h"
#include "ropescope/scene_metrics.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

bool hasPicture(const Scene& s) {
  for (const Segment& seg : s.layout.segments)
    if (!seg.source.path.empty() && seg.kind != SegmentKind::Audio) return true;
  return false;
}

// CSV fields, quotes respected ("a, b" is one field).
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') {
      out.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// Rows of a CSV file: header -> column of strings.
std::map<std::string, std::vector<std::string>> readCsv(const QString& path) {
  std::ifstream in(path.toStdString());
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> names = splitCsv(line);
  std::map<std::string, std::vector<std::string>> cols;
  while (std::getline(in, line)) {
    const std::vector<std::string> row = splitCsv(line);
    for (std::size_t i = 0; i < names.size() && i < row.size(); ++i)
      cols[names[i]].push_back(row[i]);
  }
  return cols;
}

double pixelVariance(const QImage& image) {
  double sum = 0, sq = 0;
  const QImage g = image.convertToFormat(QImage::Format_Grayscale8);
  for (int y = 0; y < g.height(); ++y)
    for (int x = 0; x < g.width(); ++x) {
      const double v = g.pixelColor(x, y).valueF();
      sum += v;
      sq += v * v;
    }
  const double n = static_cast<double>(g.width()) * g.height();
  return sq / n - (sum / n) * (sum / n);
}

// Whether a text run follows the layout's last picture or video (the fading view's need).
bool textAfterVisual(const Scene& scene) {
  bool visual = false, text = false;
  for (const Segment& s : scene.layout.segments) {
    if (s.isVisual()) visual = true, text = false;
    if (visual && s.isText()) text = true;
  }
  return text;
}

FigureOptions small() {
  FigureOptions o;
  o.size = QSize(420, 300);
  return o;
}

}  // namespace

// Every preset under every view: drawn at the requested size, and written as `ropescope render
// --preset P --view V --size 420x300 --out P_V.png` writes it (exportFigure), equal to its
// baseline image in tests/ui/baselines/figures (ROPESCOPE_UPDATE_BASELINES=1 rewrites them).
// A view the preset cannot show is refused in one line naming what it lacks.
TEST(Figure, EveryPresetAndViewRendersAtTheRequestedSize) {
  ASSERT_EQ(figurePresets().size(), 9u);
  QTemporaryDir dir;
  int rendered = 0;
  for (const FigurePreset& p : figurePresets()) {
    FigureOptions o = small();
    o.maxDistance = p.maxDistance;
    for (const FigureView& v : figureViews()) {
      const std::string what = p.name + " / " + v.name;
      // No picture (or no audio: only omni-tmrope has a sound) to draw: one clear line naming
      // what is missing, not a crash or an empty image.
      const char* missing = nullptr;
      if (v.kind == FigureKind::Heatmap && v.name != "attention" && !hasPicture(p.scene))
        missing = "picture";
      else if (v.name == "sound" && p.scene.layout.audioCount() == 0)
        missing = "audio";
      else if (v.name == "fading" && !textAfterVisual(p.scene))
        missing = "text after a picture";
      if (missing) {
        try {
          figureImage(p.scene, v, o);
          ADD_FAILURE() << what << ": expected an error";
        } catch (const InputError& e) {
          EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << what;
          EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << what;
        }
        continue;
      }
      const QImage image = figureImage(p.scene, v, o);
      ASSERT_EQ(image.size(), o.size) << what;
      EXPECT_GT(test::foregroundFraction(image), 0.003) << what;
      EXPECT_GT(test::distinctColors(image), 8) << what;
      EXPECT_GT(pixelVariance(image), 1e-3) << what;
      const QString name = QString::fromStdString(p.name + "_" + v.name) + QStringLiteral(".png");
      exportFigure(p.scene, v.name, dir.filePath(name).toStdString(), o);
      const QImage written(dir.filePath(name));
      ASSERT_EQ(written.size(), o.size) << what;
      test::matchesBaseline(written, QStringLiteral("figures/") + name);
      ++rendered;
    }
  }
  // Every view but the picture, sound and fading ones for each preset; circle-picture's two
  // picture views, omni-tmrope's sound view and the fading view of the 7 presets with text after
  // a picture on top (omni-tmrope and roformer-decay have none).
  EXPECT_EQ(rendered, 9 * static_cast<int>(figureViews().size() - 4) + 2 + 1 + 7);
}

TEST(Figure, PngsHaveTheRequestedSizeAndPrintAtOneColumn) {
  QTemporaryDir dir;
  const FigurePreset& p = findFigurePreset("circle-four-schemes");
  for (const auto& [view, size] : std::vector<std::pair<std::string, QSize>>{
           {"compare", {2400, 1800}}, {"decay", {1050, 750}}, {"space", {800, 1000}}}) {
    FigureOptions o;
    o.size = size;
    const QString path = dir.filePath(QString::fromStdString(view) + ".png");
    exportFigure(p.scene, view, path.toStdString(), o);
    QImage image(path);
    ASSERT_FALSE(image.isNull()) << view;
    EXPECT_EQ(image.size(), size) << view;
    // A sparse 3-D scene is mostly background: drawn, not blank.
    EXPECT_GT(test::foregroundFraction(image), 0.003) << view;
    EXPECT_GT(pixelVariance(image), 1e-3) << view;
    // Auto scale: the canvas is 3.5 in wide at the stored resolution.
    EXPECT_NEAR(size.width() / (image.dotsPerMeterX() * 0.0254), 3.5, 0.01) << view;
    // Light theme for export: the corners are white.
    EXPECT_EQ(image.pixelColor(1, size.height() - 2), QColor(Qt::white)) << view;
  }
}

// Each quadrant must show its own scheme: it is compared with the 3-D view of the preset under
// each of the four designs, drawn alone at the quadrant's size and scale, and must be nearest to
// its own (the same drawing but for the axis key of quadrant 1 and the hairlines).
TEST(Figure, CompareShowsEachSchemeInItsQuadrant) {
  const Scene preset = findFigurePreset("circle-four-schemes").scene;
  FigureOptions o;
  o.size = QSize(800, 600);
  o.scale = 800.0 / figure::kColumnWidth;
  const QImage image = figureImage(preset, findFigureView("compare"), o);
  const char* const designs[] = {"hard", "unordered", "spatial", "circle"};  // reading order
  FigureOptions single = o;
  single.size = QSize(400, 300);
  single.legend = false;
  std::vector<QImage> alone;
  for (const char* d : designs) {
    alone.push_back(figureImage(sceneUnderDesign(preset, d), findFigureView("space"), single));
    ASSERT_FALSE(test::looksBlank(alone.back())) << d;
  }
  for (int i = 0; i < 4; ++i) {
    const QImage quadrant = image.copy((i % 2) * 400, (i / 2) * 300, 400, 300);
    ASSERT_FALSE(test::looksBlank(quadrant)) << "quadrant " << i;
    const double own = test::compareImages(quadrant, alone[i]).differingFraction;
    EXPECT_LT(own, 0.05) << "quadrant " << i << " is not " << designs[i];
    for (int j = 0; j < 4; ++j)
      if (j != i)
        EXPECT_LT(own, test::compareImages(quadrant, alone[j]).differingFraction)
            << "quadrant " << i << " looks more like " << designs[j] << " than " << designs[i];
  }
}

TEST(Figure, SvgAndPdfParseBack) {
  QTemporaryDir dir;
  // With audio tokens after the preset's layout: the sound view needs them.
  FigurePreset p = findFigurePreset("circle-picture");
  p.scene.layout.segments.push_back(Segment::audio(12));
  FigureOptions o;  // 1050x750, auto scale: a 504x360 canvas, 3.5 x 2.5 in
  for (const FigureView& v : figureViews()) {
    if (v.kind == FigureKind::Space) continue;
    const QString svg = dir.filePath(QString::fromStdString(v.name) + ".svg");
    exportFigure(p.scene, v.name, svg.toStdString(), o);
    QSvgRenderer renderer(svg);
    ASSERT_TRUE(renderer.isValid()) << v.name;
    EXPECT_EQ(renderer.viewBox(), QRect(0, 0, 504, 360)) << v.name;
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().contains("<text")) << v.name << ": text stays text in SVG";

    const QString pdf = dir.filePath(QString::fromStdString(v.name) + ".pdf");
    exportFigure(p.scene, v.name, pdf.toStdString(), o);
    QProcess info;
    info.start(QStringLiteral("pdfinfo"), {pdf});
    ASSERT_TRUE(info.waitForFinished(-1)) << "pdfinfo";
    ASSERT_EQ(info.exitCode(), 0) << v.name << info.readAllStandardError().toStdString();
    const QString out = QString::fromUtf8(info.readAllStandardOutput());
    const auto m =
        QRegularExpression(QStringLiteral("Page size:\\s+([0-9.]+) x ([0-9.]+) pts")).match(out);
    ASSERT_TRUE(m.hasMatch()) << out.toStdString();
    EXPECT_NEAR(m.captured(1).toDouble(), 3.5 * 72, 0.5) << v.name;
    EXPECT_NEAR(m.captured(2).toDouble(), 2.5 * 72, 0.5) << v.name;
    EXPECT_TRUE(out.contains(QRegularExpression(QStringLiteral("Pages:\\s+1\\n"))))
        << out.toStdString();
  }
}

TEST(Figure, DecayCsvEqualsCoreAndRoFormersBound) {
  QTemporaryDir dir;
  const FigurePreset& p = findFigurePreset("roformer-decay");
  EXPECT_EQ(p.scene.frequency.plan, "vanilla");
  EXPECT_EQ(p.scene.frequency.rotary.headDim, 128);
  EXPECT_EQ(p.scene.frequency.rotary.base, 10000.0);
  FigureOptions o;
  o.maxDistance = p.maxDistance;
  const QString path = dir.filePath(QStringLiteral("decay.csv"));
  exportFigure(p.scene, "decay", path.toStdString(), o);
  const auto cols = readCsv(path);
  ASSERT_EQ(cols.count("U_t"), 1u);
  EXPECT_EQ(cols.count("U_h"), 0u) << "vanilla RoPE has no h pairs";
  const SceneMetrics m = computeSceneMetrics(p.scene, 256);
  ASSERT_EQ(cols.at("U_t").size(), 257u);
  for (std::size_t d = 0; d <= 256; ++d) {
    EXPECT_EQ(std::stod(cols.at("distance")[d]), static_cast<double>(d));
    EXPECT_EQ(std::stod(cols.at("U_t")[d]), m.decayAxis[0][d]) << d;  // shortest round trip
  }
  // Independent: golden/decay_bound.txt (RoFormer, d 128, base 1e4) and (1/64) sum j = 32.5.
  EXPECT_NEAR(std::stod(cols.at("U_t")[0]), 32.5, 1e-12);
  EXPECT_NEAR(std::stod(cols.at("U_t")[100]), 10.227329948505, 1e-9);
  EXPECT_NEAR(std::stod(cols.at("U_t")[256]), 6.543097322979, 1e-9);
}

// With a rope scaling the exported decay figure carries the curves before it too, as the live
// chart does: in the CSV as U_<axis>_unscaled, equal to the decay of the plan without the
// scaling (computed here on a scene without one), and in the chart as faint series.
TEST(Figure, DecayExportCarriesTheUnscaledCurves) {
  QTemporaryDir dir;
  Scene scene = findFigurePreset("roformer-decay").scene;
  scene.frequency.rope.type = "linear";
  scene.frequency.rope.params.set("factor", 8.0);
  FigureOptions o;
  o.maxDistance = 128;
  const QString path = dir.filePath(QStringLiteral("decay.csv"));
  exportFigure(scene, "decay", path.toStdString(), o);
  const auto cols = readCsv(path);
  ASSERT_EQ(cols.count("U_t_unscaled"), 1u);
  Scene plain = scene;
  plain.frequency.rope = {};
  const SceneMetrics before = computeSceneMetrics(plain, 128);
  const SceneMetrics after = computeSceneMetrics(scene, 128);
  ASSERT_EQ(cols.at("U_t_unscaled").size(), 129u);
  for (std::size_t d = 0; d <= 128; ++d) {
    EXPECT_EQ(std::stod(cols.at("U_t_unscaled")[d]), before.decayAxis[0][d]) << d;
    EXPECT_EQ(std::stod(cols.at("U_t")[d]), after.decayAxis[0][d]) << d;
  }
  EXPECT_NE(cols.at("U_t")[100], cols.at("U_t_unscaled")[100]);  // linear x8 changes the curve
  // The subset form too, and no such column without a scaling.
  exportFigure(scene, "decay-subset", path.toStdString(), o);
  EXPECT_EQ(readCsv(path).count("U_t_unscaled"), 1u);
  exportFigure(plain, "decay", path.toStdString(), o);
  EXPECT_EQ(readCsv(path).count("U_t_unscaled"), 0u);
}

TEST(Figure, FourSchemesCarryThePapersPtd) {
  QTemporaryDir dir;
  const FigurePreset& p = findFigurePreset("circle-four-schemes");
  const QString path = dir.filePath(QStringLiteral("compare.csv"));
  exportFigure(p.scene, "compare", path.toStdString(), FigureOptions{});
  const auto cols = readCsv(path);
  std::map<std::string, double> ptd;
  for (std::size_t i = 0; i < cols.at("design").size(); ++i)
    ptd[cols.at("design")[i]] = std::stod(cols.at("ptd")[i]);
  ASSERT_EQ(ptd.size(), 4u);
  EXPECT_NEAR(ptd["hard"], 20.0 / 9.0, 1e-12);  // closed form: 9 consecutive ids
  EXPECT_NEAR(ptd["unordered"], 0.0, 1e-12);
  EXPECT_NEAR(ptd["circle"], 0.0, 1e-12);
  EXPECT_NEAR(ptd["spatial"], 0.6613,
              5e-5);  // docs/reference-data.md#circle_vectorstxt, Fig. 1(c) labels
  // 9 image + 5 text tokens per design.
  EXPECT_EQ(cols.at("token").size(), 4u * 14u);
}

TEST(Figure, DesignCsvEqualsCompareDesigns) {
  QTemporaryDir dir;
  const Scene scene = findFigurePreset("circle-four-schemes").scene;
  const QString path = dir.filePath(QStringLiteral("ptd.csv"));
  exportFigure(scene, "ptd", path.toStdString(), FigureOptions{});
  const auto cols = readCsv(path);
  const auto designs = compareDesigns(scene);
  ASSERT_EQ(cols.at("design").size(), designs.size());
  for (std::size_t i = 0; i < designs.size(); ++i) {
    EXPECT_EQ(cols.at("design")[i], designs[i].design);
    EXPECT_EQ(std::stod(cols.at("ptd")[i]), designs[i].ptd);
    EXPECT_EQ(std::stod(cols.at("bias_spread")[i]), designs[i].biasSpread);
  }
}

// Qt Charts draws no value label on a bar of length 0, so the PTD figure of the four schemes
// showed no number for the two designs the paper is about (unordered, circle: PTD 0). Each zero
// bar reads "0" beside the axis, in the exported pixels; with the series' labels off, none does.
TEST(Figure, ZeroBarsReadZero) {
  const Scene scene = findFigurePreset("circle-four-schemes").scene;
  const auto designs = compareDesigns(scene);
  std::vector<int> zero;
  for (std::size_t i = 0; i < designs.size(); ++i)
    if (std::abs(designs[i].ptd) < 1e-12) zero.push_back(static_cast<int>(i));
  std::vector<std::string> zeroNames;
  for (int i : zero) zeroNames.push_back(designs[std::size_t(i)].design);
  ASSERT_NE(std::find(zeroNames.begin(), zeroNames.end(), "unordered"), zeroNames.end());
  ASSERT_NE(std::find(zeroNames.begin(), zeroNames.end(), "circle"), zeroNames.end());
  FigureOptions o;
  for (const bool labelled : {true, false}) {
    SCOPED_TRACE(labelled ? "labels on" : "labels off");
    std::unique_ptr<QChart> chart =
        figure::designBarsChart(designs, effectiveDesign(scene), true, o);
    auto* series = qobject_cast<QAbstractBarSeries*>(chart->series().value(0));
    ASSERT_NE(series, nullptr);
    series->setLabelsVisible(labelled);
    QGraphicsScene graphics;
    const QSizeF size(700, 560);
    layOutFigureChart(chart.get(), &graphics, size);
    auto* labels = chart->findChild<figure::ZeroBarLabels*>();
    ASSERT_NE(labels, nullptr);
    std::vector<int> shown;
    for (const auto& l : labels->shown()) {
      shown.push_back(l.index);
      EXPECT_EQ(l.text, QStringLiteral("0"));
    }
    EXPECT_EQ(shown, labelled ? zero : std::vector<int>{});
    QImage image(size.toSize(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
      QPainter p(&image);
      graphics.render(&p, QRectF(QPointF(0, 0), size), QRectF(QPointF(0, 0), size));
    }
    // Dark pixels just right of the zero line, in each zero bar's row.
    for (int i : zero) {
      const QPointF at = chart->mapToPosition(QPointF(0.0, i), series);
      int dark = 0;
      for (int y = int(at.y()) - 4; y <= int(at.y()) + 4; ++y)
        for (int x = int(at.x()) + 3; x <= int(at.x()) + 30; ++x)
          if (qGray(image.pixel(x, y)) < 128) ++dark;
      if (labelled)
        EXPECT_GT(dark, 5) << designs[std::size_t(i)].design << ": no \"0\" drawn";
      else
        EXPECT_EQ(dark, 0) << designs[std::size_t(i)].design;
    }
    graphics.removeItem(chart.get());
  }
}

namespace {

// A picture figure's table: one row per patch, whose `column` is `want` of its visual token.
void expectPerPatch(const std::map<std::string, std::vector<std::string>>& cols,
                    const std::string& column, const std::vector<double>& want) {
  ASSERT_EQ(cols.at("visual").size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto v = static_cast<std::size_t>(std::stol(cols.at("visual")[i]));
    EXPECT_EQ(std::stod(cols.at(column)[i]), want.at(v)) << i;
  }
}
}  // namespace

TEST(Figure, PictureCsvMatchesTheTextTokensDistances) {
  QTemporaryDir dir;
  const Scene scene = findFigurePreset("circle-picture").scene;
  const QString path = dir.filePath(QStringLiteral("picture.csv"));
  exportFigure(scene, "picture", path.toStdString(), FigureOptions{});
  expectPerPatch(readCsv(path), "distance", computeSceneMetrics(scene).selectedDistance);
}

// A picture figure of a scene past the desktop model's background size (2^22 text x visual
// pairs): its own model computes it on the worker, and the figure waits for it. Before, the
// figure read the model's default scene and failed with "this view needs a picture".
TEST(Figure, APictureFigureOfALargeSceneIsOfThatScene) {
  QTemporaryDir dir;
  Scene scene = findFigurePreset("circle-picture").scene;
  ASSERT_EQ(scene.layout.segments.size(), 3u);
  scene.layout.segments.front().length = 21200;  // 42 400 text x 99 patches: 4.2 million pairs
  scene.layout.segments.back().length = 21200;
  scene.selectedText = 30000;
  ASSERT_GT(double(scene.layout.textCount()) * double(scene.layout.visualCount()), 4194304.0);
  const QString path = dir.filePath(QStringLiteral("picture-bias.csv"));
  exportFigure(scene, "picture-bias", path.toStdString(), FigureOptions{});
  expectPerPatch(readCsv(path), "bias", computeSceneMetrics(scene).selectedBias);
}

// The Qwen2.5-Omni preset: a sound between text tokens under TMRoPE, 75 audio tokens of 40 ms
// (3 s of chirp.wav), one temporal id each, all three ids equal, shown in its sound view.
TEST(Figure, OmniPresetPutsTheSoundOnTheTimeAxis) {
  const FigurePreset& p = findFigurePreset("omni-tmrope");
  EXPECT_EQ(p.view, "sound");
  EXPECT_EQ(p.scene.design, "qwen2.5-omni");
  ASSERT_EQ(p.scene.layout.audioCount(), 75u);
  const SceneMetrics m = computeSceneMetrics(p.scene);
  std::vector<Id3> audio;
  for (std::size_t i = 0; i < m.ids.tokens.size(); ++i)
    if (m.ids.tokens[i].modality == Modality::Audio) audio.push_back(m.ids.ids[i]);
  ASSERT_EQ(audio.size(), 75u);
  for (std::size_t k = 0; k < audio.size(); ++k) {
    EXPECT_EQ(audio[k][0], audio[0][0] + static_cast<double>(k)) << k;  // t: one per 40 ms
    EXPECT_EQ(audio[k][1], audio[k][0]) << k;
    EXPECT_EQ(audio[k][2], audio[k][0]) << k;
  }
}

TEST(Figure, RevisitingPresetsUseTheirPlansAndSubsetCurvesDiffer) {
  const std::map<std::string, std::string> plans = {{"revisiting-mrope", "mrope"},
                                                    {"revisiting-mhrope", "multihead"},
                                                    {"revisiting-mrope-i", "interleaved"}};
  for (const auto& [name, plan] : plans) {
    const FigurePreset& p = findFigurePreset(name);
    EXPECT_EQ(p.scene.frequency.plan, plan);
    EXPECT_EQ(p.view, "decay-subset");
    const std::string csv =
        figureData(p.scene, findFigureView("decay-subset"), TableFormat::Csv, FigureOptions{});
    EXPECT_EQ(csv.rfind("distance,U_t,U_h,U_w\n", 0), 0u) << name;
  }
  // MHRoPE: every axis has all pairs, so its three subset curves coincide (reference notes).
  const std::string mh = figureData(findFigurePreset("revisiting-mhrope").scene,
                                    findFigureView("decay-subset"), TableFormat::Csv, {});
  std::stringstream rows(mh);
  std::string line;
  std::getline(rows, line);
  while (std::getline(rows, line)) {
    std::stringstream r(line);
    std::string d, t, h, w;
    std::getline(r, d, ',');
    std::getline(r, t, ',');
    std::getline(r, h, ',');
    std::getline(r, w, ',');
    EXPECT_NEAR(std::stod(t), std::stod(h), 1e-9) << d;
    EXPECT_NEAR(std::stod(t), std::stod(w), 1e-9) << d;
  }
}

TEST(Figure, TitlesAndLegendsAreSwitchable) {
  const Scene scene = findFigurePreset("revisiting-mrope").scene;
  FigureOptions on;
  FigureOptions off = on;
  off.title = false;
  off.legend = false;
  const QImage a = figureImage(scene, findFigureView("decay"), on);
  const QImage b = figureImage(scene, findFigureView("decay"), off);
  // The top band holds the title and legend: drawn in one, empty in the other.
  const QImage topA = a.copy(0, 0, a.width(), a.height() / 8);
  const QImage topB = b.copy(0, 0, b.width(), b.height() / 8);
  EXPECT_GT(test::foregroundFraction(topA), 0.02);
  EXPECT_LT(test::foregroundFraction(topB), test::foregroundFraction(topA) / 2);
}

TEST(Figure, BadOptionsAreOneLineErrorsNamingTheRange) {
  const Scene scene = findFigurePreset("roformer-decay").scene;
  auto message = [&](const std::string& view, const std::string& path, FigureOptions o) {
    try {
      exportFigure(scene, view, path, o);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  FigureOptions tiny;
  tiny.size = QSize(8, 8);
  EXPECT_NE(message("decay", "/tmp/x.png", tiny).find("16..8192"), std::string::npos);
  FigureOptions big;
  big.scale = 40;
  EXPECT_NE(message("decay", "/tmp/x.png", big).find("0.5..16"), std::string::npos);
  EXPECT_NE(message("nope", "/tmp/x.png", {}).find("accepted: space, compare"), std::string::npos);
  EXPECT_NE(message("compare", "/tmp/x.svg", {}).find(".png, .csv, .json"), std::string::npos);
  EXPECT_NE(message("decay", "/nonexistent-dir/x.png", {}).find("cannot write"), std::string::npos);
  try {
    findFigurePreset("nope");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("circle-four-schemes"), std::string::npos);
  }
}

TEST(Figure, GuiExportIsTheSameFigureAndThePresetsMenuWorks) {
  MainWindow w;
  w.setDarkPalette(true);  // the screen is dark; the figure is light anyway
  w.resize(1200, 800);
  test::showAndSettle(&w);
  QAction* preset = w.findChild<QAction*>(QStringLiteral("preset_circle-four-schemes"));
  ASSERT_NE(preset, nullptr);
  preset->trigger();
  EXPECT_TRUE(w.compareMode());
  EXPECT_EQ(w.model()->validScene().layout, findFigurePreset("circle-four-schemes").scene.layout);
  ASSERT_NE(w.findChild<QAction*>(QStringLiteral("export_decay")), nullptr);

  QTemporaryDir dir;
  for (const std::string view : {"decay", "compare"}) {
    const QString gui = dir.filePath(QStringLiteral("gui.png"));
    const QString cli = dir.filePath(QStringLiteral("cli.png"));
    w.figures()->exportTo(view, gui);
    exportFigure(w.model()->validScene(), view, cli.toStdString(), FigureOptions{});
    const QImage a(gui), b(cli);
    ASSERT_EQ(a.size(), QSize(1050, 750)) << view;  // not the size of the widget on screen
    EXPECT_EQ(test::compareImages(a, b, 1).differingFraction, 0.0) << view;
    EXPECT_EQ(a.pixelColor(2, 2), QColor(Qt::white)) << view;
  }
}

// A user's-eye report: with "Colour by: modality" on, File -> Export figure -> 3-D view still
// wrote the grid-cell colours. The export follows the toolbar, both ways, as render --color-by.
TEST(Figure, ThreeDExportsAreColouredAsTheWindowShowsThem) {
  MainWindow w;
  w.resize(1200, 800);
  test::showAndSettle(&w);
  Scene s = w.model()->validScene();
  s.layout = parseLayoutSpec("t4,i6x6,t4");
  w.model()->setScene(s);
  QAction* toggle = nullptr;
  for (QAction* a : w.findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_K)) toggle = a;
  ASSERT_NE(toggle, nullptr);
  QTemporaryDir dir;
  const auto exported = [&](const char* name) {
    const QString path = dir.filePath(QString::fromLatin1(name));
    w.figures()->exportTo("space", path);
    return QImage(path);
  };
  FigureOptions byModality;
  byModality.colorByModality = true;
  const QImage cell = figureImage(w.model()->validScene(), findFigureView("space"), {});
  const QImage modality = figureImage(w.model()->validScene(), findFigureView("space"), byModality);
  ASSERT_GT(test::compareImages(cell, modality, 1).differingFraction, 0.0);
  EXPECT_EQ(test::compareImages(exported("before.png"), cell, 1).differingFraction, 0.0);
  toggle->trigger();
  EXPECT_EQ(test::compareImages(exported("modality.png"), modality, 1).differingFraction, 0.0);
  toggle->trigger();
  EXPECT_EQ(test::compareImages(exported("after.png"), cell, 1).differingFraction, 0.0);
}

TEST(Figure, RightClickOnA3DViewAsksForItsMenuButARightDragZooms) {
  // A view of its own: in the main window the signal opens the (modal) export menu.
  PositionSpaceView standalone;
  standalone.resize(320, 240);
  test::showAndSettle(&standalone);
  PositionSpaceView* view = &standalone;
  QSignalSpy spy(view, &VtkView::contextClicked);
  auto send = [&](QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
    QMouseEvent e(type, at, view->mapToGlobal(at), Qt::RightButton, buttons, Qt::NoModifier);
    QApplication::sendEvent(view, &e);
  };
  const QPointF a(100, 100), b(100, 160);
  send(QEvent::MouseButtonPress, a, Qt::RightButton);
  send(QEvent::MouseMove, b, Qt::RightButton);
  send(QEvent::MouseButtonRelease, b, Qt::NoButton);
  EXPECT_EQ(spy.count(), 0) << "a right drag zooms";
  send(QEvent::MouseButtonPress, a, Qt::RightButton);
  send(QEvent::MouseButtonRelease, a, Qt::NoButton);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).toPoint(), a.toPoint());
}

TEST(Figure, AttentionCsvIsThePositionalBiasOverSqrtD) {
  // Identical unit q and k: logit * sqrt(d) = (1/n) sum_p cos(phase_p), the positional bias b
  // that SceneMetrics reports for the selected text token (all dims rotate here).
  QTemporaryDir dir;
  const Scene scene = findFigurePreset("circle-four-schemes").scene;
  const QString path = dir.filePath(QStringLiteral("attention.csv"));
  exportFigure(scene, "attention", path.toStdString(), FigureOptions{});
  const auto cols = readCsv(path);
  const SceneMetrics m = computeSceneMetrics(scene);
  ASSERT_EQ(cols.at("logit").size(), 14u * 14u);
  ASSERT_EQ(m.selectedBias.size(), 9u);
  const long text = m.selectedToken;
  int checked = 0;
  for (std::size_t i = 0; i < cols.at("query").size(); ++i) {
    if (std::stol(cols.at("query")[i]) != text) continue;
    const long key = std::stol(cols.at("key")[i]);
    if (key >= 9) continue;  // the visual tokens come first in i3x3,t5
    EXPECT_NEAR(std::stod(cols.at("logit")[i]) * std::sqrt(128.0),
                m.selectedBias[static_cast<std::size_t>(key)], 2e-6)
        << "key " << key;
    ++checked;
  }
  EXPECT_EQ(checked, 9);
}
