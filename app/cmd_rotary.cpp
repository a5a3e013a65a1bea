// `ropescope rotary`: the reference tables for porting RoPE (core rotary_tables.h) written as
// .npy files into a folder, with summary.json, which is also printed. Every file is written
// atomically; summary.json is written last, so a folder with a summary.json holds a whole run.
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"
#include "ropescope/rotary_tables.h"

namespace ropescope::cli {

namespace {

namespace fs = std::filesystem;

struct RotaryOptions {
  std::string qPath, kPath;
  bool force = false;
};

const char* kRotaryNotes =
    "\nWrites into --out DIR (float32 as transformers computes it, bit for bit with torch's\n"
    "scalar CPU kernels; see docs/user/porting.md):\n"
    "  position_ids.npy      the ids the rotary forward gets: int64 (3, 1, N), (1, N) for a 1-D\n"
    "                        rotary (float32 where a design gives fractional ids)\n"
    "  inv_freq.npy          float32 (pairs,); inv_freq_f64.npy the same in float64\n"
    "  cos.npy, sin.npy      float32, the forward's layout: (3, 1, N, R) per axis (Qwen2-VL,\n"
    "                        Qwen2.5-VL, Qwen2.5-Omni, GLM-4.1V up to 5.0.0rc2) or (1, N, R);\n"
    "                        cos_f64.npy, sin_f64.npy in float64; times the attention factor\n"
    "  rot_cos.npy, rot_sin.npy (N, D) float32, rot_partner.npy (D,) int64: the rotation the\n"
    "                        apply function performs, out[m] = rot_cos[t,m]*x[m] +\n"
    "                        rot_sin[t,m]*x[rot_partner[m]] (partner -1: passed through)\n"
    "  q_embed.npy, k_embed.npy  --q / --k rotated, the input's shape\n"
    "  summary.json          family, rules, rope type and parameters, attention factor, dims,\n"
    "                        layouts, every file's shape and dtype (also printed)\n"
    "--out is created; an existing folder must be empty unless --force is given.\n";

bool readRotaryOption(RotaryOptions& o, const std::string& name,
                      const std::function<std::string()>& value) {
  if (name == "q" || name == "k") {
    std::string& path = name == "q" ? o.qPath : o.kPath;
    path = value();
    if (path.empty()) throw InputError("--" + name + " needs a file name", name);
  } else if (name == "force") {
    o.force = true;
  } else {
    return false;
  }
  return true;
}

// --out: a new folder, an empty one, or with --force one that holds files. Checked before
// anything is computed (`create` false), created once the tables are ready (`create` true), so
// bad input leaves no folder behind.
void prepareOutFolder(const std::string& out, bool force, bool create) {
  if (out.empty())
    throw InputError("rotary needs --out DIR, the folder the tables go to (created)", "out");
  std::error_code ec;
  const fs::file_status st = fs::status(out, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st))
      throw InputError("--out \"" + out + "\" is a file; rotary writes a folder of .npy files",
                       "out");
    const bool empty = fs::is_empty(out, ec);
    if (ec) throw InputError("--out \"" + out + "\" cannot be read: " + ec.message(), "out");
    if (!empty && !force)
      throw InputError("--out \"" + out +
                           "\" already holds files; name a new or empty folder, or give --force "
                           "to replace the tables in it",
                       "out");
    return;
  }
  if (!create) return;
  fs::create_directories(out, ec);
  if (ec) throw InputError("--out \"" + out + "\" cannot be created: " + ec.message(), "out");
}

// q or k as the tables take it: [N, d] or [heads, N, d] with the layout's N and the head dim.
struct Heads {
  NpyArray array;
  std::size_t heads = 0;
};
Heads readHeads(const std::string& path, const std::string& name, const RotaryTables& t) {
  Heads h{readNpy(path, name + " file"), 0};
  h.heads = rotaryInputHeads(h.array.shape, t, name + " file \"" + path + "\"", name);
  return h;
}

std::string jsonText(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += char(c);
    }
  }
  return o + "\"";
}

std::string shapeJson(const std::vector<std::size_t>& shape) {
  std::string o = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) o += (i ? ", " : "") + std::to_string(shape[i]);
  return o + "]";
}

// The files written, in order, with shape and dtype.
struct Written {
  std::vector<std::pair<std::string, std::string>> files;  // name, JSON object
  template <class T>
  void add(const std::string& dir, const std::string& name, const std::vector<T>& data,
           const std::vector<std::size_t>& shape, const char* dtype) {
    writeNpy((fs::path(dir) / name).string(), data.data(), data.size(), shape);
    files.emplace_back(name, "{\"shape\": " + shapeJson(shape) + ", \"dtype\": \"" + dtype + "\"}");
  }
};

