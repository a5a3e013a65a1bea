// The token order of an omni video with its own sound (model_family.h omniVideoWithSound), from
// transformers' processing_qwen2_5_omni.py / modeling_qwen2_5_omni.py get_chunked_index (the
// processor and the model cut the same chunks) and processing_qwen3_omni_moe.py /
// modeling_qwen3_omni_moe.py get_rope_index (the token-by-token merge).
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/model_family.h"

namespace ropescope {

namespace {

// t_index[k] of the video stream (as omni_rope_index.cpp computes it, st_idx left out).
double tIndex(const OmniFacts& o, int k, double spg) {
  const float x = static_cast<float>(static_cast<float>(k) * static_cast<float>(spg)) *
                  static_cast<float>(o.positionIdPerSeconds);
  return o.floatIds ? static_cast<double>(x) : std::trunc(static_cast<double>(x));
}

}  // namespace

std::vector<Segment> omniVideoWithSound(const ModelFamily& family, const Segment& video,
                                        int audioTokens, int videoItem) {
  const OmniFacts* o = family.omni();
  if (!o)
    throw InputError(family.name() + " takes no audio; a video's sound needs an omni family " +
                         "(qwen2.5-omni, qwen3-omni)",
                     "layout");
  const double spg = video.secondsPerGrid > 0.0 ? video.secondsPerGrid : 2.0 / o->fps;
  Segment frame = video;
  frame.frames = 1;
  frame.videoItem = videoItem;
  Segment audio = Segment::audio(0);
  audio.videoItem = videoItem;
  const Segment special = Segment::text(1, TextRole::Special);
  std::vector<Segment> out = {special, special};
  // Audio chunks next to each other are one run of tokens (as a tokens file shows them).
  auto pushAudio = [&](long long from, long long to) {
    if (to <= from) return;
    if (out.back().isAudio()) {
      out.back().length += static_cast<int>(to - from);
      return;
    }
    audio.length = static_cast<int>(to - from);
    out.push_back(audio);
  };
  const int frames = video.frames;
  const long long cells = static_cast<long long>(video.rows) * video.cols;
  if (o->tokenMerge) {
    long long emitted = 0;
    for (int k = 0; k < frames; ++k) {
      // Audio token j goes first while j < t_index[k] (the video wins ties).
      const long long upto =
          std::min<long long>(audioTokens, static_cast<long long>(std::ceil(tIndex(*o, k, spg))));
      pushAudio(emitted, upto);
      emitted = std::max(emitted, upto);
      out.push_back(frame);
    }
    pushAudio(emitted, audioTokens);
  } else {
    const double perChunk = std::trunc(o->positionIdPerSeconds * o->secondsPerChunk);
    if (perChunk < 1.0)
      throw InputError(family.name() + ": position_id_per_seconds x seconds_per_chunk must be at " +
                           "least 1 for a video with its sound (got " +
                           std::to_string(o->positionIdPerSeconds * o->secondsPerChunk) + ")",
                       "layout");
    // get_chunked_index over the video's t: a cut before the first token whose t reaches the
    // next multiple of perChunk, one cut per token.
    std::vector<std::pair<int, int>> videoChunks;
    int start = 0;
    double next = perChunk;
    for (int k = 0; k < frames; ++k) {
      const double t = tIndex(*o, k, spg);
      if (t >= next) {
        videoChunks.push_back({start, k});
        start = k;
        next += perChunk;
      }
      if (cells > 1 && t >= next)
        throw InputError(family.name() + ": at " + std::to_string(spg) + " s per grid frame " +
                             std::to_string(k) +
                             " lies more than one chunk after the frame before it, and "
                             "transformers then cuts it in two; ropescope takes up to "
                             "seconds_per_chunk s per grid for a video with its sound",
                         "layout");
    }
    videoChunks.push_back({start, frames});
    const long long per = static_cast<long long>(perChunk);
    const std::size_t audioChunks = static_cast<std::size_t>((audioTokens + per - 1) / per);
    for (std::size_t j = 0; j < std::max(videoChunks.size(), audioChunks); ++j) {
      if (j < videoChunks.size())
        for (int k = videoChunks[j].first; k < videoChunks[j].second; ++k) out.push_back(frame);
      if (j < audioChunks)
        pushAudio(static_cast<long long>(j) * per,
                  std::min<long long>(audioTokens, static_cast<long long>(j + 1) * per));
    }
  }
  out.push_back(special);
  out.push_back(special);
  return out;
}

}  // namespace ropescope
