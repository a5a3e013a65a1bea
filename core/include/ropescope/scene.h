// The Scene: everything a figure depends on, as plain data, and its JSON session-file form.
// The GUI edits one Scene; every view and every CLI subcommand computes from it.
#pragma once

#include <string>

#include "ropescope/age_schedule.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/parameters.h"

namespace ropescope {

struct Scene {
  Layout layout;
  std::string design = "circle";
  ParameterSet designParams;
  FrequencySpec frequency;
  AgeSchedule age;
  int selectedText = 0;  // index among the text tokens, for per-token profiles
  int ageLayer = -1;     // circle design only: show the ids this layer uses; -1 = circle ids
  bool operator==(const Scene&) const = default;
};

Scene defaultScene();

// Throws InputError for an unknown design or plan, bad parameters or a bad layout.
void validateScene(const Scene& scene);

// JSON text of the session file (format "ropescope-scene", version 1).
std::string sceneToJson(const Scene& scene);
// Parses and validates. Throws InputError("scene file: ...") for malformed JSON, wrong types,
// unknown keys or out-of-range values.
Scene sceneFromJson(const std::string& text);

// File helpers: read (size-limited) and atomic write (temporary file, flush, rename).
Scene loadSceneFile(const std::string& path);
void saveSceneFile(const Scene& scene, const std::string& path);

}  // namespace ropescope
