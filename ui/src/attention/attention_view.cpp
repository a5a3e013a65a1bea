#include "attention/attention_view.h"

#include "ropescope/layer_attention.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QThread>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention/attention_controls.h"
#include "attention/attention_heatmap.h"
#include "attention/attention_token_map.h"
#include "attention/token_map_canvas.h"
#include "model/scene_model.h"
#include "model/when_shown.h"

namespace ropescope::ui {

namespace {

// How long edits must pause before the preview computes again.
constexpr int kSettleMs = 40;

// Pooled heatmaps are at most this many blocks a side (16 MB of floats): finer zoom into a large
// N asks for exact rows of the visible range instead of a finer pooling of the whole matrix.
constexpr std::size_t kMaxPooledSide = 2048;

}  // namespace

AttentionView::AttentionView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  controls_ = new AttentionControls;
  heatmap_ = new AttentionHeatmap;
  tokenMap_ = new AttentionTokenMap(model_);
  auto* middle = new QHBoxLayout;
  middle->addWidget(heatmap_, 1);
  middle->addWidget(tokenMap_, 1);

  progress_ = new QProgressBar;
  progress_->setRange(0, 100);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  progress_->setVisible(false);
  cancelButton_ = new QPushButton(tr("Cancel"));
  cancelButton_->setEnabled(false);
  auto* resetButton = new QPushButton(tr("Show all"));
  resetButton->setToolTip(tr("Zoom out to the whole sequence (wheel zooms, drag pans)"));
  messageLabel_ = new QLabel;
  messageLabel_->setObjectName(QStringLiteral("attentionMessage"));
  messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // A long refusal (the preview's size limit) wraps: on one line it widened the dock's content
  // past its view and the scroll bar hid the buttons beside it.
  messageLabel_->setWordWrap(true);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(resetButton);
  bottom->addWidget(progress_);
  bottom->addWidget(cancelButton_);
  bottom->addWidget(messageLabel_, 1);

  layerLabel_ = new QLabel(tr("Layer: none (the scene's rotary; pick one in the Layers tab)"));
  layerLabel_->setObjectName(QStringLiteral("attentionLayer"));
  layerLabel_->setWordWrap(true);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(controls_);
  layout->addWidget(layerLabel_);
  layout->addLayout(middle, 1);
  layout->addLayout(bottom);

  // The job and its backend live on the worker's one thread (jobs/latest_worker.h): a newer
  // request stops the running one, and what the job tells comes back on this thread.
  AttentionListener listener;
  listener.progress = [this](quint64 generation, int percent, const QString& stage) {
    onProgress(generation, percent, stage);
  };
  listener.finished = [this](const AttentionResult& result) { onFinished(result); };
  listener.dropped = [this](quint64 generation) { emit jobDropped(generation); };
  listener.backendChanged = [this](const QString& label, const QString& note) {
    backendLabel_ = label;
    emit backendChanged(label);
    // A new backend: the old one's note no longer holds.
    note_ = note;
    setMessage(note, false);
    if (!note.isEmpty()) emit noteRaised(note);
  };
  job_ =
      std::make_unique<AttentionJob>(std::max(1, QThread::idealThreadCount()), std::move(listener));
  worker_ = std::make_unique<LatestWorker>(this);
  // The backend (a GPU context among them) goes on the thread that made it.
  worker_->setAtExit([job = job_.get()] { job->release(); });

  whenShown_ = new WhenShown(
      this, [this] { request(); }, WhenShown::UnshownWindow::Wait);
  connect(controls_, &AttentionControls::requestChanged, this, &AttentionView::requestSoon);
  connect(controls_, &AttentionControls::colorsChanged, this, &AttentionView::showColors);
  connect(heatmap_, &AttentionHeatmap::zoomChanged, this, &AttentionView::requestSoon);
  connect(heatmap_, &AttentionHeatmap::textQueryClicked, model_, &SceneModel::setSelectedText);
  connect(cancelButton_, &QPushButton::clicked, this, &AttentionView::cancel);
  connect(resetButton, &QPushButton::clicked, this, &AttentionView::resetZoom);
  connect(model_, &SceneModel::changed, this, &AttentionView::requestSoon);
  requestSoon();  // the first result: when the view is first shown
}

AttentionView::~AttentionView() {
  worker_.reset();  // stops the running job, releases the backend on its thread, joins
}

