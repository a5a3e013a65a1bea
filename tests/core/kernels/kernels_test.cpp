// The run-time dispatched metric kernels (core/src/kernels): every instruction-set copy must give
// the reference's numbers, the deduplicated PTD must equal the per-token one, the AVX-512 square
// root must match std::sqrt, and no result may depend on the thread count.
#include <gtest/gtest.h>
#include <cstdio>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "../../../core/src/kernels/bias_absdev.h"
#include "../../../core/src/kernels/bias_gemm.h"
#include "../../../core/src/kernels/metric_kernels.h"
#include "ropescope/decay.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/metrics.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {

// Caps the kernels' instruction set for the lifetime of the object (empty: no cap).
class IsaCap {
 public:
  explicit IsaCap(const std::string& isa) {
    if (isa.empty())
      unsetenv("ROPESCOPE_CPU_ISA");
    else
      setenv("ROPESCOPE_CPU_ISA", isa.c_str(), 1);
  }
  ~IsaCap() { unsetenv("ROPESCOPE_CPU_ISA"); }
  IsaCap(const IsaCap&) = delete;
  IsaCap& operator=(const IsaCap&) = delete;
};

// The copies this CPU runs, each with the ROPESCOPE_CPU_ISA cap that selects it ("" = none:
// the best). A copy the CPU lacks cannot run here; the test's output names it rather than
// running the copy below twice under its name.
std::vector<std::pair<std::string, std::string>> isasOfThisCpu() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [isa, cap] : {std::pair<std::string, std::string>{"avx512", ""},
                                 {"avx2", "avx2"},
                                 {"baseline", "baseline"}}) {
    if (detail::metricKernelsFor(isa.c_str()))
      out.emplace_back(isa, cap);
    else
      std::printf("[ isa ] this CPU has no %s: that copy of the kernels is not run here\n",
                  isa.c_str());
  }
  return out;
}

double relDiff(double a, double b) {
  return std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
}

void expectPtdMatchesReference(const PositionIds& ids, const std::string& what) {
  const PtdResult fast = perTokenDistance(ids, 2), slow = perTokenDistanceReference(ids);
  ASSERT_EQ(fast.perText.size(), slow.perText.size()) << what;
  EXPECT_NEAR(fast.ptd, slow.ptd, 1e-9 * std::max(slow.ptd, 1e-3)) << what;
  for (std::size_t t = 0; t < fast.perText.size(); ++t) {
    EXPECT_LE(relDiff(fast.meanDistance[t], slow.meanDistance[t]), 1e-12) << what << " text " << t;
    EXPECT_LE(std::abs(fast.perText[t] - slow.perText[t]),
              1e-9 * std::max(slow.perText[t], 1e-6 * slow.meanDistance[t]))
        << what << " text " << t;
  }
}

}  // namespace

TEST(MetricKernels, TheBaselineCopyIsAlwaysThereAndTheCapIsHonoured) {
  ASSERT_NE(detail::metricKernelsFor("baseline"), nullptr);
  {
    IsaCap cap("baseline");
    EXPECT_STREQ(detail::metricKernels().isa, "baseline");
  }
  if (detail::metricKernelsFor("avx2")) {
    IsaCap cap("avx2");
    EXPECT_STREQ(detail::metricKernels().isa, "avx2");
  }
  EXPECT_EQ(detail::metricKernelsFor("no-such-isa"), nullptr);
}

// Heavy duplication: a square grid's mirror images, a video whose frames the plane designs
// ignore (every (h, w) appears T times), one block per image, line space; every copy.
TEST(MetricKernels, DeduplicatedPtdEqualsTheReferenceUnderEveryInstructionSet) {
  const std::pair<const char*, const char*> cases[] = {
      {"mrope", "t7,i8x8,t5"},          {"mrope", "t20,v8x6x6,t9"},
      {"spatial", "t11,v12x5x5,t4"},    {"hard", "t6,i6x6,t6,i3x5,t2"},
      {"circle", "t9,i7x7,t3,i4x4,t2"}, {"videorope", "t5,v4x6x6,t3"},
      {"unordered", "t3,i4x4,t2"},      {"mrope-reset", "t4,i5x5,t2,i5x5,t3"},
      {"hope", "t3,v3x4x4,t8"},         {"v2pe", "t8,i9x9,t1"}};
  for (const auto& [isa, capName] : isasOfThisCpu()) {
    IsaCap cap(capName);
    ASSERT_EQ(detail::metricKernels().isa, isa);
    for (const auto& [design, spec] : cases)
      expectPtdMatchesReference(findDesign(design).ids(parseLayoutSpec(spec), {}),
                                std::string(design) + " " + spec + " isa=" + isa);
  }
}

