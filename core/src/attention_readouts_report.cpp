// The positional read-outs as text, JSON or CSV (attention_readouts_report.h).
#include "ropescope/attention_readouts_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/table_report.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

// Points of the fading curve the text shows (first and last among them); CSV and JSON hold all.
constexpr std::size_t kTextCurvePoints = 12;

std::string aroSource(const QkSourceSpec& s) {
  switch (s.kind) {
    case QkSourceSpec::Kind::Identical:
      return "identical q/k (position alone)";
    case QkSourceSpec::Kind::Random:
      return "random q/k, seed " + std::to_string(s.seed);
    case QkSourceSpec::Kind::Files:
      break;
  }
  return "q/k from " + s.qPath + " and " + s.kPath;
}

const char* aroModality(Modality m) {
  return m == Modality::Video ? "video" : "image";
}

std::string aroNumber(const std::optional<double>& v) {
  return v ? readableNumber(*v, 4) : std::string("n/a");
}

std::string aroGrid(const PictureReadout& p) {
  std::string g = std::to_string(p.rows) + "x" + std::to_string(p.cols);
  if (p.frames == 1) return g;
  // A video's frames, or a tiled picture's tiles (InternVL): each has its own grid.
  return std::to_string(p.frames) + (p.modality == Modality::Video ? " frames of " : " tiles of ") +
         g;
}

std::string aroTextReport(const Scene& scene, const QkSourceSpec& source,
                          const AttentionReadouts& r) {
  std::string s = "positional read-outs of design " + scene.design + ", plan " +
                  scene.frequency.plan + ": " + countOf((long long)r.tokens, "token") + ", " +
                  countOf(r.heads, "head") + ", " + aroSource(source) +
                  "\n(causal softmax with RoPE at the scene's ids, mean over heads; "
                  "docs/user/attention.md#positional-read-outs)\n";
  s += "\nvisual fading: the share of each text token's attention on the visual tokens, for the "
       "text\nafter the last picture\n";
  if (!r.fadingUndefined.empty()) {
    s += "  n/a (" + r.fadingUndefined + ")\n";
  } else {
    const std::size_t m = r.fadingTokens.size();
    const std::size_t shown = std::min(m, kTextCurvePoints);
    s += "  text token   token   visual share   uniform\n";
    std::size_t last = m;
    for (std::size_t i = 0; i < shown; ++i) {
      const std::size_t j = shown == 1 ? 0 : i * (m - 1) / (shown - 1);
      if (j == last) continue;
      last = j;
      char line[120];
      std::snprintf(line, sizeof line, "  %-12zu %-7zu %-14s %s\n", j + 1, r.fadingTokens[j],
                    readableNumber(r.fading[j], 4).c_str(),
                    readableNumber(r.fadingUniform[j], 4).c_str());
      s += line;
    }
    if (shown < m)
      s += "  (" + std::to_string(shown) + " of " + std::to_string(m) +
           " points; --format csv gives every one)\n";
  }
  s += "\npictures: where the text after each picture attends inside it (shares of its mass; "
       "uniform:\nthe share if attention were even over its tokens)\n";
  if (!r.picturesUndefined.empty()) s += "  n/a (" + r.picturesUndefined + ")\n";
  for (const PictureReadout& p : r.pictures) {
    s += "  " + p.name + " (" + aroModality(p.modality) + " " + aroGrid(p) + ", tokens " +
         std::to_string(p.firstToken) + ".." + std::to_string(p.lastToken) + ", " +
         std::to_string(p.queries) + (p.queries == 1 ? " text query" : " text queries") + ")";
    if (!p.undefined.empty()) {
      s += ": n/a (" + p.undefined + ")\n";
      continue;
    }
    s += ": mass " + readableNumber(p.mass, 4) + "\n";
    char line[200];
    std::snprintf(
        line, sizeof line,
        "    %-12s %-10s %s\n    %-12s %-10s %s\n    %-12s %-10s %s\n    %-12s %-10s %s\n",
        "top-left", readableNumber(p.topLeft, 4).c_str(),
        ("uniform " + readableNumber(p.uniformTopLeft, 4)).c_str(), "top row",
        readableNumber(p.topRow, 4).c_str(),
        ("uniform " + readableNumber(p.uniformTopRow, 4)).c_str(), "left column",
        readableNumber(p.leftColumn, 4).c_str(),
        ("uniform " + readableNumber(p.uniformLeftColumn, 4)).c_str(), "border",
        readableNumber(p.border, 4).c_str(),
        ("uniform " + readableNumber(p.uniformBorder, 4)).c_str());
    s += line;
    s += "    centre of mass: row " + aroNumber(p.centreRow) + ", col " + aroNumber(p.centreCol) +
         " (0 top/left, 1 bottom/right" +
         (p.rows == 1 || p.cols == 1 ? "; n/a: one row or col" : "") + ")\n";
    s += "    row shares:";
    for (double v : p.rowShare) s += " " + readableNumber(v, 3);
    s += "\n    row trend: " +
         (p.rowSlope ? readableNumber(*p.rowSlope, 4) + " per row (uniform 0)"
                     : std::string("n/a (the picture has one row)")) +
         "\n";
  }
  return s;
}