void AttentionView::setSoftmax(bool on) {
  controls_->setSoftmax(on);
}
void AttentionView::setCausal(bool on) {
  controls_->setCausal(on);
}
void AttentionView::setLogScale(bool on) {
  controls_->setLogScale(on);
}
bool AttentionView::logScaleActive() const {
  return heatmap_->scale().isLog();
}
void AttentionView::setHead(int head) {
  controls_->setHead(head);
}
void AttentionView::setIdenticalQk(int heads) {
  controls_->setIdenticalQk(heads);
}
void AttentionView::setRandomQk(int heads, quint64 seed) {
  controls_->setRandomQk(heads, seed);
}
void AttentionView::setQkFiles(const QString& qPath, const QString& kPath) {
  controls_->setQkFiles(qPath, kPath);
}
void AttentionView::setBackendChoice(BackendChoice choice) {
  controls_->setBackendChoice(choice);
}
void AttentionView::setVisualSegment(int segment) {
  tokenMap_->setVisualSegment(segment);
}

void AttentionView::setZoom(std::size_t begin, std::size_t span) {
  heatmap_->setSequenceLength(model_->validScene().layout.tokenCount());
  heatmap_->setZoom(begin, span);
}

void AttentionView::resetZoom() {
  setZoom(0, std::numeric_limits<std::size_t>::max());
}

void AttentionView::cancel() {
  if (!busy_) return;
  // The worker drops what it has at its next step, and nothing of it reaches the view.
  worker_->cancel();
  setBusy(false);
  setMessage(tr("Cancelled; showing the last finished result"), false);
}

void AttentionView::setJobStepHook(
    std::function<void(const AttentionRequest& request, int percent)> hook) {
  job_->setStepHook(std::move(hook));
}

void AttentionView::setBusy(bool busy) {
  busy_ = busy;
  heatmap_->setBusy(busy);
  cancelButton_->setEnabled(busy);
  progress_->setValue(0);
  progress_->setVisible(busy);
}

int AttentionView::progressPercent() const {
  return progress_->value();
}

QString AttentionView::message() const {
  return messageText_;
}

void AttentionView::setMessage(const QString& text, bool error) {
  messageText_ = text;
  messageIsError_ = error;
  messageLabel_->setText(text);
  messageLabel_->setStyleSheet(error ? QStringLiteral("color: #e04040; font-weight: bold;")
                                     : QString());
}

void AttentionView::setLayerSource(LayerSource source) {
  layerSource_ = std::move(source);
  requestSoon();
}

QString AttentionView::layerLine() const {
  return layerLabel_->text();
}

void AttentionView::requestSoon() {
  // Hidden (the dock closed): nothing to show, so nothing computed until shown.
  whenShown_->request();
}

void AttentionView::request() {
  // Whatever waits or runs is stale now.
  worker_->cancel();
  const Scene& scene = model_->validScene();
  const std::size_t n = scene.layout.tokenCount();
  heatmap_->setSequenceLength(n);
  if (n == 0) {
    setBusy(false);
    return;
  }
  AttentionRequest r;
  r.scene = scene;
  // The selected text token is sent on its own: choosing another one must not reload q and k.
  r.scene.selectedText = 0;
  if (controls_->missingFiles()) {
    setBusy(false);
    setMessage(tr("Choose q.npy and k.npy with Load q/k\xe2\x80\xa6"), false);
    return;
  }
  controls_->fill(r);
  if (layerSource_) {
    auto [stack, layer] = layerSource_();
    if (stack && layer >= 0 && std::size_t(layer) < stack->layers.size()) {
      r.layerStack = std::move(stack);
      r.layer = layer;
      r.causal = true;  // a layer's mask is causal, narrowed or widened by the layer
    }
  }
  layerLabel_->setText(
      r.layer >= 0 ? tr("Layer: %1")
                         .arg(QString::fromStdString(layerAttentionSummary(*r.layerStack, r.layer)))
                   : tr("Layer: none (the scene's rotary; pick one in the "
                        "Layers tab)"));
  // Ask for what the view can show: one block per device pixel of the shown range.
  const std::size_t span = heatmap_->shownSpan(n), begin = heatmap_->shownBegin(n);
  const auto pixels = static_cast<std::size_t>(std::max(16.0, std::floor(heatmap_->sidePixels())));
  const std::size_t wanted = std::max<std::size_t>(1, (span + pixels - 1) / pixels);
  const std::size_t coarsest = (n + kMaxPooledSide - 1) / kMaxPooledSide;
  if (wanted == 1 && coarsest > 1) {
    r.exactRows = true;
    r.rowBegin = begin;
    r.rowEnd = begin + span;
  } else {
    r.block = static_cast<int>(std::max(wanted, coarsest));
  }
  requestTokens_ = model_->metrics().ids.tokens;
  if (requestTokens_.size() != n) requestTokens_.clear();
  int textSeen = -1;
  for (std::size_t i = 0; i < requestTokens_.size(); ++i)
    if (requestTokens_[i].modality == Modality::Text && ++textSeen == scene.selectedText) {
      r.textToken = static_cast<long>(i);
      break;
    }
  setBusy(true);
  if (messageIsError_) setMessage(note_, false);  // about the run this one replaces
  // A burst of edits (typing, wheel steps) becomes one job: the worker starts the newest once
  // they pause. Its number is the worker's.
  worker_->requestAfter(kSettleMs, [job = job_.get(), r](const LatestWorker::Context& context) {
    AttentionRequest numbered = r;
    numbered.generation = context.ticket();
    job->compute(numbered, context);
  });
}

