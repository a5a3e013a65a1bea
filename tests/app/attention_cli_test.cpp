// End-to-end tests of `ropescope attention`: real processes, the .npy it writes, its JSON
// summary, and every kind of bad .npy input (generated here) ending in exit status 2, one line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <sstream>
#include "cli_harness.h"

#include "ropescope/npy.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using namespace ropescope::cli_harness;

const fs::path& workDir() {
  static const fs::path dir = makeWorkDir("ropescope-attn-cli");
  return dir;
}

std::string path(const std::string& name) {
  return (workDir() / name).string();
}

// No display: the GPU probe must fail quietly, whatever the test machine has.
ProcessResult runCli(const std::vector<std::string>& args) {
  std::vector<std::string> all{"attention"};
  all.insert(all.end(), args.begin(), args.end());
  return runProcess(workDir(), workDir(), all, true);
}

void expectBadInput(const std::vector<std::string>& args, const std::string& mention) {
  expectOneLineError(runCli(args), joinArgs(args), {mention});
}

// A .npy file from raw parts (header padded to 64 bytes unless raw).
std::string npyFile(const std::string& name, const std::string& header, std::size_t dataBytes,
                    char major = 1, const std::string& magic = "\x93NUMPY") {
  std::string h = header;
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string f = magic;
  f += major;
  f += '\0';
  f += static_cast<char>(h.size() & 0xff);
  f += static_cast<char>(h.size() >> 8);
  f += h + std::string(dataBytes, '\0');
  const std::string p = path(name);
  std::ofstream(p, std::ios::binary) << f;
  return p;
}

// t5,i3x3,t2 has 16 tokens.
const std::vector<std::string> kScene = {"--layout",   "t5,i3x3,t2", "--design",  "mrope",
                                         "--head-dim", "16",         "--backend", "cpu"};

std::vector<std::string> with(std::vector<std::string> extra) {
  std::vector<std::string> a = kScene;
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

}  // namespace

TEST(AttentionCli, WritesRowsAndSummary) {
  const std::string out = path("rows.npy");
  const ProcessResult r = runCli(with({"--qk", "random", "--seed", "9", "--heads", "2", "--causal",
                                       "--softmax", "--rows", "3:7", "--out", out}));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["tokens"], 16);
  EXPECT_EQ(j["heads"], 2);
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["value"], "softmax");
  EXPECT_EQ(j["rows"], json::array({3, 7}));
  EXPECT_EQ(j["out_shape"], json::array({2, 4, 16}));
  for (const char* k : {"row_max_logit", "row_max_probability", "row_entropy"})
    for (const char* s : {"min", "mean", "max"}) EXPECT_TRUE(j[k][s].is_number()) << k << s;
  const ropescope::NpyArray a = ropescope::readNpy(out);
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{2, 4, 16}));
  for (std::size_t row = 0; row < 8; ++row) {
    double sum = 0;
    for (std::size_t c = 0; c < 16; ++c) {
      sum += a.data[row * 16 + c];
      if (c > 3 + row % 4) EXPECT_EQ(a.data[row * 16 + c], 0.0f);  // causal
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
  }
  // Same seed, same numbers.
  const std::string again = path("rows2.npy");
  ASSERT_EQ(runCli(with({"--qk", "random", "--seed", "9", "--heads", "2", "--causal", "--softmax",
                         "--rows", "3:7", "--out", again}))
                .status,
            0);
  EXPECT_EQ(ropescope::readNpy(again).data, a.data);
}

