// Shipped model families (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, Qwen3.5, GLM-4.1V/4.5V, ERNIE-4.5-VL, and
// the omni models Qwen2.5-Omni and Qwen3-Omni, whose thinker takes audio too):
// what ropescope knows of each beyond its position rule. Each family is also a PositionDesign of
// the same name (its ids, with the Hugging Face rule set as the design parameter "rules"); one
// file per family under core/src/families, listed in core/src/families/family_registry.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/image_grid.h"
#include "ropescope/sound_file.h"

namespace ropescope {

class PositionDesign;
struct Segment;

// How transformers computes get_rope_index: the design parameter "rules" is an index of
// ruleSetNames(): the three named sets first, then every transformers release
// (transformers_release.h). The named sets are aliases of one release each: hf-4.57 = 4.57.1
// (the default: the rule of every 4.x release from 4.52, which most code in use still runs),
// hf-5.3 = 5.3.0, hf-main = main after PR #48669. A RuleSet holds any index of that list.
enum class RuleSet : int {
  Hf457 = 0,  // "hf-4.57" = transformers 4.57.1
  Hf53 = 1,   // "hf-5.3" = transformers 5.3.0 (the mm_token_type_ids rewrite, its bugs included)
  HfMain = 2  // "hf-main" = main after PRs #45330, #45400 and #48669
};
inline constexpr std::size_t kNamedRuleSets = 3;
const char* ruleSetName(RuleSet r);
// The choices in order: "hf-4.57", "hf-5.3", "hf-main", "4.45.0", ..., "5.15.0", "main".
const std::vector<std::string>& ruleSetNames();
// The release a rule set stands for ("4.57.1" for hf-4.57, "main" for hf-main).
std::string ruleSetRelease(std::size_t ruleSet);
// One line per named set: "hf-4.57 = transformers 4.57.1", for help texts.
std::string ruleSetAliasesText();
// Throws InputError (field "rules") for an unknown name, naming the accepted forms. A release
// may be written with a leading "v" ("v5.5.4").
RuleSet parseRuleSet(const std::string& name);
// Refuses a name that is neither a rule set nor one of `alsoAccepted` (check-ids --rules takes
// "all"), with one line listing every accepted form.
void checkRuleSetName(const std::string& name, const std::vector<std::string>& alsoAccepted = {});

// Token ids a family's processor writes around vision content; -1 where the family has none.
struct SpecialTokenIds {
  std::int64_t imageToken = -1;   // <|image_pad|>, <|image|>, ...
  std::int64_t videoToken = -1;   // <|video_pad|> (GLM: frames are image tokens)
  std::int64_t visionStart = -1;  // <|vision_start|> (Qwen)
  std::int64_t visionEnd = -1;
  std::int64_t imageStart = -1;  // GLM <|begin_of_image|>, ERNIE <|IMAGE_START|>
  std::int64_t imageEnd = -1;
  std::int64_t videoStart = -1;  // GLM <|begin_of_video|>, ERNIE <|VIDEO_START|>
  std::int64_t videoEnd = -1;
  bool operator==(const SpecialTokenIds&) const = default;
};

// How a video shows in the token sequence.
enum class VideoTokens {
  OneBlock,       // Qwen2-VL, Qwen2.5-VL, ERNIE: one vision block of T' x H' x W' tokens
  FrameBlocks,    // Qwen3-VL, Qwen3.5: per temporal patch "<ts seconds><vs> frame <ve>"
  FramesAsImages  // GLM: per temporal patch "<boi> image tokens <eoi> ts" inside <bov>...<eov>
};

// What an omni family's thinker adds (thinker_config of config.json; transformers'
// Qwen2_5OmniThinkerConfig / Qwen3OmniMoeThinkerConfig defaults).
struct OmniFacts {
  double positionIdPerSeconds = 25.0;  // temporal ids per second of video and audio
  double secondsPerChunk = 2.0;        // Qwen2.5-Omni: audio-in-video chunk length
  // The processor's default fps: video_second_per_grid = temporal_patch_size (2) / fps
  // (Qwen2.5-Omni 2.0, Qwen3-Omni 1.0).
  double fps = 2.0;
  AudioTokenRule audio = AudioTokenRule::Qwen25Omni;
  bool floatIds = false;         // Qwen3-Omni: float32 positions, video t not truncated
  bool tokenMerge = false;       // Qwen3-Omni: audio in video merged token by token
  std::int64_t audioToken = -1;  // <|AUDIO|>
  std::int64_t audioStart = -1;  // <|audio_bos|>
  std::int64_t audioEnd = -1;    // <|audio_eos|>
  bool operator==(const OmniFacts&) const = default;
};

class ModelFamily {
 public:
  virtual ~ModelFamily() = default;
  virtual std::string name() const = 0;   // "qwen2.5-vl", also its design's name
  virtual std::string title() const = 0;  // "Qwen2.5-VL"
  // config.json model_type values of the family's checkpoints ("qwen2_5_vl").
  virtual std::vector<std::string> modelTypes() const = 0;
  // The rotary of the released checkpoints: plan, sections, head dim, rotary dim, base, pairs.
  virtual FrequencySpec defaultFrequency() const = 0;
  virtual SpecialTokenIds defaultTokenIds() const = 0;
  virtual VideoTokens videoTokens() const = 0;
  // Frames merged into one temporal position of a video (ERNIE 2; Qwen and GLM grids are already
  // in temporal patches: 1).
  virtual int videoTemporalMerge() const { return 1; }
  // How the family's image processor cuts a picture into tokens (its patch, merge, pixel bounds
  // and smart_resize rule): what choosing the family as a design brings, as it brings its rotary.
  virtual ImageGridSettings imageGrid() const = 0;
  // Whether imageGrid() is a processor of the family's own (listed as a preset under the
  // family's name, imageGridPresetNames), not the one of another family it shares.
  virtual bool ownsImageProcessor() const { return false; }
  // The omni facts; nullptr for a family without audio.
  virtual const OmniFacts* omni() const { return nullptr; }
  const PositionDesign& design() const;
};

// The token sequence an omni family's processor writes for a video of `video`'s grid with its
// own sound of `audioTokens` tokens (use_audio_in_video), as layout segments: two special tokens
// (<|vision_bos|><|audio_bos|>), the frames (v1x<H>x<W>#videoItem, each with the video's seconds
// per grid; without one the order takes 2 / the processor's default fps, OmniFacts::fps) and audio
// pieces (a<N>#videoItem) in the processor's order, two special tokens
// (<|audio_eos|><|vision_eos|>). Qwen2.5-Omni: chunks of int(position_id_per_seconds *
// seconds_per_chunk) temporal ids (transformers' get_chunked_index), video chunk j then audio chunk
// j; Qwen3-Omni: merged token by token, a frame before every audio token whose t is not below its
// own. Throws InputError (field "layout") for a family without audio, and for Qwen2.5-Omni when a
// frame would be cut in two (a frame more than one chunk after the one before it: seconds per grid
// above seconds_per_chunk).
std::vector<Segment> omniVideoWithSound(const ModelFamily& family, const Segment& video,
                                        int audioTokens, int videoItem);

const std::vector<const ModelFamily*>& allFamilies();
// Throws InputError listing the supported families for an unknown name.
const ModelFamily& findFamily(const std::string& name);
// nullptr when no family has this config.json model_type.
const ModelFamily* familyForModelType(const std::string& modelType);
// The family whose design is `design` ("qwen3-vl"); nullptr for the research designs.
const ModelFamily* familyOfDesign(const std::string& design);

// How sound files (aud:) become audio tokens under a design: an omni family's own rule, and
// Qwen2.5-Omni's for every other design (the research designs have no processor of their own).
AudioTokenRule audioTokenRuleOf(const std::string& design);

}  // namespace ropescope
