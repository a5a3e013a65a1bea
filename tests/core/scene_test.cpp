// The Scene: JSON round trip, strict reading of malformed files, atomic saving, the AGE
// schedule and the all-in-one metrics call.
#include <gtest/gtest.h>

#include <cmath>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "ropescope/age_schedule.h"
#include "ropescope/errors.h"
#include "ropescope/image_grid.h"
#include "ropescope/layout_files.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

using namespace ropescope;

TEST(SceneJson, RoundTripsEveryField) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t3,v2x3x4,t1,i2x2");
  s.design = "circle";
  s.designParams.set("alpha", 0.25);
  s.designParams.set("radius_mode", 1);
  s.designParams.set("centre", 0);
  s.frequency.plan = "interleaved";
  s.frequency.rotary = {256, 64, 1e7};
  s.frequency.sections = {11, 11, 10};
  s.age = {28, AgeStrategy::FirstHalf};
  s.ageLayer = 5;
  s.selectedText = 2;
  const std::string text = sceneToJson(s);
  EXPECT_NE(text.find("\"radius_mode\": \"auto\""), std::string::npos) << text;
  EXPECT_EQ(sceneFromJson(text), s);
}

TEST(SceneJson, MalformedFilesGiveOneLineErrors) {
  const char* cases[][2] = {
      {"", "not valid JSON"},
      {"{", "not valid JSON"},
      {"[1,2]", "top level must be a JSON object"},
      {R"({"format":"other","version":1,"layout":"t1"})", "\"format\""},
      {R"({"format":"ropescope-scene","version":2,"layout":"t1"})", "version"},
      {R"({"format":"ropescope-scene","version":1})", "missing \"layout\""},
      {R"({"format":"ropescope-scene","version":1,"layout":"i0x3"})", "1..4096"},
      {R"({"format":"ropescope-scene","version":1,"layout":5})", "must be a string"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","colour":1})", "unknown key"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"cone"})",
       "unknown design"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"circle","design_params":{"alpha":7}})",
       "[0, 1]"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"circle","design_params":{"radius":"big"}})",
       "wrong type"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"circle","design_params":{"radius_mode":"huge"}})",
       "one of"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"head_dim":"x"}})",
       "whole number"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"base":1e999}})",
       "number 1e999 is out of range at line 1"},
      {"{\"format\":\"ropescope-scene\",\"version\":1,\n\"layout\":\"t1\",\n\"age\":{\"layer\":-"
       "1e400}}",
       "number -1e400 is out of range at line 3"},
      // A key given twice (nlohmann keeps the last silently), at the top or inside an object.
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","layout":"t2"})",
       "key \"layout\" given twice"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","age":{"layers":4,"layers":5}})",
       "key \"layers\" given twice"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"circle","design_params":{"alpha":0.1,"alpha":0.2}})",
       "key \"alpha\" given twice"},
      // selected_text within the layout's text tokens.
      {R"({"format":"ropescope-scene","version":1,"layout":"t2,i2x2","selected_text":5})",
       "selected_text must be 0..1 (the layout has 2 text tokens; got 5)"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1,i2x2","selected_text":1})",
       "selected_text must be 0 (the layout has 1 text token; got 1)"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"sections":[1,2]}})",
       "three numbers"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"head_dim":99999999999}})",
       "frequency.head_dim must be an even whole number in 2..1024 (got 99999999999)"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"base":"big"}})",
       "frequency.base must be a number in (1, 1e12] (got \"big\")"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"sections":[1,2,3,4]}})",
       "frequency.sections must be [] or [t, h, w], whole numbers in 0..100000 (got [1,2,3,4])"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","age":{"strategy":"odd"}})",
       "AGE strategy"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","age":{"layer":40}})", "AGE layer"},
      {R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":{"head_dim":128.5}})",
       "frequency.head_dim must be an even whole number in 2..1024 (got 128.5)"},
  };
  for (const auto& c : cases) {
    try {
      sceneFromJson(c[0]);
      ADD_FAILURE() << "accepted: " << c[0];
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.rfind("scene file: ", 0), 0u) << m;
      EXPECT_EQ(m.find("[json.exception"), std::string::npos) << m;
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      EXPECT_NE(m.find(c[1]), std::string::npos) << "for " << c[0] << " got: " << m;
    }
  }
}

