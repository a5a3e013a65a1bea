// The extension module ropescope._ropescope: core's computations over numpy arrays. The
// Python package (python/ropescope/__init__.py) turns keyword arguments into the CLI's option
// words and processor outputs into tokens JSON; everything else happens here, in core, with
// the GIL released while core computes.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "cli_options.h"
#include "numpy_buffers.h"
#include "own_options.h"
#include "requests.h"
#include "ropescope/attention.h"
#include "ropescope/attention_readouts.h"
#include "ropescope/attention_readouts_report.h"
#include "ropescope/check_ids.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/id_budget.h"
#include "ropescope/id_budget_report.h"
#include "ropescope/image_grid.h"
#include "ropescope/image_probe.h"
#include "ropescope/layer_attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layer_stack_report.h"
#include "ropescope/layout_files.h"
#include "ropescope/metrics.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/pixel_map.h"
#include "ropescope/pixel_map_report.h"
#include "ropescope/position_design.h"
#include "ropescope/principles_report.h"
#include "ropescope/qk_usage.h"
#include "ropescope/qk_usage_report.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/rotary_tables.h"
#include "ropescope/sample_pictures.h"
#include "ropescope/scene.h"
#include "ropescope/scene_metrics.h"
#include "ropescope/thread_count.h"
#include "ropescope/wavelengths.h"

#ifdef ROPESCOPE_SHIPPED_FILES
#include "ropescope/shipped_models.h"
#include "ropescope/shipped_samples.h"
#endif

namespace py = pybind11;
using namespace ropescope;
using python::Inputs;

namespace {

Inputs inputsOf(std::vector<std::string> args, std::optional<std::string> scene,
                std::optional<std::string> tokens, std::string model, std::string tokensPath) {
  return {std::move(args), std::move(scene), std::move(tokens), std::move(model),
          std::move(tokensPath)};
}

// A C-order numpy array in a core container (one copy: core's types own their vectors).
template <class Out>
Out arrayOf(const py::array& a) {
  Out out;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) out.shape.push_back(std::size_t(a.shape(i)));
  using T = typename decltype(out.data)::value_type;
  const auto typed = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
  out.data.assign(typed.data(), typed.data() + typed.size());
  return out;
}

// The scene's rope scaling as the result objects carry it: type (None without a scaling), the
// attention factor transformers multiplies cos and sin by, the logit scale (its square), and
// with a scaling the per-axis counts and the sequence switch, as `ropescope freqs` reports them.
py::dict ropeOf(const PairTable& t) {
  py::dict d;
  const bool scaled = !t.ropeType.empty();
  d["type"] = scaled ? py::object(py::str(t.ropeType)) : py::object(py::none());
  d["attention_factor"] = t.attentionFactor;
  d["logit_scale"] = t.attentionFactor * t.attentionFactor;
  if (!scaled) return d;
  const ScalingCounts counts = scalingCounts(t);
  py::dict perAxis;
  for (Axis a : {Axis::T, Axis::H, Axis::W, Axis::Mix, Axis::None}) {
    const auto& c = counts[static_cast<std::size_t>(a)];
    if (c[0] + c[1] + c[2] + c[3] == 0) continue;  // no pair on this axis
    py::dict row;
    for (int k = 0; k < kPairScalingCount; ++k)
      row[pairScalingName(static_cast<PairScaling>(k))] = c[static_cast<std::size_t>(k)];
    perAxis[axisName(a)] = row;
  }
  d["per_axis"] = perAxis;
  if (t.switchLength > 0) {
    d["switch_length"] = t.switchLength;
    d["switched"] = t.switched;
  }
  return d;
}

// A processor output's runs read as the release reads them (Request::tokenWarnings), as Python
// UserWarnings; the GIL must be held.
void warnTokenReading(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings)
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) throw py::error_already_set();
}

py::array_t<double> ids(const Inputs& in) {
  std::vector<Id3> out;
  std::vector<std::string> warnings;
  {
    py::gil_scoped_release free;
    const cli::Request r = python::buildRequest(cli::kIds, in);
    warnings = r.tokenWarnings;
    out = effectiveIds(r.scene).ids;
  }
  warnTokenReading(warnings);
  return python::idsArray(std::move(out));
}

double ptd(const Inputs& in) {
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kPtd, in);
  const PtdResult p = perTokenDistance(effectiveIds(r.scene), r.threads, r.groups);
  if (!p.defined()) throw InputError(p.undefinedReason, "layout");
  return p.ptd;
}

