// transformers' get_rope_index for the families, as each release computes it (the release table,
// transformers_release.h), read from modeling_qwen2_vl.py, modeling_qwen2_5_vl.py,
// modeling_qwen3_vl.py, modeling_glm4v.py and modeling_ernie4_5_vl_moe.py of each release and
// checked by executing them (tests/golden/test_hf_ids_golden.cpp):
// - BlockPlacement::Legacy (up to 5.2.x): a block starts at s = M + 1 (M the running maximum); ids
//   (s + t_rel(k), s + r, s + c); text after it at max(block) + 1.
// - BlockPlacement::ConstantTime (the mm_token_type_ids rewrite, PR #43972, 5.3.0-5.5.4): a block
//   starts at the running position s; every token t = s * time_interval; h/w from
//   get_vision_position_ids' repeat_interleave / repeat (constantTimeBlock); next text at
//   s + max(H', W'). Qwen2.5-VL: time_interval = tps * int(next(second_per_grid_ts)); up to 5.5.3
//   every vision group, images included, draws an entry (#45325), so an image before the last
//   video leaves a video without one (StopIteration there); 5.5.4 (#45330) fixed images only.
// - BlockPlacement::GridFixed (PR #45400, 5.6.0 on): ids t-major (s + t_rel(k), s + r, s + c), next
//   text at s + max(H', W').
// Qwen2.5-VL t_rel(k): SecondsRule (FloatStep 4.49-4.51, WholeSeconds from #37597, Float32 after
// #48669). Families with per-frame video blocks (Qwen3-VL, Qwen3.5, GLM) place every frame as a
// block of one temporal patch at t = s; a multi-frame video segment is read as its frames back to
// back.
#include <algorithm>
#include <cmath>
#include <map>

#include "family_base.h"
#include "ropescope/errors.h"
#include "ropescope/report.h"

