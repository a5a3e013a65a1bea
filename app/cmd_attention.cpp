// `ropescope attention`: RoPE attention logits / softmax for a scene, on the CPU or the GPU.
// Writes the requested rows (or pooled blocks) as .npy and prints a JSON summary.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>

#include <sys/stat.h>
#include <unistd.h>

#include "chunk_pipeline.h"
#include "cli_commands.h"
#include "cli_options.h"
#include "command_table.h"
#include "own_options.h"
#include "program.h"
#include "ropescope/attention.h"
#include "ropescope/attention_readouts.h"
#include "ropescope/attention_readouts_report.h"
#include "ropescope/attention_report.h"
#include "ropescope/errors.h"
#include "ropescope/gpu_probe.h"
#include "ropescope/large_buffer.h"
#include "ropescope/layer_attention.h"
#include "ropescope/npy.h"
#include "ropescope/report.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::cli {

namespace {

// Output of one run is held in memory before it is written: 2^28 float32 values (1 GiB).
constexpr std::size_t kMaxOutputValues = std::size_t{1} << 28;

struct AttentionOptions {
  QkSourceSpec source;
  bool haveQk = false, haveSeed = false, haveHeads = false;
  bool causal = false, softmax = false;
  bool haveRows = false;
  long rowBegin = 0, rowEnd = 0;
  int pool = 0;
  BackendChoice backend = BackendChoice::Auto;
  bool haveBackend = false;
  bool readouts = false;
  std::string format;  // as given; "" without --format
};

// After the options (cli_parser.h optionsHelp): what --out and the summary hold.
const char* kHelpNotes =
    "\n--out FILE.npy receives float32 [heads, rows, N] (C order); the JSON summary goes to\n"
    "standard output: tokens, heads, backend used, and per-row max logit, peak probability\n"
    "and entropy (nats) as min/mean/max over the summarised rows of every head. With --out\n"
    "/dev/stdout (the rows piped on) the summary goes to standard error.\n"
    "\n--readouts prints the positional read-outs instead (always the causal softmax, on the\n"
    "CPU): per text token after the last picture the share of its attention on the visual\n"
    "tokens (visual fading), and per picture, over the text after it and the heads, the shares\n"
    "on its top-left token, top row, left column and border, its centre of mass and its row\n"
    "trend. docs/user/attention.md#positional-read-outs defines each number.\n";

// Where the summary goes: standard error when --out is the standard output's own pipe, FIFO,
// socket or file (/dev/stdout, /dev/fd/N onto it), which then holds the .npy alone; the summary
// after the rows made it an .npy with 1 KB of JSON behind it.
std::ostream& summaryStream(const std::string& out) {
  struct stat o {
  }, s{};
  if (out.empty() || ::stat(out.c_str(), &o) != 0 || ::fstat(STDOUT_FILENO, &s) != 0)
    return std::cout;
  const bool same = o.st_dev == s.st_dev && o.st_ino == s.st_ino && !S_ISCHR(s.st_mode);
  return same ? std::cerr : std::cout;
}

// One of the command's own options into `o`; false for a name that is not one of them.
bool readAttentionOption(AttentionOptions& o, const std::string& name,
                         const std::function<std::string()>& value) {
  if (name == "qk") {
    const std::string v = value();
    if (v == "identical")
      o.source.kind = QkSourceSpec::Kind::Identical;
    else if (v == "random")
      o.source.kind = QkSourceSpec::Kind::Random;
    else
      throw InputError("--qk must be identical or random (got \"" + v + "\"); real q/k: --q/--k",
                       "qk");
    o.haveQk = true;
  } else if (name == "seed") {
    // Any 64-bit seed: beyond what the table's double bounds hold exactly.
    o.source.seed = parseWholeOption<unsigned long long>("seed", value(), 0,
                                                         std::numeric_limits<std::uint64_t>::max());
    o.haveSeed = true;
  } else if (name == "q") {
    o.source.qPath = value();
    if (o.source.qPath.empty()) throw InputError("--q needs a file name", "q");
  } else if (name == "k") {
    o.source.kPath = value();
    if (o.source.kPath.empty()) throw InputError("--k needs a file name", "k");
  } else if (name == "heads") {
    o.source.heads = static_cast<int>(ownWhole(kAttention, "heads", value()));
    o.haveHeads = true;
  } else if (name == "causal") {
    o.causal = true;
  } else if (name == "softmax") {
    o.softmax = true;
  } else if (name == "rows") {
    const std::string v = value();
    const auto colon = v.find(':');
    if (colon == std::string::npos)
      throw InputError("--rows expects A:B, query rows A..B-1 (got \"" + v + "\")", "rows");
    o.rowBegin = ownWhole(kAttention, "rows", v.substr(0, colon));
    o.rowEnd = ownWhole(kAttention, "rows", v.substr(colon + 1));
    o.haveRows = true;
  } else if (name == "pool") {
    o.pool = static_cast<int>(ownWhole(kAttention, "pool", value()));
  } else if (name == "backend") {
    o.backend = parseBackendChoice(value());
    o.haveBackend = true;
  } else if (name == "readouts") {
    o.readouts = true;
  } else if (name == "format") {
    o.format = value();
  } else {
    return false;
  }
  return true;
}

// The rules between the options, once all are read. Returns whether q and k come from files.
bool checkAttentionOptions(AttentionOptions& o) {
  const bool files = !o.source.qPath.empty() || !o.source.kPath.empty();
  if (files) {
    if (o.source.qPath.empty() || o.source.kPath.empty())
      throw InputError("give both --q FILE.npy and --k FILE.npy",
                       o.source.qPath.empty() ? "q" : "k");
    if (o.haveQk) throw InputError("give either --q/--k files or --qk, not both", "qk");
    o.source.kind = QkSourceSpec::Kind::Files;
  }
  if (o.haveSeed && o.source.kind != QkSourceSpec::Kind::Random)
    throw InputError("--seed applies to --qk random only", "seed");
  if (o.haveRows && o.pool > 0) throw InputError("give either --rows or --pool, not both", "pool");
  if (!o.readouts && !o.format.empty() && o.format != "json")
    throw InputError("attention prints its summary as JSON only (--format json; got \"" + o.format +
                         "\"); the rows go to --out FILE.npy",
                     "format");
  return files;
}

// The shape of a run: N tokens, query rows [b, e), heads, pooled blocks nb a side (0 for
// rows), and the values of one head in the output.
struct RunShape {
  std::size_t n = 0, b = 0, e = 0, nb = 0, perHead = 0;
  int heads = 0;
};

// The run's rows and output checked against the problem: what --heads, --rows and --out ask for.
RunShape checkRunShape(const AttentionOptions& o, const Request& req,
                       const AttentionProblem& problem, bool files) {
  RunShape sh;
  sh.n = problem.qk.tokens;
  sh.heads = problem.qk.qHeads;
  if (files && o.haveHeads && o.source.heads != sh.heads)
    throw InputError("--heads " + std::to_string(o.source.heads) + " but q file \"" +
                         o.source.qPath + "\" has " + countOf(sh.heads, "head"),
                     "heads");
  sh.b = o.haveRows ? std::size_t(o.rowBegin) : 0;
  sh.e = o.haveRows ? std::size_t(o.rowEnd) : sh.n;
  if (sh.b >= sh.e || sh.e > sh.n)
    throw InputError("--rows " + std::to_string(o.rowBegin) + ":" + std::to_string(o.rowEnd) +
                         " is outside 0:" + std::to_string(sh.n) + " (A < B <= tokens)",
                     "rows");
  sh.nb = o.pool > 0 ? (sh.n + std::size_t(o.pool) - 1) / std::size_t(o.pool) : 0;
  sh.perHead = o.pool > 0 ? sh.nb * sh.nb : (sh.e - sh.b) * sh.n;
  if (!req.out.empty() && double(sh.perHead) * sh.heads > double(kMaxOutputValues))
    throw InputError("--out would hold " + std::to_string(sh.perHead * std::size_t(sh.heads)) +
                         " values (limit " + std::to_string(kMaxOutputValues) +
                         "); narrow --rows or use a larger --pool",
                     "rows");
  return sh;
}

// Per query row of every head: its max logit, peak probability and entropy.
struct RowSummaries {
  std::vector<float> maxLogit, peak, entropy;
  // The statistics of rows first.. of `head`. Every row has a key it may see (itself at least),
  // so its largest logit is finite unless q . k / sqrt(d) left float32's range: such a run's
  // numbers are not attention, and it stops with a message instead of a summary of nulls (the
  // --out file is not written).
  void add(const RowStats& st, int head, std::size_t first) {
    for (std::size_t i = 0; i < st.max.size(); ++i)
      if (!std::isfinite(st.max[i]))
        throw InputError(logitOverflowMessage("head " + std::to_string(head) + ", row " +
                                              std::to_string(first + i)),
                         "q");
    maxLogit.insert(maxLogit.end(), st.max.begin(), st.max.end());
    for (float s : st.sumExp) peak.push_back(1.0f / s);
    entropy.insert(entropy.end(), st.entropy.begin(), st.entropy.end());
  }
};

// Computes the run on `be` and writes --out. Rows go to the file a chunk at a time (NpyWriter),
// so memory stays O(chunk x N) however many rows are asked for, and chunk k + 1 is computed while
// chunk k is written (two chunk buffers); pooled blocks are small and written at the end.
RowSummaries computeAndWrite(AttentionBackend& be, const AttentionProblem& problem,
                             const AttentionOptions& o, const Request& req, const RunShape& sh) {
  const AttentionValue value = o.softmax ? AttentionValue::Softmax : AttentionValue::Logits;
  const std::size_t n = sh.n, b = sh.b, e = sh.e;
  RowSummaries rows;
  const bool streamRows = !req.out.empty() && o.pool == 0;
  std::unique_ptr<NpyWriter> writer;
  if (streamRows)
    writer = std::make_unique<NpyWriter>(req.out,
                                         std::vector<std::size_t>{std::size_t(sh.heads), e - b, n});
  const LargeBuffer<float> pooledOut(
      !req.out.empty() && o.pool > 0 ? sh.perHead * std::size_t(sh.heads) : 0);
  const std::size_t chunkRows = attentionChunkRows(n, e - b, req.threads);
  std::unique_ptr<ChunkPipeline> pipeline;
  if (streamRows)
    pipeline = std::make_unique<ChunkPipeline>(
        chunkRows * n,
        [&writer](const float* data, std::size_t count) { writer->write(data, count); });
  be.load(problem);
  for (int h = 0; h < sh.heads; ++h) {
    if (!streamRows) {
      rows.add(be.rowStats(h, b, e), h, b);
      if (pooledOut) be.pooled(h, o.pool, value, pooledOut.data() + std::size_t(h) * sh.perHead);
      continue;
    }
    // Rows written: their statistics come from the same pass (each logit computed once).
    for (std::size_t r = b; r < e; r += chunkRows) {
      const std::size_t re = std::min(e, r + chunkRows);
      rows.add(be.rowsAndStats(h, r, re, value, pipeline->next()), h, r);
      pipeline->submit((re - r) * n);
    }
  }
  if (pipeline) pipeline->finish();
  if (writer) writer->commit();
  if (pooledOut)
    writeNpy(req.out, pooledOut.data(), pooledOut.size(), {std::size_t(sh.heads), sh.nb, sh.nb});
  return rows;
}

// The summary's record of a run.
AttentionRun describeRun(const AttentionOptions& o, const Request& req, const AttentionBackend& be,
                         const SelectedBackend& sel, const RunShape& sh, const RowSummaries& rows,
                         double seconds) {
  AttentionRun run;
  run.source = o.source;
  run.causal = o.causal;
  run.softmax = o.softmax;
  run.rowBegin = sh.b;
  run.rowEnd = sh.e;
  run.pool = o.pool;
  run.out = req.out;
  if (!req.out.empty())
    run.outShape = {std::size_t(sh.heads), o.pool > 0 ? sh.nb : sh.e - sh.b,
                    o.pool > 0 ? sh.nb : sh.n};
  run.backend = be.name();
  run.backendDetail = be.description();
  run.backendNote = sel.note;
  run.fellBack = sel.failed;
  run.fallbackReason = sel.reason;
  run.rowMaxLogit = summarize(rows.maxLogit);
  run.rowMaxProbability = summarize(rows.peak);
  run.rowEntropy = summarize(rows.entropy);
  run.seconds = seconds;
  return run;
}

// --readouts: the read-outs of the scene's causal softmax, printed instead of the summary. The
// options that shape the rows or the file do not apply to it.
int runReadouts(const AttentionOptions& o, const Request& req) {
  const ReadoutsFormat format =
      o.format.empty() ? ReadoutsFormat::Text : parseReadoutsFormat(o.format);
  if (o.haveRows) throw InputError("--readouts reads every row; give no --rows", "rows");
  if (o.pool > 0) throw InputError("--readouts reads every row; give no --pool", "pool");
  if (!req.out.empty())
    throw InputError(
        "--readouts prints to standard output (--out writes the .npy rows of a run without it)",
        "out");
  if (o.haveBackend && o.backend == BackendChoice::Gpu)
    throw InputError("--readouts runs on the CPU backend; give --backend cpu or auto", "backend");
  if (req.modelLayer >= 0 || !req.modelLayerType.empty())
    throw InputError("--readouts reads the scene's causal attention; give no --layer", "layer");
  const AttentionLayer layer = attentionLayerOf(req);
  printInputWarnings(req, layer.stack ? layer.stack->unmodelled : std::vector<std::string>{});
  const AttentionReadouts r = sceneAttentionReadouts(req.scene, o.source, req.threads);
  std::cout << attentionReadoutsReport(req.scene, o.source, r, format);
  std::cout.flush();
  return 0;
}

}  // namespace

