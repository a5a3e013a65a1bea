// The ids-file design: a .npy of (t, h, w) per token over the layout's tokens.
#include "ropescope/ids_file.h"

#include <algorithm>
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/npy.h"
#include "ropescope/position_design.h"
#include "ropescope/report.h"

namespace ropescope {

namespace {

class IdsFileDesign final : public PositionDesign {
 public:
  std::string name() const override { return kIdsFileDesign; }
  std::string title() const override { return "Ids from a file"; }
  std::string summary() const override {
    return "Your own (t, h, w) per token from a .npy file [N,3] or [3,N] (File \xe2\x86\x92 "
           "Load ids\xe2\x80\xa6, or --ids FILE.npy).";
  }
  MetricSpace metricSpace() const override { return MetricSpace::Space; }
  std::vector<ParameterSpec> parameters() const override { return {}; }
  PositionIds ids(const Layout&, const ParameterSet&) const override {
    throw InputError(
        "design ids-file needs an ids file: --ids FILE.npy (GUI: File \xe2\x86\x92 Load "
        "ids\xe2\x80\xa6)",
        "design");
  }
};

}  // namespace

const PositionDesign& idsFileDesign() {
  static const IdsFileDesign d;
  return d;
}

namespace {
constexpr long long kMaxIdMagnitude_ = static_cast<long long>(kMaxIdMagnitude);
}  // namespace

std::vector<Id3> readIdsFile(const std::string& path) {
  const NpyNumbers a = readNpyNumbers(path, "ids file", 3 * kMaxIdTokens);
  const std::string where = "ids file \"" + path + "\" ";
  std::string shape;
  for (std::size_t d : a.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
  const bool rows = a.shape.size() == 2 && a.shape[1] == 3;  // [N,3], also [3,3]
  const bool cols = !rows && a.shape.size() == 2 && a.shape[0] == 3;
  if (!rows && !cols)
    throw InputError(
        where + "has shape [" + shape + "] (accepted: [N,3] or [3,N], t,h,w per token)",
        "ids_file");
  const std::size_t n = rows ? a.shape[0] : a.shape[1];
  if (n == 0) throw InputError(where + "has no tokens (shape [" + shape + "])", "ids_file");
  std::vector<Id3> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      const double v = rows ? a.data[3 * i + k] : a.data[k * n + i];
      if (!std::isfinite(v))
        throw InputError(where + "has a " + (std::isnan(v) ? "NaN" : "infinite") + " " + "thw"[k] +
                             " id at token " + std::to_string(i) + " (ids must be finite numbers)",
                         "ids_file");
      if (std::abs(v) > kMaxIdMagnitude)
        throw InputError(where + "has a " + "thw"[k] + " id of " + formatDouble(v) + " at token " +
                             std::to_string(i) + " (ids must be within -" +
                             std::to_string(kMaxIdMagnitude_) + ".." +
                             std::to_string(kMaxIdMagnitude_) + ", 2^53)",
                         "ids_file");
      out[i][k] = v;
    }
  return out;
}

PositionIds idsFromFile(const Layout& layout, const std::vector<Id3>& ids,
                        const std::string& path) {
  validateLayout(layout);
  if (ids.size() != layout.tokenCount())
    throw InputError("ids file \"" + path + "\" has " + std::to_string(ids.size()) +
                         " tokens but the layout has " + std::to_string(layout.tokenCount()) +
                         " (they must match)",
                     "ids_file");
  // The token bookkeeping of the layout, as every design gives it (the hard design's walk).
  PositionIds out = findDesign("hard").ids(layout, {});
  out.design = kIdsFileDesign;
  out.space = MetricSpace::Space;
  out.ids = ids;
  double top = -1.0;
  for (const Id3& id : ids) top = std::max({top, id[0], id[1], id[2]});
  out.ropeDelta = top + 1.0 - static_cast<double>(ids.size());
  return out;
}

}  // namespace ropescope
