// `ropescope pixels`: the token -> pixel map (core pixel_map.h) of a layout: for every visual
// token the rectangle of the picture and the frames it covers, as CSV or JSON
// (pixel_map_report.h), or written atomically to --out.
#include <iostream>

#include "ropescope/errors.h"

#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "ropescope/pixel_map.h"
#include "ropescope/pixel_map_report.h"

namespace ropescope::cli {

namespace {

struct PixelsOptions {
  TableFormat format = TableFormat::Csv;
  int temporalPatch = PixelMapSettings{}.temporalPatch;
};

const char* kPixelsNotes =
    "\nRectangles are [x0, x1) x [y0, y1) in the picture's own pixels (a plain grid i<H>x<W>\n"
    "is its resized picture, H*factor x W*factor). The factor is the image grid's patch x\n"
    "merge (--grid-preset, --model); tiled:<W>x<H> items are InternVL tiled pictures.\n"
    "docs/user/pixel-map.md explains each column.\n";

}  // namespace

int runPixelsCommand(const std::vector<std::string>& args) {
  PixelsOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    if (name == "format") {
      o.format = parseTableFormat(value());
      if (o.format == TableFormat::Npy)
        throw InputError("--format for pixels is csv or json (got npy)", "format");
    } else if (name == "temporal-patch-size") {
      o.temporalPatch = static_cast<int>(ownWhole(kPixels, "temporal-patch-size", value()));
    } else {
      return false;
    }
    return true;
  };
  const Request req = parseArguments(kPixels, args, extra);
  if (req.help) {
    std::cout << commandHelp(kPixels) << kPixelsNotes;
    return 0;
  }
  printInputWarnings(req);
  PixelMapSettings settings;
  settings.grid = req.scene.imageGrid;
  settings.temporalPatch = o.temporalPatch;
  writeOutput(pixelMapReport(pixelMap(req.scene.layout, settings), o.format), req.out);
  return 0;
}

}  // namespace ropescope::cli
