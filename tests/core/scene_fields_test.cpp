// The field table: every Scene field declared once. The validators and the
// session file follow its ranges and keys, its keys are the field ids of the errors, and the
// rules written several times before (switching design, finding by name, a parameter's value by
// name) are core's, once.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>

#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/ids_file.h"
#include "ropescope/layout.h"
#include "ropescope/named.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_fields.h"

using namespace ropescope;

namespace {

// The whole-number fields whose bounds are the table's alone, with what else a field needs (the
// multihead plan for the KV heads); each value goes in through the table's own setter.
const std::map<std::string, std::function<void(Scene&)>>& rangedFields() {
  static const std::map<std::string, std::function<void(Scene&)>> s = {
      {"min_pixels", {}},
      {"max_pixels", {}},
      {"patch", {}},
      {"merge", {}},
      {"head_dim", {}},
      {"kv_heads",
       [](Scene& c) {
         c.frequency.plan = "multihead";
         c.frequency.sections = {0, 0, 1};  // one KV head's worth: fits every count
       }},
      {"age_layers", {}},
      {"age_layer", {}},
      {"selected_text", {}},
  };
  return s;
}

// A value of field `f` other than its default, that a default scene accepts.
FieldValue otherValue(const SceneField& f) {
  const FieldValue d = f.defaultValue();
  if (f.list) return std::vector<int>{16, 24, 24};  // mrope's, spelled out
  if (f.text) return std::string("org/some-model");
  switch (f.spec.kind) {
    case ParameterSpec::Kind::Choice: {
      const auto& c = f.spec.choices;
      auto at = std::find(c.begin(), c.end(), std::get<std::string>(d));
      do {
        if (++at == c.end()) at = c.begin();
      } while (*at == kIdsFileDesign);  // that design needs a file of ids
      return *at;
    }
    case ParameterSpec::Kind::Number:
      return std::get<double>(d) * 2;
    default: {
      const long long v = std::get<long long>(d) + 2;  // even fields stay even
      return v <= f.spec.max ? v : v - 4;
    }
  }
}

std::string refusedField(const Scene& s) {
  try {
    validateScene(s);
  } catch (const InputError& e) {
    return e.field();
  }
  return "(accepted)";
}

}  // namespace

TEST(SceneFields, KeysAreUniqueAndEveryFieldIsComplete) {
  std::set<std::string> keys, flags;
  for (const SceneField& f : sceneFields()) {
    EXPECT_TRUE(keys.insert(f.key()).second) << f.key() << " twice";
    if (!f.cliFlag.empty()) EXPECT_TRUE(flags.insert(f.cliFlag).second) << f.cliFlag << " twice";
    EXPECT_FALSE(f.jsonKey.empty()) << f.key();
    EXPECT_FALSE(f.spec.label.empty()) << f.key();
    EXPECT_FALSE(f.spec.help.empty()) << f.key();
    if (f.text) continue;
    EXPECT_LE(f.spec.min, f.spec.max) << f.key();
    if (f.spec.kind == ParameterSpec::Kind::Choice) {
      ASSERT_FALSE(f.spec.choices.empty()) << f.key();
      EXPECT_LT(f.spec.defaultValue, static_cast<double>(f.spec.choices.size())) << f.key();
    } else if (!f.list) {
      EXPECT_TRUE(f.spec.check(f.spec.defaultValue).empty()) << f.key();
    }
  }
  EXPECT_THROW(sceneField("no_such_field"), std::out_of_range);
}

// The table's defaults are the Scene's: a default scene holds them.
TEST(SceneFields, DefaultsAreTheDefaultScene) {
  const Scene s = defaultScene();
  const auto def = [](const char* key) { return sceneField(key).spec.defaultValue; };
  const auto choice = [](const char* key) {
    const SceneField& f = sceneField(key);
    return f.spec.choices.at(static_cast<std::size_t>(f.spec.defaultValue));
  };
  EXPECT_EQ(def("head_dim"), s.frequency.rotary.headDim);
  EXPECT_EQ(def("rotary_dim"), s.frequency.rotary.rotaryDim);
  EXPECT_EQ(def("base"), s.frequency.rotary.base);
  EXPECT_EQ(def("kv_heads"), s.frequency.kvHeads);
  EXPECT_EQ(def("kv_head"), s.frequency.kvHead);
  EXPECT_EQ(def("age_layers"), s.age.layers);
  EXPECT_EQ(def("age_layer"), s.ageLayer);
  EXPECT_EQ(def("patch"), s.imageGrid.patch);
  EXPECT_EQ(def("merge"), s.imageGrid.merge);
  EXPECT_EQ(def("min_pixels"), static_cast<double>(s.imageGrid.minPixels));
  EXPECT_EQ(def("max_pixels"), static_cast<double>(s.imageGrid.maxPixels));
  EXPECT_EQ(choice("plan"), s.frequency.plan);
  EXPECT_EQ(choice("design"), s.design);
  EXPECT_EQ(choice("pairs"), pairLayoutName(s.frequency.rotary.pairs));
  EXPECT_EQ(choice("age_strategy"), ageStrategyName(s.age.strategy));
  // Through the table's own accessors, every field.
  for (const SceneField& f : sceneFields())
    if (f.get) EXPECT_TRUE(f.get(s) == f.defaultValue()) << f.key();
  EXPECT_EQ(formatLayoutSpec(s.layout), std::get<std::string>(sceneField("layout").defaultValue()));
}

