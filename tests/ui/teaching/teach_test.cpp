// The teaching views: the phasor view shows core's numbers for its slider value, the formula
// panels carry the current numbers, the tour runs end to end, and exported animations (the
// GIF writer (giflib), read back with Qt's GIF reader; PNG folders) have the requested frames and
// size.
#include <gtest/gtest.h>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <vtkCamera.h>

#include <cmath>
#include <iostream>
#include <random>
#include <sstream>

#include "charts/charts_panel.h"
#include "figures/figure_views.h"
#include "figures/gif_writer.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "picture/picture_view.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/metrics.h"
#include "ropescope/scene_metrics.h"
#include "ropescope_ui/animation_export.h"
#include "shell/autosave.h"
#include "shell/main_window.h"
#include "style/metric_text.h"
#include "teaching/animation.h"
#include "teaching/animation_dialog.h"
#include "teaching/formula_panel.h"
#include "teaching/phasor_view.h"
#include "teaching/tour.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

QString outputDir() {
  const QString dir = QStringLiteral(ROPESCOPE_UI_OUTPUT) + QStringLiteral("/teach");
  QDir().mkpath(dir);
  return dir;
}

QAction* actionWithShortcut(QWidget* w, const QKeySequence& key) {
  for (QAction* a : w->findChildren<QAction*>())
    if (a->shortcut() == key) return a;
  return nullptr;
}

}  // namespace

TEST(TeachPhasor, ShowsCoreNumbersForTheSliderValue) {
  MainWindow w;
  w.startWith(fixedScene());
  PhasorView* view = w.phasorView();
  ASSERT_NE(view, nullptr);
  view->setDirection(PhasorView::Direction::H);
  auto* slider = view->findChild<QSlider*>(QStringLiteral("phasorSlider"));
  ASSERT_NE(slider, nullptr);
  const PairTable pairs = computeSceneMetrics(fixedScene()).pairs;
  for (int d : {0, 3, 17, 200}) {
    slider->setValue(d);  // what a drag does
    EXPECT_EQ(view->distance(), d);
    const Phasor& ph = view->phasor();
    EXPECT_EQ(ph.delta, (Id3{0, static_cast<double>(d), 0}));
    EXPECT_EQ(ph.decayBound, decayBound(pairs, {0, static_cast<double>(d), 0}));
    EXPECT_NEAR(ph.bias, positionalBias(pairs, {0, static_cast<double>(d), 0}), 1e-12);
    ASSERT_EQ(ph.pairs.size(), 64u);
    for (int k = 0; k < 64; ++k) {
      // Only the h section (pairs 16..39 of M-RoPE's 16/24/24) turns when Δ is along h.
      const double expected = (k >= 16 && k < 40) ? std::pow(1e6, -2.0 * k / 128) * d : 0.0;
      EXPECT_NEAR(ph.pairs[k].phase, expected, 1e-9 * std::max(1.0, expected)) << k;
    }
    EXPECT_TRUE(view->readout().contains(QString::number(ph.decayBound, 'f', 4)))
        << view->readout().toStdString();
    EXPECT_TRUE(view->formulas()->text().contains(formatNumber(ph.decayBound, 6)));
    // The equal-distance line: b along each axis alone and along all three, from core.
    const AxisBias equal = biasAlongAxes(pairs, d);
    for (double b : {equal.t, equal.h, equal.w, equal.text})
      EXPECT_TRUE(view->formulas()->text().contains(formatNumber(b, 5))) << b;
  }
}

TEST(TeachPhasor, SelectedTokensGiveTheirDisplacement) {
  MainWindow w;
  w.startWith(fixedScene());
  PhasorView* view = w.phasorView();
  view->setDirection(PhasorView::Direction::SelectedTokens);
  EXPECT_EQ(view->phasor().delta, (Id3{0, 0, 0}));  // nothing picked yet
  w.model()->setSelectedVisual(7);
  const SceneMetrics& m = w.model()->metrics();
  const Id3 expected = displacement(m.ids, m.selectedToken, m.ids.visualIndices()[7]);
  EXPECT_EQ(view->phasor().delta, expected);
  EXPECT_EQ(view->phasor().decayBound, decayBound(m.pairs, expected));
}

