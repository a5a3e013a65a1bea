// What the model-family files share: a descriptor class holding a family's facts, and the
// family position design, whose ids follow transformers' get_rope_index under the rule set chosen
// by the "rules" parameter (hf_rope_index.cpp). The rotary of a released checkpoint is as
// each family file names it from the published config
// (docs/families.md#rotary-of-the-released-checkpoints); token ids are the defaults of
// transformers' config classes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "../designs/design_base.h"
#include "ropescope/image_grid.h"
#include "ropescope/model_family.h"
#include "ropescope/transformers_release.h"

namespace ropescope::detail {

// How a family's videos get temporal ids.
enum class VideoTime {
  FrameIndex,  // one block, t_rel = k (Qwen2-VL, ERNIE-4.5-VL)
  Seconds,     // one block, t_rel from seconds per grid x tokens_per_second (Qwen2.5-VL)
  PerFrame     // every frame its own block with t = its start (Qwen3-VL, Qwen3.5, GLM-4.1V)
};

struct RopeIndexSettings {
  ReleaseRules rules;
  std::string release = "4.57.1";  // what the rules are of, for messages ("5.3.0")
  VideoTime video = VideoTime::FrameIndex;
  double tokensPerSecond = 2.0;  // Seconds only
  double fps = 2.0;  // Seconds only: a video without secondsPerGrid has 2 / fps s per grid
};

// get_rope_index of `layout` under the settings (hf_rope_index.cpp). rope_delta = max id + 1 - N
// (the unpadded length; ropeDeltaAsReturned gives what a release returns for padded inputs).
// Throws InputError (field "rules") where the release raises, naming the release and the PR.
PositionIds hfRopeIndex(const Layout& layout, const RopeIndexSettings& settings,
                        const std::string& design);

// The design parameter "rules" every family design takes: a choice of ruleSetNames().
ParameterSpec rulesParameterSpec();

// The settings of design parameter "rules" (an index of ruleSetNames()) for a family's design.
RopeIndexSettings rulesOf(const std::string& family, double rulesParameter);

// Where a family's config.json is read differently from the common reading (model_config.cpp).
struct ConfigQuirks {
  bool sectionsHwt = false;     // mrope_section lists h, w, t; the family's plan takes t, h, w
  bool freqAllocation = false;  // no mrope_section: text_config.freq_allocation t pairs, h
                                // and w share the rest
  bool needsTokensPerSecond = false;  // vision_config.tokens_per_second must be given
};

// The facts of one family, as listed in its file.
struct FamilyFacts {
  std::string name, title;
  std::vector<std::string> modelTypes;
  FrequencySpec frequency;
  SpecialTokenIds tokens;
  VideoTokens videoTokens = VideoTokens::OneBlock;
  int videoTemporalMerge = 1;
  // The image processor: the family's own settings (its preprocessor_config.json / processor
  // class defaults, with their source in the family's file), or none and the name of the family
  // whose processor it uses.
  std::optional<ImageGridSettings> processor;
  std::string processorOf;
  ConfigQuirks config;
};

class FamilyDescriptor final : public ModelFamily {
 public:
  explicit FamilyDescriptor(FamilyFacts f, std::optional<OmniFacts> omni = std::nullopt)
      : f_(std::move(f)), omni_(std::move(omni)) {}
  std::string name() const override { return f_.name; }
  std::string title() const override { return f_.title; }
  std::vector<std::string> modelTypes() const override { return f_.modelTypes; }
  FrequencySpec defaultFrequency() const override { return f_.frequency; }
  SpecialTokenIds defaultTokenIds() const override { return f_.tokens; }
  VideoTokens videoTokens() const override { return f_.videoTokens; }
  int videoTemporalMerge() const override { return f_.videoTemporalMerge; }
  ImageGridSettings imageGrid() const override {
    return f_.processor ? *f_.processor : findFamily(f_.processorOf).imageGrid();
  }
  bool ownsImageProcessor() const override { return f_.processor.has_value(); }
  const ConfigQuirks& configQuirks() const { return f_.config; }
  const OmniFacts* omni() const override { return omni_ ? &*omni_ : nullptr; }

 private:
  FamilyFacts f_;
  std::optional<OmniFacts> omni_;
};

// A family's position design: parameter "rules" first, then, for VideoTime::Seconds,
// tokens_per_second and fps.
class FamilyDesign final : public DesignBase {
 public:
  FamilyDesign(std::string name, std::string title, std::string summary, VideoTime video);
  PositionIds ids(const Layout& layout, const ParameterSet& params) const override;

 private:
  VideoTime video_;
};

// get_rope_index of Qwen2.5-Omni and Qwen3-Omni (omni_rope_index.cpp) with `omni`'s time scale;
// `fps` gives second_per_grid_ts = 2 / fps to videos without their own seconds per grid.
PositionIds omniRopeIndex(const Layout& layout, const OmniFacts& omni, double fps,
                          const std::string& design);

// An omni family's position design: parameters "rules" (accepted for the check-ids and GUI
// plumbing every family shares; the omni get_rope_index is the same under all three),
// position_id_per_seconds, seconds_per_chunk (Qwen2.5-Omni) and fps.
class OmniDesign final : public DesignBase {
 public:
  OmniDesign(std::string name, std::string title, std::string summary, OmniFacts facts);
  PositionIds ids(const Layout& layout, const ParameterSet& params) const override;

 private:
  OmniFacts facts_;
};

// How `family`'s config.json is read where it differs (none for a family without quirks).
ConfigQuirks configQuirksOf(const ModelFamily& family);

// The rotary of a released checkpoint, for the family files.
FrequencySpec familyFrequency(const std::string& plan, std::vector<int> sections, int headDim,
                              int rotaryDim, double base, PairLayout pairs);

const ModelFamily& qwen2VlFamily();
const ModelFamily& qwen25VlFamily();
const ModelFamily& qwen3VlFamily();
const ModelFamily& qwen35Family();
const ModelFamily& glm4vFamily();
const ModelFamily& ernie45VlFamily();
const ModelFamily& qwen25OmniFamily();
const ModelFamily& qwen3OmniFamily();

const PositionDesign& qwen2VlDesign();
const PositionDesign& qwen25VlDesign();
const PositionDesign& qwen3VlDesign();
const PositionDesign& qwen35Design();
const PositionDesign& glm4vDesign();
const PositionDesign& ernie45VlDesign();
const PositionDesign& qwen25OmniDesign();
const PositionDesign& qwen3OmniDesign();

}  // namespace ropescope::detail