// Each vector copy this CPU runs against the scalar baseline (never a copy against itself); the
// copies compared are named in the output and as the test's property "isas_compared".
TEST(MetricKernels, EveryInstructionSetGivesTheSamePtdToRounding) {
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t40,v4x12x12,t40"), {});
  PtdResult baseline;
  {
    IsaCap cap("baseline");
    ASSERT_STREQ(detail::metricKernels().isa, "baseline");
    baseline = perTokenDistance(ids, 1);
  }
  __builtin_cpu_init();
  // The dispatch must offer the copies the CPU has: a CPU with AVX2 and FMA gets the AVX2 copy.
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    ASSERT_NE(detail::metricKernelsFor("avx2"), nullptr);
  std::string compared;
  for (const char* isa : {"avx512", "avx2"}) {
    if (!detail::metricKernelsFor(isa)) {
      std::printf(
          "EveryInstructionSetGivesTheSamePtdToRounding: %s copy not run (not on this CPU)\n", isa);
      continue;
    }
    IsaCap cap(isa);
    ASSERT_STREQ(detail::metricKernels().isa, isa);
    const PtdResult other = perTokenDistance(ids, 1);
    ASSERT_EQ(other.meanDistance.size(), baseline.meanDistance.size());
    for (std::size_t t = 0; t < baseline.perText.size(); ++t)
      EXPECT_LE(relDiff(baseline.meanDistance[t], other.meanDistance[t]), 1e-14) << isa << " " << t;
    compared += compared.empty() ? isa : std::string(",") + isa;
  }
  std::printf("EveryInstructionSetGivesTheSamePtdToRounding: compared against baseline: %s\n",
              compared.empty() ? "none (no vector copy on this CPU)" : compared.c_str());
  RecordProperty("isas_compared", compared.empty() ? "none" : compared);
}

TEST(MetricKernels, AllDistancesEqualGiveZeroDeviation) {
  // Many copies of one distance, weighted: the shifted sum keeps the mean exact.
  for (const char* isa : {"avx512", "avx2", "baseline"}) {
    const detail::MetricKernels* k = detail::metricKernelsFor(isa);
    if (!k) continue;
    const std::size_t n = 37;
    std::vector<double> a(n, -6.0), b(n, 12.0), w(n, 3.0), out(n);
    const double q = 1234.5, c = 3 * q * q;
    const double d = std::sqrt(std::fma(-6.0, q, 12.0) + c);
    const double s = k->distanceSum(a.data(), b.data(), w.data(), n, q, c, d, out.data());
    EXPECT_LE(std::abs(s), 1e-12 * d) << isa;
    for (double x : out) EXPECT_LE(relDiff(x, d), 2.3e-16) << isa;
    EXPECT_EQ(k->weightedAbsDeviation(out.data(), w.data(), n, out[0]), 0.0) << isa;
  }
}