namespace ropescope::detail {

namespace {

// a * b as torch computes an int64 tensor times a Python number: exact while b is whole (int64
// arithmetic), else in float32 and truncated when stored in the int64 position ids.
double torchScaled(double a, double b) {
  if (b == std::floor(b)) return a * b;
  return std::trunc(static_cast<double>(static_cast<float>(a) * static_cast<float>(b)));
}

// Qwen2.5-VL video t_rel of temporal patch k (see the file comment).
double secondsTRel(SecondsRule rule, int k, double spg, double tps) {
  const auto f32 = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  switch (rule) {
    case SecondsRule::Float32:  // second_per_grid_ts stays a float tensor
      return std::trunc(f32(f32(k) * f32(tps * spg)));
    case SecondsRule::FloatStep:  // (arange * spg_tensor) * tps in float32, then .long()
      return std::trunc(f32(f32(f32(k) * f32(spg)) * f32(tps)));
    case SecondsRule::WholeSeconds:
    case SecondsRule::Unused:
      break;
  }
  // arange (int64) * int64(spg) * tps.
  return torchScaled(static_cast<double>(k) * std::trunc(spg), tps);
}

// One block of T x H x W tokens at start `off` (off = M + 1 = the running position here).
BlockIds ruleBlock(BlockPlacement rule, const Segment& seg, double off,
                   const std::function<double(int)>& tRel, double constantT) {
  if (rule == BlockPlacement::ConstantTime) return constantTimeBlock(seg, off, constantT);
  BlockIds b = gridBlock(seg, off, tRel, false);
  if (rule == BlockPlacement::GridFixed) b.walkMax = off + std::max(seg.rows, seg.cols) - 1;
  return b;
}

// Where the release raises on this layout (ReleaseRules::raises), one line naming it.
void refuseWhereRaised(const Layout& layout, const RopeIndexSettings& s,
                       const std::string& design) {
  if (s.rules.raises == ReleaseRules::Raises::Never) return;
  std::map<int, int> framesOfItem;  // per video item (per-frame families), its frames
  for (const Segment& seg : layout.segments) {
    if (seg.kind != SegmentKind::Video) continue;
    const int frames =
        seg.videoItem >= 0 ? (framesOfItem[seg.videoItem] += seg.frames) : seg.frames;
    if (frames > 1) {
      const ModelFamily* f = familyOfDesign(design);
      throw InputError("transformers " + s.release + " raises " + s.rules.raisedError +
                           " on a multi-frame " + (f ? f->title() : design) +
                           " video (more than one temporal patch; " + s.rules.raisedWhy + ")",
                       "rules");
    }
  }
}

}  // namespace

PositionIds hfRopeIndex(const Layout& layout, const RopeIndexSettings& s,
                        const std::string& design) {
  // Qwen2.5-VL: the second_per_grid_ts list the processor writes, one entry per video.
  std::vector<double> spg;
  if (s.video == VideoTime::Seconds)
    for (const Segment& seg : layout.segments)
      if (seg.kind == SegmentKind::Video)
        spg.push_back(seg.secondsPerGrid > 0.0 ? seg.secondsPerGrid : 2.0 / s.fps);
  refuseWhereRaised(layout, s, design);
  const bool constantTime = s.rules.block == BlockPlacement::ConstantTime;
  std::size_t spgNext = 0;  // 5.3.0-5.5.4: the second_per_grid_ts iterator
  std::size_t videoNo = 0;
  int blockNo = 0;

  const auto rule = [&](const Segment& seg, double off) -> BlockIds {
    ++blockNo;
    const bool video = seg.kind == SegmentKind::Video;
    if (s.video == VideoTime::PerFrame || !video) {
      // Blocks of one temporal patch at t = s (images, and every frame of a per-frame family).
      double interval = 1.0;
      if (s.video == VideoTime::Seconds && constantTime && s.rules.imagesTakeSeconds) {
        const double entry = spg.empty() ? 1.0 : spgNext < spg.size() ? spg[spgNext] : -1.0;
        if (entry < 0.0)
          throw InputError("transformers " + s.release +
                               " raises StopIteration on this layout: vision block " +
                               std::to_string(blockNo) + " finds no second_per_grid_ts entry (" +
                               countOf(static_cast<long long>(spg.size()), "video") +
                               ", and images draw entries too: #45325, fixed by #45330 in 5.5.4)",
                           "rules");
        ++spgNext;
        interval = s.tokensPerSecond * std::trunc(entry);
      }
      Segment frame = seg;
      frame.frames = 1;
      BlockIds all;
      all.ids.reserve(seg.tokenCount());
      double start = off;
      for (int f = 0; f < seg.frames; ++f) {
        const double t = torchScaled(start, interval);
        BlockIds b = ruleBlock(
            s.rules.block, frame, start, [](int) { return 0.0; }, t);
        all.ids.insert(all.ids.end(), b.ids.begin(), b.ids.end());
        all.walkMax = b.walkMax;
        start = b.walkMax + 1.0;
      }
      if (video) ++videoNo;
      return all;
    }
    // One block for the whole video.
    if (s.video == VideoTime::FrameIndex) {
      ++videoNo;
      return ruleBlock(
          s.rules.block, seg, off, [](int k) { return static_cast<double>(k); }, off);
    }
    const double secondsPerGrid = spg[videoNo++];
    double constantT = off;
    if (constantTime) {
      if (spgNext >= spg.size())
        throw InputError("transformers " + s.release +
                             " raises StopIteration on this layout: video " +
                             std::to_string(videoNo) +
                             " finds no second_per_grid_ts entry (images before it drew them: "
                             "#45325, fixed by #45330 in 5.5.4)",
                         "rules");
      const double interval = s.tokensPerSecond * std::trunc(spg[spgNext++]);
      constantT = torchScaled(off, interval);
    }
    return ruleBlock(
        s.rules.block, seg, off,
        [&](int k) { return secondsTRel(s.rules.seconds, k, secondsPerGrid, s.tokensPerSecond); },
        constantT);
  };

  PositionIds out = walkLayout(layout, rule, design, MetricSpace::Space);
  // Hugging Face: rope_delta = max over every id + 1 - N (under hf-5.3 a block's constant t can
  // exceed the text after it).
  double maxId = -1.0;
  for (const Id3& id : out.ids) maxId = std::max({maxId, id[0], id[1], id[2]});
  out.ropeDelta = maxId + 1.0 - static_cast<double>(out.ids.size());
  return out;
}

FamilyDesign::FamilyDesign(std::string name, std::string title, std::string summary,
                           VideoTime video)
    : DesignBase(std::move(name), std::move(title), std::move(summary), MetricSpace::Space,
                 [video] {
                   std::vector<ParameterSpec> specs = {rulesParameterSpec()};
                   if (video == VideoTime::Seconds) {
                     specs.push_back({"tokens_per_second",
                                      "Tokens per second",
                                      "Temporal ids per second of video (vision_config."
                                      "tokens_per_second, 2 in the released configs)",
                                      ParameterSpec::Kind::Number,
                                      0.0,
                                      kMaxTokensPerSecond,
                                      true,
                                      2.0,
                                      {}});
                     specs.push_back({"fps",
                                      "Video fps",
                                      "Frames per second for videos without their own seconds "
                                      "per grid (second_per_grid_ts = 2 / fps)",
                                      ParameterSpec::Kind::Number,
                                      0.0,
                                      240.0,
                                      true,
                                      2.0,
                                      {}});
                   }
                   return specs;
                 }()),
      video_(video) {}

ParameterSpec rulesParameterSpec() {
  const auto& releases = transformersReleases();
  return {"rules",
          "Rule set",
          "transformers release whose get_rope_index (and processor) to follow: a release " +
              releases.front() + " ... " + releases[releases.size() - 2] +
              " or main (3cd1a23, 2026-08-21), or a named set (" + ruleSetAliasesText() + ")",
          ParameterSpec::Kind::Choice,
          0.0,
          static_cast<double>(ruleSetNames().size() - 1),
          false,
          0.0,
          ruleSetNames()};
}

RopeIndexSettings rulesOf(const std::string& family, double rulesParameter) {
  const ResolvedRules r = resolveRules(family, static_cast<std::size_t>(rulesParameter));
  RopeIndexSettings s;
  s.rules = r.rules;
  s.release = r.release;
  return s;
}

PositionIds FamilyDesign::ids(const Layout& layout, const ParameterSet& params) const {
  const std::vector<ParameterSpec> specs = parameters();
  validateParameters(params, specs);
  RopeIndexSettings s;
  s = rulesOf(name(), params.get("rules", specs));
  s.video = video_;
  if (video_ == VideoTime::Seconds) {
    s.tokensPerSecond = params.get("tokens_per_second", specs);
    s.fps = params.get("fps", specs);
  }
  return hfRopeIndex(layout, s, name());
}

}  // namespace ropescope::detail
