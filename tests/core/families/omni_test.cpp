// The omni families: qwen2.5-omni and qwen3-omni ids against vectors worked by hand
// from transformers' get_rope_index (models/qwen2_5_omni/modeling_qwen2_5_omni.py and
// models/qwen3_omni_moe/modeling_qwen3_omni_moe.py, class
// *PreTrainedModelForConditionalGeneration), and the layout items that write their token
// sequences.
//
// Conventions of the hand derivations (read line by line from those functions):
// - st_idx = llm_pos_ids_list[-1].max() + 1: every entry (a text run, a bos/eos token, an audio
//   run, a vision block) starts one past the max of the entry before it.
// - Text and audio: st + j on all three axes. Image: (st, st + r, st + c). Video: (st +
//   t_index[k], st + r, st + c), t_index = arange(T) * second_per_grids[v] (float32) *
//   position_id_per_seconds (25): Qwen2.5-Omni .long() (truncated), Qwen3-Omni float32.
// - Video with its sound, Qwen2.5-Omni: the bos pair shares one position, both streams start
//   one after it, chunks of int(25 * 2) = 50 temporal ids (get_chunked_index), video chunk j
//   then audio chunk j, the eos pair shares max(last chunk) + 1.
// - Video with its sound, Qwen3-Omni: bos/eos pairs are ordinary 2-token entries (arange(2) +
//   st_idx); a video token goes first while its t <= the audio token's t; after the loop the
//   rest of the other stream is one entry; eos at max(that entry) + 1.
// - rope_delta = max id + 1 - N.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <random>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/tokens_file.h"
#include "test_util.h"

using namespace ropescope;

namespace {

PositionIds idsOf(const std::string& family, const std::string& spec, ParameterSet params = {}) {
  return findDesign(family).ids(parseLayoutSpec(spec), params);
}

void text(std::vector<Id3>& v, double p, int n) {
  for (int i = 0; i < n; ++i) v.push_back({p + i, p + i, p + i});
}

// One frame (or an image) of rows x cols at temporal id t, spatial start s.
void frame(std::vector<Id3>& v, double t, double s, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) v.push_back({t, s + r, s + c});
}

using test::messageOf;

}  // namespace

TEST(Omni, FamiliesAreRegisteredWithTheirFacts) {
  const ModelFamily& q25 = findFamily("qwen2.5-omni");
  const ModelFamily& q3 = findFamily("qwen3-omni");
  ASSERT_NE(q25.omni(), nullptr);
  ASSERT_NE(q3.omni(), nullptr);
  EXPECT_EQ(findFamily("qwen2.5-vl").omni(), nullptr);
  EXPECT_EQ(familyForModelType("qwen2_5_omni"), &q25);
  EXPECT_EQ(familyForModelType("qwen3_omni_moe"), &q3);
  EXPECT_EQ(q25.omni()->positionIdPerSeconds, 25.0);
  EXPECT_EQ(q25.omni()->secondsPerChunk, 2.0);
  EXPECT_EQ(q25.omni()->audio, AudioTokenRule::Qwen25Omni);
  EXPECT_EQ(q3.omni()->audio, AudioTokenRule::Qwen3Omni);
  EXPECT_FALSE(q25.omni()->floatIds);
  EXPECT_TRUE(q3.omni()->floatIds);
  // Qwen2_5OmniThinkerConfig defaults: audio_token_index 151646, audio_start_token_id 151647.
  EXPECT_EQ(q25.omni()->audioToken, 151646);
  EXPECT_EQ(q25.omni()->audioStart, 151647);
  EXPECT_EQ(q25.defaultTokenIds().visionStart, 151652);
  EXPECT_EQ(q25.defaultFrequency().plan, "mrope");
  EXPECT_EQ(q3.defaultFrequency().plan, "interleaved");
  EXPECT_EQ(&q25.design(), &findDesign("qwen2.5-omni"));
}

TEST(Omni, AudioOnlyIsOneStreamLikeText) {
  // No image or video grid: get_rope_index's else branch, attention_mask.cumsum(-1) - 1.
  const Layout l = parseLayoutSpec("t3,qwen2.5-omni:a4,t2");
  EXPECT_EQ(formatLayoutSpec(l), "t3,s1,a4,s1,t2");
  for (const std::string fam : {"qwen2.5-omni", "qwen3-omni"}) {
    const PositionIds ids = findDesign(fam).ids(l, {});
    std::vector<Id3> want;
    text(want, 0, 11);
    EXPECT_EQ(ids.ids, want) << fam;
    EXPECT_EQ(ids.ropeDelta, 0.0) << fam;
    EXPECT_EQ(ids.audioIndices().size(), 4u);
  }
}

TEST(Omni, ImageThenAudio) {
  // t0 t1 <vision_bos>=2, image st 3 (2x3), <vision_eos> = max 5 + 1 = 6, text 7,
  // <audio_bos> 8, audio 9..11, <audio_eos> 12, text 13. N 17, delta 14 - 17.
  const std::string spec = "t2,qwen2.5-omni:i2x3,t1,qwen2.5-omni:a3,t1";
  std::vector<Id3> want;
  text(want, 0, 3);
  frame(want, 3, 3, 2, 3);
  text(want, 6, 8);
  for (const std::string fam : {"qwen2.5-omni", "qwen3-omni"}) {
    const PositionIds ids = idsOf(fam, spec);
    EXPECT_EQ(ids.ids, want) << fam;
    EXPECT_EQ(ids.ropeDelta, -3.0) << fam;
  }
}

