// Interaction speed: dragging Circle-RoPE's α on the 4096-token scene
// t1024,i32x64,t1024 (2048 text, 2048 visual tokens), each step until the 3-D view has drawn the
// new ids. Needs a display: scripts/run-benchmarks.sh --click runs it under xvfb-run with software
// OpenGL (llvmpipe). Target: 30 frames per second in the 3-D view; on the long-context scene
// (1,026,000 tokens, longContextWindow) 20 frames per second while its ids follow.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QWindow>

#include <memory>

#include <vtkActor.h>
#include <vtkActorCollection.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include "bench_gui_main.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"
#include "space/scene_space_view.h"
#include "space/vtk_view.h"

namespace {

constexpr const char* kDragLayout = "t1024,i32x64,t1024";

// Runs the event loop until nothing is left to do: queued results, timers due now, paints.
void settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::AllEvents);
  }
}

// Shows a view and runs the event loop until its window is on the screen: before that a paint
// request draws nothing.
void showExposed(QWidget& w) {
  w.show();
  while (!w.windowHandle() || !w.windowHandle()->isExposed()) QCoreApplication::processEvents();
  settle();
}

// Counts the frames a view's renderer draws, so that a step that drew none is not timed as one.
struct FrameCounter {
  int frames = 0;
  explicit FrameCounter(vtkRenderer* renderer) {
    auto count = vtkSmartPointer<vtkCallbackCommand>::New();
    count->SetClientData(this);
    count->SetCallback([](vtkObject*, unsigned long, void* self, void*) {
      ++static_cast<FrameCounter*>(self)->frames;
    });
    renderer->AddObserver(vtkCommand::EndEvent, count);
  }
};

ropescope::Scene circleScene() {
  ropescope::Scene scene = ropescope::defaultScene();
  scene.layout = ropescope::parseLayoutSpec(kDragLayout);
  ropescope::pickDesign(scene, "circle");
  return scene;
}

