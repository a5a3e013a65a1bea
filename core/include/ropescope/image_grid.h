// How a picture of h x w pixels becomes an LLM grid: the Hugging Face `smart_resize` rules
// (round to the factor, then keep the pixel count within min/max pixels) of the Qwen2-VL family
// and the two variants of GLM-4.1V's and ERNIE-4.5-VL's image processors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ropescope {

// Which processor's smart_resize (transformers models/<family>/image_processing_*.py):
// - Qwen (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): a side shorter than the factor is refused; the pixel
//   bounds apply to h_bar * w_bar.
// - Ernie (ERNIE-4.5-VL): the same bounds, but no side is refused (a side rounding to 0 is
//   raised by the min_pixels branch).
// - Glm (GLM-4.1V / 4.5V): a side shorter than the factor is first scaled up (both sides times
//   max(factor/h, factor/w), truncated to whole pixels); the bounds apply to t_bar * h_bar *
//   w_bar with num_frames = temporal_factor = 2 (an image counts as two frames), so the
//   effective area bounds are half min/max pixels.
enum class ResizeRule { Qwen, Ernie, Glm };
const char* resizeRuleName(ResizeRule r);  // "qwen", "ernie", "glm4v"
// Throws InputError (field "resize_rule") naming the accepted names.
ResizeRule parseResizeRule(std::string_view name);

// The image processor's settings that decide the grid. factor = patch * merge: one LLM token
// covers factor x factor resized pixels (merge x merge ViT patches).
struct ImageGridSettings {
  long long minPixels = 3136;      // Qwen2.5-VL preprocessor_config.json: 56 * 56
  long long maxPixels = 12845056;  // Qwen2.5-VL preprocessor_config.json: 28 * 28 * 16384
  int patch = 14;
  int merge = 2;
  ResizeRule rule = ResizeRule::Qwen;

  int factor() const { return patch * merge; }
  bool operator==(const ImageGridSettings&) const = default;
};

// Accepted ranges of the settings (checked by validateImageGridSettings).
inline constexpr int kMaxPatch = 1024;
inline constexpr int kMaxMerge = 16;
inline constexpr long long kMaxMaxPixels = 1LL << 40;
// smart_resize refuses pictures whose long side is more than this many times the short side.
inline constexpr double kMaxAspectRatio = 200.0;

// Named presets: a model family's image processor (ModelFamily::imageGrid), written in the
// family's file (core/src/families). Listed: the families with a processor of their own
// (qwen2.5-vl: the defaults above; qwen3-vl, glm4v, ernie4.5-vl); any family's name gives the
// processor it uses. Throws InputError (field "preset") otherwise.
ImageGridSettings imageGridPreset(std::string_view name);
std::vector<std::string> imageGridPresetNames();

// Throws InputError naming the field and its accepted range for patch, merge or pixel bounds
// out of range, or min_pixels above max_pixels.
void validateImageGridSettings(const ImageGridSettings& settings);

// Resized picture size and the LLM grid it gives.
struct ImageGrid {
  int resizedHeight = 0;
  int resizedWidth = 0;
  int rows = 0;  // resizedHeight / factor
  int cols = 0;  // resizedWidth / factor
  long long tokens() const { return static_cast<long long>(rows) * cols; }
  bool operator==(const ImageGrid&) const = default;
};

// smart_resize(height, width) exactly as Hugging Face computes it under settings.rule (same
// double arithmetic, so the same floor/ceil at the edges). Throws InputError (field "image")
// when the processor refuses the picture: a side shorter than the factor (Qwen rule only) or
// an aspect ratio above 200.
ImageGrid smartResize(long long height, long long width, const ImageGridSettings& settings = {});

}  // namespace ropescope
