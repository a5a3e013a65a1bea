// transformers' get_rope_index for the families, under the three rule sets (model_family.h),
// as read from modeling_qwen2_vl.py, modeling_qwen2_5_vl.py, modeling_qwen3_vl.py,
// modeling_glm4v.py and modeling_ernie4_5_vl_moe.py of each release:
// - hf-4.57: a block starts at s = M + 1 (M the running maximum); ids (s + t_rel(k), s + r,
//   s + c); text after it at max(block) + 1. Qwen2.5-VL: t_rel = trunc(k * int(spg) * tps)
//   (second_per_grid_ts is cast to the int64 of arange: 0.5 s collapses to 0).
// - hf-5.3 (the mm_token_type_ids rewrite, PR #43972): a block starts at the running position s;
//   every token t = s * time_interval, h/w from get_vision_position_ids' repeat_interleave /
//   repeat (constantTimeBlock); next text at s + max(H', W'). Qwen2.5-VL: time_interval =
//   tps * int(next(second_per_grid_ts)) for every vision group, images included (#45325); the
//   iterator holds one entry per video (or 1s when there is no video), so an image before the
//   last video leaves a video without one (StopIteration there).
// - hf-main (PRs #45330, #45400, #48669): ids t-major (s + t_rel(k), s + r, s + c), next text at
//   s + max(H', W'); Qwen2.5-VL t_rel = trunc(f32(k) * f32(tps * spg)), images time_interval 1.
// Families with per-frame video blocks (Qwen3-VL, Qwen3.5, GLM) place every frame as a block of
// one temporal patch at t = s; a multi-frame video segment is read as its frames back to back.
#include <algorithm>
#include <cmath>

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
double secondsTRel(RuleSet rules, int k, double spg, double tps) {
  // hf-main: second_per_grid_ts stays a float tensor, so the product is always float32.
  if (rules == RuleSet::HfMain)
    return std::trunc(static_cast<double>(static_cast<float>(k) * static_cast<float>(tps * spg)));
  // hf-4.57: arange (int64) * int64(spg) * tps.
  return torchScaled(static_cast<double>(k) * std::trunc(spg), tps);
}

// One block of T x H x W tokens at start `off` (off = M + 1 = the running position here).
BlockIds ruleBlock(RuleSet rules, const Segment& seg, double off,
                   const std::function<double(int)>& tRel, double constantT) {
  if (rules == RuleSet::Hf53) return constantTimeBlock(seg, off, constantT);
  BlockIds b = gridBlock(seg, off, tRel, false);
  if (rules == RuleSet::HfMain) b.walkMax = off + std::max(seg.rows, seg.cols) - 1;
  return b;
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
  std::size_t spgNext = 0;  // hf-5.3: the iterator every vision group advances
  std::size_t videoNo = 0;
  int blockNo = 0;

  const auto rule = [&](const Segment& seg, double off) -> BlockIds {
    ++blockNo;
    const bool video = seg.kind == SegmentKind::Video;
    if (s.video == VideoTime::PerFrame || !video) {
      // Blocks of one temporal patch at t = s (images, and every frame of a per-frame family).
      double interval = 1.0;
      if (s.video == VideoTime::Seconds && s.rules == RuleSet::Hf53) {
        const double entry = spg.empty() ? 1.0 : spgNext < spg.size() ? spg[spgNext] : -1.0;
        if (entry < 0.0)
          throw InputError("rule set hf-5.3 fails on this layout: vision block " +
                               std::to_string(blockNo) + " finds no second_per_grid_ts entry (" +
                               countOf(static_cast<long long>(spg.size()), "video") +
                               ", and images take entries too: transformers 5.3-5.5.3 raised "
                               "StopIteration, issue #45325)",
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
            s.rules, frame, start, [](int) { return 0.0; }, t);
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
          s.rules, seg, off, [](int k) { return static_cast<double>(k); }, off);
    }
    const double secondsPerGrid = spg[videoNo++];
    double constantT = off;
    if (s.rules == RuleSet::Hf53) {
      if (spgNext >= spg.size())
        throw InputError("rule set hf-5.3 fails on this layout: video " + std::to_string(videoNo) +
                             " finds no second_per_grid_ts entry (images before it took them: "
                             "transformers 5.3-5.5.3 raised StopIteration, issue #45325)",
                         "rules");
      const double interval = s.tokensPerSecond * std::trunc(spg[spgNext++]);
      constantT = torchScaled(off, interval);
    }
    return ruleBlock(
        s.rules, seg, off,
        [&](int k) { return secondsTRel(s.rules, k, secondsPerGrid, s.tokensPerSecond); },
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
                   std::vector<ParameterSpec> specs = {
                       {"rules", "Rule set",
                        "transformers release whose get_rope_index to follow: hf-4.57 (up to "
                        "5.2, the reference rule), hf-5.3 (5.3.0-5.5.3, its bugs included), "
                        "hf-main (after PRs #45330, #45400, #48669)",
                        ParameterSpec::Kind::Choice, 0.0, 2.0, false, 0.0, ruleSetNames()}};
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

PositionIds FamilyDesign::ids(const Layout& layout, const ParameterSet& params) const {
  const std::vector<ParameterSpec> specs = parameters();
  validateParameters(params, specs);
  RopeIndexSettings s;
  s.rules = static_cast<RuleSet>(static_cast<int>(params.get("rules", specs)));
  s.video = video_;
  if (video_ == VideoTime::Seconds) {
    s.tokensPerSecond = params.get("tokens_per_second", specs);
    s.fps = params.get("fps", specs);
  }
  return hfRopeIndex(layout, s, name());
}

}  // namespace ropescope::detail