TEST(TeachFormula, PanelsCarryTheCurrentNumbers) {
  MainWindow w;
  w.startWith(fixedScene());
  const SceneMetrics& m = w.model()->metrics();
  const QString charts = w.charts()->formulas()->text();
  EXPECT_TRUE(charts.contains(metricText(m.ptd.ptd)));
  EXPECT_TRUE(charts.contains(metricText(m.bias.spread)));
  EXPECT_TRUE(charts.contains(formatNumber(m.decayAxis[1].back(), 5)));
  const QString cone = w.positionFormulas()->text();
  EXPECT_TRUE(cone.contains(QStringLiteral("α = 0.5")));
  // A parameter edit shows up in the cone formula.
  w.model()->edit([](Scene& s) { s.designParams.set("alpha", 0.25); });
  EXPECT_TRUE(w.positionFormulas()->text().contains(QStringLiteral("α = 0.25")));
  EXPECT_FALSE(w.positionFormulas()->text().contains(QStringLiteral("α = 0.5")));
}

// A formula panel observes its model itself: no window passes it the numbers.
TEST(TeachFormula, APanelFollowsItsModelAlone) {
  SceneModel model;
  model.setScene(fixedScene());
  FormulaPanel panel;
  panel.follow(&model, &positionFormulas);
  EXPECT_TRUE(panel.text().contains(QStringLiteral("α = 0.5"))) << panel.text().toStdString();
  model.edit([](Scene& s) { s.designParams.set("alpha", 0.25); });
  EXPECT_TRUE(panel.text().contains(QStringLiteral("α = 0.25"))) << panel.text().toStdString();
  EXPECT_EQ(panel.text(), positionFormulas(model.validScene(), model.metrics()));
}

TEST(TeachTour, RunsEndToEndAndCloseGivesTheSceneBack) {
  MainWindow w;
  w.startWith(fixedScene());
  showAndSettle(&w);
  const Scene before = w.model()->scene();
  QAction* f1 = actionWithShortcut(&w, QKeySequence(Qt::Key_F1));
  ASSERT_NE(f1, nullptr);
  EXPECT_FALSE(w.tourDock()->isVisible());
  // F1 from the keyboard, as a newcomer would press it.
  w.activateWindow();
  ASSERT_TRUE(waitUntil([&] { return w.isActiveWindow(); }));
  QTest::keyClick(&w, Qt::Key_F1);
  TourPanel* tour = w.tourPanel();
  ASSERT_TRUE(w.tourDock()->isVisible());
  ASSERT_TRUE(tour->running());
  const std::vector<TourStep> steps = tourSteps();
  ASSERT_GE(steps.size(), 4u);
  auto* next = tour->findChild<QPushButton*>(QStringLiteral("tourNext"));
  auto* back = tour->findChild<QPushButton*>(QStringLiteral("tourBack"));
  std::vector<std::string> designs;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(tour->step(), static_cast<int>(i));
    EXPECT_FALSE(w.model()->isStale()) << "step " << i;
    EXPECT_NO_THROW(validateScene(w.model()->scene()));
    Scene expected = tourBaseScene();
    steps[i].apply(expected);
    EXPECT_EQ(w.model()->validScene(), expected) << "step " << i;
    EXPECT_FALSE(tour->titleText().isEmpty());
    EXPECT_GT(tour->bodyText().size(), 60);
    EXPECT_TRUE(tour->counterText().contains(QString::number(i + 1)));
    EXPECT_EQ(back->isEnabled(), i > 0);
    designs.push_back(w.model()->validScene().design);
    auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
    if (steps[i].tab == QLatin1String("phasor")) {
      EXPECT_EQ(tabs->currentWidget(), w.phasorView());
      EXPECT_EQ(w.phasorView()->distance(), steps[i].phasorDistance);
    }
    if (i == 3) w.grab().save(outputDir() + QStringLiteral("/tour_step.png"));
    if (i + 1 < steps.size()) QTest::mouseClick(next, Qt::LeftButton);
  }
  EXPECT_EQ(designs.front(), "hard");
  EXPECT_EQ(designs.back(), "circle");
  // Back steps once, then Close ends the tour and gives the user's scene back.
  QTest::mouseClick(back, Qt::LeftButton);
  EXPECT_EQ(tour->step(), static_cast<int>(steps.size()) - 2);
  QTest::mouseClick(tour->findChild<QPushButton*>(QStringLiteral("tourClose")), Qt::LeftButton);
  EXPECT_FALSE(tour->running());
  EXPECT_FALSE(w.tourDock()->isVisible());
  EXPECT_EQ(w.model()->scene(), before);
  // A scene edited during the tour is the user's work: Close keeps it.
  w.startTour();
  EXPECT_TRUE(w.tourDock()->isVisible());
  w.model()->edit([](Scene& s) { s.layout = parseLayoutSpec("t2,i3x3,t2"); });
  const Scene edited = w.model()->scene();
  tour->finish();
  EXPECT_EQ(w.model()->scene(), edited);
  EXPECT_FALSE(w.tourDock()->isVisible());
  // Still usable: an edit goes through.
  w.model()->edit([](Scene& s) { s.design = "spatial"; });
  EXPECT_EQ(w.model()->validScene().design, "spatial");
  EXPECT_FALSE(w.model()->isStale());
}

