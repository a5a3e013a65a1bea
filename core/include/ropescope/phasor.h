// The phasor picture of RoPE for one relative displacement δ: every rotary pair k is a unit
// vector e^{iφ_k} turned by its phase φ_k = θ_k·δ[axis(k)], and the running sums
// S_j = Σ_{k<j} e^{iφ_k} (j = 1..n) drawn head to tail form the spiral whose mean length is
// RoFormer's decay bound U(δ) = (1/n) Σ_j |S_j| (decay.h). The mean of cos φ_k is the positional
// bias b(δ) (metrics.h). Everything the teaching views draw comes from here.
#pragma once

#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"

namespace ropescope {

struct PhasorPair {
  int index = 0;                    // pair index k
  Axis axis = Axis::None;           // the axis the plan gives the pair
  double theta = 0.0;               // frequency θ_k (0 for a NoPE pair)
  double phase = 0.0;               // unwrapped φ_k = θ_k·δ[axis(k)]
  double wrapped = 0.0;             // φ_k wrapped to (−π, π]
  double turns = 0.0;               // φ_k / 2π: how many full turns the pair has made
  double re = 1.0, im = 0.0;        // the unit vector e^{iφ_k}
  double sumRe = 0.0, sumIm = 0.0;  // S_{k+1} = Σ_{m≤k} e^{iφ_m}, the head of arrow k
  double sumLength = 0.0;           // |S_{k+1}|
};

struct Phasor {
  Id3 delta{0, 0, 0};
  std::vector<PhasorPair> pairs;
  double decayBound = 0.0;          // (1/n) Σ_j |S_j|; equals decayBound(pairs, δ)
  double bias = 0.0;                // (1/n) Σ_k cos φ_k; equals positionalBias(pairs, δ)
  double endRe = 0.0, endIm = 0.0;  // S_n, the spiral's end point
  // Per coordinate axis t, h, w, h+w-t (slots of coordinateSlot): number of pairs and the mean
  // cos φ over them (0 pairs: 0).
  int axisPairs[4] = {0, 0, 0, 0};
  double axisBias[4] = {0.0, 0.0, 0.0, 0.0};
};

// Phase wrapped to (−π, π].
double wrapPhase(double phase);

// The phasor picture of a table for a displacement (query minus key, as decay.h uses it).
Phasor computePhasor(const PairTable& pairs, const Id3& delta);

// The bias b at one distance d moved along t, h, w alone and along all three, (d, d, d): under
// M-RoPE sections these differ, because each axis owns different frequencies.
struct AxisBias {
  double t = 0.0, h = 0.0, w = 0.0, text = 0.0;
};
AxisBias biasAlongAxes(const PairTable& pairs, double distance);

// A displacement of `distance` positions along a named direction: "t", "h", "w" (one axis) or
// "thw" (all three together, as text tokens move). Throws InputError naming the accepted names.
Id3 directionDisplacement(const std::string& direction, double distance);

}  // namespace ropescope
