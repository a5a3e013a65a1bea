// The id budget as text, JSON or CSV (id_budget_report.h).
#include "ropescope/id_budget_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

std::string shownOr(const std::optional<double>& v, const std::string& why) {
  return v ? readableNumber(*v) : "n/a (" + why + ")";
}

json orNull(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string trainedText(const IdBudget& b) {
  return b.trained.known() ? std::to_string(b.trained.tokens) + " (" + b.trained.source + ")"
                           : "n/a (" + b.trained.reason + ")";
}

std::string textReport(const IdBudget& b) {
  std::string s = "id budget of design " + b.design + ": " + std::to_string(b.tokens) + " tokens\n";
  s += "  largest id        " + readableNumber(b.largestId) + " (t " + readableNumber(b.maxId[0]) +
       ", h " + readableNumber(b.maxId[1]) + ", w " + readableNumber(b.maxId[2]) + ")\n";
  s += "  ids per token     " + readableNumber(b.growth) + " ((largest id + 1) / tokens)\n";
  s += "  rope_deltas       " + readableNumber(b.ropeDelta) + " (largest id + 1 - tokens)\n";
  s += "  trained length    " + trainedText(b) + "\n";
  s += "\n  axis   min id      max id      distance    / trained   pairs  outside  share\n";
  for (const AxisBudget& a : b.axes) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-6s %-11s %-11s %-11s %-11s %-6d %-8s %s\n",
                  axisName(a.axis), readableNumber(a.minId).c_str(),
                  readableNumber(a.maxId).c_str(), readableNumber(a.distance).c_str(),
                  a.ratio ? readableNumber(*a.ratio).c_str() : "n/a", a.pairs,
                  a.share ? std::to_string(a.outsidePairs.size()).c_str() : "n/a",
                  a.share ? readableNumber(*a.share).c_str() : "n/a");
    s += line;
  }
  for (const AxisBudget& a : b.axes)
    if (!a.share && b.trained.known())
      s += "  " + std::string(axisName(a.axis)) + ": share n/a (" + a.shareUndefined + ")\n";
  s += "  (outside: pairs whose angle at the distance passes the largest angle seen in training\n"
       "   and that never turned a whole period in training; docs/math.md, \"The id budget\")\n\n";
  s += "  axis   discrimination bound  distance within  full-period pairs  critical dim\n";
  for (const AxisBudget& a : b.axes) {
    char line[200];
    std::snprintf(
        line, sizeof line, "  %-6s %-21s %-15s %-18s %s\n", axisName(a.axis),
        a.discrimination.distance ? std::to_string(*a.discrimination.distance).c_str() : "n/a",
        a.withinBound ? (*a.withinBound ? "yes" : "no") : "n/a",
        a.criticalDimension ? std::to_string(a.fullPeriodPairs.size()).c_str() : "n/a",
        a.criticalDimension ? std::to_string(*a.criticalDimension).c_str() : "n/a");
    s += line;
  }
  for (const AxisBudget& a : b.axes)
    if (!a.discrimination.distance)
      s += "  " + std::string(axisName(a.axis)) + ": bound n/a (" + a.discrimination.undefined +
           ")\n";
  for (const AxisBudget& a : b.axes)
    if (!a.criticalDimension && b.trained.known())
      s += "  " + std::string(axisName(a.axis)) + ": critical dim n/a (" + a.criticalUndefined +
           ")\n";
  if (!b.trained.known()) s += "  critical dim n/a (" + b.trained.reason + ")\n";
  s += "  (discrimination bound: the first distance where the sum of cos(m theta) over the axis's\n"
       "   pairs turns negative, arXiv 2405.14591; full-period pairs: period within the trained\n"
       "   length, critical dim twice their count, arXiv 2310.05209; docs/math.md)\n\n";
  if (b.switchLength > 0) {
    s += "  dynamic switch    seq_len > " + std::to_string(b.switchLength) + " (" + b.switchFrom +
         "): ";
    s += b.switchToken
             ? "passed at token " + std::to_string(*b.switchToken) + "\n"
             : "not passed (largest id + 1 = " + readableNumber(b.largestId + 1.0) + ")\n";
  } else {
    s += "  dynamic switch    n/a (" + b.trained.reason + ")\n";
  }
  const std::string why = b.trained.reason;
  s += "  YaRN factor       " + shownOr(b.yarnFactorFromIds, why) +
       " from the ids ((largest id + 1) / trained length)\n";
  s += "                    " + shownOr(b.yarnFactorFromTokens, why) +
       " from the tokens (tokens / trained length)\n";
  if (b.ropeFactor) {
    s += "  rope " + b.ropeType + " factor " + readableNumber(*b.ropeFactor);
    if (b.ropeCovers)
      s += ": factor x trained length = " +
           readableNumber(*b.ropeFactor * static_cast<double>(b.trained.tokens)) +
           (*b.ropeCovers ? " >= " : " < ") +
           "largest id + 1 = " + readableNumber(b.largestId + 1.0) +
           (*b.ropeCovers ? " (covers the ids)\n" : " (does not cover the ids)\n");
    else
      s += "\n";
  }
  return s;
}