TEST(AttentionCli, ReadsNpyFilesAndPools) {
  std::vector<float> q(4 * 16 * 16), k(2 * 16 * 16);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = float((i * 37) % 11) / 11.0f - 0.5f;
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = float((i * 53) % 13) / 13.0f - 0.5f;
  ropescope::writeNpy(path("q.npy"), q.data(), q.size(), {4, 16, 16});
  ropescope::writeNpy(path("k.npy"), k.data(), k.size(), {2, 16, 16});
  const ProcessResult r = runCli(with({"--q", path("q.npy"), "--k", path("k.npy"), "--pool", "5",
                                       "--softmax", "--out", path("pool.npy")}));
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["heads"], 4);
  EXPECT_EQ(j["kv_heads"], 2);
  EXPECT_EQ(j["qk"], "npy");
  const ropescope::NpyArray a = ropescope::readNpy(path("pool.npy"));
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{4, 4, 4}));
  // Summary only, no output file: the streaming pass alone.
  const ProcessResult s = runCli(with({"--qk", "identical"}));
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(json::parse(s.out)["out"], nullptr);
}

TEST(AttentionCli, HelpAndAutoBackend) {
  const ProcessResult h = runCli({"--help"});
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--backend auto|cpu|gpu"), std::string::npos);
  EXPECT_NE(h.out.find("--rows A:B"), std::string::npos);
  // auto without a display (docs/user/attention.md): the CPU, nothing on stderr, and the
  // summary's backend_note says why.
  const ProcessResult a = runCli({"--layout", "t4", "--backend", "auto"});
  ASSERT_EQ(a.status, 0) << a.err;
  const json summary = json::parse(a.out);
  EXPECT_EQ(summary["backend"], "cpu");
  EXPECT_EQ(summary.value("backend_note", ""),
            "GPU unavailable (no display to create an OpenGL context on (DISPLAY is not set)); "
            "using the CPU");
  EXPECT_FALSE(summary.contains("backend_fallback_reason"));
  EXPECT_TRUE(a.err.empty()) << a.err;
}

TEST(AttentionCli, BadOptionsExitTwoWithOneLine) {
  expectBadInput(with({"--rows", "7:3"}), "--rows 7:3");
  expectBadInput(with({"--rows", "0:17"}), "outside 0:16");
  expectBadInput(with({"--rows", "x"}), "--rows expects A:B");
  expectBadInput(with({"--qk", "gaussian"}), "--qk must be identical or random");
  expectBadInput(with({"--seed", "3"}), "--seed applies to --qk random");
  expectBadInput(with({"--q", path("q.npy")}), "give both --q");
  expectBadInput({"--layout", "t4", "--backend", "tpu"}, "--backend must be auto, cpu or gpu");
  expectBadInput(with({"--backend", "gpu"}), "--backend given twice");
  expectBadInput(with({"--format", "csv"}), "summary as JSON only");
  expectBadInput(with({"--out", path("rows.csv")}), "--out must name a .npy file");
  // A device takes the rows whatever its name (a hunt found /dev/null refused for its name).
  const ProcessResult toNull = runCli(with({"--out", "/dev/null"}));
  EXPECT_EQ(toNull.status, 0) << toNull.err;
  expectBadInput(with({"--pool", "4", "--rows", "0:2"}), "either --rows or --pool");
  expectBadInput(with({"--heads", "0"}), "--heads expects");
  expectBadInput(with({"--causal=yes"}), "takes no value");
  expectBadInput({"--layout", "t4", "--backend", "gpu"}, "--backend gpu: no OpenGL 4.3");
}

