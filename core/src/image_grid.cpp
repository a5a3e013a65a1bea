// smart_resize as in Hugging Face's Qwen2-VL image processor. The arithmetic is done in doubles
// in the same order as the Python (int / int true division, math.sqrt, floor, ceil, round), so
// results agree bit for bit: Python's int/int division and sqrt are correctly rounded, like
// IEEE double division and std::sqrt on operands that are exact (products kept below 2^53).
#include "ropescope/image_grid.h"

#include <algorithm>
#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/model_family.h"
#include "ropescope/named.h"
#include "ropescope/scene_fields.h"

namespace ropescope {

namespace {

// Sides are capped so that height * width < 2^53 stays exact as a double.
constexpr long long kMaxSide = 1LL << 26;

// Python's round(x) for a float: nearest integer, halves to even. Written out rather than
// std::nearbyint so a caller's floating-point rounding mode cannot change the grid.
double roundHalfEven(double x) {
  const double r = std::floor(x);
  const double diff = x - r;
  if (diff > 0.5) return r + 1.0;
  if (diff < 0.5) return r;
  return std::fmod(r, 2.0) == 0.0 ? r : r + 1.0;
}

}  // namespace

const char* resizeRuleName(ResizeRule r) {
  switch (r) {
    case ResizeRule::Ernie:
      return "ernie";
    case ResizeRule::Glm:
      return "glm4v";
    case ResizeRule::Qwen:
      break;
  }
  return "qwen";
}

ResizeRule parseResizeRule(std::string_view name) {
  for (ResizeRule r : {ResizeRule::Qwen, ResizeRule::Ernie, ResizeRule::Glm})
    if (name == resizeRuleName(r)) return r;
  throw InputError(
      "unknown resize rule \"" + std::string(name) + "\" (accepted: qwen, ernie, glm4v)",
      "resize_rule");
}

std::vector<std::string> imageGridPresetNames() {
  std::vector<std::string> out;
  for (const ModelFamily* f : allFamilies())
    if (f->ownsImageProcessor()) out.push_back(f->name());
  return out;
}

ImageGridSettings imageGridPreset(std::string_view name) {
  // Each processor's settings are its family's (core/src/families); a family that shares one
  // (Qwen2-VL, Qwen3.5, the omni thinkers) gives the one it uses.
  for (const ModelFamily* f : allFamilies())
    if (f->name() == name) return f->imageGrid();
  throwUnknownName("image grid preset", name, imageGridPresetNames(), "preset");
}

void validateImageGridSettings(const ImageGridSettings& s) {
  // The ranges are the field table's (scene_fields.h), whose bounds are the constants above.
  const auto check = [](long long value, const char* key, const std::string& name) {
    const SceneField& f = sceneField(key);
    if (value < f.spec.min || value > f.spec.max)
      throw InputError(name + " must be " + f.rangeText() + " (got " + std::to_string(value) + ")",
                       f.key());
  };
  check(s.patch, "patch", "patch size");
  check(s.merge, "merge", "merge size");
  check(s.minPixels, "min_pixels", "min_pixels");
  check(s.maxPixels, "max_pixels", "max_pixels");
  if (s.minPixels > s.maxPixels)
    throw InputError("min_pixels (" + std::to_string(s.minPixels) +
                         ") must not be above max_pixels (" + std::to_string(s.maxPixels) + ")",
                     "min_pixels");
}

ImageGrid smartResize(long long height, long long width, const ImageGridSettings& settings) {
  validateImageGridSettings(settings);
  const long long factor = settings.factor();
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  // (The Qwen rule's own message below covers an empty side.)
  if (settings.rule != ResizeRule::Qwen && (height < 1 || width < 1))
    throw InputError("picture " + size + " has no pixels", "image");
  if (settings.rule == ResizeRule::Glm && (height < factor || width < factor) &&
      height <= kMaxSide && width <= kMaxSide) {
    // GLM scales a short side up to the factor first: scale = max(f/h, f/w), int(h * scale).
    const double scale = std::max(static_cast<double>(factor) / static_cast<double>(height),
                                  static_cast<double>(factor) / static_cast<double>(width));
    height = static_cast<long long>(static_cast<double>(height) * scale);
    width = static_cast<long long>(static_cast<double>(width) * scale);
  }
  if (settings.rule == ResizeRule::Qwen && (height < factor || width < factor))
    throw InputError("picture " + size + " has a side shorter than " + std::to_string(factor) +
                         " px (patch " + std::to_string(settings.patch) + " x merge " +
                         std::to_string(settings.merge) + "), which the Qwen processor refuses",
                     "image");
  if (height > kMaxSide || width > kMaxSide)
    throw InputError("picture " + size + " has a side above " + std::to_string(kMaxSide) + " px",
                     "image");
  const double h = static_cast<double>(height), w = static_cast<double>(width);
  const double f = static_cast<double>(factor);
  if (std::max(h, w) / std::min(h, w) > kMaxAspectRatio)
    throw InputError("picture " + size + " has an aspect ratio above 200:1, which the Qwen " +
                         "processor refuses",
                     "image");

  long long hBar = static_cast<long long>(roundHalfEven(h / f)) * factor;
  long long wBar = static_cast<long long>(roundHalfEven(w / f)) * factor;
  // GLM counts an image as num_frames = 2 frames (t_bar = 2) in both the bound and beta.
  const long long frames = settings.rule == ResizeRule::Glm ? 2 : 1;
  const double area = static_cast<double>(frames * height * width);  // exact: below 2^53
  if (frames * hBar * wBar > settings.maxPixels) {
    const double beta = std::sqrt(area / static_cast<double>(settings.maxPixels));
    hBar = std::max(factor, static_cast<long long>(std::floor(h / beta / f)) * factor);
    wBar = std::max(factor, static_cast<long long>(std::floor(w / beta / f)) * factor);
  } else if (frames * hBar * wBar < settings.minPixels) {
    const double beta = std::sqrt(static_cast<double>(settings.minPixels) / area);
    hBar = static_cast<long long>(std::ceil(h * beta / f)) * factor;
    wBar = static_cast<long long>(std::ceil(w * beta / f)) * factor;
  }
  ImageGrid g;
  g.resizedHeight = static_cast<int>(hBar);
  g.resizedWidth = static_cast<int>(wBar);
  g.rows = static_cast<int>(hBar / factor);
  g.cols = static_cast<int>(wBar / factor);
  return g;
}

}  // namespace ropescope
