// The attention preview of one decoder layer (layer_stack.h): the keys each query sees (causal,
// sliding window, chunk, Gemma 3's bidirectional picture blocks), its rotary or none (NoPE, with
// Llama 4's q temperature) and its logit scale, put into an AttentionProblem (attention.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/position_ids.h"

namespace ropescope {

struct Scene;

// Whether query `query` sees key `key` in `layer`, with `picture[i]` the picture block of token i
// (-1 for a token outside every picture; empty: none): layerSees (layer_mask.h), or, where
// `pictureBlocks`, both tokens in the same picture block (transformers'
// token_type_ids_mask_function joined by or_masks to the causal and sliding masks, so in every
// layer of Gemma 3).
bool layerSeesWithPictures(const StackLayer& layer, bool pictureBlocks,
                           const std::vector<int>& picture, long long query, long long key);

// The picture block of every token as transformers numbers them for Gemma 3: a maximal run of
// consecutive image tokens (token_type_ids 1) is one block, numbered from 0 in order; -1 for
// every other token. Video and audio tokens are not pictures (Gemma 3 has neither).
std::vector<int> pictureBlocksOf(const std::vector<TokenInfo>& tokens);

// The keys [begin, end) every query of `n` tokens sees in `layer` (one contiguous run each, as
// layerSeesWithPictures defines it).
std::vector<KeyRange> layerKeyRanges(const StackLayer& layer, bool pictureBlocks,
                                     const std::vector<int>& picture, std::size_t n);

// The problem of the scene's q/k at layer `layer` of `stack`: the layer's rotary (the scene's
// frequency replaced by it) or, for a NoPE layer, none, with the temperature on q where the layer
// has one (attentionTemperatureF32 of the token's 0-based position, as transformers computes
// it); the layer's mask; the stack's logit scale. Throws InputError (field "layer") for an index
// outside the stack, naming the range, and as makeAttentionProblem for the rest.
AttentionProblem makeLayerAttentionProblem(const Scene& scene, const QkSourceSpec& source,
                                           const LayerStack& stack, int layer);
// The same on a problem already built with the layer's rotary (or any, for a NoPE layer) from
// tokens `tokens` (the ids' TokenInfo): its pairs dropped for a NoPE layer, the temperature,
// the mask and the logit scale put in. The Python module builds its problem from arrays.
void applyStackLayer(AttentionProblem& problem, const LayerStack& stack, int layer,
                     const std::vector<TokenInfo>& tokens);

// One line saying what the preview of that layer shows: "layer 5 of gemma-3-4b-it
// (full_attention): causal, a picture's tokens see each other, logits x 0.0625".
std::string layerAttentionSummary(const LayerStack& stack, int layer);

}  // namespace ropescope