// A rope scaling rides in frequency.rope: the type, the type's parameters by the keys of its
// table (a switch as true/false, longrope's lists as arrays) and max_position_id; a scene without
// one has no rope key at all.
TEST(SceneJson, RopeScalingRoundTrips) {
  Scene s = defaultScene();
  EXPECT_EQ(sceneToJson(s).find("\"rope\""), std::string::npos);
  s.frequency.rope.type = "yarn";
  s.frequency.rope.params.set("factor", 4.0);
  s.frequency.rope.params.set("original_max_position_embeddings", 32768.0);
  s.frequency.rope.params.set("truncate", 0.0);
  const std::string text = sceneToJson(s);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_EQ(j.at("frequency").at("rope"), nlohmann::json::parse(R"({"type": "yarn", "factor": 4.0,
                                      "original_max_position_embeddings": 32768.0,
                                      "truncate": false})"))
      << text;
  EXPECT_EQ(sceneFromJson(text), s);
  EXPECT_EQ(sceneFromJson(text).frequency.rope.params.find("truncate").value_or(-1.0), 0.0);

  // longrope's lists (one factor per pair: 64 for the default head dim 128) and the sequence.
  Scene l = defaultScene();
  l.frequency.rope.type = "longrope";
  l.frequency.rope.params.set("original_max_position_embeddings", 4096.0);
  l.frequency.rope.params.set("max_position_embeddings", 16384.0);
  l.frequency.rope.shortFactor.assign(64, 1.0);
  l.frequency.rope.longFactor.assign(64, 2.5);
  l.frequency.rope.maxPositionId = 9000;
  const std::string longText = sceneToJson(l);
  EXPECT_NE(longText.find("\"max_position_id\": 9000"), std::string::npos) << longText;
  EXPECT_EQ(sceneFromJson(longText), l);
}

