// CSV and JSON of the token -> pixel map.
#include "ropescope/pixel_map_report.h"

#include "ropescope/errors.h"

namespace ropescope {

std::string pixelMapReport(const std::vector<PixelCell>& cells, TableFormat format) {
  if (format == TableFormat::Npy)
    throw InputError("the pixel map is written as json or csv (got npy)", "format");
  std::string o;
  o.reserve(cells.size() * 96 + 256);
  const bool csv = format == TableFormat::Csv;
  if (csv)
    o += "token,segment,frame,row,col,tile,thumbnail,x0,y0,x1,y1,first_frame,last_frame,width,"
         "height\n";
  else
    o += "{\"count\": " + std::to_string(cells.size()) + ", \"cells\": [";
  bool first = true;
  for (const PixelCell& c : cells) {
    const std::string tile = c.tile < 0 ? (csv ? "" : "null") : std::to_string(c.tile);
    if (csv) {
      o += std::to_string(c.token) + ',' + std::to_string(c.segment) + ',' +
           std::to_string(c.frame) + ',' + std::to_string(c.row) + ',' + std::to_string(c.col) +
           ',' + tile + ',' + (c.thumbnail ? "1" : "0") + ',' + csvNumber(c.x0) + ',' +
           csvNumber(c.y0) + ',' + csvNumber(c.x1) + ',' + csvNumber(c.y1) + ',' +
           std::to_string(c.firstFrame) + ',' + std::to_string(c.lastFrame) + ',' +
           std::to_string(c.width) + ',' + std::to_string(c.height) + '\n';
      continue;
    }
    o += first ? "\n" : ",\n";
    first = false;
    o += "  {\"token\": " + std::to_string(c.token) +
         ", \"segment\": " + std::to_string(c.segment) + ", \"frame\": " + std::to_string(c.frame) +
         ", \"row\": " + std::to_string(c.row) + ", \"col\": " + std::to_string(c.col) +
         ", \"tile\": " + tile + ", \"thumbnail\": " + (c.thumbnail ? "true" : "false") +
         ", \"x0\": " + csvNumber(c.x0) + ", \"y0\": " + csvNumber(c.y0) +
         ", \"x1\": " + csvNumber(c.x1) + ", \"y1\": " + csvNumber(c.y1) +
         ", \"first_frame\": " + std::to_string(c.firstFrame) +
         ", \"last_frame\": " + std::to_string(c.lastFrame) +
         ", \"width\": " + std::to_string(c.width) + ", \"height\": " + std::to_string(c.height) +
         "}";
  }
  if (!csv) o += first ? "]}\n" : "\n]}\n";
  return o;
}

}  // namespace ropescope