TEST(MetricKernels, DistanceSumMatchesScalarCodeForOddLengths) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coef(-50.0, 50.0);
  for (const char* isa : {"avx512", "avx2", "baseline"}) {
    const detail::MetricKernels* k = detail::metricKernelsFor(isa);
    if (!k) continue;
    for (std::size_t n : {1u, 7u, 8u, 9u, 15u, 16u, 17u, 33u, 100u}) {
      std::vector<double> a(n), b(n), w(n), out(n + 1, -1.0), u(n);
      for (std::size_t i = 0; i < n; ++i) {
        a[i] = coef(rng);
        b[i] = std::abs(coef(rng)) * 40.0;
        w[i] = 1.0 + static_cast<double>(i % 4);
        u[i] = coef(rng);
      }
      const double q = coef(rng), c = 3.0 * q * q, shift = 10.0;
      double expect = 0.0;
      const double sum = k->distanceSum(a.data(), b.data(), w.data(), n, q, c, shift, out.data());
      for (std::size_t i = 0; i < n; ++i) {
        const double d = std::sqrt(std::max(std::fma(a[i], q, b[i]) + c, 0.0));
        EXPECT_LE(relDiff(out[i], d), 4.5e-16) << isa << " n=" << n << " i=" << i;
        expect += w[i] * (d - shift);
      }
      EXPECT_NEAR(sum, expect, 1e-12 * (std::abs(expect) + 1.0)) << isa << " n=" << n;
      EXPECT_EQ(out[n], -1.0) << isa << ": wrote past the end";
      const double line = k->lineDistanceSum(u.data(), w.data(), n, q, 0.0, out.data());
      double lineExpect = 0.0;
      for (std::size_t i = 0; i < n; ++i) lineExpect += w[i] * std::abs(q - u[i]);
      EXPECT_NEAR(line, lineExpect, 1e-12 * lineExpect) << isa;
    }
  }
}

TEST(MetricKernels, Avx512SquareRootMatchesStdSqrt) {
  std::vector<double> x;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-1074, 1023);
  for (int i = 0; i < 200000; ++i) x.push_back(std::ldexp(mant(rng), expo(rng)));
  std::uniform_real_distribution<double> plain(0.0, 1e8);
  for (int i = 0; i < 200000; ++i) x.push_back(plain(rng));
  const double specials[] = {0.0,
                             -0.0,
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::min(),
                             0x1p-1000,
                             0x1.fffffffffffffp-1001,
                             0x1p1000,
                             0x1.0000000000001p1000,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::infinity(),
                             1.0,
                             4.0,
                             2.0,
                             1e-300,
                             1e300};
  x.insert(x.end(), std::begin(specials), std::end(specials));
  x.push_back(7.0);  // leaves a partial vector at the end
  std::vector<double> got(x.size());
  if (!detail::metricKernelsFor("avx512")) {
    // This CPU cannot run the AVX-512 root: what can be checked is that it is refused (run, it
    // would die of an illegal instruction) and that nothing was written.
    std::fill(got.begin(), got.end(), -1.0);
    EXPECT_FALSE(detail::rsqrtSqrtAvx512(x.data(), x.size(), got.data()));
    EXPECT_TRUE(std::all_of(got.begin(), got.end(), [](double v) { return v == -1.0; }));
    std::printf(
        "Avx512SquareRootMatchesStdSqrt: AVX-512 copy not run (not on this CPU); "
        "checked that it is refused\n");
    RecordProperty("avx512_run", 0);
    return;
  }
  RecordProperty("avx512_run", 1);
  ASSERT_TRUE(detail::rsqrtSqrtAvx512(x.data(), x.size(), got.data()));
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = std::sqrt(x[i]);
    if (e == 0.0 || std::isinf(e)) {
      EXPECT_EQ(got[i], e) << x[i];
      continue;
    }
    worst = std::max(worst, relDiff(got[i], e));
  }
  // Within about an ulp of the correctly rounded root (1 ulp <= 2.2e-16 relative).
  EXPECT_LE(worst, 3.4e-16);
  const double bad[] = {-1.0, -1e-300, std::numeric_limits<double>::quiet_NaN()};
  double badOut[3];
  ASSERT_TRUE(detail::rsqrtSqrtAvx512(bad, 3, badOut));
  for (double v : badOut) EXPECT_TRUE(std::isnan(v));
}

