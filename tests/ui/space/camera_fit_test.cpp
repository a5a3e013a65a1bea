// The 3-D view's camera after an edit moves the ids (Circle-RoPE's radius from 10 to 200, to a
// million and back): every token stays on screen, in front of the camera and within its
// clipping range, and the content fills a good part of the view. A fit from the old camera
// left the camera inside a ring 20 times larger, and the view went blank.
#include <gtest/gtest.h>

#include <vtkCamera.h>
#include <vtkMatrix4x4.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "gui_test_util.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "ropescope/position_design.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"
#include "teaching/tour.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

PositionIds circleIds(double radius) {
  Scene s = fixedScene();
  s.designParams.set("radius", radius);
  return findDesign(s.design).ids(s.layout, s.designParams);
}

// Projected extent of the tokens in normalized device coordinates; false if any token is behind
// the camera, off screen, or outside the clipping range.
bool allInView(PositionSpaceView& view, const PositionIds& ids, double& width, double& height) {
  vtkCamera* cam = view.renderer()->GetActiveCamera();
  const double aspect = double(view.width()) / view.height();
  vtkMatrix4x4* m = cam->GetCompositeProjectionTransformMatrix(aspect, -1.0, 1.0);
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const Id3& p : ids.ids) {
    const double in[4] = {p[0], p[1], p[2], 1.0};
    double q[4];
    m->MultiplyPoint(in, q);
    if (q[3] <= 0) return false;
    const double x = q[0] / q[3], y = q[1] / q[3], z = q[2] / q[3];
    if (std::abs(x) > 1 || std::abs(y) > 1 || std::abs(z) > 1) return false;
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
  width = x1 - x0;
  height = y1 - y0;
  return true;
}

// The window at a laptop's size, shown and settled, on the sample scene with its metrics in.
void showSampleAtLaptopSize(MainWindow& w) {
  w.resize(1366, 768);
  showAndSettle(&w);
  w.startWith(sampleScene());
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
}

}  // namespace

TEST(SpaceCamera, AnEditThatMovesTheIdsKeepsEveryTokenInView) {
  PositionSpaceView view;
  view.resize(470, 540);
  for (double radius : {10.0, 200.0, 1e6, 10.0, 0.5, 10.0}) {
    SCOPED_TRACE(radius);
    const PositionIds ids = circleIds(radius);
    view.showIds(ids, 2, -1);
    double w = 0, h = 0;
    EXPECT_TRUE(allInView(view, ids, w, h));
    // The content is not shrunk to a dot (a token's scene, the text line included, fills at
    // least a third of the view along one side).
    EXPECT_GT(std::max(w / 2, h / 2), 1.0 / 3.0) << w << " x " << h;
  }
}

// A user's-eye report: every Circle-RoPE alpha animation jumped after its first frame (framed
// for all frames) as each later frame was refitted to its own ids, with other axis ticks. With
// bounds fixed (an animation's box of all frames), ids that move keep the camera and the box.
TEST(SpaceCamera, FixedBoundsKeepTheCameraWhileTheIdsMove) {
  PositionSpaceView view;
  view.resize(470, 540);
  const PositionIds wide = circleIds(200.0), narrow = circleIds(10.0);
  double all[6];
  for (int a = 0; a < 3; ++a) {
    all[2 * a] = 1e300;
    all[2 * a + 1] = -1e300;
    for (const PositionIds* ids : {&wide, &narrow})
      for (const Id3& p : ids->ids) {
        all[2 * a] = std::min(all[2 * a], p[a]);
        all[2 * a + 1] = std::max(all[2 * a + 1], p[a]);
      }
  }
  view.setFixedBounds(all);
  view.showIds(narrow, 2, -1);
  view.applyPreset(CameraPreset::Default, all);
  const auto camera = [&] {
    std::array<double, 7> c{};
    vtkCamera* cam = view.renderer()->GetActiveCamera();
    cam->GetPosition(c.data());
    cam->GetFocalPoint(c.data() + 3);
    c[6] = cam->GetViewAngle();
    return c;
  };
  const auto first = camera();
  for (const PositionIds* ids : {&wide, &narrow, &wide}) {
    view.showIds(*ids, 2, -1);
    EXPECT_EQ(camera(), first);
    double b[6];
    view.contentBounds(b);
    EXPECT_TRUE(std::equal(b, b + 6, all));
    double w = 0, h = 0;
    EXPECT_TRUE(allInView(view, *ids, w, h));
  }
  // Cleared: the view fits its own ids again, as without fixed bounds.
  view.setFixedBounds(nullptr);
  view.showIds(narrow, 1, -1);
  double w = 0, h = 0;
  EXPECT_TRUE(allInView(view, narrow, w, h));
  EXPECT_GT(std::max(w / 2, h / 2), 1.0 / 3.0) << w << " x " << h;
}

