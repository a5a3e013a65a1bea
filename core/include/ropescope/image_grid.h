// How a picture of h x w pixels becomes an LLM grid: the Hugging Face Qwen2-VL / Qwen2.5-VL
// `smart_resize` rule (round to the factor, then keep the pixel count within min/max pixels).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ropescope {

// The image processor's settings that decide the grid. factor = patch * merge: one LLM token
// covers factor x factor resized pixels (merge x merge ViT patches).
struct ImageGridSettings {
  long long minPixels = 3136;      // Qwen2.5-VL preprocessor_config.json: 56 * 56
  long long maxPixels = 12845056;  // Qwen2.5-VL preprocessor_config.json: 28 * 28 * 16384
  int patch = 14;
  int merge = 2;

  int factor() const { return patch * merge; }
  bool operator==(const ImageGridSettings&) const = default;
};

// Accepted ranges of the settings (checked by validateImageGridSettings).
inline constexpr int kMaxPatch = 1024;
inline constexpr int kMaxMerge = 16;
inline constexpr long long kMaxMaxPixels = 1LL << 40;
// smart_resize refuses pictures whose long side is more than this many times the short side.
inline constexpr double kMaxAspectRatio = 200.0;

// Named presets: "qwen2.5-vl" (patch 14, merge 2, the defaults above) and "qwen3-vl"
// (patch 16, merge 2, min 65536, max 16777216). Throws InputError (field "preset") otherwise.
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

// smart_resize(height, width) exactly as Hugging Face computes it (same double arithmetic, so
// the same floor/ceil at the edges). Throws InputError (field "image") when a side is shorter
// than the factor or the aspect ratio is above 200, as the Hugging Face processor does.
ImageGrid smartResize(long long height, long long width, const ImageGridSettings& settings = {});

}  // namespace ropescope