void AttentionView::onProgress(quint64 generation, int percent, const QString& stage) {
  (void)generation;  // a stale job's steps never arrive (LatestWorker::Context::post)
  progress_->setValue(percent);
  if (!stage.isEmpty()) progress_->setToolTip(stage);
}

void AttentionView::onFinished(const AttentionResult& result) {
  setBusy(false);
  if (!result.error.isEmpty()) {
    // The map keeps the last good result: say which, since the controls now name the refused
    // q/k (the box read "q.npy + k.npy" over a map of identical q, k).
    QString kept;
    if (shown_) {
      const QkSourceSpec& was = shown_->request.source;
      kept = was.kind == QkSourceSpec::Kind::Identical ? tr("identical q, k")
             : was.kind == QkSourceSpec::Kind::Random
                 ? tr("random q, k, seed %1").arg(static_cast<qulonglong>(was.seed))
                 : tr("%1 + %2").arg(QFileInfo(QString::fromStdString(was.qPath)).fileName(),
                                     QFileInfo(QString::fromStdString(was.kPath)).fileName());
    }
    setMessage(kept.isEmpty() ? result.error
                              : tr("%1 \xe2\x80\x94 the map still shows the last result (%2)")
                                    .arg(result.error, kept),
               true);
    return;
  }
  setMessage(note_, false);  // an earlier error is over; the GPU note still holds
  shown_ = std::make_shared<const AttentionResult>(result);
  tokens_ = std::make_shared<const std::vector<TokenInfo>>(requestTokens_);
  controls_->showHeads(result.heads);
  heatmap_->setLogScale(controls_->logScale());
  heatmap_->setResult(shown_, tokens_);
  tokenMap_->setResult(shown_, tokens_, heatmap_->scale().isLog());
  emit resultShown();
}

void AttentionView::showColors() {
  heatmap_->setLogScale(controls_->logScale());
  tokenMap_->setResult(shown_, tokens_, heatmap_->scale().isLog());
}

double AttentionView::colorMin() const {
  return heatmap_->scale().lo();
}
double AttentionView::colorMax() const {
  return heatmap_->scale().hi();
}
QColor AttentionView::colorFor(double value) const {
  return heatmap_->colorFor(value);
}
QColor AttentionView::maskedColor() const {
  return ColorScale::noValueColor();
}
const QImage& AttentionView::heatmapImage() const {
  return heatmap_->image();
}
std::size_t AttentionView::zoomBegin() const {
  return heatmap_->zoomBegin();
}
std::size_t AttentionView::zoomSpan() const {
  return heatmap_->zoomSpan();
}
QWidget* AttentionView::heatmapCanvas() const {
  return heatmap_;
}
QRectF AttentionView::heatmapRect() const {
  return heatmap_->mapRect();
}
double AttentionView::valueAt(QPointF pos) const {
  return heatmap_->valueAt(pos);
}
QString AttentionView::describeAt(QPointF pos) const {
  return heatmap_->describeAt(pos);
}
void AttentionView::clickHeatmap(QPointF pos) {
  heatmap_->clickAt(pos);
}

int AttentionView::mapRows() const {
  return tokenMap_->canvas()->rows();
}
int AttentionView::mapCols() const {
  return tokenMap_->canvas()->cols();
}
long AttentionView::mapTextToken() const {
  return tokenMap_->textToken();
}
const std::vector<double>& AttentionView::mapValues() const {
  return tokenMap_->canvas()->values();
}
QColor AttentionView::mapColor(int row, int col) const {
  return tokenMap_->canvas()->cellColor(row, col);
}
QWidget* AttentionView::mapCanvas() const {
  return tokenMap_->canvas();
}
QRectF AttentionView::mapCellRect(int row, int col) const {
  return tokenMap_->canvas()->cellRect(row, col);
}

}  // namespace ropescope::ui
