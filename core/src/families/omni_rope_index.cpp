// get_rope_index of the omni thinkers, as read from transformers'
// models/qwen2_5_omni/modeling_qwen2_5_omni.py (Qwen2_5OmniPreTrainedModelForConditionalGeneration
// .get_rope_index, get_llm_pos_ids_for_vision, get_chunked_index) and
// models/qwen3_omni_moe/modeling_qwen3_omni_moe.py (the same names):
// - Every entry of llm_pos_ids_list (a text run, a bos or eos token, an audio run, an image or a
//   video block) starts at st_idx = max(last entry) + 1. Text and audio are 1-D: st_idx + j on
//   all three axes. An image is (st, st + r, st + c). A video is (st + t_index[k], st + r, st + c)
//   with t_index = (arange(T) * second_per_grids[v] * position_id_per_seconds): Qwen2.5-Omni
//   casts it with .long() (float32 products, truncated), Qwen3-Omni keeps float32.
// - A video with its own sound (use_audio_in_video: "<|vision_bos|><|audio_bos|>", the two
//   streams, "<|audio_eos|><|vision_eos|>"): the audio ids st + j and the video ids are computed
//   from the same st_idx, one after the bos tokens, whatever order the tokens come in.
//   Qwen2.5-Omni gives both bos tokens one position and both eos tokens one position, max(last
//   chunk) + 1, the chunks being get_chunked_index's cuts every int(position_id_per_seconds *
//   seconds_per_chunk) temporal ids, video chunk j then audio chunk j. Qwen3-Omni counts the
//   two bos and the two eos as ordinary 2-token entries and merges the streams token by token
//   (video first while its t <= the audio token's t); its eos follow max(the rest of the longer
//   stream) + 1.
// In a layout such a video is the run of segments tagged with its video item (v1x<H>x<W>#K
// frames and a<N>#K audio pieces, layout.h); the eos follow the max of the run's last segment,
// which is transformers' last entry for the orders FAMILY:v...+a<N> writes.
// rope_delta = max over all ids + 1 - N (both families).
#include <algorithm>
#include <cmath>

#include "family_base.h"
#include "ropescope/errors.h"

namespace ropescope::detail {

namespace {

// The ids of one video stream: temporal offsets of its frames from st_idx (t_index).
double videoTIndex(const OmniFacts& o, int k, double spg) {
  const float x = static_cast<float>(static_cast<float>(k) * static_cast<float>(spg)) *
                  static_cast<float>(o.positionIdPerSeconds);
  return o.floatIds ? static_cast<double>(x) : std::trunc(static_cast<double>(x));
}

struct Walk {
  const OmniFacts& o;
  std::vector<Id3>& ids;
  double last = -1.0;  // max of the last entry of llm_pos_ids_list