// A rope scaling from --model or --rope: the summary names the type, the attention factor and the
// logit scale (its square), and the logits are those of the same frequencies with
// attention_factor 1 times that scale.
TEST(AttentionCli, RopeScalingReportsTheFactorAndScalesTheLogits) {
  const std::vector<std::string> base = {"--model",   "qwen2.5-vl-yarn-7b",
                                         "--layout",  "t5,i3x3,t2",
                                         "--backend", "cpu",
                                         "--qk",      "random",
                                         "--seed",    "4"};
  auto args = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = base;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const ProcessResult y = runCli(args({"--out", path("yarn.npy")}));
  ASSERT_EQ(y.status, 0) << y.err;
  const json j = json::parse(y.out);
  const double factor = 0.1 * std::log(4.0) + 1.0;
  EXPECT_EQ(j["rope"]["type"], "yarn");
  EXPECT_EQ(j["rope"]["attention_factor"].get<double>(), factor);
  EXPECT_EQ(j["rope"]["logit_scale"].get<double>(), factor * factor);
  EXPECT_NE(y.out.find("\"attention_factor\": 1.138629436111989"), std::string::npos) << y.out;
  const ProcessResult u =
      runCli(args({"--rope-param", "attention_factor=1", "--out", path("plain.npy")}));
  ASSERT_EQ(u.status, 0) << u.err;
  EXPECT_EQ(json::parse(u.out)["rope"]["logit_scale"].get<double>(), 1.0);
  const ropescope::NpyArray a = ropescope::readNpy(path("yarn.npy"));
  const ropescope::NpyArray b = ropescope::readNpy(path("plain.npy"));
  ASSERT_EQ(a.shape, b.shape);
  ASSERT_EQ(a.shape, (std::vector<std::size_t>{1, 16, 16}));
  for (std::size_t i = 0; i < a.data.size(); ++i)
    EXPECT_NEAR(a.data[i], b.data[i] * factor * factor, 2e-5 * (1.0 + std::abs(a.data[i]))) << i;
  // Without a scaling the summary has no rope member; --rope gives one to any design.
  const ProcessResult none = runCli(with({"--qk", "identical"}));
  ASSERT_EQ(none.status, 0) << none.err;
  EXPECT_FALSE(json::parse(none.out).contains("rope"));
  const ProcessResult r = runCli(with({"--rope", "linear", "--rope-param", "factor=2"}));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["rope"]["attention_factor"].get<double>(), 1.0);
  expectBadInput(with({"--rope", "yarn", "--rope-param", "factor=0"}), "factor must be in");
}

// q . k beyond float32's range gives infinite logits: the run says which head and row and that
// q and k need scaling, exits 2 and writes no --out file; the same values scaled down run.
TEST(AttentionCli, LogitsThatOverflowFloat32AreRefused) {
  const auto qk = [&](const std::string& name, float v) {
    std::vector<float> x(2 * 8 * 16, v);
    for (std::size_t i = 8 * 16; i < x.size(); ++i) x[i] = 1.0f;  // head 1 stays small
    ropescope::writeNpy(path(name), x.data(), x.size(), {2, 8, 16});
    return path(name);
  };
  const std::string big = qk("big.npy", 1e20f), fine = qk("fine.npy", 1e3f);
  const std::string out = path("overflow.npy");
  for (const char* pool : {"", "2"}) {
    std::vector<std::string> a = {"--layout", "t8", "--head-dim", "16", "--plan",    "vanilla",
                                  "--q",      big,  "--k",        big,  "--backend", "cpu"};
    if (*pool) {
      a.insert(a.end(), {"--pool", pool});
    } else {
      a.insert(a.end(), {"--rows", "3:8", "--out", out});
    }
    expectBadInput(a, *pool ? "the logits of head 0, row 0 overflow float32"
                            : "the logits of head 0, row 3 overflow float32");
    EXPECT_FALSE(fs::exists(out));
    a[7] = a[9] = fine;
    const ProcessResult r = runCli(a);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(fs::exists(out), !*pool);
    fs::remove(out);
  }
}

