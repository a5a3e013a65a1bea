// GPU trouble, forced (setGpuFault / ROPESCOPE_GPU_FAULT): no context, a shader the driver
// refuses, a context lost after the first dispatch, a GL error from the driver. Each falls
// back to the CPU with the cause named, and the numbers are the CPU backend's; the CLI says so
// on one stderr line and in its summary, and `--backend gpu` exits 2 with one line.
// Runs under xvfb-run (Mesa llvmpipe), where the unforced GPU backend works.
#include <gtest/gtest.h>

#include <QGuiApplication>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "ropescope/attention.h"
#include "ropescope/scene.h"
#include "ropescope_gpu/gpu_attention.h"

namespace ropescope {
namespace {

using cli_harness::ProcessResult;
using json = nlohmann::json;

struct FaultCase {
  gpu::GpuFault fault;
  const char* env;
  const char* cause;  // words of the reason the notice must carry
  bool atStart;       // surfaces when the backend is made (else in the middle of a request)
};

const FaultCase kFaults[] = {
    {gpu::GpuFault::NoContext, "no-context", "could not create an OpenGL 4.3 core context", true},
    {gpu::GpuFault::ShaderCompile, "shader-compile", "failed to build", true},
    {gpu::GpuFault::ContextLost, "context-lost", "context was lost", false},
    {gpu::GpuFault::DriverError, "driver-error", "OpenGL error 1281", false},
};

struct FaultGuard {
  explicit FaultGuard(gpu::GpuFault f) { gpu::setGpuFault(f); }
  ~FaultGuard() { gpu::setGpuFault(gpu::GpuFault::None); }
};

AttentionProblem problem() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t5,i4x4,t3");
  s.frequency.plan = "mrope";
  s.frequency.rotary = {64, 0, 1e6};
  QkSourceSpec src;
  src.kind = QkSourceSpec::Kind::Random;
  src.heads = 2;
  src.seed = 3;
  return makeAttentionProblem(s, src, true);
}

// Two CPU backends differ in the last bit or so (the order of float sums across threads):
// max |a - b| / max(|b|, 1); masked entries (-inf) must match exactly.
double worstError(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return 1e9;
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isinf(b[i]) || std::isinf(a[i])) {
      if (a[i] != b[i]) return 1e9;
      continue;
    }
    worst = std::max(worst, std::abs(double(a[i]) - b[i]) / std::max(1.0, std::abs(double(b[i]))));
  }
  return worst;
}

class Faults : public ::testing::TestWithParam<FaultCase> {};

// The unforced GPU works here: what a fault changes is the fault's doing.
TEST(GpuFaults, WithoutAFaultTheGpuIsUsed) {
  const auto sel = gpu::selectAttentionBackend(BackendChoice::Gpu, 2);
  ASSERT_EQ(sel.backend->name(), "gpu") << sel.note;
  const AttentionProblem p = problem();
  sel.backend->load(p);
  std::vector<float> out(p.qk.tokens * p.qk.tokens);
  sel.backend->rows(1, 0, p.qk.tokens, AttentionValue::Softmax, out.data());
  EXPECT_EQ(sel.backend->name(), "gpu");
  EXPECT_TRUE(gpu::fallbackNote(*sel.backend).empty());
}

