// The attention view's background job: owns the attention backend on the attention worker's
// thread (jobs/latest_worker.h), turns a request (scene, q/k source, head, value, zoom) into
// pooled blocks and rows, and stops when a newer request makes it stale.
#pragma once

#include <QString>

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "jobs/latest_worker.h"
#include "ropescope/attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/scene.h"

namespace ropescope::ui {

// Everything one computation needs, copied so the worker never reads the GUI's state.
struct AttentionRequest {
  quint64 generation = 0;
  Scene scene;
  QkSourceSpec source;
  bool causal = false;
  // The model layer whose mask and rotary apply (layer_attention.h, the Layers tab's); -1 and
  // no stack: the scene's rotary with `causal`.
  std::shared_ptr<const LayerStack> layerStack;
  int layer = -1;
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

// What the job tells the view, each call run on the view's thread (LatestWorker::Context).
struct AttentionListener {
  // A step of the newest request (dropped with its request).
  std::function<void(quint64 generation, int percent, const QString& stage)> progress;
  // The newest request's result (a stale one is dropped, never shown).
  std::function<void(const AttentionResult& result)> finished;
  // The job of `generation` stopped because a newer request or Cancel came.
  std::function<void(quint64 generation)> dropped;
  // The backend in use ("attention: cpu, 2 threads, avx512") and, once, why the GPU was not used.
  std::function<void(const QString& label, const QString& note)> backendChanged;
};

// Runs on the attention worker's thread, every request on the same one: the backend it keeps (a
// GPU context among them) is current only on the thread that made it.
class AttentionJob {
 public:
  AttentionJob(int cpuThreads, AttentionListener listener);
  ~AttentionJob();

  void compute(const AttentionRequest& request, const LatestWorker::Context& job);
  // Drops the backend (on the worker's thread, as it ends).
  void release();
  // Tests: called on the worker's thread at each step of a request (after its progress is
  // posted), so that a test can hold a job at a known step while it edits.
  void setStepHook(std::function<void(const AttentionRequest& request, int percent)> hook);

 private:
  void ensureBackend(BackendChoice choice, const LatestWorker::Context& job);

  int cpuThreads_;
  AttentionListener listener_;
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
  std::shared_ptr<const LayerStack> loadedStack_;
  int loadedLayer_ = -1;
  // The last heatmap computed from what the backend holds now, and its request: a request that
  // differs only in its text token (a click on another token) takes it again and computes the
  // one row it needs. Kept up to kMaxKeptHeatmap values (a zoom's exact rows can be far more).
  static constexpr std::size_t kMaxKeptHeatmap = std::size_t{1} << 24;
  bool heatmapKept_ = false;
  AttentionRequest heatmapRequest_;
  std::size_t heatmapBlocks_ = 0;
  std::vector<float> heatmapPooled_, heatmapRows_;
  std::mutex hookMutex_;
  std::function<void(const AttentionRequest&, int)> stepHook_;
};

}  // namespace ropescope::ui
