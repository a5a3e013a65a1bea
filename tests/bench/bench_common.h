// Shared cases and helpers of the ropescope benchmark programs: the layouts the speed targets
// (docs/dev/performance.md) name, a --check mode that prints checksums as JSON, and a small .npy
// writer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "ropescope/layout.h"
#include "ropescope/parameters.h"
#include "ropescope/position_design.h"
#include "ropescope/position_ids.h"

namespace ropescope::bench {

// PTD target: 8000 text x 16384 visual tokens = 131 M distances.
inline constexpr const char* kPtdLayout = "t4000,v16x32x32,t4000";
// Live-update and bias-spread layout: 4096 tokens, 2048 text x 2048 visual.
inline constexpr const char* kLiveLayout = "t1024,i32x64,t1024";
inline constexpr int kDecayMaxDistance = 99999;

inline PositionIds designIds(const std::string& design, const std::string& spec) {
  return findDesign(design).ids(parseLayoutSpec(spec), ParameterSet{});
}

// "--name=value" from argv, or empty.
inline std::string flagValue(int argc, char** argv, std::string_view name) {
  const std::string prefix = "--" + std::string(name) + "=";
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0)
      return std::string(argv[i] + prefix.size());
  return {};
}

inline bool hasFlag(int argc, char** argv, std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (int i = 1; i < argc; ++i)
    if (flag == argv[i]) return true;
  return false;
}

inline double sum(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

// Minimal JSON object writer for the --check output (one object per line).
class JsonLine {
 public:
  JsonLine& add(const char* key, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return raw(key, buf);
  }
  JsonLine& add(const char* key, long v) { return raw(key, std::to_string(v)); }
  JsonLine& add(const char* key, const std::string& v) { return raw(key, "\"" + v + "\""); }
  JsonLine& raw(const char* key, const std::string& json) {
    text_ += (text_.empty() ? "{" : ", ") + std::string("\"") + key + "\": " + json;
    return *this;
  }
  void print() const { std::printf("%s}\n", text_.c_str()); }

 private:
  std::string text_;
};

// Writes a C-order float64 array of the given shape as .npy (version 1.0), for the peers'
// element-wise cross-checks.
inline void writeNpy(const std::string& path, const double* data, std::vector<std::size_t> shape) {
  std::string dims;
  std::size_t count = 1;
  for (std::size_t d : shape) {
    dims += std::to_string(d) + ", ";
    count *= d;
  }
  if (shape.size() > 1) dims.erase(dims.size() - 2);
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  const char lenBytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(count * 8));
}

// ids as an (N, 4) array: t, h, w, 1 for text / 0 for visual.
inline void writeIdsNpy(const std::string& path, const PositionIds& ids) {
  std::vector<double> flat;
  flat.reserve(ids.size() * 4);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    flat.insert(flat.end(), ids.ids[i].begin(), ids.ids[i].end());
    flat.push_back(ids.tokens[i].modality == Modality::Text ? 1.0 : 0.0);
  }
  writeNpy(path, flat.data(), {ids.size(), 4});
}

}  // namespace ropescope::bench