// F1 on a clean start marked the scene modified, and after Close the phasor
// distance, the camera and the side tab were the tour's. The tour gives back all it changed.
TEST(TeachTour, CloseGivesBackTabPhasorAndCameraAndNeverMarksModified) {
  MainWindow w;
  w.startWith(fixedScene());
  showAndSettle(&w);
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);
  // The user's own settings, unlike any step's.
  tabs->setCurrentWidget(w.pictureView());
  w.phasorView()->setDirection(PhasorView::Direction::W);
  w.phasorView()->setDistance(7);
  w.model()->setSelectedVisual(5);
  vtkCamera* camera = w.spaceView()->camera();
  camera->Zoom(1.7);
  camera->Azimuth(20);
  emit w.spaceView()->cameraInteracted();  // as a drag or the wheel reports it
  double position[3], focal[3], up[3];
  camera->GetPosition(position);
  camera->GetFocalPoint(focal);
  camera->GetViewUp(up);
  const double angle = camera->GetViewAngle();
  const Scene before = w.model()->scene();
  ASSERT_FALSE(w.isModified());

  w.activateWindow();
  ASSERT_TRUE(waitUntil([&] { return w.isActiveWindow(); }));
  QTest::keyClick(&w, Qt::Key_F1);
  TourPanel* tour = w.tourPanel();
  ASSERT_TRUE(tour->running());
  auto* next = tour->findChild<QPushButton*>(QStringLiteral("tourNext"));
  bool phasorStepSeen = false;
  for (int i = 0; i < tour->stepCount(); ++i) {
    EXPECT_FALSE(w.isModified()) << "step " << i;
    EXPECT_FALSE(w.isWindowModified()) << "step " << i;
    phasorStepSeen = phasorStepSeen || tabs->currentWidget() == w.phasorView();
    if (i + 1 < tour->stepCount()) QTest::mouseClick(next, Qt::LeftButton);
  }
  ASSERT_TRUE(phasorStepSeen);
  EXPECT_NE(w.phasorView()->distance(), 7);  // the tour did change it
  // Escape, with the keyboard focus where F1 left it, closes the tour.
  QWidget* focus = QApplication::focusWidget();
  ASSERT_NE(focus, nullptr);
  QTest::keyClick(focus, Qt::Key_Escape);
  EXPECT_FALSE(tour->running());
  EXPECT_FALSE(w.tourDock()->isVisible());

  EXPECT_EQ(w.model()->scene(), before);
  EXPECT_FALSE(w.isModified());
  EXPECT_FALSE(w.isWindowModified());
  EXPECT_EQ(tabs->currentWidget(), w.pictureView());
  EXPECT_EQ(w.phasorView()->direction(), PhasorView::Direction::W);
  EXPECT_EQ(w.phasorView()->distance(), 7);
  EXPECT_EQ(w.model()->selectedVisual(), 5);
  double p2[3], f2[3], u2[3];
  camera = w.spaceView()->camera();
  camera->GetPosition(p2);
  camera->GetFocalPoint(f2);
  camera->GetViewUp(u2);
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(p2[k], position[k]) << "camera position " << k;
    EXPECT_DOUBLE_EQ(f2[k], focal[k]) << "focal point " << k;
    EXPECT_DOUBLE_EQ(u2[k], up[k]) << "view up " << k;
  }
  EXPECT_DOUBLE_EQ(camera->GetViewAngle(), angle);

  // Unsaved work before the tour stays unsaved during and after it.
  w.model()->edit([](Scene& s) { s.design = "spatial"; });
  ASSERT_TRUE(w.isModified());
  w.startTour();
  EXPECT_TRUE(w.isModified());
  // An autosave during the tour keeps the user's unsaved scene, not the step's.
  ASSERT_NE(w.model()->scene().design, "spatial");
  ASSERT_TRUE(w.autosave()->saveNow()) << w.autosave()->lastError().toStdString();
  EXPECT_EQ(loadSceneFile(w.autosave()->scenePath().toStdString()).design, "spatial");
  tour->finish();
  EXPECT_TRUE(w.isModified());
  EXPECT_EQ(w.model()->scene().design, "spatial");
  w.startWith(w.model()->scene());
}

