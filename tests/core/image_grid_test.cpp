// smart_resize against values computed independently: a table produced by Python's own round(),
// math.floor/ceil and math.sqrt (the Hugging Face rule), and an exact integer formulation of
// each branch checked over whole ranges of sizes.
#include <gtest/gtest.h>

#include <cmath>

#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/model_family.h"

using namespace ropescope;

namespace {

struct Row {
  long long h, w;
  int patch, merge;
  long long minPixels, maxPixels;
  long long hBar, wBar;  // -1, -1: the processor raises ValueError
};

// Produced with python3 (3.x) by this function, the Hugging Face Qwen2-VL smart_resize with the
// side check of the Qwen2.5-VL era, for factor = patch * merge:
//
//   def smart_resize(h, w, factor, min_pixels, max_pixels):
//       if h < factor or w < factor: return None                  # ValueError
//       if max(h, w) / min(h, w) > 200: return None              # ValueError
//       hb = round(h / factor) * factor; wb = round(w / factor) * factor
//       if hb * wb > max_pixels:
//           beta = math.sqrt((h * w) / max_pixels)
//           hb = max(factor, math.floor(h / beta / factor) * factor)
//           wb = max(factor, math.floor(w / beta / factor) * factor)
//       elif hb * wb < min_pixels:
//           beta = math.sqrt(min_pixels / (h * w))
//           hb = math.ceil(h * beta / factor) * factor
//           wb = math.ceil(w * beta / factor) * factor
//       return hb, wb
//
// Rows: sides of 28k+14 (round-half-to-even: 42 -> 56, 70 -> 56, 98 -> 112), the max_pixels
// branch, the min_pixels branch, aspect ratios at and just above 200, Qwen3-VL (factor 32, sides
// 32k+16) and other patch/merge pairs.
const Row kPythonTable[] = {
    {42, 42, 14, 2, 3136, 12845056, 56, 56},
    {70, 70, 14, 2, 3136, 12845056, 56, 56},
    {98, 98, 14, 2, 3136, 12845056, 112, 112},
    {126, 126, 14, 2, 3136, 12845056, 112, 112},
    {154, 154, 14, 2, 3136, 12845056, 168, 168},
    {182, 182, 14, 2, 3136, 12845056, 168, 168},
    {210, 210, 14, 2, 3136, 12845056, 224, 224},
    {238, 238, 14, 2, 3136, 12845056, 224, 224},
    {266, 266, 14, 2, 3136, 12845056, 280, 280},
    {294, 294, 14, 2, 3136, 12845056, 280, 280},
    {322, 322, 14, 2, 3136, 12845056, 336, 336},
    {350, 350, 14, 2, 3136, 12845056, 336, 336},
    {42, 300, 14, 2, 3136, 12845056, 56, 308},
    {500, 42, 14, 2, 3136, 12845056, 504, 56},
    {70, 300, 14, 2, 3136, 12845056, 56, 308},
    {500, 70, 14, 2, 3136, 12845056, 504, 56},
    {98, 300, 14, 2, 3136, 12845056, 112, 308},
    {500, 98, 14, 2, 3136, 12845056, 504, 112},
    {126, 300, 14, 2, 3136, 12845056, 112, 308},
    {500, 126, 14, 2, 3136, 12845056, 504, 112},
    {574, 300, 14, 2, 3136, 12845056, 560, 308},
    {500, 574, 14, 2, 3136, 12845056, 504, 560},
    {602, 300, 14, 2, 3136, 12845056, 616, 308},
    {500, 602, 14, 2, 3136, 12845056, 504, 616},
    {1414, 300, 14, 2, 3136, 12845056, 1400, 308},
    {500, 1414, 14, 2, 3136, 12845056, 504, 1400},
    {1442, 300, 14, 2, 3136, 12845056, 1456, 308},
    {500, 1442, 14, 2, 3136, 12845056, 504, 1456},
    {97, 99, 14, 2, 3136, 12845056, 84, 112},
    {237, 239, 14, 2, 3136, 12845056, 224, 252},
    {4000, 3000, 14, 2, 3136, 12845056, 4004, 2996},
    {3000, 4000, 14, 2, 3136, 12845056, 2996, 4004},
    {3599, 3599, 14, 2, 3136, 12845056, 3584, 3584},
    {3600, 3600, 14, 2, 3136, 12845056, 3584, 3584},
    {3598, 3598, 14, 2, 3136, 12845056, 3584, 3584},
    {8192, 8192, 14, 2, 3136, 12845056, 3584, 3584},
    {6000, 4000, 14, 2, 3136, 12845056, 4368, 2912},
    {12000, 9000, 14, 2, 3136, 12845056, 4116, 3080},
    {30000, 150, 14, 2, 3136, 12845056, 29988, 140},
    {20000, 20000, 14, 2, 3136, 12845056, 3556, 3556},
    {1080, 1920, 14, 2, 3136, 200704, 336, 588},
    {1000, 1000, 14, 2, 3136, 401408, 616, 616},
    {777, 555, 14, 2, 3136, 100352, 364, 252},
    {28, 28, 14, 2, 3136, 12845056, 56, 56},
    {28, 29, 14, 2, 3136, 12845056, 56, 84},
    {30, 40, 14, 2, 3136, 12845056, 56, 84},
    {41, 41, 14, 2, 3136, 12845056, 56, 56},
    {28, 100, 14, 2, 3136, 12845056, 28, 112},
    {100, 100, 14, 2, 200704, 12845056, 448, 448},
    {33, 57, 14, 2, 50176, 12845056, 196, 308},
    {60, 400, 14, 2, 100000, 12845056, 140, 840},
    {28, 5600, 14, 2, 3136, 12845056, 28, 5600},
    {5600, 28, 14, 2, 3136, 12845056, 5600, 28},
    {29, 5800, 14, 2, 3136, 12845056, 28, 5796},
    {100, 20000, 14, 2, 3136, 12845056, 112, 19992},
    {20000, 100, 14, 2, 3136, 12845056, 19992, 112},
    {256, 51200, 14, 2, 3136, 12845056, 252, 50680},
    {28, 5601, 14, 2, 3136, 12845056, -1, -1},
    {5601, 28, 14, 2, 3136, 12845056, -1, -1},
    {100, 20001, 14, 2, 3136, 12845056, -1, -1},
    {40, 8000, 14, 2, 3136, 200704, 28, 6328},
    {48, 48, 16, 2, 65536, 16777216, 256, 256},
    {80, 80, 16, 2, 65536, 16777216, 256, 256},
    {240, 240, 16, 2, 65536, 16777216, 256, 256},
    {272, 272, 16, 2, 65536, 16777216, 256, 256},
    {1080, 1920, 16, 2, 65536, 16777216, 1088, 1920},
    {4000, 3000, 16, 2, 65536, 16777216, 4000, 3008},
    {5000, 5000, 16, 2, 65536, 16777216, 4096, 4096},
    {100, 100, 16, 2, 65536, 16777216, 256, 256},
    {32, 6400, 16, 2, 65536, 16777216, 32, 6400},
    {31, 100, 16, 2, 65536, 16777216, -1, -1},
    {480, 640, 16, 2, 65536, 16777216, 480, 640},
    {1000, 700, 16, 1, 3136, 12845056, 992, 704},
    {1000, 700, 14, 4, 3136, 12845056, 1008, 672},
    {333, 444, 10, 3, 1000, 90000, 240, 330},
};

ImageGridSettings settingsOf(const Row& r) {
  ImageGridSettings s;
  s.patch = r.patch;
  s.merge = r.merge;
  s.minPixels = r.minPixels;
  s.maxPixels = r.maxPixels;
  return s;
}

// Nearest multiple of f to x by search, ties to the even multiple: Python's round(x / f) * f
// for the integer sizes used here.
long long nearestMultipleBySearch(long long x, long long f) {
  long long best = 0;
  for (long long k = 0; k * f <= x + f; ++k) {
    const long long d = std::llabs(x - k * f), db = std::llabs(x - best * f);
    if (d < db || (d == db && k % 2 == 0)) best = k;
  }
  return best * f;
}

}  // namespace

