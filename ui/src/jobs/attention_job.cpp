#include "jobs/attention_job.h"

#include <algorithm>
#include <exception>
#include <utility>

#include "ropescope/errors.h"
#include "ropescope/layer_attention.h"
#include "ropescope/scene_metrics.h"
#include "ropescope_gpu/gpu_attention.h"

namespace ropescope::ui {

namespace {

bool sameSource(const QkSourceSpec& a, const QkSourceSpec& b) {
  return a.kind == b.kind && a.heads == b.heads && a.seed == b.seed && a.qPath == b.qPath &&
         a.kPath == b.kPath;
}

// Whether two requests ask for the same heatmap (they may differ in their text token).
bool sameHeatmap(const AttentionRequest& a, const AttentionRequest& b) {
  return a.scene == b.scene && sameSource(a.source, b.source) && a.causal == b.causal &&
         a.layerStack == b.layerStack && a.layer == b.layer && a.value == b.value &&
         a.head == b.head && a.backend == b.backend && a.exactRows == b.exactRows &&
         (a.exactRows ? a.rowBegin == b.rowBegin && a.rowEnd == b.rowEnd : a.block == b.block);
}

QString firstLine(const char* what) {
  return QString::fromUtf8(what).section(QLatin1Char('\n'), 0, 0);
}

}  // namespace

AttentionJob::AttentionJob(int cpuThreads, AttentionListener listener)
    : cpuThreads_(cpuThreads), listener_(std::move(listener)) {}

AttentionJob::~AttentionJob() = default;

void AttentionJob::release() {
  backend_.reset();
  loaded_ = false;
  heatmapKept_ = false;
}

void AttentionJob::setStepHook(
    std::function<void(const AttentionRequest& request, int percent)> hook) {
  const std::lock_guard<std::mutex> lock(hookMutex_);
  stepHook_ = std::move(hook);
}

void AttentionJob::ensureBackend(BackendChoice choice, const LatestWorker::Context& job) {
  if (backend_ && choice == backendChoice_) return;
  backend_.reset();
  loaded_ = false;
  heatmapKept_ = false;
  // Created here, on the worker's thread: the GPU backend's context is current only on the
  // thread that made it, and every later request runs on this same thread.
  gpu::BackendSelection selection = gpu::selectAttentionBackend(choice, cpuThreads_);
  backend_ = std::move(selection.backend);
  backendChoice_ = choice;
  fallbackAnnounced_ = false;
  QString note;
  if (!selection.note.empty()) note = QString::fromStdString(selection.note);
  if (noteGiven_ && !selection.failed) note.clear();  // a GPU failure is said every time
  if (!note.isEmpty()) noteGiven_ = true;
  const QString label =
      QStringLiteral("attention: %1").arg(QString::fromStdString(backend_->description()));
  job.tell([f = listener_.backendChanged, label, note] { f(label, note); });
}

void AttentionJob::compute(const AttentionRequest& request, const LatestWorker::Context& job) {
  const quint64 gen = request.generation;
  const auto progress = [&](int percent, const QString& stage) {
    job.post([f = listener_.progress, gen, percent, stage] { f(gen, percent, stage); });
    std::function<void(const AttentionRequest&, int)> hook;
    {
      const std::lock_guard<std::mutex> lock(hookMutex_);
      hook = stepHook_;
    }
    if (hook) hook(request, percent);
  };
  const auto dropped = [&] { job.tell([f = listener_.dropped, gen] { f(gen); }); };
  if (job.stop) return dropped();
  AttentionResult result;
  result.generation = gen;
  result.request = request;
  try {
    progress(2, QStringLiteral("choosing the backend"));
    ensureBackend(request.backend, job);
    // A newer request (or Cancel, or closing) stops this one at the next tile.
    backend_->setCancelCheck([&stop = job.stop] { return stop.load(); });
    if (job.stop) return dropped();
    if (!loaded_ || !(loadedScene_ == request.scene) ||
        !sameSource(loadedSource_, request.source) || loadedCausal_ != request.causal ||
        loadedStack_ != request.layerStack || loadedLayer_ != request.layer) {
      progress(5, QStringLiteral("preparing q and k"));
      loaded_ = false;
      heatmapKept_ = false;
      checkPreviewQkSize(request.source, request.scene.layout.tokenCount(),
                         request.scene.frequency.rotary.headDim);
      AttentionProblem problem =
          makeAttentionProblem(request.scene, request.source, request.causal);
      if (request.layerStack && request.layer >= 0)
        applyStackLayer(problem, *request.layerStack, request.layer,
                        effectiveIds(request.scene).tokens);
      if (job.stop) return dropped();
      progress(25, QStringLiteral("rotating q and k"));
      backend_->load(problem);
      loaded_ = true;
      loadedScene_ = request.scene;
      loadedSource_ = request.source;
      loadedCausal_ = request.causal;
      loadedStack_ = request.layerStack;
      loadedLayer_ = request.layer;
      if (job.stop) return dropped();
    }
    result.heads = backend_->heads();
    result.tokens = backend_->tokens();
    if (request.head < 0 || request.head >= result.heads) {
      result.error = QStringLiteral("head %1 does not exist: q/k have %2 head(s)")
                         .arg(request.head + 1)
                         .arg(result.heads);
      job.post([f = listener_.finished, result] { f(result); });
      return;
    }
    const std::size_t n = result.tokens;
    const bool reuse = heatmapKept_ && sameHeatmap(request, heatmapRequest_);
    if (reuse) {
      result.request.rowBegin = heatmapRequest_.rowBegin;
      result.request.rowEnd = heatmapRequest_.rowEnd;
      result.blocksPerSide = heatmapBlocks_;
      result.pooled = heatmapPooled_;
      result.rows = heatmapRows_;
    } else if (request.exactRows) {
      progress(40, QStringLiteral("computing the heatmap"));
      const std::size_t b = std::min(request.rowBegin, n - 1);
      const std::size_t e = std::clamp(request.rowEnd, b + 1, n);
      result.request.rowBegin = b;
      result.request.rowEnd = e;
      result.rows.resize((e - b) * n);
      backend_->rows(request.head, b, e, request.value, result.rows.data());
      result.blocksPerSide = n;
    } else {
      progress(40, QStringLiteral("computing the heatmap"));
      const int block = std::max(1, request.block);
      result.blocksPerSide = (n + std::size_t(block) - 1) / std::size_t(block);
      result.pooled.resize(result.blocksPerSide * result.blocksPerSide);
      backend_->pooled(request.head, block, request.value, result.pooled.data());
    }
    if (job.stop) return dropped();
    if (!reuse) {
      heatmapKept_ = result.pooled.size() + result.rows.size() <= kMaxKeptHeatmap;
      heatmapRequest_ = result.request;
      heatmapBlocks_ = result.blocksPerSide;
      heatmapPooled_ = heatmapKept_ ? result.pooled : std::vector<float>{};
      heatmapRows_ = heatmapKept_ ? result.rows : std::vector<float>{};
    }
    if (request.textToken >= 0 && std::size_t(request.textToken) < n) {
      progress(90, QStringLiteral("the text token's row"));
      result.textRow.resize(n);
      const auto t = std::size_t(request.textToken);
      backend_->rows(request.head, t, t + 1, request.value, result.textRow.data());
    }
    // Logits past float32's range make a meaningless map: the view keeps the last one and says
    // why.
    const auto overflowed = [](const std::vector<float>& v) {
      return attentionOverflowed(v.data(), v.size());
    };
    if (overflowed(result.pooled) || overflowed(result.rows) || overflowed(result.textRow))
      throw InputError(logitOverflowMessage("head " + std::to_string(request.head + 1)));
  } catch (const AttentionCancelled&) {
    return dropped();
  } catch (const std::exception& e) {
    result.error = firstLine(e.what());
  }
  // The GPU failed in the middle (context lost, driver error): the CPU finished the request and
  // keeps the backend's place; say so once, with the cause.
  if (backend_ && !fallbackAnnounced_) {
    const std::string fell = gpu::fallbackNote(*backend_);
    if (!fell.empty()) {
      fallbackAnnounced_ = true;
      const QString label =
          QStringLiteral("attention: %1").arg(QString::fromStdString(backend_->description()));
      job.tell([f = listener_.backendChanged, label, note = QString::fromStdString(fell)] {
        f(label, note);
      });
    }
  }
  progress(100, {});
  // Shared: the rows of a large zoom are megabytes, copied once into the view's result.
  job.post([f = listener_.finished, r = std::make_shared<AttentionResult>(std::move(result))] {
    f(*r);
  });
}

}  // namespace ropescope::ui