TEST(TeachGif, LzwRoundTripsThroughQtsReader) {
  // 200 colours of noise: exact palette, long LZW runs with dictionary resets.
  QImage image(301, 203, QImage::Format_RGB32);
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> pick(0, 199);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const int c = (y / 20 + x / 30) % 3 == 0 ? pick(rng) : (x / 7 + y / 5) % 200;
      image.setPixel(x, y, qRgb(c, (c * 37) % 256, 255 - c));
    }
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("noise.gif"));
  GifWriter writer;
  ASSERT_TRUE(writer.open(path, image.size(), 5));
  ASSERT_TRUE(writer.addFrame(image));
  QImage two(image.size(), QImage::Format_RGB32);
  two.fill(qRgb(10, 200, 30));  // one colour: the smallest table
  ASSERT_TRUE(writer.addFrame(two));
  ASSERT_TRUE(writer.close());
  QImageReader reader(path);
  ASSERT_TRUE(reader.canRead()) << reader.errorString().toStdString();
  EXPECT_EQ(reader.imageCount(), 2);
  EXPECT_EQ(reader.size(), image.size());
  EXPECT_EQ(reader.loopCount(), -1);  // Qt reports "forever" as -1
  const QImage back = reader.read().convertToFormat(QImage::Format_RGB32);
  ASSERT_EQ(back.size(), image.size());
  long wrong = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) wrong += back.pixel(x, y) != image.pixel(x, y);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(reader.nextImageDelay(), 50);
  const QImage second = reader.read().convertToFormat(QImage::Format_RGB32);
  EXPECT_EQ(second.pixel(150, 100), qRgb(10, 200, 30));
}

TEST(TeachAnimation, DistanceGifHasTheRequestedFramesAndSize) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("decay.gif"));
  AnimationSpec spec = parseAnimationSpec("distance:0:120");
  spec.frames = 12;
  int calls = 0;
  QElapsedTimer timer;
  timer.start();
  const AnimationResult r =
      renderAnimation(fixedScene(), spec, QSize(360, 270), path, [&](int done, int total) {
        ++calls;
        EXPECT_EQ(total, 12);
        EXPECT_EQ(done, calls);
        return true;
      });
  ASSERT_TRUE(r.ok) << r.error.toStdString();
  EXPECT_EQ(calls, 12);
  std::cout << "[ info     ] 12 distance frames 360x270: " << QFileInfo(path).size() / 1024
            << " KiB in " << timer.elapsed() << " ms\n";
  QImageReader reader(path);
  EXPECT_EQ(reader.imageCount(), 12);
  EXPECT_EQ(reader.size(), QSize(360, 270));
  // Frame 0 read back looks like the frame rendered directly (palette quantisation aside).
  const QImage direct = renderAnimationFrame(fixedScene(), spec, 0, QSize(360, 270));
  const QImage first = reader.read().convertToFormat(QImage::Format_RGB32);
  EXPECT_LT(compareImages(direct, first, 40).differingFraction, 0.01);
  EXPECT_FALSE(looksBlank(first));
  first.save(outputDir() + QStringLiteral("/gif_frame0.png"));
  QImage last;
  for (int i = 1; i < 12; ++i) last = reader.read();
  EXPECT_GT(compareImages(first, last.convertToFormat(QImage::Format_RGB32)).differingFraction,
            0.02);
}