double biasSpreadOf(const Inputs& in) {
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kBias, in);
  const BiasResult b =
      biasSpread(effectiveIds(r.scene), resolvePairs(r.scene.frequency), r.threads, r.groups);
  if (!b.defined()) throw InputError(b.undefinedReason, "layout");
  return b.spread;
}

// The curve and the scene's rope scaling (ropeOf).
py::tuple decay(const Inputs& in) {
  std::vector<double> u;
  PairTable pairs;
  {
    py::gil_scoped_release free;
    const cli::Request r = python::buildRequest(cli::kDecay, in);
    pairs = resolvePairs(r.scene.frequency);
    u = decayCurve(pairs, r.direction, r.maxDistance,
                   r.subsetForm ? DecayForm::Subset : DecayForm::Full, r.threads);
  }
  const auto n = static_cast<py::ssize_t>(u.size());
  return py::make_tuple(python::ownedArray(std::move(u), {n}), ropeOf(pairs));
}

py::dict freqs(const Inputs& in) {
  const cli::Request r = python::buildRequest(cli::kFreqs, in);
  const PairTable pairs = resolvePairs(r.scene.frequency);
  const std::vector<PairWavelength> w = wavelengths(pairs, r.contextLength);
  const auto n = static_cast<py::ssize_t>(w.size());
  py::array_t<long long> index(n), dims({n, py::ssize_t{2}});
  py::array_t<double> theta(n), wavelength(n);
  py::array_t<bool> fullTurn(n);
  py::list axis;
  for (py::ssize_t i = 0; i < n; ++i) {
    const PairWavelength& p = w[std::size_t(i)];
    index.mutable_at(i) = p.index;
    axis.append(axisName(p.axis));
    theta.mutable_at(i) = p.theta;
    wavelength.mutable_at(i) = p.wavelength ? *p.wavelength : std::nan("");
    fullTurn.mutable_at(i) = p.fullTurn;
    dims.mutable_at(i, 0) = p.dims.first;
    dims.mutable_at(i, 1) = p.dims.second;
  }
  py::dict d;
  d["context_length"] = r.contextLength;
  d["full_turn_pairs"] = fullTurnPairs(w);
  d["pair_layout"] = pairLayoutName(pairs.layout);
  d["index"] = index;
  d["axis"] = axis;
  d["theta"] = theta;
  d["wavelength"] = wavelength;
  d["full_turn"] = fullTurn;
  d["dims"] = dims;
  // The scaling as `ropescope freqs` reports it: per pair the theta before scaling, what the
  // scaling did and transformers' float32 inv_freq; the attention factor and its square.
  const py::dict rope = ropeOf(pairs);
  d["rope"] = rope["type"];
  d["attention_factor"] = rope["attention_factor"];
  d["logit_scale"] = rope["logit_scale"];
  if (!pairs.ropeType.empty() && pairs.thetaUnscaled.size() == w.size() &&
      pairs.scaling.size() == w.size() && pairs.invFreq32.size() == w.size()) {
    py::array_t<double> unscaled(n);
    py::array_t<float> f32(n);
    py::list scaling;
    for (py::ssize_t i = 0; i < n; ++i) {
      unscaled.mutable_at(i) = pairs.thetaUnscaled[std::size_t(i)];
      f32.mutable_at(i) = pairs.invFreq32[std::size_t(i)];
      scaling.append(pairScalingName(pairs.scaling[std::size_t(i)]));
    }
    d["theta_unscaled"] = unscaled;
    d["scaling"] = scaling;
    d["inv_freq_f32"] = f32;
    d["per_axis"] = rope["per_axis"];
    if (rope.contains("switch_length")) {
      d["switch_length"] = rope["switch_length"];
      d["switched"] = rope["switched"];
    }
  }
  return d;
}

