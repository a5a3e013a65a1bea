// The Scene: everything a figure depends on, as plain data, and its JSON session-file form.
// The GUI edits one Scene; every view and every CLI subcommand computes from it.
#pragma once

#include <string>
#include <vector>

#include "ropescope/age_schedule.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/image_grid.h"
#include "ropescope/layout.h"
#include "ropescope/parameters.h"
#include "ropescope/position_ids.h"
#include "ropescope/scene_defaults.h"

namespace ropescope {

struct Scene {
  Layout layout;
  std::string design = kDefaultDesign;
  ParameterSet designParams;
  FrequencySpec frequency;
  AgeSchedule age;
  int selectedText = 0;  // index among the text tokens, for per-token profiles
  int ageLayer = -1;     // circle design only: show the ids this layer uses; -1 = circle ids
  // How picture files in the layout (img:, vid:) become grids. Changing it means re-reading the
  // files: call regridLayout(scene.layout, scene.imageGrid) (layout_files.h).
  ImageGridSettings imageGrid;
  // Design "ids-file" (ids_file.h): the .npy the ids came from (absolute in memory, relative to
  // the scene file in its JSON) and its ids, one per layout token.
  std::string idsFile;
  std::vector<Id3> fileIds;
  // The model applied last (applyModel, model_config.h): its name ("qwen2.5-vl-7b" or the
  // checkpoint folder's name), shown beside the design; empty when none. At most
  // kMaxModelNameChars printable characters.
  std::string model;
  bool operator==(const Scene&) const = default;
};

inline constexpr std::size_t kMaxModelNameChars = 256;

// The same document: equal but for the selection (selectedText). A scene file remembers which
// text token was selected, since the figures are made for it, but selecting is not editing: a
// click on a token neither marks the document modified nor makes an undo step.
bool sameDocument(const Scene& a, const Scene& b);

Scene defaultScene();

// The scene with its ids read from `path` (readIdsFile) and the design set to ids-file; throws
// InputError (scene unchanged) for a bad file or a token count that differs from the layout's.
Scene withIdsFile(Scene scene, const std::string& path);

// Switching design, the one rule every editor follows: a different design starts from its own
// defaults (the same design keeps its parameters), and the layout's sounds count by its audio
// rule (audioTokenRuleOf). Throws InputError (field "design") naming the designs for a bad name.
void setDesign(Scene& scene, const std::string& name);
// What picking a design does (GUI design box, CLI --design): setDesign, then the frequency plan
// the design was published with (PositionDesign::suggestedPlan, IL-RoPE: interleaved) at that
// plan's default sections, unless `keepPlan` (the CLI's --plan chose one). A model family's
// design brings the whole rotary of its released checkpoints (ModelFamily::defaultFrequency) and
// its image processor's grid (ModelFamily::imageGrid, the pictures cut again),
// whatever `keepPlan` says, when the scene was under another design: the CLI applies its plan
// options over it. A design without a plan of its own, picked after one that brought its own
// (a family, or a design with a suggested plan), starts from defaultScene()'s rotary unless
// `keepPlan`; between designs without plans of their own the rotary is kept. A design picked
// after a family goes back to defaultScene()'s image grid. Throws InputError where a picture of
// the layout is refused by the new grid.
void pickDesign(Scene& scene, const std::string& name, bool keepPlan = false);
// Cuts the scene's pictures again under `grid` and keeps it as the scene's image grid. Throws
// InputError for a picture the grid refuses (the scene is then left unchanged).
void useImageGrid(Scene& scene, const ImageGridSettings& grid);
// The scene as the design comparison shows it under `name`: setDesign keeping the sounds' counts
// (all designs over the same tokens), and no AGE layer for another design (it is circle's).
Scene sceneUnderDesign(const Scene& scene, const std::string& name);

// Throws InputError for an unknown design or plan, bad parameters or a bad layout.
void validateScene(const Scene& scene);

// How a layout spec typed or saved for this scene reads its items: pictures by the scene's image
// grid, sound files by its design's audio rule, FAMILY: items as the processor of the scene's
// rule set (its design's `rules` parameter, a transformers release) writes them. Paths relative
// to `baseDir`. The scene file, the CLI and the desktop app's layout line all parse with it.
LayoutFileContext layoutContextOf(const Scene& scene, const std::string& baseDir = {});

// JSON text of the session file (format "ropescope-scene", version 1). Picture paths in the
// layout are written relative to `baseDir` (the scene file's folder) when given.
std::string sceneToJson(const Scene& scene, const std::string& baseDir = {});
// Parses and validates. Throws InputError("scene file: ...") for malformed JSON, wrong types,
// unknown keys or out-of-range values, and for a picture file of the layout that is missing or
// bad (naming the file). Relative picture paths are read from `baseDir`.
Scene sceneFromJson(const std::string& text, const std::string& baseDir = {});

// File helpers: read (size-limited) and atomic write (temporary file, flush, rename). Picture
// paths are stored relative to the scene file's folder.
Scene loadSceneFile(const std::string& path);
void saveSceneFile(const Scene& scene, const std::string& path);

// A scene read with its bad picture files left out: what the GUI opens so that one missing
// photo does not lose the rest of the session.
struct SceneLoadReport {
  Scene scene;
  // One entry per layout item left out: its position, its text (e.g. "img:photo.jpg", relative
  // to the scene file, to offer "locate the file") and one line naming the file and problem.
  std::vector<LayoutProblem> problems;
};
// Never throws for a missing or bad picture (it lands in problems); still throws InputError for
// an unreadable or malformed scene file, or when nothing valid is left of the layout.
SceneLoadReport loadSceneFileReport(const std::string& path);

}  // namespace ropescope