TEST(TeachAnimation, CancelStopsEarly) {
  QTemporaryDir dir;
  AnimationSpec spec = parseAnimationSpec("distance_w:0:50");
  spec.frames = 10;
  const AnimationResult r =
      renderAnimation(fixedScene(), spec, QSize(200, 150), dir.filePath(QStringLiteral("x.gif")),
                      [](int done, int) { return done < 3; });
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(r.framesWritten, 3);
  // A cancelled GIF is abandoned whole (one output path): no partial file.
  EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("x.gif"))));
  EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files).isEmpty()) << "a temporary file was left";
}

namespace {
// Height in pixels of the first line of dark text from the top (a title's glyphs).
int firstTextLineHeight(const QImage& image) {
  int first = -1, last = -1;
  for (int y = 0; y < image.height() / 4; ++y) {
    bool ink = false;
    for (int x = 0; x < image.width() && !ink; ++x) ink = qGray(image.pixel(x, y)) < 100;
    if (ink && first < 0) first = y;
    if (ink) last = y;
    if (!ink && first >= 0) break;
  }
  return first < 0 ? 0 : last - first + 1;
}
}  // namespace

// The docs' claim: frames use the look of exported figures. The α/R/β frames drew their text
// at the screen's size, much smaller than the 3-D figure of the same size draws it; the frame's
// title is now as tall as the figure's.
TEST(TeachAnimation, ThreeDFramesUseTheFiguresText) {
  QTemporaryDir dir;
  const QString folder = dir.filePath(QStringLiteral("frames"));
  AnimationSpec spec = parseAnimationSpec("alpha:0:1");
  spec.frames = 2;
  for (const QSize size : {QSize(640, 480), QSize(1050, 750)}) {
    const AnimationResult r = renderAnimation(fixedScene(), spec, size, folder);
    ASSERT_TRUE(r.ok) << r.error.toStdString();
    const QImage frame(QDir(folder).filePath(QStringLiteral("frame_0001.png")));
    Scene still = fixedScene();
    still.designParams.set("alpha", 0.0);
    FigureOptions o;
    o.size = size;
    const QImage figure = figureImage(still, findFigureView("space"), o);
    const int a = firstTextLineHeight(frame), b = firstTextLineHeight(figure);
    ASSERT_GT(b, 0);
    EXPECT_NEAR(a, b, 0.25 * b) << size.width() << "x" << size.height();
  }
}

TEST(TeachAnimation, PngSequenceAndCircleSweep) {
  QTemporaryDir dir;
  const QString folder = dir.filePath(QStringLiteral("frames"));
  AnimationSpec spec = parseAnimationSpec("alpha:0:1");
  spec.frames = 5;
  const AnimationResult r = renderAnimation(fixedScene(), spec, QSize(320, 240), folder);
  ASSERT_TRUE(r.ok) << r.error.toStdString();
  const QStringList files =
      QDir(folder).entryList({QStringLiteral("frame_*.png")}, QDir::Files, QDir::Name);
  ASSERT_EQ(files.size(), 5);
  EXPECT_EQ(files.front(), QStringLiteral("frame_0001.png"));
  EXPECT_EQ(files.back(), QStringLiteral("frame_0005.png"));
  QImage first(QDir(folder).filePath(files.front())), last(QDir(folder).filePath(files.back()));
  EXPECT_EQ(first.size(), QSize(320, 240));
  EXPECT_EQ(last.size(), QSize(320, 240));
  EXPECT_FALSE(looksBlank(first));
  // α moves the patches around the ring: the pictures differ.
  EXPECT_GT(compareImages(first, last).differingFraction, 0.001);
  last.save(outputDir() + QStringLiteral("/circle_alpha1.png"));

  // The same through the command entry, as a GIF: radius sweep.
  const QString gif = dir.filePath(QStringLiteral("radius.gif"));
  std::ostringstream log;
  EXPECT_EQ(renderAnimationCommand(fixedScene(), "R:2:20", 4, 300, 200, gif.toStdString(), log), 0);
  EXPECT_NE(log.str().find("wrote 4 frames of 300x200"), std::string::npos) << log.str();
  QImageReader reader(gif);
  EXPECT_EQ(reader.imageCount(), 4);
  EXPECT_EQ(reader.size(), QSize(300, 200));
}

