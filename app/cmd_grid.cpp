// `ropescope grid FILE...`: each picture's size, its smart_resize size, LLM grid and token
// count, as JSON. Every file is checked before anything is printed, so a bad file gives one
// line on stderr, exit status 2 and no partial output.
#include <charconv>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli_commands.h"
#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/image_probe.h"
#include "subcommands.h"

namespace ropescope::cli {

namespace {

const char* kGridHelp =
    "usage: ropescope grid [options] FILE...\n"
    "Prints, as JSON, each picture's size, its size after the Hugging Face Qwen2-VL /\n"
    "Qwen2.5-VL smart_resize, the LLM grid (rows x cols after the merge) and the token count:\n"
    "  [{\"file\": ..., \"width\": W, \"height\": H, \"resized\": [h, w], \"grid\": [rows, cols],\n"
    "    \"tokens\": N}, ...]\n"
    "Reads PNG, JPEG, BMP, WebP, GIF (first frame) and TIFF headers only; pictures above\n"
    "8192x8192 pixels are refused without being decoded. A bad file stops the command with one\n"
    "line on stderr and exit status 2, before anything is printed.\n\n"
    "options:\n"
    "  --preset NAME             qwen2.5-vl (patch 14, merge 2, min 3136, max 12845056; the\n"
    "                            default) or qwen3-vl (patch 16, merge 2, min 65536,\n"
    "                            max 16777216); the options below override it\n"
    "  --min-pixels N            smallest resized area in pixels\n"
    "  --max-pixels N            largest resized area in pixels\n"
    "  --patch N                 ViT patch side in pixels (1..1024)\n"
    "  --merge N                 patches merged per LLM token along each side (1..16)\n"
    "  --out FILE                write the JSON to FILE (atomically) instead of stdout\n"
    "  --help                    show this help\n";

long long parseWhole(const std::string& option, const std::string& text) {
  long long v = 0;
  const char* b = text.data();
  const char* e = b + text.size();
  auto [ptr, ec] = std::from_chars(b, e, v);
  if (text.empty() || ec != std::errc() || ptr != e || v < 1)
    throw InputError("--" + option + " expects a positive whole number (got \"" + text + "\")",
                     option);
  return v;
}

// JSON string literal; control characters escaped, other bytes passed through.
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

int runGridCommand(const std::vector<std::string>& args) {
  std::string preset, out;
  long long minPixels = 0, maxPixels = 0, patch = 0, merge = 0;  // 0: from the preset
  std::vector<std::string> files;
  bool optionsDone = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (optionsDone || a.size() < 2 || a[0] != '-' || a == "-") {
      files.push_back(a);
      continue;
    }
    if (a == "--") {
      optionsDone = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      std::cout << kGridHelp;
      return 0;
    }
    std::string name = a.substr(a.rfind("--", 0) == 0 ? 2 : 1), value;
    bool inlineValue = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      inlineValue = true;
    }
    const bool known = name == "preset" || name == "min-pixels" || name == "max-pixels" ||
                       name == "patch" || name == "merge" || name == "out";
    if (!known) throw InputError("grid: unknown option " + a + " (see ropescope grid --help)");
    if (!inlineValue) {
      if (i + 1 >= args.size()) throw InputError("--" + name + " needs a value", name);
      value = args[++i];
    }
    if (name == "preset") preset = value;
    if (name == "out") out = value;
    if (name == "min-pixels") minPixels = parseWhole(name, value);
    if (name == "max-pixels") maxPixels = parseWhole(name, value);
    if (name == "patch") patch = parseWhole(name, value);
    if (name == "merge") merge = parseWhole(name, value);
  }
  if (files.empty())
    throw InputError("grid needs at least one picture FILE (see ropescope grid --help)");
  ImageGridSettings settings = preset.empty() ? ImageGridSettings{} : imageGridPreset(preset);
  auto asInt = [](const char* option, long long v) {
    if (v > 1000000)
      throw InputError(
          std::string("--") + option + " is out of range (got " + std::to_string(v) + ")", option);
    return static_cast<int>(v);
  };
  if (minPixels) settings.minPixels = minPixels;
  if (maxPixels) settings.maxPixels = maxPixels;
  if (patch) settings.patch = asInt("patch", patch);
  if (merge) settings.merge = asInt("merge", merge);
  validateImageGridSettings(settings);

  std::ostringstream json;
  std::vector<std::string> warnings;
  json << "[";
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ImageInfo info = probeImage(files[i]);
    if (!info.warning.empty()) warnings.push_back(info.warning);
    ImageGrid g;
    try {
      g = smartResize(info.height, info.width, settings);
    } catch (const InputError& e) {
      throw InputError(files[i] + ": " + e.what(), "image");
    }
    json << (i ? ",\n" : "\n") << "  {\"file\": " << quote(files[i])
         << ", \"width\": " << info.width << ", \"height\": " << info.height << ", \"resized\": ["
         << g.resizedHeight << ", " << g.resizedWidth << "], \"grid\": [" << g.rows << ", "
         << g.cols << "], \"tokens\": " << g.tokens() << "}";
  }
  json << "\n]\n";
  // Content decides the format; a disagreeing extension is worth a word, not a failure.
  for (const std::string& w : warnings) std::cerr << "ropescope: warning: " << w << "\n";
  writeOutput(json.str(), out);
  return 0;
}

}  // namespace ropescope::cli