TEST(Omni, Qwen25VideoWithItsSoundOverTwoChunks) {
  // qwen2.5-omni:v4x2x2@1s+a60: t_index = k * 1.0 * 25 = 0, 25, 50, 75; video chunks (50 ids):
  // frames {0, 1} and {2, 3}; audio chunks [0, 50) and [50, 60).
  const std::string spec = "t2,qwen2.5-omni:v4x2x2@1s+a60,t1";
  const Layout l = parseLayoutSpec(spec);
  EXPECT_EQ(formatLayoutSpec(l),
            "t2,s1,s1,v1x2x2#0@1s,v1x2x2#0@1s,a50#0,v1x2x2#0@1s,v1x2x2#0@1s,a10#0,s1,s1,t1");
  // t 0 1; bos pair 2 2; st 3: frames t 3, 28; audio 3..52; frames t 53, 78; audio 53..62;
  // the last chunk is audio (max 62): eos pair 63 63; text 64.
  std::vector<Id3> want;
  text(want, 0, 2);
  want.push_back({2, 2, 2});
  want.push_back({2, 2, 2});
  frame(want, 3, 3, 2, 2);
  frame(want, 28, 3, 2, 2);
  text(want, 3, 50);
  frame(want, 53, 3, 2, 2);
  frame(want, 78, 3, 2, 2);
  text(want, 53, 10);
  want.push_back({63, 63, 63});
  want.push_back({63, 63, 63});
  text(want, 64, 1);
  const PositionIds ids = findDesign("qwen2.5-omni").ids(l, {});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 79.0 - 83.0);  // max 78 (frame 3)
  EXPECT_EQ(ids.audioIndices().size(), 60u);
}

TEST(Omni, Qwen25SoundLongerThanItsVideo) {
  // v2x1x1@2s: t_index 0, 50 -> video chunks {0}, {1}; 120 audio tokens -> chunks of 50, 50, 20;
  // chunk 2 has no video. bos 0 0; st 1; f0 (1,1,1); audio 1..50; f1 t 51; audio 51..120;
  // eos pair 121 121. N 126, max 121.
  const Layout l = parseLayoutSpec("qwen2.5-omni:v2x1x1@2s+a120");
  // (Chunks 1 and 2 of the audio are one run of 70 tokens.)
  EXPECT_EQ(formatLayoutSpec(l), "s1,s1,v1x1x1#0@2s,a50#0,v1x1x1#0@2s,a70#0,s1,s1");
  std::vector<Id3> want = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}};
  text(want, 1, 50);
  want.push_back({51, 1, 1});
  text(want, 51, 70);
  want.push_back({121, 121, 121});
  want.push_back({121, 121, 121});
  const PositionIds ids = findDesign("qwen2.5-omni").ids(l, {});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 122.0 - 126.0);
}

TEST(Omni, Qwen25EosAfterAVideoChunk) {
  // v4x3x2@1s+a10: video chunks {0,1}, {2,3}; one audio chunk. Order f0 f1 a10 f2 f3: the last
  // entry is video chunk 1 (max = t of frame 3 = 1 + 75 = 76): eos pair 77 77.
  const Layout l = parseLayoutSpec("qwen2.5-omni:v4x3x2@1s+a10");
  EXPECT_EQ(formatLayoutSpec(l),
            "s1,s1,v1x3x2#0@1s,v1x3x2#0@1s,a10#0,v1x3x2#0@1s,v1x3x2#0@1s,s1,s1");
  std::vector<Id3> want = {{0, 0, 0}, {0, 0, 0}};
  frame(want, 1, 1, 3, 2);
  frame(want, 26, 1, 3, 2);
  text(want, 1, 10);
  frame(want, 51, 1, 3, 2);
  frame(want, 76, 1, 3, 2);
  want.push_back({77, 77, 77});
  want.push_back({77, 77, 77});
  const PositionIds ids = findDesign("qwen2.5-omni").ids(l, {});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 78.0 - 38.0);
}

TEST(Omni, StreamIdsDoNotDependOnTheTokenOrder) {
  // transformers computes audio_llm_pos_ids and video_llm_pos_ids from one st_idx before it
  // orders them: audio first, the same ids; only the eos follows the new last segment.
  const PositionIds a = idsOf("qwen2.5-omni",
                              "s1,s1,a60#0,v1x2x2#0@1s,v1x2x2#0@1s,v1x2x2#0@1s,"
                              "v1x2x2#0@1s,s1,s1");
  const PositionIds b = idsOf("qwen2.5-omni", "qwen2.5-omni:v4x2x2@1s+a60");
  std::vector<Id3> audioA, audioB, videoA, videoB;
  for (std::size_t i : a.audioIndices()) audioA.push_back(a.ids[i]);
  for (std::size_t i : b.audioIndices()) audioB.push_back(b.ids[i]);
  for (std::size_t i : a.visualIndices()) videoA.push_back(a.ids[i]);
  for (std::size_t i : b.visualIndices()) videoB.push_back(b.ids[i]);
  EXPECT_EQ(audioA, audioB);
  EXPECT_EQ(videoA, videoB);
  EXPECT_EQ(a.ids.back(), (Id3{77, 77, 77}));  // after the frame at t 1 + 75 = 76, max 76
  EXPECT_EQ(b.ids.back(), (Id3{61, 61, 61}));  // after audio 1..60
}