TEST(SmartResize, MatchesPythonReferenceTable) {
  int checked = 0, refused = 0;
  for (const Row& r : kPythonTable) {
    SCOPED_TRACE(std::to_string(r.h) + "x" + std::to_string(r.w) + " patch " +
                 std::to_string(r.patch) + " merge " + std::to_string(r.merge));
    if (r.hBar < 0) {
      EXPECT_THROW(smartResize(r.h, r.w, settingsOf(r)), InputError);
      ++refused;
      continue;
    }
    const ImageGrid g = smartResize(r.h, r.w, settingsOf(r));
    EXPECT_EQ(g.resizedHeight, r.hBar);
    EXPECT_EQ(g.resizedWidth, r.wBar);
    EXPECT_EQ(g.rows, r.hBar / (r.patch * r.merge));
    EXPECT_EQ(g.cols, r.wBar / (r.patch * r.merge));
    ++checked;
  }
  EXPECT_GT(checked, 50);
  EXPECT_GE(refused, 4);
}

TEST(SmartResize, HalfwaySidesRoundToTheEvenMultiple) {
  // 28k + 14 lies halfway between k and k + 1 factors; the even one wins (Python's round).
  ImageGridSettings wide;  // keep both rescaling branches out of the way
  wide.minPixels = 1;
  wide.maxPixels = 1LL << 40;
  for (long long k = 1; k < 200; ++k) {
    const ImageGrid g = smartResize(28 * k + 14, 28 * 100, wide);
    const long long even = k % 2 == 0 ? k : k + 1;
    EXPECT_EQ(g.rows, even) << "side " << 28 * k + 14;
  }
}