  // st_idx + v: int64 for Qwen2.5-Omni (exact in double), float32 for Qwen3-Omni.
  double at(double st, double v) const {
    return o.floatIds ? static_cast<double>(static_cast<float>(st) + static_cast<float>(v))
                      : st + v;
  }
  double start() const { return at(last, 1.0); }
};

double maxOf(const std::vector<Id3>& ids, std::size_t from) {
  double m = -1e300;
  for (std::size_t i = from; i < ids.size(); ++i)
    m = std::max({m, ids[i][0], ids[i][1], ids[i][2]});
  return m;
}

[[noreturn]] void groupError(const std::string& design, int item, const std::string& why) {
  throw InputError(design + ": video item " + std::to_string(item) + " with its sound: " + why,
                   "layout");
}

}  // namespace

PositionIds omniRopeIndex(const Layout& layout, const OmniFacts& o, double fps,
                          const std::string& design) {
  validateLayout(layout);
  PositionIds out;
  out.design = design;
  out.space = MetricSpace::Space;
  const std::size_t n = layout.tokenCount();
  out.ids.reserve(n);
  out.tokens.reserve(n);
  const auto& segs = layout.segments;

  // Token infos, as every walk lists them.
  std::vector<std::size_t> firstToken(segs.size() + 1, 0);
  for (std::size_t s = 0; s < segs.size(); ++s) {
    const Segment& seg = segs[s];
    const int si = static_cast<int>(s);
    firstToken[s] = out.tokens.size();
    if (seg.isText())
      for (int j = 0; j < seg.length; ++j) out.tokens.push_back({Modality::Text, si, -1, -1, -1});
    else if (seg.isAudio())
      for (int j = 0; j < seg.length; ++j) out.tokens.push_back({Modality::Audio, si, j, -1, -1});
    else {
      const Modality m = seg.kind == SegmentKind::Image ? Modality::Image : Modality::Video;
      for (int f = 0; f < seg.frames; ++f)
        for (int r = 0; r < seg.rows; ++r)
          for (int c = 0; c < seg.cols; ++c) out.tokens.push_back({m, si, f, r, c});
    }
  }
  firstToken[segs.size()] = out.tokens.size();

  // Videos with their sound: runs of segments tagged with one video item, audio among them.
  struct Group {
    std::size_t begin, end;  // segments
  };
  std::vector<Group> groups;
  for (std::size_t s = 0; s < segs.size();) {
    const int item = segs[s].videoItem;
    if (item < 0) {
      ++s;
      continue;
    }
    std::size_t e = s;
    bool audio = false, video = false;
    while (e < segs.size() && segs[e].videoItem == item) {
      audio = audio || segs[e].isAudio();
      video = video || segs[e].kind == SegmentKind::Video;
      ++e;
    }
    if (audio && !video)
      groupError(design, item,
                 "its audio (a<N>#" + std::to_string(item) + ") has no frames of the video " +
                     "(v1x<H>x<W>#" + std::to_string(item) + ") beside it");
    if (audio) groups.push_back({s, e});
    s = e;
  }

  // Qwen2.5-Omni: the bos pair before a group and the eos pair after it share a position.
  std::vector<char> sharesWithPrevious(n, 0);
  if (!o.tokenMerge)
    for (const Group& g : groups) {
      const std::size_t b = firstToken[g.begin], e = firstToken[g.end];
      const int item = segs[g.begin].videoItem;
      auto isText = [&](std::size_t t) { return out.tokens[t].modality == Modality::Text; };
      if (b < 2 || !isText(b - 1) || !isText(b - 2) || e + 1 >= n || !isText(e) || !isText(e + 1))
        groupError(design, item,
                   "it needs <|vision_bos|><|audio_bos|> before it and <|audio_eos|>"
                   "<|vision_eos|> after it (two special tokens each side; " +
                       design + ":v<T>x<H>x<W>+a<N> writes them)");
      sharesWithPrevious[b - 1] = 1;
      sharesWithPrevious[e + 1] = 1;
    }

  Walk w{o, out.ids};
  auto spgOf = [&](const Segment& seg) {
    return seg.secondsPerGrid > 0.0 ? seg.secondsPerGrid : 2.0 / fps;
  };
  auto pushGrid = [&](double st, int rows, int cols, double t) {
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) out.ids.push_back({t, w.at(st, r), w.at(st, c)});
  };

