#include "own_options.h"

#include <deque>
#include <stdexcept>

#include "ropescope/attention.h"
#include "ropescope/decay.h"
#include "ropescope/id_budget.h"
#include "ropescope/layout.h"
#include "ropescope/pixel_map.h"
#include "ropescope/report.h"

namespace ropescope::cli {

namespace {

using Value = OwnOption::Value;

// A number's row: its help is `before` + "LO..HI" + `after`, so the range is written once. The
// texts live as long as the table (built once).
OwnOption ranged(Command command, const char* name, const char* arg, Value value, double lo,
                 double hi, const std::string& before, const std::string& after = {}) {
  static std::deque<std::string> texts;
  const auto number = [value](double v) {
    return value == Value::Whole ? std::to_string(static_cast<long long>(v)) : formatDouble(v);
  };
  texts.push_back(before + number(lo) + ".." + number(hi) + after);
  return {command, name, arg, texts.back().c_str(), value, lo, hi};
}

}  // namespace

const std::vector<OwnOption>& ownOptions() {
  static const std::vector<OwnOption> table = {
      // attention (cmd_attention.cpp)
      {kAttention, "qk", "identical|random",
       "q/k source: identical unit vectors (1,...,1)/sqrt(d), the pure positional bias "
       "(default), or standard normal with --seed"},
      {kAttention, "seed", "S", "seed of --qk random (default 0; std::mt19937_64 + Box-Muller)"},
      {kAttention, "q", "FILE.npy",
       "real pre-RoPE q: [N, d] or [heads, N, d], float32/16, C order (convert bfloat16 dumps "
       "to float32 first); q heads a multiple of k heads (grouped-query attention); with --k"},
      {kAttention, "k", "FILE.npy", "real pre-RoPE k, as --q"},
      ranged(kAttention, "heads", "H", Value::Whole, kMinQkHeads, kMaxQkHeads,
             "heads of --qk identical|random, ", " (default 1)"),
      {kAttention, "causal", nullptr, "mask keys after the query"},
      {kAttention, "softmax", nullptr, "write probabilities instead of logits q'k'/sqrt(d)"},
      // A and B each 0..2^40 (the tokens decide the real bound).
      {kAttention, "rows", "A:B", "query rows A..B-1 (default all) for --out and the summary",
       Value::Whole, 0, 1099511627776.0},
      ranged(kAttention, "pool", "B", Value::Whole, 1, 1 << 20,
             "write means over B x B blocks ([heads, ceil(N/B), ceil(N/B)]) instead of rows, "),
      {kAttention, "backend", "auto|cpu|gpu",
       "compute backend (default auto: the GPU when an OpenGL 4.3 context can be had, else the "
       "CPU)"},
      {kAttention, "readouts", nullptr,
       "print the positional read-outs instead of the summary: the visual share of each text "
       "token after the last picture, and per picture the shares on its top-left, top row, "
       "left column and border, its centre of mass and row trend (causal softmax, CPU)"},
      {kAttention, "format", "json|text|csv",
       "the summary's format: json only (the rows go to --out); --readouts: text (default), "
       "json (every number) or csv (the visual-share curve)"},
      // check-ids (cmd_check_ids.cpp)
      {kCheckIds, "position-ids", "P.npy",
       "the model's position_ids (np.save(P, ids.cpu().numpy())): [3, N], [3, B, N] (a padded "
       "batch) or [4, ...]"},
      {kCheckIds, "rope-deltas", "D.npy|N[,N...]",
       "the rope_deltas get_rope_index returned with them, one per row: compared as each "
       "release returns them (padding counted up to 5.2, not from 5.3)"},
      {kCheckIds, "rules", "RELEASE|NAME|all",
       "a transformers release (e.g. 5.5.4, 4.57.1, main), hf-4.57 (default, = 4.57.1), hf-5.3 "
       "(= 5.3.0), hf-main (= main after #48669), or all: every release"},
      // rotary (cmd_rotary.cpp)
      {kRotary, "q", "FILE.npy",
       "pre-RoPE q to rotate: [N, d] or [heads, N, d], float32/16/64, C order (bfloat16 dumps "
       "to float32 first); writes q_embed.npy of the same shape"},
      {kRotary, "k", "FILE.npy", "pre-RoPE k to rotate, as --q; writes k_embed.npy"},
      {kRotary, "force", nullptr,
       "write into an --out folder that already holds files (the tables' files are replaced, "
       "others are left)"},
      // budget (cmd_budget.cpp)
      {kBudget, "format", "text|json|csv",
       "output format: text for a person (default), json (everything, with the curve) or csv "
       "(the curve, one row per point)"},
      ranged(kBudget, "points", "N", Value::Whole, double(kMinBudgetPoints),
             double(kMaxBudgetPoints),
             "points of the budget curve (first and last token among "
             "them), ",
             " (default " + std::to_string(kDefaultBudgetPoints) + ")"),
      ranged(kBudget, "trained-length", "N", Value::Whole, 1, double(kMaxTrainedLength),
             "the context length the model was trained at, ",
             " (default: the rope's original_max_position_embeddings, else the --model "
             "config's max_position_embeddings; without either the ratios are n/a)"),
      // principles (cmd_principles.cpp)
      {kPrinciples, "format", "text|json",
       "output format: text for a person (default) or json (every number and reason)"},
      {kPrinciples, "designs", "scene|all|revisiting",
       "which rows: the scene's design (default), every design as picking it does, or the "
       "Revisiting paper's (arXiv 2510.23095) designs with their plans"},
      // layers (cmd_layers.cpp)
      {kLayers, "format", "text|json|csv",
       "output format: text for a person (default; runs of identical layers on one line), json "
       "(every layer, every field) or csv (one row per layer)"},
      // pixels (cmd_pixels.cpp)
      {kPixels, "format", "csv|json", "output format: csv (default), or json"},
      ranged(kPixels, "temporal-patch-size", "N", Value::Whole, 1, double(kMaxTemporalPatch),
             "frames one temporal patch pairs (temporal_patch_size), ", " (default 2)"),
      // qk-usage (cmd_qk_usage.cpp)
      {kQkUsage, "q", "FILE.npy",
       "real pre-RoPE q of one layer: [N, d] or [heads, N, d], float32/16/64, C order "
       "(bfloat16 dumps to float32 first); q heads a multiple of k heads; with --k"},
      {kQkUsage, "k", "FILE.npy", "real pre-RoPE k of the same layer, as --q"},
      {kQkUsage, "format", "text|json|csv",
       "output format: text for a person (default), json (every number) or csv (the pair "
       "table, per head and the mean over heads)"},
      // render (cmd_render.cpp)
      {kRender, "preset", "NAME",
       "start from a preset that reproduces a published figure (--list-presets); the scene "
       "options change it"},
      {kRender, "view", "NAME",
       "the view to render (--list-views; default: the preset's view, else space)"},
      ranged(kRender, "size", "WxH", Value::Whole, 16, 8192, "output size in pixels, each side ",
             " (default 1050x750); a size too small for the text is refused with the smallest "
             "that works (252 wide at the auto scale)"),
      ranged(kRender, "scale", "S", Value::Number, 0.5, 16, "device pixels per layout pixel, ",
             " (default: auto, the figure is laid out one 3.5 in column wide); the layout, "
             "size / S, must be at least 240x180 (at 1050x750: S <= 4.16)"),
      // The Phasors tab's range (ui figure_style.h kPhasorMaxDistance, which the figure checks
      // too); this table is built into the front as well, which has no ui.
      ranged(kRender, "distance", "N", Value::Whole, 0, 4096,
             "phasor view: the displacement in positions, ", " (default 3)"),
      {kRender, "along", "t|h|w|thw",
       "phasor view: the axis the displacement runs along, thw all three as text tokens move "
       "(default h)"},
      // A video's temporal patches: the layout decides the real bound, below its token limit.
      ranged(kRender, "temporal-patch", "K", Value::Whole, 0, double(kMaxLayoutTokens - 1),
             "picture views of a video: the temporal patch to show, ",
             " and less than the video's temporal patches (default 0, the first; the title "
             "names it, the CSV holds every one)"),
      ranged(kRender, "segment", "N", Value::Whole, 0, double(kMaxLayoutTokens - 1),
             "picture and sound views: the layout item to show, counted from 0 as the layout is "
             "written, ",
             " (default: the first picture, video or sound; a layout of several shows the one "
             "asked for)"),
      {kRender, "color-by", "cell|modality",
       "3-D views (space, compare): colour the tokens by grid cell, row x col (default), or by "
       "modality, as the app's Colour by"},
      {kRender, "no-title", nullptr, "leave the title out"},
      {kRender, "no-legend", nullptr, "leave the legend (3-D: the axis key) out"},
      {kRender, "list-views", nullptr, "list the views and their formats"},
      {kRender, "list-presets", nullptr, "list the presets and the figures they reproduce"},
      {kRender, "animate", "SPEC",
       "an animation instead of a figure: PARAM:FROM:TO, e.g. distance_h:0:256 (phasors), "
       "alpha:0:1, R:2:20, beta:0:1 (3-D view, needs X); --out x.gif or a folder for PNG frames"},
      // The animation's range (ui animation.h kMin/kMaxAnimationFrames, checked there too).
      ranged(kRender, "frames", "N", Value::Whole, 2, 1000, "frames of the animation, ",
             " (default 32)"),
  };
  return table;
}

const OwnOption& ownOption(Command command, const std::string& name) {
  for (const OwnOption& opt : ownOptions())
    if (opt.command == command && name == opt.name) return opt;
  throw std::logic_error("no own option --" + name + " of " + commandName(command));
}

long long ownWhole(Command command, const std::string& name, const std::string& text) {
  const OwnOption& opt = ownOption(command, name);
  if (opt.value != Value::Whole) throw std::logic_error("--" + name + " is not a whole number");
  return parseWholeOption(name, text, static_cast<long long>(opt.lo),
                          static_cast<long long>(opt.hi));
}

double ownNumber(Command command, const std::string& name, const std::string& text) {
  const OwnOption& opt = ownOption(command, name);
  if (opt.value != Value::Number) throw std::logic_error("--" + name + " is not a number");
  return parseNumberOption(name, text, opt.lo, opt.hi);
}

}  // namespace ropescope::cli