TEST(SmartResize, InRangeSidesMatchANearestMultipleSearch) {
  ImageGridSettings s;  // factor 28, wide bounds so only rounding acts
  s.minPixels = 1;
  s.maxPixels = 1LL << 40;
  for (long long h = 28; h < 700; h += 1)
    for (long long w : {28LL, 29LL, 41LL, 42LL, 43LL, 555LL, 1000LL}) {
      const ImageGrid g = smartResize(h, w, s);
      ASSERT_EQ(g.resizedHeight, nearestMultipleBySearch(h, 28)) << h << "x" << w;
      ASSERT_EQ(g.resizedWidth, nearestMultipleBySearch(w, 28)) << h << "x" << w;
    }
}

// Exact forms of the two rescaling branches: floor(h / beta / f) is the largest k with
// (k f)^2 * w <= h * max_pixels, and ceil(h * beta / f) the smallest k with
// (k f)^2 * w >= h * min_pixels. Floating point can differ only on exact equality, which is
// skipped.
TEST(SmartResize, RescalingBranchesMatchExactIntegerBounds) {
  ImageGridSettings s;
  s.maxPixels = 200704;  // 256 tokens of 28 x 28
  s.minPixels = 50176;   // 64 tokens
  int maxBranch = 0, minBranch = 0;
  for (long long h = 28; h < 2000; h += 7)
    for (long long w = 28; w < 2000; w += 97) {
      if (std::max(h, w) > 200 * std::min(h, w)) continue;
      const long long hr = nearestMultipleBySearch(h, 28), wr = nearestMultipleBySearch(w, 28);
      const ImageGrid g = smartResize(h, w, s);
      auto side = [&](long long a, long long b, long long bound, bool down) {
        // a: this side, b: the other side.
        long long k = down ? 0 : 1;
        if (down) {
          while ((k + 1) * 28 * (k + 1) * 28 * b <= a * bound) ++k;
          if ((k * 28) * (k * 28) * b == a * bound) return -1LL;
          return std::max(28LL, k * 28);
        }
        while ((k * 28) * (k * 28) * b < a * bound) ++k;
        if ((k * 28) * (k * 28) * b == a * bound) return -1LL;
        return k * 28;
      };
      if (hr * wr > s.maxPixels) {
        const long long eh = side(h, w, s.maxPixels, true), ew = side(w, h, s.maxPixels, true);
        if (eh > 0) EXPECT_EQ(g.resizedHeight, eh) << h << "x" << w;
        if (ew > 0) EXPECT_EQ(g.resizedWidth, ew) << h << "x" << w;
        EXPECT_LE(static_cast<long long>(g.resizedHeight) * g.resizedWidth, s.maxPixels);
        ++maxBranch;
      } else if (hr * wr < s.minPixels) {
        const long long eh = side(h, w, s.minPixels, false), ew = side(w, h, s.minPixels, false);
        if (eh > 0) EXPECT_EQ(g.resizedHeight, eh) << h << "x" << w;
        if (ew > 0) EXPECT_EQ(g.resizedWidth, ew) << h << "x" << w;
        EXPECT_GE(static_cast<long long>(g.resizedHeight) * g.resizedWidth, s.minPixels);
        ++minBranch;
      } else {
        EXPECT_EQ(g.resizedHeight, hr);
        EXPECT_EQ(g.resizedWidth, wr);
      }
    }
  EXPECT_GT(maxBranch, 100);
  EXPECT_GT(minBranch, 20);
}

