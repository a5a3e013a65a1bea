// The machine's floor for an exact double-precision distance: minimal loops summing
// sqrt(dx^2+dy^2+dz^2) over the PTD case's ids, per instruction set, reported in ns per distance.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <cmath>
#include <vector>

#include "bench_common.h"
#include "ptd_prototype.h"

namespace ropescope::bench {
// floor_plain.cpp
double exact3Plain(const double* x, const double* y, const double* z, std::size_t n, double p);
}  // namespace ropescope::bench

namespace rb = ropescope::bench;

namespace {

// The PTD case as plain arrays: text positions p (ids (p,p,p)) and visual ids (SoA).
struct FloorData {
  std::vector<double> p, vx, vy, vz;
  rb::PreparedVisual prepared;
};

const FloorData& floorData() {
  static const FloorData data = [] {
    FloorData d;
    const ropescope::PositionIds ids = rb::designIds("mrope", rb::kPtdLayout);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const auto& id = ids.ids[i];
      if (ids.tokens[i].modality == ropescope::Modality::Text) {
        d.p.push_back(id[0]);
      } else {
        d.vx.push_back(id[0]);
        d.vy.push_back(id[1]);
        d.vz.push_back(id[2]);
      }
    }
    d.prepared = rb::prepareVisual(ids);
    return d;
  }();
  return data;
}

double exact3Plain(const FloorData& d, double p) {
  return rb::exact3Plain(d.vx.data(), d.vy.data(), d.vz.data(), d.vx.size(), p);
}

// The same loop, vectorised: reassociated sum (omp simd); this file builds with -fno-math-errno.
#define ROPESCOPE_EXACT3_BODY                                                  \
  double acc = 0;                                                              \
  const std::size_t n = d.vx.size();                                           \
  const double *x = d.vx.data(), *y = d.vy.data(), *z = d.vz.data();           \
  _Pragma("omp simd reduction(+ : acc)") for (std::size_t i = 0; i < n; ++i) { \
    const double dx = x[i] - p, dy = y[i] - p, dz = z[i] - p;                  \
    acc += __builtin_sqrt(dx * dx + dy * dy + dz * dz);                        \
  }                                                                            \
  return acc;

double exact3Sse2(const FloorData& d, double p) {
  ROPESCOPE_EXACT3_BODY
}
__attribute__((target("avx2,fma"))) double exact3Avx2(const FloorData& d, double p) {
  ROPESCOPE_EXACT3_BODY
}

// Lambdas do not inherit target attributes: the intrinsic kernels sit in target regions.
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,fma")

// Hand-written AVX-512: 8 doubles per vector, two accumulators.
double exact3Avx512(const FloorData& d, double p) {
  const std::size_t n = d.vx.size();
  const __m512d pv = _mm512_set1_pd(p);
  __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
  auto one = [&](std::size_t i) {
    const __m512d dx = _mm512_sub_pd(_mm512_loadu_pd(&d.vx[i]), pv);
    const __m512d dy = _mm512_sub_pd(_mm512_loadu_pd(&d.vy[i]), pv);
    const __m512d dz = _mm512_sub_pd(_mm512_loadu_pd(&d.vz[i]), pv);
    return _mm512_sqrt_pd(_mm512_fmadd_pd(dx, dx, _mm512_fmadd_pd(dy, dy, _mm512_mul_pd(dz, dz))));
  };
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    acc0 = _mm512_add_pd(acc0, one(i));
    acc1 = _mm512_add_pd(acc1, one(i + 8));
  }
  double acc = _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
  for (; i < n; ++i) {
    const double dx = d.vx[i] - p, dy = d.vy[i] - p, dz = d.vz[i] - p;
    acc += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return acc;
}

