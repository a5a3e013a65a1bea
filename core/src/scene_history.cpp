#include "ropescope/scene_history.h"

#include "ropescope/scene_fields.h"

namespace ropescope {

std::set<std::string> SceneHistory::changedFields(const Scene& before, const Scene& after) {
  std::set<std::string> changed;
  for (const SceneField& f : sceneFields()) {
    if (!f.get || f.key() == "selected_text") continue;
    if (!(f.get(before) == f.get(after))) changed.insert(f.key());
  }
  if (before.layout != after.layout) changed.insert("layout");
  const auto& a = before.designParams.values();
  const auto& b = after.designParams.values();
  for (const auto& [key, value] : a)
    if (auto it = b.find(key); it == b.end() || it->second != value)
      changed.insert("design_params." + key);
  for (const auto& [key, value] : b)
    if (!a.count(key)) changed.insert("design_params." + key);
  // The rope scaling by its keys: a new type is one field (its keys come with it), else each
  // parameter, list and the largest position id is one.
  const RopeScaling& ra = before.frequency.rope;
  const RopeScaling& rb = after.frequency.rope;
  if (ra.type != rb.type) {
    changed.insert("rope.type");
  } else {
    const auto& pa = ra.params.values();
    const auto& pb = rb.params.values();
    for (const auto& [key, value] : pa)
      if (auto it = pb.find(key); it == pb.end() || it->second != value)
        changed.insert("rope." + key);
    for (const auto& [key, value] : pb)
      if (!pa.count(key)) changed.insert("rope." + key);
    if (ra.shortFactor != rb.shortFactor) changed.insert("rope.short_factor");
    if (ra.longFactor != rb.longFactor) changed.insert("rope.long_factor");
    if (ra.maxPositionId != rb.maxPositionId) changed.insert("rope.max_position_id");
  }
  // Anything the table does not name (loaded ids, the model's name): a field of its own.
  if (changed.empty() && !sameDocument(before, after)) changed.insert("");
  return changed;
}

void SceneHistory::record(const Scene& before, const Scene& after) {
  const std::set<std::string> fields = changedFields(before, after);
  if (fields.empty()) return;  // the selection alone, or nothing
  redo_.clear();
  if (open_ && fields == lastFields_ && !undo_.empty()) return;  // the same gesture goes on
  undo_.push_back(before);
  trim();
  lastFields_ = fields;
  open_ = true;
}

std::size_t SceneHistory::footprint(const Scene& scene) {
  std::size_t bytes = sizeof(Scene) + scene.fileIds.size() * sizeof(Id3);
  for (const Segment& s : scene.layout.segments) {
    bytes += sizeof(Segment) + s.source.path.size();
    for (const std::string& frame : s.source.frames) bytes += sizeof(std::string) + frame.size();
  }
  return bytes;
}

void SceneHistory::trim() {
  std::size_t bytes = 0;
  for (const Scene& s : undo_) bytes += footprint(s);
  for (const Scene& s : redo_) bytes += footprint(s);
  std::size_t drop = 0;
  while (undo_.size() - drop > 1 && (undo_.size() - drop > kMaxSteps || bytes > kMaxBytes))
    bytes -= footprint(undo_[drop++]);
  undo_.erase(undo_.begin(), undo_.begin() + static_cast<std::ptrdiff_t>(drop));
}

Scene SceneHistory::move(std::vector<Scene>& from, std::vector<Scene>& to, const Scene& current) {
  Scene target = std::move(from.back());
  from.pop_back();
  to.push_back(current);
  open_ = false;  // the next edit starts a step of its own
  trim();
  return target;
}

Scene SceneHistory::undo(const Scene& current) {
  return move(undo_, redo_, current);
}

Scene SceneHistory::redo(const Scene& current) {
  return move(redo_, undo_, current);
}

void SceneHistory::clear() {
  undo_.clear();
  redo_.clear();
  open_ = false;
}

}  // namespace ropescope