TEST(MetricKernels, BiasGemmCopiesAgree) {
  const std::ptrdiff_t rows = 37, inner = 10, cols = 19;
  std::vector<double> a(rows * inner), x(inner * cols);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double& v : a) v = u(rng);
  for (double& v : x) v = u(rng);
  std::vector<double> expect(rows * cols, 0.0);
  for (std::ptrdiff_t j = 0; j < cols; ++j)
    for (std::ptrdiff_t k = 0; k < inner; ++k)
      for (std::ptrdiff_t i = 0; i < rows; ++i)
        expect[j * rows + i] += a[k * rows + i] * x[j * inner + k];
  // Each copy this build has and this CPU can run; the ones it cannot run are named (a copy is
  // only ever called on a CPU that has its instructions, see biasGemm).
  std::vector<detail::BiasGemmFn> fns = {detail::biasGemmBaseline()};
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (auto f = detail::biasGemmAvx2()) {
    if (fma && __builtin_cpu_supports("avx2"))
      fns.push_back(f);
    else
      std::printf("BiasGemmCopiesAgree: AVX2 copy not run (this CPU lacks AVX2/FMA)\n");
  }
  if (auto f = detail::biasGemmAvx512()) {
    if (fma && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
      fns.push_back(f);
    else
      std::printf("BiasGemmCopiesAgree: AVX-512 copy not run (this CPU lacks AVX-512)\n");
  }
  RecordProperty("copies_compared", int(fns.size()));
  for (detail::BiasGemmFn f : fns) {
    std::vector<double> out(rows * cols, 0.0);
    f(a.data(), x.data(), rows, inner, cols, out.data());
    for (std::size_t i = 0; i < out.size(); ++i) EXPECT_NEAR(out[i], expect[i], 1e-13);
  }
  const char* isa = nullptr;
  {
    IsaCap cap("baseline");
    detail::biasGemm(&isa);
    EXPECT_STREQ(isa, "baseline");
  }
}

TEST(MetricKernels, BiasSpreadMatchesTheReferenceUnderEveryInstructionSet) {
  const PairTable pairs = resolvePairs(FrequencySpec{"mrope", {32, 0, 1e4}});
  // circle: fractional ids, the GEMM path (several chunks); mrope: integer tables, with gathers
  // (short rows) or runs of contiguous lookups (long rows).
  const std::pair<const char*, const char*> cases[] = {
      {"circle", "t300,i6x7,t20"},
      {"mrope", "t150,i6x7,t170"},
      {"mrope", "t30,v3x5x4,t2,i2x2,t9"},
      {"mrope", "t40,i5x16,t30,v2x3x24,t5"}};  // long rows: contiguous lookups
  for (const auto& [isa, capName] : isasOfThisCpu()) {
    IsaCap cap(capName);
    for (const auto& [design, spec] : cases) {
      const PositionIds ids = findDesign(design).ids(parseLayoutSpec(spec), {});
      const BiasResult fast = biasSpread(ids, pairs, 2), slow = biasSpreadReference(ids, pairs);
      ASSERT_EQ(fast.perText.size(), slow.perText.size());
      EXPECT_NEAR(fast.spread, slow.spread, 1e-9 * std::max(std::abs(slow.spread), 1e-6))
          << design << " " << isa;
      for (std::size_t t = 0; t < fast.perText.size(); ++t) {
        EXPECT_NEAR(fast.meanBias[t], slow.meanBias[t], 1e-12) << design << " " << isa << " " << t;
        EXPECT_NEAR(fast.perText[t], slow.perText[t], 1e-11) << design << " " << isa << " " << t;
      }
    }
  }
}

// Over 65536 distinct fractional values (summed over axes) the per-axis GEMM chunk narrows below
// 128 text tokens to bound each thread's tables (the cone of a 500x500 picture took 768 MB per
// thread). Circle ids give every visual token its own values, so this case now takes the fused
// product over all pairs (64 text tokens a call, narrowed only past 131072 visual tokens); the
// per-axis narrowing remains for scenes whose fused table would exceed the same budget. Either
// way the numbers are the reference's, for any thread count.
TEST(MetricKernels, BiasSpreadWithNarrowedChunksMatchesTheReference) {
  const PairTable pairs = resolvePairs(FrequencySpec{"mrope", {32, 0, 1e4}});
  const PositionIds ids = findDesign("circle").ids(parseLayoutSpec("t150,i160x160"), {});
  std::size_t distinct = 0;  // what sizes the tables: distinct visual values per axis
  for (int a = 0; a < 3; ++a) {
    std::vector<double> v;
    for (std::size_t i : ids.visualIndices()) v.push_back(ids.ids[i][a]);
    std::sort(v.begin(), v.end());
    distinct += std::size_t(std::unique(v.begin(), v.end()) - v.begin());
  }
  ASSERT_GT(distinct, 65536u) << "the case must narrow the chunk";
  const BiasResult slow = biasSpreadReference(ids, pairs), one = biasSpread(ids, pairs, 1);
  ASSERT_EQ(one.perText.size(), slow.perText.size());
  EXPECT_NEAR(one.spread, slow.spread, 1e-9 * std::max(std::abs(slow.spread), 1e-6));
  for (std::size_t t = 0; t < one.perText.size(); ++t) {
    EXPECT_NEAR(one.meanBias[t], slow.meanBias[t], 1e-12) << t;
    EXPECT_NEAR(one.perText[t], slow.perText[t], 1e-11) << t;
  }
  const BiasResult three = biasSpread(ids, pairs, 3);
  EXPECT_EQ(three.perText, one.perText);
  EXPECT_EQ(three.meanBias, one.meanBias);
}

