// Bring your own ids (design ids-file): the reader's shapes and dtypes, refused files (NaN,
// infinity, wrong shape, count mismatch), and the design in scenes (JSON round trip, metrics).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>

#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/metrics.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "temp_dir.h"

using namespace ropescope;

namespace {

// A version-1 .npy with the given descr and shape over raw little-endian bytes.
std::string writeRaw(const std::filesystem::path& path, const std::string& descr,
                     const std::vector<std::size_t>& shape, const std::string& data) {
  std::string h = npyHeader(shape, descr);
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string f = "\x93NUMPY";
  f += '\x01';
  f += '\0';
  f += static_cast<char>(h.size() & 0xff);
  f += static_cast<char>(h.size() >> 8);
  std::ofstream(path, std::ios::binary) << f << h << data;
  return path.string();
}

template <typename T>
std::string raw(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

std::string errorOf(const std::string& path) {
  try {
    readIdsFile(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(IdsFile, ReadsRowsAndColumnsInEveryDtype) {
  test::TempDir dir;
  // Tokens (0,1,2), (3,4,5): [N,3] row-major, and the same as [3,N].
  const std::vector<Id3> want = {{0, 1, 2}, {3, 4, 5}};
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "a.npy", "<i8", {2, 3},
                                 raw(std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}))),
            want);
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "b.npy", "<i4", {3, 2},
                                 raw(std::vector<std::int32_t>{0, 3, 1, 4, 2, 5}))),
            want);
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "c.npy", "<f4", {2, 3},
                                 raw(std::vector<float>{0, 1, 2, 3, 4, 5}))),
            want);
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "d.npy", "|u1", {3, 2},
                                 raw(std::vector<std::uint8_t>{0, 3, 1, 4, 2, 5}))),
            want);
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "e.npy", "<i2", {2, 3},
                                 raw(std::vector<std::int16_t>{0, 1, 2, 3, 4, 5}))),
            want);
  // float64 keeps fractions exactly; negative int64 keeps its sign.
  const auto f = readIdsFile(writeRaw(dir.path / "f.npy", "<f8", {1, 3},
                                      raw(std::vector<double>{2.0 / 3.0, -1.5, 1e9 + 0.25})));
  EXPECT_EQ(f[0], (Id3{2.0 / 3.0, -1.5, 1e9 + 0.25}));
  const auto g = readIdsFile(writeRaw(dir.path / "g.npy", "<i8", {1, 3},
                                      raw(std::vector<std::int64_t>{-7, (1LL << 40), 0})));
  EXPECT_EQ(g[0], (Id3{-7, 1099511627776.0, 0}));
  // Big-endian int16: bytes 0xFF 0xFF = -1, 0x01 0x2C = 300.
  const auto be = readIdsFile(
      writeRaw(dir.path / "be.npy", ">i2", {1, 3}, std::string("\xff\xff\x01\x2c\x00\x07", 6)));
  EXPECT_EQ(be[0], (Id3{-1, 300, 7}));
  // A [3,3] file is one row per token.
  const auto sq = readIdsFile(writeRaw(dir.path / "h.npy", "<f8", {3, 3},
                                       raw(std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8})));
  EXPECT_EQ(sq[1], (Id3{3, 4, 5}));
}

TEST(IdsFile, RefusesBadFilesWithOneLine) {
  test::TempDir dir;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  std::string m = errorOf(
      writeRaw(dir.path / "nan.npy", "<f8", {2, 3}, raw(std::vector<double>{0, 1, 2, 3, nan, 5})));
  EXPECT_NE(m.find("NaN h id at token 1"), std::string::npos) << m;
  m = errorOf(
      writeRaw(dir.path / "inf.npy", "<f4", {3, 2},
               raw(std::vector<float>{0, 1, 2, 3, 4, -std::numeric_limits<float>::infinity()})));
  EXPECT_NE(m.find("infinite w id at token 1"), std::string::npos) << m;
  // Finite but beyond 2^53: 1e300 ids overflowed the distances and gave an undefined PTD.
  m = errorOf(writeRaw(dir.path / "huge.npy", "<f8", {2, 3},
                       raw(std::vector<double>{0, 1, 2, 3, 4, 1e300})));
  EXPECT_NE(m.find("has a w id of 1e+300 at token 1 (ids must be within "
                   "-9007199254740992..9007199254740992, 2^53)"),
            std::string::npos)
      << m;
  EXPECT_EQ(readIdsFile(writeRaw(dir.path / "edge.npy", "<f8", {1, 3},
                                 raw(std::vector<double>{-9007199254740992.0, 0, 1})))[0][0],
            -9007199254740992.0);
  m = errorOf(writeRaw(dir.path / "shape.npy", "<f8", {2, 4}, raw(std::vector<double>(8, 0.0))));
  EXPECT_NE(m.find("has shape [2,4] (accepted: [N,3] or [3,N]"), std::string::npos) << m;
  m = errorOf(writeRaw(dir.path / "flat.npy", "<f8", {6}, raw(std::vector<double>(6, 0.0))));
  EXPECT_NE(m.find("has shape [6]"), std::string::npos) << m;
  m = errorOf(writeRaw(dir.path / "empty.npy", "<f8", {0, 3}, ""));
  EXPECT_NE(m.find("no tokens"), std::string::npos) << m;
  m = errorOf(writeRaw(dir.path / "complex.npy", "<c8", {1, 3}, std::string(24, '\1')));
  EXPECT_NE(m.find("'<c8'"), std::string::npos) << m;
  m = errorOf(writeRaw(dir.path / "short.npy", "<i8", {2, 3}, std::string(40, '\0')));
  EXPECT_NE(m.find("truncated"), std::string::npos) << m;
  m = errorOf((dir.path / "missing.npy").string());
  EXPECT_NE(m.find("does not exist"), std::string::npos) << m;
  for (const std::string& s : {std::string("nan"), std::string("shape"), std::string("missing")})
    EXPECT_EQ(errorOf((dir.path / (s + ".npy")).string()).find('\n'), std::string::npos);
}

