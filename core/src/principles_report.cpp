// The design-principles verdicts as text or JSON (principles_report.h).
#include "ropescope/principles_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

std::string id3Text(const Id3& v) {
  return "t " + readableNumber(v[0]) + ", h " + readableNumber(v[1]) + ", w " +
         readableNumber(v[2]);
}

json id3Json(const std::optional<Id3>& v) {
  return v ? json{(*v)[0], (*v)[1], (*v)[2]} : json(nullptr);
}

json orNull(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

std::string checkText(const TextPriorCheck& c) {
  if (!c.idDifference) return "n/a (" + c.undefined + ")";
  return std::to_string(c.tokens) + " tokens, ids differ by " + readableNumber(*c.idDifference) +
         ", rotations by a chord of " + readableNumber(*c.rotaryDifference) +
         (c.equal() ? " (equal)" : " (first at token " + std::to_string(*c.firstToken) + ")");
}

json checkJson(const TextPriorCheck& c) {
  json j = {{"tokens", c.tokens},
            {"id_difference", orNull(c.idDifference)},
            {"rotary_difference", orNull(c.rotaryDifference)},
            {"equal", c.idDifference ? json(c.equal()) : json(nullptr)},
            {"first_token", c.firstToken ? json(*c.firstToken) : json(nullptr)}};
  if (!c.idDifference) j["undefined"] = c.undefined;
  return j;
}

std::string rowText(const PrinciplesVerdict& v) {
  std::string s = v.label + " (design " + v.design + ", plan " + v.plan + ")\n";
  const Coherence& c = v.coherence;
  s += "  position coherence   " + std::string(verdictName(c.verdict)) + ": " + c.reason + "\n";
  s += "    overlapping text   " +
       (c.verdict == Verdict::Undefined ? "n/a (" + c.reason + ")"
                                        : std::to_string(c.overlappingText) + " tokens") +
       "\n";
  s += "    modality interval  " +
       (c.smallestInterval ? id3Text(*c.smallestInterval) + " (smallest over blocks)"
                           : "n/a (" + c.intervalUndefined + ")") +
       "\n";
  s += "    id growth          " + readableNumber(c.growth) + " ((largest id + 1) / tokens)\n";
  const FrequencyUse& f = v.frequency;
  s += "  frequency use        " + std::string(verdictName(f.verdict)) + ": " + f.reason + "\n";
  for (const AxisSpectrum& a : f.axes) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "    %-6s pairs %-4d share %-8s lowest %-12s highest %-12s%s\n", axisName(a.axis),
                  a.pairs, a.rotating ? readableNumber(a.share).c_str() : "0",
                  a.lowest ? readableNumber(*a.lowest).c_str() : "n/a",
                  a.highest ? readableNumber(*a.highest).c_str() : "n/a",
                  a.judged ? "" : " (the ids do not use it)");
    s += line;
  }
  if (f.oneIndexShare)
    s += "    one index (t = h = w): every pair turns with it, share " +
         readableNumber(*f.oneIndexShare) + "\n";
  if (f.nopePairs > 0)
    s += "    " + std::to_string(f.nopePairs) + " pairs turn with no axis (frequency 0, NoPE)\n";
  s += "  textual prior        " + std::string(verdictName(v.text.verdict)) + ": " + v.text.reason +
       "\n";
  s += "    the scene's text   " + checkText(v.text.sceneText) + "\n";
  s += "    text only          " + checkText(v.text.textOnly) + "\n";
  return s;
}

// A principle's verdict line's cell: its mark, the number behind it, the reason as its note
// (an undefined verdict: n/a with the reason).
GridCell verdictCell(Verdict v, const std::string& number, const std::string& reason) {
  // A verdict with no number behind it (principlesCells' n/a) reads as the verdict itself.
  GridCell c = v == Verdict::Undefined
                   ? gridUndefined(reason)
                   : gridValue(number == "n/a" ? verdictName(v) : number, reason);
  c.verdict = verdictName(v);
  return c;
}

GridCell checkCell(const TextPriorCheck& c) {
  if (!c.idDifference) return gridUndefined(c.undefined);
  return gridValue(
      "chord " + readableNumber(*c.rotaryDifference) + (c.equal() ? " (equal)" : " (differs)"),
      checkText(c));
}

std::string textReport(const std::vector<PrinciplesVerdict>& rows) {
  std::string s;
  for (const PrinciplesVerdict& v : rows) s += rowText(v) + "\n";
  if (rows.size() > 1) {
    char line[160];
    std::snprintf(line, sizeof line, "%-22s %-10s %-10s %-10s\n", "", "coherence", "frequency",
                  "text prior");
    s += line;
    for (const PrinciplesVerdict& v : rows) {
      std::snprintf(line, sizeof line, "%-22s %-10s %-10s %-10s\n", v.label.c_str(),
                    verdictName(v.coherence.verdict), verdictName(v.frequency.verdict),
                    verdictName(v.text.verdict));
      s += line;
    }
  }
  return s;
}