std::string summaryJson(const Request& req, const RotaryTables& t, const Written& w) {
  const Scene& scene = req.scene;
  const FrequencySpec& f = scene.frequency;
  std::ostringstream o;
  o << "{\n  \"ropescope_version\": " << jsonText(ROPESCOPE_VERSION) << ",\n";
  o << "  \"model\": " << (req.model.empty() ? "null" : jsonText(req.model)) << ",\n";
  o << "  \"design\": " << jsonText(scene.design) << ",\n";
  o << "  \"family\": " << (t.format.family.empty() ? "null" : jsonText(t.format.family)) << ",\n";
  if (familyOfDesign(scene.design)) {
    const auto specs = findDesign(scene.design).parameters();
    const std::size_t rules = std::size_t(scene.designParams.get("rules", specs));
    o << "  \"rules\": " << jsonText(ruleSetNames().at(rules)) << ",\n";
    o << "  \"transformers_release\": " << jsonText(ruleSetRelease(rules)) << ",\n";
  } else {
    o << "  \"rules\": null,\n  \"transformers_release\": null,\n";
  }
  o << "  \"layout_from\": " << jsonText(t.format.from) << ",\n";
  o << "  \"plan\": " << jsonText(f.plan) << ",\n";
  o << "  \"rope\": {\"type\": " << jsonText(t.ropeType) << ", \"parameters\": {";
  bool first = true;
  for (const auto& [key, value] : f.rope.params.values()) {
    o << (first ? "" : ", ") << jsonText(key) << ": " << formatDouble(value);
    first = false;
  }
  for (const auto* list : {&f.rope.shortFactor, &f.rope.longFactor}) {
    if (list->empty()) continue;
    o << (first ? "" : ", ")
      << (list == &f.rope.shortFactor ? "\"short_factor\"" : "\"long_factor\"") << ": [";
    for (std::size_t i = 0; i < list->size(); ++i) o << (i ? ", " : "") << formatDouble((*list)[i]);
    o << "]";
    first = false;
  }
  o << "}, \"attention_factor\": " << formatDouble(t.attentionFactor) << "},\n";
  o << "  \"attention_factor\": " << formatDouble(t.attentionFactor) << ",\n";
  o << "  \"base\": " << formatDouble(f.rotary.base) << ",\n";
  o << "  \"head_dim\": " << t.headDim << ",\n";
  o << "  \"rotary_dim\": " << 2 * t.pairs << ",\n";
  o << "  \"pairs\": " << t.pairs << ",\n";
  o << "  \"pair_layout\": " << jsonText(pairLayoutName(t.pairLayout)) << ",\n";
  o << "  \"pair_axes\": [";
  for (std::size_t p = 0; p < t.axis.size(); ++p)
    o << (p ? ", " : "") << jsonText(axisName(t.axis[p]));
  o << "],\n";
  o << "  \"cos_layout\": " << jsonText(cosLayoutName(t.format.cos)) << ",\n";
  o << "  \"tokens\": " << t.tokens << ",\n";
  o << "  \"rot_formula\": \"out[m] = rot_cos[t,m]*x[m] + rot_sin[t,m]*x[rot_partner[m]] "
       "(partner -1: passed through)\",\n";
  o << "  \"float32\": \"angle = float32(position id) * inv_freq (one rounded product), cos / sin "
       "of it (std::cos on float: torch's scalar CPU kernel; vector builds may differ by a few "
       "ulp), times float32(attention_factor); x_embed = x*cos + rotate(x)*sin, products "
       "rounded, then the sum\",\n";
  o << "  \"files\": {";
  for (std::size_t i = 0; i < w.files.size(); ++i)
    o << (i ? ",\n" : "\n") << "    " << jsonText(w.files[i].first) << ": " << w.files[i].second;
  o << "\n  }\n}\n";
  return o.str();
}

}  // namespace

int runRotaryCommand(const std::vector<std::string>& args) {
  RotaryOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    return readRotaryOption(o, name, value);
  };
  const Request req = parseArguments(kRotary, args, extra);
  if (req.help) {
    std::cout << commandHelp(kRotary) << kRotaryNotes;
    return 0;
  }
  prepareOutFolder(req.out, o.force, false);
  printInputWarnings(req);
  const RotaryTables t = sceneRotaryTables(req.scene);
  Heads q, k;
  if (!o.qPath.empty()) q = readHeads(o.qPath, "q", t);
  if (!o.kPath.empty()) k = readHeads(o.kPath, "k", t);
  prepareOutFolder(req.out, o.force, true);

  const std::string& dir = req.out;
  const std::size_t n = t.tokens, d = std::size_t(t.headDim);
  Written w;
  const std::vector<std::size_t> idShape =
      t.format.idAxes == 1 ? std::vector<std::size_t>{1, n}
                           : std::vector<std::size_t>{std::size_t(t.format.idAxes), 1, n};
  if (t.integerIds) {
    std::vector<std::int64_t> ids(t.positionIds.begin(), t.positionIds.end());
    w.add(dir, "position_ids.npy", ids, idShape, "int64");
  } else {
    std::vector<float> ids(t.positionIds.begin(), t.positionIds.end());
    w.add(dir, "position_ids.npy", ids, idShape, "float32");
  }
  const std::vector<std::size_t> pairShape{std::size_t(t.pairs)};
  w.add(dir, "inv_freq.npy", t.invFreq32, pairShape, "float32");
  w.add(dir, "inv_freq_f64.npy", t.invFreq64, pairShape, "float64");
  w.add(dir, "cos.npy", t.cos, t.cosShape, "float32");
  w.add(dir, "sin.npy", t.sin, t.cosShape, "float32");
  w.add(dir, "cos_f64.npy", t.cos64, t.cosShape, "float64");
  w.add(dir, "sin_f64.npy", t.sin64, t.cosShape, "float64");
  w.add(dir, "rot_cos.npy", t.rotCos, {n, d}, "float32");
  w.add(dir, "rot_sin.npy", t.rotSin, {n, d}, "float32");
  w.add(dir, "rot_partner.npy", t.rotPartner, {d}, "int64");
  for (Heads* x : {&q, &k}) {
    if (x->heads == 0) continue;
    const std::vector<float> out = applyRotaryTables(t, x->array.data.data(), x->heads);
    w.add(dir, x == &q ? "q_embed.npy" : "k_embed.npy", out, x->array.shape, "float32");
  }
  const std::string summary = summaryJson(req, t, w);
  writeOutput(summary, (fs::path(dir) / "summary.json").string());
  std::cout << summary;
  return 0;
}

}  // namespace ropescope::cli