TEST(MetricKernels, DecayCurveAgreesWithTheBoundUnderEveryInstructionSet) {
  const PairTable pairs = resolvePairs(FrequencySpec{"vanilla", {128, 0, 1e4}});
  const int maxDistance = 20003;  // not a multiple of the 8 lanes
  const std::vector<double> ref = decayCurveReference(pairs, {1, 0, 0}, maxDistance);
  for (const auto& [isa, capName] : isasOfThisCpu()) {
    IsaCap cap(capName);
    const std::vector<double> u = decayCurve(pairs, {1, 0, 0}, maxDistance);
    ASSERT_EQ(u.size(), ref.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < u.size(); ++i) worst = std::max(worst, relDiff(u[i], ref[i]));
    EXPECT_LE(worst, 1e-9) << isa;
  }
}

TEST(MetricKernels, ResultsDoNotDependOnTheThreadCount) {
  const PairTable pairs = resolvePairs(FrequencySpec{"mrope", {32, 0, 1e4}});
  for (const char* design : {"mrope", "circle"}) {
    const PositionIds ids = findDesign(design).ids(parseLayoutSpec("t301,v3x9x11,t203"), {});
    const PtdResult p1 = perTokenDistance(ids, 1);
    const BiasResult b1 = biasSpread(ids, pairs, 1);
    for (int threads : {2, 3, 7}) {
      const PtdResult p = perTokenDistance(ids, threads);
      EXPECT_EQ(p.ptd, p1.ptd) << design << " " << threads;
      EXPECT_EQ(p.perText, p1.perText) << design << " " << threads;
      EXPECT_EQ(p.meanDistance, p1.meanDistance) << design << " " << threads;
      const BiasResult b = biasSpread(ids, pairs, threads);
      EXPECT_EQ(b.spread, b1.spread) << design << " " << threads;
      EXPECT_EQ(b.perText, b1.perText) << design << " " << threads;
      EXPECT_EQ(b.meanBias, b1.meanBias) << design << " " << threads;
    }
  }
  const std::vector<double> d1 = decayCurve(pairs, {0, 1, 0}, 5000, DecayForm::Full, 1);
  for (int threads : {2, 5})
    EXPECT_EQ(decayCurve(pairs, {0, 1, 0}, 5000, DecayForm::Full, threads), d1) << threads;
}

TEST(MetricKernels, RunSumEqualsGatherSumBitForBit) {
  // Two runs along the last axis (rows of a 2 x 12 grid) and a lone token.
  const std::vector<double> l0 = {0.25, -1.5}, l1 = {3.0, 0.125, -0.75};
  std::vector<double> l2(20);
  for (std::size_t i = 0; i < l2.size(); ++i) l2[i] = std::sin(0.7 * static_cast<double>(i));
  std::vector<std::uint32_t> i0, i1, i2, start = {0};
  for (std::uint32_t r = 0; r < 2; ++r) {
    for (std::uint32_t c = 0; c < 12; ++c) {
      i0.push_back(1);
      i1.push_back(r);
      i2.push_back(c + 3 * r);
    }
    start.push_back(static_cast<std::uint32_t>(i0.size()));
  }
  i0.push_back(0);
  i1.push_back(2);
  i2.push_back(19);
  start.push_back(static_cast<std::uint32_t>(i0.size()));
  // The last `axes` of (l0, l1, l2): the run axis is always the last one.
  const double* luts[3] = {l0.data(), l1.data(), l2.data()};
  const std::uint32_t* idxs[3] = {i0.data(), i1.data(), i2.data()};
  for (const char* isa : {"avx512", "avx2", "baseline"}) {
    const detail::MetricKernels* k = detail::metricKernelsFor(isa);
    if (!k) continue;
    for (int axes : {1, 2, 3}) {
      const double* const* lp = luts + (3 - axes);
      const std::uint32_t* const* ip = idxs + (3 - axes);
      std::vector<double> g(i0.size()), r(i0.size());
      const double sg = k->gatherSum(lp, ip, axes, 0.0625, g.size(), g.data());
      const double sr = k->runSum(lp, ip, axes, 0.0625, start.data(), start.size() - 1, r.data());
      EXPECT_EQ(g, r) << isa << " axes=" << axes;
      EXPECT_NEAR(sg, sr, 1e-13) << isa << " axes=" << axes;
    }
  }
}

