// A grid of more visual points than the 3-D view draws at once: an overlapping lattice of them at
// the default zoom, every point once zoomed in, and a note that says which.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <vtkCamera.h>

#include "gui_test_util.h"
#include "ropescope/position_design.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// Shows the next frame of `view`: asks for one and waits until it has been painted.
void drawFrame(PositionSpaceView& view) {
  const int before = view.paintCount();
  view.update();
  ASSERT_TRUE(waitUntil([&] { return view.paintCount() > before; }));
}

}  // namespace

TEST(SpacePoints, ALargeGridIsALatticeThatStillCoversItUntilZoomedIn) {
  constexpr int kSide = 300;  // 90 000 visual tokens, past kPointBudget
  const PositionIds ids =
      findDesign("mrope").ids(parseLayoutSpec("t4,i300x300,t4"), ParameterSet{});
  const std::size_t visual = ids.visualIndices().size();
  ASSERT_GT(visual, PositionSpaceView::kPointBudget);
  PositionSpaceView view;
  view.resize(600, 400);
  view.showIds(ids, 2, -1);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.paintCount() > 0; }));
  drawFrame(view);

  const int s = view.pointStride();
  ASSERT_GT(s, 1);
  // Every s-th row and column and the grid's last ones: no other token, none of them missing.
  const int perSide = (kSide - 1) / s + 1 + ((kSide - 1) % s != 0 ? 1 : 0);
  EXPECT_EQ(view.drawnPoints().size(), static_cast<std::size_t>(perSide * perSide));
  for (long t : view.drawnPoints()) {
    const TokenInfo& info = ids.tokens[static_cast<std::size_t>(t)];
    ASSERT_TRUE(info.row % s == 0 || info.row == kSide - 1) << t;
    ASSERT_TRUE(info.col % s == 0 || info.col == kSide - 1) << t;
  }
  // Drawn neighbours overlap on the screen (9 px points), so the grid covers the same area.
  const long first = view.drawnPoints()[0], next = view.drawnPoints()[1];
  ASSERT_EQ(ids.tokens[static_cast<std::size_t>(next)].col, s);
  const QPointF a = view.tokenPosition(first), b = view.tokenPosition(next);
  const double gap = std::hypot(a.x() - b.x(), a.y() - b.y());
  EXPECT_GT(gap, 0.0);
  EXPECT_LE(gap, 0.7 * 9.0 + 1e-9);
  EXPECT_TRUE(view.coneNote().contains(QStringLiteral("points: 1 in %1 rows").arg(s)))
      << view.coneNote().toStdString();
  // Hover and clicks still find a token that is not drawn.
  const long hidden = first + 1;  // row 0, column 1
  ASSERT_EQ(std::count(view.drawnPoints().begin(), view.drawnPoints().end(), hidden), 0);
  EXPECT_GE(view.tokenAt(view.tokenPosition(hidden).toPoint()), 0);

  // Zoomed in until neighbours lie further apart than a point: every token is drawn again.
  view.camera()->Zoom(60.0);
  drawFrame(view);
  EXPECT_EQ(view.pointStride(), 1);
  EXPECT_EQ(view.drawnPoints().size(), visual);
  EXPECT_FALSE(view.coneNote().contains(QStringLiteral("points:")))
      << view.coneNote().toStdString();
}

namespace {
QStringList gWarnings;
void keepWarning(QtMsgType type, const QMessageLogContext&, const QString& text) {
  if (type == QtWarningMsg) gWarnings << text;
}
}  // namespace

// A view under 420 px wide (a compare quadrant at 1366 x 768) has no room for the counts: its
// note names the stride alone, built without a missing-argument warning from QString::arg.
TEST(SpacePoints, ANarrowViewsLatticeNoteNamesTheStrideAlone) {
  const PositionIds ids =
      findDesign("mrope").ids(parseLayoutSpec("t4,i300x300,t4"), ParameterSet{});
  PositionSpaceView view;
  view.resize(400, 400);
  gWarnings.clear();
  const QtMessageHandler previous = qInstallMessageHandler(keepWarning);
  view.showIds(ids, 2, -1);
  view.show();
  const bool painted = waitUntil([&] { return view.paintCount() > 0; });
  drawFrame(view);
  qInstallMessageHandler(previous);
  ASSERT_TRUE(painted);
  ASSERT_GT(view.pointStride(), 1);
  EXPECT_TRUE(view.coneNote().contains(
      QStringLiteral("points: 1 in %1 rows, cols\n(zoom in for all)").arg(view.pointStride())))
      << view.coneNote().toStdString();
  for (const QString& w : gWarnings)
    EXPECT_FALSE(w.contains(QStringLiteral("QString::arg"))) << w.toStdString();
}
