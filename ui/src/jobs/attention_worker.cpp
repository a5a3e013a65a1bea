#include "jobs/attention_worker.h"

#include <exception>

#include "ropescope/errors.h"
#include "ropescope_gpu/gpu_attention.h"

namespace ropescope::ui {

namespace {

bool sameSource(const QkSourceSpec& a, const QkSourceSpec& b) {
  return a.kind == b.kind && a.heads == b.heads && a.seed == b.seed && a.qPath == b.qPath &&
         a.kPath == b.kPath;
}

QString firstLine(const char* what) {
  return QString::fromUtf8(what).section(QLatin1Char('\n'), 0, 0);
}

}  // namespace

AttentionWorker::AttentionWorker(std::shared_ptr<std::atomic<quint64>> latest, int cpuThreads)
    : latest_(std::move(latest)), cpuThreads_(cpuThreads) {}

AttentionWorker::~AttentionWorker() = default;

void AttentionWorker::release() {
  backend_.reset();
  loaded_ = false;
}

void AttentionWorker::ensureBackend(BackendChoice choice) {
  if (backend_ && choice == backendChoice_) return;
  backend_.reset();
  loaded_ = false;
  // Created here, in the worker's thread: the GPU backend's context is current only on the
  // thread that made it, and every later call comes from this same thread.
  gpu::BackendSelection selection = gpu::selectAttentionBackend(choice, cpuThreads_);
  backend_ = std::move(selection.backend);
  backendChoice_ = choice;
  fallbackAnnounced_ = false;
  QString note;
  if (!selection.note.empty()) note = QString::fromStdString(selection.note);
  if (noteGiven_ && !selection.failed) note.clear();  // a GPU failure is said every time
  if (!note.isEmpty()) noteGiven_ = true;
  emit backendChanged(
      QStringLiteral("attention: %1").arg(QString::fromStdString(backend_->description())), note);
}

void AttentionWorker::compute(const AttentionRequest& request) {
  const quint64 gen = request.generation;
  if (stale(gen)) {
    emit cancelled(gen);
    return;
  }
  AttentionResult result;
  result.generation = gen;
  result.request = request;
  try {
    emit progress(gen, 2, tr("choosing the backend"));
    ensureBackend(request.backend);
    // A newer request (or Cancel, or closing) stops this one at the next tile.
    backend_->setCancelCheck([latest = latest_, gen] { return gen < latest->load(); });
    if (stale(gen)) {
      emit cancelled(gen);
      return;
    }
    if (!loaded_ || !(loadedScene_ == request.scene) ||
        !sameSource(loadedSource_, request.source) || loadedCausal_ != request.causal) {
      emit progress(gen, 5, tr("preparing q and k"));
      loaded_ = false;
      checkPreviewQkSize(request.source, request.scene.layout.tokenCount(),
                         request.scene.frequency.rotary.headDim);
      AttentionProblem problem =
          makeAttentionProblem(request.scene, request.source, request.causal);
      if (stale(gen)) {
        emit cancelled(gen);
        return;
      }
      emit progress(gen, 25, tr("rotating q and k"));
      backend_->load(problem);
      loaded_ = true;
      loadedScene_ = request.scene;
      loadedSource_ = request.source;
      loadedCausal_ = request.causal;
      if (stale(gen)) {
        emit cancelled(gen);
        return;
      }
    }
    result.heads = backend_->heads();
    result.tokens = backend_->tokens();
    if (request.head < 0 || request.head >= result.heads) {
      result.error =
          tr("head %1 does not exist: q/k have %2 head(s)").arg(request.head + 1).arg(result.heads);
      emit finished(result);
      return;
    }
    const std::size_t n = result.tokens;
    emit progress(gen, 40, tr("computing the heatmap"));
    if (request.exactRows) {
      const std::size_t b = std::min(request.rowBegin, n - 1);
      const std::size_t e = std::clamp(request.rowEnd, b + 1, n);
      result.request.rowBegin = b;
      result.request.rowEnd = e;
      result.rows.resize((e - b) * n);
      backend_->rows(request.head, b, e, request.value, result.rows.data());
      result.blocksPerSide = n;
    } else {
      const int block = std::max(1, request.block);
      result.blocksPerSide = (n + std::size_t(block) - 1) / std::size_t(block);
      result.pooled.resize(result.blocksPerSide * result.blocksPerSide);
      backend_->pooled(request.head, block, request.value, result.pooled.data());
    }
    if (stale(gen)) {
      emit cancelled(gen);
      return;
    }
    if (request.textToken >= 0 && std::size_t(request.textToken) < n) {
      emit progress(gen, 90, tr("the text token's row"));
      result.textRow.resize(n);
      const auto t = std::size_t(request.textToken);
      backend_->rows(request.head, t, t + 1, request.value, result.textRow.data());
    }
  } catch (const AttentionCancelled&) {
    emit cancelled(gen);
    return;
  } catch (const std::exception& e) {
    result.error = firstLine(e.what());
  }
  // The GPU failed in the middle (context lost, driver error): the CPU finished the request and
  // keeps the backend's place; say so once, with the cause.
  if (backend_ && !fallbackAnnounced_) {
    const std::string fell = gpu::fallbackNote(*backend_);
    if (!fell.empty()) {
      fallbackAnnounced_ = true;
      emit backendChanged(
          QStringLiteral("attention: %1").arg(QString::fromStdString(backend_->description())),
          QString::fromStdString(fell));
    }
  }
  emit progress(gen, 100, {});
  emit finished(result);
}

}  // namespace ropescope::ui
