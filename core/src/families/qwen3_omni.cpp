// Qwen3-Omni (the MoE thinker): as Qwen2.5-Omni, but float32 positions (a video's t = st +
// k * second_per_grid * position_id_per_seconds, not truncated), the two bos and the two eos of
// a video with its sound as ordinary 2-token runs, and that video's frames and audio merged
// token by token by temporal id, video first on ties (omni_rope_index.cpp). Audio tokens: the
// windowed L = ((F % 100 - 1) // 2 + 1 - 1) // 2 + 1 + (F // 100) * 13 (sound_file.h). Rotary:
// interleaved MRoPE as Qwen3-VL (released Qwen/Qwen3-Omni-30B-A3B-Instruct thinker text_config:
// mrope_section [24,20,20], mrope_interleaved, rope_theta 1000000, head_dim 128). Token ids:
// Qwen3OmniMoeThinkerConfig defaults (image 151655, video 151656, audio 151646, audio_start
// 151647), vision start/end 151652/151653, audio_end 151648. position_id_per_seconds: 25 in the
// config class; read the checkpoint's config (--model) where it differs. Pictures: cut as
// Qwen3-VL's processor cuts them (patch 16, merge 2; its vision tower is Qwen3-VL's).
#include "family_base.h"

namespace ropescope::detail {

namespace {

OmniFacts qwen3OmniFacts() {
  OmniFacts o;
  o.positionIdPerSeconds = 25.0;
  o.secondsPerChunk = 2.0;  // unused: the streams are merged token by token
  o.audio = AudioTokenRule::Qwen3Omni;
  o.floatIds = true;
  o.tokenMerge = true;
  o.fps = 1.0;  // Qwen3OmniMoeProcessor: videos_kwargs.get("fps", 1.0)
  o.audioToken = 151646;
  o.audioStart = 151647;
  o.audioEnd = 151648;
  return o;
}

}  // namespace

const ModelFamily& qwen3OmniFamily() {
  static const FamilyDescriptor f(
      {"qwen3-omni",
       "Qwen3-Omni",
       {"qwen3_omni_moe", "qwen3_omni_moe_thinker"},
       familyFrequency("interleaved", {24, 20, 20}, 128, 0, 1e6, PairLayout::NeoX),
       {151655, 151656, 151652, 151653, -1, -1, -1, -1},
       VideoTokens::OneBlock,
       1,
       std::nullopt,
       "qwen3-vl"},  // the thinker's pictures are cut as Qwen3-VL's processor cuts them
      qwen3OmniFacts());
  return f;
}

const PositionDesign& qwen3OmniDesign() {
  static const OmniDesign d("qwen3-omni", "Qwen3-Omni (transformers)",
                            "Qwen3-Omni: float32 ids, audio 1-D at 25 ids per second, a video's "
                            "sound merged with its frames token by token by time.",
                            qwen3OmniFacts());
  return d;
}

}  // namespace ropescope::detail
