// Interaction speed: a click on a text token in the main
// window showing t1000,i500x500 (1000 text x 250 000 visual tokens), until every view has taken
// the new selection in and the 3-D view has drawn it. Needs a display: scripts/run-benchmarks.sh
// --click runs it under xvfb-run with software OpenGL. Target: 50 ms.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>

#include <memory>

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkRenderer.h>

#include "bench_gui_main.h"
#include "model/scene_model.h"
#include "ropescope/layout.h"
#include "ropescope/scene.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"
#include "space/vtk_view.h"

namespace {

constexpr const char* kClickLayout = "t1000,i500x500";

// Runs the event loop until nothing is left to do: queued results, timers due now, paints.
void settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::AllEvents);
  }
}

// The window, opened once on the large scene with its comparison done (seconds of set-up), and
// closed before the application goes.
std::unique_ptr<ropescope::ui::MainWindow> theWindow;

ropescope::ui::MainWindow& window() {
  if (!theWindow)
    theWindow = [] {
      auto win = std::make_unique<ropescope::ui::MainWindow>();
      ropescope::Scene scene = ropescope::defaultScene();
      scene.layout = ropescope::parseLayoutSpec(kClickLayout);
      win->resize(1500, 950);
      win->show();
      win->model()->setScene(scene);
      win->model()->waitForMetrics();
      win->model()->flushSummaries();
      settle();
      return win;
    }();
  return *theWindow;
}

// One iteration: a click on another text token (what PositionSpaceView::textTokenClicked
// calls), the model's new metrics and every view's reaction (react_ms), then the event loop
// until it is idle: queued work and the paints, the 3-D view's frame among them (paint_ms).
void tokenClick(benchmark::State& state) {
  ropescope::ui::MainWindow& w = window();
  int text = 1;
  double react = 0, paint = 0;
  QElapsedTimer clock;
  static int frames = 0;
  auto count = vtkSmartPointer<vtkCallbackCommand>::New();
  count->SetCallback([](vtkObject*, unsigned long, void*, void*) { ++frames; });
  w.spaceView()->renderer()->AddObserver(vtkCommand::EndEvent, count);
  for (auto _ : state) {
    text = text % 999 + 1;
    clock.start();
    w.model()->setSelectedText(text);
    w.model()->waitForMetrics();
    react += static_cast<double>(clock.nsecsElapsed()) / 1e6;
    clock.start();
    settle();
    paint += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["react_ms"] = react / n;
  state.counters["frames"] = frames / n;
  state.counters["paint_ms"] = paint / n;
  state.counters["summaries_pending"] = w.model()->summariesPending() ? 1 : 0;
}
BENCHMARK(tokenClick)->Unit(benchmark::kMillisecond)->Iterations(30)->UseRealTime();

// The 3-D view's frame alone in the same window (the camera turns a degree a frame, nothing
// else changes): the floor under a click's paint on llvmpipe.
void clickSceneFrame(benchmark::State& state) {
  ropescope::ui::MainWindow& w = window();
  double paint = 0;
  QElapsedTimer clock;
  for (auto _ : state) {
    clock.start();
    w.spaceView()->camera()->Azimuth(1.0);
    w.spaceView()->update();
    settle();
    paint += static_cast<double>(clock.nsecsElapsed()) / 1e6;
  }
  state.counters["paint_ms"] = paint / static_cast<double>(state.iterations());
  state.counters["point_stride"] = w.spaceView()->pointStride();
}
BENCHMARK(clickSceneFrame)->Unit(benchmark::kMillisecond)->Iterations(8)->UseRealTime();

// The model alone (no window): what a click costs before any view draws it.
void modelClick(benchmark::State& state) {
  ropescope::ui::SceneModel model;
  ropescope::Scene scene = ropescope::defaultScene();
  scene.layout = ropescope::parseLayoutSpec(kClickLayout);
  model.setScene(scene);
  model.waitForMetrics();
  model.flushSummaries();
  int text = 1;
  for (auto _ : state) {
    text = text % 999 + 1;
    model.setSelectedText(text);
    model.waitForMetrics();
    benchmark::DoNotOptimize(model.metrics().selectedBias.data());
  }
  state.counters["summaries_pending"] = model.summariesPending() ? 1 : 0;
}
BENCHMARK(modelClick)->Unit(benchmark::kMillisecond)->Iterations(10)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return ropescope::bench::runGuiBenchmarks(argc, argv, [] { theWindow.reset(); });
}