TEST(TeachAnimation, BadSpecsAreRejectedWithOneLine) {
  const char* bad[] = {"",           "distance",        "distance:0",     "distance:0:x",
                       "speed:0:1",  "alpha:0:2",       "alpha:-1:1",     "radius:0:10",
                       "beta:0:1.5", "distance:0:9999", "distance_q:0:4", "alpha:0.5:0.5",
                       "alpha:0:1:2"};
  for (const char* spec : bad) {
    try {
      parseAnimationSpec(spec);
      ADD_FAILURE() << "accepted '" << spec << "'";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_NE(msg.find(spec), std::string::npos) << msg;  // names the input
      EXPECT_TRUE(msg.find("PARAM:FROM:TO") != std::string::npos ||
                  msg.find(" in ") != std::string::npos || msg.find("..") != std::string::npos)
          << msg;  // and the accepted form or range
      EXPECT_EQ(e.field(), "animate");
    }
  }
  EXPECT_EQ(parseAnimationSpec("beta:0:1").parameter, "dff");
  EXPECT_EQ(parseAnimationSpec("distance_thw:0:5").direction, "thw");
  EXPECT_THROW(parseAnimationSpec("distance_thw:-5:5"), InputError);
  std::ostringstream log;
  QTemporaryDir dir;
  const std::string out = dir.filePath(QStringLiteral("a.gif")).toStdString();
  EXPECT_THROW(renderAnimationCommand(fixedScene(), "alpha:0:1", 1, 320, 240, out, log),
               InputError);
  EXPECT_THROW(renderAnimationCommand(fixedScene(), "alpha:0:1", 1001, 320, 240, out, log),
               InputError);
  EXPECT_THROW(renderAnimationCommand(fixedScene(), "alpha:0:1", 4, 10, 240, out, log), InputError);
  EXPECT_THROW(renderAnimationCommand(fixedScene(), "alpha:0:1", 4, 320, 240, "", log), InputError);
  EXPECT_FALSE(QFileInfo::exists(QString::fromStdString(out)));
}

// The docs' claim: a distance animation sweeps the phasor picture over distances. With the
// dialog's defaults (0..64, 32 frames) the frames were at 2.06452, 4.12903, ... positions, which
// the Phasors tab and `render --view phasor --distance` refuse. Every frame is a whole distance
// now, each one the phasor figure draws, and the spec's ends must be whole.
TEST(TeachAnimation, DistanceFramesAreWholeDistancesThePhasorFigureDraws) {
  MainWindow w;
  w.startWith(fixedScene());
  AnimationDialog dialog(w.model(), &w);
  AnimationSpec spec = parseAnimationSpec(dialog.specText().toStdString());
  ASSERT_TRUE(spec.sweepsDistance()) << dialog.specText().toStdString();
  spec.frames = dialog.findChild<QSpinBox*>(QStringLiteral("animationFrames"))->value();
  for (const std::string text : {std::string(), std::string("distance_h:0:256")}) {
    AnimationSpec s = text.empty() ? spec : parseAnimationSpec(text);
    if (!text.empty()) s.frames = 48;
    for (int i = 0; i < s.frames; ++i) {
      const double d = s.valueAt(i);
      ASSERT_EQ(d, std::round(d)) << "frame " << i << " of " << s.frames;
      FigureOptions o;
      o.size = QSize(320, 240);
      o.phasorDistance = static_cast<int>(d);
      o.phasorAlong = s.direction;
      EXPECT_NO_THROW(figureImage(fixedScene(), findFigureView("phasor"), o)) << d;
    }
    EXPECT_EQ(s.valueAt(0), s.from);
    EXPECT_EQ(s.valueAt(s.frames - 1), s.to);
  }
  try {
    parseAnimationSpec("distance_h:0:2.5");
    ADD_FAILURE() << "a fractional end was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("whole number"), std::string::npos) << e.what();
  }
}