TEST(Omni, Qwen25TruncatesTheFloat32Product) {
  // t_index[6] = long(f32(f32(6) * f32(0.7)) * 25) = long(104.99999237) = 104, where the exact
  // 6 * 0.7 * 25 is 105. Frames: 0, 17 (17.5), 35, 52 (52.499996), 70, 87 (87.5), 104.
  const PositionIds ids = idsOf("qwen2.5-omni", "qwen2.5-omni:v7x1x1@0.7s");
  std::vector<Id3> want = {{0, 0, 0}};
  for (double t : {0, 17, 35, 52, 70, 87, 104}) want.push_back({1 + t, 1, 1});
  want.push_back({106, 106, 106});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 107.0 - 9.0);
}

TEST(Omni, Qwen3KeepsFloatIds) {
  // Same video under Qwen3-Omni: t = f32(st + t_index) with t_index in float32 (no .long()).
  const PositionIds ids = idsOf("qwen3-omni", "qwen3-omni:v7x1x1@0.7s");
  std::vector<Id3> want = {{0, 0, 0}};
  for (double t : {1.0, 18.5, 36.0, 53.499996185302734, 71.0, 88.5, 105.99999237060547})
    want.push_back({t, 1, 1});
  want.push_back({106.99999237060547, 106.99999237060547, 106.99999237060547});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 98.99999237060547);
  // Half-second grids: t 3, 15.5, 28 after t2 + <vision_bos>; eos 29, text 30.
  const PositionIds half = idsOf("qwen3-omni", "t2,qwen3-omni:v3x1x2@0.5s,t1");
  std::vector<Id3> w2;
  text(w2, 0, 3);
  frame(w2, 3, 3, 1, 2);
  frame(w2, 15.5, 3, 1, 2);
  frame(w2, 28, 3, 1, 2);
  text(w2, 29, 2);
  EXPECT_EQ(half.ids, w2);
  EXPECT_EQ(half.ropeDelta, 31.0 - 11.0);
  // Qwen2.5-Omni truncates 12.5 to 12.
  EXPECT_EQ(idsOf("qwen2.5-omni", "t2,qwen2.5-omni:v3x1x2@0.5s,t1").ids[5][0], 15.0);
}

TEST(Omni, Qwen3MergesItsVideoAndSoundTokenByToken) {
  // t1, then bos 1, 2 (arange(2) + st_idx); st 3. Frames t 3, 28, 53 (1 s per grid x 25);
  // audio 3..62. Video first while its t <= the audio t: f0, a 3..27, f1 (28 <= 28), a 28..52,
  // f2, the rest a 53..62 as one entry (max 62): eos 63, 64. N 77, max 64.
  const std::string spec = "t1,qwen3-omni:v3x2x2@1s+a60";
  const Layout l = parseLayoutSpec(spec);
  EXPECT_EQ(formatLayoutSpec(l),
            "t1,s1,s1,v1x2x2#0@1s,a25#0,v1x2x2#0@1s,a25#0,v1x2x2#0@1s,a10#0,s1,s1");
  std::vector<Id3> want;
  text(want, 0, 3);
  frame(want, 3, 3, 2, 2);
  text(want, 3, 25);
  frame(want, 28, 3, 2, 2);
  text(want, 28, 25);
  frame(want, 53, 3, 2, 2);
  text(want, 53, 10);
  text(want, 63, 2);
  const PositionIds ids = findDesign("qwen3-omni").ids(l, {});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, 65.0 - 77.0);
}

TEST(Omni, Qwen3MergeWithFractionalTimes) {
  // v2x1x1@0.5s+a20: t_index 0, 12.5. bos 0, 1; st 2: f0 (2,2,2); audio while its t < 14.5:
  // 2..14 (13 tokens); f1 (14.5, 2, 2); the rest 15..21; eos 22, 23. N 26, max 23.
  const Layout l = parseLayoutSpec("qwen3-omni:v2x1x1@0.5s+a20");
  EXPECT_EQ(formatLayoutSpec(l), "s1,s1,v1x1x1#0@0.5s,a13#0,v1x1x1#0@0.5s,a7#0,s1,s1");
  std::vector<Id3> want;
  text(want, 0, 2);
  want.push_back({2, 2, 2});
  text(want, 2, 13);
  want.push_back({14.5, 2, 2});
  text(want, 15, 7);
  text(want, 22, 2);
  const PositionIds ids = findDesign("qwen3-omni").ids(l, {});
  EXPECT_EQ(ids.ids, want);
  EXPECT_EQ(ids.ropeDelta, -2.0);
}

TEST(Omni, PositionIdPerSecondsParameter) {
  // 13 ids per second (a port's config): t_index = k * 1.0 * 13 = 0, 13.
  ParameterSet p;
  p.set("position_id_per_seconds", 13.0);
  const PositionIds ids = idsOf("qwen2.5-omni", "qwen2.5-omni:v2x1x1@1s", p);
  EXPECT_EQ(ids.ids[1], (Id3{1, 1, 1}));
  EXPECT_EQ(ids.ids[2], (Id3{14, 1, 1}));
  // Without @S: second_per_grid 2 / fps; fps 4 -> 0.5 s -> t_index 12 (12.5 truncated).
  ParameterSet fps;
  fps.set("fps", 4.0);
  EXPECT_EQ(idsOf("qwen2.5-omni", "qwen2.5-omni:v2x1x1", fps).ids[2], (Id3{13, 1, 1}));
  EXPECT_NE(messageOf([] {
              idsOf("qwen2.5-omni", "t1", [] {
                ParameterSet b;
                b.set("position_id_per_seconds", -1.0);
                return b;
              }());
            }),
            "(no error)");
}