py::list grid(const Inputs& in, const std::vector<std::string>& files) {
  Inputs withFiles = in;
  withFiles.args.push_back("--");
  withFiles.args.insert(withFiles.args.end(), files.begin(), files.end());
  std::vector<std::string> positional;
  const cli::Request r = python::buildRequest(cli::kGrid, withFiles, {}, &positional);
  if (positional.empty()) throw InputError("grid needs at least one picture file");
  py::list out;
  for (const std::string& f : positional) {
    // A shipped sample's name reads the sample where no such file is there, as the CLI's grid
    // and a layout's img:castle.png do.
    const ImageInfo info = probeImage(fileOrSample(f));
    ImageGrid g;
    try {
      g = smartResize(info.height, info.width, r.scene.imageGrid);
    } catch (const InputError& e) {
      throw InputError(f + ": " + e.what(), "image");
    }
    py::dict d;
    d["file"] = f;
    d["width"] = info.width;
    d["height"] = info.height;
    d["resized"] = py::make_tuple(g.resizedHeight, g.resizedWidth);
    d["grid"] = py::make_tuple(g.rows, g.cols);
    d["tokens"] = g.tokens();
    if (info.frames > 1) {  // as the CLI's grid report (grid_report.h)
      d["frames"] = info.frames;
      d["temporal_patches"] = temporalPatches(info.frames);
      d["video_tokens"] = static_cast<long long>(temporalPatches(info.frames)) * g.tokens();
    }
    if (!info.warning.empty()) d["warning"] = info.warning;
    out.append(d);
  }
  return out;
}

std::string sceneJson(const Inputs& in) {
  py::gil_scoped_release free;
  return sceneToJson(python::buildRequest(cli::kIds, in).scene);
}

// The CLI's ranges for attention's own options (app/cmd_attention.cpp), and a bound on the
// array handed back: the CLI streams rows to a file, the module must hold them all.
inline constexpr long long kMaxModuleAttentionValues = 1LL << 30;  // 4 GiB of float32

void checkResultSize(double values) {
  if (values > double(kMaxModuleAttentionValues))
    throw InputError("the attention result would hold " + std::to_string((long long)values) +
                         " values; the module returns at most 2^30 (4 GiB): ask for rows=(a, b) "
                         "or pool=B, or write rows to a file with the CLI's attention --out",
                     "rows");
}

void checkWhole(const char* name, long long v, long long lo, long long hi) {
  if (v < lo || v > hi)
    throw InputError(std::string(name) + " must be " + std::to_string(lo) + ".." +
                         std::to_string(hi) + " (got " + std::to_string(v) + ")",
                     name);
}

// q or k as the core reads them: a float32 C-order array (the package passes them so) is
// borrowed, not copied; any other is converted once into `holder`, which keeps it alive until
// the call returns.
using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;
FloatBuffer borrowFloats(const py::array& array, FloatArray& holder) {
  holder = FloatArray::ensure(array);
  if (!holder) throw InputError("q and k must be arrays of numbers", "q");
  FloatBuffer b;
  for (py::ssize_t i = 0; i < holder.ndim(); ++i) b.shape.push_back(std::size_t(holder.shape(i)));
  b.data = holder.data();
  b.size = std::size_t(holder.size());
  return b;
}

// Optional q and k: both or neither, each borrowed as borrowFloats does (the holders keep
// converted copies alive for the call).
struct BorrowedQk {
  FloatArray qHolder, kHolder;
  FloatBuffer q, k;
};
BorrowedQk borrowQk(const std::optional<py::array>& q, const std::optional<py::array>& k) {
  if (q.has_value() != k.has_value()) throw InputError("give both q and k, or neither", "q");
  BorrowedQk b;
  if (q) {
    b.q = borrowFloats(*q, b.qHolder);
    b.k = borrowFloats(*k, b.kHolder);
  }
  return b;
}

