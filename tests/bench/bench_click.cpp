// Interaction speed: a click on a text token in the main
// window showing t1000,i500x500 (1000 text x 250 000 visual tokens), until every view has taken
// the new selection in and the 3-D view has drawn it. Needs a display: scripts/run-benchmarks.sh
// --click runs it under xvfb-run with software OpenGL. Target: 50 ms. The same on the
// long-context scene t1000,v1000x32x32,t1000 (1,026,000 tokens), with its frame and hover.
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
// The long-context scene: 1000 frames of 32 x 32 between two runs of 1000 text tokens
// (1,026,000 tokens).
constexpr const char* kLongLayout = "t1000,v1000x32x32,t1000";

// Runs the event loop until nothing is left to do: queued results, timers due now, paints.
void settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::AllEvents);
  }
}

// The windows, opened once each on their scene with the comparison done (seconds of set-up), and
// closed before the application goes. The long-context scene's comparison (every design's PTD
// and spread of 2e9 pairs: minutes) is cancelled instead, once its own spread is in: the clicks
// are timed without it competing for the two cores.
std::unique_ptr<ropescope::ui::MainWindow> theWindow, longWindow;

std::unique_ptr<ropescope::ui::MainWindow> openWindow(const char* layout) {
  auto win = std::make_unique<ropescope::ui::MainWindow>();
  ropescope::Scene scene = ropescope::defaultScene();
  scene.layout = ropescope::parseLayoutSpec(layout);
  win->resize(1500, 950);
  win->show();
  win->model()->setScene(scene);
  win->model()->waitForMetrics();
  if (scene.layout.tokenCount() > 1000000)
    win->model()->cancelBackground();
  else
    win->model()->flushSummaries();
  settle();
  return win;
}

ropescope::ui::MainWindow& window() {
  if (!theWindow) theWindow = openWindow(kClickLayout);
  return *theWindow;
}

ropescope::ui::MainWindow& longContextWindow() {
  if (!longWindow) {
    theWindow.reset();  // one window at a time: the memory is the long scene's
    longWindow = openWindow(kLongLayout);
  }
  return *longWindow;
}

// One iteration: a click on another text token (what PositionSpaceView::textTokenClicked
// calls), the model's new metrics and every view's reaction (react_ms), then the event loop
// until it is idle: queued work and the paints, the 3-D view's frame among them (paint_ms).
void click(benchmark::State& state, ropescope::ui::MainWindow& w) {
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
void tokenClick(benchmark::State& state) {
  click(state, window());
}
BENCHMARK(tokenClick)->Unit(benchmark::kMillisecond)->Iterations(30)->UseRealTime();

// The 3-D view's frame alone in a window (the camera turns a degree a frame, nothing else
// changes): the floor under a click's paint on llvmpipe.
void sceneFrame(benchmark::State& state, ropescope::ui::MainWindow& w) {
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
  state.counters["points_drawn"] = static_cast<double>(w.spaceView()->drawnPoints().size());
}
void clickSceneFrame(benchmark::State& state) {
  sceneFrame(state, window());
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

// A click on a text token of the long-context scene (1,026,000 tokens), as tokenClick.
void tokenClickLongContext(benchmark::State& state) {
  click(state, longContextWindow());
}
BENCHMARK(tokenClickLongContext)->Unit(benchmark::kMillisecond)->Iterations(10)->UseRealTime();

// The 3-D view's frame of the long-context scene (the decimated cloud), as clickSceneFrame.
void longContextFrame(benchmark::State& state) {
  sceneFrame(state, longContextWindow());
}
BENCHMARK(longContextFrame)->Unit(benchmark::kMillisecond)->Iterations(8)->UseRealTime();

// Hover on the long-context scene: the token under the pointer, picked against every token's
// ids (not the drawn lattice), at the screen positions of tokens spread over the whole scene
// (most of them not drawn); found counts the picks that found a token there.
void longContextHover(benchmark::State& state) {
  ropescope::ui::MainWindow& w = longContextWindow();
  ropescope::ui::PositionSpaceView* v = w.spaceView();
  const long n = static_cast<long>(v->ids().size());
  long k = 0;
  int found = 0;
  for (auto _ : state) {
    const QPointF at = v->tokenPosition((++k * 104729) % n);
    if (v->tokenAt(at.toPoint()) >= 0) ++found;
  }
  state.counters["found"] = found;
}
BENCHMARK(longContextHover)->Unit(benchmark::kMillisecond)->Iterations(20)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return ropescope::bench::runGuiBenchmarks(argc, argv, [] {
    theWindow.reset();
    longWindow.reset();
  });
}