TEST(Omni, LayoutItemsAndTheirErrors) {
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("a40#2,t1")), "a40#2,t1");
  EXPECT_EQ(parseLayoutSpec("a40#2").segments[0].videoItem, 2);
  EXPECT_NE(messageOf([] { parseLayoutSpec("a40@1s"); }).find("audio takes no @SECONDS"),
            std::string::npos);
  EXPECT_NE(messageOf([] { parseLayoutSpec("a40#x"); }).find("#ITEM takes"), std::string::npos);
  EXPECT_NE(messageOf([] { parseLayoutSpec("qwen2.5-vl:v2x2x2+a10"); }).find("takes no audio"),
            std::string::npos);
  EXPECT_NE(messageOf([] { parseLayoutSpec("qwen2.5-vl:a10"); }).find("a model's item is"),
            std::string::npos);
  EXPECT_NE(messageOf([] {
              parseLayoutSpec("qwen2.5-omni:i2x2+a4");
            }).find("only a video has a sound of its own"),
            std::string::npos);
  EXPECT_NE(messageOf([] { parseLayoutSpec("qwen2.5-omni:v2x2x2+b4"); }).find("+a<N>"),
            std::string::npos);
  EXPECT_NE(
      messageOf([] { parseLayoutSpec("qwen2.5-omni:v2x2x2+a0"); }).find("audio length must be 1.."),
      std::string::npos);
  // 3 s per grid: t_index 0, 75, 150; frame 2 is two chunks past frame 1, and transformers'
  // get_chunked_index would cut it after its first token.
  const std::string cut = messageOf([] { parseLayoutSpec("qwen2.5-omni:v3x2x2@3s+a10"); });
  EXPECT_NE(cut.find("layout item 1"), std::string::npos) << cut;
  EXPECT_NE(cut.find("frame 2"), std::string::npos) << cut;
  // With one token per frame there is no cut inside a frame: accepted.
  EXPECT_NO_THROW(parseLayoutSpec("qwen2.5-omni:v3x1x1@3s+a10"));
  // Qwen3-Omni merges by time: any seconds per grid.
  EXPECT_NO_THROW(parseLayoutSpec("qwen3-omni:v3x2x2@3s+a10"));
  // Without @S: 2 / the processor's default fps. Qwen3-Omni's fps 1 gives 2 s per grid, t_index
  // 0, 50: audio 0..49 before frame 1.
  EXPECT_EQ(formatLayoutSpec(parseLayoutSpec("qwen3-omni:v2x1x1+a60")),
            "s1,s1,v1x1x1#0,a50#0,v1x1x1#0,a10#0,s1,s1");
  EXPECT_EQ(idsOf("qwen3-omni", "qwen3-omni:v2x1x1+a60").ids[53], (Id3{52, 2, 2}));
  // Two videos with their sound number their items.
  const Layout two = parseLayoutSpec("qwen3-omni:v1x1x1+a2,qwen3-omni:v1x1x1+a2");
  EXPECT_EQ(formatLayoutSpec(two), "s1,s1,v1x1x1#0,a2#0,s1,s1,s1,s1,v1x1x1#1,a2#1,s1,s1");
}

TEST(Omni, DesignRefusesABrokenVideoWithSound) {
  const std::string orphan = messageOf([] { idsOf("qwen2.5-omni", "t1,a4#0,t1"); });
  EXPECT_NE(orphan.find("has no frames of the video"), std::string::npos) << orphan;
  const std::string noBos = messageOf([] { idsOf("qwen2.5-omni", "v1x2x2#0,a4#0,s1,s1"); });
  EXPECT_NE(noBos.find("<|vision_bos|><|audio_bos|>"), std::string::npos) << noBos;
  const std::string grids =
      messageOf([] { idsOf("qwen3-omni", "s1,s1,v1x2x2#0,a4#0,v1x2x3#0,s1,s1"); });
  EXPECT_NE(grids.find("differ in grid"), std::string::npos) << grids;
  // Frames tagged #K with no audio are ordinary videos (no pairs needed).
  EXPECT_NO_THROW(idsOf("qwen2.5-omni", "v1x2x2#0,t1"));
}

namespace {

// The released Qwen/Qwen2.5-Omni-7B config.json, cut to the fields ropescope reads: everything
// of the thinker sits in thinker_config, the text model in thinker_config.text_config.
const char* kQwen25OmniConfig = R"({
  "model_type": "qwen2_5_omni",
  "thinker_config": {
    "model_type": "qwen2_5_omni_thinker",
    "audio_token_index": 151646, "image_token_index": 151655, "video_token_index": 151656,
    "audio_start_token_id": 151647, "audio_end_token_id": 151648,
    "vision_start_token_id": 151652, "vision_end_token_id": 151653,
    "position_id_per_seconds": 25, "seconds_per_chunk": 2,
    "text_config": {"hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
                    "rope_scaling": {"mrope_section": [16, 24, 24], "type": "default"}},
    "vision_config": {"spatial_merge_size": 2, "patch_size": 14, "temporal_patch_size": 2}
  }
})";

}  // namespace