// The values and the scene's rope scaling (ropeOf): its attention factor is in the logits.
py::tuple attention(const Inputs& in, const std::optional<py::array>& q,
                    const std::optional<py::array>& k, const std::string& qk, long long heads,
                    std::uint64_t seed, bool causal, bool softmax,
                    std::optional<std::pair<long long, long long>> rows, long long pool,
                    long long threads) {
  checkWhole("heads", heads, kMinQkHeads, kMaxQkHeads);
  checkWhole("pool", pool, 0, 1 << 20);
  checkWhole("threads", threads, 0, kMaxThreads);
  const BorrowedQk arrays = borrowQk(q, k);
  std::vector<float> out;
  std::vector<py::ssize_t> shape;
  PairTable table;
  std::vector<std::string> warnings;
  {
    py::gil_scoped_release free;
    const cli::Request r = python::buildRequest(cli::kAttention, in);
    // model=: the settings the preview does not model warn; layer= applies its mask and rotary.
    const cli::AttentionLayer layer = cli::attentionLayerOf(r);
    if (layer.stack) warnings = layer.stack->unmodelled;
    validateScene(r.scene);
    PositionIds ids = effectiveIds(r.scene);
    PairTable pairs = resolvePairs(r.scene.frequency);
    table = pairs;
    const std::size_t n = ids.size();
    const int d = r.scene.frequency.rotary.headDim;
    QkTensors t;
    if (q)
      t = qkFromViews(arrays.q, arrays.k, n, d, "q", "k");
    else if (qk == "identical")
      t = identicalQk(heads, n, d);
    else if (qk == "random")
      t = randomQk(heads, heads, n, d, seed);
    else
      throw InputError("qk must be identical or random (got \"" + qk + "\"); real q/k: q=, k=",
                       "qk");
    AttentionProblem problem =
        makeAttentionProblem(std::move(t), std::move(ids.ids), std::move(pairs), causal);
    if (layer.layer >= 0) {
      applyStackLayer(problem, *layer.stack, layer.layer, ids.tokens);
      table = problem.pairs;
    }
    const int h = problem.qk.qHeads;
    const auto backend = makeCpuAttentionBackend(static_cast<int>(threads));
    backend->load(problem);
    const AttentionValue value = softmax ? AttentionValue::Softmax : AttentionValue::Logits;
    if (pool > 0) {
      if (rows) throw InputError("give either rows or pool, not both", "pool");
      const std::size_t nb = (n + std::size_t(pool) - 1) / std::size_t(pool);
      checkResultSize(double(h) * double(nb) * double(nb));
      out.resize(std::size_t(h) * nb * nb);
      for (int i = 0; i < h; ++i) {
        backend->pooled(i, static_cast<int>(pool), value, out.data() + i * nb * nb);
        if (attentionOverflowed(out.data() + i * nb * nb, nb * nb))
          throw InputError(logitOverflowMessage("head " + std::to_string(i)), "q");
      }
      shape = {h, py::ssize_t(nb), py::ssize_t(nb)};
    } else {
      const long long b = rows ? rows->first : 0, e = rows ? rows->second : (long long)n;
      if (b < 0 || e < 0 || b >= e || std::size_t(e) > n)
        throw InputError("rows " + std::to_string(b) + ":" + std::to_string(e) +
                             " is outside 0:" + std::to_string(n) + " (A < B <= tokens)",
                         "rows");
      const std::size_t per = std::size_t(e - b) * n;
      checkResultSize(double(h) * double(per));
      out.resize(std::size_t(h) * per);
      for (int i = 0; i < h; ++i) {
        backend->rows(i, std::size_t(b), std::size_t(e), value, out.data() + i * per);
        if (attentionOverflowed(out.data() + i * per, per))
          throw InputError(logitOverflowMessage("head " + std::to_string(i)), "q");
      }
      shape = {h, py::ssize_t(e - b), py::ssize_t(n)};
    }
  }
  warnTokenReading(warnings);
  return py::make_tuple(python::ownedArray(std::move(out), std::move(shape)), ropeOf(table));
}

struct CheckResult {
  bool identical = false;
  std::string report;
  std::vector<std::size_t> differing;
};

CheckResult checkIds(const py::array& positionIds, const Inputs& in, const std::string& rules) {
  const NpyNumbers dump = arrayOf<NpyNumbers>(positionIds);
  CheckResult out;
  std::vector<std::string> warnings;
  {
    py::gil_scoped_release free;
    if (in.model.empty() || !in.hasTokens())
      throw InputError("check_ids needs model=DIR|NAME and tokens= (the processor output)",
                       "tokens");
    const cli::Request r = python::buildRequest(cli::kCheckIds, in);
    warnings = r.tokenWarnings;
    std::vector<RuleSet> checked;
    if (rules == "all")
      checked = everyReleaseClass(familyOfDesign(r.scene.design)->name());
    else
      checked = {rules.empty() ? RuleSet::Hf457 : parseRuleSet(rules)};
    // A dump of the padded row: its padding's positions are compared too (1 or 0 by release).
    const std::vector<Id3> all = dumpedPositionIds(dump, "position_ids");
    IdsDump d;
    d.ids = withoutPadding(all, r.tokenKept);
    d.padding = paddingOf(all, r.tokenKept);
    d.paddedLength = r.tokenKept.size();
    const IdsCheck c = checkPositionIds(r.scene, d, checked, r.tokenIds, "position_ids");
    out = {c.identical, c.report, c.differing};
  }
  warnTokenReading(warnings);
  return out;
}

