// The table of transformers releases x model families (transformers_release.h). Every boundary
// is a release where executing that release's own processor and get_rope_index changes an output
// (the transformers oracle's CLASSES.md, re-derived by hf_classes.py at every release from 4.45.0
// to 5.15.0 and main 3cd1a23 of 2026-08-21); tests/golden/data/hf_ids_golden.jsonl holds the
// outputs of the first and the last release of every class, and tests/golden/test_hf_ids_golden.cpp
// replays them. docs/families.md#releases lists the same table.
#include "ropescope/transformers_release.h"

#include <algorithm>
#include <map>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/model_family.h"

namespace ropescope {

const std::vector<std::string>& transformersReleases() {
  static const std::vector<std::string> releases = {
      "4.45.0",   "4.45.1",   "4.45.2",   "4.46.0", "4.46.1", "4.46.2", "4.46.3", "4.47.0",
      "4.47.1",   "4.48.0",   "4.48.1",   "4.48.2", "4.48.3", "4.49.0", "4.50.0", "4.50.1",
      "4.50.2",   "4.50.3",   "4.51.0",   "4.51.1", "4.51.2", "4.51.3", "4.52.0", "4.52.1",
      "4.52.2",   "4.52.3",   "4.52.4",   "4.53.0", "4.53.1", "4.53.2", "4.53.3", "4.54.0",
      "4.54.1",   "4.55.0",   "4.55.1",   "4.55.2", "4.55.3", "4.55.4", "4.56.0", "4.56.1",
      "4.56.2",   "4.57.0",   "4.57.1",   "4.57.2", "4.57.3", "4.57.4", "4.57.5", "4.57.6",
      "5.0.0rc1", "5.0.0rc2", "5.0.0rc3", "5.0.0",  "5.1.0",  "5.2.0",  "5.3.0",  "5.4.0",
      "5.5.0",    "5.5.1",    "5.5.2",    "5.5.3",  "5.5.4",  "5.6.0",  "5.6.1",  "5.6.2",
      "5.7.0",    "5.8.0",    "5.8.1",    "5.9.0",  "5.10.1", "5.10.2", "5.10.3", "5.11.0",
      "5.12.0",   "5.12.1",   "5.13.0",   "5.13.1", "5.14.0", "5.14.1", "5.15.0", "main"};
  return releases;
}

std::optional<std::size_t> releaseIndex(const std::string& release) {
  const auto& r = transformersReleases();
  const auto it = std::find(r.begin(), r.end(), release);
  if (it == r.end()) return std::nullopt;
  return static_cast<std::size_t>(it - r.begin());
}

namespace {

using R = ReleaseRules;

// Rules built up class by class: each class changes a few fields of the one before.
R with(R r, void (*edit)(R&)) {
  edit(r);
  return r;
}

const R kLegacy{};  // 4.x: Legacy blocks, whole-second Qwen2.5-VL, pads 1, padded deltas

R pad0(R r) {
  r.padPosition = 0;
  return r;
}
// #43972 (5.3.0): the mm_token_type_ids rewrite.
R rewrite53(R r) {
  r.block = BlockPlacement::ConstantTime;
  r.delta = DeltaRule::UnpaddedLength;
  r.padPosition = 0;
  return r;
}
R gridFixed(R r) {
  r.block = BlockPlacement::GridFixed;
  return r;
}

std::vector<ReleaseClass> qwen3VlClasses(const std::string& first) {
  std::vector<ReleaseClass> c;
  if (first == "4.57.0") {
    c.push_back({"4.57.0", "",
                 "per frame a timestamp (t seconds), vision start, the frame, vision end: frames "
                 "as one-patch blocks; text after max + 1; pads 1; rope_deltas count the padding",
                 kLegacy});
    c.push_back({"5.2.0", "", "as 4.57.0, pads 0", pad0(kLegacy)});
  } else {
    c.push_back(
        {"5.2.0", "", "as Qwen3-VL 5.2.0: pads 0; rope_deltas count the padding", pad0(kLegacy)});
  }
  R r53 = rewrite53(kLegacy);
  r53.raises = R::Raises::MultiFrameVideo;
  r53.raisedError = "StopIteration";
  r53.raisedWhy = "#44474, fixed in 5.4.0";
  c.push_back({"5.3.0", "#43972",
               "the mm_token_type_ids rewrite: a video of more than one temporal patch raises "
               "StopIteration (fixed by #44474); rope_deltas without padding",
               r53});
  R r54 = gridFixed(rewrite53(kLegacy));
  c.push_back(
      {"5.4.0", "#44474", "frames split again: ids as 5.2.0, rope_deltas without padding", r54});
  R r510 = r54;
  r510.outerVisionMarks = true;
  c.push_back({"5.10.1", "#45493",
               "processor refactor: the template's outer vision start and end stay around a "
               "video's frames",
               r510});
  return c;
}

const std::map<std::string, std::vector<ReleaseClass>>& table() {
  static const std::map<std::string, std::vector<ReleaseClass>> t = [] {
    std::map<std::string, std::vector<ReleaseClass>> m;
    m["qwen2-vl"] = {
        {"4.45.0", "",
         "text after a block at max + 1; video t = s + frame; pads 1; rope_deltas count the "
         "padding",
         kLegacy},
        {"5.2.0", "#43952", "rope_deltas clamped at 0: max(max + 1 - padded length, 0); pads 0",
         with(pad0(kLegacy), [](R& r) { r.delta = DeltaRule::ClampedPadded; })},
        {"5.3.0", "#43972",
         "the mm_token_type_ids rewrite: video t = s for every frame, h runs over the frames, "
         "text after at s + max(H', W'); rope_deltas without padding",
         rewrite53(kLegacy)},
        {"5.6.0", "#45400", "grid fixed: t = s + frame; text after at s + max(H', W')",
         gridFixed(rewrite53(kLegacy))},
    };
    const R floatStep = with(kLegacy, [](R& r) { r.seconds = SecondsRule::FloatStep; });
    m["qwen2.5-vl"] = {
        {"4.49.0", "",
         "text after a block at max + 1; video t = s + long(k * spg * tokens_per_second); pads "
         "1; rope_deltas count the padding",
         floatStep},
        {"4.52.0", "#37597", "video t = s + k * int(spg) * tokens_per_second", kLegacy},
        {"5.2.0", "", "as 4.52.0, pads 0", pad0(kLegacy)},
        {"5.3.0", "#43972",
         "the mm_token_type_ids rewrite: t = s * tokens_per_second * int(spg) for every token, "
         "images included, each image drawing an spg entry (an image and a video raise "
         "StopIteration, #45325); text after at s + max(H', W'); rope_deltas without padding",
         with(rewrite53(kLegacy), [](R& r) { r.imagesTakeSeconds = true; })},
        {"5.5.4", "#45330", "images fixed (t = s); videos keep the constant t of 5.3.0",
         rewrite53(kLegacy)},
        {"5.6.0", "#45400",
         "grid fixed: t = s + k * int(spg) * tokens_per_second; text after at s + max(H', W')",
         gridFixed(rewrite53(kLegacy))},
    };
    m["qwen3-vl"] = qwen3VlClasses("4.57.0");
    m["qwen3.5"] = qwen3VlClasses("5.2.0");
    const R glm = with(kLegacy, [](R& r) { r.runsTakeGrids = true; });
    R glm453 = glm;
    glm453.raises = R::Raises::MultiFrameVideo;
    glm453.raisedError = "RuntimeError (shape mismatch) or IndexError";
    glm453.raisedWhy =
        "its processor writes the video as one frame, which takes one frame's positions: a shape "
        "mismatch; frames written one by one each take the next video_grid_thw entry: an "
        "IndexError; #39172, fixed in 4.53.2";
    glm453.gridsRestartPerRow = true;
    m["glm4v"] = {
        {"4.53.0", "",
         "the processor writes a video as one frame and get_rope_index moves to the next video "
         "after each frame: a video of more than one temporal patch raises; every row of a "
         "batch starts again at the batch's first grid",
         glm453},
        {"4.53.2", "#39172",
         "per frame [ I ] + whole-second timestamp; every video takes the first video's "
         "timestamps; an image before a video takes that video's frame tokens (processor), and "
         "get_rope_index gives the grids' ids over them",
         glm},
        {"4.57.0", "#41229", "each video its own timestamps (processor)", glm},
        {"5.3.0", "#43972",
         "the mm_token_type_ids rewrite (frames are one-patch blocks: ids unchanged); pads 0; "
         "rope_deltas without padding",
         rewrite53(glm)},
        {"5.10.1", "#45493", "processor refactor: an image before a video keeps its own tokens",
         rewrite53(glm)},
    };
    m["ernie4.5-vl"] = {
        {"5.0.0rc2", "",
         "video t = s + k per frame pair; text after at max + 1; pads 1; rope_deltas count the "
         "padding",
         kLegacy},
        {"5.3.0", "#43972",
         "the mm_token_type_ids rewrite: video t = s, h runs over the frames; pads 0; "
         "rope_deltas without padding",
         rewrite53(kLegacy)},
        {"5.6.0", "#45400", "grid fixed", gridFixed(rewrite53(kLegacy))},
    };
    const R omni = with(kLegacy, [](R& r) { r.delta = DeltaRule::UnpaddedLength; });
    m["qwen2.5-omni"] = {
        {"4.52.0", "",
         "one behaviour at every release (TMRoPE; pads 1; rope_deltas without padding)", omni}};
    m["qwen3-omni"] = {{"4.57.0", "",
                        "one behaviour at every release (TMRoPE; pads 0; rope_deltas without "
                        "padding)",
                        pad0(omni)}};
    // Only Qwen2.5-VL counts seconds (VideoTime::Seconds): #48669 changes no other family.
    for (auto& [family, classes] : m)
      if (family != "qwen2.5-vl")
        for (ReleaseClass& c : classes) c.rules.seconds = SecondsRule::Unused;
    return m;
  }();
  return t;
}

}  // namespace

const std::vector<ReleaseClass>& releaseClasses(const std::string& family) {
  const auto it = table().find(family);
  if (it == table().end())
    throw InputError("no transformers release table for \"" + family + "\"", "rules");
  return it->second;
}

std::string releaseRange(const std::string& family, const ReleaseClass& cls) {
  const auto& classes = releaseClasses(family);
  const auto& r = transformersReleases();
  const std::size_t k = static_cast<std::size_t>(&cls - classes.data());
  const std::size_t lo = *releaseIndex(cls.first);
  const std::size_t hi =
      k + 1 < classes.size() ? *releaseIndex(classes[k + 1].first) - 1 : r.size() - 1;
  return lo == hi ? r[lo] : r[lo] + "-" + r[hi];
}

ResolvedRules resolveRules(const std::string& family, std::size_t ruleSet) {
  const auto& names = ruleSetNames();
  if (ruleSet >= names.size())
    throw InputError("rule set " + std::to_string(ruleSet) + " out of range", "rules");
  std::string release = ruleSetRelease(ruleSet);
  const auto& classes = releaseClasses(family);
  const std::size_t at = *releaseIndex(release);
  const ReleaseClass* cls = nullptr;
  for (const ReleaseClass& c : classes)
    if (*releaseIndex(c.first) <= at) cls = &c;
  // A named set spans the releases up to the next named one's (hf-4.57: up to 5.2.x): a family
  // that first appears inside that span (Qwen3.5 in 5.2.0) gets its first release's rules.
  if (!cls && ruleSet + 1 < kNamedRuleSets &&
      *releaseIndex(classes.front().first) < *releaseIndex(ruleSetRelease(ruleSet + 1))) {
    cls = &classes.front();
    release = cls->first;
  }
  if (!cls)
    throw InputError(findFamily(family).title() + " first appears in transformers " +
                         classes.front().first + "; rule set " + names[ruleSet] +
                         " (transformers " + release + ") has no " + findFamily(family).title(),
                     "rules");
  ResolvedRules out{release, cls, cls->rules};
  if (static_cast<RuleSet>(ruleSet) == RuleSet::HfMain) {
    out.release = "main after #48669";
    if (out.rules.seconds == SecondsRule::WholeSeconds) out.rules.seconds = SecondsRule::Float32;
  }
  return out;
}

namespace {

// GLM-4.1V 4.53.0-4.53.1: row b's k-th image (video) gets the batch's k-th grid.
std::string restartedGrids(const ResolvedRules& r, const std::string& family,
                           const std::vector<Layout>& rows) {
  std::vector<const Segment*> batch[2];  // images, videos of every row, in order
  for (const Layout& l : rows)
    for (const Segment& s : l.segments)
      if (s.kind == SegmentKind::Image || s.kind == SegmentKind::Video)
        batch[s.kind == SegmentKind::Video].push_back(&s);
  bool sameCounts = true, sameGrids = true;
  for (std::size_t b = 1; b < rows.size(); ++b) {
    std::size_t k[2] = {0, 0};
    for (const Segment& s : rows[b].segments) {
      if (s.kind != SegmentKind::Image && s.kind != SegmentKind::Video) continue;
      const Segment& first =
          *batch[s.kind == SegmentKind::Video][k[s.kind == SegmentKind::Video]++];
      sameGrids =
          sameGrids && first.rows == s.rows && first.cols == s.cols && first.frames == s.frames;
      sameCounts = sameCounts && first.tokenCount() == s.tokenCount();
    }
  }
  if (sameGrids) return "";
  const std::string title = findFamily(family).title();
  if (!sameCounts)
    return "transformers " + r.release + " raises RuntimeError (shape mismatch) on this batch: " +
           "every row starts again at the batch's first grid (" + title +
           ", #39172, fixed in 4.53.2)";
  return "transformers " + r.release + " gives the rows of this batch after the first the " +
         "batch's first grids (" + title + ", #39172, fixed in 4.53.2); ropescope does not " +
         "model that: check one row at a time";
}

}  // namespace

std::string batchRaises(const ResolvedRules& r, const std::string& family,
                        const std::vector<Layout>& rows) {
  if (rows.size() < 2) return "";
  if (r.rules.gridsRestartPerRow) return restartedGrids(r, family, rows);
  if (!r.rules.imagesTakeSeconds) return "";
  bool image = false, video = false;
  for (const Layout& l : rows)
    for (const Segment& s : l.segments) {
      image = image || s.kind == SegmentKind::Image;
      video = video || s.kind == SegmentKind::Video;
    }
  if (!image || !video) return "";
  return "transformers " + r.release + " raises StopIteration on this batch: every row's images " +
         "draw from the one second_per_grid_ts iterator of the batch's videos (" +
         findFamily(family).title() + ", #45325, fixed by #45330 in 5.5.4)";
}

std::string releaseTableMarkdown() {
  std::string out;
  for (const ModelFamily* f : allFamilies()) {
    out += "**" + f->name() + "**\n\n| releases | PR | behaviour |\n|---|---|---|\n";
    for (const ReleaseClass& c : releaseClasses(f->name()))
      out += "| " + releaseRange(f->name(), c) + " | " + (c.pr.empty() ? "—" : c.pr) + " | " +
             c.what + " |\n";
    out += "\n";
  }
  return out;
}

double ropeDeltaAsReturned(const ReleaseRules& rules, double maxId, std::size_t tokens,
                           std::size_t paddedLength) {
  switch (rules.delta) {
    case DeltaRule::PaddedLength:
      return maxId + 1.0 - static_cast<double>(paddedLength);
    case DeltaRule::ClampedPadded:
      return std::max(maxId + 1.0 - static_cast<double>(paddedLength), 0.0);
    case DeltaRule::UnpaddedLength:
      break;
  }
  return maxId + 1.0 - static_cast<double>(tokens);
}

}  // namespace ropescope
