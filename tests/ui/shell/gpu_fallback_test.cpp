// GPU trouble in the desktop app: each forced failure (no context, shader compile, context
// lost, driver error) leaves the attention view on the CPU, naming the cause in the dock and
// the status bar, with the numbers a fresh CPU computation gives.
#include <gtest/gtest.h>

#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QStatusBar>
#include <QTest>
#include <cmath>

#include "attention/attention_view.h"
#include "attention_settled.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "model/scene_model.h"
#include "ropescope_gpu/gpu_attention.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

struct FaultCase {
  gpu::GpuFault fault;
  const char* name;
  const char* cause;
};

class GpuFallback : public ::testing::TestWithParam<FaultCase> {};

TEST_P(GpuFallback, CpuTakesOverAndTheCauseIsShown) {
  const FaultCase& c = GetParam();
  gpu::setGpuFault(c.fault);
  {
    MainWindow w;
    w.model()->setScene(fixedScene());
    w.resize(1400, 1000);
    AttentionView* v = w.attentionView();
    v->setBackendChoice(BackendChoice::Auto);  // what a user has
    v->setRandomQk(2, 7);
    showAndSettle(&w);
    w.attentionDock()->show();
    ASSERT_TRUE(attentionSettled(v));
    const AttentionResult* r = v->shownResult();
    ASSERT_TRUE(r->error.isEmpty()) << r->error.toStdString();

    // The dock and the status bar say it, with the cause.
    EXPECT_TRUE(v->backendLabel().startsWith(QStringLiteral("attention: cpu")))
        << v->backendLabel().toStdString();
    const QString note = v->message();
    EXPECT_TRUE(note.contains(QLatin1String(c.cause))) << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("using the CPU"))) << note.toStdString();
    auto* label = w.statusBar()->findChild<QLabel*>(QStringLiteral("statusAttention"));
    ASSERT_NE(label, nullptr);
    EXPECT_EQ(label->text(), v->backendLabel());
    EXPECT_TRUE(w.statusBar()->currentMessage().contains(QLatin1String(c.cause)))
        << w.statusBar()->currentMessage().toStdString();
    auto* shown = w.findChild<QLabel*>(QStringLiteral("attentionMessage"));
    ASSERT_NE(shown, nullptr);
    EXPECT_TRUE(shown->isVisible());
    EXPECT_TRUE(shown->text().contains(QLatin1String(c.cause))) << shown->text().toStdString();

    // The heatmap holds what a fresh CPU computation of the same request gives.
    auto cpu = makeCpuAttentionBackend(1);
    cpu->load(makeAttentionProblem(r->request.scene, r->request.source, r->request.causal));
    ASSERT_FALSE(r->request.exactRows);
    const std::size_t nb = r->blocksPerSide;
    std::vector<float> want(nb * nb);
    cpu->pooled(r->request.head, r->request.block, r->request.value, want.data());
    ASSERT_EQ(r->pooled.size(), want.size());
    double worst = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      if (std::isinf(want[i])) {
        EXPECT_EQ(r->pooled[i], want[i]);
        continue;
      }
      worst = std::max(worst, std::abs(double(r->pooled[i]) - want[i]) /
                                  std::max(1.0, std::abs(double(want[i]))));
    }
    EXPECT_LT(worst, 1e-6);

    QDir().mkpath(QStringLiteral(ROPESCOPE_UI_OUTPUT));
    w.grab().save(QStringLiteral(ROPESCOPE_UI_OUTPUT "/gpu_fallback_") + QLatin1String(c.name) +
                  QStringLiteral(".png"));

    // It keeps working on the CPU: another head, softmax.
    v->setSoftmax(true);
    v->setHead(1);
    ASSERT_TRUE(attentionSettled(v));
    EXPECT_TRUE(v->shownResult()->error.isEmpty());
    EXPECT_TRUE(v->backendLabel().startsWith(QStringLiteral("attention: cpu")));
  }
  gpu::setGpuFault(gpu::GpuFault::None);
}

INSTANTIATE_TEST_SUITE_P(
    Forced, GpuFallback,
    ::testing::Values(FaultCase{gpu::GpuFault::NoContext, "no_context",
                                "could not create an OpenGL"},
                      FaultCase{gpu::GpuFault::ShaderCompile, "shader_compile", "failed to build"},
                      FaultCase{gpu::GpuFault::ContextLost, "context_lost", "context was lost"},
                      FaultCase{gpu::GpuFault::DriverError, "driver_error", "OpenGL error 1281"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
