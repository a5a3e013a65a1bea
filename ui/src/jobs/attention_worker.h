// The attention view's background worker: owns the attention backend in its own thread, turns
// a request (scene, q/k source, head, value, zoom) into pooled blocks and rows, drops stale work.
#pragma once

#include <QObject>
#include <QString>

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "ropescope/attention.h"
#include "ropescope/scene.h"

namespace ropescope::ui {

// Everything one computation needs, copied so the worker never reads the GUI's state.
struct AttentionRequest {
  quint64 generation = 0;
  Scene scene;
  QkSourceSpec source;
  bool causal = false;
  AttentionValue value = AttentionValue::Logits;
  int head = 0;
  BackendChoice backend = BackendChoice::Auto;
  // The heatmap: pooled means over block x block tiles of the whole matrix, or (exactRows) the
  // exact rows [rowBegin, rowEnd) when the view is zoomed in to single tokens.
  int block = 1;
  bool exactRows = false;
  std::size_t rowBegin = 0, rowEnd = 0;
  // Token index of a text query whose full row is wanted (its map over a visual block); -1: none.
  long textToken = -1;
};

struct AttentionResult {
  quint64 generation = 0;
  QString error;  // one line; empty on success
  int heads = 0;
  std::size_t tokens = 0;
  AttentionRequest request;
  std::size_t blocksPerSide = 0;  // ceil(tokens / block)
  std::vector<float> pooled;      // blocksPerSide^2, row-major (empty with exactRows)
  std::vector<float> rows;        // (rowEnd - rowBegin) x tokens (exactRows only)
  std::vector<float> textRow;     // tokens values of request.textToken's row
};

class AttentionWorker : public QObject {
  Q_OBJECT

 public:
  // `latest` is the newest generation the view asked for: work for an older one stops at the
  // next step instead of finishing a result nobody will see.
  explicit AttentionWorker(std::shared_ptr<std::atomic<quint64>> latest, int cpuThreads);
  ~AttentionWorker() override;

 public slots:
  void compute(const ropescope::ui::AttentionRequest& request);
  // Drops the backend in this thread (a GPU context must be destroyed where it was made).
  void release();

 signals:
  void progress(quint64 generation, int percent, const QString& stage);
  void finished(const ropescope::ui::AttentionResult& result);
  // Stale work dropped; the view is already waiting for a newer generation.
  void cancelled(quint64 generation);
  // The backend in use ("attention: cpu, 2 threads, avx512") and, once, why the GPU was not used.
  void backendChanged(const QString& label, const QString& note);

 private:
  bool stale(quint64 generation) const { return generation < latest_->load(); }
  void ensureBackend(BackendChoice choice);

  std::shared_ptr<std::atomic<quint64>> latest_;
  int cpuThreads_;
  std::unique_ptr<AttentionBackend> backend_;
  BackendChoice backendChoice_ = BackendChoice::Auto;
  bool noteGiven_ = false;
  bool fallbackAnnounced_ = false;  // the backend's mid-run move to the CPU was reported
  // What the backend holds now: loading (q/k, rotation) is skipped when only the head, the
  // value or the zoom changed.
  bool loaded_ = false;
  Scene loadedScene_;
  QkSourceSpec loadedSource_;
  bool loadedCausal_ = false;
};

}  // namespace ropescope::ui

Q_DECLARE_METATYPE(ropescope::ui::AttentionRequest)
Q_DECLARE_METATYPE(ropescope::ui::AttentionResult)
