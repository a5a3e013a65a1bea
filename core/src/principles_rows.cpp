// The rows of the Revisiting paper's comparison of multimodal RoPEs (arXiv 2510.23095), each as
// a design and a plan of this registry, and their verdicts over one layout (principles.h).
// Which design and plan stand for each name is argued in docs/designs.md, "Design principles".
#include "ropescope/layout.h"
#include "ropescope/principles.h"

namespace ropescope {

namespace {

// The scene's own row's label: "scene: DESIGN, PLAN".
std::string sceneRowLabel(const Scene& scene) {
  return "scene: " + scene.design + ", " + scene.frequency.plan;
}

}  // namespace

const std::vector<RevisitingRow>& revisitingRows() {
  static const std::vector<RevisitingRow> rows = {
      {"Vanilla RoPE", "hard", "vanilla"},     {"MRoPE", "mrope", "mrope"},
      {"VideoRoPE", "videorope", "videorope"}, {"HoPE", "hope", "hope"},
      {"CircleRoPE", "circle", "mrope"},       {"IL-RoPE", "ilrope", "interleaved"},
      {"Omni-RoPE", "omnirope", "mrope"},      {"MRoPE-I", "mrope-reset", "interleaved"},
      {"MHRoPE", "mrope-reset", "multihead"},
  };
  return rows;
}

std::vector<PrinciplesVerdict> revisitingVerdicts(const Scene& scene) {
  Scene base = scene;
  base.ageLayer = -1;
  if (base.layout.visualCount() == 0) base.layout = parseLayoutSpec(kRevisitingLayout);
  std::vector<PrinciplesVerdict> out;
  for (const RevisitingRow& row : revisitingRows()) {
    Scene s = base;
    setDesign(s, row.design);
    s.frequency.plan = row.plan;
    s.frequency.sections.clear();
    out.push_back(principlesVerdict(s, row.label));
  }
  return out;
}

std::vector<PrinciplesVerdict> principlesFigureRows(const Scene& scene) {
  std::vector<PrinciplesVerdict> rows = revisitingVerdicts(scene);
  const std::string design = scene.design, plan = scene.frequency.plan;
  for (const RevisitingRow& row : revisitingRows())
    if (row.design == design && row.plan == plan) return rows;
  rows.insert(rows.begin(), principlesVerdict(scene, sceneRowLabel(scene)));
  return rows;
}

std::vector<PrinciplesVerdict> principlesPanelRows(const Scene& scene, const Progress& progress) {
  std::vector<PrinciplesVerdict> rows = everyDesignVerdict(scene, progress);
  rows.insert(rows.begin(), principlesVerdict(scene, sceneRowLabel(scene)));
  return rows;
}

}  // namespace ropescope
