// The start of the GUI benchmark programs (bench_click, bench_alpha_drag): settings in a
// temporary folder (the user's own are never read or written), the 3-D view's surface format,
// a QApplication, then Google Benchmark. `beforeExit` drops what must go before the application.
#pragma once

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QSurfaceFormat>
#include <QTemporaryDir>

#include <functional>

#include "space/vtk_view.h"

namespace ropescope::bench {

inline int runGuiBenchmarks(int argc, char** argv, const std::function<void()>& beforeExit = {}) {
  QTemporaryDir config;
  qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
  qputenv("XDG_DATA_HOME", config.path().toLocal8Bit());
  QSurfaceFormat::setDefaultFormat(ropescope::ui::VtkView::surfaceFormat());
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("ropescope-bench"));
  QApplication::setApplicationName(QStringLiteral("ropescope-bench"));
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (beforeExit) beforeExit();
  return 0;
}

}  // namespace ropescope::bench
