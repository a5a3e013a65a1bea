#include "ropescope/scene_problems.h"

#include <algorithm>
#include <set>
#include <string>

#include "ropescope/position_design.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/scene.h"
#include "ropescope/scene_fields.h"

namespace ropescope {

namespace {

// Whether `field` is a key of rope type `type` (false for an unknown type).
bool ropeKeyOf(const std::string& type, const std::string& field) {
  for (const RopeType* t : allRopeTypes())
    if (t->name() == type) {
      const std::vector<std::string> keys = ropeParameterKeys(*t);
      return std::find(keys.begin(), keys.end(), field) != keys.end();
    }
  return false;
}

// Sets `field` of `scene` as `from` has it; false for a field that no single value holds.
bool takeField(Scene& scene, const Scene& from, const std::string& field) {
  if (field == "layout") {
    scene.layout = from.layout;
    return true;
  }
  if (field == "design") {  // the design with its parameters and ids; sounds counted by its rule
    setDesign(scene, from.design);
    scene.designParams = from.designParams;
    scene.idsFile = from.idsFile;
    scene.fileIds = from.fileIds;
    return true;
  }
  if (field == "image_grid") {
    scene.imageGrid = from.imageGrid;
    return true;
  }
  // The rope scaling's keys (its type's parameters and lists, the type, the largest position
  // id): the whole scaling, whose rules tie its keys together (beta_fast > beta_slow).
  if (field == "rope" || field == "max_position_id" ||
      (scene.frequency.rope.active() && ropeKeyOf(scene.frequency.rope.type, field))) {
    scene.frequency.rope = from.frequency.rope;
    return true;
  }
  const PositionDesign* design = nullptr;
  try {
    design = &findDesign(scene.design);
  } catch (const InputError&) {
    // an unknown design is a problem of its own (field "design"), found before its parameters
  }
  if (design && findSpec(design->parameters(), field)) {
    const auto value = scene.design == from.design ? from.designParams.find(field) : std::nullopt;
    if (value)
      scene.designParams.set(field, *value);
    else
      scene.designParams.erase(field);  // the design's default
    return true;
  }
  for (const SceneField& f : sceneFields())
    if (f.key() == field && f.get && f.set) {
      f.set(scene, f.get(from));
      return true;
    }
  return false;
}

}  // namespace

std::vector<InputError> sceneProblems(const Scene& scene, const Scene& fallback) {
  std::vector<InputError> problems;
  std::set<std::string> taken;
  Scene s = scene;
  for (;;) {
    try {
      validateScene(s);
      return problems;
    } catch (const InputError& e) {
      // A field taken over already is bad in the fallback too: said once, and the search ends.
      if (taken.count(e.field())) return problems;
      problems.push_back(e);
      if (e.field().empty() || !takeField(s, fallback, e.field())) return problems;
      taken.insert(e.field());
    }
  }
}

}  // namespace ropescope