// Each default written once: a value-initialised Scene (the structs' member initialisers, which
// the table does not build) holds every default the table declares, so a default written again
// with another value in either place fails here. defaultScene() sets each field from the table,
// so it equals that Scene but for the layout (parsed from the table's text).
TEST(SceneFields, MemberInitialisersHoldTheTableDefaults) {
  const Scene blank{};
  for (const SceneField& f : sceneFields())
    if (f.get) EXPECT_TRUE(f.get(blank) == f.defaultValue()) << f.key();
  Scene expected{};
  expected.layout = parseLayoutSpec(std::get<std::string>(sceneField("layout").defaultValue()));
  EXPECT_TRUE(defaultScene() == expected);
  // The rotary a rope type computes from starts at the same defaults as the scene's.
  const RopeInputs inputs;
  EXPECT_EQ(inputs.headDim, blank.frequency.rotary.headDim);
  EXPECT_EQ(inputs.rotaryDim, blank.frequency.rotary.effectiveRotaryDim());
  EXPECT_EQ(inputs.base, blank.frequency.rotary.base);
  // The defaults as numbers (what `--help` prints and the golden figures were made under).
  EXPECT_EQ(blank.design, "circle");
  EXPECT_EQ(blank.frequency.plan, "mrope");
  EXPECT_EQ(blank.frequency.rotary.headDim, 128);
  EXPECT_EQ(blank.frequency.rotary.base, 1e6);
  EXPECT_EQ(blank.frequency.kvHeads, 8);
}

// Each field set through the table reads back through it, and a value past an int member's
// range stays out of the field's range instead of wrapping into it.
TEST(SceneFields, AccessorsReachTheirMembers) {
  for (const SceneField& f : sceneFields()) {
    if (!f.set) {
      EXPECT_TRUE(f.key() == "layout" || f.key() == "ids_file") << f.key() << " has no setter";
      continue;
    }
    Scene s = defaultScene();
    const FieldValue v = otherValue(f);
    f.set(s, v);
    EXPECT_TRUE(f.get(s) == v) << f.key();
    EXPECT_FALSE(s == defaultScene()) << f.key() << ": set changed nothing";
  }
  Scene s = defaultScene();
  sceneField("head_dim").set(s, 4294967296LL + 128);
  EXPECT_GT(s.frequency.rotary.headDim, 1024);
  EXPECT_EQ(refusedField(s), "head_dim");
}

// Every field changed from its default, one at a time, survives the session file: a field the
// writer or the reader forgot comes back as its default.
TEST(SceneFields, EveryFieldRoundTripsThroughTheSessionFile) {
  for (const SceneField& f : sceneFields()) {
    if (!f.set) continue;  // layout and ids file: scene_test.cpp, with their folders
    Scene s = defaultScene();
    f.set(s, otherValue(f));
    ASSERT_EQ(refusedField(s), "(accepted)") << f.key();
    const Scene back = sceneFromJson(sceneToJson(s));
    EXPECT_TRUE(f.get(back) == f.get(s)) << f.key();
    EXPECT_EQ(back, s) << f.key();
  }
}

