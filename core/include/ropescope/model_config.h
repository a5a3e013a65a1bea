// A shipped checkpoint's own settings, read from its Hugging Face files: config.json (the flat
// form transformers <= 4.57 writes, or the nested text_config / vision_config / rope_parameters
// form of 5.x) and, where present, preprocessor_config.json / video_preprocessor_config.json.
// Configs of public checkpoints ship under resources/models/<name>/ and are usable by name.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/image_grid.h"
#include "ropescope/model_family.h"
#include "ropescope/parameters.h"
#include "ropescope/scene.h"

namespace ropescope {

struct ModelConfig {
  std::string name;           // the folder's name or the shipped name ("qwen2.5-vl-7b")
  std::string family;         // a ModelFamily name, also the design ("qwen2.5-vl"); empty for
                              // a text-only model (text_model.h: design hard, plan vanilla)
  std::string title;          // "Qwen2.5-VL", "Llama (text only)"
  std::string modelType;      // config.json model_type as written ("qwen2_5_vl")
  FrequencySpec frequency;    // the family's plan with the checkpoint's base, dims and sections
  ParameterSet designParams;  // design parameters the config sets (tokens_per_second)
  SpecialTokenIds tokens;
  int spatialMerge = 2;          // vision_config.spatial_merge_size
  int patchSize = 14;            // vision_config.patch_size
  int temporalPatchSize = 2;     // vision_config.temporal_patch_size (ERNIE: temporal_merge_size)
  ImageGridSettings grid;        // min/max pixels of the image processor, patch and merge
  double tokensPerSecond = 0.0;  // Qwen2.5-VL vision_config.tokens_per_second; 0 = none
  // Omni families: the thinker's audio token ids and time scale (thinker_config, else the
  // family's defaults); empty for the others.
  std::optional<OmniFacts> omni;
  // A config whose rope_parameters are keyed by layer type (5.x, Gemma's full_attention /
  // sliding_attention): those layer types, and the one whose block `frequency` holds. Empty
  // when one rope block serves every layer.
  // Gemma 3's 4.x form (one rope block, rope_local_base_freq for the sliding layers) lists its
  // two types here too.
  std::vector<std::string> layerTypes;
  std::string layerType;
  // The layer whose rotary `frequency` is (layer_stack.h modelConfigOfLayer); -1 when picked
  // by layer type or when every layer has the same rotary.
  int layer = -1;
  // text_config.max_position_embeddings (or the top level's): the context the checkpoint was
  // built for; 0 when the config does not say. The id budget's trained length when the rope
  // block names no original length (id_budget.h trainedLengthOf).
  long long maxPositionEmbeddings = 0;
  std::string source;  // the folder read, or "shipped: NAME"
  bool operator==(const ModelConfig&) const = default;
};

// Largest config or preprocessor file read (real ones are a few KiB).
inline constexpr std::size_t kMaxModelConfigBytes = 1u << 20;

// Reads a checkpoint folder (or its config.json given directly), or a shipped model by name.
// Throws InputError (field "model") with one line naming the file and the problem: an unknown
// model_type (listing the supported families), a missing or mistyped field (naming it), a value
// out of range, or an unknown name (listing the shipped models).
// `layerType` picks the rope block of a config with one per layer type (default: full_attention,
// else the first by name); it is refused, naming the accepted ones, where there is no such block.
ModelConfig readModelConfig(const std::string& dirOrName, const std::string& layerType = {});

// The same from the files' text (a fuzzer's input, a test): `preprocessor` and `video` may be
// empty. `name` is used in messages and as ModelConfig::name.
ModelConfig modelConfigFromJson(const std::string& configText, const std::string& preprocessor = {},
                                const std::string& video = {},
                                const std::string& name = "config.json",
                                const std::string& layerType = {});

// The scene with the model's family as design (its parameters from the config, the scene's
// other parameters of that design kept), the model's frequency spec and image-grid settings,
// its pictures cut again by that grid and its sounds counted by the family's rule
// (regridLayout, setAudioTokenRule: a picture that can no longer be read throws), and its name
// as Scene::model.
Scene applyModel(Scene scene, const ModelConfig& model);

// Where shipped model configs live. The program that ships them installs one, as for sample
// pictures: the configs compiled into the program (ropescope/shipped_models.h), or a folder.
struct ModelFiles {
  std::string config, preprocessor, video;  // the files' text; the last two may be empty
};
struct ModelLocator {
  std::function<std::string(const std::string& name)> folderOf;  // "" when there is none
  std::function<std::vector<std::string>()> names;               // sorted
  // In memory, tried before folderOf: false when there is no such model.
  std::function<bool(const std::string& name, ModelFiles* files)> filesOf;
};
void setModelLocator(ModelLocator locator);  // process-wide; an empty one removes it
// The files of a checkpoint folder, a config.json or a shipped model, found as readModelConfig
// finds them; `name` and `source` receive ModelConfig's name and source. InputError as there.
ModelFiles readModelFiles(const std::string& dirOrName, std::string* name = nullptr,
                          std::string* source = nullptr);
// A locator over a folder holding one sub-folder per model (resources/models, or its copy).
ModelLocator modelFolderLocator(const std::string& root);
// The shipped model names ("qwen2.5-vl-7b", ...); empty without a locator.
std::vector<std::string> shippedModelNames();

}  // namespace ropescope