TEST(Omni, ModelConfigReadsTheThinker) {
  const ModelConfig m = modelConfigFromJson(kQwen25OmniConfig);
  EXPECT_EQ(m.family, "qwen2.5-omni");
  EXPECT_EQ(m.frequency.rotary.headDim, 128);  // 3584 / 28
  EXPECT_EQ(m.frequency.rotary.base, 1e6);
  EXPECT_EQ(m.frequency.sections, (std::vector<int>{16, 24, 24}));
  EXPECT_EQ(m.tokens.imageToken, 151655);  // image_token_index
  ASSERT_TRUE(m.omni.has_value());
  EXPECT_EQ(m.omni->audioToken, 151646);
  EXPECT_EQ(m.omni->audioEnd, 151648);
  EXPECT_EQ(m.designParams.find("position_id_per_seconds"), 25.0);
  EXPECT_EQ(m.designParams.find("seconds_per_chunk"), 2.0);

  // A Qwen3-Omni thinker with a port's 13 ids per second and its own audio token id.
  const std::string q3 = R"({"model_type": "qwen3_omni_moe", "thinker_config": {
    "audio_token_id": 151675, "audio_start_token_id": 151669, "position_id_per_seconds": 13,
    "text_config": {"head_dim": 128, "hidden_size": 2048, "num_attention_heads": 32,
                    "rope_theta": 1000000, "rope_scaling": {"mrope_section": [24, 20, 20],
                    "interleaved": true}},
    "vision_config": {"spatial_merge_size": 2, "patch_size": 16, "temporal_patch_size": 2}}})";
  const ModelConfig m3 = modelConfigFromJson(q3);
  EXPECT_EQ(m3.family, "qwen3-omni");
  EXPECT_EQ(m3.frequency.plan, "interleaved");
  EXPECT_EQ(m3.omni->audioToken, 151675);
  EXPECT_EQ(m3.omni->audioStart, 151669);
  EXPECT_EQ(m3.omni->positionIdPerSeconds, 13.0);
  EXPECT_EQ(m3.designParams.find("position_id_per_seconds"), 13.0);
  EXPECT_FALSE(m3.designParams.find("seconds_per_chunk").has_value());

  // The windowed audio count is that of n_window 50.
  std::string q3w = q3;
  q3w.replace(q3w.find("\"text_config\""), 0, "\"audio_config\": {\"n_window\": 50}, ");
  EXPECT_NO_THROW(modelConfigFromJson(q3w));
  q3w.replace(q3w.find("50}"), 2, "64");
  const std::string window = messageOf([&] { modelConfigFromJson(q3w); });
  EXPECT_NE(window.find("thinker_config.audio_config.n_window is 64"), std::string::npos) << window;

  // Problems name the nested field.
  const std::string noVision = messageOf([] {
    modelConfigFromJson(R"({"model_type": "qwen2_5_omni", "thinker_config": {
        "text_config": {"head_dim": 128, "rope_theta": 1e6,
                        "rope_scaling": {"mrope_section": [16, 24, 24]}}}})");
  });
  EXPECT_NE(noVision.find("missing field thinker_config.vision_config"), std::string::npos)
      << noVision;
  const std::string badPps = messageOf([] {
    modelConfigFromJson(R"({"model_type": "qwen2_5_omni", "thinker_config": {
        "position_id_per_seconds": -3,
        "text_config": {"head_dim": 128, "rope_theta": 1e6,
                        "rope_scaling": {"mrope_section": [16, 24, 24]}},
        "vision_config": {"spatial_merge_size": 2, "patch_size": 14}}})");
  });
  EXPECT_NE(badPps.find("position_id_per_seconds"), std::string::npos) << badPps;
}

TEST(Omni, TokensOfAVideoWithItsSoundBuildTheLayout) {
  // What Qwen2.5-Omni's processor writes for "t t <video with sound> t" with video_grid_thw
  // [4, 4, 4] (LLM grid 4 x 2 x 2), 1 s per grid, 60 audio tokens: video chunk 0 (frames 0, 1),
  // audio 50, video chunk 1 (frames 2, 3), audio 10.
  const ModelConfig m = modelConfigFromJson(kQwen25OmniConfig);
  std::string ids = "[7, 8, 151652, 151647";
  auto add = [&](long long id, int count) {
    for (int i = 0; i < count; ++i) ids += ", " + std::to_string(id);
  };
  add(151656, 8);
  add(151646, 50);
  add(151656, 8);
  add(151646, 10);
  ids += ", 151648, 151653, 9]";
  std::string mask = "[[";
  // 240 mel frames: ((240 - 1) // 2 + 1 - 2) // 2 + 1 = 60 audio tokens (sound_file.h).
  for (int f = 0; f < 300; ++f) mask += (f ? ", " : "") + std::string(f < 240 ? "1" : "0");
  mask += "]]";
  const TokenInput in = tokensFromJson("{\"input_ids\": [" + ids +
                                       "], \"video_grid_thw\": [[4, 4, 4]], "
                                       "\"video_second_per_grid\": [1.0], "
                                       "\"feature_attention_mask\": " +
                                       mask + "}");
  EXPECT_EQ(in.audioFeatureLengths, (std::vector<long long>{240}));
  const Layout l = layoutFromTokens(in, m);
  EXPECT_EQ(formatLayoutSpec(l),
            formatLayoutSpec(parseLayoutSpec("t2,qwen2.5-omni:v4x2x2@1s+a60,t1")));
  // The same ids as the layout item gives (Qwen25VideoWithItsSoundOverTwoChunks).
  EXPECT_EQ(findDesign("qwen2.5-omni").ids(l, {}).ids.back(), (Id3{64, 64, 64}));

  // An audio of its own, and the count of audio blocks against the mask's rows.
  const TokenInput audioOnly =
      tokensFromJson(R"({"input_ids": [[5, 151647, 151646, 151646, 151646, 151648]],
                         "feature_attention_mask": [[1, 1, 1, 1], [1, 1, 0, 0]]})");
  const std::string two = messageOf([&] { layoutFromTokens(audioOnly, m); });
  EXPECT_NE(two.find("feature_attention_mask has 2 audios, input_ids hold 1 audio blocks"),
            std::string::npos)
      << two;
  const TokenInput one = tokensFromJson(
      R"({"input_ids": [5, 151647, 151646, 151646, 151646, 151648], "audio_feature_lengths": [12]})");
  EXPECT_EQ(formatLayoutSpec(layoutFromTokens(one, m)), "t1,s1,a3,s1");
  // The audio's tokens follow from its mel frames: 9 frames make 2 tokens, not the 3 given.
  const TokenInput wrong = tokensFromJson(
      R"({"input_ids": [5, 151647, 151646, 151646, 151646, 151648], "audio_feature_lengths": [9]})");
  EXPECT_EQ(messageOf([&] { layoutFromTokens(wrong, m); }),
            "tokens: audio 0: 9 mel frames (feature_attention_mask) make 2 tokens under "
            "qwen2.5-omni, input_ids hold 3");
  // A chunk that cuts a frame is refused.
  std::string cut = "[151652, 151647";
  ids.clear();
  for (int i = 0; i < 3; ++i) cut += ", 151656";
  cut += ", 151646, 151656, 151648, 151653]";
  const TokenInput bad =
      tokensFromJson("{\"input_ids\": " + cut + ", \"video_grid_thw\": [[2, 2, 4]]}");
  const std::string cutMsg = messageOf([&] { layoutFromTokens(bad, m); });
  EXPECT_NE(cutMsg.find("not whole frames"), std::string::npos) << cutMsg;
}