TEST(SmartResize, RefusesShortSidesAndExtremeAspectWithAMessage) {
  for (auto [h, w] : {std::pair{27LL, 500LL}, {500LL, 27LL}, {1LL, 1LL}, {0LL, 100LL}}) {
    try {
      smartResize(h, w);
      FAIL() << h << "x" << w << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("shorter than 28"), std::string::npos) << e.what();
    }
  }
  try {
    smartResize(28, 5601);
    FAIL() << "aspect above 200 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("aspect ratio"), std::string::npos) << e.what();
  }
  EXPECT_EQ(smartResize(28, 5600).cols, 200);  // exactly 200:1 is accepted
  // Qwen3-VL's factor is 32: a 31 px side is too short there but fine for Qwen2.5-VL.
  EXPECT_THROW(smartResize(31, 400, imageGridPreset("qwen3-vl")), InputError);
  EXPECT_NO_THROW(smartResize(31, 400));
}

// The processors' settings are written once, in their families' files: every preset is its
// family's grid (the one a family's design brings), a family that shares a processor gives the
// owner's, and the list holds the four processors, with the numbers of their sources (GLM:
// Glm4vImageProcessor's 112 * 112 .. 28 * 28 * 15000; ERNIE: 56 * 56 .. 28 * 28 * 6177).
TEST(ImageGridSettingsTest, PresetsAreTheFamiliesProcessors) {
  EXPECT_EQ(imageGridPresetNames(),
            (std::vector<std::string>{"qwen2.5-vl", "qwen3-vl", "glm4v", "ernie4.5-vl"}));
  for (const ModelFamily* f : allFamilies())
    EXPECT_EQ(imageGridPreset(f->name()), f->imageGrid()) << f->name();
  EXPECT_EQ(imageGridPreset("qwen2-vl"), ImageGridSettings{});
  EXPECT_EQ(imageGridPreset("qwen3.5"), imageGridPreset("qwen3-vl"));
  EXPECT_EQ(imageGridPreset("qwen3-omni"), imageGridPreset("qwen3-vl"));
  EXPECT_EQ(imageGridPreset("qwen2.5-omni"), imageGridPreset("qwen2.5-vl"));
  const ImageGridSettings glm = imageGridPreset("glm4v");
  EXPECT_EQ(glm.minPixels, 12544);
  EXPECT_EQ(glm.maxPixels, 11760000);
  EXPECT_EQ(glm.factor(), 28);
  EXPECT_EQ(glm.rule, ResizeRule::Glm);
  const ImageGridSettings ernie = imageGridPreset("ernie4.5-vl");
  EXPECT_EQ(ernie.minPixels, 3136);
  EXPECT_EQ(ernie.maxPixels, 4842768);
  EXPECT_EQ(ernie.factor(), 28);
  EXPECT_EQ(ernie.rule, ResizeRule::Ernie);
}

TEST(ImageGridSettingsTest, PresetsAndValidation) {
  const ImageGridSettings q25 = imageGridPreset("qwen2.5-vl");
  EXPECT_EQ(q25.factor(), 28);
  EXPECT_EQ(q25.minPixels, 56 * 56);
  EXPECT_EQ(q25.maxPixels, 28LL * 28 * 16384);
  const ImageGridSettings q3 = imageGridPreset("qwen3-vl");
  EXPECT_EQ(q3.factor(), 32);
  EXPECT_EQ(q3.minPixels, 256 * 256);
  EXPECT_EQ(q3.maxPixels, 4096LL * 4096);
  EXPECT_THROW(imageGridPreset("llava"), InputError);
  ImageGridSettings bad;
  bad.minPixels = bad.maxPixels + 1;
  try {
    validateImageGridSettings(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "min_pixels");
  }
  bad = {};
  bad.patch = 0;
  EXPECT_THROW(smartResize(100, 100, bad), InputError);
  bad = {};
  bad.merge = 17;
  EXPECT_THROW(validateImageGridSettings(bad), InputError);
}