json rowJson(const PrinciplesVerdict& v) {
  const Coherence& c = v.coherence;
  json blocks = json::array();
  for (const BlockInterval& b : c.blocks) {
    json j = {{"segment", b.segment},
              {"first_token", b.firstToken},
              {"largest_id", {b.largest[0], b.largest[1], b.largest[2]}},
              {"next_text", b.nextText ? json(*b.nextText) : json(nullptr)},
              {"interval", id3Json(b.interval)}};
    if (!b.interval) j["interval_undefined"] = b.undefined;
    blocks.push_back(std::move(j));
  }
  json overlap = c.overlap ? json{{"text_token", c.overlap->textToken},
                                  {"visual_token", c.overlap->visualToken},
                                  {"axis", axisName(c.overlap->axis)},
                                  {"text_id", c.overlap->textId},
                                  {"visual_id", c.overlap->visualId}}
                           : json(nullptr);
  json coherence = {{"verdict", verdictName(c.verdict)},
                    {"reason", c.reason},
                    {"overlap", overlap},
                    {"overlapping_text",
                     c.verdict == Verdict::Undefined ? json(nullptr) : json(c.overlappingText)},
                    {"smallest_interval", id3Json(c.smallestInterval)},
                    {"blocks", blocks},
                    {"id_growth", c.growth}};
  if (!c.smallestInterval) coherence["interval_undefined"] = c.intervalUndefined;
  const FrequencyUse& f = v.frequency;
  json axes = json::array();
  for (const AxisSpectrum& a : f.axes)
    axes.push_back({{"axis", axisName(a.axis)},
                    {"pairs", a.pairs},
                    {"rotating", a.rotating},
                    {"share", a.share},
                    {"lowest", orNull(a.lowest)},
                    {"highest", orNull(a.highest)},
                    {"judged", a.judged},
                    {"thetas", a.thetas}});
  json frequency = {{"verdict", verdictName(f.verdict)},
                    {"reason", f.reason},
                    {"full_share", kFullSpectrumShare},
                    {"plan_lowest", f.planLowest},
                    {"plan_highest", f.planHighest},
                    {"heads", f.heads},
                    {"nope_pairs", f.nopePairs},
                    {"one_index_share", orNull(f.oneIndexShare)},
                    {"axes", axes}};
  json text = {{"verdict", verdictName(v.text.verdict)},
               {"reason", v.text.reason},
               {"scene_text", checkJson(v.text.sceneText)},
               {"text_only", checkJson(v.text.textOnly)},
               {"tolerance", kTextPriorTolerance}};
  const std::array<std::string, 3> cells = principlesCells(v);
  return {{"label", v.label},       {"cells", {cells[0], cells[1], cells[2]}},
          {"design", v.design},     {"plan", v.plan},
          {"sections", v.sections}, {"coherence", coherence},
          {"frequency", frequency}, {"text_prior", text}};
}

}  // namespace

std::array<std::string, 3> principlesCells(const PrinciplesVerdict& v) {
  std::array<std::string, 3> out;
  const Coherence& c = v.coherence;
  const auto brief = [](double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", v);
    return std::string(text);
  };
  if (c.overlap)
    out[0] = "text " + std::to_string(c.overlap->textToken) + " <= " + axisName(c.overlap->axis) +
             " " + brief(c.overlap->visualId);
  else if (c.smallestInterval)
    out[0] = "interval " + brief((*c.smallestInterval)[0]) + ", " +
             brief((*c.smallestInterval)[1]) + ", " + brief((*c.smallestInterval)[2]);
  else
    out[0] = "n/a";
  const FrequencyUse& f = v.frequency;
  std::optional<double> least;
  for (const AxisSpectrum& a : f.axes)
    if (a.judged) least = least ? std::min(*least, a.share) : a.share;
  char buf[64];
  if (f.oneIndexShare) {
    std::snprintf(buf, sizeof buf, "one index %.2f", *f.oneIndexShare);
    out[1] = buf;
  } else if (least) {
    std::snprintf(buf, sizeof buf, "least share %.2f", *least);
    out[1] = buf;
  } else {
    out[1] = "n/a";
  }
  if (v.text.textOnly.rotaryDifference) {
    std::snprintf(buf, sizeof buf, "chord %.2g", *v.text.textOnly.rotaryDifference);
    out[2] = buf;
  } else {
    out[2] = "n/a";
  }
  return out;
}

PrinciplesFormat parsePrinciplesFormat(const std::string& name) {
  if (name == "text") return PrinciplesFormat::Text;
  if (name == "json") return PrinciplesFormat::Json;
  throw InputError("--format must be text or json (got \"" + name + "\")", "format");
}

