// q/k usage (qk_usage.h): the pair norms against a direct double recomputation and a closed form,
// the sinks against a brute-force causal softmax attention in long double, the reports' formats
// and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ropescope/attention.h"
#include "ropescope/errors.h"
#include "ropescope/qk_usage.h"
#include "ropescope/qk_usage_report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {
namespace {

Scene qkuScene(const char* layout, int headDim, PairLayout pairs = PairLayout::NeoX) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(layout);
  s.design = "mrope";
  s.frequency.plan = "mrope";
  s.frequency.sections = {};
  s.frequency.rotary.headDim = headDim;
  s.frequency.rotary.rotaryDim = 0;
  s.frequency.rotary.pairs = pairs;
  s.frequency.rotary.base = 10000.0;
  return s;
}

// sceneQkUsage over tensors made by `make` (which must be given the layout's tokens and the
// plan's head dim).
QkUsage qkuRun(const Scene& s, const std::function<QkTensors(std::size_t, int)>& make) {
  return sceneQkUsage(s, make, 1);
}

// The mean over tokens of ||x_p|| in long double, straight from the dims pairDims names.
long double qkuDirectNorm(const std::vector<float>& x, int head, std::size_t n, int d, int pair,
                          PairLayout layout) {
  const PairDims dims = pairDims(layout, pair, d / 2);
  long double sum = 0.0L;
  for (std::size_t t = 0; t < n; ++t) {
    const float* row = x.data() + (std::size_t(head) * n + t) * std::size_t(d);
    const long double a = row[dims.first], b = row[dims.second];
    sum += std::sqrt(a * a + b * b);
  }
  return sum / (long double)n;
}

TEST(QkUsage, PairNormsMatchADirectRecomputation) {
  for (PairLayout layout : {PairLayout::NeoX, PairLayout::GptJ}) {
    const Scene s = qkuScene("t3,i2x2,t3", 16, layout);
    QkTensors kept;
    // 4 q heads reading 2 k heads (grouped-query attention: q head h reads k head h / 2).
    const QkUsage u = qkuRun(s, [&kept](std::size_t n, int d) {
      EXPECT_EQ(n, 10u);
      EXPECT_EQ(d, 16);
      kept = randomQk(4, 2, n, d, 11);
      return kept;
    });
    ASSERT_EQ(u.qHeads, 4);
    ASSERT_EQ(u.kvHeads, 2);
    ASSERT_EQ(u.pairs.size(), 8);
    for (int h = 0; h < 4; ++h)
      for (int p = 0; p < 8; ++p) {
        const long double q = qkuDirectNorm(kept.q, h, 10, 16, p, layout);
        const long double k = qkuDirectNorm(kept.k, h / 2, 10, 16, p, layout);
        EXPECT_NEAR(u.qNorm[h][p], double(q), 1e-12 * double(q));
        EXPECT_NEAR(u.kNorm[h][p], double(k), 1e-12 * double(k));
        EXPECT_NEAR(u.product[h][p], double(q * k), 1e-12 * double(q * k));
      }
    double shareSum = 0.0;
    for (int p = 0; p < 8; ++p) {
      double mean = 0.0;
      for (int h = 0; h < 4; ++h) mean += u.product[h][p] / 4;
      EXPECT_NEAR(u.meanProduct[p], mean, 1e-12 * mean);
      shareSum += u.share[p];
    }
    EXPECT_NEAR(shareSum, 1.0, 1e-12);
  }
}

TEST(QkUsage, ConstantPairsGiveTheClosedForm) {
  // q's pair p is (3, 4) (p + 1) on every token, k's (0, p + 1): ||q_p|| = 5 (p + 1),
  // ||k_p|| = p + 1, the product 5 (p + 1)^2 and its share (p + 1)^2 / sum (1, 4, 9, 16) = 30.
  const Scene s = qkuScene("t2,i2x2,t2", 8);
  const QkUsage u = qkuRun(s, [](std::size_t n, int d) {
    QkTensors t;
    t.tokens = n;
    t.headDim = d;
    t.q.assign(n * std::size_t(d), 0.0f);
    t.k.assign(n * std::size_t(d), 0.0f);
    for (std::size_t i = 0; i < n; ++i)
      for (int p = 0; p < d / 2; ++p) {
        t.q[i * std::size_t(d) + std::size_t(p)] = 3.0f * float(p + 1);
        t.q[i * std::size_t(d) + std::size_t(p + d / 2)] = 4.0f * float(p + 1);
        t.k[i * std::size_t(d) + std::size_t(p + d / 2)] = float(p + 1);
      }
    return t;
  });
  for (int p = 0; p < 4; ++p) {
    const double w = p + 1;
    EXPECT_DOUBLE_EQ(u.meanQNorm[p], 5 * w);
    EXPECT_DOUBLE_EQ(u.meanKNorm[p], w);
    EXPECT_DOUBLE_EQ(u.meanProduct[p], 5 * w * w);
    EXPECT_DOUBLE_EQ(u.share[p], w * w / 30);
  }
  // Every pair's axis and frequency are the plan's.
  const PairTable table = resolvePairs(s.frequency);
  EXPECT_EQ(u.pairs.axis, table.axis);
  EXPECT_EQ(u.pairs.theta, table.theta);
}

