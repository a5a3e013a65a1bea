// The attention preview: a zoomable heatmap of RoPE logits or softmax for the current scene,
// and the selected text token's row over a visual block, computed off the GUI thread.
#pragma once

#include <QColor>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "jobs/attention_worker.h"
#include "ropescope/attention.h"
#include "ropescope/position_ids.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QThread;
class QTimer;

namespace ropescope::ui {

class SceneModel;

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
  bool logScaleActive() const { return logActive_; }
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

  // State, for the window and the tests.
  bool busy() const { return busy_; }
  int progressPercent() const;
  quint64 requestedGeneration() const { return generation_; }
  const AttentionResult* shownResult() const { return shown_ ? &*shown_ : nullptr; }
  QString backendLabel() const { return backendLabel_; }
  QString message() const;  // the one-line message under the heatmap (errors, notes)
  double colorMin() const { return min_; }
  double colorMax() const { return max_; }
  QColor colorFor(double value) const;  // the heatmap's colour of a value
  QColor maskedColor() const;
  // The heatmap as drawn, one pixel per shown block (or token when zoomed in to single tokens).
  const QImage& heatmapImage() const { return image_; }
  std::size_t zoomBegin() const { return zoomBegin_; }
  std::size_t zoomSpan() const { return zoomSpan_; }
  QWidget* heatmapCanvas() const { return heatCanvas_; }
  QRectF heatmapRect() const;  // where the shown range lies on the canvas
  // Value shown at a canvas position (NaN outside), and its tooltip text.
  double valueAt(QPointF canvasPos) const;
  QString describeAt(QPointF canvasPos) const;

  // The text token's map over the visual block: rows x cols values (row-major); empty if none.
  int mapRows() const { return mapRows_; }
  int mapCols() const { return mapCols_; }
  long mapTextToken() const { return mapToken_; }
  const std::vector<double>& mapValues() const { return mapValues_; }
  QColor mapColor(int row, int col) const;
  QWidget* mapCanvas() const { return mapCanvas_; }
  QRectF mapCellRect(int row, int col) const;

  // Painting and input of the two canvases (private widgets of this view).
  void paintHeatmap(QPainter& p);
  void paintMap(QPainter& p);
  void wheelHeatmap(QPointF pos, int delta);
  void dragHeatmap(QPointF from, QPointF to);
  void clickHeatmap(QPointF pos);

 signals:
  void backendChanged(const QString& label);
  // Said once: the GPU could not be used (and why).
  void noteRaised(const QString& note);
  void resultShown();
  // The worker dropped the job of `generation` because a newer one was asked for (or Cancel).
  void jobDropped(quint64 generation);

 protected:
  void showEvent(QShowEvent* e) override;

 private:
  void requestSoon();
  void request();
  void onProgress(quint64 generation, int percent, const QString& stage);
  void onFinished(const AttentionResult& result);
  void onCancelled(quint64 generation);
  void rebuildImage();
  void rebuildMap();
  void refreshSegments();
  void refreshSourceControls();
  void setMessage(const QString& text, bool error);
  void setBusy(bool busy);
  bool tokenAt(QPointF pos, std::size_t* row, std::size_t* col) const;
  QString tokenName(std::size_t token) const;
  int canvasSide() const;
  QRectF colorBarRect() const;
  // Where a value lies on the colour map (0..1) between lo and hi, and back.
  double colorPosition(double value, double lo, double hi) const;
  double colorValue(double t, double lo, double hi) const;

  SceneModel* model_;
  QThread* thread_ = nullptr;
  AttentionWorker* worker_ = nullptr;
  std::shared_ptr<std::atomic<quint64>> latest_;
  QTimer* debounce_ = nullptr;

  QComboBox* valueBox_ = nullptr;
  QCheckBox* causalBox_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QSpinBox* headSpin_ = nullptr;
  QComboBox* sourceBox_ = nullptr;
  QSpinBox* headsSpin_ = nullptr;
  QSpinBox* seedSpin_ = nullptr;
  QPushButton* loadButton_ = nullptr;
  QComboBox* backendBox_ = nullptr;
  QComboBox* segmentBox_ = nullptr;
  QSpinBox* temporalSpin_ = nullptr;
  QWidget* heatCanvas_ = nullptr;
  QWidget* mapCanvas_ = nullptr;
  QLabel* mapCaption_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* messageLabel_ = nullptr;

  QString qPath_, kPath_;
  quint64 generation_ = 0;
  bool busy_ = false;
  bool dirty_ = true;
  std::vector<TokenInfo> requestTokens_, tokens_;  // identities for the request / the shown result
  std::optional<AttentionResult> shown_;
  QString backendLabel_;
  QString messageText_;
  QString note_;  // why the GPU is not used, said once and kept in the message line
  std::size_t zoomBegin_ = 0, zoomSpan_ = 0;  // 0 span: everything

  QImage image_;
  double imageFirstToken_ = 0.0;  // token at the image's left / top edge
  double imageTokensPerPixel_ = 1.0;
  double min_ = 0.0, max_ = 1.0;  // with log colours: the smallest positive value shown
  bool logActive_ = false;

  int mapSegment_ = -1;
  int mapRows_ = 0, mapCols_ = 0;
  long mapToken_ = -1;
  std::vector<double> mapValues_;
  double mapMin_ = 0.0, mapMax_ = 1.0;
  bool mapLog_ = false;
  bool mapAllMasked_ = false;  // causal, and the text token comes before the block
  QImage mapPicture_;
};

}  // namespace ropescope::ui