TEST(SceneJson, BadRopeScalingsGiveOneLine) {
  const std::string head = R"({"format":"ropescope-scene","version":1,"layout":"t1","frequency":)";
  const char* cases[][2] = {
      {R"({"rope":{"type":"yarn","factor":4,"original_max_position_embeddings":32768,"ramp":2}})",
       "scene file: frequency.rope: rope type yarn has no parameter \"ramp\" (accepted: type, "
       "max_position_id, factor, original_max_position_embeddings, beta_fast, beta_slow, "
       "attention_factor, mscale, mscale_all_dim, truncate)"},
      {R"({"rope":{"type":"ntk"}})", "scene file: frequency.rope.type: unknown rope type"},
      {R"({"rope":{"factor":4}})", "frequency.rope.type must be a rope type's name (default, "},
      {R"({"rope":"yarn"})", "frequency.rope must be an object"},
      {R"({"rope":{"type":"linear","factor":"4"}})", "frequency.rope.factor must be a number in"},
      {R"({"rope":{"type":"linear","factor":0}})", "frequency.rope: factor must be in"},
      {R"({"rope":{"type":"yarn","factor":4,"original_max_position_embeddings":32768,"truncate":1}})",
       "frequency.rope.truncate must be true or false (got 1)"},
      {R"({"rope":{"type":"dynamic","factor":2,"max_position_embeddings":4096,"max_position_id":-3}})",
       "frequency.rope.max_position_id must be a whole number in 0..1099511627776 (got -3)"},
      {R"({"rope":{"type":"longrope","original_max_position_embeddings":4096,"short_factor":[1,"x"]}})",
       "frequency.rope.short_factor must be an array of numbers > 0"},
      // The whole scaling with the plan: a required key missing.
      {R"({"rope":{"type":"yarn","factor":4}})", "original_max_position_embeddings"},
      {R"({"rope":{"type":"linear","factor":2},"rope":{"type":"linear","factor":3}})",
       "key \"rope\" given twice"},
  };
  for (const auto& c : cases) {
    const std::string text = head + c[0] + "}";
    try {
      sceneFromJson(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      EXPECT_NE(m.find(c[1]), std::string::npos) << "for " << text << " got: " << m;
    }
  }
}

// Whole numbers written as floats (numpy's float64, writers that put every number as a float)
// are the whole numbers they hold: "head_dim": 128.0 was refused as "must be an even whole
// number (got 128.0)", and so was "version": 1.0.
TEST(SceneJson, WholeNumbersWrittenAsFloatsAreRead) {
  const Scene s = sceneFromJson(
      R"({"format":"ropescope-scene","version":1.0,"layout":"t2,i2x2","selected_text":1.0,)"
      R"("frequency":{"head_dim":64.0,"sections":[8.0,12.0,12.0]}})");
  EXPECT_EQ(s.frequency.rotary.headDim, 64);
  EXPECT_EQ(s.frequency.sections, (std::vector<int>{8, 12, 12}));
  EXPECT_EQ(s.selectedText, 1);
}

// Picking a model family's design gives the family's released rotary; a scene already under
// the family (a --model config with its own base) keeps its own.
TEST(SceneDesign, AFamilyBringsItsRotaryOnceWhenPicked) {
  Scene s = defaultScene();
  pickDesign(s, "glm4v");
  EXPECT_EQ(s.frequency, findFamily("glm4v").defaultFrequency());
  EXPECT_EQ(s.frequency.rotary.pairs, PairLayout::GptJ);
  s.frequency.rotary.base = 123456.0;
  pickDesign(s, "glm4v", false);
  EXPECT_EQ(s.frequency.rotary.base, 123456.0);
  // Leaving the family for a design without a plan of its own: the default rotary, as in a new
  // scene (the GUI kept GLM's 64-dim GPT-J rotary under Circle-RoPE: bias 0.0383, not 0.0362).
  pickDesign(s, "circle");
  EXPECT_EQ(s.frequency, defaultScene().frequency);
  pickDesign(s, "mm-rope");
  EXPECT_EQ(s.frequency.plan, "mm-rope");
  pickDesign(s, "circle");
  EXPECT_EQ(s.frequency, defaultScene().frequency);
  // Between designs without plans of their own the user's rotary stays.
  s.frequency.rotary.base = 5e5;
  pickDesign(s, "hard");
  pickDesign(s, "circle");
  EXPECT_EQ(s.frequency.rotary.base, 5e5);
}

// Picking a family's design cuts the pictures as the family's image processor does, as it brings
// its rotary: under qwen3-vl a picture is cut into Qwen3-VL's 32-px tokens (patch 16 x merge 2),
// not Qwen2.5-VL's 28 px. Every family of the registry, against its own preset; leaving the family
// for a research design, the default grid again.
TEST(SceneDesign, AFamilyBringsItsImageProcessorsGrid) {
  const std::string castle = std::string(ROPESCOPE_SAMPLES) + "/castle.png";
  for (const ModelFamily* f : allFamilies()) {
    SCOPED_TRACE(f->name());
    Scene s = defaultScene();
    s.layout.segments = {Segment::text(3), imageSegmentFromFile(castle, s.imageGrid),
                         Segment::text(2)};
    pickDesign(s, f->name());
    EXPECT_EQ(s.imageGrid, f->imageGrid());
    EXPECT_EQ(s.layout.segments[1], imageSegmentFromFile(castle, f->imageGrid()));
    EXPECT_NO_THROW(validateScene(s));
    pickDesign(s, "circle");
    EXPECT_EQ(s.imageGrid, defaultScene().imageGrid);
    EXPECT_EQ(s.layout.segments[1], imageSegmentFromFile(castle, defaultScene().imageGrid));
  }
  // Not every family cuts as Qwen2.5-VL: the class above is not vacuous.
  EXPECT_NE(findFamily("qwen3-vl").imageGrid(), defaultScene().imageGrid);
  EXPECT_EQ(findFamily("qwen3-vl").imageGrid(), imageGridPreset("qwen3-vl"));
  // A scene already under the family (a --model config's own grid) keeps it.
  Scene s = defaultScene();
  pickDesign(s, "qwen3-vl");
  s.imageGrid.maxPixels = 1 << 20;
  pickDesign(s, "qwen3-vl");
  EXPECT_EQ(s.imageGrid.maxPixels, 1 << 20);
}

TEST(SceneFile, SavesAtomicallyAndLoadsBack) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ropescope-scene-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "s.json").string();
  Scene s = defaultScene();
  saveSceneFile(s, path);
  EXPECT_EQ(loadSceneFile(path), s);
  // Only the target remains: no temporary file left behind.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  // An invalid scene is refused before anything is written: the old file stays.
  Scene bad = s;
  bad.frequency.rotary.headDim = 3;
  EXPECT_THROW(saveSceneFile(bad, path), InputError);
  EXPECT_EQ(loadSceneFile(path), s);
  EXPECT_THROW(loadSceneFile((dir / "missing.json").string()), InputError);
  std::filesystem::remove_all(dir);
}

TEST(Age, StrategiesMatchTheReleasedTables) {
  AgeSchedule s{36, AgeStrategy::Alternate};
  const auto alt = ageLayers(s);
  for (int l = 0; l < 36; ++l) EXPECT_EQ(alt[l], l % 2 == 0);
  s.strategy = AgeStrategy::FirstHalf;
  const auto first = ageLayers(s);
  for (int l = 0; l < 36; ++l) EXPECT_EQ(first[l], l < 18);
  s.strategy = AgeStrategy::SecondHalf;
  EXPECT_FALSE(ageLayers(s)[17]);
  EXPECT_TRUE(ageLayers(s)[18]);
  s.strategy = AgeStrategy::All;
  for (bool b : ageLayers(s)) EXPECT_TRUE(b);
  EXPECT_THROW(ageLayers({0, AgeStrategy::All}), InputError);
}