// Causal softmax attention straight from the definitions in long double: q and k rotated by
// angle = coordinate(axis_p, id) theta_p on the pair's dims, logits q'.k' / sqrt(d).
std::vector<std::vector<long double>> qkuBruteForce(const QkTensors& qk, const Scene& s, int head) {
  const PositionIds ids = effectiveIds(s);
  const PairTable pairs = resolvePairs(s.frequency);
  const std::size_t n = qk.tokens;
  const int d = qk.headDim, np = pairs.size();
  const auto rotated = [&](const std::vector<float>& x, int h, std::size_t t) {
    std::vector<long double> y(static_cast<std::size_t>(d));
    const float* row = x.data() + (std::size_t(h) * n + t) * std::size_t(d);
    for (int i = 0; i < d; ++i) y[std::size_t(i)] = row[i];
    for (int p = 0; p < np; ++p) {
      const PairDims pd = pairDims(pairs.layout, p, np);
      const long double a = (long double)axisCoordinate(pairs.axis[std::size_t(p)], ids.ids[t]) *
                            (long double)pairs.theta[std::size_t(p)];
      const long double u = row[pd.first], v = row[pd.second];
      y[std::size_t(pd.first)] = u * std::cos(a) - v * std::sin(a);
      y[std::size_t(pd.second)] = v * std::cos(a) + u * std::sin(a);
    }
    return y;
  };
  const int kvHead = head / (qk.qHeads / qk.kvHeads);
  std::vector<std::vector<long double>> p(n, std::vector<long double>(n, 0.0L));
  for (std::size_t r = 0; r < n; ++r) {
    const std::vector<long double> q = rotated(qk.q, head, r);
    std::vector<long double> logit(r + 1);
    long double top = -1e300L;
    for (std::size_t c = 0; c <= r; ++c) {
      const std::vector<long double> k = rotated(qk.k, kvHead, c);
      long double dot = 0.0L;
      for (int i = 0; i < d; ++i) dot += q[std::size_t(i)] * k[std::size_t(i)];
      logit[c] = dot / std::sqrt((long double)d);
      top = std::max(top, logit[c]);
    }
    long double sum = 0.0L;
    for (std::size_t c = 0; c <= r; ++c) sum += std::exp(logit[c] - top);
    for (std::size_t c = 0; c <= r; ++c) p[r][c] = std::exp(logit[c] - top) / sum;
  }
  return p;
}

TEST(QkUsage, SinksMatchABruteForceCausalSoftmax) {
  const Scene s = qkuScene("t3,i2x2,t3", 8);
  QkTensors kept;
  const QkUsage u = qkuRun(s, [&kept](std::size_t n, int d) {
    kept = randomQk(2, 2, n, d, 5);
    for (float& v : kept.q) v *= 2.0f;  // sharper rows than unit normals give
    return kept;
  });
  ASSERT_EQ(u.targets.size(), 2u);
  EXPECT_EQ(u.targets[0].name, "first token");
  EXPECT_EQ(u.targets[0].token, 0u);
  EXPECT_EQ(u.targets[1].name, "picture 1");
  EXPECT_EQ(u.targets[1].token, 3u);
  EXPECT_EQ(u.targets[1].modality, Modality::Image);
  EXPECT_TRUE(u.picturesUndefined.empty());
  ASSERT_EQ(u.sink.size(), 2u);
  for (int h = 0; h < 2; ++h) {
    const auto p = qkuBruteForce(kept, s, h);
    for (std::size_t j = 0; j < u.targets.size(); ++j) {
      const std::size_t c = u.targets[j].token;
      long double sum = 0.0L;
      for (std::size_t r = c; r < 10; ++r) sum += p[r][c];
      const double want = double(sum / (long double)(10 - c));
      EXPECT_NEAR(u.sink[h][j], want, 2e-6) << "head " << h << " target " << j;
    }
  }
  for (std::size_t j = 0; j < 2; ++j) {
    EXPECT_NEAR(u.meanSink[j], (u.sink[0][j] + u.sink[1][j]) / 2, 1e-15);
    EXPECT_EQ(u.sinkHeads[j],
              int(u.sink[0][j] > kSinkThreshold) + int(u.sink[1][j] > kSinkThreshold));
  }
  // Token 0 is every row's key: the first row gives it all its attention, so its mean exceeds
  // 1 / 10; the other rows split theirs.
  EXPECT_GT(u.sink[0][0], 0.1);
}