TEST(MetricKernels, BiasProfileEqualsPositionalBiasBitForBit) {
  // biasToVisual takes each pair's cosine once per distinct coordinate; the numbers must not move.
  for (const FrequencySpec& spec :
       {FrequencySpec{"mrope", {64, 0, 1e4}}, FrequencySpec{"vanilla", {64, 32, 1e4}},
        FrequencySpec{"interleaved", {64, 0, 1e6}}}) {
    const PairTable pairs = resolvePairs(spec);
    for (const char* design : {"mrope", "circle", "v2pe"}) {
      const PositionIds ids = findDesign(design).ids(parseLayoutSpec("t5,i6x7,t3,v2x3x4,t2"), {});
      for (std::size_t t = 0; t < ids.size(); t += 4) {
        const std::vector<double> b = biasToVisual(ids, pairs, t);
        const std::vector<std::size_t> vis = ids.visualIndices();
        ASSERT_EQ(b.size(), vis.size());
        for (std::size_t i = 0; i < vis.size(); ++i)
          EXPECT_EQ(b[i], positionalBias(pairs, displacement(ids, t, vis[i])))
              << spec.plan << " " << design << " " << t << " " << i;
      }
    }
  }
}

// The fused AVX-512 product + deviation sum against the plain product, on a shape that is no
// multiple of the 24 x 8 register block (the masked last panel, the unused columns).
TEST(MetricKernels, FusedBiasDeviationKernelMatchesThePlainProduct) {
  const detail::BiasAbsDevFn absDev = detail::biasAbsDev();
  if (!absDev) {
    __builtin_cpu_init();
    ASSERT_FALSE(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
        << "the kernel must be offered on an AVX-512 CPU";
    std::printf("FusedBiasDeviationKernelMatchesThePlainProduct: no AVX-512 here\n");
    return;
  }
  const std::ptrdiff_t visual = 61, inner = 22, cols = 13;
  const std::ptrdiff_t padded =
      (cols + detail::kBiasPanelCols - 1) / detail::kBiasPanelCols * detail::kBiasPanelCols;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> a(visual * inner), x(inner * padded), shift(cols);
  for (double& v : a) v = u(rng);
  for (double& v : x) v = u(rng);
  for (double& v : shift) v = 0.3 * u(rng);
  std::vector<double> expect(cols, 0.0);
  for (std::ptrdiff_t j = 0; j < cols; ++j)
    for (std::ptrdiff_t i = 0; i < visual; ++i) {
      double b = 0.0;
      for (std::ptrdiff_t k = 0; k < inner; ++k) b += a[k * visual + i] * x[j * inner + k];
      expect[j] += std::abs(b - shift[j]);
    }
  const std::vector<double> panels = detail::packBiasPanels(a.data(), visual, inner);
  std::vector<double> out(cols, -1.0);
  absDev(panels.data(), visual, inner, x.data(), cols, shift.data(), out.data());
  for (std::ptrdiff_t j = 0; j < cols; ++j) EXPECT_NEAR(out[j], expect[j], 1e-12) << j;
  IsaCap cap("avx2");
  EXPECT_EQ(detail::biasAbsDev(), nullptr) << "ROPESCOPE_CPU_ISA=avx2 must turn the kernel off";
}