// The validators accept each whole-number field's bounds and refuse one past them, naming the
// field by its key and the range as the table writes it.
TEST(SceneFields, ValidatorsFollowTheTableRangesAndKeys) {
  for (const auto& ranged : rangedFields()) {
    const std::string& key = ranged.first;
    const SceneField& f = sceneField(key);
    // No structured binding: clang 14 cannot capture one in a lambda (C++20 allows it).
    const auto set = [&f, &ranged](Scene& c, long long v) {
      const auto& prepare = ranged.second;
      if (prepare) prepare(c);
      f.set(c, v);
    };
    const long long lo = static_cast<long long>(f.spec.min);
    Scene s = defaultScene();
    if (key == "max_pixels") s.imageGrid.minPixels = lo;  // min_pixels must not be above it
    set(s, lo);
    EXPECT_EQ(refusedField(s), "(accepted)") << key << " = " << lo;
    s = defaultScene();
    set(s, lo - 1);
    EXPECT_EQ(refusedField(s), key) << key << " = " << lo - 1;
    // The upper bound: AGE layer and selection are below the scene's own count.
    if (key == "age_layer" || key == "selected_text") continue;
    const long long hi = static_cast<long long>(f.spec.max);
    s = defaultScene();
    if (key == "min_pixels") s.imageGrid.maxPixels = hi;
    set(s, hi);
    EXPECT_EQ(refusedField(s), "(accepted)") << key << " = " << hi;
    s = defaultScene();
    set(s, hi + 1);
    EXPECT_EQ(refusedField(s), key) << key << " = " << hi + 1;
  }
  Scene s = defaultScene();
  s.frequency.rotary.base = sceneField("base").spec.min;  // (1, 1e12]: 1 itself is refused
  EXPECT_EQ(refusedField(s), "base");
  s.frequency.rotary.base = sceneField("base").spec.max;
  EXPECT_EQ(refusedField(s), "(accepted)");
  try {
    s = defaultScene();
    s.age.layers = 0;
    validateScene(s);
    FAIL() << "AGE layers 0 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(sceneField("age_layers").rangeText()), std::string::npos)
        << e.what();
  }
}

// The writer puts each field where the table says, and the reader accepts exactly those keys.
TEST(SceneFields, SessionFileKeysAreTheTables) {
  Scene s = defaultScene();
  s.imageGrid.rule = ResizeRule::Glm;  // written only when not the default
  const auto j = nlohmann::ordered_json::parse(sceneToJson(s));
  for (const char* section : {"frequency", "age", "image_grid"}) {
    std::vector<std::string> written;
    for (auto it = j.at(section).begin(); it != j.at(section).end(); ++it)
      written.push_back(it.key());
    EXPECT_EQ(written, sceneFieldKeys(section)) << section;
  }
  for (const SceneField& f : sceneFields())
    if (f.section.empty() && !f.text) EXPECT_TRUE(j.contains(f.jsonKey)) << f.jsonKey;
}

// Errors of the session file carry the table's keys: the GUI shows them beside the field
// (before, a bad AGE layer count came as "layers", landing at the top of the panel).
TEST(SceneFields, SessionFileErrorsCarryTheFieldKeys) {
  const std::string head = R"({"format":"ropescope-scene","version":1,"layout":"t1",)";
  const std::pair<const char*, const char*> cases[] = {
      {R"("age":{"layers":"many"}})", "age_layers"},
      {R"("age":{"layers":0}})", "age_layers"},
      {R"("age":{"strategy":"odd"}})", "age_strategy"},
      {R"("age":{"layer":"x"}})", "age_layer"},
      {R"("frequency":{"head_dim":1.5}})", "head_dim"},
      {R"("frequency":{"sections":[1,2,-3]}})", "sections"},
      {R"("image_grid":{"patch":"x"}})", "patch"},
      {R"("selected_text":"x"})", "selected_text"},
  };
  for (const auto& [tail, field] : cases) {
    try {
      sceneFromJson(head + tail);
      ADD_FAILURE() << tail << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), field) << tail << ": " << e.what();
    }
  }
}

TEST(SceneRules, SwitchingDesignResetsItsParametersOnlyWhenItChanges) {
  Scene s = defaultScene();
  s.designParams.set("alpha", 0.25);
  setDesign(s, "circle");  // the same design keeps its parameters
  EXPECT_EQ(s.designParams.find("alpha"), 0.25);
  setDesign(s, "hope");
  EXPECT_EQ(s.design, "hope");
  EXPECT_TRUE(s.designParams.values().empty());
  EXPECT_THROW(setDesign(s, "spiral"), InputError);
  EXPECT_EQ(s.design, "hope");  // unchanged on a bad name
}

TEST(SceneRules, PickingADesignTakesItsPublishedPlanUnlessThePlanIsKept) {
  Scene s = defaultScene();
  s.frequency.sections = {16, 24, 24};
  pickDesign(s, "ilrope");
  EXPECT_EQ(s.frequency.plan, findDesign("ilrope").suggestedPlan());
  EXPECT_TRUE(s.frequency.sections.empty());
  Scene kept = defaultScene();
  kept.frequency.sections = {16, 24, 24};
  pickDesign(kept, "ilrope", /*keepPlan=*/true);
  EXPECT_EQ(kept.frequency.plan, "mrope");
  EXPECT_EQ(kept.frequency.sections, (std::vector<int>{16, 24, 24}));
  Scene plain = defaultScene();
  pickDesign(plain, "hope");  // no suggested plan: the plan stays
  EXPECT_EQ(plain.frequency.plan, "mrope");
}