TEST(QkUsage, EveryVisualSegmentOpensATarget) {
  const Scene s = qkuScene("i2x2,t2,v2x2x2,t1", 8);
  const QkUsage u = qkuRun(s, [](std::size_t n, int d) { return randomQk(1, 1, n, d, 3); });
  ASSERT_EQ(u.targets.size(), 3u);
  EXPECT_EQ(u.targets[1].token, 0u);  // the layout starts with the picture
  EXPECT_EQ(u.targets[2].token, 6u);
  EXPECT_EQ(u.targets[2].modality, Modality::Video);
  EXPECT_EQ(u.targets[2].name, "picture 2");
}

TEST(QkUsage, WithoutAPictureThePictureSinksAreNotAvailable) {
  const Scene s = qkuScene("t6", 8);
  const QkUsage u = qkuRun(s, [](std::size_t n, int d) { return randomQk(2, 2, n, d, 3); });
  ASSERT_EQ(u.targets.size(), 1u);
  EXPECT_EQ(u.picturesUndefined, "the layout has no picture or video");
  const std::string text = qkUsageReport(s, u, QkUsageFormat::Text);
  EXPECT_NE(text.find("pictures: n/a (the layout has no picture or video)"), std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(qkUsageReport(s, u, QkUsageFormat::Json));
  EXPECT_EQ(j["sinks"]["pictures_undefined"], "the layout has no picture or video");
  EXPECT_EQ(j["sinks"]["targets"].size(), 1u);
  EXPECT_EQ(j["heads"][0]["sink"].size(), 1u);
}

TEST(QkUsage, ReportsHoldEveryPairAndHead) {
  const Scene s = qkuScene("t3,i2x2,t3", 8);
  const QkUsage u = qkuRun(s, [](std::size_t n, int d) { return randomQk(2, 1, n, d, 9); });
  const auto j = nlohmann::json::parse(qkUsageReport(s, u, QkUsageFormat::Json));
  EXPECT_EQ(j["tokens"], 10);
  EXPECT_EQ(j["q_heads"], 2);
  EXPECT_EQ(j["kv_heads"], 1);
  ASSERT_EQ(j["pairs"].size(), 4u);
  EXPECT_EQ(j["pairs"][1]["axis"], axisName(u.pairs.axis[1]));
  EXPECT_DOUBLE_EQ(j["pairs"][1]["theta"].get<double>(), u.pairs.theta[1]);
  EXPECT_EQ(j["pairs"][1]["dims"], nlohmann::json::array({1, 5}));
  EXPECT_DOUBLE_EQ(j["pairs"][2]["norm_product"].get<double>(), u.meanProduct[2]);
  EXPECT_EQ(j["heads"][1]["kv_head"], 0);
  EXPECT_DOUBLE_EQ(j["heads"][1]["sink"][1].get<double>(), u.sink[1][1]);
  EXPECT_EQ(j["sinks"]["targets"][1]["name"], "picture 1");
  EXPECT_FALSE(j["sinks"].contains("pictures_undefined"));

  const std::string csv = qkUsageReport(s, u, QkUsageFormat::Csv);
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "head,kv_head,pair,axis,theta,dim_a,dim_b,q_norm,k_norm,norm_product,share");
  int rows = 0, means = 0;
  while (std::getline(lines, line)) {
    ++rows;
    if (line.rfind("mean,,", 0) == 0) ++means;
  }
  EXPECT_EQ(rows, 3 * 4);  // two heads and the mean, four pairs each
  EXPECT_EQ(means, 4);

  const std::string text = qkUsageReport(s, u, QkUsageFormat::Text);
  EXPECT_NE(text.find("picture 1 (token 3)"), std::string::npos) << text;
  EXPECT_NE(text.find("2 q heads, 1 k head, head dim 8, 4 rotary pairs (neox)"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("n/a"), std::string::npos) << text;
}

TEST(QkUsage, RefusesMismatchedInputInOneLine) {
  const Scene s = qkuScene("t3,i2x2,t3", 8);
  const auto message = [&s](std::size_t tokens, int d, int qh, int kh) {
    try {
      qkuRun(s, [=](std::size_t, int) {
        const std::size_t qn = std::size_t(qh) * tokens * std::size_t(d);
        const std::size_t kn = std::size_t(kh) * tokens * std::size_t(d);
        NpyArray q{{std::size_t(qh), tokens, std::size_t(d)}, std::vector<float>(qn, 0.5f), "<f4"};
        NpyArray k{{std::size_t(kh), tokens, std::size_t(d)}, std::vector<float>(kn, 0.5f), "<f4"};
        return qkFromArrays(q, k, 10, 8, "q", "k");
      });
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message(9, 8, 1, 1), "q has 9 tokens (shape (1, 9, 8)) but the layout has 10");
  EXPECT_EQ(message(10, 6, 1, 1),
            "q has head dim 6 (shape (1, 10, 6)) but the plan's head dim is 8 (--head-dim)");
  EXPECT_EQ(message(10, 8, 3, 2), "q has 3 heads, not a multiple of the 2 heads of k");
  EXPECT_EQ(message(10, 8, 2, 1), "(no error)");
}

}  // namespace
}  // namespace ropescope