std::string csvReport(const IdBudget& b) {
  std::string s = "tokens,max_t,max_h,max_w,largest_id\n";
  for (std::size_t i = 0; i < b.curveTokens.size(); ++i)
    s += std::to_string(b.curveTokens[i]) + ',' + csvNumber(b.curveMax[i][0]) + ',' +
         csvNumber(b.curveMax[i][1]) + ',' + csvNumber(b.curveMax[i][2]) + ',' +
         csvNumber(b.curveLargest[i]) + '\n';
  return s;
}

std::string jsonReport(const IdBudget& b) {
  json axes = json::array();
  for (const AxisBudget& a : b.axes) {
    json row = {{"axis", axisName(a.axis)},
                {"min_id", a.minId},
                {"max_id", a.maxId},
                {"distance", a.distance},
                {"ratio", orNull(a.ratio)},
                {"pairs", a.pairs},
                {"outside_pairs", a.share ? json(a.outsidePairs) : json(nullptr)},
                {"share_outside", orNull(a.share)}};
    if (!a.share) row["share_undefined"] = a.shareUndefined;
    row["discrimination_bound"] =
        a.discrimination.distance ? json(*a.discrimination.distance) : json(nullptr);
    if (!a.discrimination.distance) row["discrimination_undefined"] = a.discrimination.undefined;
    row["within_bound"] = a.withinBound ? json(*a.withinBound) : json(nullptr);
    row["full_period_pairs"] = a.criticalDimension ? json(a.fullPeriodPairs) : json(nullptr);
    row["critical_dimension"] = a.criticalDimension ? json(*a.criticalDimension) : json(nullptr);
    if (!a.criticalDimension) row["critical_undefined"] = a.criticalUndefined;
    axes.push_back(std::move(row));
  }
  json curve = {{"tokens", b.curveTokens}};
  for (int a = 0; a < 3; ++a) {
    std::vector<double> col;
    col.reserve(b.curveMax.size());
    for (const Id3& m : b.curveMax) col.push_back(m[a]);
    curve[std::string("max_") + axisName(static_cast<Axis>(a))] = col;
  }
  curve["largest_id"] = b.curveLargest;
  json trained = b.trained.known()
                     ? json{{"tokens", b.trained.tokens}, {"source", b.trained.source}}
                     : json{{"tokens", nullptr}, {"undefined", b.trained.reason}};
  json dynamic = b.switchLength > 0
                     ? json{{"switch_length", b.switchLength},
                            {"from", b.switchFrom},
                            {"switched", b.switchToken.has_value()},
                            {"switch_token", b.switchToken ? json(*b.switchToken) : json(nullptr)}}
                     : json{{"switch_length", nullptr}, {"undefined", b.trained.reason}};
  json yarn = {{"factor_from_ids", orNull(b.yarnFactorFromIds)},
               {"factor_from_tokens", orNull(b.yarnFactorFromTokens)},
               {"convention", "(largest id + 1) / trained length; tokens / trained length"}};
  if (!b.trained.known()) yarn["undefined"] = b.trained.reason;
  json rope = b.ropeType.empty()
                  ? json(nullptr)
                  : json{{"type", b.ropeType},
                         {"factor", orNull(b.ropeFactor)},
                         {"covers", b.ropeCovers ? json(*b.ropeCovers) : json(nullptr)}};
  const json out = {{"design", b.design},
                    {"tokens", b.tokens},
                    {"largest_id", b.largestId},
                    {"max_id", {b.maxId[0], b.maxId[1], b.maxId[2]}},
                    {"min_id", {b.minId[0], b.minId[1], b.minId[2]}},
                    {"rope_deltas", b.ropeDelta},
                    {"ids_per_token", b.growth},
                    {"trained_length", trained},
                    {"axes", axes},
                    {"dynamic", dynamic},
                    {"yarn", yarn},
                    {"rope", rope},
                    {"curve", curve}};
  return out.dump(2) + "\n";
}

}  // namespace

BudgetFormat parseBudgetFormat(const std::string& name) {
  if (name == "text") return BudgetFormat::Text;
  if (name == "json") return BudgetFormat::Json;
  if (name == "csv") return BudgetFormat::Csv;
  throw InputError("--format must be text, json or csv (got \"" + name + "\")", "format");
}

