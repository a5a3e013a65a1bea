// The layout of an omni processor's output (tokens_file.h omniLayoutFromTokens). The token
// sequence as processing_qwen2_5_omni.py / processing_qwen3_omni_moe.py write it: an audio is
// "<|audio_bos|>" <|AUDIO|> x L "<|audio_eos|>"; an image or a video
// "<|vision_bos|>" pads "<|vision_eos|>"; a video with its sound (use_audio_in_video)
// "<|vision_bos|><|audio_bos|>", the video and audio pads in the model's order (chunks or the
// token merge), "<|audio_eos|><|vision_eos|>". get_rope_index finds the blocks by the same ids.
#include <set>

#include "ropescope/errors.h"
#include "ropescope/memory_limit.h"
#include "ropescope/tokens_file.h"

namespace ropescope {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw InputError("tokens: " + what, "tokens");
}

}  // namespace

Layout omniLayoutFromTokens(const TokenInput& in, const ModelConfig& model, GridUse* used) {
  const ModelFamily& family = findFamily(model.family);
  const OmniFacts o = model.omni ? *model.omni : *family.omni();
  const SpecialTokenIds& tk = model.tokens;
  const std::vector<std::int64_t>& ids = in.inputIds;
  const std::size_t n = ids.size();
  const long long m = model.spatialMerge;
  if (n == 0) fail("no tokens");
  enum Kind { Text, Image, Video, Audio };
  auto kindOf = [&](std::size_t i) {
    const std::int64_t id = ids[i];
    return id == tk.imageToken   ? Image
           : id == tk.videoToken ? Video
           : id == o.audioToken  ? Audio
                                 : Text;
  };
  // mm_token_type_ids (0 text, 1 image, 2 video, 3 audio), where given, must agree with the ids.
  for (std::size_t i = 0; i < in.mmTokenTypes.size() && i < n; ++i) {
    static const char* kNames[] = {"text", "image", "video", "audio"};
    const int want = kindOf(i) == Image ? 1 : kindOf(i) == Video ? 2 : kindOf(i) == Audio ? 3 : 0;
    if (in.mmTokenTypes[i] != want)
      fail("mm_token_type_ids[" + std::to_string(i) + "] is " + std::to_string(in.mmTokenTypes[i]) +
           " (" + kNames[in.mmTokenTypes[i]] + ") but input_ids[" + std::to_string(i) +
           "] = " + std::to_string(ids[i]) + " is " +
           (want == 0 ? std::string("text") : std::string("the ") + kNames[want] + " token") +
           ": the two come from different outputs");
  }
  std::set<std::int64_t> special;
  for (std::int64_t id : {tk.visionStart, tk.visionEnd, o.audioStart, o.audioEnd})
    if (id >= 0) special.insert(id);

  auto llm = [&](const std::array<long long, 3>& g, const std::string& block, int& rows,
                 int& cols) {
    if (g[1] % m != 0 || g[2] % m != 0)
      fail(block + ": grid " + gridThwText(g) + " is not a multiple of the spatial merge " +
           std::to_string(m));
    rows = static_cast<int>(g[1] / m);
    cols = static_cast<int>(g[2] / m);
  };
  auto spgOf = [&](std::size_t k) {
    return k < in.secondsPerGrid.size() ? in.secondsPerGrid[k] : 0.0;
  };

  Layout layout;
  std::size_t nextImage = 0, nextVideo = 0, audios = 0;
  std::vector<long long> audioTokenCounts;  // per audio block, a video's sound included
  int group = -1;                           // the video item whose sound block is open
  long long groupFrames = 0;                // frames of it taken so far
  for (std::size_t i = 0; i < n;) {
    const Kind k = kindOf(i);
    std::size_t j = i;
    while (j < n && kindOf(j) == k) ++j;
    const std::size_t len = j - i;
    if (k == Text) {
      for (std::size_t a = i; a < j;) {
        const bool sp = special.count(ids[a]) > 0;
        // A video with its sound opens at <|vision_bos|><|audio_bos|> before video tokens.
        if (sp && ids[a] == tk.visionStart && a + 2 < n && ids[a + 1] == o.audioStart &&
            (kindOf(a + 2) == Video || kindOf(a + 2) == Audio)) {
          if (nextVideo >= in.videoGrids.size())
            fail("a video with its sound at token " + std::to_string(a) +
                 ", but video_grid_thw describes " + std::to_string(in.videoGrids.size()) +
                 " videos");
          group = static_cast<int>(nextVideo);
          groupFrames = 0;
          ++audios;
          audioTokenCounts.push_back(0);
        }
        if (sp && ids[a] == o.audioEnd && group >= 0) {
          const auto& g = in.videoGrids[static_cast<std::size_t>(group)];
          if (groupFrames != g[0])
            fail("video " + std::to_string(group) + " (video_grid_thw[" + std::to_string(group) +
                 "] = " + gridThwText(g) + "): " + std::to_string(g[0]) +
                 " frames expected, input_ids hold " + std::to_string(groupFrames));
          ++nextVideo;
          group = -1;
        }
        std::size_t b = a;
        while (b < j && (special.count(ids[b]) > 0) == sp && (!sp || b == a)) ++b;
        layout.segments.push_back(
            Segment::text(static_cast<int>(b - a), sp ? TextRole::Special : TextRole::Plain));
        a = b;
      }
      i = j;
      continue;
    }
    if (k == Audio) {
      Segment a = Segment::audio(static_cast<int>(len));
      a.videoItem = group;
      if (group < 0) {
        ++audios;
        audioTokenCounts.push_back(0);
      }
      audioTokenCounts.back() += static_cast<long long>(len);
      layout.segments.push_back(a);
      i = j;
      continue;
    }
    if (k == Image) {
      for (std::size_t pos = i; pos < j;) {
        if (nextImage >= in.imageGrids.size())
          fail("input_ids hold more image tokens (from token " + std::to_string(pos) +
               ") than image_grid_thw describes");
        const auto& g = in.imageGrids[nextImage];
        int rows = 0, cols = 0;
        llm(g, "image " + std::to_string(nextImage), rows, cols);
        const std::size_t want = static_cast<std::size_t>(rows) * cols * g[0];
        if (g[0] != 1 || j - pos < want)
          fail("image " + std::to_string(nextImage) + " (image_grid_thw[" +
               std::to_string(nextImage) + "] = " + gridThwText(g) + "): " + std::to_string(want) +
               " tokens expected, input_ids hold " + std::to_string(j - pos));
        layout.segments.push_back(Segment::image(rows, cols));
        ++nextImage;
        pos += want;
      }
      i = j;
      continue;
    }
    // Video tokens.
    if (group >= 0) {
      const auto& g = in.videoGrids[static_cast<std::size_t>(group)];
      int rows = 0, cols = 0;
      llm(g, "video " + std::to_string(group), rows, cols);
      const std::size_t cells = static_cast<std::size_t>(rows) * cols;
      if (len % cells != 0)
        fail("video " + std::to_string(group) + " with its sound: a run of " + std::to_string(len) +
             " video tokens (from token " + std::to_string(i) + ") is not whole frames of " +
             std::to_string(cells) +
             " (transformers cut a frame between chunks; ropescope takes whole frames)");
      Segment f = Segment::video(1, rows, cols);
      f.videoItem = group;
      f.secondsPerGrid = spgOf(static_cast<std::size_t>(group));
      for (std::size_t c = 0; c < len / cells; ++c) layout.segments.push_back(f);
      groupFrames += static_cast<long long>(len / cells);
      i = j;
      continue;
    }
    for (std::size_t pos = i; pos < j;) {
      if (nextVideo >= in.videoGrids.size())
        fail("input_ids hold more video tokens (from token " + std::to_string(pos) +
             ") than video_grid_thw describes");
      const auto& g = in.videoGrids[nextVideo];
      int rows = 0, cols = 0;
      llm(g, "video " + std::to_string(nextVideo), rows, cols);
      const std::size_t want = static_cast<std::size_t>(rows) * cols * g[0];
      if (want > maxTokensInMemory() || j - pos < want)
        fail("video " + std::to_string(nextVideo) + " (video_grid_thw[" +
             std::to_string(nextVideo) + "] = " + gridThwText(g) + "): " + std::to_string(want) +
             " tokens expected, input_ids hold " + std::to_string(j - pos));
      Segment v = Segment::video(static_cast<int>(g[0]), rows, cols);
      v.secondsPerGrid = spgOf(nextVideo);
      layout.segments.push_back(v);
      ++nextVideo;
      pos += want;
    }
    i = j;
  }
  if (group >= 0) fail("video " + std::to_string(group) + " with its sound has no <|audio_eos|>");
  if (used) {  // a row of a batch: the grids after its own belong to the next rows
    *used = {nextImage, nextVideo, audios};
    return layout;
  }
  if (nextImage != in.imageGrids.size())
    fail("image_grid_thw has " + std::to_string(in.imageGrids.size()) +
         " entries, input_ids hold " + std::to_string(nextImage) + " images");
  if (nextVideo != in.videoGrids.size())
    fail("video_grid_thw has " + std::to_string(in.videoGrids.size()) +
         " entries, input_ids hold " + std::to_string(nextVideo) + " videos");
  if (!in.audioFeatureLengths.empty() && in.audioFeatureLengths.size() != audios)
    fail("feature_attention_mask has " + std::to_string(in.audioFeatureLengths.size()) +
         " audios, input_ids hold " + std::to_string(audios) + " audio blocks");
  // Each audio's token count is the family's rule over its mel frames (sound_file.h).
  for (std::size_t a = 0; a < in.audioFeatureLengths.size(); ++a) {
    const long long want = audioTokens(in.audioFeatureLengths[a], o.audio);
    if (want != audioTokenCounts[a])
      fail("audio " + std::to_string(a) + ": " + std::to_string(in.audioFeatureLengths[a]) +
           " mel frames (feature_attention_mask) make " + std::to_string(want) + " tokens under " +
           audioTokenRuleName(o.audio) + ", input_ids hold " + std::to_string(audioTokenCounts[a]));
  }
  try {
    validateLayout(layout);
  } catch (const InputError& e) {
    fail(e.what());
  }
  return layout;
}

}  // namespace ropescope