// One drag step: α moves by a slider notch (0.01, back and forth over 0..1), the model computes
// the new ids and every result but the bias spread (model_ms; the spread follows from a worker
// thread, on the same two cores), the event loop runs until idle, the 3-D view's frame among its
// paints (paint_ms); fps is steps per second of the two together, spreads how many bias spreads
// came in during the drag.
template <typename Setup>
void drag(benchmark::State& state, ropescope::ui::SceneModel& model,
          ropescope::ui::PositionSpaceView& view, Setup&& shown) {
  shown();
  FrameCounter counter(view.renderer());
  int spreads = 0;  // bias spreads that came in from the background during the drag
  QObject::connect(&model, &ropescope::ui::SceneModel::biasChanged, [&] { ++spreads; });
  int step = 0;
  double modelMs = 0, paintMs = 0;
  QElapsedTimer clock;
  for (auto _ : state) {
    ++step;
    const double alpha = static_cast<double>(std::abs(step % 200 - 100)) / 100.0;
    clock.start();
    model.edit([&](ropescope::Scene& s) { s.designParams.set("alpha", alpha); });
    // The ids the 3-D view draws: at once, or (a scene past the background size) from the
    // worker. The bias spread is not waited for: it comes in when it is done (spreads).
    if (model.computing()) model.waitForMetrics();
    modelMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
    clock.start();
    settle();
    paintMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["model_ms"] = modelMs / n;
  state.counters["paint_ms"] = paintMs / n;
  state.counters["fps"] = 1000.0 * n / (modelMs + paintMs);
  state.counters["view_fps"] = 1000.0 * n / paintMs;  // if the ids came for free
  state.counters["frames"] = counter.frames;
  state.counters["spreads"] = spreads;
  if (counter.frames < state.iterations()) state.SkipWithError("a step drew no frame");
  // The last step's spread comes in after the drag: the numbers end up complete.
  if (!model.waitForMetrics() || model.biasPending()) state.SkipWithError("no bias spread came");
}

// The main 3-D view alone (SceneSpaceView over the model), as the window sizes it.
void spaceView(benchmark::State& state) {
  ropescope::ui::SceneModel model;
  model.setScene(circleScene());
  model.waitForMetrics();
  ropescope::ui::SceneSpaceView view(&model);
  view.resize(1100, 800);
  drag(state, model, view, [&] { showExposed(view); });
}
BENCHMARK(spaceView)->Unit(benchmark::kMillisecond)->Iterations(60)->UseRealTime();

// The 3-D view's frame alone on the same scene (the camera turns a degree a frame, no new ids):
// what llvmpipe sustains while the model is not in the way. Where a frame's time goes: argument
// 0 the view as the window shows it, 1 at a quarter of the area, 2 with points as flat squares
// instead of shaded spheres, 3 without the gradient background.
void spaceViewFrame(benchmark::State& state) {
  ropescope::ui::SceneModel model;
  model.setScene(circleScene());
  model.waitForMetrics();
  ropescope::ui::SceneSpaceView view(&model);
  const int variant = static_cast<int>(state.range(0));
  view.resize(variant == 1 ? 550 : 1100, variant == 1 ? 400 : 800);
  vtkActorCollection* actors = view.renderer()->GetActors();
  actors->InitTraversal();
  while (vtkActor* a = actors->GetNextActor())
    if (variant == 2) a->GetProperty()->SetRenderPointsAsSpheres(false);
  if (variant == 3) view.renderer()->GradientBackgroundOff();
  showExposed(view);
  FrameCounter counter(view.renderer());
  double paintMs = 0;
  QElapsedTimer clock;
  for (auto _ : state) {
    clock.start();
    view.camera()->Azimuth(1.0);
    view.update();
    settle();
    paintMs += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  }
  state.counters["paint_ms"] = paintMs / static_cast<double>(state.iterations());
  state.counters["fps"] = 1000.0 * static_cast<double>(state.iterations()) / paintMs;
  state.counters["frames"] = counter.frames;
  if (counter.frames < state.iterations()) state.SkipWithError("a step drew no frame");
}
BENCHMARK(spaceViewFrame)
    ->DenseRange(0, 3)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(40)
    ->UseRealTime();

// The whole window: every view takes the new α in (the charts too, when shown).
void mainWindow(benchmark::State& state) {
  ropescope::ui::MainWindow win;
  win.resize(1500, 950);
  win.model()->setScene(circleScene());
  win.model()->waitForMetrics();
  win.model()->flushSummaries();
  drag(state, *win.model(), *win.spaceView(), [&] { showExposed(win); });
}
BENCHMARK(mainWindow)->Unit(benchmark::kMillisecond)->Iterations(30)->UseRealTime();

// Dragging α on the long-context scene t1000,v1000x32x32,t1000 (1,026,000 tokens) under
// Circle-RoPE, in the whole window. Its ids take about a second on the worker: each step sends
// the new α (the worker stops the stale computation and starts the newest) and the window draws a
// frame (the camera turns a degree, as the view stays live under a drag); fps is the frames per
// second the window keeps, ids_updates how many new ids came in during the drag, and once the
// drag ends the last α's ids come in (settled_ms).
void longContextWindow(benchmark::State& state) {
  ropescope::ui::MainWindow win;
  win.resize(1500, 950);
  ropescope::Scene scene = circleScene();
  scene.layout = ropescope::parseLayoutSpec("t1000,v1000x32x32,t1000");
  ropescope::ui::SceneModel& model = *win.model();
  model.setScene(scene);
  while (model.computing()) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  showExposed(win);
  ropescope::ui::PositionSpaceView& view = *win.spaceView();
  FrameCounter counter(view.renderer());
  int updates = 0;
  QObject::connect(&model, &ropescope::ui::SceneModel::changed, [&](ropescope::SceneChanges parts) {
    if (parts.touches(ropescope::kIdsParts)) ++updates;
  });
  int step = 0;
  double ms = 0;
  QElapsedTimer clock;
  for (auto _ : state) {
    ++step;
    const double alpha = static_cast<double>(std::abs(step % 200 - 100)) / 100.0;
    clock.start();
    model.edit([&](ropescope::Scene& s) { s.designParams.set("alpha", alpha); });
    view.camera()->Azimuth(1.0);
    view.update();
    settle();
    ms += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  }
  clock.start();
  while (model.computing()) QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
  settle();
  const double n = static_cast<double>(state.iterations());
  state.counters["step_ms"] = ms / n;
  state.counters["fps"] = 1000.0 * n / ms;
  state.counters["frames"] = counter.frames;
  state.counters["ids_updates"] = updates;
  state.counters["settled_ms"] = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  model.cancelBackground();  // the spread and the comparison of the last α are not timed
  if (counter.frames < state.iterations()) state.SkipWithError("a step drew no frame");
}
BENCHMARK(longContextWindow)->Unit(benchmark::kMillisecond)->Iterations(60)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return ropescope::bench::runGuiBenchmarks(argc, argv);
}