TEST(AttentionCli, EveryBadNpyExitsTwoWithOneLine) {
  const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 16), }";
  const std::string good = npyFile("good.npy", ok, 16 * 16 * 4);
  const auto bad = [&](const std::string& file, const std::string& mention) {
    expectBadInput(with({"--q", file, "--k", good}), mention);
    expectBadInput(with({"--q", good, "--k", file}), "k file");
  };
  bad(path("missing.npy"), "does not exist");
  // One head is "1 head".
  EXPECT_EQ(runCli(with({"--q", good, "--k", good, "--heads", "2"})).err,
            "ropescope: --heads 2 but q file \"" + good + "\" has 1 head\n");
  bad(npyFile("magic.npy", ok, 1024, 1, "\x93NUMPX"), "wrong magic");
  bad(npyFile("version.npy", ok, 1024, 7), "format version 7");
  {
    std::string f = std::string("\x93NUMPY\x02\x00", 8);
    f += std::string("\x70\x11\x01\x00", 4);  // a 70000-byte header
    f += std::string(70000, ' ');
    std::ofstream(path("big-header.npy"), std::ios::binary) << f;
    bad(path("big-header.npy"), "header (limit 65536)");
  }
  bad(npyFile("malformed.npy", "{'descr': '<f4', 'shape' (16, 16)}", 1024), "malformed");
  bad(npyFile("int.npy", "{'descr': '<i8', 'fortran_order': False, 'shape': (16, 16), }", 2048),
      "unsupported dtype '<i8'");
  bad(npyFile("bf16.npy", "{'descr': '<V2', 'fortran_order': False, 'shape': (16, 16), }", 512),
      "convert it to float32 first");
  bad(npyFile("tokens.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (15, 16), }", 960),
      "has 15 tokens");
  bad(npyFile("dim.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 32), }", 2048),
      "head dim 32");
  bad(npyFile("rank.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), }", 1024),
      "has shape (256)");
  bad(npyFile("truncated.npy", ok, 1000), "is truncated");
  bad(npyFile("trailing.npy", ok, 1030), "bytes after the data");
  bad(npyFile("huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4000000000, 16), }",
              64),
      "elements");
  {  // float16 input is accepted and converted
    const std::string half =
        npyFile("half.npy", "{'descr': '<f2', 'fortran_order': False, 'shape': (16, 16), }", 512);
    EXPECT_EQ(runCli(with({"--q", half, "--k", good})).status, 0);
  }
}

// N = 4096 rows of 4096 go to the file in chunks of 1024 rows (on 2 threads: 4 blocks of 128 rows
// a thread), computed while the chunk before is written (two buffers): rows on both sides of
// each chunk boundary and the last ones are the rows a run of just those gives, bit for bit, in
// every head.
TEST(AttentionCli, RowsSpanningManyChunksAreWrittenInOrder) {
  const std::vector<std::string> scene = {
      "--layout", "t4096", "--head-dim", "16",        "--qk", "random",    "--seed", "5",
      "--heads",  "2",     "--softmax",  "--backend", "cpu",  "--threads", "2"};
  const auto run = [&](const std::string& rows, const std::string& name) {
    std::vector<std::string> a = scene;
    for (const std::string& s : {std::string("--rows"), rows, std::string("--out"), path(name)})
      a.push_back(s);
    const ProcessResult r = runCli(a);
    EXPECT_EQ(r.status, 0) << r.err;
    return ropescope::readNpy(path(name));
  };
  const ropescope::NpyArray all = run("0:4096", "all.npy");
  ASSERT_EQ(all.shape, (std::vector<std::size_t>{2, 4096, 4096}));
  const std::size_t n = 4096;
  for (const auto& [b, e] : {std::pair<std::size_t, std::size_t>{1000, 1050},
                             {2040, 2060},
                             {3070, 3080},
                             {4090, 4096}}) {
    const ropescope::NpyArray part = run(std::to_string(b) + ":" + std::to_string(e), "part.npy");
    ASSERT_EQ(part.shape, (std::vector<std::size_t>{2, e - b, n}));
    for (std::size_t h = 0; h < 2; ++h)
      for (std::size_t r = b; r < e; ++r)
        for (std::size_t c = 0; c < n; ++c)
          ASSERT_EQ(all.data[(h * n + r) * n + c], part.data[(h * (e - b) + r - b) * n + c])
              << "head " << h << " row " << r << " column " << c;
  }
}