// A user's-eye report: V2PE's visual stride typed as 1000000 and then 16 left the window's 3-D
// view blank (its axis numbers floating over nothing) until the camera was reset or dragged.
TEST(SpaceCamera, AStrideEditInTheWindowKeepsEveryTokenInView) {
  MainWindow w;
  w.resize(1366, 768);
  showAndSettle(&w);
  SceneModel* m = w.model();
  m->edit([](Scene& s) { s.layout = parseLayoutSpec("t4,i6x6,t8"); });
  m->chooseDesign("v2pe", false);
  ASSERT_TRUE(m->waitForMetrics(kHangGuardMs));
  for (double stride : {1000.0, 16.0, 1e6, 16.0, 1e6, 1.0}) {
    SCOPED_TRACE(stride);
    m->edit([stride](Scene& s) { s.designParams.set("visual_stride", stride); });
    ASSERT_TRUE(m->waitForMetrics(kHangGuardMs));
    QCoreApplication::processEvents();
    const PositionIds& ids = w.spaceView()->ids();
    ASSERT_EQ(ids.size(), 4u + 36 + 8);
    double wd = 0, ht = 0;
    EXPECT_TRUE(allInView(*w.spaceView(), ids, wd, ht));
  }
  w.startWith(m->scene());  // no unsaved-changes prompt
}

// The same report: the tour closed at its Circle-RoPE step left the view blank.
TEST(SpaceCamera, TheTourClosedAtItsLastStepLeavesEveryTokenInView) {
  MainWindow w;
  ASSERT_NO_FATAL_FAILURE(showSampleAtLaptopSize(w));
  w.startTour();
  for (int i = 1; i < w.tourPanel()->stepCount(); ++i) {
    w.tourPanel()->next();
    ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
    QCoreApplication::processEvents();
    w.spaceView()->grabFramebuffer();  // painted: the axes' lines are rebuilt for this step
  }
  w.tourPanel()->finish();
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  QCoreApplication::processEvents();
  const PositionIds& ids = w.spaceView()->ids();
  ASSERT_EQ(ids.size(), w.model()->metrics().ids.size());
  double wd = 0, ht = 0;
  EXPECT_TRUE(allInView(*w.spaceView(), ids, wd, ht));
  w.startWith(w.model()->scene());
}

// A user's-eye report: a scene edited during the tour is kept when the tour closes, but the
// camera of the scene before the tour came back with it: the grown scene's last tokens and axis
// names were off-screen. The kept scene is framed; an unedited tour gives the camera back.
TEST(SpaceCamera, ATourClosedAfterAnEditFramesTheEditedScene) {
  MainWindow w;
  ASSERT_NO_FATAL_FAILURE(showSampleAtLaptopSize(w));
  const auto cameraPosition = [&] {
    std::array<double, 3> p{};
    w.spaceView()->camera()->GetPosition(p.data());
    return p;
  };
  const auto before = cameraPosition();
  w.startTour();
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  w.tourPanel()->finish();  // no edit: the scene and its camera come back
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  QCoreApplication::processEvents();
  EXPECT_EQ(cameraPosition(), before);

  w.startTour();
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  w.model()->edit([](Scene& s) { s.layout.segments.push_back(Segment::text(120)); });
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  w.tourPanel()->finish();
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  QCoreApplication::processEvents();
  const PositionIds& ids = w.spaceView()->ids();
  ASSERT_EQ(ids.size(), w.model()->metrics().ids.size());
  ASSERT_GT(ids.size(), 120u);
  double wd = 0, ht = 0;
  EXPECT_TRUE(allInView(*w.spaceView(), ids, wd, ht));
  w.startWith(w.model()->scene());
}