TEST(SceneRules, UnderAnotherDesignTheAgeLayerIsOff) {
  Scene s = defaultScene();
  s.ageLayer = 3;
  s.designParams.set("alpha", 0.25);
  EXPECT_EQ(sceneUnderDesign(s, "circle"), s);
  const Scene other = sceneUnderDesign(s, "mrope");
  EXPECT_EQ(other.design, "mrope");
  EXPECT_EQ(other.ageLayer, -1);
  EXPECT_TRUE(other.designParams.values().empty());
}

TEST(SceneRules, UnknownNamesListTheAcceptedOnes) {
  const std::vector<std::string> names = {"a", "b"};
  EXPECT_EQ(joinNames(names), "a, b");
  EXPECT_EQ(joinNames({}), "none");
  EXPECT_EQ(findByName(
                names, "b", [](const std::string& n) { return n; }, "letter", "f"),
            "b");
  try {
    findByName(
        names, "c", [](const std::string& n) { return n; }, "letter", "f");
    FAIL() << "c found";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown letter \"c\" (accepted: a, b)");
    EXPECT_EQ(e.field(), "f");
  }
  // The registries say it the same way.
  try {
    findPlan("spiral");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown frequency plan \"spiral\" (accepted: ", 0), 0u);
  }
  try {
    findDesign("spiral");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown design \"spiral\" (accepted: " +
                                         joinNames(sceneField("design").spec.choices) + ")");
  }
  // A design's unknown parameter: one message (requireSpec), from a scene file as from the CLI.
  const std::string want = "design circle has no parameter \"alphax\" (accepted: " +
                           joinNames(parameterKeys(findDesign("circle").parameters())) + ")";
  try {
    requireSpec(findDesign("circle").parameters(), "alphax", "circle");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), want);
    EXPECT_EQ(e.field(), "alphax");
  }
  try {
    sceneFromJson(R"({"format":"ropescope-scene","version":1,"layout":"t1","design":"circle",)"
                  R"("design_params":{"alphax":1}})");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "scene file: " + want);
    EXPECT_EQ(e.field(), "alphax");
  }
}

TEST(SceneRules, ParameterValuesByName) {
  ParameterSpec choice;
  choice.key = "mode";
  choice.kind = ParameterSpec::Kind::Choice;
  choice.choices = {"fixed", "auto"};
  EXPECT_EQ(namedParameterValue(choice, "auto"), 1.0);
  EXPECT_EQ(namedParameterValue(choice, "true"), std::nullopt);
  EXPECT_EQ(namedParameterValue(choice, "1"), std::nullopt);  // a number: the caller's
  ParameterSpec flag;
  flag.key = "centre";
  flag.kind = ParameterSpec::Kind::Bool;
  EXPECT_EQ(namedParameterValue(flag, "true"), 1.0);
  EXPECT_EQ(namedParameterValue(flag, "false"), 0.0);
  EXPECT_EQ(namedParameterValue(flag, "auto"), std::nullopt);
}

TEST(SceneFields, SectionsTextFormIsNothingOrThreeWholeNumbers) {
  EXPECT_TRUE(parseSectionsText("", "s").empty());
  EXPECT_TRUE(parseSectionsText("  ", "s").empty());
  EXPECT_EQ(parseSectionsText("16,24,24", "s"), (std::vector<int>{16, 24, 24}));
  EXPECT_EQ(parseSectionsText(" 0 , 100000,3 ", "s"), (std::vector<int>{0, 100000, 3}));
  for (const char* bad : {"16,24", "16,24,24,", ",16,24,24", "16,,24", "a,b,c", "1.5,2,3",
                          "1,2,100001", "-1,2,3", "1,2,3,4", "1e2,2,3"}) {
    try {
      parseSectionsText(bad, "--sections");
      ADD_FAILURE() << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                "--sections expects three whole numbers t,h,w in " +
                    sceneField("sections").rangeText() +
                    ", e.g. 16,24,24, or nothing for the plan's default (got \"" + bad + "\")");
      EXPECT_EQ(e.field(), "sections");
    }
  }
  EXPECT_EQ(formatSectionsText({16, 24, 24}), "16,24,24");
  EXPECT_EQ(formatSectionsText({}), "");
  EXPECT_EQ(parseSectionsText(formatSectionsText({7, 0, 9}), "s"), (std::vector<int>{7, 0, 9}));
}
