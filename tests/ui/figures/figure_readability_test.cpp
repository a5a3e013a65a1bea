// Figure readability, each defect class as a systematic check: every view at every kind of allowed
// size is the whole figure (not a crop); sizes too small for the text are refused with one that
// works; the 3-D axes are numbered, named and never collide at any camera and size; the scene
// fills its 3-D view at start, after an edit and after every camera preset; picture tiles never
// overlap; no user-visible text is mojibake; live and exported charts agree on bar order and
// show dash patterns in their legends; the phasor view exports.
#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGroupBox>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMenu>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <vtkCamera.h>
#include <vtkMatrix4x4.h>

#include "chart_items.h"
#include "charts/charts_panel.h"
#include "figures/figure_attention.h"
#include "figures/figure_charts.h"
#include "figures/figure_menu.h"
#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "model/segment_names.h"
#include "picture/picture_view.h"
#include "ropescope/errors.h"
#include "ropescope/phasor.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"
#include "style/color_scale.h"
#include "teaching/phasor_view.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// Mean absolute grey difference (0..1) of two images reduced to the same small thumbnail: a
// crop, a shifted or a differently laid-out figure differs by far more than rasterisation.
double thumbnailDifference(const QImage& a, const QImage& b) {
  const QSize t(64, std::max(8, 64 * a.height() / std::max(1, a.width())));
  const QImage ta = a.scaled(t, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                        .convertToFormat(QImage::Format_Grayscale8);
  const QImage tb = b.scaled(t, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
                        .convertToFormat(QImage::Format_Grayscale8);
  double sum = 0;
  for (int y = 0; y < t.height(); ++y)
    for (int x = 0; x < t.width(); ++x)
      sum += std::abs(ta.pixelColor(x, y).valueF() - tb.pixelColor(x, y).valueF());
  return sum / (t.width() * t.height());
}

std::string errorOf(const Scene& scene, const std::string& view, QSize size, double scale = 0) {
  FigureOptions o;
  o.size = size;
  o.scale = scale;
  try {
    figureImage(scene, findFigureView(view), o);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// Mojibake: UTF-8 read as Latin-1 (C1 controls, "Ã"/"Â"/"â" before a continuation byte), as
// Windows-1252 ("â€"), or bytes that are no UTF-8 at all (U+FFFD, e.g. a hex escape that ate
// the next letter: "\xc3\x97cols").
bool isMojibake(const QString& text) {
  for (qsizetype i = 0; i < text.size(); ++i) {
    const char16_t c = text[i].unicode();
    if ((c >= 0x80 && c <= 0x9f) || c == 0xfffd) return true;  // C1 controls, undecodable bytes
    const char16_t next = i + 1 < text.size() ? text[i + 1].unicode() : 0;
    if ((c == 0xc3 || c == 0xc2 || c == 0xe2) && next >= 0x80 && next <= 0xbf) return true;
  }
  return text.contains(QString::fromUtf8("\xc3\xa2\xe2\x82\xac"));  // "â€"
}

void expectNoMojibake(const QString& text, const QString& where) {
  EXPECT_FALSE(isMojibake(text)) << where.toStdString() << ": \"" << text.toStdString() << "\"";
}

// Every user-visible text of a widget tree and its actions.
int walkTexts(QWidget* root) {
  int checked = 0;
  auto check = [&](const QString& text, const QString& where) {
    if (text.isEmpty()) return;
    expectNoMojibake(text, where);
    ++checked;
  };
  QList<QWidget*> widgets = root->findChildren<QWidget*>();
  widgets.prepend(root);
  for (QWidget* w : widgets) {
    const QString name =
        QString::fromLatin1(w->metaObject()->className()) + QLatin1Char(' ') + w->objectName();
    check(w->windowTitle(), name + QStringLiteral(" title"));
    check(w->toolTip(), name + QStringLiteral(" tooltip"));
    check(w->statusTip(), name + QStringLiteral(" status tip"));
    check(w->whatsThis(), name + QStringLiteral(" what's this"));
    if (auto* l = qobject_cast<QLabel*>(w)) check(l->text(), name);
    if (auto* b = qobject_cast<QAbstractButton*>(w)) check(b->text(), name);
    if (auto* g = qobject_cast<QGroupBox*>(w)) check(g->title(), name);
    if (auto* m = qobject_cast<QMenu*>(w)) check(m->title(), name);
    if (auto* t = qobject_cast<QTabWidget*>(w))
      for (int i = 0; i < t->count(); ++i) {
        check(t->tabText(i), name + QStringLiteral(" tab"));
        check(t->tabToolTip(i), name + QStringLiteral(" tab tooltip"));
      }
    if (auto* c = qobject_cast<QComboBox*>(w))
      for (int i = 0; i < c->count(); ++i) check(c->itemText(i), name + QStringLiteral(" item"));
    for (QAction* a : w->actions()) {
      check(a->text(), QStringLiteral("action ") + a->objectName());
      check(a->toolTip(), QStringLiteral("action tooltip ") + a->objectName());
      check(a->statusTip(), QStringLiteral("action status tip ") + a->objectName());
    }
  }
  for (QAction* a : root->findChildren<QAction*>()) {
    check(a->text(), QStringLiteral("action ") + a->objectName());
    check(a->iconText(), QStringLiteral("action icon text ") + a->objectName());
  }
  return checked;
}

QChart* liveChart(ChartsPanel* panel, const QString& titleStart) {
  for (QChartView* v : panel->findChildren<QChartView*>())
    if (v->chart()->title().startsWith(titleStart)) return v->chart();
  return nullptr;
}

// The pixel size of the value labels at the bars' ends.
int valueLabelPixels(QChart* chart) {
  for (QAbstractSeries* s : chart->series())
    if (auto* bars = qobject_cast<QAbstractBarSeries*>(s); bars && !bars->barSets().isEmpty())
      return QFontInfo(bars->barSets()[0]->labelFont()).pixelSize();
  return 0;
}

QStringList categories(QChart* chart) {
  for (QAbstractAxis* axis : chart->axes(Qt::Vertical))
    if (auto* c = qobject_cast<QBarCategoryAxis*>(axis)) return c->categories();
  return {};
}

// A standalone 3-D view of a design's ids, drawn at a size and (figure) scale.
struct SpaceFixture {
  PositionSpaceView view;
  SpaceFixture(const Scene& scene, QSize size, double figureScale, const QString& title) {
    view.setFigureScale(figureScale);
    view.resize(size);
    view.setDark(false);
    view.setLayout(scene.layout);
    const SceneMetrics m = computeSceneMetrics(scene);
    view.showIds(m.ids, m.selectedToken, -1);
    view.setTitle(title);
    test::showAndSettle(&view);
  }
  void draw() {
    view.grabFramebuffer();  // a frame places the labels
  }
};

Scene withDesign(Scene s, const std::string& design) {
  s.design = design;
  s.designParams = {};
  s.ageLayer = -1;
  return s;
}

// Bounding box, in widget pixels, of what the view draws: its tokens and its axes (from the
// shared origin to each axis's end).
QRectF projectedContent(const PositionSpaceView& v) {
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  auto add = [&](QPointF p) {
    x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x());
    y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
  };
  for (std::size_t i = 0; i < v.ids().size(); ++i) add(v.tokenPosition(static_cast<long>(i)));
  double b[6];
  v.contentBounds(b);
  vtkMatrix4x4* m = v.camera()->GetCompositeProjectionTransformMatrix(
      static_cast<double>(v.width()) / v.height(), -1.0, 1.0);
  const double ends[4][3] = {
      {b[0], b[2], b[4]}, {b[1], b[2], b[4]}, {b[0], b[3], b[4]}, {b[0], b[2], b[5]}};
  for (const auto& e : ends) {
    const double p[4] = {e[0], e[1], e[2], 1.0};
    double q[4];
    m->MultiplyPoint(p, q);
    add(QPointF((q[0] / q[3] + 1.0) * 0.5 * v.width(), (1.0 - q[1] / q[3]) * 0.5 * v.height()));
  }
  return QRectF(QPointF(x0, y0), QPointF(x1, y1));
}

}  // namespace

// Item 4: below 504 px wide the canvas used to be cropped (QPainter treats a device pixel ratio
// under 1 as 1). Each size is compared with the same figure drawn at twice the size and
// reduced: the same layout, not its top-left corner.
TEST(FigureReadability, EveryViewAtEveryAllowedSizeIsTheWholeFigure) {
  // The preset with audio tokens after it, so every view has what it draws (the sound view
  // needs audio; the others draw the picture as before, the modality views the pairs).
  Scene scene = findFigurePreset("circle-picture").scene;
  scene.layout.segments.push_back(Segment::audio(12));
  const std::vector<QSize> sizes = {{252, 189},  {320, 240}, {420, 300},
                                    {1050, 750}, {600, 900}, {1600, 600}};
  int compared = 0;
  for (const FigureView& v : figureViews()) {
    for (const QSize& size : sizes) {
      FigureOptions small;
      small.size = size;
      FigureOptions big = small;
      big.size = size * 2;
      const QImage a = figureImage(scene, v, small);
      const QImage b = figureImage(scene, v, big);
      ASSERT_EQ(a.size(), size) << v.name;
      const double d = thumbnailDifference(a, b);
      EXPECT_LT(d, v.kind == FigureKind::Space ? 0.05 : 0.035)
          << v.name << " at " << size.width() << "x" << size.height();
      ++compared;
    }
  }
  EXPECT_EQ(compared, static_cast<int>(figureViews().size() * sizes.size()));
}

namespace {
// The box of what a figure draws: every pixel that is not (nearly) white.
QRect inkBox(const QImage& image) {
  int x0 = image.width(), y0 = image.height(), x1 = -1, y1 = -1;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (std::min({c.red(), c.green(), c.blue()}) > 230) continue;
      x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
  return x1 < 0 ? QRect() : QRect(QPoint(x0, y0), QPoint(x1, y1));
}
}  // namespace

// Every painted and chart figure keeps white at each page edge, in proportion to the page: the
// picture figures' colour-bar labels ended 1-2 px from the edge at 300x200 (about 2 pt at
// 1050x750, the margin shrinking with the figure) and their picture touched the bottom. The
// charts keep 5 or more layout pixels at every side; each view must keep 4.
TEST(FigureReadability, EveryFigureKeepsAMarginAtThePageEdges) {
  Scene scene = findFigurePreset("circle-picture").scene;
  scene.layout.segments.push_back(Segment::audio(12));
  constexpr double kLeast = 4.0;  // layout px
  for (const FigureView& v : figureViews()) {
    if (v.kind == FigureKind::Space) continue;  // a 3-D scene is framed by its camera
    for (const QSize size : {QSize(300, 200), QSize(420, 300), QSize(1050, 750)}) {
      FigureOptions o;
      o.size = size;
      const QImage image = figureImage(scene, v, o);
      const QRect ink = inkBox(image);
      ASSERT_FALSE(ink.isNull()) << v.name;
      const int least = static_cast<int>(std::floor(kLeast * figure::effectiveScale(o)));
      const std::string at =
          v.name + " at " + std::to_string(size.width()) + "x" + std::to_string(size.height());
      EXPECT_GE(ink.left(), least) << at << ": left";
      EXPECT_GE(size.width() - 1 - ink.right(), least) << at << ": right";
      EXPECT_GE(ink.top(), least) << at << ": top";
      EXPECT_GE(size.height() - 1 - ink.bottom(), least) << at << ": bottom";
    }
  }
}

TEST(FigureReadability, SizesTooSmallForTheTextAreRefusedWithOneThatWorks) {
  const Scene scene = findFigurePreset("roformer-decay").scene;
  const std::string narrow = errorOf(scene, "decay", {160, 120});
  EXPECT_NE(narrow.find("252x189"), std::string::npos) << narrow;
  EXPECT_EQ(narrow.find('\n'), std::string::npos);
  EXPECT_EQ(errorOf(scene, "decay", {252, 189}), "");
  const std::string flat = errorOf(scene, "decay", {1050, 200});
  EXPECT_NE(flat.find("1050x375"), std::string::npos) << flat;
  EXPECT_EQ(errorOf(scene, "decay", {1050, 375}), "");
  const std::string scaled = errorOf(scene, "decay", {1050, 750}, 16);
  EXPECT_NE(scaled.find("3840x2880"), std::string::npos) << scaled;
  EXPECT_EQ(errorOf(scene, "decay", {3840, 2880}, 16), "");
  EXPECT_NE(errorOf(scene, "decay", {1050, 750}, 0.25).find("0.5..16"), std::string::npos);
}

// Items 5 and 6: numbers and names on the axes, round values, no label on another, on the
// title or off the view, for every scheme, camera preset and size (compare quarters included).
// A user's-eye report: the "h" of the four-schemes figure was drawn over a token in every
// quadrant. At that figure's quadrant size an axis name keeps off the tokens in every design
// and camera preset (the cone's "h" seen side-on covered a token).
TEST(FigureReadability, SpaceAxisNamesKeepOffTheTokens) {
  const Scene base = findFigurePreset("circle-four-schemes").scene;
  int names = 0;
  for (const std::string design : {"hard", "unordered", "spatial", "circle", "mrope"}) {
    // A quadrant of the four-schemes figure (1050 x 750).
    SpaceFixture f(withDesign(base, design), QSize(525, 375), 1.04,
                   QStringLiteral("A panel title  PTD 0.1234"));
    for (CameraPreset preset :
         {CameraPreset::Default, CameraPreset::DownTextAxis, CameraPreset::SideOn}) {
      f.view.applyPreset(preset);
      f.draw();
      const double dpr = f.view.devicePixelRatioF();
      for (const SpaceAxes::Label& label : f.view.axes().shownLabels()) {
        if (!label.name) continue;
        ++names;
        for (std::size_t t = 0; t < f.view.ids().size(); ++t) {
          const QPointF at = f.view.tokenPosition(static_cast<long>(t));
          const QPointF display(at.x() * dpr, (f.view.height() - at.y()) * dpr);
          const double r = 4 * 1.04 * dpr;  // most of a token's drawn radius
          EXPECT_FALSE(label.box.intersects(QRectF(display.x() - r, display.y() - r, 2 * r, 2 * r)))
              << design << " preset " << static_cast<int>(preset) << ": the name " << label.text
              << " covers token " << t;
        }
      }
    }
  }
  EXPECT_GE(names, 5 * 3 * 2);
}

TEST(FigureReadability, SpaceAxesAreNumberedNamedAndNeverCollide) {
  const Scene base = findFigurePreset("circle-four-schemes").scene;
  struct Case {
    QSize size;
    double scale;
  };
  const std::vector<Case> cases = {
      {{262, 187}, 0.52}, {{525, 375}, 1.04}, {{800, 600}, 1.0}, {{1050, 750}, 2.08}};
  int checked = 0;
  for (const std::string design : {"hard", "unordered", "spatial", "circle", "mrope"}) {
    const Scene scene = withDesign(base, design);
    for (const Case& c : cases) {
      SpaceFixture f(scene, c.size, c.scale, QStringLiteral("A panel title  PTD 0.1234"));
      for (CameraPreset preset :
           {CameraPreset::Default, CameraPreset::DownTextAxis, CameraPreset::SideOn}) {
        f.view.applyPreset(preset);
        f.draw();
        const auto& labels = f.view.axes().shownLabels();
        const std::string what = design + " " + std::to_string(c.size.width()) + " preset " +
                                 std::to_string(static_cast<int>(preset));
        std::set<int> named, numbered;
        std::map<int, std::vector<double>> values;
        const QRectF viewRect(0, 0, c.size.width() * f.view.devicePixelRatioF(),
                              c.size.height() * f.view.devicePixelRatioF());
        for (std::size_t i = 0; i < labels.size(); ++i) {
          EXPECT_TRUE(viewRect.contains(labels[i].box)) << what << " " << labels[i].text;
          for (std::size_t j = i + 1; j < labels.size(); ++j)
            EXPECT_FALSE(labels[i].box.intersects(labels[j].box))
                << what << ": \"" << labels[i].text << "\" on \"" << labels[j].text << "\"";
          if (labels[i].name)
            named.insert(labels[i].axis);
          else {
            numbered.insert(labels[i].axis);
            values[labels[i].axis].push_back(labels[i].value);
          }
        }
        // Every axis is named in the default view; seen down the text axis or side-on an axis
        // may point at the viewer, and at least two stay named.
        EXPECT_GE(named.size(), preset == CameraPreset::Default ? 3u : 2u) << what;
        EXPECT_GE(numbered.size(), 2u) << what;
        // Round values: consecutive shown numbers differ by a multiple of a 1-2-5 step.
        for (auto& [axis, vs] : values) {
          std::sort(vs.begin(), vs.end());
          for (double v : vs) {
            const double mag = std::pow(10.0, std::floor(std::log10(std::max(1e-12, std::abs(v)))));
            bool round = std::abs(v) < 1e-9;
            for (double m : {1.0, 2.0, 2.5, 5.0})
              round = round || std::abs(v / (m * mag / 10) - std::round(v / (m * mag / 10))) < 1e-6;
            EXPECT_TRUE(round) << what << " axis " << axis << " value " << v;
          }
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 5 * 4 * 3);
}

// Item 10: the projected content covers most of the view (the old camera left two thirds
// empty) at start, after an edit and after every preset.
TEST(FigureReadability, SceneFillsItsViewAtStartAfterAnEditAndAfterEveryPreset) {
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  auto* view = w.findChild<PositionSpaceView*>(QStringLiteral("positionSpace"));
  ASSERT_NE(view, nullptr);
  auto fill = [&] {
    QCoreApplication::processEvents();
    const QRectF r = projectedContent(*view);
    return std::max(r.width() / view->width(), r.height() / view->height());
  };
  auto inside = [&] {
    const QRectF r = projectedContent(*view);
    return QRectF(0, 0, view->width(), view->height()).contains(r);
  };
  EXPECT_GT(fill(), 0.6) << "at start";
  EXPECT_TRUE(inside()) << "at start";
  w.model()->edit([](Scene& s) { s.layout = parseLayoutSpec("t4,i12x12,t16"); });
  QTRY_VERIFY_WITH_TIMEOUT(view->ids().size() == 4 + 144 + 16, 60000);
  EXPECT_GT(fill(), 0.6) << "after an edit";
  EXPECT_TRUE(inside()) << "after an edit";
  for (CameraPreset p : {CameraPreset::DownTextAxis, CameraPreset::SideOn, CameraPreset::Default}) {
    w.applyPreset(p);
    EXPECT_GT(fill(), 0.6) << "preset " << static_cast<int>(p);
    EXPECT_TRUE(inside()) << "preset " << static_cast<int>(p);
  }
}

// Item 10: tiles sized from their neighbours never overlap, whatever the facing and camera.
// Squares sharing their in-plane axes overlap exactly when they are coplanar and both in-plane
// offsets are under the mean of their edges.
TEST(FigureReadability, PictureTilesNeverOverlap) {
  const Scene base = findFigurePreset("circle-picture").scene;
  int pairs = 0;
  for (const std::string design : {"circle", "mrope", "spatial", "hard"}) {
    const Scene scene = withDesign(base, design);
    SpaceFixture f(scene, {640, 480}, 1.0, QString());
    for (TileFacing facing : {TileFacing::Camera, TileFacing::RingPlane}) {
      f.view.setTileFacing(facing);
      for (CameraPreset preset :
           {CameraPreset::Default, CameraPreset::DownTextAxis, CameraPreset::SideOn}) {
        f.view.applyPreset(preset);
        f.draw();
        const auto quads = f.view.tiles().tileCorners();
        ASSERT_EQ(static_cast<int>(quads.size()), f.view.tiles().drawnTileCount()) << design;
        ASSERT_EQ(f.view.tiles().tileCount(), 99) << design;
        // Crowded tokens are points instead of tiles; most are tiles.
        EXPECT_GE(quads.size(), 50u) << design;
        struct Tile {
          double c[3], r[3], u[3], n[3], half;
        };
        std::vector<Tile> tiles;
        for (const auto& q : quads) {
          Tile t{};
          double len = 0;
          for (int k = 0; k < 3; ++k) {
            t.c[k] = (q[0][k] + q[1][k] + q[2][k] + q[3][k]) / 4;
            t.r[k] = q[1][k] - q[0][k];
            t.u[k] = q[0][k] - q[3][k];
            len += t.r[k] * t.r[k];
          }
          t.half = std::sqrt(len) / 2;
          for (int k = 0; k < 3; ++k) {
            t.r[k] /= 2 * t.half;
            t.u[k] /= 2 * t.half;
          }
          t.n[0] = t.r[1] * t.u[2] - t.r[2] * t.u[1];
          t.n[1] = t.r[2] * t.u[0] - t.r[0] * t.u[2];
          t.n[2] = t.r[0] * t.u[1] - t.r[1] * t.u[0];
          tiles.push_back(t);
        }
        auto dot = [](const double* a, const double* b) {
          return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        };
        // Corners are stored as floats: the largest tile gives the orientation they share
        // (tiny tiles' own axes carry float rounding), each tile checked against it.
        const Tile ref =
            *std::max_element(tiles.begin(), tiles.end(),
                              [](const Tile& x, const Tile& y) { return x.half < y.half; });
        for (const Tile& t : tiles)
          ASSERT_GT(std::abs(dot(t.n, ref.n)), 0.99) << "tiles of one picture are parallel";
        for (std::size_t i = 0; i < tiles.size(); ++i)
          for (std::size_t j = i + 1; j < tiles.size(); ++j) {
            const Tile &a = tiles[i], &b = tiles[j];
            double d[3];
            for (int k = 0; k < 3; ++k) d[k] = b.c[k] - a.c[k];
            if (std::abs(dot(d, a.n)) > 1e-4) continue;  // parallel planes: apart
            const double reach = a.half + b.half;
            const bool overlap =
                std::abs(dot(d, a.r)) < reach - 1e-4 && std::abs(dot(d, a.u)) < reach - 1e-4;
            EXPECT_FALSE(overlap) << design << " tiles " << i << " and " << j;
            ++pairs;
          }
        // Not shrunk to dots either: the median tile is at least a third of the median
        // nearest-neighbour spacing.
        std::vector<double> halves;
        for (const Tile& t : tiles) halves.push_back(t.half);
        std::nth_element(halves.begin(), halves.begin() + halves.size() / 2, halves.end());
        std::vector<double> nearest;
        for (std::size_t i = 0; i < tiles.size(); ++i) {
          double best = 1e300;
          for (std::size_t j = 0; j < tiles.size(); ++j) {
            if (i == j) continue;
            double d2 = 0;
            for (int k = 0; k < 3; ++k) d2 += std::pow(tiles[i].c[k] - tiles[j].c[k], 2);
            if (d2 > 1e-18) best = std::min(best, std::sqrt(d2));
          }
          nearest.push_back(best);
        }
        std::nth_element(nearest.begin(), nearest.begin() + nearest.size() / 2, nearest.end());
        EXPECT_GT(2 * halves[halves.size() / 2], nearest[nearest.size() / 2] / 3) << design;
      }
    }
  }
  EXPECT_GT(pairs, 1000);
}

// Item 7: "space…" showed as "spaceâ€¦" (a UTF-8 literal in QStringLiteral, read byte by
// byte). Every text of the main window, its menus and the figure menu is checked.
TEST(FigureReadability, NoUserVisibleTextIsMojibake) {
  EXPECT_TRUE(isMojibake(QString::fromLatin1("space\xe2\x80\xa6")));  // the check can fail
  EXPECT_TRUE(
      isMojibake(QString::fromUtf8("rows\xc3"
                                   "|ols")));  // "\xc3\x97cols": \x97c overflows
  EXPECT_FALSE(isMojibake(QString::fromUtf8("space\xe2\x80\xa6 \xce\xb4 \xc2\xb7 \xe2\x80\x94")));
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  const int checked = walkTexts(&w);
  EXPECT_GT(checked, 100);
  QAction* space = w.findChild<QAction*>(QStringLiteral("export_space"));
  ASSERT_NE(space, nullptr);
  EXPECT_EQ(space->text(), QString::fromUtf8("space\xe2\x80\xa6"));
  QMenu menu;
  w.figures()->fillExportMenu(&menu);
  EXPECT_GT(walkTexts(&menu), static_cast<int>(figureViews().size()));
}

// Item 19: one order of designs (the registry's, first design at the bottom) in the live and
// the exported bar charts.
TEST(FigureReadability, LiveAndExportedBarChartsListTheDesignsInOneOrder) {
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  w.showSideTab(QStringLiteral("charts"));
  w.model()->flushSummaries();
  QCoreApplication::processEvents();
  QChart* live = liveChart(w.charts(), QStringLiteral("PTD of every design"));
  ASSERT_NE(live, nullptr);
  QTRY_VERIFY_WITH_TIMEOUT(
      categories(live).size() == static_cast<int>(compareDesigns(w.model()->validScene()).size()),
      60000);
  auto exported = figureChart(w.model()->validScene(), findFigureView("ptd"), FigureOptions{});
  EXPECT_EQ(categories(live), categories(exported.get()));
  // The registry's names, the scene's own marked (its bar of PTD 0 shows no colour).
  QStringList registry;
  for (const DesignSummary& d : compareDesigns(w.model()->validScene()))
    registry << (d.design == w.model()->validScene().design ? QStringLiteral("\u25b8 ")
                                                            : QString()) +
                    QString::fromStdString(d.design);
  EXPECT_EQ(registry.filter(QStringLiteral("\u25b8 ")).size(), 1);
  EXPECT_EQ(categories(exported.get()), registry);
}

// Item 19: dashed and dotted curves are drawn so in the legend, live and exported.
TEST(FigureReadability, LegendsShowTheCurvesDashPatterns) {
  auto check = [](QChart* chart, const std::string& what) {
    ASSERT_NE(chart, nullptr) << what;
    EXPECT_EQ(chart->legend()->markerShape(), QLegend::MarkerShapeFromSeries) << what;
    std::set<Qt::PenStyle> styles;
    for (QAbstractSeries* s : chart->series())
      if (auto* line = qobject_cast<QLineSeries*>(s); line && line->isVisible()) {
        // (The live chart's t = h = w curve is hidden without audio: not drawn, not counted.)
        for (QLegendMarker* m : chart->legend()->markers(line))
          EXPECT_EQ(m->pen().style(), line->pen().style()) << what;
        styles.insert(line->pen().style());
      }
    EXPECT_EQ(styles.size(), 3u) << what;
  };
  auto exported = figureChart(findFigurePreset("revisiting-mhrope").scene,
                              findFigureView("decay-subset"), FigureOptions{});
  check(exported.get(), "exported");
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  w.showSideTab(QStringLiteral("charts"));
  check(liveChart(w.charts(), QStringLiteral("Decay bound")), "live");
}

// Item 6b: the phasor view exports from the CLI's options and from the Phasors tab.
TEST(FigureReadability, PhasorViewExportsItsPictureAndNumbers) {
  const Scene scene = findFigurePreset("revisiting-mrope").scene;
  QTemporaryDir dir;
  FigureOptions o;
  o.phasorDistance = 100;
  o.phasorAlong = "h";
  const std::string csv = dir.filePath(QStringLiteral("p.csv")).toStdString();
  exportFigure(scene, "phasor", csv, o);
  std::ifstream in(csv);
  std::string header, first;
  std::getline(in, header);
  std::getline(in, first);
  EXPECT_EQ(header.rfind("pair,axis,theta,delta_t,delta_h,delta_w,", 0), 0u) << header;
  const Phasor core =
      computePhasor(computeSceneMetrics(scene).pairs, directionDisplacement("h", 100));
  int rows = 1;
  for (std::string line; std::getline(in, line);) ++rows;
  EXPECT_EQ(rows, static_cast<int>(core.pairs.size()));
  EXPECT_NE(first.find(std::to_string(core.decayBound).substr(0, 6)), std::string::npos) << first;
  for (const char* ext : {"png", "svg", "pdf", "json"}) {
    const QString path = dir.filePath(QStringLiteral("p.") + QLatin1String(ext));
    exportFigure(scene, "phasor", path.toStdString(), o);
    EXPECT_GT(QFileInfo(path).size(), 100) << ext;
  }
  const QImage image = figureImage(scene, findFigureView("phasor"), o);
  EXPECT_FALSE(test::looksBlank(image));
  FigureOptions bad = o;
  bad.phasorDistance = 5000;
  EXPECT_THROW(figureImage(scene, findFigureView("phasor"), bad), InputError);
  bad = o;
  bad.phasorAlong = "q";
  EXPECT_THROW(figureImage(scene, findFigureView("phasor"), bad), InputError);

  // The GUI: the export draws the tab's displacement.
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  w.showSideTab(QStringLiteral("phasor"));
  auto* phasors = w.findChild<PhasorView*>(QStringLiteral("phasorView"));
  ASSERT_NE(phasors, nullptr);
  phasors->setDirection(PhasorView::Direction::W);
  phasors->setDistance(42);
  const QString gui = dir.filePath(QStringLiteral("gui.csv"));
  w.figures()->exportTo("phasor", gui);
  std::ifstream g(gui.toStdString());
  std::getline(g, header);
  std::getline(g, first);
  EXPECT_NE(first.find(",0,0,42,"), std::string::npos) << first;  // delta (0, 0, 42)
  EXPECT_EQ(phasors->canvas()->contextMenuPolicy(), Qt::CustomContextMenu);
}

// Item 19: under M-RoPE the picture's logits sit in a narrow band near the maximum; a linear
// colour range painted three quarters of the map one yellow. The colours follow the logits'
// quantiles, and the colour bar is labelled with round values where they fall.
TEST(FigureReadability, AttentionColoursFollowTheDataAndItsTicksAreRound) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t20,i16x16,t20");
  s.design = "mrope";
  s.designParams = {};
  const AttentionFigure a = attentionFigure(s);
  ASSERT_EQ(a.side, 296);
  const std::vector<double> pos = attentionColorPositions(a);
  ASSERT_EQ(pos.size(), a.values.size());
  int top = 0;
  double blockLo = 1, blockHi = 0;
  for (int r = 0; r < a.side; ++r)
    for (int c = 0; c < a.side; ++c) {
      const double p = pos[static_cast<std::size_t>(r) * a.side + c];
      EXPECT_GE(p, 0.0);
      EXPECT_LE(p, 1.0);
      top += p > 0.9;
      if (r >= 20 && r < 276 && c >= 20 && c < 276)
        blockLo = std::min(blockLo, p), blockHi = std::max(blockHi, p);
    }
  EXPECT_LT(top, 0.15 * a.side * a.side) << "the top tenth of the colour map";
  EXPECT_GT(blockHi - blockLo, 0.5) << "the picture block spans the colour map";
  const double gap = 0.05;
  const std::vector<ColorTick> ticks = attentionColorTicks(a, gap);
  ASSERT_GE(ticks.size(), 4u);
  for (std::size_t i = 0; i < ticks.size(); ++i) {
    const double v = ticks[i].value;
    EXPECT_GE(v, a.lo - 1e-12);
    EXPECT_LE(v, a.hi + 1e-12);
    // Round: four significant digits at most.
    EXPECT_NEAR(QString::number(v, 'g', 4).toDouble(), v, 1e-12 * std::max(1.0, std::abs(v))) << v;
    if (i > 0) {
      EXPECT_GT(v, ticks[i - 1].value);
      EXPECT_GE(ticks[i].position - ticks[i - 1].position, gap - 1e-12);
    }
  }
}

// Logits equal in exact arithmetic differ by float noise, in an order that depends on the CPU
// (the AVX-512, AVX2 and SSE2 kernels round differently): their colours must not. Two figures whose
// values differ only by such noise, in opposite directions, get the same colour positions, and
// a real difference (1e-3 of the magnitude) still orders the colours.
TEST(FigureReadability, AttentionColoursIgnoreRoundingNoiseBetweenTies) {
  AttentionFigure a;
  a.side = 4;
  const float base[16] = {3, 3, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 3.003f, 3.003f, 7, 7};
  a.values.assign(base, base + 16);
  AttentionFigure b = a;
  for (std::size_t i = 0; i < 16; ++i) {
    const float ulps = static_cast<float>(i % 3) - 1.0f;  // -1, 0, +1 ulp-scale nudges
    a.values[i] = a.values[i] * (1.0f + ulps * 2e-7f);
    b.values[i] = b.values[i] * (1.0f - ulps * 2e-7f);
  }
  for (AttentionFigure* f : {&a, &b}) {
    const auto [mn, mx] = std::minmax_element(f->values.begin(), f->values.end());
    f->lo = *mn;
    f->hi = *mx;
  }
  const std::vector<double> pa = attentionColorPositions(a), pb = attentionColorPositions(b);
  ASSERT_EQ(pa.size(), 16u);
  EXPECT_EQ(pa, pb);
  for (int i = 1; i < 4; ++i) EXPECT_EQ(pa[i], pa[0]) << "the tied 3s share one colour";
  for (int i = 5; i < 12; ++i) EXPECT_EQ(pa[i], pa[4]) << "the tied 5s share one colour";
  EXPECT_LT(pa[0], pa[12]) << "3 and 3.003 are told apart";
  EXPECT_LT(pa[12], pa[4]);
  EXPECT_LT(pa[4], pa[14]);
}

// Item 19: the picture was "2: castle.png" in the picture tab and "image 1 (castle.png)" in the
// attention tab, "308×252" (W×H) beside "grid 9×11" (rows×cols). One name, one order, stated.
TEST(FigureReadability, PicturesAreNamedAndSizedOneWayEverywhere) {
  MainWindow w;
  w.startWith(sampleScene());
  w.resize(1366, 768);
  test::showAndSettle(&w);
  const Layout& layout = w.model()->validScene().layout;
  std::size_t image = layout.segments.size();
  for (std::size_t s = 0; s < layout.segments.size() && image == layout.segments.size(); ++s)
    if (layout.segments[s].kind == SegmentKind::Image) image = s;
  ASSERT_LT(image, layout.segments.size());
  const Segment& seg = layout.segments[image];
  const QString name = QStringLiteral("image 1 (castle.png)");
  EXPECT_EQ(visualSegmentName(layout, image), name);
  auto* pictureBox = w.findChild<QComboBox*>(QStringLiteral("pictureSegment"));
  ASSERT_NE(pictureBox, nullptr);
  EXPECT_EQ(pictureBox->itemText(0), name);
  QStringList attentionItems;
  for (QComboBox* box : w.findChildren<QComboBox*>())
    for (int i = 0; i < box->count(); ++i)
      if (box != pictureBox && box->itemText(i).startsWith(QStringLiteral("image ")))
        attentionItems << box->itemText(i);
  ASSERT_EQ(attentionItems.size(), 1) << attentionItems.join(QStringLiteral(" | ")).toStdString();
  const QString grid = QStringLiteral("grid ") + QString::number(seg.rows) + QChar(0xd7) +
                       QString::number(seg.cols) + QStringLiteral(" (rows") + QChar(0xd7) +
                       QStringLiteral("cols)");
  EXPECT_EQ(attentionItems[0].toStdString(), (name + QStringLiteral(", ") + grid).toStdString());
  const QString caption = w.pictureView()->caption();
  EXPECT_TRUE(caption.contains(QString::number(seg.source.resizedWidth) + QChar(0xd7) +
                               QString::number(seg.source.resizedHeight) +
                               QStringLiteral(" px (W") + QChar(0xd7) + QStringLiteral("H)")))
      << caption.toStdString();
  EXPECT_TRUE(caption.contains(grid)) << caption.toStdString();
  EXPECT_GT(seg.source.resizedWidth, seg.source.resizedHeight);  // the sample is landscape
  EXPECT_LT(seg.rows, seg.cols);  // so its grid has fewer rows than columns
}

// The exported bar charts name every row: with every design (23 rows) on the default
// 1050x750 figure Qt Charts dropped every other name until the names got a smaller font, and
// then they were 7 layout px (3.5 pt in a column), half the size of the value labels beside
// them. The names are as large as the rows allow: no two touch, no smaller than a value label
// by more than 3 px (10 against 13 at the default size), left of the plot.
TEST(FigureReadability, EveryBarChartNamesEveryRow) {
  Scene scene = sampleScene();
  scene.layout = parseLayoutSpec("t4,i6x6,t3,a20,v2x4x4,t2");
  for (const QSize size : {QSize(1050, 750), QSize(2100, 1500), QSize(504, 360)}) {
    FigureOptions o;
    o.size = size;
    for (const char* name : {"ptd", "bias", "modality-ptd", "modality-bias"}) {
      const std::string what = std::string(name) + " at " + std::to_string(size.width()) + "x" +
                               std::to_string(size.height());
      QGraphicsScene graphics;  // outlives the chart, which leaves it when deleted
      std::unique_ptr<QChart> chart = figureChart(scene, findFigureView(name), o);
      layOutFigureChart(chart.get(), &graphics, figure::logicalSize(o));
      const std::vector<test::ChartText> texts = test::chartTexts(&graphics);
      int rows = 0;
      std::vector<QRectF> names;
      for (QAbstractAxis* axis : chart->axes()) {
        auto* categories = qobject_cast<QBarCategoryAxis*>(axis);
        if (!categories) continue;
        rows += categories->count();
        for (const QString& row : categories->categories()) {
          const auto it = std::find_if(texts.begin(), texts.end(), [&](const test::ChartText& t) {
            return t.visible && t.text == row;
          });
          ASSERT_NE(it, texts.end())
              << what << ": the row \"" << row.toStdString() << "\" is unnamed";
          EXPECT_GE(it->pixelSize, figure::kMinLabelPixels) << what << ": " << row.toStdString();
          if (rows >= 20) {  // every design: the rows' height allows more than the minimum
            EXPECT_GE(it->pixelSize, valueLabelPixels(chart.get()) - 3)
                << what << ": " << row.toStdString();
            EXPECT_LT(it->rect.right(), chart->plotArea().left())
                << what << ": " << row.toStdString();
          }
          names.push_back(it->rect);
        }
      }
      for (std::size_t a = 0; a < names.size(); ++a)
        for (std::size_t b = a + 1; b < names.size(); ++b)
          EXPECT_FALSE(names[a].intersects(names[b])) << what << ": names " << a << " and " << b;
      EXPECT_GE(rows, std::string(name).rfind("modality", 0) == 0 ? 6 : 20) << what;
    }
  }
}

// The same report: "1.732e+06" was cut to "1.732e-" beside the picture's narrow colour bar. A
// label wider than its room is drawn smaller, down to a floor; one that fits keeps the font.
TEST(FigureReadability, ColourBarLabelsShrinkToTheirRoom) {
  QFont font(QStringLiteral("DejaVu Sans"));
  font.setPixelSize(13);
  const QStringList wide{QStringLiteral("1.732e+06"), QStringLiteral("0")};
  const double full = QFontMetricsF(font).horizontalAdvance(wide[0]);
  const QFont fitted = colorTickFont(font, wide, full * 0.8);
  EXPECT_LT(fitted.pixelSize(), font.pixelSize());
  EXPECT_LE(QFontMetricsF(fitted).horizontalAdvance(wide[0]), full * 0.8);
  EXPECT_EQ(colorTickFont(font, wide, full + 1), font);
  // Never below the floor, however narrow the room.
  EXPECT_GE(colorTickFont(font, wide, 1.0).pixelSize(), 7);
}
