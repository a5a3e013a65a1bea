// The attention preview: the controls (AttentionControls), a zoomable heat map of RoPE logits or
// softmax for the current scene (AttentionHeatmap) and the selected text token's row over a
// visual block (AttentionTokenMap), computed off the GUI thread (jobs/attention_job.h). This
// class runs the job and hands each finished result to the widgets that show it.
#pragma once

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "jobs/attention_job.h"
#include "ropescope/attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/position_ids.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace ropescope::ui {

class AttentionControls;
class AttentionHeatmap;
class AttentionTokenMap;
class SceneModel;
class WhenShown;

class AttentionView : public QWidget {
  Q_OBJECT

 public:
  explicit AttentionView(SceneModel* model, QWidget* parent = nullptr);
  ~AttentionView() override;

  // Controls, as the user sets them (tests use these too). Each one starts a new computation.
  void setSoftmax(bool on);
  void setCausal(bool on);
  // Softmax colours by log probability (on by default); logits are always linear.
  void setLogScale(bool on);
  bool logScaleActive() const;
  void setHead(int head);  // 0-based
  void setIdenticalQk(int heads);
  void setRandomQk(int heads, quint64 seed);
  void setQkFiles(const QString& qPath, const QString& kPath);
  void setBackendChoice(BackendChoice choice);
  void setVisualSegment(int segment);  // layout index of the block the text token's map shows
  // Shows tokens [begin, begin + span) on both axes (clamped); resetZoom shows all.
  void setZoom(std::size_t begin, std::size_t span);
  void resetZoom();
  // Stops the running computation; the heatmap keeps the last finished result.
  void cancel();
  // Where the model layer to preview comes from (the Layers tab): its stack and index, -1 for
  // none. Asked at each request; layerLine() then says which layer and mask the map shows.
  using LayerSource = std::function<std::pair<std::shared_ptr<const LayerStack>, int>()>;
  void setLayerSource(LayerSource source);
  QString layerLine() const;
  void refreshLayer() { requestSoon(); }
  // Tests: runs on the worker's thread at each step of a job (AttentionJob::setStepHook).
  void setJobStepHook(std::function<void(const AttentionRequest& request, int percent)> hook);

  // State, for the window and the tests.
  bool busy() const { return busy_; }
  int progressPercent() const;
  quint64 requestedGeneration() const { return worker_->lastRequest(); }
  const AttentionResult* shownResult() const { return shown_.get(); }
  QString backendLabel() const { return backendLabel_; }
  QString message() const;  // the one-line message under the heatmap (errors, notes)
  double colorMin() const;
  double colorMax() const;
  QColor colorFor(double value) const;  // the heatmap's colour of a value
  QColor maskedColor() const;
  // The heatmap as drawn, one pixel per shown block (or token when zoomed in to single tokens).
  const QImage& heatmapImage() const;
  std::size_t zoomBegin() const;
  std::size_t zoomSpan() const;
  QWidget* heatmapCanvas() const;
  QRectF heatmapRect() const;  // where the shown range lies on the canvas
  // Value shown at a canvas position (NaN outside), and its tooltip text.
  double valueAt(QPointF canvasPos) const;
  QString describeAt(QPointF canvasPos) const;
  // A click on the heat map at a canvas position (a text query's row picks that text token).
  void clickHeatmap(QPointF canvasPos);

  // The text token's map over the visual block: rows x cols values (row-major); empty if none.
  int mapRows() const;
  int mapCols() const;
  long mapTextToken() const;
  const std::vector<double>& mapValues() const;
  QColor mapColor(int row, int col) const;
  QWidget* mapCanvas() const;
  QRectF mapCellRect(int row, int col) const;

 signals:
  void backendChanged(const QString& label);
  // Said once: the GPU could not be used (and why).
  void noteRaised(const QString& note);
  void resultShown();
  // The worker dropped the job of `generation` because a newer one was asked for (or Cancel).
  void jobDropped(quint64 generation);

 private:
  // A change: a request (the worker starts it once edits pause) while the view is shown, else
  // on its show.
  void requestSoon();
  void request();
  void onProgress(quint64 generation, int percent, const QString& stage);
  void onFinished(const AttentionResult& result);
  void showColors();
  void setMessage(const QString& text, bool error);
  void setBusy(bool busy);

  SceneModel* model_;
  std::unique_ptr<AttentionJob> job_;
  std::unique_ptr<LatestWorker> worker_;  // after job_: destroyed (joined) before it

  AttentionControls* controls_ = nullptr;
  AttentionHeatmap* heatmap_ = nullptr;
  AttentionTokenMap* tokenMap_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QLabel* layerLabel_ = nullptr;  // the layer and mask the map shows
  LayerSource layerSource_;

  bool busy_ = false;
  WhenShown* whenShown_ = nullptr;        // hidden: requests wait for the view's next show
  std::vector<TokenInfo> requestTokens_;  // identities for the request
  std::shared_ptr<const AttentionResult> shown_;
  std::shared_ptr<const std::vector<TokenInfo>> tokens_;  // identities for the shown result
  QString backendLabel_;
  QString messageText_;
  bool messageIsError_ = false;
  QString note_;  // why the GPU is not used, said once and kept in the message line
};

}  // namespace ropescope::ui
