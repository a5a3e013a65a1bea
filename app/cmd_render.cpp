// `ropescope render`: a named view of a scene (scene options, --scene FILE or --preset NAME)
// rendered headless to PNG, SVG or PDF, or its data to CSV or JSON. Options are parsed into a
// RenderSettings (parseRenderArguments) and then dispatched (runRenderCommand): new modes add a
// field there and a branch in the dispatch.
#include <iostream>
#include <sstream>

#include "cli_commands.h"
#include "cli_options.h"
#include "cli_parser.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/errors.h"

#include "ropescope_ui/animation_export.h"
#include "ropescope_ui/figure_cli.h"

namespace ropescope::cli {

namespace {

// After the options (cli_parser.h optionsHelp).
struct RenderSettings {
  Request request;  // the scene and --out
  std::string preset, view;
  int width = 1050, height = 750;
  double scale = 0.0;
  int maxDistance = -1;  // -1: the preset's, else kDefaultDecayDistance
  bool title = true, legend = true;
  std::string colorBy;  // --color-by cell|modality, empty when not given
  bool listViews = false, listPresets = false;
  std::string animate;  // --animate SPEC: an animation instead of a figure
  int frames = 32;
  bool framesGiven = false;
  int phasorDistance = 3;
  std::string phasorAlong = "h";
  bool phasorGiven = false;  // --distance or --along: only the phasor view takes them
  int temporalPatch = 0;     // --temporal-patch: the picture views of a video
  bool pairGiven = false;
  int segment = -1;  // --segment: the picture or sound views' layout segment
};

// WxH, each side in the table's range (own_options.cpp).
void parseSize(const std::string& text, int* w, int* h) {
  const auto refuse = [&text] {
    const OwnOption& size = ownOption(kRender, "size");
    return InputError("--size expects WxH with each side a whole number in " +
                          std::to_string(static_cast<int>(size.lo)) + ".." +
                          std::to_string(static_cast<int>(size.hi)) + " (got \"" + text + "\")",
                      "size");
  };
  const auto x = text.find('x');
  if (x == std::string::npos) throw refuse();
  try {
    *w = static_cast<int>(ownWhole(kRender, "size", text.substr(0, x)));
    *h = static_cast<int>(ownWhole(kRender, "size", text.substr(x + 1)));
  } catch (const InputError&) {
    throw refuse();
  }
}

RenderSettings parseRenderArguments(const std::vector<std::string>& args) {
  RenderSettings s;
  // --preset first, wherever it stands: the scene options that follow change the preset's scene.
  const CommandLine line = splitCommandLine(kRender, args, false);
  for (const GivenOption& g : line.options)
    if (g.name == "preset") s.preset = g.value;  // a second --preset: "given twice" below
  Scene base;
  const Scene* basePtr = nullptr;
  if (!s.preset.empty()) {
    const ui::FigurePresetInfo p = ui::figurePresetInfo(s.preset);
    base = p.scene;
    basePtr = &base;
    s.view = p.view;
    s.maxDistance = p.maxDistance;
  }
  const ExtraOptions extra = [&](const std::string& name,
                                 const std::function<std::string()>& value) {
    if (name == "preset") {
      // applied above
    } else if (name == "view") {
      s.view = value();
    } else if (name == "size") {
      parseSize(value(), &s.width, &s.height);
    } else if (name == "scale") {
      s.scale = ownNumber(kRender, "scale", value());
    } else if (name == "distance") {
      s.phasorDistance = static_cast<int>(ownWhole(kRender, "distance", value()));
      s.phasorGiven = true;
    } else if (name == "along") {
      s.phasorAlong = value();
      s.phasorGiven = true;
    } else if (name == "temporal-patch") {
      s.temporalPatch = static_cast<int>(ownWhole(kRender, "temporal-patch", value()));
      s.pairGiven = true;
    } else if (name == "segment") {
      s.segment = static_cast<int>(ownWhole(kRender, "segment", value()));
    } else if (name == "color-by") {
      s.colorBy = value();
      if (s.colorBy != "cell" && s.colorBy != "modality")
        throw InputError("--color-by must be cell or modality (got \"" + s.colorBy + "\")",
                         "color-by");
    } else if (name == "no-title") {
      s.title = false;
    } else if (name == "no-legend") {
      s.legend = false;
    } else if (name == "list-views") {
      s.listViews = true;
    } else if (name == "list-presets") {
      s.listPresets = true;
    } else if (name == "animate") {
      s.animate = value();
    } else if (name == "frames") {
      s.frames = static_cast<int>(ownWhole(kRender, "frames", value()));
      s.framesGiven = true;
    } else {
      return false;
    }
    return true;
  };
  s.request = parseArguments(kRender, line, extra, basePtr);
  if (s.view.empty()) s.view = "space";
  if (s.request.maxDistanceGiven)
    s.maxDistance = s.request.maxDistance;
  else if (s.maxDistance < 0)
    s.maxDistance = kDefaultDecayDistance;
  return s;
}

std::string listViews() {
  std::ostringstream o;
  for (const ui::FigureViewInfo& v : ui::figureViewList()) {
    std::string formats;
    for (const std::string& f : v.formats) formats += (formats.empty() ? "" : " ") + f;
    o << v.name << std::string(v.name.size() < 14 ? 14 - v.name.size() : 1, ' ') << v.description
      << " [" << formats << "]" << (v.needsDisplay ? " (needs X)" : "") << "\n";
  }
  return o.str();
}

// A view that is known and not drawn in 3-D (an unknown name is refused by the renderer, with
// the list of views).
bool flatView(const std::string& name) {
  for (const ui::FigureViewInfo& v : ui::figureViewList())
    if (v.name == name) return !v.needsDisplay;
  return false;
}

// The names of the views `has` picks, "a", "a and b" or "a, b and c".
std::string viewNames(bool (*has)(const ui::FigureViewInfo&)) {
  std::vector<std::string> names;
  for (const ui::FigureViewInfo& v : ui::figureViewList())
    if (has(v)) names.push_back(v.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

// Whether --distance and --along belong to `name` (the phasor view).
bool displacementView(const std::string& name) {
  for (const ui::FigureViewInfo& v : ui::figureViewList())
    if (v.name == name) return v.takesDisplacement;
  return false;
}

std::string listPresets() {
  std::ostringstream o;
  for (const ui::FigurePresetInfo& p : ui::figurePresetList())
    o << p.name << std::string(p.name.size() < 21 ? 21 - p.name.size() : 1, ' ') << "view "
      << p.view << ": " << p.figure << "\n";
  return o.str();
}

}  // namespace

int runRenderCommand(const std::vector<std::string>& args) {
  const RenderSettings s = parseRenderArguments(args);
  if (s.request.help) {
    std::cout << commandHelp(kRender) << kRenderHelpNotes;
    return 0;
  }
  if (s.listViews || s.listPresets) {
    writeOutput((s.listViews ? listViews() : "") + (s.listPresets ? listPresets() : ""), "");
    return 0;
  }
  printInputWarnings(s.request);
  if (!s.animate.empty()) {
    if (!s.colorBy.empty())
      throw InputError("--color-by is an option of a figure, not of --animate", "color-by");
    if (s.pairGiven)
      throw InputError("--temporal-patch is an option of a figure, not of --animate",
                       "temporal-patch");
    if (s.segment >= 0)
      throw InputError("--segment is an option of a figure, not of --animate", "segment");
    if (s.request.out.empty())
      throw InputError("render --animate needs --out FILE.gif or a folder for PNG frames", "out");
    return ui::renderAnimationCommand(s.request.scene, s.animate, s.frames, s.width, s.height,
                                      s.request.out, std::cout);
  }
  if (s.framesGiven) throw InputError("--frames needs --animate SPEC", "frames");
  if (!s.colorBy.empty() && flatView(s.view))
    throw InputError("--color-by is an option of the 3-D views " +
                         viewNames([](const ui::FigureViewInfo& v) { return v.needsDisplay; }) +
                         " (got --view " + s.view + ")",
                     "color-by");
  if (s.phasorGiven && !displacementView(s.view))
    throw InputError(
        "--distance and --along are options of --view " +
            viewNames([](const ui::FigureViewInfo& v) { return v.takesDisplacement; }) +
            " (got --view " + s.view + ")",
        s.phasorAlong != "h" ? "along" : "distance");
  if (s.request.out.empty())
    throw InputError("render needs --out FILE (.png .svg .pdf .csv .json)", "out");
  ui::RenderJob job;
  job.scene = s.request.scene;
  job.view = s.view;
  job.out = s.request.out;
  job.width = s.width;
  job.height = s.height;
  job.scale = s.scale;
  job.title = s.title;
  job.legend = s.legend;
  job.colorByModality = s.colorBy == "modality";
  job.maxDistance = s.maxDistance;
  job.phasorDistance = s.phasorDistance;
  job.phasorAlong = s.phasorAlong;
  job.temporalPatch = s.temporalPatch;
  job.pairGiven = s.pairGiven;
  job.segment = s.segment;
  ui::renderFigure(job);
  return 0;
}

}  // namespace ropescope::cli