py::list designs() {
  py::list out;
  for (const PositionDesign* d : allDesigns()) {
    py::list params;
    for (const ParameterSpec& p : d->parameters()) {
      py::dict s;
      s["key"] = p.key;
      s["label"] = p.label;
      s["help"] = p.help;
      s["range"] = p.rangeText();
      s["default"] = p.kind == ParameterSpec::Kind::Choice
                         ? py::object(py::str(p.choices.at(std::size_t(p.defaultValue))))
                         : py::object(py::float_(p.defaultValue));
      params.append(s);
    }
    py::dict e;
    e["name"] = d->name();
    e["title"] = d->title();
    e["summary"] = d->summary();
    e["parameters"] = params;
    out.append(e);
  }
  return out;
}

// The command-line options each command takes, by name: how the package tells an option
// (head_dim -> --head-dim) from a design parameter (fps -> --param fps=...).
// `ropescope rotary`'s tables as numpy arrays (no files): the same arrays and shapes as the
// command's .npy files, keyed by file name without ".npy", plus what summary.json says.
py::dict rotary(const Inputs& in, const std::optional<py::array>& q,
                const std::optional<py::array>& k) {
  NpyArray qa, ka;
  if (q) qa = arrayOf<NpyArray>(*q);
  if (k) ka = arrayOf<NpyArray>(*k);
  RotaryTables t;
  std::vector<float> qe, ke;
  std::size_t qHeads = 0, kHeads = 0;
  std::string rules, release;
  {
    py::gil_scoped_release free;
    const cli::Request r = python::buildRequest(cli::kRotary, in);
    t = sceneRotaryTables(r.scene);
    if (q) {
      qHeads = rotaryInputHeads(qa.shape, t, "q", "q");
      qe = applyRotaryTables(t, qa.data.data(), qHeads);
    }
    if (k) {
      kHeads = rotaryInputHeads(ka.shape, t, "k", "k");
      ke = applyRotaryTables(t, ka.data.data(), kHeads);
    }
    if (familyOfDesign(r.scene.design)) {
      const auto specs = findDesign(r.scene.design).parameters();
      const auto index = std::size_t(r.scene.designParams.get("rules", specs));
      rules = ruleSetNames().at(index);
      release = ruleSetRelease(index);
    }
  }
  const auto shapeOf = [](const std::vector<std::size_t>& s) {
    return std::vector<py::ssize_t>(s.begin(), s.end());
  };
  const auto n = py::ssize_t(t.tokens), d = py::ssize_t(t.headDim), p = py::ssize_t(t.pairs);
  const std::vector<py::ssize_t> idShape =
      t.format.idAxes == 1 ? std::vector<py::ssize_t>{1, n}
                           : std::vector<py::ssize_t>{py::ssize_t(t.format.idAxes), 1, n};
  py::dict out;
  if (t.integerIds)
    out["position_ids"] = python::ownedArray(
        std::vector<std::int64_t>(t.positionIds.begin(), t.positionIds.end()), idShape);
  else
    out["position_ids"] =
        python::ownedArray(std::vector<float>(t.positionIds.begin(), t.positionIds.end()), idShape);
  out["inv_freq"] = python::ownedArray(std::move(t.invFreq32), {p});
  out["inv_freq_f64"] = python::ownedArray(std::move(t.invFreq64), {p});
  out["cos"] = python::ownedArray(std::move(t.cos), shapeOf(t.cosShape));
  out["sin"] = python::ownedArray(std::move(t.sin), shapeOf(t.cosShape));
  out["cos_f64"] = python::ownedArray(std::move(t.cos64), shapeOf(t.cosShape));
  out["sin_f64"] = python::ownedArray(std::move(t.sin64), shapeOf(t.cosShape));
  out["rot_cos"] = python::ownedArray(std::move(t.rotCos), {n, d});
  out["rot_sin"] = python::ownedArray(std::move(t.rotSin), {n, d});
  out["rot_partner"] = python::ownedArray(std::move(t.rotPartner), {d});
  if (q) out["q_embed"] = python::ownedArray(std::move(qe), shapeOf(qa.shape));
  if (k) out["k_embed"] = python::ownedArray(std::move(ke), shapeOf(ka.shape));
  out["family"] = t.format.family.empty() ? py::object(py::none()) : py::str(t.format.family);
  out["rules"] = rules.empty() ? py::object(py::none()) : py::str(rules);
  out["transformers_release"] = release.empty() ? py::object(py::none()) : py::str(release);
  out["layout_from"] = t.format.from;
  out["rope_type"] = t.ropeType;
  out["attention_factor"] = t.attentionFactor;
  out["head_dim"] = t.headDim;
  out["rotary_dim"] = 2 * t.pairs;
  out["pair_layout"] = pairLayoutName(t.pairLayout);
  out["cos_layout"] = cosLayoutName(t.format.cos);
  py::list axes;
  for (Axis a : t.axis) axes.append(axisName(a));
  out["pair_axes"] = axes;
  return out;
}

