// The q/k usage as text, JSON or CSV (qk_usage_report.h).
#include "ropescope/qk_usage_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/table_report.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

// A head's share of each pair in its own sum of norm products; empty when the sum is 0.
std::vector<double> qkuHeadShares(const std::vector<double>& product) {
  double total = 0.0;
  for (double v : product) total += v;
  std::vector<double> out;
  if (total > 0.0)
    for (double v : product) out.push_back(v / total);
  return out;
}

// `text` without the spaces a table's last cell left at its end.
std::string qkuTrimmed(std::string text) {
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

const char* qkuModalityWord(Modality m) {
  return m == Modality::Image ? "image" : m == Modality::Video ? "video" : modalityName(m);
}

std::string qkuHeader(const Scene& scene, const QkUsage& u) {
  return "q/k usage of design " + scene.design + ", plan " + scene.frequency.plan + ": " +
         countOf(static_cast<long long>(u.tokens), "token") + ", " + countOf(u.qHeads, "q head") +
         ", " + countOf(u.kvHeads, "k head") + ", head dim " + std::to_string(u.headDim) + ", " +
         countOf(u.pairs.size(), "rotary pair") + " (" + pairLayoutName(u.pairs.layout) + ")\n";
}

std::string qkuTextReport(const Scene& scene, const QkUsage& u) {
  std::string s = qkuHeader(scene, u);
  s +=
      "\nnorms of each rotary pair's 2-vector, mean over the tokens and the q heads (before RoPE;\n"
      "a rotation keeps them):\n";
  s += "  pair  axis   theta         dims       |q|          |k|          |q||k|       share\n";
  const int pairs = u.pairs.size();
  for (int p = 0; p < pairs; ++p) {
    const std::size_t i = std::size_t(p);
    const PairDims d = pairDims(u.pairs.layout, p, pairs);
    char line[200];
    std::snprintf(line, sizeof line, "  %-5d %-6s %-13s %-10s %-12s %-12s %-12s %s\n", p,
                  axisName(u.pairs.axis[i]), readableNumber(u.pairs.theta[i]).c_str(),
                  (std::to_string(d.first) + "," + std::to_string(d.second)).c_str(),
                  readableNumber(u.meanQNorm[i]).c_str(), readableNumber(u.meanKNorm[i]).c_str(),
                  readableNumber(u.meanProduct[i]).c_str(),
                  u.share.empty() ? "n/a" : readableNumber(u.share[i], 4).c_str());
    s += line;
  }
  if (u.share.empty()) s += "  share n/a (" + u.shareUndefined + ")\n";
  s += "  (|q||k|: the mean over query and key tokens of ||q_p(m)|| ||k_p(n)||, the bound on\n"
       "   pair p's part of a logit; share: of the sum over pairs; arXiv 2410.06205)\n";

  s += "\nmost used pairs per head (share of the head's sum of |q||k|):\n";
  for (int h = 0; h < u.qHeads; ++h) {
    const std::vector<double> share = qkuHeadShares(u.product[std::size_t(h)]);
    s += "  head " + std::to_string(h) + ":";
    if (share.empty()) {
      s += " n/a (every pair's norm product is 0)\n";
      continue;
    }
    std::vector<int> order(static_cast<std::size_t>(pairs));
    for (int p = 0; p < pairs; ++p) order[std::size_t(p)] = p;
    std::stable_sort(order.begin(), order.end(), [&share](int a, int b) {
      return share[std::size_t(a)] > share[std::size_t(b)];
    });
    for (int k = 0; k < std::min(pairs, 3); ++k) {
      const std::size_t p = std::size_t(order[std::size_t(k)]);
      s += std::string(k ? "," : "") + " pair " + std::to_string(p) + " (" +
           axisName(u.pairs.axis[p]) + ", " + readableNumber(share[p], 3) + ")";
    }
    s += "\n";
  }

  s += "\nattention sinks: mean causal attention on a token over the query rows that see it\n"
       "(RoPE at the scene's ids, as `ropescope attention --causal --softmax`; arXiv 2410.10781)\n";
  s += "  head   ";
  std::vector<std::string> names;
  for (const SinkTarget& t : u.targets)
    names.push_back(t.name + " (token " + std::to_string(t.token) + ")");
  std::vector<std::size_t> width;
  for (const std::string& n : names) width.push_back(std::max<std::size_t>(n.size() + 2, 12));
  const auto cell = [](const std::string& text, std::size_t w) {
    return text + std::string(w > text.size() ? w - text.size() : 1, ' ');
  };
  for (std::size_t j = 0; j < names.size(); ++j) s += cell(names[j], width[j]);
  if (!u.picturesUndefined.empty()) s += "pictures";
  s = qkuTrimmed(s) + "\n";
  const auto row = [&](const std::string& label, const std::vector<double>& values) {
    std::string line = "  " + cell(label, 7);
    for (std::size_t j = 0; j < values.size(); ++j)
      line += cell(readableNumber(values[j], 4), width[j]);
    if (!u.picturesUndefined.empty()) line += "n/a";
    return qkuTrimmed(line) + "\n";
  };
  for (int h = 0; h < u.qHeads; ++h) s += row(std::to_string(h), u.sink[std::size_t(h)]);
  s += row("mean", u.meanSink);
  std::string above = "  " + cell("> " + readableNumber(kSinkThreshold), 7);
  for (std::size_t j = 0; j < u.sinkHeads.size(); ++j)
    above += cell(std::to_string(u.sinkHeads[j]) + " of " + std::to_string(u.qHeads), width[j]);
  s += qkuTrimmed(above) + "\n";
  if (!u.picturesUndefined.empty()) s += "  pictures: n/a (" + u.picturesUndefined + ")\n";
  s += "  (> " + readableNumber(kSinkThreshold) +
       ": heads whose mean attention on the token passes the sink threshold of arXiv "
       "2410.10781)\n";
  return s;
}

json qkuOrNull(const std::vector<double>& v, std::size_t i) {
  return i < v.size() ? json(v[i]) : json(nullptr);
}

std::string qkuJsonReport(const Scene& scene, const QkUsage& u) {
  const int pairs = u.pairs.size();
  json pairRows = json::array();
  for (int p = 0; p < pairs; ++p) {
    const std::size_t i = std::size_t(p);
    const PairDims d = pairDims(u.pairs.layout, p, pairs);
    pairRows.push_back({{"pair", p},
                        {"axis", axisName(u.pairs.axis[i])},
                        {"theta", u.pairs.theta[i]},
                        {"dims", {d.first, d.second}},
                        {"q_norm", u.meanQNorm[i]},
                        {"k_norm", u.meanKNorm[i]},
                        {"norm_product", u.meanProduct[i]},
                        {"share", qkuOrNull(u.share, i)}});
  }
  json heads = json::array();
  const int group = u.qHeads / u.kvHeads;
  for (int h = 0; h < u.qHeads; ++h) {
    const std::size_t i = std::size_t(h);
    heads.push_back({{"head", h},
                     {"kv_head", h / group},
                     {"q_norm", u.qNorm[i]},
                     {"k_norm", u.kNorm[i]},
                     {"norm_product", u.product[i]},
                     {"sink", u.sink[i]}});
  }
  json targets = json::array();
  for (const SinkTarget& t : u.targets)
    targets.push_back({{"name", t.name},
                       {"token", t.token},
                       {"segment", t.segment},
                       {"modality", qkuModalityWord(t.modality)}});
  json sinks = {{"convention",
                 "mean over query rows r >= token of the causal softmax P[r, token], RoPE at the "
                 "scene's ids"},
                {"threshold", kSinkThreshold},
                {"targets", targets},
                {"mean", u.meanSink},
                {"heads_above_threshold", u.sinkHeads}};
  if (!u.picturesUndefined.empty()) sinks["pictures_undefined"] = u.picturesUndefined;
  json out = {{"design", scene.design},
              {"plan", scene.frequency.plan},
              {"tokens", u.tokens},
              {"q_heads", u.qHeads},
              {"kv_heads", u.kvHeads},
              {"head_dim", u.headDim},
              {"rotary_dim", 2 * pairs},
              {"pair_layout", pairLayoutName(u.pairs.layout)},
              {"attention_factor", u.pairs.attentionFactor},
              {"norm_convention",
               "per pair p the mean over tokens of the 2-vector norm before RoPE (a rotation "
               "keeps it); norm_product = q_norm * k_norm, the mean over query and key tokens "
               "of ||q_p(m)|| ||k_p(n)||; share = norm_product / its sum over pairs"},
              {"pairs", pairRows}};
  if (u.share.empty()) out["share_undefined"] = u.shareUndefined;
  out["heads"] = heads;
  out["sinks"] = sinks;
  return out.dump(2) + "\n";
}

std::string qkuCsvReport(const QkUsage& u) {
  Table t;
  t.columns = {"head",  "kv_head", "pair",   "axis",         "theta", "dim_a",
               "dim_b", "q_norm",  "k_norm", "norm_product", "share"};
  const int pairs = u.pairs.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto add = [&](TableCell head, TableCell kv, const std::vector<double>& q,
                       const std::vector<double>& k, const std::vector<double>& product,
                       const std::vector<double>& share) {
    for (int p = 0; p < pairs; ++p) {
      const std::size_t i = std::size_t(p);
      const PairDims d = pairDims(u.pairs.layout, p, pairs);
      t.rows.push_back({head, kv, (long long)p, std::string(axisName(u.pairs.axis[i])),
                        u.pairs.theta[i], (long long)d.first, (long long)d.second, q[i], k[i],
                        product[i], share.empty() ? nan : share[i]});
    }
  };
  const int group = u.qHeads / u.kvHeads;
  for (int h = 0; h < u.qHeads; ++h) {
    const std::size_t i = std::size_t(h);
    add((long long)h, (long long)(h / group), u.qNorm[i], u.kNorm[i], u.product[i],
        qkuHeadShares(u.product[i]));
  }
  add(std::string("mean"), nan, u.meanQNorm, u.meanKNorm, u.meanProduct, u.share);
  return tableReport(t, TableFormat::Csv);
}

}  // namespace

QkUsageFormat parseQkUsageFormat(const std::string& name) {
  if (name == "text") return QkUsageFormat::Text;
  if (name == "json") return QkUsageFormat::Json;
  if (name == "csv") return QkUsageFormat::Csv;
  throw InputError("--format must be text, json or csv (got \"" + name + "\")", "format");
}

std::string qkUsageReport(const Scene& scene, const QkUsage& usage, QkUsageFormat format) {
  switch (format) {
    case QkUsageFormat::Json:
      return qkuJsonReport(scene, usage);
    case QkUsageFormat::Csv:
      return qkuCsvReport(usage);
    case QkUsageFormat::Text:
      break;
  }
  return qkuTextReport(scene, usage);
}

}  // namespace ropescope