TEST_P(Faults, FallsBackToTheCpuWithTheCauseAndTheCpuNumbers) {
  const FaultCase& c = GetParam();
  FaultGuard guard(c.fault);
  const AttentionProblem p = problem();
  const std::size_t n = p.qk.tokens;
  for (BackendChoice choice : {BackendChoice::Auto, BackendChoice::Gpu}) {
    SCOPED_TRACE(choice == BackendChoice::Auto ? "auto" : "gpu");
    const auto sel = gpu::selectAttentionBackend(choice, 2);
    AttentionBackend& be = *sel.backend;
    if (c.atStart) {
      EXPECT_EQ(be.name(), "cpu");
      EXPECT_TRUE(sel.failed);
      EXPECT_NE(sel.note.find("GPU unavailable"), std::string::npos) << sel.note;
      EXPECT_NE(sel.note.find(c.cause), std::string::npos) << sel.note;
      EXPECT_NE(sel.note.find("forced by ROPESCOPE_GPU_FAULT"), std::string::npos) << sel.note;
    } else {
      EXPECT_EQ(be.name(), "gpu") << sel.note;  // made fine; fails in the first request
      EXPECT_TRUE(sel.note.empty()) << sel.note;
    }
    be.load(p);
    auto cpu = makeCpuAttentionBackend(2);
    cpu->load(p);
    for (int h = 0; h < 2; ++h)
      for (AttentionValue v : {AttentionValue::Logits, AttentionValue::Softmax}) {
        std::vector<float> got(n * n), want(n * n);
        be.rows(h, 0, n, v, got.data());
        cpu->rows(h, 0, n, v, want.data());
        EXPECT_LT(worstError(got, want), 1e-6) << "head " << h;
        std::vector<float> gp(9), cp(9);
        be.pooled(h, 9, v, gp.data());
        cpu->pooled(h, 9, v, cp.data());
        EXPECT_LT(worstError(gp, cp), 1e-6) << "head " << h;
      }
    const RowStats gs = be.rowStats(0, 0, n), cs = cpu->rowStats(0, 0, n);
    EXPECT_LT(worstError(gs.sumExp, cs.sumExp), 1e-6);
    EXPECT_EQ(be.name(), "cpu");
    EXPECT_NE(be.description().find("cpu"), std::string::npos) << be.description();
    if (!c.atStart) {
      const std::string note = gpu::fallbackNote(be);
      EXPECT_NE(note.find("GPU failed ("), std::string::npos) << note;
      EXPECT_NE(note.find(c.cause), std::string::npos) << note;
      EXPECT_NE(note.find("using the CPU"), std::string::npos) << note;
    }
  }
}

// The CLI: auto falls back with one stderr line and the reason in the JSON summary, and gives
// the --backend cpu numbers; --backend gpu exits 2 with one line naming the cause.
TEST_P(Faults, CliSaysSoAndGivesTheCpuNumbers) {
  const FaultCase& c = GetParam();
  const auto work = cli_harness::makeWorkDir(std::string("ropescope-gpufault-") + c.env);
  const std::vector<std::string> args = {
      "attention", "--layout", "t5,i4x4,t3", "--plan",  "mrope", "--head-dim", "64",        "--qk",
      "random",    "--seed",   "3",          "--heads", "2",     "--causal",   "--threads", "2"};
  auto with = [&](const char* backend) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--backend", backend});
    return a;
  };
  const ProcessResult cpu = cli_harness::runProcess(work, work, with("cpu"));
  ASSERT_EQ(cpu.status, 0) << cpu.err;
  ::setenv("ROPESCOPE_GPU_FAULT", c.env, 1);
  const ProcessResult autoRun = cli_harness::runProcess(work, work, with("auto"));
  const ProcessResult gpuRun = cli_harness::runProcess(work, work, with("gpu"));
  ::unsetenv("ROPESCOPE_GPU_FAULT");

  ASSERT_EQ(autoRun.status, 0) << autoRun.err;
  const json a = json::parse(autoRun.out), k = json::parse(cpu.out);
  EXPECT_EQ(a["backend"], "cpu");
  EXPECT_NE(a.value("backend_fallback_reason", "").find(c.cause), std::string::npos) << a.dump();
  EXPECT_NE(a.value("backend_note", "").find("using the CPU"), std::string::npos) << a.dump();
  for (const char* key : {"row_max_logit", "row_max_probability", "row_entropy"})
    for (const char* stat : {"min", "mean", "max"}) {
      const double got = a[key][stat], want = k[key][stat];
      EXPECT_NEAR(got, want, 1e-5 * std::max(1.0, std::abs(want))) << key << " " << stat;
    }
  EXPECT_EQ(autoRun.err.find('\n'), autoRun.err.size() - 1) << "not one line: " << autoRun.err;
  EXPECT_NE(autoRun.err.find(c.cause), std::string::npos) << autoRun.err;
  EXPECT_EQ(autoRun.err.rfind("ropescope: GPU ", 0), 0u) << autoRun.err;

  cli_harness::expectOneLineError(gpuRun, std::string("--backend gpu with ") + c.env,
                                  {"--backend gpu", c.cause, "--backend auto"});
}

INSTANTIATE_TEST_SUITE_P(Forced, Faults, ::testing::ValuesIn(kFaults), [](const auto& info) {
  std::string n = info.param.env;
  for (char& ch : n)
    if (ch == '-') ch = '_';
  return n;
});

}  // namespace
}  // namespace ropescope

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
