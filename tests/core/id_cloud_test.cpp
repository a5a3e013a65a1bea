// The id cloud (id_cloud.h) read back: the PLY header and its binary points, the glTF document,
// its base64 buffer and the accessors' bounds, the extension rule.
#include "ropescope/id_cloud.h"

#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/position_design.h"

namespace ropescope {
namespace {

PositionIds idsOf(const std::string& design, const std::string& spec) {
  return findDesign(design).ids(parseLayoutSpec(spec), {});
}

template <class T>
T read(const std::string& bytes, std::size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

std::string unbase64(const std::string& text) {
  const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (char c : text) {
    if (c == '=') break;
    value = (value << 6) | static_cast<unsigned>(digits.find(c));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xff);
    }
  }
  return out;
}

TEST(IdCloud, PlyPointsAreTheIds) {
  const PositionIds ids = idsOf("mrope", "t2,i2x3,t1");
  const std::string ply = idCloud(ids, CloudFormat::Ply);
  const std::size_t end = ply.find("end_header\n");
  ASSERT_NE(end, std::string::npos);
  const std::string header = ply.substr(0, end);
  EXPECT_EQ(header.rfind("ply\nformat binary_little_endian 1.0\n", 0), 0u);
  EXPECT_NE(header.find("element vertex 9\n"), std::string::npos);
  EXPECT_NE(header.find("comment segment 1: image 2x3 (tokens 2..7)\n"), std::string::npos);
  const std::size_t stride = 3 * 8 + 3 + 4 + 4 + 1;
  const std::size_t body = end + std::strlen("end_header\n");
  ASSERT_EQ(ply.size(), body + ids.size() * stride);
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const std::size_t at = body + k * stride;
    for (int a = 0; a < 3; ++a) EXPECT_EQ(read<double>(ply, at + 8 * a), ids.ids[k][a]);
    const auto colour = modalityColour(ids.tokens[k].modality);
    EXPECT_EQ(static_cast<unsigned char>(ply[at + 24]), colour[0]);
    EXPECT_EQ(read<std::uint32_t>(ply, at + 27), k);
    EXPECT_EQ(read<std::int32_t>(ply, at + 31), ids.tokens[k].segment);
    EXPECT_EQ(static_cast<int>(ply[at + 35]), static_cast<int>(ids.tokens[k].modality));
  }
}

TEST(IdCloud, GltfHoldsOneNodePerSegment) {
  const PositionIds ids = idsOf("mrope", "t2,i2x3,t1");
  const auto doc = nlohmann::json::parse(idCloud(ids, CloudFormat::Gltf));
  EXPECT_EQ(doc["asset"]["version"], "2.0");
  ASSERT_EQ(doc["nodes"].size(), 3u);
  EXPECT_EQ(doc["nodes"][1]["name"], "segment 1: image 2x3 (tokens 2..7)");
  const std::string uri = doc["buffers"][0]["uri"];
  const std::string prefix = "data:application/octet-stream;base64,";
  ASSERT_EQ(uri.rfind(prefix, 0), 0u);
  const std::string buffer = unbase64(uri.substr(prefix.size()));
  EXPECT_EQ(buffer.size(), doc["buffers"][0]["byteLength"].get<std::size_t>());
  // The image's positions: accessor 2, its view's floats are the ids; min and max bound them.
  const auto& acc = doc["accessors"][2];
  EXPECT_EQ(acc["count"], 6);
  EXPECT_EQ(doc["meshes"][1]["primitives"][0]["mode"], 0);
  const std::size_t offset = doc["bufferViews"][acc["bufferView"].get<int>()]["byteOffset"];
  for (std::size_t i = 0; i < 6; ++i)
    for (int a = 0; a < 3; ++a)
      EXPECT_EQ(read<float>(buffer, offset + 4 * (3 * i + a)),
                static_cast<float>(ids.ids[2 + i][a]));
  EXPECT_EQ(acc["min"], nlohmann::json({2.0, 2.0, 2.0}));
  EXPECT_EQ(acc["max"], nlohmann::json({2.0, 3.0, 4.0}));
  EXPECT_EQ(doc["meshes"][1]["extras"]["first_token"], 2);
  EXPECT_EQ(doc["meshes"][1]["extras"]["modality"], "image");
}

TEST(IdCloud, TheExtensionPicksTheFormat) {
  EXPECT_EQ(cloudFormatOfPath("cloud.ply"), CloudFormat::Ply);
  EXPECT_EQ(cloudFormatOfPath("dir/CLOUD.PLY"), CloudFormat::Ply);
  EXPECT_EQ(cloudFormatOfPath("a.gltf"), CloudFormat::Gltf);
  EXPECT_FALSE(cloudFormatOfPath("a.glb"));
  EXPECT_FALSE(cloudFormatOfPath("ids.json"));
  EXPECT_FALSE(cloudFormatOfPath(""));
  EXPECT_THROW(idCloud(PositionIds{}, CloudFormat::Ply), InputError);
}

}  // namespace
}  // namespace ropescope
