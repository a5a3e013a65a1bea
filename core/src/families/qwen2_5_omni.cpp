// Qwen2.5-Omni (the thinker): TMRoPE. Images and videos as Qwen2.5-VL's blocks, but a video's
// t = st + trunc(k * second_per_grid * position_id_per_seconds) (25 ids per second), audio a
// 1-D run between <|audio_bos|> and <|audio_eos|>, and a video with its own sound cut into
// seconds_per_chunk (2 s) chunks, video chunk then audio chunk (omni_rope_index.cpp). Audio
// tokens: L = ((F - 1) // 2 + 1 - 2) // 2 + 1 for F mel frames (sound_file.h). Rotary as
// Qwen2-VL (released Qwen/Qwen2.5-Omni-7B thinker_config.text_config: mrope_section [16,24,24],
// rope_theta 1000000, head dim 3584 / 28 = 128). Token ids: Qwen2_5OmniThinkerConfig defaults
// (image_token_index 151655, video_token_index 151656, audio_token_index 151646,
// audio_start_token_id 151647, audio_end_token_id 151648) and vision_start / vision_end 151652 /
// 151653 of the released config.
#include "family_base.h"

namespace ropescope::detail {

namespace {

OmniFacts qwen25OmniFacts() {
  OmniFacts o;
  o.positionIdPerSeconds = 25.0;
  o.secondsPerChunk = 2.0;
  o.audio = AudioTokenRule::Qwen25Omni;
  o.floatIds = false;
  o.tokenMerge = false;
  o.fps = 2.0;
  o.audioToken = 151646;
  o.audioStart = 151647;
  o.audioEnd = 151648;
  return o;
}

}  // namespace

const ModelFamily& qwen25OmniFamily() {
  static const FamilyDescriptor f(
      {"qwen2.5-omni",
       "Qwen2.5-Omni",
       {"qwen2_5_omni", "qwen2_5_omni_thinker"},
       familyFrequency("mrope", {16, 24, 24}, 128, 0, 1e6, PairLayout::NeoX),
       {151655, 151656, 151652, 151653, -1, -1, -1, -1},
       VideoTokens::OneBlock,
       1,
       std::nullopt,
       "qwen2.5-vl"},  // the thinker's pictures are cut as Qwen2.5-VL's processor cuts them
      qwen25OmniFacts());
  return f;
}

const PositionDesign& qwen25OmniDesign() {
  static const OmniDesign d("qwen2.5-omni", "Qwen2.5-Omni (transformers)",
                            "Qwen2.5-Omni TMRoPE: audio 1-D at 25 ids per second, video t in "
                            "seconds x 25, a video's sound interleaved in 2 s chunks.",
                            qwen25OmniFacts());
  return d;
}

}  // namespace ropescope::detail
