// A layer's mask as key ranges, its rotary or temperature, and the problem built from them.
// Sources: transformers' masking_utils.py (causal_mask_function, sliding_window_overlay,
// chunked_overlay, or_masks) and modeling_gemma3.py (token_type_ids_mask_function and the
// image_group_ids of create_causal_mask_mapping), modeling_llama4.py (attn_scales on the layers
// without RoPE).
#include "ropescope/layer_attention.h"

#include <algorithm>
#include <cmath>

#include "ropescope/attention_temperature.h"
#include "ropescope/errors.h"
#include "ropescope/layer_mask.h"
#include "ropescope/report.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

bool layerSeesWithPictures(const StackLayer& layer, bool pictureBlocks,
                           const std::vector<int>& picture, long long query, long long key) {
  if (layerSees(layer, query, key)) return true;
  if (!pictureBlocks || picture.empty() || query < 0 || key < 0) return false;
  const auto n = static_cast<long long>(picture.size());
  if (query >= n || key >= n) return false;
  const int a = picture[static_cast<std::size_t>(query)];
  return a >= 0 && a == picture[static_cast<std::size_t>(key)];
}

std::vector<int> pictureBlocksOf(const std::vector<TokenInfo>& tokens) {
  std::vector<int> out(tokens.size(), -1);
  int next = -1;
  bool previous = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const bool image = tokens[i].modality == Modality::Image;
    if (image && !previous) ++next;
    if (image) out[i] = next;
    previous = image;
  }
  return out;
}

std::vector<KeyRange> layerKeyRanges(const StackLayer& layer, bool pictureBlocks,
                                     const std::vector<int>& picture, std::size_t n) {
  std::vector<KeyRange> out(n);
  // Each picture block's first and last token.
  std::vector<std::pair<std::size_t, std::size_t>> block;
  if (pictureBlocks)
    for (std::size_t i = 0; i < std::min(n, picture.size()); ++i) {
      const int b = picture[i];
      if (b < 0) continue;
      if (static_cast<std::size_t>(b) >= block.size()) block.resize(std::size_t(b) + 1, {i, i});
      block[std::size_t(b)].second = i;
    }
  for (std::size_t q = 0; q < n; ++q) {
    std::size_t first = 0;
    const long long w = layer.window;
    if (w > 0 && layer.attention == LayerAttention::Sliding)
      first = q + 1 > std::size_t(w) ? q + 1 - std::size_t(w) : 0;
    else if (w > 0 && layer.attention == LayerAttention::Chunked)
      first = q / std::size_t(w) * std::size_t(w);
    std::size_t end = q + 1;
    // The block holds q, so its run and the causal one [first, q] overlap: one run.
    if (pictureBlocks && q < picture.size() && picture[q] >= 0) {
      const auto [b0, b1] = block[std::size_t(picture[q])];
      first = std::min(first, b0);
      end = std::max(end, b1 + 1);
    }
    out[q] = {static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(end)};
  }
  return out;
}

void applyStackLayer(AttentionProblem& p, const LayerStack& stack, int layer,
                     const std::vector<TokenInfo>& tokens) {
  const StackLayer& l = layerAt(stack, layer);
  const std::size_t n = p.qk.tokens;
  if (!l.rotary) {
    // No position encoding: no pair turns (every dim passes through, scaled).
    PairTable none;
    none.headDim = p.pairs.headDim;
    none.layout = p.pairs.layout;
    p.pairs = none;
    p.rotary = rotaryTable(p.ids, p.pairs);
    p.queryScale.clear();
    if (l.temperature) {
      p.queryScale.resize(n);
      for (std::size_t t = 0; t < n; ++t)
        p.queryScale[t] = attentionTemperatureF32(*l.temperature, static_cast<long long>(t));
    }
  }
  p.causal = true;
  p.keys = layerKeyRanges(l, stack.pictureBlocks, pictureBlocksOf(tokens), n);
  p.logitScale = stack.logitScale;
  validateProblem(p);
}

AttentionProblem makeLayerAttentionProblem(const Scene& scene, const QkSourceSpec& source,
                                           const LayerStack& stack, int layer) {
  const StackLayer& l = layerAt(stack, layer);
  Scene s = scene;
  if (l.rotary) s.frequency = l.frequency;
  AttentionProblem p = makeAttentionProblem(s, source, true);
  applyStackLayer(p, stack, layer, effectiveIds(s).tokens);
  return p;
}

std::string layerAttentionSummary(const LayerStack& stack, int layer) {
  const StackLayer& l = layerAt(stack, layer);
  std::string s = "layer " + std::to_string(layer) + " of " + stack.name + " (" + l.type + "): ";
  if (l.attention == LayerAttention::Sliding && l.window > 0)
    s += "causal, sliding window of " + std::to_string(l.window) + " tokens";
  else if (l.attention == LayerAttention::Chunked && l.window > 0)
    s += "causal within chunks of " + std::to_string(l.window) + " tokens";
  else
    s += "causal";
  if (stack.pictureBlocks) s += ", a picture's tokens see each other";
  if (!l.rotary)
    s += std::string(", no rotary (NoPE)") +
         (l.temperature ? ", q times Llama 4's temperature (floor_scale " +
                              formatDouble(l.temperature->floorScale) + ", attn_scale " +
                              formatDouble(l.temperature->attnScale) + ")"
                        : "");
  if (stack.logitScale > 0.0) s += ", logits x " + formatDouble(stack.logitScale);
  return s;
}

}  // namespace ropescope
