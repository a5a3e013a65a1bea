// The list of position designs. Adding a design: one file in designs/ and one line here.
#include "designs/design_base.h"
#include "families/family_base.h"
#include "ropescope/errors.h"

namespace ropescope {

const std::vector<const PositionDesign*>& allDesigns() {
  static const std::vector<const PositionDesign*> designs = {
      &detail::hardDesign(),
      &detail::unorderedDesign(),
      &detail::spatialDesign(),
      &detail::mropeDesign(),
      &detail::mropeResetDesign(),
      &detail::videoRopeDesign(),
      &detail::hopeDesign(),
      &detail::circleDesign(),
      &detail::v2peDesign(),
      // The model families (core/src/families), in the order of allFamilies().
      &detail::qwen2VlDesign(),
      &detail::qwen25VlDesign(),
      &detail::qwen3VlDesign(),
      &detail::qwen35Design(),
      &detail::glm4vDesign(),
      &detail::ernie45VlDesign(),
  };
  return designs;
}

const PositionDesign& findDesign(const std::string& name) {
  std::string known;
  for (const PositionDesign* d : allDesigns()) {
    if (d->name() == name) return *d;
    known += (known.empty() ? "" : ", ") + d->name();
  }
  throw InputError("unknown design \"" + name + "\" (accepted: " + known + ")", "design");
}

}  // namespace ropescope
