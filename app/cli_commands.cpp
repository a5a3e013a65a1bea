// Subcommand bodies: a few lines each over core.
#include "cli_commands.h"

#include <cstdio>
#include <iostream>

#include "ropescope/atomic_file.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/position_design.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::cli {

namespace {
PositionIds sceneIds(const Scene& scene) {
  return effectiveIds(scene);
}
}  // namespace

std::string runCommand(const Request& r) {
  switch (r.command) {
    case kIds:
      return idsReport(sceneIds(r.scene), r.format);
    case kPtd: {
      const PositionIds ids = sceneIds(r.scene);
      const PtdResult ptd = perTokenDistance(ids, r.threads);
      if (!ptd.defined()) throw InputError(ptd.undefinedReason, "layout");
      return ptdReport(ptd, ids, r.format);
    }
    case kBias: {
      const PositionIds ids = sceneIds(r.scene);
      const BiasResult bias = biasSpread(ids, resolvePairs(r.scene.frequency), r.threads);
      if (!bias.defined()) throw InputError(bias.undefinedReason, "layout");
      return biasReport(bias, ids, r.format);
    }
    case kDecay: {
      const PairTable pairs = resolvePairs(r.scene.frequency);
      const auto bound = decayCurve(pairs, r.direction, r.maxDistance,
                                    r.subsetForm ? DecayForm::Subset : DecayForm::Full, r.threads);
      std::vector<double> distance(bound.size());
      for (std::size_t i = 0; i < distance.size(); ++i) distance[i] = static_cast<double>(i);
      return decayReport(distance, bound, r.format);
    }
    case kFreqs: {
      const PairTable pairs = resolvePairs(r.scene.frequency);
      return freqsReport(wavelengths(pairs, r.contextLength), r.contextLength, r.format,
                         pairs.layout);
    }
    case kAttention:
    case kGrid:
    case kRender:
      break;  // these parse and run in their own files (subcommands.h)
  }
  return {};
}

void writeOutput(const std::string& text, const std::string& path) {
  if (path.empty()) {
    std::cout << text;
    std::cout.flush();
    return;
  }
  writeFileAtomically(path, text, "out");
}

}  // namespace ropescope::cli
