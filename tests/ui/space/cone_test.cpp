// The selected text token's cone in the 3-D view: a line to every visual token in a small scene;
// in a large one a bounded sample that keeps the lines that bound the cone, said in the view.
#include <gtest/gtest.h>

#include <QResizeEvent>

#include <algorithm>
#include <limits>

#include "gui_test_util.h"
#include "ropescope/position_design.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

PositionIds idsOf(const char* layout) {
  Scene s = fixedScene();
  s.layout = parseLayoutSpec(layout);
  return findDesign(s.design).ids(s.layout, s.designParams);
}

}  // namespace

TEST(SpaceCone, SmallSceneDrawsALineToEveryVisualToken) {
  PositionSpaceView view;
  view.resize(600, 400);
  const PositionIds ids = idsOf("t4,i8x8,t8");
  view.showIds(ids, 2, -1);
  std::vector<long> visual;
  for (std::size_t i : ids.visualIndices()) visual.push_back(static_cast<long>(i));
  EXPECT_EQ(view.coneEnds(), visual);
  EXPECT_FALSE(view.coneSampled());
  EXPECT_TRUE(view.coneNote().isEmpty());
  view.showIds(ids, -1, -1);
  EXPECT_TRUE(view.coneEnds().empty());
}

// A caller that knows the ids are the shown ones moves the selection without comparing them;
// a view with no tokens yet refuses, changing nothing.
TEST(SpaceCone, ASelectionOfTheShownIdsMovesOnlyTheCone) {
  PositionSpaceView view;
  view.resize(600, 400);
  EXPECT_FALSE(view.showSelection(2, -1));
  EXPECT_EQ(view.selectedToken(), -1);
  const PositionIds ids = idsOf("t4,i8x8,t8");
  view.showIds(ids, 2, -1);
  const int builds = view.geometryBuilds();
  EXPECT_TRUE(view.showSelection(75, -1));  // the last text token
  EXPECT_EQ(view.selectedToken(), 75);
  EXPECT_EQ(view.coneEnds().size(), ids.visualIndices().size());
  EXPECT_EQ(view.geometryBuilds(), builds);
  EXPECT_TRUE(view.showSelection(-1, -1));
  EXPECT_TRUE(view.coneEnds().empty());
}

TEST(SpaceCone, LargeSceneSamplesKeepingTheBoundsAndSaysSo) {
  PositionSpaceView view;
  view.resize(600, 400);
  const PositionIds ids = idsOf("t40,i100x100,t20");  // 10 000 visual tokens
  const std::vector<std::size_t> visual = ids.visualIndices();
  ASSERT_GT(visual.size(), PositionSpaceView::kMaxConeLines);
  for (long selected : {0L, 39L, 10059L}) {
    ASSERT_EQ(ids.tokens[static_cast<std::size_t>(selected)].modality, Modality::Text);
    const int builds = view.geometryBuilds();
    view.showIds(ids, selected, -1);
    if (selected != 0) EXPECT_EQ(view.geometryBuilds(), builds);  // a click moves only the cone
    const std::vector<long>& ends = view.coneEnds();
    EXPECT_TRUE(view.coneSampled());
    EXPECT_LE(ends.size(), PositionSpaceView::kMaxConeLines);
    EXPECT_GT(ends.size(), PositionSpaceView::kMaxConeLines / 2);
    for (long t : ends) EXPECT_NE(ids.tokens[static_cast<std::size_t>(t)].modality, Modality::Text);
    // The nearest and the farthest visual token from the selected one, and each axis's extremes.
    const Id3& s = ids.ids[static_cast<std::size_t>(selected)];
    auto d2 = [&](long t) {
      const Id3& p = ids.ids[static_cast<std::size_t>(t)];
      return (p[0] - s[0]) * (p[0] - s[0]) + (p[1] - s[1]) * (p[1] - s[1]) +
             (p[2] - s[2]) * (p[2] - s[2]);
    };
    double dMin = std::numeric_limits<double>::max(), dMax = -1;
    for (std::size_t v : visual) {
      dMin = std::min(dMin, d2(static_cast<long>(v)));
      dMax = std::max(dMax, d2(static_cast<long>(v)));
    }
    // Several tokens may share the least or greatest distance: one of them is enough.
    EXPECT_TRUE(std::any_of(ends.begin(), ends.end(), [&](long t) { return d2(t) == dMin; }))
        << selected;
    EXPECT_TRUE(std::any_of(ends.begin(), ends.end(), [&](long t) { return d2(t) == dMax; }))
        << selected;
    for (int a = 0; a < 3; ++a) {
      double lo = std::numeric_limits<double>::max(), hi = -lo;
      for (std::size_t v : visual)
        lo = std::min(lo, ids.ids[v][a]), hi = std::max(hi, ids.ids[v][a]);
      auto reaches = [&](double value) {
        return std::any_of(ends.begin(), ends.end(), [&](long t) {
          return ids.ids[static_cast<std::size_t>(t)][a] == value;
        });
      };
      EXPECT_TRUE(reaches(lo)) << "axis " << a;
      EXPECT_TRUE(reaches(hi)) << "axis " << a;
    }
    EXPECT_TRUE(view.coneNote().contains(QStringLiteral("of %1 visual tokens").arg(visual.size())))
        << view.coneNote().toStdString();
    EXPECT_TRUE(view.coneNote().contains(QString::number(ends.size())));
    // The lines are a cone under Circle-RoPE only: the note names them lines for every design.
    EXPECT_TRUE(view.coneNote().startsWith(QStringLiteral("lines to ")))
        << view.coneNote().toStdString();
  }
}

