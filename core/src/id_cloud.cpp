// The position-id cloud as PLY or glTF (id_cloud.h).
#include "ropescope/id_cloud.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "ropescope/errors.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

// One segment's run of tokens (tokens of a segment are contiguous in a layout).
struct Run {
  int segment = 0;
  std::size_t first = 0, count = 0;
};

std::vector<Run> runsOf(const PositionIds& ids) {
  std::vector<Run> runs;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const int seg = ids.tokens[k].segment;
    if (runs.empty() || runs.back().segment != seg) runs.push_back({seg, k, 0});
    ++runs.back().count;
  }
  return runs;
}

template <class T>
void put(std::string& out, T v) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));  // the hosts ropescope builds for are little-endian
  out.append(bytes, sizeof(T));
}

std::string base64(const std::string& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += digits[(v >> s) & 63];
  }
  const std::size_t left = bytes.size() - i;
  if (left > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (left == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += left == 2 ? digits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string plyCloud(const PositionIds& ids) {
  std::string out = "ply\nformat binary_little_endian 1.0\ncomment ropescope position-id cloud\n";
  out += "comment design " + ids.design + "; x y z = t h w\n";
  for (const Run& r : runsOf(ids))
    out += "comment " + cloudSegmentName(ids, r.first, r.count) + "\n";
  out += "comment modality 0 text, 1 image, 2 video, 3 audio\n";
  out += "element vertex " + std::to_string(ids.size()) + "\n";
  out +=
      "property double x\nproperty double y\nproperty double z\n"
      "property uchar red\nproperty uchar green\nproperty uchar blue\n"
      "property uint token\nproperty int segment\nproperty uchar modality\nend_header\n";
  out.reserve(out.size() + ids.size() * (3 * 8 + 3 + 4 + 4 + 1));
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const Id3& id = ids.ids[k];
    for (int a = 0; a < 3; ++a) put<double>(out, id[a]);
    const auto colour = modalityColour(ids.tokens[k].modality);
    for (unsigned char c : colour) put<unsigned char>(out, c);
    put<std::uint32_t>(out, static_cast<std::uint32_t>(k));
    put<std::int32_t>(out, ids.tokens[k].segment);
    put<unsigned char>(out, static_cast<unsigned char>(ids.tokens[k].modality));
  }
  return out;
}

std::string gltfCloud(const PositionIds& ids) {
  std::string buffer;
  json nodes = json::array(), meshes = json::array(), views = json::array(),
       accessors = json::array(), sceneNodes = json::array();
  for (const Run& r : runsOf(ids)) {
    // Positions, then colours, each its own buffer view (offsets stay 4-byte aligned).
    const std::size_t posOffset = buffer.size();
    constexpr float kInf = std::numeric_limits<float>::infinity();
    std::array<float, 3> lo{kInf, kInf, kInf}, hi{-kInf, -kInf, -kInf};
    for (std::size_t k = r.first; k < r.first + r.count; ++k)
      for (int a = 0; a < 3; ++a) {
        const auto v = static_cast<float>(ids.ids[k][a]);
        lo[a] = std::min(lo[a], v);
        hi[a] = std::max(hi[a], v);
        put<float>(buffer, v);
      }
    const std::size_t colourOffset = buffer.size();
    for (std::size_t k = r.first; k < r.first + r.count; ++k)
      for (unsigned char c : modalityColour(ids.tokens[k].modality))
        put<float>(buffer, static_cast<float>(c) / 255.0f);
    const int view = static_cast<int>(views.size());
    views.push_back(
        {{"buffer", 0}, {"byteOffset", posOffset}, {"byteLength", colourOffset - posOffset}});
    views.push_back({{"buffer", 0},
                     {"byteOffset", colourOffset},
                     {"byteLength", buffer.size() - colourOffset}});
    const int acc = static_cast<int>(accessors.size());
    accessors.push_back({{"bufferView", view},
                         {"componentType", 5126},
                         {"count", r.count},
                         {"type", "VEC3"},
                         {"min", {lo[0], lo[1], lo[2]}},
                         {"max", {hi[0], hi[1], hi[2]}}});
    accessors.push_back(
        {{"bufferView", view + 1}, {"componentType", 5126}, {"count", r.count}, {"type", "VEC3"}});
    const std::string name = cloudSegmentName(ids, r.first, r.count);
    const int mesh = static_cast<int>(meshes.size());
    meshes.push_back(
        {{"name", name},
         {"primitives", {{{"attributes", {{"POSITION", acc}, {"COLOR_0", acc + 1}}}, {"mode", 0}}}},
         {"extras",
          {{"segment", r.segment},
           {"modality", modalityName(ids.tokens[r.first].modality)},
           {"first_token", r.first},
           {"tokens", r.count}}}});
    sceneNodes.push_back(static_cast<int>(nodes.size()));
    nodes.push_back({{"name", name}, {"mesh", mesh}});
  }
  const json doc = {{"asset", {{"version", "2.0"}, {"generator", "ropescope"}}},
                    {"scene", 0},
                    {"scenes",
                     {{{"name", "position ids of design " + ids.design + " (x y z = t h w)"},
                       {"nodes", sceneNodes}}}},
                    {"nodes", nodes},
                    {"meshes", meshes},
                    {"buffers",
                     {{{"byteLength", buffer.size()},
                       {"uri", "data:application/octet-stream;base64," + base64(buffer)}}}},
                    {"bufferViews", views},
                    {"accessors", accessors}};
  return doc.dump(1) + "\n";
}

}  // namespace

std::optional<CloudFormat> cloudFormatOfPath(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto ends = [&lower](const std::string& tail) {
    return lower.size() > tail.size() &&
           lower.compare(lower.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends(".ply")) return CloudFormat::Ply;
  if (ends(".gltf")) return CloudFormat::Gltf;
  return std::nullopt;
}

std::array<unsigned char, 3> modalityColour(Modality m) {
  switch (m) {
    case Modality::Image:
      return {245, 140, 40};
    case Modality::Video:
      return {170, 100, 230};
    case Modality::Audio:
      return {30, 190, 200};
    case Modality::Text:
      break;
  }
  return {90, 90, 90};
}

std::string cloudSegmentName(const PositionIds& ids, std::size_t first, std::size_t count) {
  const int segment = ids.tokens.at(first).segment;
  int frames = 0, rows = 0, cols = 0;
  const Modality m = ids.tokens[first].modality;
  for (std::size_t k = first; k < first + count && k < ids.size(); ++k) {
    const TokenInfo& t = ids.tokens[k];
    frames = std::max(frames, t.frame + 1);
    rows = std::max(rows, t.row + 1);
    cols = std::max(cols, t.col + 1);
  }
  std::string what = modalityName(m);
  if (m == Modality::Image) what += " " + std::to_string(rows) + "x" + std::to_string(cols);
  if (m == Modality::Video)
    what += " " + std::to_string(frames) + "x" + std::to_string(rows) + "x" + std::to_string(cols);
  return "segment " + std::to_string(segment) + ": " + what + " (tokens " + std::to_string(first) +
         ".." + std::to_string(first + count - 1) + ")";
}

std::string idCloud(const PositionIds& ids, CloudFormat format) {
  if (ids.size() == 0) throw InputError("the id cloud needs at least one token", "layout");
  return format == CloudFormat::Ply ? plyCloud(ids) : gltfCloud(ids);
}

}  // namespace ropescope
