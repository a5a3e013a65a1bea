// Layouts past the parser's token limit (kMaxLayoutTokens) for the PTD and bias scaling cases:
// Qwen2.5-VL M-RoPE ids built here directly by the rule of core's "mrope" design with its
// default parameters (bench_ptd --check compares the two on a small layout).
#pragma once

#include <algorithm>
#include <cmath>
#include <regex>
#include <stdexcept>
#include <string>

#include "ropescope/position_ids.h"

namespace ropescope::bench {

// "t1000,v1000x32x32,t1000" -> ids. Items tN, iHxW, vTxHxW; text continues at max + 1, a block
// starts at off = max + 1 with ids (off + tau(k), off + r, off + c), tau(k) = floor(2k) (fps 2,
// 2 temporal ids per second).
inline PositionIds mropeIdsUnlimited(const std::string& spec) {
  PositionIds ids;
  ids.design = "mrope";
  ids.space = MetricSpace::Space;
  const std::regex item(R"(t(\d+)|i(\d+)x(\d+)|v(\d+)x(\d+)x(\d+))");
  double walkMax = -1.0;
  int segment = 0;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', start), spec.size());
    const std::string part = spec.substr(start, comma - start);
    std::smatch m;
    if (!std::regex_match(part, m, item)) throw std::invalid_argument("bad layout item " + part);
    if (m[1].matched) {
      const long n = std::stol(m[1]);
      for (long i = 0; i < n; ++i) {
        const double p = walkMax + 1.0 + static_cast<double>(i);
        ids.ids.push_back({p, p, p});
        TokenInfo t;
        t.segment = segment;
        ids.tokens.push_back(t);
      }
      walkMax += static_cast<double>(n);
    } else {
      const bool image = m[2].matched;
      const int T = image ? 1 : std::stoi(m[4]);
      const int H = std::stoi(image ? m[2] : m[5]), W = std::stoi(image ? m[3] : m[6]);
      const double off = walkMax + 1.0;
      double tauMax = 0.0;
      for (int k = 0; k < T; ++k) {
        const double tau = image ? 0.0 : std::floor(k * 2.0);
        tauMax = std::max(tauMax, tau);
        for (int r = 0; r < H; ++r)
          for (int c = 0; c < W; ++c) {
            ids.ids.push_back({off + tau, off + r, off + c});
            TokenInfo t;
            t.modality = image ? Modality::Image : Modality::Video;
            t.segment = segment;
            t.frame = k;
            t.row = r;
            t.col = c;
            ids.tokens.push_back(t);
          }
      }
      walkMax = off + std::max({tauMax, H - 1.0, W - 1.0});
    }
    ++segment;
    start = comma + 1;
  }
  return ids;
}

// An interleaved document: `pictures` pictures of side x side tokens, `gap` text tokens before,
// between and after them.
inline std::string interleavedSpec(int pictures, int side, int gap) {
  std::string s = "t" + std::to_string(gap);
  for (int i = 0; i < pictures; ++i)
    s += ",i" + std::to_string(side) + "x" + std::to_string(side) + ",t" + std::to_string(gap);
  return s;
}

// Case (A) of the 1M-token targets: a long video between two text runs (1,026,000 tokens).
inline constexpr const char* kLongVideoLayout = "t1000,v1000x32x32,t1000";
// Case (B): 500 pictures of 32 x 32 with 1000 text tokens around each (1,013,000 tokens).
inline std::string interleavedDocument() {
  return interleavedSpec(500, 32, 1000);
}

}  // namespace ropescope::bench
