#include "ropescope/attention_report.h"

#include <cmath>

#include "json_lines.h"
#include "ropescope/layout.h"
#include "ropescope/scene_metrics.h"

namespace ropescope {

namespace {

using json = nlohmann::ordered_json;

json summary(const Summary3& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}};
}

const char* sourceName(QkSourceSpec::Kind k) {
  switch (k) {
    case QkSourceSpec::Kind::Identical:
      return "identical";
    case QkSourceSpec::Kind::Random:
      return "random";
    case QkSourceSpec::Kind::Files:
      return "npy";
  }
  return "?";
}

}  // namespace

std::string attentionReport(const Scene& scene, const AttentionProblem& problem,
                            const AttentionRun& run) {
  json j = {{"command", "attention"},
            {"tokens", problem.qk.tokens},
            {"heads", problem.qk.qHeads},
            {"kv_heads", problem.qk.kvHeads},
            {"head_dim", problem.qk.headDim},
            {"rotary_dim", 2 * problem.rotary.pairs},
            {"pairs", pairLayoutName(problem.rotary.layout)},
            {"layout", formatLayoutSpec(scene.layout)},
            {"design", effectiveDesign(scene)},
            {"plan", scene.frequency.plan},
            {"base", scene.frequency.rotary.base}};
  // transformers multiplies cos and sin by the attention factor: the rotated part of every logit
  // carries its square.
  if (!problem.pairs.ropeType.empty())
    j["rope"] = {{"type", problem.pairs.ropeType},
                 {"attention_factor", problem.pairs.attentionFactor},
                 {"logit_scale", problem.pairs.attentionFactor * problem.pairs.attentionFactor}};
  j["qk"] = sourceName(run.source.kind);
  if (run.source.kind == QkSourceSpec::Kind::Random) j["seed"] = run.source.seed;
  if (run.source.kind == QkSourceSpec::Kind::Files) {
    j["q_file"] = run.source.qPath;
    j["k_file"] = run.source.kPath;
  }
  j["causal"] = run.causal;
  if (run.layer >= 0) {
    j["layer"] = run.layer;
    j["layer_mask"] = run.layerMask;
  }
  j["value"] = run.softmax ? "softmax" : "logits";
  j["rows"] = {run.rowBegin, run.rowEnd};
  if (run.pool > 0) j["pool"] = run.pool;
  j["out"] = run.out.empty() ? json(nullptr) : json(run.out);
  if (!run.out.empty()) j["out_shape"] = run.outShape;
  j["backend"] = run.backend;
  j["backend_detail"] = run.backendDetail;
  if (!run.backendNote.empty()) j["backend_note"] = run.backendNote;
  if (run.fellBack) j["backend_fallback_reason"] = run.fallbackReason;
  j["row_max_logit"] = summary(run.rowMaxLogit);
  j["row_max_probability"] = summary(run.rowMaxProbability);
  j["row_entropy"] = summary(run.rowEntropy);
  j["seconds"] = std::round(run.seconds * 1e4) / 1e4;
  return jsonOneMemberPerLine(j);
}

}  // namespace ropescope