TEST(IdsFile, TheTokenCountMustMatchTheLayout) {
  const Layout l = parseLayoutSpec("t2,i2x2,t1");  // 7 tokens
  const std::vector<Id3> six(6, Id3{0, 0, 0});
  try {
    idsFromFile(l, six, "x.npy");
    FAIL() << "a count mismatch was accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "ids file \"x.npy\" has 6 tokens but the layout has 7 (they must match)");
  }
  std::vector<Id3> seven;
  for (int i = 0; i < 7; ++i) seven.push_back({double(i), double(2 * i), 0.5});
  const PositionIds ids = idsFromFile(l, seven, "x.npy");
  EXPECT_EQ(ids.ids, seven);
  EXPECT_EQ(ids.design, "ids-file");
  EXPECT_EQ(ids.tokens[3].modality, Modality::Image);
  EXPECT_EQ(ids.tokens[3].row, 0);
  EXPECT_EQ(ids.tokens[3].col, 1);
  EXPECT_EQ(ids.tokens[6].modality, Modality::Text);
  EXPECT_EQ(ids.ropeDelta, 12.0 + 1.0 - 7.0);  // largest id 12 (h of token 6)
}

// The file's ids equal a built-in design's: the same PTD, and the scene keeps the file through
// its JSON (relative to the scene's folder), and refuses a file that no longer fits the layout.
TEST(IdsFile, SceneWithIdsMeasuresLikeTheDesignItCopies) {
  test::TempDir dir;
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t3,i3x4,t2,v2x2x3,t2");
  s.design = "mrope";
  const PositionIds built = findDesign("mrope").ids(s.layout, {});
  std::vector<double> cols;  // [3, N]: t row, h row, w row
  for (int a = 0; a < 3; ++a)
    for (const Id3& id : built.ids) cols.push_back(id[a]);
  const std::string path = writeRaw(dir.path / "own.npy", "<f8", {3, built.size()}, raw(cols));
  const Scene f = withIdsFile(s, path);
  EXPECT_EQ(f.design, "ids-file");
  const SceneMetrics mf = computeSceneMetrics(f, 8);
  const SceneMetrics mb = computeSceneMetrics(s, 8);
  EXPECT_EQ(mf.ids.ids, built.ids);
  EXPECT_DOUBLE_EQ(mf.ptd.ptd, mb.ptd.ptd);
  EXPECT_EQ(mf.designUsed, "ids-file");

  const std::string json = sceneToJson(f, dir.path.string());
  EXPECT_NE(json.find("\"ids_file\": \"own.npy\""), std::string::npos) << json;
  const Scene back = sceneFromJson(json, dir.path.string());
  EXPECT_EQ(back.fileIds, f.fileIds);
  EXPECT_EQ(back.design, "ids-file");

  // A layout with another token count: the scene refuses the file, naming both counts.
  Scene other = s;
  other.layout = parseLayoutSpec("t3,i3x4");
  try {
    withIdsFile(other, path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has 31 tokens but the layout has 15"), std::string::npos)
        << e.what();
  }
  // The design without ids says how to give them.
  Scene none = s;
  none.design = "ids-file";
  EXPECT_THROW(validateScene(none), InputError);
  // compare lists the file's ids beside the built-in designs.
  const auto rows = compareDesigns(f);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.back().design, "ids-file");
  EXPECT_DOUBLE_EQ(rows.back().ptd, mb.ptd.ptd);
}