// ---------------------------------------------------------------------------------------------
// A literal port of the two get_rope_index functions over input_ids (the Python read line by
// line: its counters, index() searches, llm_pos_ids_list and get_chunked_index), written apart
// from core's walk, against the designs on random sequences built from the layout items.
namespace {

constexpr long long kVS = 1001, kVE = 1002, kAS = 1003, kAE = 1004, kImg = 1005, kVid = 1006,
                    kAud = 1007, kTxt = 7;

struct Sequence {
  std::vector<long long> ids;
  std::vector<std::array<int, 3>> images, videos;  // LLM grids
  std::vector<double> spg;                         // per video
  std::vector<long long> audioLens;                // audio tokens per audio
  bool audioInVideo = false;
};

using Entry = std::vector<std::array<double, 3>>;

double entryMax(const Entry& e) {
  double m = -1e300;
  for (const auto& id : e) m = std::max({m, id[0], id[1], id[2]});
  return m;
}

std::size_t indexFrom(const std::vector<long long>& v, long long x, std::size_t from) {
  for (std::size_t i = from; i < v.size(); ++i)
    if (v[i] == x) return i;
  ADD_FAILURE() << "index(" << x << ") not found";
  return v.size();
}

bool contains(const std::vector<long long>& v, long long x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Qwen2.5-Omni (int64) or Qwen3-Omni (float32) get_rope_index; the ids in token order.
std::vector<Id3> portRopeIndex(const Sequence& s, bool qwen3) {
  const auto& in = s.ids;
  const std::size_t n = in.size();
  std::vector<Entry> list;
  auto f = [&](double x) { return qwen3 ? static_cast<double>(static_cast<float>(x)) : x; };
  auto stIdx = [&]() { return list.empty() ? 0.0 : f(entryMax(list.back()) + 1); };
  auto arange = [&](long long len, double st) {
    Entry e;
    for (long long j = 0; j < len; ++j) e.push_back({f(st + j), f(st + j), f(st + j)});
    return e;
  };
  auto tIndex = [&](int k, double spg) {
    const float x = static_cast<float>(static_cast<float>(k) * static_cast<float>(spg)) * 25.0f;
    return qwen3 ? static_cast<double>(x) : std::trunc(static_cast<double>(x));
  };
  auto vision = [&](double st, const std::array<int, 3>& g, double spg, bool image) {
    Entry e;
    for (int k = 0; k < g[0]; ++k)
      for (int r = 0; r < g[1]; ++r)
        for (int c = 0; c < g[2]; ++c)
          e.push_back({f(st + (image ? 0.0 : tIndex(k, spg))), f(st + r), f(st + c)});
    return e;
  };
  // vision_start_indices + 1 tokens.
  long long imageNums = 0, videoNums = 0, audioNums = 0;
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (in[i] == kVS) {
      imageNums += in[i + 1] == kImg;
      videoNums += s.audioInVideo ? in[i + 1] == kAS : in[i + 1] == kVid;
    }
  for (long long id : in) audioNums += id == kAS;
  long long remainImages = imageNums, remainVideos = videoNums, remainAudios = audioNums;
  const long long mm = s.audioInVideo && !qwen3 ? imageNums + audioNums
                       : s.audioInVideo         ? imageNums + audioNums
                                                : imageNums + videoNums + audioNums;
  std::size_t st = 0, imageIdx = 0, videoIdx = 0, audioIdx = 0;
  for (long long step = 0; step < mm; ++step) {
    if (!qwen3) {
      const std::size_t edImage =
          contains(in, kImg) && remainImages > 0 ? indexFrom(in, kImg, st) : n + 1;
      const std::size_t edVideo =
          contains(in, kVid) && remainVideos > 0 ? indexFrom(in, kVid, st) : n + 1;
      const std::size_t edAudio =
          contains(in, kAud) && remainAudios > 0 ? indexFrom(in, kAud, st) : n + 1;
      const std::size_t minEd = std::min({edImage, edVideo, edAudio});
      if (minEd == edAudio) {
        const long long textLen = static_cast<long long>(minEd - st) - 1;
        if (textLen != 0) list.push_back(arange(textLen, stIdx()));
        list.push_back(arange(1, stIdx()));
        const long long len = s.audioLens[audioIdx];
        list.push_back(arange(len, stIdx()));
        list.push_back(arange(1, stIdx()));
        st += textLen + 1 + len + 1;
        ++audioIdx;
        --remainAudios;
      } else if (minEd == edImage || !s.audioInVideo) {
        const bool image = minEd == edImage;
        const long long textLen = static_cast<long long>(minEd - st) - 1;
        if (textLen != 0) list.push_back(arange(textLen, stIdx()));
        list.push_back(arange(1, stIdx()));
        const auto& g = image ? s.images[imageIdx] : s.videos[videoIdx];
        list.push_back(vision(stIdx(), g, image ? 1.0 : s.spg[videoIdx], image));
        list.push_back(arange(1, stIdx()));
        st += textLen + 2 + static_cast<long long>(g[0]) * g[1] * g[2];
        if (image) {
          ++imageIdx;
          --remainImages;
        } else {
          ++videoIdx;
          --remainVideos;
        }
      } else {  // a video with its sound
        const long long textLen = static_cast<long long>(minEd - st) - 2;
        if (textLen != 0) list.push_back(arange(textLen, stIdx()));
        const double bos = stIdx();
        list.push_back(arange(1, bos));
        list.push_back(arange(1, bos));
        const double s0 = stIdx();
        const long long len = s.audioLens[audioIdx];
        const Entry audio = arange(len, s0);
        const auto& g = s.videos[videoIdx];
        const Entry video = vision(s0, g, s.spg[videoIdx], false);
        auto chunks = [&](const Entry& e) {  // get_chunked_index(e, 50, s0)
          std::vector<std::pair<std::size_t, std::size_t>> out;
          std::size_t i = 0, start = 0;
          long long current = 1;
          for (; i < e.size(); ++i)
            if (e[i][0] - s0 >= static_cast<double>(current * 50)) {
              out.push_back({start, i});
              start = i;
              ++current;
            }
          out.push_back({start, e.size()});
          return out;
        };
        const auto vc = chunks(video), ac = chunks(audio);
        for (std::size_t j = 0; j < std::max(vc.size(), ac.size()); ++j) {
          if (j < vc.size())
            list.push_back(Entry(video.begin() + static_cast<long>(vc[j].first),
                                 video.begin() + static_cast<long>(vc[j].second)));
          if (j < ac.size())
            list.push_back(Entry(audio.begin() + static_cast<long>(ac[j].first),
                                 audio.begin() + static_cast<long>(ac[j].second)));
        }
        const double eos = stIdx();
        list.push_back(arange(1, eos));
        list.push_back(arange(1, eos));
        st += textLen + 2 + len + static_cast<long long>(g[0]) * g[1] * g[2] + 2;
        ++audioIdx;
        ++videoIdx;
        --remainVideos;
        --remainAudios;
      }
      continue;
    }
    // Qwen3-Omni.
    double stI = stIdx();
    const std::size_t edVs =
        (contains(in, kImg) || contains(in, kVid)) && (remainVideos > 0 || remainImages > 0)
            ? indexFrom(in, kVS, st)
            : n + 1;
    const std::size_t edAs =
        contains(in, kAud) && remainAudios > 0 ? indexFrom(in, kAS, st) : n + 1;
    const std::size_t minEd = std::min(edVs, edAs);
    const long long textLen = static_cast<long long>(minEd - st);
    if (textLen != 0) {
      list.push_back(arange(textLen, stI));
      stI = f(stI + textLen);
    }
    const long long bosLen = minEd == edVs && edVs + 1 == edAs ? 2 : 1;
    const long long eosLen = bosLen;
    list.push_back(arange(bosLen, stI));
    stI = f(stI + bosLen);
    if (minEd == edAs) {
      const long long len = s.audioLens[audioIdx];
      list.push_back(arange(len, stI));
      st += textLen + bosLen + len + eosLen;
      ++audioIdx;
      --remainAudios;
    } else if (in[edVs + 1] == kImg || in[edVs + 1] == kVid) {
      const bool image = in[edVs + 1] == kImg;
      const auto& g = image ? s.images[imageIdx] : s.videos[videoIdx];
      list.push_back(vision(stI, g, image ? 1.0 : s.spg[videoIdx], image));
      st += textLen + bosLen + static_cast<long long>(g[0]) * g[1] * g[2] + eosLen;
      if (image) {
        ++imageIdx;
        --remainImages;
      } else {
        ++videoIdx;
        --remainVideos;
      }
    } else {
      const long long len = s.audioLens[audioIdx];
      const Entry audio = arange(len, stI);
      const auto& g = s.videos[videoIdx];
      const Entry video = vision(stI, g, s.spg[videoIdx], false);
      std::size_t v = 0, a = 0;
      while (v < video.size() && a < audio.size()) {
        if (video[v][0] <= audio[a][0])
          list.push_back(Entry{video[v++]});
        else
          list.push_back(Entry{audio[a++]});
      }
      if (v < video.size())
        list.push_back(Entry(video.begin() + static_cast<long>(v), video.end()));
      if (a < audio.size())
        list.push_back(Entry(audio.begin() + static_cast<long>(a), audio.end()));
      st += textLen + bosLen + len + static_cast<long long>(g[0]) * g[1] * g[2] + eosLen;
      ++audioIdx;
      ++videoIdx;
      --remainVideos;
      --remainAudios;
    }
    list.push_back(arange(eosLen, stIdx()));
  }
  if (st < n) list.push_back(arange(static_cast<long long>(n - st), stIdx()));
  std::vector<Id3> out;
  for (const Entry& e : list)
    for (const auto& id : e) out.push_back({id[0], id[1], id[2]});
  return out;
}

// A random prompt for `family` as a layout spec and as the processor's token sequence.
std::pair<std::string, Sequence> randomPrompt(std::mt19937& rng, const std::string& family,
                                              bool audioInVideo) {
  std::uniform_int_distribution<int> kind(0, 3), small(1, 3), frames(1, 5), run(1, 4),
      audio(1, 130), spgPick(0, 4);
  const double spgs[] = {0.5, 1.0, 2.0, 0.7, 1.3};
  Sequence s;
  s.audioInVideo = audioInVideo;
  std::string spec;
  auto add = [&](const std::string& item) { spec += (spec.empty() ? "" : ",") + item; };
  const int items = 1 + small(rng);
  for (int it = 0; it < items; ++it) {
    const int t = run(rng);
    add("t" + std::to_string(t));
    s.ids.insert(s.ids.end(), t, kTxt);
    switch (kind(rng)) {
      case 0: {
        const int h = small(rng), w = small(rng);
        add(family + ":i" + std::to_string(h) + "x" + std::to_string(w));
        s.ids.push_back(kVS);
        s.ids.insert(s.ids.end(), h * w, kImg);
        s.ids.push_back(kVE);
        s.images.push_back({1, h, w});
        break;
      }
      case 1: {
        const int len = audio(rng);
        add(family + ":a" + std::to_string(len));
        s.ids.push_back(kAS);
        s.ids.insert(s.ids.end(), len, kAud);
        s.ids.push_back(kAE);
        s.audioLens.push_back(len);
        break;
      }
      default: {
        const int tt = frames(rng), h = small(rng), w = small(rng);
        const double spg = spgs[spgPick(rng)];
        std::string item = family + ":v" + std::to_string(tt) + "x" + std::to_string(h) + "x" +
                           std::to_string(w) + "@" + std::to_string(spg) + "s";
        s.videos.push_back({tt, h, w});
        s.spg.push_back(spg);
        if (!audioInVideo) {
          add(item);
          s.ids.push_back(kVS);
          s.ids.insert(s.ids.end(), tt * h * w, kVid);
          s.ids.push_back(kVE);
          break;
        }
        const int len = audio(rng);
        item += "+a" + std::to_string(len);
        add(item);
        s.audioLens.push_back(len);
        // The processor's order: the item's own expansion between the pairs.
        const Layout l = parseLayoutSpec(item);
        s.ids.insert(s.ids.end(), {kVS, kAS});
        for (std::size_t k = 2; k + 2 < l.segments.size(); ++k) {
          const Segment& seg = l.segments[k];
          s.ids.insert(s.ids.end(), seg.tokenCount(), seg.isAudio() ? kAud : kVid);
        }
        s.ids.insert(s.ids.end(), {kAE, kVE});
      }
    }
  }
  add("t1");
  s.ids.push_back(kTxt);
  return {spec, s};
}

}  // namespace

TEST(Omni, DesignsMatchALiteralPortOfGetRopeIndex) {
  std::mt19937 rng(20261201);
  int withSound = 0;
  for (const std::string family : {"qwen2.5-omni", "qwen3-omni"})
    for (int trial = 0; trial < 300; ++trial) {
      const bool aiv = trial % 2 == 1;
      const auto [spec, seq] = randomPrompt(rng, family, aiv);
      const PositionIds ids = idsOf(family, spec);
      const std::vector<Id3> port = portRopeIndex(seq, family == "qwen3-omni");
      ASSERT_EQ(ids.ids.size(), seq.ids.size()) << spec;
      ASSERT_EQ(ids.ids, port) << family << " " << spec;
      withSound += aiv && !seq.videos.empty();
      // --tokens: the processor's sequence gives back the layout of the items.
      ModelConfig m;
      m.family = family;
      m.spatialMerge = 1;  // the grids above are LLM grids
      m.tokens.imageToken = kImg;
      m.tokens.videoToken = kVid;
      m.tokens.visionStart = kVS;
      m.tokens.visionEnd = kVE;
      m.omni = *findFamily(family).omni();
      m.omni->audioToken = kAud;
      m.omni->audioStart = kAS;
      m.omni->audioEnd = kAE;
      TokenInput in;
      in.inputIds.assign(seq.ids.begin(), seq.ids.end());
      for (const auto& g : seq.images) in.imageGrids.push_back({g[0], g[1], g[2]});
      for (const auto& g : seq.videos) in.videoGrids.push_back({g[0], g[1], g[2]});
      in.secondsPerGrid = seq.spg;
      ASSERT_EQ(formatLayoutSpec(layoutFromTokens(in, m)), formatLayoutSpec(parseLayoutSpec(spec)))
          << spec;
    }
  EXPECT_GT(withSound, 100);  // the interleave cases are many of them
}