// `ropescope budget --format json` as text (the package reads it into an IdBudget): one
// schema for the command line and Python. points / trained_length -1: not given.
std::string budget(const Inputs& in, long long points, long long trainedLength) {
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kBudget, in);
  const long long p = points < 0 ? static_cast<long long>(kDefaultBudgetPoints)
                                 : cli::ownWhole(cli::kBudget, "points", std::to_string(points));
  const long long trained = trainedLength < 0 ? 0
                                              : cli::ownWhole(cli::kBudget, "trained-length",
                                                              std::to_string(trainedLength));
  return idBudgetReport(sceneIdBudget(r.scene, r.modelMaxPositions, trained, std::size_t(p)),
                        BudgetFormat::Json);
}

// `ropescope principles --format json` as text (the package reads it into a Principles):
// `designs` scene | all | revisiting, as --designs.
std::string principles(const Inputs& in, const std::string& designs) {
  py::gil_scoped_release free;
  const PrinciplesRows rows = parsePrinciplesRows(designs);
  const cli::Request r = python::buildRequest(cli::kPrinciples, in);
  return principlesReport(principlesRows(r.scene, rows), PrinciplesFormat::Json);
}

// `ropescope pixels --format json` as text (the package reads it into a dict): one schema for
// the command line and Python. temporal_patch_size -1: not given.
std::string pixelMapJson(const Inputs& in, long long temporalPatchSize) {
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kPixels, in);
  PixelMapSettings settings;
  settings.grid = r.scene.imageGrid;
  if (temporalPatchSize >= 0)
    settings.temporalPatch = static_cast<int>(
        cli::ownWhole(cli::kPixels, "temporal-patch-size", std::to_string(temporalPatchSize)));
  return pixelMapReport(pixelMap(r.scene.layout, settings), TableFormat::Json);
}

// `ropescope qk-usage --format json` as text (the package reads it into a QkUsage): q and k
// are numpy arrays, borrowed as attention borrows them; threads= arrives as --threads.
std::string qkUsageJson(const Inputs& in, const py::array& q, const py::array& k) {
  FloatArray qa, ka;
  const FloatBuffer qb = borrowFloats(q, qa), kb = borrowFloats(k, ka);
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kQkUsage, in);
  const auto views = [&qb, &kb](std::size_t tokens, int headDim) {
    return qkFromViews(qb, kb, tokens, headDim, "q", "k");
  };
  return qkUsageReport(r.scene, sceneQkUsage(r.scene, views, r.threads), QkUsageFormat::Json);
}

// `ropescope attention --readouts --format json` as text (the package reads it into an
// AttentionReadouts): q and k numpy arrays (borrowed) or, without them, qk identical | random.
std::string attentionReadoutsJson(const Inputs& in, const std::optional<py::array>& q,
                                  const std::optional<py::array>& k, const std::string& qk,
                                  long long heads, std::uint64_t seed) {
  checkWhole("heads", heads, kMinQkHeads, kMaxQkHeads);
  const BorrowedQk arrays = borrowQk(q, k);
  py::gil_scoped_release free;
  const cli::Request r = python::buildRequest(cli::kAttention, in);
  QkSourceSpec source;
  source.heads = static_cast<int>(heads);
  source.seed = seed;
  if (q) {
    source.kind = QkSourceSpec::Kind::Files;
    source.qPath = "q";
    source.kPath = "k";
  } else if (qk == "random") {
    source.kind = QkSourceSpec::Kind::Random;
  } else if (qk != "identical") {
    throw InputError("qk must be identical or random (got \"" + qk + "\"); real q/k: q=, k=", "qk");
  }
  validateScene(r.scene);
  PositionIds ids = effectiveIds(r.scene);
  AttentionReadouts out;
  if (q) {
    QkTensors t =
        qkFromViews(arrays.q, arrays.k, ids.size(), r.scene.frequency.rotary.headDim, "q", "k");
    const AttentionProblem problem =
        makeAttentionProblem(std::move(t), ids.ids, resolvePairs(r.scene.frequency), true);
    out = attentionReadouts(problem, ids, r.threads);
  } else {
    out = sceneAttentionReadouts(r.scene, source, r.threads);
  }
  return attentionReadoutsReport(r.scene, source, out, ReadoutsFormat::Json);
}