// After the diagonal expansion: one FMA + one add per token before the square root.
template <rb::SqrtKind K>
double fma1Avx512(const FloorData& d, double p) {
  const rb::PreparedVisual& pv = d.prepared;
  double a = 0;
  for (double c : pv.centre) a += (p - c) * (p - c);
  const __m512d av = _mm512_set1_pd(a), bv = _mm512_set1_pd(-2.0 * (p - pv.centreMean));
  __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
  auto one = [&](std::size_t i) {
    const __m512d d2 = _mm512_fmadd_pd(bv, _mm512_loadu_pd(&pv.s[i]),
                                       _mm512_add_pd(av, _mm512_loadu_pd(&pv.r[i])));
    return K == rb::SqrtKind::Exact ? _mm512_sqrt_pd(d2) : rb::detail::sqrtRsqrt(d2);
  };
  const std::size_t n = pv.s.size();  // padded to 8
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    acc0 = _mm512_add_pd(acc0, one(i));
    acc1 = _mm512_add_pd(acc1, one(i + 8));
  }
  for (; i < n; i += 8) acc0 = _mm512_add_pd(acc0, one(i));
  return _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
}

// Square-root throughput alone (the instruction the exact floor is bound by).
double sqrtOnlyAvx512(const FloorData& d, double p) {
  const std::size_t n = d.vx.size();
  const __m512d pv = _mm512_set1_pd(p);
  __m512d acc0 = _mm512_setzero_pd(), acc1 = _mm512_setzero_pd();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    acc0 = _mm512_add_pd(acc0, _mm512_sqrt_pd(_mm512_add_pd(_mm512_loadu_pd(&d.vx[i]), pv)));
    acc1 = _mm512_add_pd(acc1, _mm512_sqrt_pd(_mm512_add_pd(_mm512_loadu_pd(&d.vx[i + 8]), pv)));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(acc0, acc1));
}
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")

// The same with 256-bit vectors (Zen 4 splits 512-bit ops in two halves anyway).
double exact3Avx2Intrin(const FloorData& d, double p) {
  const std::size_t n = d.vx.size();
  const __m256d pv = _mm256_set1_pd(p);
  __m256d acc0 = _mm256_setzero_pd(), acc1 = _mm256_setzero_pd();
  auto one = [&](std::size_t i) {
    const __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(&d.vx[i]), pv);
    const __m256d dy = _mm256_sub_pd(_mm256_loadu_pd(&d.vy[i]), pv);
    const __m256d dz = _mm256_sub_pd(_mm256_loadu_pd(&d.vz[i]), pv);
    return _mm256_sqrt_pd(_mm256_fmadd_pd(dx, dx, _mm256_fmadd_pd(dy, dy, _mm256_mul_pd(dz, dz))));
  };
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    acc0 = _mm256_add_pd(acc0, one(i));
    acc1 = _mm256_add_pd(acc1, one(i + 4));
  }
  __m256d a = _mm256_add_pd(acc0, acc1);
  double lanes[4];
  _mm256_storeu_pd(lanes, a);
  double acc = lanes[0] + lanes[1] + lanes[2] + lanes[3];
  for (; i < n; ++i) {
    const double dx = d.vx[i] - p, dy = d.vy[i] - p, dz = d.vz[i] - p;
    acc += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return acc;
}

#pragma GCC pop_options

template <double (*Fn)(const FloorData&, double)>
void BM_Floor(benchmark::State& state) {
  const FloorData& d = floorData();
  for (auto _ : state) {
    double total = 0;
    for (double p : d.p) total += Fn(d, p);
    benchmark::DoNotOptimize(total);
  }
  const double perIter = static_cast<double>(d.p.size()) * static_cast<double>(d.vx.size());
  state.SetItemsProcessed(static_cast<int64_t>(perIter * static_cast<double>(state.iterations())));
  state.counters["ns_per_distance"] =
      benchmark::Counter(perIter * static_cast<double>(state.iterations()) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_Floor<exact3Plain>)
    ->Name("floor/exact3/plain-release-flags")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<exact3Sse2>)->Name("floor/exact3/sse2-omp-simd")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<exact3Avx2>)->Name("floor/exact3/avx2-omp-simd")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<exact3Avx2Intrin>)
    ->Name("floor/exact3/avx2-intrinsics")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<exact3Avx512>)
    ->Name("floor/exact3/avx512-intrinsics")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<fma1Avx512<rb::SqrtKind::Exact>>)
    ->Name("floor/fma1/avx512-exact-sqrt")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<fma1Avx512<rb::SqrtKind::Rsqrt>>)
    ->Name("floor/fma1/avx512-rsqrt-goldschmidt")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Floor<sqrtOnlyAvx512>)->Name("floor/sqrt-only/avx512")->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