// GLM-4.1V's smart_resize (transformers models/glm4v/image_processing_glm4v.py), worked by hand
// with factor 28, min 12544, max 11760000, num_frames = temporal_factor = 2 (t_bar = 2):
// - 3000x3000: h_bar = w_bar = round(3000/28)*28 = 2996; 2*2996^2 = 17952032 > max, so
//   beta = sqrt(2*9e6/11760000) = 1.23718 and floor(3000/beta/28) = 86: 2408 x 2408. The Qwen
//   rule at the same bounds keeps 2996 (2996^2 = 8976016 <= max).
// - 20x100: a side below 28 is scaled first by max(28/20, 28/100) = 1.4 -> 28 x 140; then
//   2*28*140 = 7840 < min, beta = sqrt(12544/7840) = 1.26491: ceil(1.2649) = 2, ceil(6.3246) =
//   7 -> 56 x 196. The Qwen rule refuses the picture.
// - 60 wide x 50 high: h_bar = w_bar = 56; 2*56*56 = 6272 < min: beta = sqrt(12544/6000) =
//   1.44594, ceil(50*beta/28) = 3, ceil(60*beta/28) = 4 -> 84 x 112 (Qwen2.5-VL: 56 x 56).
TEST(SmartResize, GlmCountsAnImageAsTwoFramesAndScalesShortSidesUp) {
  const ImageGridSettings glm = imageGridPreset("glm4v");
  EXPECT_EQ(glm.rule, ResizeRule::Glm);
  EXPECT_EQ(smartResize(3000, 3000, glm), (ImageGrid{2408, 2408, 86, 86}));
  EXPECT_EQ(smartResize(20, 100, glm), (ImageGrid{56, 196, 2, 7}));
  EXPECT_EQ(smartResize(50, 60, glm), (ImageGrid{84, 112, 3, 4}));
  ImageGridSettings qwen = glm;
  qwen.rule = ResizeRule::Qwen;
  EXPECT_EQ(smartResize(3000, 3000, qwen), (ImageGrid{2996, 2996, 107, 107}));
  EXPECT_THROW(smartResize(20, 100, qwen), InputError);
  EXPECT_EQ(smartResize(50, 60, imageGridPreset("qwen2.5-vl")), (ImageGrid{56, 56, 2, 2}));
  // The aspect limit still holds after the scale-up: 1 x 300 becomes 28 x 8400 (300:1).
  EXPECT_THROW(smartResize(1, 300, glm), InputError);
}

// ERNIE-4.5-VL's smart_resize (image_processing_ernie4_5_vl_moe.py), min 3136, max 4842768:
// - 3000x3000: 2996^2 = 8976016 > max: beta = sqrt(9e6/4842768) = 1.36325, floor(78.59) = 78
//   -> 2184 x 2184.
// - 300 wide x 10 high: no side is refused; h_bar = round(10/28)*28 = 0, w_bar = 308, 0 < min:
//   beta = sqrt(3136/3000) = 1.02240, ceil(0.365) = 1, ceil(10.95) = 11 -> 28 x 308.
TEST(SmartResize, ErnieKeepsTheQwenBoundsButRefusesNoShortSide) {
  const ImageGridSettings ernie = imageGridPreset("ernie4.5-vl");
  EXPECT_EQ(ernie.rule, ResizeRule::Ernie);
  EXPECT_EQ(ernie.maxPixels, 28LL * 28 * 6177);
  EXPECT_EQ(smartResize(3000, 3000, ernie), (ImageGrid{2184, 2184, 78, 78}));
  EXPECT_EQ(smartResize(10, 300, ernie), (ImageGrid{28, 308, 1, 11}));
  EXPECT_THROW(smartResize(0, 300, ernie), InputError);
}

TEST(SmartResize, RuleNamesRoundTripAndUnknownOnesAreRefused) {
  for (ResizeRule r : {ResizeRule::Qwen, ResizeRule::Ernie, ResizeRule::Glm})
    EXPECT_EQ(parseResizeRule(resizeRuleName(r)), r);
  try {
    parseResizeRule("llava");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "resize_rule");
    EXPECT_NE(std::string(e.what()).find("qwen, ernie, glm4v"), std::string::npos);
  }
}
