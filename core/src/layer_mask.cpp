#include "ropescope/layer_mask.h"

#include "ropescope/errors.h"

namespace ropescope {

bool layerSees(const StackLayer& layer, long long query, long long key) {
  if (key > query || key < 0) return false;
  if (layer.window <= 0) return true;
  if (layer.attention == LayerAttention::Sliding) return key > query - layer.window;
  if (layer.attention == LayerAttention::Chunked) return key / layer.window == query / layer.window;
  return true;
}

std::vector<unsigned char> layerMask(const StackLayer& layer, int n) {
  if (n < 0 || n > 4096)
    throw InputError("mask size must be in 0..4096 (got " + std::to_string(n) + ")", "tokens");
  std::vector<unsigned char> mask(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0);
  for (int q = 0; q < n; ++q)
    for (int k = 0; k <= q; ++k)
      mask[static_cast<std::size_t>(q) * static_cast<std::size_t>(n) +
           static_cast<std::size_t>(k)] = layerSees(layer, q, k) ? 1 : 0;
  return mask;
}

}  // namespace ropescope
