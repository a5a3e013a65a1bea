// The ids listing, streamed: JSON (one token per line), CSV (one row per token) or .npy ([N, 3]
// float64), formatted into a buffer that goes to the sink whenever it passes 1 MiB, so that a
// listing of a million-token layout never exists whole in memory.
#include <charconv>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "ropescope/errors.h"
#include "ropescope/npy.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

class Chunks {
 public:
  explicit Chunks(const ReportSink& sink) : sink_(sink) { buf_.reserve(kFlushBytes + 4096); }
  ~Chunks() = default;
  void add(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushBytes) flush();
  }
  void add(char c) { buf_.push_back(c); }
  void addInt(long long v) {
    char b[24];
    const auto r = std::to_chars(b, b + sizeof b, v);
    buf_.append(b, r.ptr);
  }
  // A double as JSON: shortest round trip, a whole number with ".0" (as nlohmann writes it, so
  // Python's json reads floats as before); null for NaN or infinity.
  void addJsonDouble(double v) {
    if (!std::isfinite(v)) {
      buf_.append("null");
      return;
    }
    char b[40];
    const auto r = std::to_chars(b, b + sizeof b, v);
    buf_.append(b, r.ptr);
    if (std::find_if(b, r.ptr, [](char c) { return c == '.' || c == 'e' || c == 'n'; }) == r.ptr)
      buf_.append(".0");
  }
  void addCsv(double v) { buf_.append(csvNumber(v)); }
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  const ReportSink& sink_;
  std::string buf_;
};

std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void writeNpyIds(const PositionIds& ids, const ReportSink& sink) {
  const std::string header = npyHeader({ids.size(), 3}, "<f8");
  std::string prefix("\x93NUMPY\x01\x00", 8);
  const auto len = static_cast<std::uint16_t>(header.size());
  prefix.push_back(static_cast<char>(len & 0xff));
  prefix.push_back(static_cast<char>(len >> 8));
  sink(prefix + header);
  static_assert(sizeof(Id3) == 3 * sizeof(double), "Id3 is three packed doubles");
  const char* data = reinterpret_cast<const char*>(ids.ids.data());
  const std::size_t bytes = ids.size() * sizeof(Id3);
  for (std::size_t at = 0; at < bytes; at += kFlushBytes)
    sink(std::string_view(data + at, std::min(kFlushBytes, bytes - at)));
}

}  // namespace

void writeIdsReport(const PositionIds& ids, TableFormat f, const std::vector<TokenLabel>& labels,
                    const ReportSink& sink) {
  const bool labelled = !labels.empty();
  if (labelled && labels.size() != ids.size())
    throw InputError("token labels and ids differ in length");
  if (f == TableFormat::Npy) return writeNpyIds(ids, sink);
  // VRoPE's ids have a fourth map (h + w - t of the stored three): its own column / key.
  const bool fourth = ids.space == MetricSpace::FourMaps;
  Chunks out(sink);
  if (f == TableFormat::Csv) {
    out.add(std::string("index,modality,segment,frame,row,col,t,h,w") + (fourth ? ",h+w-t" : "") +
            (labelled ? ",token_id,role\n" : "\n"));
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const TokenInfo& t = ids.tokens[i];
      out.addInt(static_cast<long long>(i));
      out.add(',');
      out.add(modalityName(t.modality));
      out.add(',');
      out.addInt(t.segment);
      for (int cell : {t.frame, t.row, t.col}) {
        out.add(',');
        if (cell >= 0) out.addInt(cell);
      }
      for (int k = 0; k < 3; ++k) {
        out.add(',');
        out.addCsv(ids.ids[i][k]);
      }
      if (fourth) {
        out.add(',');
        out.addCsv(axisCoordinate(Axis::Mix, ids.ids[i]));
      }
      if (labelled) {
        out.add(',');
        out.addInt(labels[i].tokenId);
        out.add(',');
        out.add(labels[i].role);
      }
      out.add('\n');
    }
    out.flush();
    return;
  }
  out.add("{\n  \"design\": " + quoted(ids.design) +
          ",\n  \"metric_space\": " + quoted(metricSpaceName(ids.space)) + ",\n  \"rope_delta\": ");
  out.addJsonDouble(ids.ropeDelta);
  out.add(",\n  \"tokens\": [");
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const TokenInfo& t = ids.tokens[i];
    out.add(i == 0 ? "\n    {\"index\": " : ",\n    {\"index\": ");
    out.addInt(static_cast<long long>(i));
    out.add(", \"modality\": \"");
    out.add(modalityName(t.modality));
    out.add("\", \"segment\": ");
    out.addInt(t.segment);
    // Text and audio tokens have no grid cell (an audio token's index in its run is
    // "audio_index").
    if (t.modality == Modality::Image || t.modality == Modality::Video) {
      out.add(", \"cell\": [");
      out.addInt(t.frame);
      out.add(", ");
      out.addInt(t.row);
      out.add(", ");
      out.addInt(t.col);
      out.add(']');
    } else {
      out.add(", \"cell\": null");
    }
    if (t.modality == Modality::Audio) {
      out.add(", \"audio_index\": ");
      out.addInt(t.frame);
    }
    out.add(", \"id\": [");
    out.addJsonDouble(ids.ids[i][0]);
    out.add(", ");
    out.addJsonDouble(ids.ids[i][1]);
    out.add(", ");
    out.addJsonDouble(ids.ids[i][2]);
    out.add(']');
    if (fourth) {
      out.add(", \"fourth_map\": ");
      out.addJsonDouble(axisCoordinate(Axis::Mix, ids.ids[i]));
    }
    if (labelled) {
      out.add(", \"token_id\": ");
      out.addInt(labels[i].tokenId);
      out.add(", \"role\": ");
      out.add(quoted(labels[i].role));
    }
    out.add('}');
  }
  out.add(ids.size() > 0 ? "\n  ]\n}\n" : "]\n}\n");
  out.flush();
}

std::string idsReport(const PositionIds& ids, TableFormat f,
                      const std::vector<TokenLabel>& labels) {
  std::string s;
  writeIdsReport(ids, f, labels, [&s](std::string_view piece) { s.append(piece); });
  return s;
}

std::string idsReport(const PositionIds& ids, TableFormat f) {
  return idsReport(ids, f, {});
}

}  // namespace ropescope