  std::size_t g = 0;
  for (std::size_t s = 0; s < segs.size();) {
    const Segment& seg = segs[s];
    if (g < groups.size() && groups[g].begin == s) {
      const Group grp = groups[g++];
      const int item = seg.videoItem;
      // The two streams from one st_idx.
      const double st = w.start();
      int rows = 0, cols = 0;
      double spg = 0.0;
      for (std::size_t k = grp.begin; k < grp.end; ++k) {
        const Segment& part = segs[k];
        if (part.kind != SegmentKind::Video) continue;
        if (rows == 0) {
          rows = part.rows;
          cols = part.cols;
          spg = spgOf(part);
        } else if (part.rows != rows || part.cols != cols || spgOf(part) != spg) {
          groupError(design, item,
                     "its frames differ in grid or seconds per grid (one video_grid_thw entry "
                     "has one grid)");
        }
      }
      int frame = 0;
      double audioNext = 0.0;
      std::size_t lastFrom = out.ids.size();
      for (std::size_t k = grp.begin; k < grp.end; ++k) {
        const Segment& part = segs[k];
        lastFrom = out.ids.size();
        if (part.isAudio()) {
          for (int j = 0; j < part.length; ++j, audioNext += 1.0) {
            const double p = w.at(st, audioNext);
            out.ids.push_back({p, p, p});
          }
        } else {
          for (int f = 0; f < part.frames; ++f, ++frame)
            pushGrid(st, part.rows, part.cols, w.at(st, videoTIndex(o, frame, spg)));
        }
      }
      w.last = maxOf(out.ids, lastFrom);
      s = grp.end;
      continue;
    }
    if (seg.isText() || seg.isAudio()) {
      const std::size_t t0 = firstToken[s];
      for (int j = 0; j < seg.length; ++j) {
        if (sharesWithPrevious[t0 + j]) {
          out.ids.push_back(out.ids.back());
          continue;
        }
        const double p = w.start();
        out.ids.push_back({p, p, p});
        w.last = p;
      }
    } else {
      const double st = w.start();
      const std::size_t from = out.ids.size();
      for (int f = 0; f < seg.frames; ++f) {
        const double t = seg.kind == SegmentKind::Image ? w.at(st, 0.0)
                                                        : w.at(st, videoTIndex(o, f, spgOf(seg)));
        pushGrid(st, seg.rows, seg.cols, t);
      }
      w.last = maxOf(out.ids, from);
    }
    ++s;
  }
  out.ropeDelta = maxOf(out.ids, 0) + 1.0 - static_cast<double>(n);
  if (o.floatIds)
    out.ropeDelta =
        static_cast<double>(static_cast<float>(maxOf(out.ids, 0) + 1.0) - static_cast<float>(n));
  return out;
}

OmniDesign::OmniDesign(std::string name, std::string title, std::string summary, OmniFacts facts)
    : DesignBase(
          std::move(name), std::move(title), std::move(summary), MetricSpace::Space,
          [facts] {
            std::vector<ParameterSpec> specs = {
                rulesParameterSpec(),
                {"position_id_per_seconds",
                 "Ids per second",
                 "Temporal ids per second of video and audio (thinker_config."
                 "position_id_per_seconds, 25 in the config class)",
                 ParameterSpec::Kind::Number,
                 0.0,
                 1000.0,
                 true,
                 facts.positionIdPerSeconds,
                 {}}};
            if (!facts.tokenMerge)
              specs.push_back({"seconds_per_chunk",
                               "Seconds per chunk",
                               "Length of the audio-in-video chunks (thinker_config."
                               "seconds_per_chunk, 2); it orders the tokens, not their ids",
                               ParameterSpec::Kind::Number,
                               0.0,
                               3600.0,
                               true,
                               facts.secondsPerChunk,
                               {}});
            specs.push_back({"fps",
                             "Video fps",
                             "Frames per second for videos without their own seconds per grid "
                             "(video_second_per_grid = 2 / fps; the processor's default: 2 for "
                             "Qwen2.5-Omni, 1 for "
                             "Qwen3-Omni)",
                             ParameterSpec::Kind::Number,
                             0.0,
                             240.0,
                             true,
                             facts.fps,
                             {}});
            return specs;
          }()),
      facts_(facts) {}

PositionIds OmniDesign::ids(const Layout& layout, const ParameterSet& params) const {
  const std::vector<ParameterSpec> specs = parameters();
  validateParameters(params, specs);
  rulesOf(name(), params.get("rules", specs));  // refuses a release without the family
  OmniFacts o = facts_;
  o.positionIdPerSeconds = params.get("position_id_per_seconds", specs);
  if (!o.tokenMerge) o.secondsPerChunk = params.get("seconds_per_chunk", specs);
  return omniRopeIndex(layout, o, params.get("fps", specs), name());
}

}  // namespace ropescope::detail