ReportGrid budgetAxisGrid(const IdBudget& b) {
  ReportGrid g;
  for (const AxisBudget& a : b.axes) g.columns.push_back(axisName(a.axis));
  const auto line = [&](std::string name, const auto& cellOf) {
    GridLine l;
    l.name = std::move(name);
    for (const AxisBudget& a : b.axes) l.cells.push_back(cellOf(a));
    g.lines.push_back(std::move(l));
  };
  line("largest distance", [](const AxisBudget& a) {
    return gridValue(readableNumber(a.distance),
                     "max id " + readableNumber(a.maxId) + " - min id " + readableNumber(a.minId));
  });
  line("trained length", [&](const AxisBudget&) {
    return b.trained.known() ? gridValue(std::to_string(b.trained.tokens), b.trained.source)
                             : gridUndefined(b.trained.reason);
  });
  line("distance / trained", [&](const AxisBudget& a) {
    return a.ratio ? gridValue(readableNumber(*a.ratio)) : gridUndefined(b.trained.reason);
  });
  line("share outside trained", [&](const AxisBudget& a) {
    if (!a.share) return gridUndefined(b.trained.known() ? a.shareUndefined : b.trained.reason);
    return gridValue(readableNumber(*a.share),
                     std::to_string(a.outsidePairs.size()) + " of " + std::to_string(a.pairs) +
                         " pairs turn past the largest angle seen in training");
  });
  line("discrimination bound", [](const AxisBudget& a) {
    if (!a.discrimination.distance) return gridUndefined(a.discrimination.undefined);
    return gridValue(std::to_string(*a.discrimination.distance),
                     "the first distance where the sum of cos(m theta) over the axis's pairs "
                     "turns negative (arXiv 2405.14591)");
  });
  line("distance within bound", [](const AxisBudget& a) {
    if (!a.withinBound)
      return gridUndefined(a.discrimination.undefined.empty()
                               ? "the distance is past the bound's search limit"
                               : a.discrimination.undefined);
    return gridValue(*a.withinBound ? "yes" : "no");
  });
  return g;
}

ReportGrid budgetTotalsGrid(const IdBudget& b) {
  ReportGrid g;
  g.columns = {"value"};
  const auto line = [&](std::string name, GridCell cell) {
    g.lines.push_back({std::move(name), {std::move(cell)}, false});
  };
  const std::string why = b.trained.reason;
  line("tokens", gridValue(std::to_string(b.tokens)));
  line("largest id",
       gridValue(readableNumber(b.largestId), "t " + readableNumber(b.maxId[0]) + ", h " +
                                                  readableNumber(b.maxId[1]) + ", w " +
                                                  readableNumber(b.maxId[2])));
  line("rope_deltas", gridValue(readableNumber(b.ropeDelta), "largest id + 1 - tokens"));
  line("ids per token", gridValue(readableNumber(b.growth), "(largest id + 1) / tokens"));
  line("trained length", b.trained.known()
                             ? gridValue(std::to_string(b.trained.tokens), b.trained.source)
                             : gridUndefined(why));
  line("YaRN factor (ids)", b.yarnFactorFromIds ? gridValue(readableNumber(*b.yarnFactorFromIds),
                                                            "(largest id + 1) / trained length")
                                                : gridUndefined(why));
  line("YaRN factor (tokens)",
       b.yarnFactorFromTokens
           ? gridValue(readableNumber(*b.yarnFactorFromTokens), "tokens / trained length")
           : gridUndefined(why));
  if (!b.ropeFactor)
    line("rope factor",
         gridUndefined(b.ropeType.empty() ? "the scene has no rope scaling"
                                          : "rope " + b.ropeType + " has no factor"));
  else if (!b.ropeCovers)
    line("rope factor", gridValue(b.ropeType + " " + readableNumber(*b.ropeFactor),
                                  "whether it covers the ids needs the trained length: " + why));
  else
    line("rope factor",
         gridValue(b.ropeType + " " + readableNumber(*b.ropeFactor) +
                       (*b.ropeCovers ? " (covers the ids)" : " (does not cover the ids)"),
                   "factor x trained length = " +
                       readableNumber(*b.ropeFactor * static_cast<double>(b.trained.tokens)) +
                       ", largest id + 1 = " + readableNumber(b.largestId + 1.0)));
  if (b.switchLength <= 0)
    line("dynamic switch", gridUndefined(why));
  else
    line("dynamic switch",
         gridValue(b.switchToken ? "at token " + std::to_string(*b.switchToken) : "not passed",
                   "seq_len > " + std::to_string(b.switchLength) + " (" + b.switchFrom + ")"));
  return g;
}

std::string idBudgetReport(const IdBudget& budget, BudgetFormat format) {
  switch (format) {
    case BudgetFormat::Json:
      return jsonReport(budget);
    case BudgetFormat::Csv:
      return csvReport(budget);
    case BudgetFormat::Text:
      break;
  }
  return textReport(budget);
}

}  // namespace ropescope