json aroOptional(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string aroJsonReport(const Scene& scene, const QkSourceSpec& source,
                          const AttentionReadouts& r) {
  json fading = {{"convention",
                  "per text token r after the last visual token: the sum over visual tokens k "
                  "< r of the causal softmax P_h[r, k]; visual_share is the mean over heads"},
                 {"tokens", r.fadingTokens}};
  if (r.fadingUndefined.empty()) {
    fading["visual_share"] = r.fading;
    fading["uniform"] = r.fadingUniform;
    fading["heads"] = r.fadingHead;
  } else {
    fading["visual_share"] = nullptr;
    fading["undefined"] = r.fadingUndefined;
  }
  json pictures = json::array();
  for (const PictureReadout& p : r.pictures) {
    json j = {{"name", p.name},
              {"segment", p.segment},
              {"modality", aroModality(p.modality)},
              {"first_token", p.firstToken},
              {"last_token", p.lastToken},
              {"frames", p.frames},
              {"rows", p.rows},
              {"cols", p.cols},
              {"queries", p.queries},
              {"uniform",
               {{"top_left", p.uniformTopLeft},
                {"top_row", p.uniformTopRow},
                {"left_column", p.uniformLeftColumn},
                {"border", p.uniformBorder}}}};
    const bool ok = p.undefined.empty();
    if (!ok) j["undefined"] = p.undefined;
    const auto v = [ok](double x) { return ok ? json(x) : json(nullptr); };
    j["mass"] = v(p.mass);
    j["top_left"] = v(p.topLeft);
    j["top_row"] = v(p.topRow);
    j["left_column"] = v(p.leftColumn);
    j["border"] = v(p.border);
    j["centre_row"] = aroOptional(p.centreRow);
    j["centre_col"] = aroOptional(p.centreCol);
    j["row_share"] = ok ? json(p.rowShare) : json(nullptr);
    j["row_slope"] = aroOptional(p.rowSlope);
    pictures.push_back(j);
  }
  json out = {{"design", scene.design},
              {"plan", scene.frequency.plan},
              {"tokens", r.tokens},
              {"heads", r.heads},
              {"qk", source.kind == QkSourceSpec::Kind::Identical ? "identical"
                     : source.kind == QkSourceSpec::Kind::Random  ? "random"
                                                                  : "files"},
              {"fading", fading},
              {"pictures", pictures}};
  if (!r.picturesUndefined.empty()) out["pictures_undefined"] = r.picturesUndefined;
  return out.dump(2) + "\n";
}

std::string aroCsvReport(const AttentionReadouts& r) {
  Table t;
  t.columns = {"text_token", "token", "visual_share", "uniform"};
  for (int h = 0; h < r.heads; ++h) t.columns.push_back("head_" + std::to_string(h));
  if (r.fadingUndefined.empty())
    for (std::size_t i = 0; i < r.fadingTokens.size(); ++i) {
      std::vector<TableCell> row = {(long long)(i + 1), (long long)r.fadingTokens[i], r.fading[i],
                                    r.fadingUniform[i]};
      for (const auto& head : r.fadingHead) row.push_back(head[i]);
      t.rows.push_back(std::move(row));
    }
  return tableReport(t, TableFormat::Csv);
}

}  // namespace

ReadoutsFormat parseReadoutsFormat(const std::string& name) {
  if (name == "text") return ReadoutsFormat::Text;
  if (name == "json") return ReadoutsFormat::Json;
  if (name == "csv") return ReadoutsFormat::Csv;
  throw InputError("--format must be text, json or csv with --readouts (got \"" + name + "\")",
                   "format");
}

std::string attentionReadoutsReport(const Scene& scene, const QkSourceSpec& source,
                                    const AttentionReadouts& readouts, ReadoutsFormat format) {
  switch (format) {
    case ReadoutsFormat::Json:
      return aroJsonReport(scene, source, readouts);
    case ReadoutsFormat::Csv:
      return aroCsvReport(readouts);
    case ReadoutsFormat::Text:
      break;
  }
  return aroTextReport(scene, source, readouts);
}

}  // namespace ropescope
