// An export is what the user sees: each view whose tab has a state of its own (the picture and
// temporal patch shown, the picked token, the sound and its map, the phasors' displacement, the
// 3-D colouring) exports that state, its title names it, and its data hold every temporal patch
// or say which. A video's picture figures and CSV always held the first temporal pair, unnamed,
// while the Picture tab showed "temporal patch 2 of 4 (frame 4)".
#include <gtest/gtest.h>

#include <QFile>
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "figures/figure_menu.h"
#include "figures/figure_views.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "picture/picture_canvas.h"
#include "picture/picture_view.h"
#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "shell/main_window.h"
#include "sound/sound_view.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// Every view whose tab keeps a state of its own, which its export must take; the test below
// sets each and compares. Every other view draws the scene alone (its state is the scene's).
const std::set<std::string> kViewsWithState = {"picture", "picture-bias", "sound", "phasor",
                                               "space"};
const std::set<std::string> kViewsOfTheSceneAlone = {
    "compare",      "decay",         "decay-subset", "ptd",         "bias",
    "modality-ptd", "modality-bias", "profile",      "wavelengths", "age",
    "attention",    "principles",    "fading"};

std::vector<std::map<std::string, std::string>> csvRows(const QString& path) {
  std::ifstream in(path.toStdString());
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream h(line);
  for (std::string c; std::getline(h, c, ',');) header.push_back(c);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::map<std::string, std::string> row;
    std::size_t i = 0;
    for (std::string c; std::getline(cells, c, ',') && i < header.size(); ++i) row[header[i]] = c;
    rows.push_back(row);
  }
  return rows;
}

QString fileText(const QString& path) {
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
  return QString::fromUtf8(f.readAll());
}

}  // namespace

// A view added later with a state of its own must be listed, and tested, here.
TEST(FigureState, EveryViewIsListedWithOrWithoutAStateOfItsTab) {
  for (const FigureView& v : figureViews())
    EXPECT_NE(kViewsWithState.count(v.name) + kViewsOfTheSceneAlone.count(v.name), 0u)
        << v.name << ": does its tab keep a state its export must take?";
}

// The Picture tab showing a video's temporal patch 2 of 4 (a token of it picked) and then a
// second picture: the GUI's export draws that patch and picture, its title names them, and its
// CSV holds every temporal patch with a column saying which, the shown one equal to the live
// view's values and colour range. render's --temporal-patch draws the same figure.
TEST(FigureState, PictureExportsTheTabsPictureAndTemporalPatch) {
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  const std::string samples = ROPESCOPE_SAMPLES;
  Scene scene = w.model()->validScene();
  scene.layout =
      parseLayoutSpec("t4,vid:" + samples + "/moving.gif,t2,img:" + samples + "/checker.png,t4");
  scene.selectedText = 5;
  w.model()->setScene(scene);
  ASSERT_FALSE(w.model()->problem()) << w.model()->problem()->message.toStdString();
  w.showSideTab(QStringLiteral("picture"));
  PictureView* view = w.pictureView();
  ASSERT_EQ(view->shownSegment(), 1);
  const Segment& video = w.model()->validScene().layout.segments[1];
  ASSERT_EQ(video.kind, SegmentKind::Video);
  ASSERT_GE(video.frames, 3);
  // Pick a token of temporal patch 2, as a click on it in the 3-D view does.
  const SceneMetrics& m = w.model()->metrics();
  long pick = -1, visual = 0;
  for (std::size_t i = 0; i < m.ids.size() && pick < 0; ++i) {
    const TokenInfo& t = m.ids.tokens[i];
    if (t.modality != Modality::Image && t.modality != Modality::Video) continue;
    if (t.segment == 1 && t.frame == 2 && t.row == 1 && t.col == 1) pick = visual;
    ++visual;
  }
  ASSERT_GE(pick, 0);
  w.model()->setSelectedVisual(pick);
  ASSERT_TRUE(test::waitUntil([&] { return view->temporal() == 2; }));
  const QString named = QStringLiteral("temporal patch 2 of %1").arg(video.frames);
  ASSERT_TRUE(view->caption().contains(named)) << view->caption().toStdString();

  QTemporaryDir dir;
  for (const std::string name : {"picture", "picture-bias"}) {
    SCOPED_TRACE(name);
    const bool bias = name == "picture-bias";
    const QString csv = dir.filePath(QStringLiteral("p.csv"));
    w.figures()->exportTo(name, csv);
    const auto rows = csvRows(csv);
    std::set<std::string> temporals;
    double lo = 1e300, hi = -1e300;
    int shownCells = 0;
    for (const auto& r : rows) {
      ASSERT_EQ(r.count("temporal"), 1u) << "the CSV says which temporal patch each row is";
      temporals.insert(r.at("temporal"));
      if (r.at("temporal") != "2") continue;
      const int row = std::stoi(r.at("row")), col = std::stoi(r.at("col"));
      const double v = std::stod(r.at(bias ? "bias" : "distance"));
      view->setOverlay(bias ? PictureOverlay::Bias : PictureOverlay::Distance);
      EXPECT_DOUBLE_EQ(v, view->overlayValue(row, col)) << row << "," << col;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      ++shownCells;
    }
    EXPECT_EQ(static_cast<int>(temporals.size()), video.frames) << "every temporal patch";
    EXPECT_EQ(shownCells, view->rows() * view->cols());
    EXPECT_DOUBLE_EQ(lo, view->canvas()->min());  // the live colour range
    EXPECT_DOUBLE_EQ(hi, view->canvas()->max());

    const QString svg = dir.filePath(QStringLiteral("p.svg"));
    w.figures()->exportTo(name, svg);
    EXPECT_TRUE(fileText(svg).contains(named)) << "the title names the temporal patch";

    // The PNG is the tab's patch with the tab's pick: render's --temporal-patch 2 draws the
    // same patch, and patch 0 is another picture.
    const QString png = dir.filePath(QStringLiteral("p.png"));
    w.figures()->exportTo(name, png);
    FigureOptions o = w.figures()->options();
    o.selectedVisual = pick;
    const QImage picked = figureImage(w.model()->validScene(), findFigureView(name), o);
    EXPECT_EQ(test::compareImages(QImage(png), picked, 1).differingFraction, 0.0);
    o.selectedVisual = -1;
    o.temporalPatch = 2;
    const QImage second = figureImage(w.model()->validScene(), findFigureView(name), o);
    o.temporalPatch = 0;
    const QImage first = figureImage(w.model()->validScene(), findFigureView(name), o);
    EXPECT_LT(test::compareImages(QImage(png), second, 40).differingFraction, 0.02);
    EXPECT_GT(test::compareImages(second, first, 40).differingFraction, 0.02);
  }

  // The second picture of the layout, shown in the tab: exported, named, its cells only.
  view->showSegment(3);
  ASSERT_EQ(view->shownSegment(), 3);
  const QString svg = dir.filePath(QStringLiteral("c.svg"));
  w.figures()->exportTo("picture", svg);
  EXPECT_TRUE(fileText(svg).contains(QStringLiteral("checker.png")));
  EXPECT_FALSE(fileText(svg).contains(QStringLiteral("temporal patch")));
  const QString csv = dir.filePath(QStringLiteral("c.csv"));
  w.figures()->exportTo("picture", csv);
  EXPECT_EQ(static_cast<int>(csvRows(csv).size()), view->rows() * view->cols());

  // A temporal patch the video does not have: one line naming the range.
  FigureOptions bad;
  bad.temporalPatch = video.frames;
  try {
    figureImage(w.model()->validScene(), findFigureView("picture"), bad);
    ADD_FAILURE() << "a temporal patch past the video was drawn";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0.." + std::to_string(video.frames - 1)),
              std::string::npos)
        << e.what();
  }
}