// A user's-eye report: in a compare quadrant the title "Circle-RoPE (cone)  PTD 7.6021" was cut
// at the view's edge (read "7.602") and the stale note lost both ends. Too wide, either is set
// smaller until it fits; where there is room it keeps its size.
TEST(SpaceTexts, ATitleOrStaleNoteTooWideIsSetSmallerToFit) {
  const QString title = QStringLiteral("Circle-RoPE (cone)  PTD 7.6021");
  // Hidden views: VTK learns their size from a resize event, as an exported figure's does.
  const auto drawn = [&title](PositionSpaceView& view, QSize size) {
    view.resize(size);
    view.showIds(idsOf("t4,i8x8,t8"), 2, -1);
    view.setTitle(title);
    view.setStale(true);
    view.grabFramebuffer();
    QResizeEvent resize(view.size(), view.size());
    QCoreApplication::sendEvent(&view, &resize);
    view.grabFramebuffer();
  };
  PositionSpaceView wide, narrow;
  drawn(wide, QSize(900, 400));
  drawn(narrow, QSize(170, 300));
  const double dpr = narrow.devicePixelRatioF();
  for (const QRectF& b : {narrow.titleBox(), narrow.staleNoteBox()}) {
    ASSERT_FALSE(b.isEmpty());
    EXPECT_GE(b.left(), 0.0);
    EXPECT_LE(b.right(), 170 * dpr) << "cut off at the right edge";
  }
  // Where there is room the texts keep their size; they would not have fitted the narrow view.
  EXPECT_GT(wide.titleBox().width(), 170 * dpr);
  EXPECT_GT(wide.staleNoteBox().width(), 170 * dpr);
  EXPECT_LT(narrow.titleBox().height(), wide.titleBox().height());
}

// The axis key hangs in the top-right corner; a title long enough to reach it pushes it below
// the title, and the axis numbers keep off both.
TEST(SpaceTexts, TheAxisKeyHangsBelowATitleThatReachesIt) {
  PositionSpaceView view;
  view.resize(500, 400);
  view.showIds(idsOf("t4,i8x8,t8"), 2, -1);
  view.setTitle(QStringLiteral("Circle  PTD 0"));
  view.grabFramebuffer();
  const QRectF shortTitle = view.titleBox(), topKey = view.axisKeyBox();
  ASSERT_FALSE(shortTitle.isEmpty());
  ASSERT_FALSE(topKey.isEmpty());
  EXPECT_FALSE(topKey.intersects(shortTitle));
  EXPECT_GT(topKey.bottom(), shortTitle.top()) << "a short title leaves the key at the top";

  view.setTitle(QStringLiteral("A design with a very long name  PTD n/a (no visual token here)"));
  view.grabFramebuffer();
  const QRectF longTitle = view.titleBox(), key = view.axisKeyBox();
  ASSERT_GT(longTitle.right(), key.left()) << "the title reaches the key's column";
  EXPECT_FALSE(key.intersects(longTitle));
  EXPECT_LE(key.bottom(), longTitle.top()) << "y is up: the key is below the title";
  EXPECT_GE(key.top(), 0.0);
}

// The note over a stale view sits in the middle, clear of a two-line title (at the top it
// covered the title at 1366 x 768), and reads as written: VTK's text actors take Latin-1, so the
// dash and the ellipsis are ASCII (UTF-8 showed the dash as "â").
TEST(SpaceTexts, TheStaleNoteIsReadableAndClearOfTheTitle) {
  PositionSpaceView view;
  view.resize(470, 330);  // a 1366 x 768 window's 3-D view, about
  view.showIds(idsOf("t4,i8x8,t8"), 2, -1);
  view.setTitle(QStringLiteral("Circle-RoPE (cone)    PTD 1.217\n(a second line)"));
  EXPECT_TRUE(view.staleNote().isEmpty());
  view.setStale(true);
  view.grabFramebuffer();
  EXPECT_EQ(view.staleNote(), QStringLiteral("input invalid -\nshowing the last valid scene"));
  ASSERT_FALSE(view.staleNoteBox().isEmpty());
  ASSERT_FALSE(view.titleBox().isEmpty());
  EXPECT_FALSE(view.staleNoteBox().intersects(view.titleBox()));
  view.setStale(true, QStringLiteral("computing\u2026 \u2212 \u03b1"));
  EXPECT_EQ(view.staleNote(), QStringLiteral("computing... - ?"));
  view.setStale(false);
  EXPECT_TRUE(view.staleNote().isEmpty());
}
