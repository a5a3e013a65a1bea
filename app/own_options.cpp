#include "own_options.h"

#include <sstream>

namespace ropescope::cli {

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
      {kAttention, "heads", "H", "heads of --qk identical|random, 1..256 (default 1)"},
      {kAttention, "causal", nullptr, "mask keys after the query"},
      {kAttention, "softmax", nullptr, "write probabilities instead of logits q'k'/sqrt(d)"},
      {kAttention, "rows", "A:B", "query rows A..B-1 (default all) for --out and the summary"},
      {kAttention, "pool", "B",
       "write means over B x B blocks ([heads, ceil(N/B), ceil(N/B)]) instead of rows, "
       "1..1048576"},
      {kAttention, "backend", "auto|cpu|gpu",
       "compute backend (default auto: the GPU when an OpenGL 4.3 context can be had, else the "
       "CPU)"},
      {kAttention, "threads", "N", "CPU worker threads, 0 = all cores (default 0)"},
      // check-ids (cmd_check_ids.cpp)
      {kCheckIds, "position-ids", "P.npy",
       "the model's position_ids (np.save(P, ids.cpu().numpy())): [3, N], [3, 1, N] or [4, ...]"},
      {kCheckIds, "rules", "NAME|all", "hf-4.57 (default), hf-5.3, hf-main or all of them"},
      // render (cmd_render.cpp)
      {kRender, "preset", "NAME",
       "start from a preset that reproduces a published figure (--list-presets); the scene "
       "options change it"},
      {kRender, "view", "NAME",
       "the view to render (--list-views; default: the preset's view, else space)"},
      {kRender, "size", "WxH",
       "output size in pixels, each side 16..8192 (default 1050x750); a size too small for the "
       "text is refused with the smallest that works (252 wide at the auto scale)"},
      {kRender, "scale", "S",
       "device pixels per layout pixel, 0.5..16 (default: auto, the figure is laid out one "
       "3.5 in column wide); the layout, size / S, must be at least 240x180 (at 1050x750: "
       "S <= 4.16)"},
      {kRender, "max-distance", "N",
       "decay views: distances 0..N, 1..1000000 (default 256 or the preset's)"},
      {kRender, "distance", "N", "phasor view: the displacement in positions, 0..4096 (default 3)"},
      {kRender, "along", "t|h|w|thw",
       "phasor view: the axis the displacement runs along, thw all three as text tokens move "
       "(default h)"},
      {kRender, "no-title", nullptr, "leave the title out"},
      {kRender, "no-legend", nullptr, "leave the legend (3-D: the axis key) out"},
      {kRender, "list-views", nullptr, "list the views and their formats"},
      {kRender, "list-presets", nullptr, "list the presets and the figures they reproduce"},
      {kRender, "animate", "SPEC",
       "an animation instead of a figure: PARAM:FROM:TO, e.g. distance_h:0:256 (phasors), "
       "alpha:0:1, R:2:20, beta:0:1 (3-D view, needs X); --out x.gif or a folder for PNG frames"},
      {kRender, "frames", "N", "frames of the animation, 2..1000 (default 32)"},
  };
  return table;
}

std::string ownOptionsHelp(Command command) {
  constexpr std::size_t kIndent = 30, kWidth = 96;
  std::ostringstream o;
  for (const OwnOption& opt : ownOptions()) {
    if (opt.command != command) continue;
    std::string left = std::string("  --") + opt.name + (opt.arg ? std::string(" ") + opt.arg : "");
    left.append(left.size() < kIndent ? kIndent - left.size() : 1, ' ');
    std::string line = left;
    std::istringstream words(opt.help);
    std::string w;
    bool first = true;
    while (words >> w) {
      if (!first && line.size() + 1 + w.size() > kWidth) {
        o << line << "\n";
        line = std::string(kIndent, ' ');
        first = true;
      }
      line += (first ? "" : " ") + w;
      first = false;
    }
    o << line << "\n";
  }
  return o.str();
}

}  // namespace ropescope::cli