int runAttentionCommand(const std::vector<std::string>& args) {
  AttentionOptions o;
  const auto extra = [&o](const std::string& name, const std::function<std::string()>& value) {
    return readAttentionOption(o, name, value);
  };
  const Request req = parseArguments(kAttention, args, extra);
  if (req.help) {
    std::cout << commandHelp(kAttention) << kHelpNotes;
    return 0;
  }
  const bool files = checkAttentionOptions(o);
  if (o.readouts) return runReadouts(o, req);

  handOffAttention(o.backend, args);
  // --model: the settings the preview does not model, one warning each; --layer: its mask and
  // rotary (layer_attention.h).
  const AttentionLayer layer = attentionLayerOf(req);
  printInputWarnings(req, layer.stack ? layer.stack->unmodelled : std::vector<std::string>{});
  const auto t0 = std::chrono::steady_clock::now();
  AttentionProblem problem = makeAttentionProblem(req.scene, o.source, o.causal);
  if (layer.layer >= 0)
    applyStackLayer(problem, *layer.stack, layer.layer, effectiveIds(req.scene).tokens);
  const RunShape shape = checkRunShape(o, req, problem, files);

  SelectedBackend sel = selectAttentionBackend(o.backend, req.threads);
  if (o.backend == BackendChoice::Gpu && sel.backend->name() != "gpu")
    throw InputError("--backend gpu: no OpenGL 4.3 compute backend: " +
                         (sel.reason.rfind("GPU: ", 0) == 0 ? sel.reason.substr(5) : sel.reason) +
                         " (--backend auto falls back to the CPU)",
                     "backend");
  if (sel.failed) std::cerr << "ropescope: " << sel.note << "\n";
  AttentionBackend& be = *sel.backend;

  RowSummaries rows;
  const auto compute = [&] { rows = computeAndWrite(be, problem, o, req, shape); };
  computeOnBackend(sel, compute);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  AttentionRun run = describeRun(o, req, be, sel, shape, rows, seconds);
  if (layer.layer >= 0) {
    run.causal = true;
    run.layer = layer.layer;
    run.layerMask = layerAttentionSummary(*layer.stack, layer.layer);
  }
  std::ostream& summary = summaryStream(req.out);
  summary << attentionReport(req.scene, problem, run);
  summary.flush();
  return 0;
}

}  // namespace ropescope::cli
