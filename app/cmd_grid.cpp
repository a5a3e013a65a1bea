// `ropescope grid FILE...`: each picture's size, its smart_resize size, LLM grid and token
// count, as JSON. Every file is checked before anything is printed, so a bad file gives one
// line on stderr, exit status 2 and no partial output.
#include <iostream>
#include <string>

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_parser.h"
#include "command_table.h"
#include "ropescope/errors.h"
#include "ropescope/grid_report.h"
#include "ropescope/image_grid.h"
#include "ropescope/image_probe.h"
#include "ropescope/sample_pictures.h"

namespace ropescope::cli {

namespace {

const char* kGridHelp =
    "usage: ropescope grid [options] FILE...\n"
    "Prints, as JSON, each picture's size, its size after the Hugging Face smart_resize of the\n"
    "chosen processor, the LLM grid (rows x cols after the merge) and the token count:\n"
    "  [{\"file\": ..., \"width\": W, \"height\": H, \"resized\": [h, w], \"grid\": [rows, cols],\n"
    "    \"tokens\": N}, ...]\n"
    "Reads PNG, JPEG, BMP, WebP, GIF (first frame) and TIFF headers only; pictures above\n"
    "8192x8192 pixels are refused without being decoded. A shipped sample's name (castle.png)\n"
    "reads the sample where no such file is here. A bad file stops the command with one\n"
    "line on stderr and exit status 2, before anything is printed. The image-grid options are\n"
    "the ones every layout command (ids, ptd, bias, attention, render) takes.\n";

// "Presets (patch, merge, min and max pixels, resize rule):" and a line per preset, from the
// preset table itself.
std::string presetsHelp() {
  std::string s = "Presets (patch, merge, min and max pixels, resize rule):\n";
  for (const std::string& name : imageGridPresetNames()) {
    const ImageGridSettings g = imageGridPreset(name);
    s += "  " + name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') +
         std::to_string(g.patch) + ", " + std::to_string(g.merge) + ", " +
         std::to_string(g.minPixels) + ", " + std::to_string(g.maxPixels) + ", " +
         resizeRuleName(g.rule) + "\n";
  }
  return s;
}

}  // namespace

int runGridCommand(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  const Request req = parseArguments(kGrid, args, {}, nullptr, &files);
  if (req.help) {
    std::cout << kGridHelp << presetsHelp() << optionsHelp(kGrid);
    return 0;
  }
  if (files.empty())
    throw InputError("grid needs at least one picture FILE (see ropescope grid --help)");
  const ImageGridSettings& settings = req.scene.imageGrid;
  const std::string& out = req.out;

  std::vector<GridReportEntry> entries;
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const ImageInfo info = probeImage(fileOrSample(files[i]));
    if (!info.warning.empty()) warnings.push_back(info.warning);
    ImageGrid g;
    try {
      g = smartResize(info.height, info.width, settings);
    } catch (const InputError& e) {
      throw InputError(files[i] + ": " + e.what(), "image");
    }
    entries.push_back({files[i], info.width, info.height, g, info.frames});
  }
  // Content decides the format; a disagreeing extension is worth a word, not a failure.
  printInputWarnings(req, warnings);
  writeOutput(gridReport(entries), out);
  return 0;
}

}  // namespace ropescope::cli