TEST(TeachAnimation, DialogShowsProblemsBesideTheFieldsAndExports) {
  MainWindow w;
  w.startWith(fixedScene());
  AnimationDialog dialog(w.model(), &w);
  QTemporaryDir dir;
  // The boxes offer what the parser accepts (animation.h), nothing beyond it.
  auto* frames = dialog.findChild<QSpinBox*>(QStringLiteral("animationFrames"));
  ASSERT_NE(frames, nullptr);
  EXPECT_EQ(frames->minimum(), kMinAnimationFrames);
  EXPECT_EQ(frames->maximum(), kMaxAnimationFrames);
  for (const char* name : {"animationWidth", "animationHeight"}) {
    auto* side = dialog.findChild<QSpinBox*>(QString::fromLatin1(name));
    ASSERT_NE(side, nullptr) << name;
    EXPECT_EQ(side->minimum(), kMinAnimationSide) << name;
    EXPECT_EQ(side->maximum(), kMaxAnimationSide) << name;
  }
  auto* from = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("animationFrom"));
  ASSERT_NE(from, nullptr);
  for (const char* sweep : {"distance_h", "alpha", "radius", "dff"}) {
    dialog.setSpec(QString::fromLatin1(sweep), 0, 1, 8);
    const std::string parameter = std::string(sweep).rfind("distance", 0) == 0 ? "distance" : sweep;
    const AnimationRange range = animationRange(parameter);
    // An open end (R > 0) is not offered: the box starts a step above it.
    if (range.loExclusive)
      EXPECT_GT(from->minimum(), range.lo) << sweep;
    else
      EXPECT_EQ(from->minimum(), range.lo) << sweep;
    EXPECT_EQ(from->maximum(), range.hi) << sweep;
  }
  EXPECT_TRUE(animationRange("radius").loExclusive);
  dialog.setOutput(dir.filePath(QStringLiteral("d.gif")));
  dialog.setSpec(QStringLiteral("radius"), 0, 10, 6);  // R must be above 0: the box says so
  EXPECT_GT(from->value(), 0.0);
  EXPECT_TRUE(dialog.validate()) << dialog.message().toStdString();
  // Messages in the dialog's words: no command-line spec, no --out (a user's-eye report).
  dialog.setSpec(QStringLiteral("distance_h"), 5, 5, 6);
  EXPECT_FALSE(dialog.validate());
  EXPECT_TRUE(dialog.message().startsWith(QStringLiteral("FROM and TO are equal")))
      << dialog.message().toStdString();
  EXPECT_FALSE(dialog.message().contains(QStringLiteral("PARAM")));
  dialog.setSpec(QStringLiteral("distance_h"), 0, 40, 6);
  dialog.setOutput(dir.filePath(QStringLiteral("frames.png")));
  showAndSettle(&dialog);
  dialog.resize(dialog.width(), dialog.minimumSizeHint().height());
  EXPECT_FALSE(dialog.exportNow());  // refused before a frame is drawn
  EXPECT_TRUE(dialog.message().startsWith(QStringLiteral("Output \"")))
      << dialog.message().toStdString();
  EXPECT_FALSE(dialog.message().contains(QStringLiteral("--out")));
  // The dialog grew to show the whole wrapped message (it was cut off).
  auto* label = dialog.findChild<QLabel*>(QStringLiteral("animationMessage"));
  ASSERT_NE(label, nullptr);
  QCoreApplication::processEvents();
  EXPECT_GE(label->height(), label->heightForWidth(label->width()));
  dialog.hide();
  dialog.setOutput(dir.filePath(QStringLiteral("d.gif")));
  dialog.setSpec(QStringLiteral("distance_h"), 0, 40, 6);
  dialog.setFrameSize(QSize(256, 192));
  ASSERT_TRUE(dialog.exportNow()) << dialog.message().toStdString();
  QImageReader reader(dir.filePath(QStringLiteral("d.gif")));
  EXPECT_EQ(reader.imageCount(), 6);
  EXPECT_EQ(reader.size(), QSize(256, 192));
}