TEST(SceneMetricsTest, AgeLayerSwitchesBetweenCircleAndMropeIds) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t2,i3x3,t3");
  s.ageLayer = 1;  // alternate: odd layers use M-RoPE ids
  const SceneMetrics m = computeSceneMetrics(s, 64);
  EXPECT_EQ(m.designUsed, "mrope");
  EXPECT_EQ(m.ids.ids, findDesign("mrope").ids(s.layout, {}).ids);
  s.ageLayer = 2;
  const SceneMetrics c = computeSceneMetrics(s, 64);
  EXPECT_EQ(c.designUsed, "circle");
  EXPECT_LT(c.ptd.ptd, 1e-12);
  EXPECT_EQ(c.decayAxis[1].size(), 65u);
  EXPECT_EQ(c.selectedDistance.size(), 9u);
  EXPECT_EQ(c.wavelengths.size(), 64u);
}

TEST(SceneMetricsTest, CompareCoversEveryDesign) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("i3x3,t5");
  const auto rows = compareDesigns(s);
  ASSERT_EQ(rows.size(), allDesigns().size());
  EXPECT_NEAR(rows[0].ptd, 20.0 / 9.0, 1e-12);  // hard
  EXPECT_EQ(rows[1].ptd, 0.0);                  // unordered
  for (const DesignSummary& d : rows)
    EXPECT_TRUE(d.ptdUndefined.empty() && d.biasUndefined.empty());
}

// with nothing to measure, every design's PTD and bias spread are undefined
// (NaN with the reason), never 0.
TEST(SceneMetricsTest, CompareSaysWhyNothingIsMeasured) {
  Scene s = defaultScene();
  for (const char* spec : {"t5", "i3x3"}) {
    s.layout = parseLayoutSpec(spec);
    for (const DesignSummary& d : compareDesigns(s)) {
      EXPECT_TRUE(std::isnan(d.ptd)) << d.design;
      EXPECT_TRUE(std::isnan(d.biasSpread)) << d.design;
      EXPECT_NE(d.ptdUndefined.find("PTD needs at least one text and one visual token"),
                std::string::npos)
          << d.ptdUndefined;
      EXPECT_NE(d.biasUndefined.find("bias spread needs"), std::string::npos) << d.biasUndefined;
    }
    const SceneMetrics m = computeSceneMetrics(s);
    EXPECT_FALSE(m.ptd.defined());
    EXPECT_FALSE(m.bias.defined());
  }
}

// What compare mode draws (ids, PTD, selected token) is what the full computation gives, for
// the scene's own design with its parameters, an AGE layer on M-RoPE ids, and no text at all.
TEST(SceneMetricsTest, DesignIdsAreThePartOfTheFullMetricsTheyName) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t3,i4x5,t6");
  s.selectedText = 7;
  std::vector<Scene> cases = {s};
  s.ageLayer = 1;  // M-RoPE ids on this layer
  cases.push_back(s);
  s.ageLayer = -1;
  s.layout = parseLayoutSpec("i4x5");
  cases.push_back(s);
  for (const Scene& c : cases) {
    const SceneMetrics full = computeSceneMetrics(c, 16, 2);
    const DesignIds light = computeDesignIds(c, 1);
    EXPECT_EQ(light.designUsed, full.designUsed);
    EXPECT_EQ(light.ids.ids, full.ids.ids);
    EXPECT_EQ(light.ptd.undefinedReason, full.ptd.undefinedReason);
    if (full.ptd.defined())
      EXPECT_EQ(light.ptd.ptd, full.ptd.ptd);
    else
      EXPECT_TRUE(std::isnan(light.ptd.ptd));  // no text: undefined in both
    EXPECT_EQ(light.ptd.perText, full.ptd.perText);
    EXPECT_EQ(light.selectedToken, full.selectedToken);
  }
  EXPECT_EQ(computeDesignIds(cases[0]).selectedToken, 3 + 20 + 4);  // 8th text token
  EXPECT_EQ(computeDesignIds(cases[1]).designUsed, "mrope");
  EXPECT_EQ(computeDesignIds(cases[2]).selectedToken, -1);
  Scene bad = cases[0];
  bad.frequency.rotary.base = 0.5;
  EXPECT_THROW(computeDesignIds(bad), InputError);
}

// a selection left past the last text token by a layout edit is saved as the
// token the views show, so that the file loads back (the loader refuses it otherwise).
TEST(SceneFile, SavesTheSelectionTheViewsShow) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t2,i2x2");
  s.selectedText = 6;  // was valid on the previous layout
  const Scene back = sceneFromJson(sceneToJson(s));
  EXPECT_EQ(back.selectedText, 1);
  EXPECT_EQ(computeDesignIds(back).selectedToken, computeDesignIds(s).selectedToken);
  s.layout = parseLayoutSpec("i2x2");
  EXPECT_EQ(sceneFromJson(sceneToJson(s)).selectedText, 0);
}