PrinciplesRows parsePrinciplesRows(const std::string& name) {
  if (name == "scene") return PrinciplesRows::Scene;
  if (name == "all") return PrinciplesRows::All;
  if (name == "revisiting") return PrinciplesRows::Revisiting;
  throw InputError("--designs must be scene, all or revisiting (got \"" + name + "\")", "designs");
}

std::vector<PrinciplesVerdict> principlesRows(const Scene& scene, PrinciplesRows rows) {
  switch (rows) {
    case PrinciplesRows::All:
      return everyDesignVerdict(scene);
    case PrinciplesRows::Revisiting:
      return revisitingVerdicts(scene);
    case PrinciplesRows::Scene:
      break;
  }
  return {principlesVerdict(scene)};
}

ReportGrid principlesGrid(const std::vector<PrinciplesVerdict>& rows) {
  ReportGrid g;
  for (const PrinciplesVerdict& v : rows) g.columns.push_back(v.label);
  const auto line = [&](std::string name, bool verdict, const auto& cellOf) {
    GridLine l;
    l.name = std::move(name);
    l.verdict = verdict;
    for (const PrinciplesVerdict& v : rows) l.cells.push_back(cellOf(v));
    g.lines.push_back(std::move(l));
  };
  line("position coherence", true, [](const PrinciplesVerdict& v) {
    return verdictCell(v.coherence.verdict, principlesCells(v)[0], v.coherence.reason);
  });
  line("overlapping text", false, [](const PrinciplesVerdict& v) {
    const Coherence& c = v.coherence;
    if (c.verdict == Verdict::Undefined) return gridUndefined(c.reason);
    return gridValue(std::to_string(c.overlappingText) + " tokens",
                     "text tokens at or below the id of an earlier visual token");
  });
  line("modality interval", false, [](const PrinciplesVerdict& v) {
    const Coherence& c = v.coherence;
    if (!c.smallestInterval) return gridUndefined(c.intervalUndefined);
    return gridValue(id3Text(*c.smallestInterval),
                     "the first text id after a visual block minus the block's largest id, "
                     "smallest over the blocks");
  });
  line("id growth", false, [](const PrinciplesVerdict& v) {
    return gridValue(readableNumber(v.coherence.growth), "(largest id + 1) / tokens");
  });
  line("frequency use", true, [](const PrinciplesVerdict& v) {
    return verdictCell(v.frequency.verdict, principlesCells(v)[1], v.frequency.reason);
  });
  // Every axis some row's plan turns pairs with, in the rows' order (t, h, w, h+w-t).
  std::vector<Axis> axes;
  for (const PrinciplesVerdict& v : rows)
    for (const AxisSpectrum& a : v.frequency.axes)
      if (std::find(axes.begin(), axes.end(), a.axis) == axes.end()) axes.push_back(a.axis);
  for (const Axis axis : axes)
    line("share of spectrum, " + std::string(axisName(axis)), false,
         [axis](const PrinciplesVerdict& v) {
           for (const AxisSpectrum& a : v.frequency.axes) {
             if (a.axis != axis) continue;
             if (!a.rotating)
               return gridValue("0", std::to_string(a.pairs) + " pairs, none rotating");
             return gridValue(readableNumber(a.share),
                              std::to_string(a.pairs) + " pairs, lowest " +
                                  readableNumber(*a.lowest) + ", highest " +
                                  readableNumber(*a.highest) + " rad per position" +
                                  (a.judged ? "" : " (the ids do not use the axis)"));
           }
           return gridUndefined("the plan turns no pair with " + std::string(axisName(axis)));
         });
  if (std::any_of(rows.begin(), rows.end(),
                  [](const PrinciplesVerdict& v) { return v.frequency.oneIndexShare; }))
    line("share of spectrum, one index", false, [](const PrinciplesVerdict& v) {
      if (!v.frequency.oneIndexShare)
        return gridUndefined("not a one-index design (t = h = w on every token)");
      return gridValue(readableNumber(*v.frequency.oneIndexShare),
                       "every pair turns with the one index t = h = w");
    });
  line("textual prior", true, [](const PrinciplesVerdict& v) {
    return verdictCell(v.text.verdict, principlesCells(v)[2], v.text.reason);
  });
  line("text prior, the scene's text", false,
       [](const PrinciplesVerdict& v) { return checkCell(v.text.sceneText); });
  line("text prior, text only", false,
       [](const PrinciplesVerdict& v) { return checkCell(v.text.textOnly); });
  return g;
}

std::string principlesReport(const std::vector<PrinciplesVerdict>& rows, PrinciplesFormat format) {
  if (format == PrinciplesFormat::Text) return textReport(rows);
  json out = json::array();
  for (const PrinciplesVerdict& v : rows) out.push_back(rowJson(v));
  return json{{"rows", out}}.dump(2) + "\n";
}

}  // namespace ropescope