py::dict optionNames() {
  py::dict out;
  for (cli::Command c : cli::kAllCommands) {
    py::dict opts;
    for (const cli::OptionInfo& o : cli::optionTable())
      if (o.commands & c) opts[py::str(o.name)] = py::bool_(o.arg != nullptr);
    out[cli::commandName(c)] = opts;
  }
  return out;
}

// The option table's rows for each command (name, argument or None, help or None): the
// package's docstrings list them with the ranges the command line's --help gives.
py::dict optionHelp() {
  py::dict out;
  for (cli::Command c : cli::kAllCommands) {
    py::list rows;
    for (const cli::OptionInfo& o : cli::optionTable())
      if (o.commands & c)
        rows.append(py::make_tuple(o.name, o.arg ? py::object(py::str(o.arg)) : py::none(),
                                   o.help ? py::object(py::str(o.help)) : py::none()));
    out[cli::commandName(c)] = rows;
  }
  return out;
}

// Each token's modality (0 text, 1 image, 2 video, 3 audio) and grid cell (frame, row, col; -1
// where there is none), int32 [N, 4], in the order of ids().
py::array_t<int> tokenInfo(const Inputs& in) {
  std::vector<int> out;
  {
    py::gil_scoped_release free;
    const PositionIds ids = effectiveIds(python::buildRequest(cli::kIds, in).scene);
    out.reserve(ids.tokens.size() * 4);
    for (const TokenInfo& t : ids.tokens)
      out.insert(out.end(), {static_cast<int>(t.modality), t.frame, t.row, t.col});
  }
  const auto n = static_cast<py::ssize_t>(out.size() / 4);
  return python::ownedArray(std::move(out), {n, py::ssize_t{4}});
}

// PTD and bias spread of the layout under every design, as the desktop app's bar figures show
// them: NaN with the reason where a value is undefined.
py::list compare(const Inputs& in) {
  std::vector<DesignSummary> rows;
  std::string current;
  {
    py::gil_scoped_release free;
    const cli::Request r = python::buildRequest(cli::kPtd, in);
    current = r.scene.design;
    rows = compareDesigns(r.scene, r.threads);
  }
  py::list out;
  for (const DesignSummary& d : rows) {
    py::dict e;
    e["design"] = d.design;
    e["title"] = d.title;
    e["current"] = d.design == current;
    e["ptd"] = d.ptd;
    e["bias_spread"] = d.biasSpread;
    e["ptd_undefined"] = d.ptdUndefined;
    e["bias_undefined"] = d.biasUndefined;
    e["n_text"] = d.nText;
    e["n_visual"] = d.nVisual;
    out.append(e);
  }
  return out;
}

// The bias b and the distance d from text token `text` (index among the text tokens) to every
// visual token: the profile the desktop app draws for its selected text token.
py::dict profile(const Inputs& in, long long text) {
  SceneMetrics m;
  std::size_t nText = 0;
  {
    py::gil_scoped_release free;
    cli::Request r = python::buildRequest(cli::kBias, in);
    if (text < 0 || text > std::numeric_limits<int>::max())
      throw InputError("text must be a text token's index >= 0 (got " + std::to_string(text) + ")",
                       "text");
    r.scene.selectedText = static_cast<int>(text);
    m = computeSceneMetrics(r.scene, kMinDecayDistance, r.threads, BiasSpreadWhen::Later);
    nText = m.ids.textIndices().size();
    if (nText == 0) throw InputError("the layout has no text token to profile", "text");
    checkWhole("text", text, 0, static_cast<long long>(nText) - 1);
  }
  std::vector<std::size_t> visual = m.ids.visualIndices();
  std::vector<long long> visualTokens(visual.begin(), visual.end());
  const auto n = static_cast<py::ssize_t>(m.selectedDistance.size());
  py::dict d;
  d["text"] = text;
  d["token"] = m.selectedToken;
  d["n_text"] = nText;
  d["visual"] =
      python::ownedArray(std::move(visualTokens), {static_cast<py::ssize_t>(visual.size())});
  d["distance"] = python::ownedArray(std::move(m.selectedDistance), {n});
  d["bias"] = python::ownedArray(std::move(m.selectedBias), {n});
  return d;
}

