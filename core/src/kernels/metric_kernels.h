// The inner loops of PTD, the decay curve and the bias spread, one copy per instruction set
// (AVX-512, AVX2+FMA, the x86-64 baseline) chosen at run time, so one binary runs on any x86-64
// CPU and still uses the widest vectors it has. Only raw pointers cross this boundary.
//
// ROPESCOPE_CPU_ISA=avx2|baseline caps the choice (as for the attention kernels), so tests can
// run the lower copies on a machine that has AVX-512.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ropescope::detail {

struct MetricKernels {
  const char* isa;
  // out[i] = sqrt(max(a[i] q + b[i] + c, 0)); returns sum_i w[i] (out[i] - shift). A shift near
  // the distances keeps the sum's rounding error at the size of their spread rather than of
  // their size: when all distances are nearly equal (circle PTD), the mean absolute deviation is
  // itself of the order of that error. The AVX-512 copy takes
  // the square root from rsqrt14 and two Goldschmidt steps (relative error ~2e-16), falling back
  // to the exact root for zero, subnormal, huge, infinite or NaN arguments.
  double (*distanceSum)(const double* a, const double* b, const double* w, std::size_t n, double q,
                        double c, double shift, double* out);
  // out[i] = |q - u[i]|; returns sum_i w[i] (out[i] - shift).
  double (*lineDistanceSum)(const double* u, const double* w, std::size_t n, double q, double shift,
                            double* out);
  // sum_i w[i] |d[i] - mean|.
  double (*weightedAbsDeviation)(const double* d, const double* w, std::size_t n, double mean);
  // out[i] = base + sum_k lut[k][idx[k][i]] over k < axes (axes <= 3); returns sum_i out[i].
  double (*gatherSum)(const double* const* lut, const std::uint32_t* const* idx, int axes,
                      double base, std::size_t n, double* out);
  // gatherSum where the visual tokens come in runs [start[r], start[r+1]) along which every
  // axis's index is constant except the last one's, which counts up by one (the rows of an image
  // grid): contiguous loads instead of gathers, the same sums in the same order.
  double (*runSum)(const double* const* lut, const std::uint32_t* const* idx, int axes, double base,
                   const std::uint32_t* start, std::size_t runs, double* out);
  // sum_i |d[i] - mean|.
  double (*absDeviation)(const double* d, std::size_t n, double mean);
  // out[i] = (sum over k < pairs, in that order, of cos(theta[k] (own - v[i]))) / divisor, each
  // cosine through glibc's vector cosines (libmvec, within 4 ulp) where the CPU has them,
  // std::cos elsewhere. Each element goes through the same lane function wherever it falls in
  // the call (the tail is padded, not computed apart), so splitting an array among threads never
  // changes a bit.
  void (*cosineSums)(const double* v, std::size_t n, const double* theta, std::size_t pairs,
                     double own, double divisor, double* out);
  // cosOut[i] = cos(theta v[i]) / divisor and sinOut[i] = sin(theta v[i]) / divisor, through
  // the same lane functions as cosineSums (libmvec's sines and cosines where the CPU has them,
  // std::sin and std::cos elsewhere): an element's bits never depend on where it falls.
  void (*trigTable)(const double* v, std::size_t n, double theta, double divisor, double* cosOut,
                    double* sinOut);
  // PTD by chunks (ptd_chunks.h), over n text positions x[i] against one chunk centred at x0.
  // seriesSums: out[i] = sqrt(m) |u| sum_{p < terms} coef[p] u^-p with u = x[i] - x0 where
  // every token of the chunk is far enough, 2 |u| maxA + maxB <= far m u^2; NaN elsewhere.
  void (*seriesSums)(const double* x, std::size_t n, double x0, const double* coef, int terms,
                     double m, double maxA, double maxB, double far, double* out);
  // chunkDeviation: with the chunk's distance sum s[i] and the mean[i] of all distances, adds
  // s - count mean to dev[i] when every distance lies at or above the mean (the centroid at
  // |X - g| >= mean + radius, |X - g|^2 = m u^2 - 2 u gammaSum + sigma), count mean - s when at
  // or below it; otherwise sets straddle[i] = 1 (the caller sums that chunk token by token).
  void (*chunkDeviation)(const double* s, const double* x, const double* mean, std::size_t n,
                         double x0, double m, double gammaSum, double sigma, double radius,
                         double count, double* dev, unsigned char* straddle);
  // The decay recurrence (see decay.cpp): for blocks of 8 distances, U = (1/n) sum_p |S_p| with
  // S_p the running sum of the phasors zr/zi (8 lanes per pair, rotated by rc/rs per block).
  void (*decayBlocks)(double* zr, double* zi, const double* rc, const double* rs, int n,
                      long blocks, double* out);
};

// The copy for this CPU (and the ROPESCOPE_CPU_ISA cap), read on every call.
const MetricKernels& metricKernels();
// A named copy ("avx512", "avx2", "baseline"); nullptr when this CPU lacks it.
const MetricKernels* metricKernelsFor(const char* isa);

// Square root as the AVX-512 copy takes it, lane by lane; nullptr-free: returns false when the
// CPU has no AVX-512 (for tests comparing it with std::sqrt).
bool rsqrtSqrtAvx512(const double* x, std::size_t n, double* out);

}  // namespace ropescope::detail
