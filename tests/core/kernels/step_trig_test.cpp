// The rotation recurrence for the text side of the bias spread (core/src/kernels/step_trig.h):
// within 1e-12 of std::cos/std::sin (relative to their amplitude 1) over thousands of steps,
// exact where it re-anchors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../../core/src/kernels/step_trig.h"
#include "ropescope/frequency_plan.h"

using namespace ropescope;

namespace {

// Frequencies of a 128-dim M-RoPE plan (base 1e6: from 1 down to ~1e-6) and of a 32-dim one
// (base 1e4, a coarser ladder).
std::vector<double> testThetas() {
  std::vector<double> theta = resolvePairs(FrequencySpec{"mrope", {128, 0, 1e6}}).theta;
  for (double t : resolvePairs(FrequencySpec{"mrope", {32, 0, 1e4}}).theta) theta.push_back(t);
  return theta;
}

}  // namespace

// Positions up to 4200 (the 4096-token live layout's range): there std::cos(theta * p) is itself
// exact to ~5e-13, its argument rounded to half an ulp of theta * p.
TEST(StepTrig, StaysWithin1e12OfDirectTrigonometry) {
  const std::vector<double> theta = testThetas();
  const std::size_t m = theta.size(), ld = 2 * m + 3;  // a padded column, as a caller may use
  // Two runs in steps of one (the second off the integers), a lone position, a third run.
  std::vector<double> p;
  for (int i = 0; i < 3000; ++i) p.push_back(i);
  for (int i = 0; i < 777; ++i) p.push_back(3400.25 + i);
  p.push_back(-17.5);
  for (int i = 0; i < 100; ++i) p.push_back(-3.0 + i);
  std::vector<double> out(p.size() * ld, 0.0);
  detail::stepTrigTable(p.data(), p.size(), theta.data(), m, ld, out.data());
  double worst = 0.0;
  for (std::size_t j = 0; j < p.size(); ++j)
    for (std::size_t k = 0; k < m; ++k) {
      worst = std::max(worst, std::abs(out[j * ld + k] - std::cos(theta[k] * p[j])));
      worst = std::max(worst, std::abs(out[j * ld + m + k] - std::sin(theta[k] * p[j])));
    }
  EXPECT_LE(worst, 1e-12);
  RecordProperty("worst_abs_error", std::to_string(worst));
}

// The walk itself does not drift: over 100 000 steps, against cos/sin taken in long double (whose
// argument theta * p is exact to ~1e-19 relative), the error stays that of one anchor.
TEST(StepTrig, DoesNotDriftOverLongRuns) {
  const std::vector<double> theta = testThetas();
  const std::size_t m = theta.size(), ld = 2 * m;
  std::vector<double> p;
  for (int i = 0; i < 100000; ++i) p.push_back(i);
  std::vector<double> out(p.size() * ld);
  detail::stepTrigTable(p.data(), p.size(), theta.data(), m, ld, out.data());
  double worst = 0.0;
  for (std::size_t j = 0; j < p.size(); j += 7)
    for (std::size_t k = 0; k < m; ++k) {
      const long double phi = static_cast<long double>(theta[k]) * p[j];
      // The double anchor's argument is off by up to half an ulp of theta * p.
      const double allowed = 1e-14 + std::abs(theta[k] * p[j]) * 1.2e-16;
      worst =
          std::max(worst, std::abs(out[j * ld + k] - static_cast<double>(std::cos(phi))) / allowed);
      worst = std::max(
          worst, std::abs(out[j * ld + m + k] - static_cast<double>(std::sin(phi))) / allowed);
    }
  EXPECT_LE(worst, 1.0);
}

TEST(StepTrig, ReanchorsExactlyAtTheStartAtBreaksAndEveryAnchorInterval) {
  const std::vector<double> theta = testThetas();
  const std::size_t m = theta.size(), ld = 2 * m;
  std::vector<double> p;
  for (int i = 0; i < 100; ++i) p.push_back(10.0 + i);
  p.push_back(500.5);  // a break
  p.push_back(501.5);
  std::vector<double> out(p.size() * ld);
  detail::stepTrigTable(p.data(), p.size(), theta.data(), m, ld, out.data());
  for (std::size_t j :
       {std::size_t{0}, detail::kStepTrigAnchor, 2 * detail::kStepTrigAnchor, std::size_t{100}})
    for (std::size_t k = 0; k < m; ++k) {
      EXPECT_EQ(out[j * ld + k], std::cos(theta[k] * p[j])) << "j=" << j << " k=" << k;
      EXPECT_EQ(out[j * ld + m + k], std::sin(theta[k] * p[j])) << "j=" << j << " k=" << k;
    }
}