// The Sound tab showing the second of two sounds with the positional-bias map: the export draws
// and names that sound and that map (it drew the first sound's distance).
TEST(FigureState, SoundExportsTheTabsSoundAndMap) {
  MainWindow w;
  w.resize(1366, 768);
  test::showAndSettle(&w);
  Scene scene = w.model()->validScene();
  scene.layout = parseLayoutSpec("t4,a10,t2,a20,t4");
  w.model()->setScene(scene);
  ASSERT_FALSE(w.model()->problem());
  w.showSideTab(QStringLiteral("sound"));
  SoundView* sound = w.soundView();
  sound->showSegment(3);
  sound->setOverlay(SoundOverlay::Bias);
  ASSERT_EQ(sound->shownSegment(), 3);
  QTemporaryDir dir;
  const QString svg = dir.filePath(QStringLiteral("s.svg"));
  w.figures()->exportTo("sound", svg);
  const QString text = fileText(svg);
  EXPECT_TRUE(text.contains(QStringLiteral("Positional bias from text token"))) << "the map";
  EXPECT_TRUE(text.contains(QStringLiteral("audio 2"))) << "the sound";
  const QString png = dir.filePath(QStringLiteral("s.png"));
  w.figures()->exportTo("sound", png);
  const QImage firstSound = figureImage(w.model()->validScene(), findFigureView("sound"), {});
  EXPECT_GT(test::compareImages(QImage(png), firstSound, 40).differingFraction, 0.0);
  // "spans only": the export paints the spans alone and says so (it painted the distance).
  sound->setOverlay(SoundOverlay::None);
  const QString spans = dir.filePath(QStringLiteral("spans.svg"));
  w.figures()->exportTo("sound", spans);
  const QString spansText = fileText(spans);
  EXPECT_TRUE(spansText.contains(QStringLiteral("Audio tokens' spans"))) << "the title";
  EXPECT_FALSE(spansText.contains(QStringLiteral("from text token"))) << "no map is drawn";
  const QString spansPng = dir.filePath(QStringLiteral("spans.png"));
  w.figures()->exportTo("sound", spansPng);
  FigureOptions spansOnly;
  spansOnly.segment = 3;
  spansOnly.soundOverlay = SoundOverlay::None;
  EXPECT_EQ(test::compareImages(
                QImage(spansPng),
                figureImage(w.model()->validScene(), findFigureView("sound"), spansOnly), 0)
                .differingFraction,
            0.0)
      << "the export is the spans-only figure";
}