// Shipped resources (samples/, models/) from a folder: the build tree's resources/ or the
// installed share/ropescope/. Only for a build without ropescope_models (the package checks
// has_shipped_files).
void setResourceFolder(const std::string& dir) {
  namespace fs = std::filesystem;
  setSampleLocator(sampleFolderLocator((fs::path(dir) / "samples").string()));
  setModelLocator(modelFolderLocator((fs::path(dir) / "models").string()));
}

}  // namespace

PYBIND11_MODULE(_ropescope, m) {
  m.doc() = "ropescope core (C++): position ids, PTD, bias spread, decay, attention";
  m.attr("__version__") = ROPESCOPE_VERSION;
#ifdef ROPESCOPE_SHIPPED_FILES
  installShippedModels();
  installShippedSamples();
  m.attr("has_shipped_files") = true;
#else
  m.attr("has_shipped_files") = false;
#endif
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  py::class_<Inputs>(m, "Inputs")
      .def(py::init(&inputsOf), py::arg("args"), py::arg("scene") = py::none(),
           py::arg("tokens") = py::none(), py::arg("model") = "", py::arg("tokens_path") = "");
  py::class_<CheckResult>(m, "IdsCheck",
                          "The verdict of check_ids: true when the dump equals get_rope_index "
                          "under a rule set checked; str() is what `ropescope check-ids` prints.")
      .def_readonly("identical", &CheckResult::identical)
      .def_readonly("report", &CheckResult::report)
      .def_readonly("differing", &CheckResult::differing,
                    "tokens that differ under the first rule set checked")
      .def("__bool__", [](const CheckResult& c) { return c.identical; })
      .def("__str__", [](const CheckResult& c) { return c.report; })
      .def("__repr__", [](const CheckResult& c) {
        return std::string("<IdsCheck ") + (c.identical ? "identical" : "different") + ">";
      });
  m.def("ids", &ids);
  m.def("ptd", &ptd);
  m.def("bias_spread", &biasSpreadOf);
  m.def("decay", &decay);
  m.def("freqs", &freqs);
  m.def("grid", &grid);
  m.def("scene_json", &sceneJson);
  m.def("scene_from_json", [](const std::string& text) {
    py::gil_scoped_release free;
    return sceneToJson(sceneFromJson(text));
  });
  m.def("load_scene", [](const std::string& path) {
    py::gil_scoped_release free;
    return sceneToJson(loadSceneFile(path));
  });
  m.def("save_scene", [](const std::string& text, const std::string& path) {
    py::gil_scoped_release free;
    saveSceneFile(sceneFromJson(text), path);
  });
  m.def("attention", &attention);
  m.def("rotary", &rotary);
  m.def("budget", &budget);
  m.def("principles", &principles);
  m.attr("revisiting_layout") = kRevisitingLayout;
  m.def("pixel_map", &pixelMapJson);
  m.def("qk_usage", &qkUsageJson);
  m.def("attention_readouts", &attentionReadoutsJson);
  m.def("token_count", [](const Inputs& in) {
    py::gil_scoped_release free;
    return python::buildRequest(cli::kAttention, in).scene.layout.tokenCount();
  });
  m.def("check_ids", &checkIds);
  m.def("designs", &designs);
  m.def("models", &shippedModelNames);
  m.def("layers", [](const std::string& model) {
    LayerStack stack;
    {
      py::gil_scoped_release free;
      stack = readLayerStack(model);
    }
    warnTokenReading(stack.unmodelled);  // the settings the preview does not model
    return layerStackReport(stack, LayerStackFormat::Json);
  });
  m.def("option_names", &optionNames);
  m.def("option_help", &optionHelp);
  m.def("token_info", &tokenInfo);
  m.def("compare", &compare);
  m.def("profile", &profile);
  m.def("set_resource_folder", &setResourceFolder);
}