TEST(TeachScreens, PhasorAtSeveralDistances) {
  MainWindow w;
  w.startWith(fixedScene());
  w.showSideTab(QStringLiteral("phasor"));
  showAndSettle(&w);
  PhasorView* view = w.phasorView();
  view->setDirection(PhasorView::Direction::H);
  for (int d : {0, 3, 40}) {
    view->setDistance(d);
    QCoreApplication::processEvents();
    const QImage image = view->grab().toImage();
    EXPECT_FALSE(looksBlank(image));
    image.save(outputDir() + QStringLiteral("/phasor_h%1.png").arg(d));
  }
  view->setDirection(PhasorView::Direction::W);
  view->setDistance(3);
  view->grab().save(outputDir() + QStringLiteral("/phasor_w3.png"));
  w.grab().save(outputDir() + QStringLiteral("/main_phasor.png"));
  view->renderImage(QSize(800, 600)).save(outputDir() + QStringLiteral("/phasor_render.png"));

  w.showSideTab(QStringLiteral("charts"));
  QCoreApplication::processEvents();
  w.charts()->grab().save(outputDir() + QStringLiteral("/charts_formulas.png"));
  AnimationDialog dialog(w.model(), &w);
  dialog.setSpec(QStringLiteral("alpha"), 0.5, 0.5, 8);
  dialog.validate();  // shows the problem (equal ends) beside the fields
  showAndSettle(&dialog);
  dialog.grab().save(outputDir() + QStringLiteral("/export_dialog.png"));
  dialog.hide();

  // The README's picture: the phasor tab on its own, M-RoPE, 100 positions along h.
  SceneModel model;
  model.setScene(fixedScene());
  PhasorView alone(&model);
  alone.resize(900, 860);
  alone.setDirection(PhasorView::Direction::H);
  alone.setDistance(100);
  showAndSettle(&alone);
  const QImage shot = alone.grab().toImage();
  EXPECT_FALSE(looksBlank(shot));
  shot.save(outputDir() + QStringLiteral("/phasor_view.png"));
}

// with no visual token (or no text) PTD and bias spread are undefined: every
// place that shows them says n/a and why, none shows 0.
TEST(TeachFormula, UndefinedMetricsReadNotApplicableWithTheReason) {
  for (const char* spec : {"t5", "i3x3"}) {
    SCOPED_TRACE(spec);
    MainWindow w;
    Scene s = fixedScene();
    s.layout = parseLayoutSpec(spec);
    s.selectedText = 0;
    w.startWith(s);
    const SceneMetrics& m = w.model()->metrics();
    ASSERT_FALSE(m.ptd.defined());
    const QString reason = QString::fromStdString(m.ptd.undefinedReason);
    const QString status = w.statusText();
    EXPECT_TRUE(status.contains(QStringLiteral("PTD n/a"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("bias spread n/a"))) << status.toStdString();
    EXPECT_TRUE(status.contains(reason)) << status.toStdString();
    EXPECT_FALSE(status.contains(QStringLiteral("PTD 0"))) << status.toStdString();
    const QString formulas = w.charts()->formulas()->text();
    EXPECT_TRUE(formulas.contains(QStringLiteral("n/a (") + reason)) << formulas.toStdString();
    EXPECT_TRUE(formulas.contains(QStringLiteral("n/a (bias spread needs")))
        << formulas.toStdString();
    EXPECT_TRUE(w.positionFormulas()->text().contains(QStringLiteral("n/a (") + reason));
    // The bar charts of every design, once the comparison is in.
    ASSERT_TRUE(waitUntil(
        [&] { return !w.model()->summariesPending() && !w.model()->designSummaries().empty(); }));
    ASSERT_FALSE(w.model()->designSummaries().empty());
    // By name: the title's wording follows the chart's width (the longest form that fits).
    for (const char* name : {"ptdBarsChart", "biasBarsChart"}) {
      auto* v = w.charts()->findChild<QChartView*>(QLatin1String(name));
      ASSERT_NE(v, nullptr) << name;
      const QString title = v->chart()->title();
      EXPECT_TRUE(title.contains(QStringLiteral(": n/a (no ")))
          << name << ": " << title.toStdString();
      EXPECT_FALSE(title.contains(QStringLiteral(": 0"))) << name << ": " << title.toStdString();
    }
  }
}

// The Ids line names where each design measures its distances, once ("in the space space" came
// from pasting the core's one-word name into a phrase that already said "space").
TEST(TeachFormula, TheIdsLineNamesEachDesignsSpaceOnce) {
  const std::vector<std::pair<std::string, QString>> designs = {
      {"hard", QStringLiteral("along the line of t")},
      {"mrope", QStringLiteral("in (t, h, w) space")},
      {"vrope", QStringLiteral("over the four maps")}};
  for (const auto& [design, phrase] : designs) {
    Scene s = fixedScene();
    s.design = design;
    s.designParams = {};
    const QString text = positionFormulas(s, computeSceneMetrics(s, 16, 1));
    EXPECT_TRUE(text.contains(phrase)) << design << ": " << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("space space"))) << text.toStdString();
  }
}
