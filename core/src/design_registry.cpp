// The list of position designs. Adding a design: one file in designs/ and one line here.
#include "designs/design_base.h"
#include "families/family_base.h"
#include "ropescope/errors.h"
#include "ropescope/ids_file.h"
#include "ropescope/named.h"
#include "ropescope/scene_fields.h"

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
      // Research designs.
      &detail::mcaDesign(),           // MCA-LLaVA
      &detail::mmRopeDesign(),        // Lumos-1
      &detail::omniropeDesign(),      // OmniGen2
      &detail::ilropeDesign(),        // Mogao
      &detail::vropeDesign(),         // VRoPE
      &detail::tadTcDesign(),         // TC-LLaVA
      &detail::tadVideoRopeDesign(),  // VideoRoPE repository
      &detail::pypeDesign(),          // PyPE
      &detail::partialYarnDesign(),   // Partial YaRN
      &detail::thumbInheritDesign(),  // ID-Align, RoPE-DHR
      // The model families (core/src/families), in the order of allFamilies().
      &detail::qwen2VlDesign(),
      &detail::qwen25VlDesign(),
      &detail::qwen3VlDesign(),
      &detail::qwen35Design(),
      &detail::glm4vDesign(),
      &detail::ernie45VlDesign(),
      &detail::qwen25OmniDesign(),
      &detail::qwen3OmniDesign(),
  };
  return designs;
}

const PositionDesign& findDesign(const std::string& name) {
  // Ids from a file: a design of the scene, not of the list (it has no ids of its own).
  if (name == kIdsFileDesign) return idsFileDesign();
  for (const PositionDesign* d : allDesigns())
    if (d->name() == name) return *d;
  throwUnknownName("design", name, sceneField("design").spec.choices, "design");
}

}  // namespace ropescope
