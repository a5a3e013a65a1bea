// The three design principles of multimodal RoPE ("Revisiting Multimodal Positional Encoding in
// Vision-Language Models", arXiv 2510.23095, ICLR 2026) as a verdict on a scene, each with the
// number behind it: position coherence (no visual id at or above a later text id, the modality
// interval, the id growth), full frequency utilisation (each axis's share of the plan's
// log-frequency range) and preservation of the textual prior (on text alone, the ids and the
// rotary of vanilla 1-D RoPE with the same base and dims). docs/math.md, "Design principles",
// has every rule; the verdicts of the paper's designs are in docs/designs.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/position_ids.h"
#include "ropescope/progress.h"
#include "ropescope/scene.h"

namespace ropescope {

// An axis uses the full spectrum when its rotating pairs span at least this share of the plan's
// log-frequency range (MRoPE-I [24,20,20] gives h and w 0.905, VideoRoPE's h/w band 0.73 and
// 0.75, chunked M-RoPE's t 0.24).
inline constexpr double kFullSpectrumShare = 0.8;
// The text-only layout the textual prior is also checked on: this many text tokens.
inline constexpr int kTextPriorTokens = 64;
// Ids and rotary equal vanilla RoPE's when they differ by at most this (ids in positions, rotary
// as the chord |e^{ia} - e^{ib}| between the two unit rotations).
inline constexpr double kTextPriorTolerance = 1e-9;

enum class Verdict { Pass, Fail, Undefined };
const char* verdictName(Verdict v);  // "pass", "fail", "n/a"

// The first text token whose id on `axis` is at or below the id of an earlier visual token.
struct IdOverlap {
  std::size_t textToken = 0, visualToken = 0;
  Axis axis = Axis::T;
  double textId = 0.0, visualId = 0.0;
};

// One visual block (image or video segment): its largest id per axis and the modality interval,
// the first text token after it minus that largest id, per axis (nullopt without a text token
// after the block, `undefined` says so).
struct BlockInterval {
  int segment = 0;
  std::size_t firstToken = 0;
  Id3 largest{0.0, 0.0, 0.0};
  std::optional<std::size_t> nextText;
  std::optional<Id3> interval;
  std::string undefined;
};

struct Coherence {
  Verdict verdict = Verdict::Undefined;
  std::string reason;
  std::optional<IdOverlap> overlap;  // the first one; nullopt when none
  std::size_t overlappingText = 0;   // text tokens at or below an earlier visual id
  std::vector<BlockInterval> blocks;
  // Per axis the smallest interval over the blocks; nullopt (intervalUndefined) without one.
  std::optional<Id3> smallestInterval;
  std::string intervalUndefined;
  double growth = 0.0;  // (largest id + 1) / tokens
};

// The frequencies one axis turns with (over every KV head for a per-head plan).
struct AxisSpectrum {
  Axis axis = Axis::T;
  int pairs = 0;     // pairs (over heads) that turn with the axis
  int rotating = 0;  // of them, with a frequency > 0
  // Share of the plan's log-frequency range between the axis's lowest and highest frequency;
  // 0 when it has no rotating pair. lowest / highest: radians per position, nullopt then.
  double share = 0.0;
  std::optional<double> lowest, highest;
  std::vector<double> thetas;  // the axis's frequencies, highest first, for the spectrum strip
  bool judged = false;  // whether the verdict reads the axis (a one-index design: none alone)
};

struct FrequencyUse {
  Verdict verdict = Verdict::Undefined;
  std::string reason;
  // The log-frequency range every share is of: vanilla RoPE's lowest and highest frequency for
  // the same base, dims and scaling.
  double planLowest = 0.0, planHighest = 0.0;
  int heads = 1;      // KV heads read (per-head plans: all of them)
  int nopePairs = 0;  // pairs (over heads) that turn with no axis: frequency 0, no position
  // A one-index design (t = h = w on every token): every pair turns with that index, so the
  // verdict reads the share of all rotating pairs together; nullopt for other designs.
  std::optional<double> oneIndexShare;
  std::vector<AxisSpectrum> axes;  // t, h, w, and h+w-t where the plan uses it
};

// Text alone under the design and plan against vanilla 1-D RoPE (ids 0, 1, 2, ... on every
// axis; every pair p at the vanilla plan's theta_p, same base, dims and scaling).
struct TextPriorCheck {
  std::size_t tokens = 0;
  std::optional<double> idDifference;      // max |id - index| over tokens and axes
  std::optional<double> rotaryDifference;  // max chord over tokens, pairs (and heads)
  std::optional<std::size_t> firstToken;   // the first token that differs, nullopt when equal
  std::string undefined;                   // why the check has no value
  bool equal() const;
};

struct TextPrior {
  Verdict verdict = Verdict::Undefined;
  std::string reason;
  TextPriorCheck sceneText;  // the scene's own text runs, the visual and audio ones left out
  TextPriorCheck textOnly;   // kTextPriorTokens text tokens
};

struct PrinciplesVerdict {
  std::string label;  // what the row is called: the design, or the paper's name for it
  std::string design, plan;
  std::vector<int> sections;
  Coherence coherence;
  FrequencyUse frequency;
  TextPrior text;
};

// The verdict on `scene` (its effective ids, its frequency plan). Throws InputError for a scene
// whose ids or plan cannot be computed.
PrinciplesVerdict principlesVerdict(const Scene& scene, const std::string& label = {});

// Every design of the registry (position_design.h) over the scene's layout, each as picking it
// does (pickDesign: its suggested plan, a family's rotary), side by side.
// `progress` is asked between designs (Cancelled when it says stop) and told the share judged.
std::vector<PrinciplesVerdict> everyDesignVerdict(const Scene& scene,
                                                  const Progress& progress = {});

// The rows of the Revisiting paper's comparison: vanilla RoPE, MRoPE, VideoRoPE, HoPE,
// CircleRoPE, IL-RoPE, Omni-RoPE, MRoPE-I, MHRoPE, each as a design and a plan of this registry.
struct RevisitingRow {
  std::string label, design, plan;
};
const std::vector<RevisitingRow>& revisitingRows();
// The layout the rows are judged on when the scene has no visual token: text, an image and a
// video between text runs (layout spec form).
inline constexpr const char* kRevisitingLayout = "t8,i4x6,t8,v3x4x4,t8";
// The rows over the scene's layout (kRevisitingLayout when it has no visual token) and its
// rotary (head dim, rotary dim, base, pair layout, scaling); each row's plan at its defaults.
std::vector<PrinciplesVerdict> revisitingVerdicts(const Scene& scene);

// What the principles figure shows: the scene's own design and plan first (labelled
// "scene: DESIGN, PLAN"; left out when a row below is the same design and plan), then the
// Revisiting rows as revisitingVerdicts gives them.
std::vector<PrinciplesVerdict> principlesFigureRows(const Scene& scene);

// What the desktop app's Principles tab shows: the scene's own design and plan first (labelled
// as in principlesFigureRows), then every design of the registry (everyDesignVerdict).
// `progress` as in everyDesignVerdict (a million tokens take seconds).
std::vector<PrinciplesVerdict> principlesPanelRows(const Scene& scene,
                                                   const Progress& progress = {});

}  // namespace ropescope
