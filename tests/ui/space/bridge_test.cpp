// The QOpenGLWidget <-> VTK bridge: it draws, keeps an opaque background in grabs, survives
// reparenting (context recreation) and repeated create/destroy without GL errors, and forwards
// the mouse to VTK's camera.
#include <gtest/gtest.h>

#include <QHBoxLayout>
#include <QSignalSpy>
#include <QTest>

#include <memory>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "gui_test_util.h"
#include "image_compare.h"
#include "ropescope/scene_metrics.h"
#include "space/position_space_view.h"

using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

ropescope::SceneMetrics fixedMetrics() {
  return ropescope::computeSceneMetrics(fixedScene());
}

}  // namespace

TEST(Bridge, DrawsWithAnOpaqueBackground) {
  const auto m = fixedMetrics();
  PositionSpaceView view;
  view.resize(320, 240);
  view.showIds(m.ids, m.selectedToken, -1);
  // A flat background is where VTK leaves alpha 0 (the gradient quad happens to write 1).
  view.renderer()->GradientBackgroundOff();
  showAndSettle(&view);
  const QImage image = view.grabFramebuffer();
  ASSERT_EQ(image.size(), QSize(320, 240));
  EXPECT_FALSE(looksBlank(image)) << "foreground " << foregroundFraction(image);
  // Pitfall P2: without the alpha fix the background is transparent in grabs.
  EXPECT_EQ(qAlpha(image.pixel(2, 2)), 255);
  EXPECT_EQ(qAlpha(image.pixel(317, 237)), 255);
  EXPECT_GT(view.paintCount(), 0);
  EXPECT_EQ(view.glErrorCount(), 0);
}

TEST(Bridge, SurvivesReparentingToAnotherWindow) {
  const auto m = fixedMetrics();
  QWidget first, second;
  auto* firstLayout = new QHBoxLayout(&first);
  auto* secondLayout = new QHBoxLayout(&second);
  auto* view = new PositionSpaceView;
  view->showIds(m.ids, m.selectedToken, -1);
  firstLayout->addWidget(view);
  first.resize(340, 260);
  second.resize(340, 260);
  showAndSettle(&first);
  const QImage before = view->grabFramebuffer();
  ASSERT_FALSE(looksBlank(before));
  const int initsBefore = view->contextInitCount();

  // Pitfall P3: the move destroys the GL context; stale VTK ids would give GL errors or garbage.
  secondLayout->addWidget(view);
  showAndSettle(&second);
  const QImage after = view->grabFramebuffer();
  EXPECT_GT(view->contextInitCount(), initsBefore);
  EXPECT_FALSE(looksBlank(after));
  EXPECT_EQ(view->glErrorCount(), 0);
  if (after.size() == before.size()) {
    EXPECT_LT(compareImages(before, after).differingFraction, 0.02);
  }
}

TEST(Bridge, CreateAndDestroyRepeatedly) {
  const auto m = fixedMetrics();
  for (int round = 0; round < 4; ++round) {
    auto view = std::make_unique<PositionSpaceView>();
    view->resize(200, 150);
    view->showIds(m.ids, m.selectedToken, round);
    showAndSettle(view.get());
    const QImage image = view->grabFramebuffer();
    EXPECT_FALSE(looksBlank(image)) << "round " << round;
    EXPECT_EQ(view->glErrorCount(), 0) << "round " << round;
  }
  // A view that never got a context must also go away cleanly.
  auto hidden = std::make_unique<PositionSpaceView>();
  hidden->showIds(m.ids, m.selectedToken, -1);
  hidden.reset();
}

TEST(Bridge, MouseDragTurnsTheCamera) {
  const auto m = fixedMetrics();
  PositionSpaceView view;
  view.resize(320, 240);
  view.showIds(m.ids, m.selectedToken, -1);
  showAndSettle(&view);
  const QImage before = view.grabFramebuffer();
  double dirBefore[3];
  view.camera()->GetDirectionOfProjection(dirBefore);
  QSignalSpy interacted(&view, &VtkView::cameraInteracted);
  drag(&view, QPointF(160, 120), QPointF(230, 140));
  double dirAfter[3];
  view.camera()->GetDirectionOfProjection(dirAfter);
  const double moved = std::abs(dirAfter[0] - dirBefore[0]) + std::abs(dirAfter[1] - dirBefore[1]) +
                       std::abs(dirAfter[2] - dirBefore[2]);
  EXPECT_GT(moved, 0.05);
  EXPECT_GT(interacted.count(), 0);
  const QImage after = view.grabFramebuffer();
  EXPECT_GT(compareImages(before, after).differingFraction, 0.001);
  EXPECT_EQ(view.glErrorCount(), 0);
}

TEST(Bridge, PicksTheTokenUnderThePointer) {
  const auto m = fixedMetrics();
  PositionSpaceView view;
  view.resize(400, 300);
  view.showIds(m.ids, m.selectedToken, -1);
  showAndSettle(&view);
  int found = 0;
  for (long token = 0; token < static_cast<long>(m.ids.size()); ++token) {
    const QPointF p = view.tokenPosition(token);
    if (view.tokenAt(p.toPoint()) != token) continue;  // hidden behind a neighbour
    ++found;
    const QString text = view.describeToken(token);
    EXPECT_TRUE(text.contains(QStringLiteral("id (t, h, w)"))) << text.toStdString();
    if (m.ids.tokens[token].modality != ropescope::Modality::Text)
      EXPECT_TRUE(text.contains(QStringLiteral("row"))) << text.toStdString();
  }
  EXPECT_GT(found, 10);
  EXPECT_EQ(view.tokenAt(QPoint(-50, -50)), -1);
}
