// JSON/CSV writers for ids, PTD, bias, decay and frequencies (field names per the CLI contract).
#include "ropescope/report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string_view>

#include "parallel.h"
#include "ropescope/errors.h"

namespace ropescope {

using json = nlohmann::ordered_json;

TableFormat parseTableFormat(const std::string& name) {
  if (name == "json") return TableFormat::Json;
  if (name == "csv") return TableFormat::Csv;
  if (name == "npy") return TableFormat::Npy;
  throw InputError("unknown format \"" + name + "\" (accepted: json, csv, npy)", "format");
}

std::string formatDouble(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

std::string csvNumber(double v) {
  if (!std::isfinite(v)) return {};
  if (std::abs(v) < 9007199254740992.0 && v == std::trunc(v) && !(v == 0 && std::signbit(v)))
    return std::to_string(static_cast<long long>(v));
  return formatDouble(v);
}

std::string readableNumber(double v, int significant) {
  const std::string whole = csvNumber(v);
  if (!whole.empty() && whole.find_first_of(".e") == std::string::npos) return whole;
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  return buf;
}

namespace {

std::string dumpJson(const json& j) {
  return j.dump(2) + "\n";
}

std::string fromColumn(GroupPair g) {
  return std::string(tokenGroupName(g.from)) + "_index";
}

}  // namespace

std::string ptdReport(const PtdResult& ptd, const PositionIds& ids, TableFormat f, GroupPair g) {
  const auto text = groupIndices(ids, g.from);
  if (f == TableFormat::Csv) {
    std::string s = fromColumn(g) + ",token,mean_distance,ptd\n";
    for (std::size_t i = 0; i < ptd.perText.size(); ++i)
      s += std::to_string(i) + ',' + std::to_string(text[i]) + ',' +
           csvNumber(ptd.meanDistance[i]) + ',' + csvNumber(ptd.perText[i]) + '\n';
    return s;
  }
  const std::string from = tokenGroupName(g.from), to = tokenGroupName(g.to);
  return dumpJson({{"design", ids.design},
                   {"from", from},
                   {"to", to},
                   {"ptd", ptd.ptd},
                   {"per_" + from, ptd.perText},
                   {"mean_distance", ptd.meanDistance},
                   {"n_" + from, ptd.nText},
                   {"n_" + to, ptd.nVisual}});
}

std::string biasReport(const BiasResult& bias, const PositionIds& ids, TableFormat f, GroupPair g) {
  const auto text = groupIndices(ids, g.from);
  if (f == TableFormat::Csv) {
    std::string s = fromColumn(g) + ",token,mean_bias,bias_spread\n";
    for (std::size_t i = 0; i < bias.perText.size(); ++i)
      s += std::to_string(i) + ',' + std::to_string(text[i]) + ',' + csvNumber(bias.meanBias[i]) +
           ',' + csvNumber(bias.perText[i]) + '\n';
    return s;
  }
  const std::string from = tokenGroupName(g.from);
  return dumpJson({{"design", ids.design},
                   {"from", from},
                   {"to", tokenGroupName(g.to)},
                   {"bias_spread", bias.spread},
                   {"per_" + from, bias.perText},
                   {"mean_bias", bias.meanBias}});
}

namespace {

// Numbers are written with std::to_chars straight into buffers sized for the worst case
// (kNumberChars each): a long curve is written without a JSON tree, a string per number or a
// growing string, its ranges formatted in parallel (putParallel).
constexpr std::size_t kNumberChars = 32;

// Shortest round trip.
char* putNumber(char* p, double v) {
  return std::to_chars(p, p + kNumberChars, v).ptr;
}

// A whole number below 2^53 as to_chars writes it in fixed form ("100000"), by the faster
// integer conversion; nullptr for any other value.
char* putWhole(char* p, double v) {
  if (!(std::abs(v) < 9007199254740992.0) || v != std::trunc(v) || (v == 0 && std::signbit(v)))
    return nullptr;
  return std::to_chars(p, p + kNumberChars, static_cast<long long>(v)).ptr;
}

char* putText(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

// As nlohmann's dump(2) writes a number in an array: integral values keep ".0" (JSON readers
// then keep them floats), non-finite ones are null.
char* putJsonNumber(char* p, double v) {
  if (!std::isfinite(v)) return putText(p, "null");
  if (std::abs(v) < 1e15)
    if (char* e = putWhole(p, v)) return putText(e, ".0");  // 100000.0, not 1e+05
  return putNumber(p, v);
}

// As csvNumber writes it: nothing where undefined, whole numbers in integer digits.
char* putCsvNumber(char* p, double v) {
  if (!std::isfinite(v)) return p;
  if (char* e = putWhole(p, v)) return e;
  return putNumber(p, v);
}

// Items [0, n) written by put(p, i) -> end from p on, in contiguous ranges formatted in
// parallel (each from its own offset, itemChars per item, the most an item takes) and then moved
// down to follow each other: the text is the same for any thread count. Returns the end.
template <typename Put>
char* putParallel(char* p, std::size_t n, std::size_t itemChars, int threads, Put put) {
  // Below a few thousand items a thread costs more than it saves.
  const std::size_t parts = std::clamp<std::size_t>(
      n / 4096, 1, static_cast<std::size_t>(detail::resolveThreads(threads)));
  const std::size_t chunk = (n + parts - 1) / parts;
  std::vector<char*> ends(parts);
  detail::parallelFor(parts, static_cast<int>(parts), [&](std::size_t b, std::size_t e) {
    for (std::size_t c = b; c < e; ++c) {
      const std::size_t first = std::min(n, c * chunk), last = std::min(n, first + chunk);
      char* q = p + first * itemChars;
      for (std::size_t i = first; i < last; ++i) q = put(q, i);
      ends[c] = q;
    }
  });
  char* end = ends[0];
  for (std::size_t c = 1; c < parts; ++c) {
    char* from = p + std::min(n, c * chunk) * itemChars;
    const std::size_t len = static_cast<std::size_t>(ends[c] - from);
    std::memmove(end, from, len);
    end += len;
  }
  return end;
}

constexpr std::size_t kJsonItemChars = kNumberChars + 8;  // ",\n    " and ".0"

// value(i) for i in [0, n), as nlohmann's dump(2) lays out a key's array.
template <typename Value>
char* putJsonArray(char* p, std::string_view key, std::size_t n, int threads, Value value) {
  p = putText(putText(putText(p, "  \""), key), "\": [");
  p = putParallel(p, n, kJsonItemChars, threads, [&](char* q, std::size_t i) {
    return putJsonNumber(putText(q, i ? ",\n    " : "\n    "), value(i));
  });
  return putText(p, n == 0 ? "]" : "\n  ]");
}

}  // namespace

ReportText decayReport(const std::vector<double>& bound, TableFormat f, int threads,
                       const DiscriminationBound* discrimination) {
  const std::size_t n = bound.size();
  // The discrimination bound's line: its keys, a number or the reason escaped (at most 6 chars
  // a byte).
  const std::size_t extra = discrimination ? 96 + 6 * discrimination->undefined.size() : 0;
  LargeBuffer<char> buf(2 * kJsonItemChars * n + 64 + extra);
  char* const begin = buf.data();
  char* p = begin;
  if (f == TableFormat::Csv) {
    p = putText(p, "distance,bound\n");
    p = putParallel(p, n, 2 * kNumberChars + 2, threads, [&](char* q, std::size_t i) {
      q = putCsvNumber(q, static_cast<double>(i));
      *q++ = ',';
      q = putCsvNumber(q, bound[i]);
      *q++ = '\n';
      return q;
    });
  } else {
    p = putText(p, "{\n");
    p = putJsonArray(p, "distance", n, threads,
                     [](std::size_t i) { return static_cast<double>(i); });
    p = putText(p, ",\n");
    p = putJsonArray(p, "bound", n, threads, [&](std::size_t i) { return bound[i]; });
    if (discrimination) {
      const std::string extra =
          discrimination->distance
              ? ",\n  \"discrimination_bound\": " + std::to_string(*discrimination->distance)
              : ",\n  \"discrimination_bound\": null,\n  \"discrimination_undefined\": " +
                    nlohmann::json(discrimination->undefined).dump();
      p = putText(p, extra.c_str());
    }
    p = putText(p, "\n}\n");
  }
  const std::size_t length = static_cast<std::size_t>(p - begin);
  return ReportText(std::move(buf), length);
}

std::string freqsReport(const std::vector<PairWavelength>& pairs, double contextLength,
                        TableFormat f, PairLayout layout, const PairTable* table) {
  const bool scaled =
      table && !table->ropeType.empty() && table->thetaUnscaled.size() == pairs.size() &&
      table->scaling.size() == pairs.size() && table->invFreq32.size() == pairs.size();
  if (f == TableFormat::Csv) {
    std::string s = "index,axis,theta,wavelength,full_turn,dim_a,dim_b";
    s += scaled ? ",theta_unscaled,scaling,inv_freq_f32\n" : "\n";
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const PairWavelength& p = pairs[i];
      s += std::to_string(p.index) + ',' + axisName(p.axis) + ',' + csvNumber(p.theta) + ',' +
           (p.wavelength ? csvNumber(*p.wavelength) : "") + ',' + (p.fullTurn ? "1" : "0") + ',' +
           std::to_string(p.dims.first) + ',' + std::to_string(p.dims.second);
      if (scaled)
        s += ',' + csvNumber(table->thetaUnscaled[i]) + ',' + pairScalingName(table->scaling[i]) +
             ',' + csvNumber(table->invFreq32[i]);
      s += '\n';
    }
    return s;
  }
  json arr = json::array();
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const PairWavelength& p = pairs[i];
    json row = {{"index", p.index},
                {"axis", axisName(p.axis)},
                {"theta", p.theta},
                {"wavelength", p.wavelength ? json(*p.wavelength) : json(nullptr)},
                {"full_turn", p.fullTurn},
                {"dims", {p.dims.first, p.dims.second}}};
    if (scaled) {
      row["theta_unscaled"] = table->thetaUnscaled[i];
      row["scaling"] = pairScalingName(table->scaling[i]);
      row["inv_freq_f32"] = static_cast<double>(table->invFreq32[i]);
    }
    arr.push_back(std::move(row));
  }
  json out = {{"context_length", contextLength},
              {"full_turn_pairs", fullTurnPairs(pairs)},
              {"pair_layout", pairLayoutName(layout)}};
  if (scaled) {
    const ScalingCounts counts = scalingCounts(*table);
    json perAxis = json::object();
    for (Axis a : {Axis::T, Axis::H, Axis::W, Axis::Mix, Axis::None}) {
      const auto& c = counts[static_cast<std::size_t>(a)];
      if (c[0] + c[1] + c[2] + c[3] == 0) continue;  // no pair on this axis
      json row = json::object();
      for (int k = 0; k < kPairScalingCount; ++k)
        row[pairScalingName(static_cast<PairScaling>(k))] = c[static_cast<std::size_t>(k)];
      perAxis[axisName(a)] = row;
    }
    json rope = {{"type", table->ropeType},
                 {"attention_factor", table->attentionFactor},
                 {"logit_scale", table->attentionFactor * table->attentionFactor},
                 {"per_axis", perAxis}};
    if (table->switchLength > 0) {
      rope["switch_length"] = table->switchLength;
      rope["switched"] = table->switched;
    }
    out["rope"] = rope;
  }
  out["pairs"] = arr;
  return dumpJson(out);
}

}  // namespace ropescope
