#include "attention/attention_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QThread>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "model/scene_model.h"
#include "model/segment_names.h"
#include "picture/picture_source.h"
#include "style/viridis.h"

namespace ropescope::ui {

namespace {

// Pooled heatmaps are at most this many blocks a side (16 MB of floats): finer zoom into a large
// N asks for exact rows of the visible range instead of a finer pooling of the whole matrix.
constexpr std::size_t kMaxPooledSide = 2048;
constexpr int kMargin = 8;
constexpr int kBarWidth = 16;
constexpr int kBarLabels = 72;  // room right of the colour bar for its value labels

// A plain widget that hands painting and input to its owner, so the owner's state stays in one
// class and the tests can reach it.
class Canvas : public QWidget {
 public:
  std::function<void(QPainter&)> paint;
  std::function<void(QPointF, int)> wheel;
  std::function<void(QPointF, QPointF)> drag;
  std::function<void(QPointF)> click;
  std::function<QString(QPointF)> describe;

  Canvas() { setMouseTracking(true); }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    if (paint) paint(p);
  }
  void wheelEvent(QWheelEvent* e) override {
    if (wheel) wheel(e->position(), e->angleDelta().y());
    e->accept();
  }
  void mousePressEvent(QMouseEvent* e) override {
    pressed_ = e->position();
    last_ = pressed_;
    moved_ = false;
  }
  void mouseMoveEvent(QMouseEvent* e) override {
    if (e->buttons() & Qt::LeftButton) {
      if ((e->position() - pressed_).manhattanLength() > 3) moved_ = true;
      if (moved_ && drag) drag(last_, e->position());
      last_ = e->position();
    } else if (describe) {
      const QString text = describe(e->position());
      if (text.isEmpty())
        QToolTip::hideText();
      else
        QToolTip::showText(e->globalPosition().toPoint(), text, this);
    }
  }
  void mouseReleaseEvent(QMouseEvent* e) override {
    if (!moved_ && click) click(e->position());
  }

 private:
  QPointF pressed_, last_;
  bool moved_ = false;
};

QString formatValue(double v) {
  if (std::isinf(v)) return v < 0 ? QStringLiteral("masked (-inf)") : QStringLiteral("inf");
  return QString::number(v, 'g', 5);
}

}  // namespace

AttentionView::AttentionView(SceneModel* model, QWidget* parent)
    : QWidget(parent), model_(model), latest_(std::make_shared<std::atomic<quint64>>(0)) {
  qRegisterMetaType<AttentionRequest>();
  qRegisterMetaType<AttentionResult>();

  valueBox_ = new QComboBox;
  valueBox_->addItems({tr("logits"), tr("softmax")});
  valueBox_->setToolTip(
      tr("q'k'\xe2\x8a\xa4/\xe2\x88\x9a"
         "d, or each row's softmax"));
  causalBox_ = new QCheckBox(tr("causal"));
  logBox_ = new QCheckBox(tr("log colours"));
  logBox_->setChecked(true);
  logBox_->setToolTip(
      tr("Softmax only: colours by log probability, so a few large entries do not leave the "
         "rest of the map in one dark colour"));
  headSpin_ = new QSpinBox;
  headSpin_->setRange(1, 1);
  headSpin_->setToolTip(tr("q head shown"));
  sourceBox_ = new QComboBox;
  sourceBox_->addItems(
      {tr("identical q = k (positional bias)"), tr("random (Gaussian)"), tr("q.npy + k.npy")});
  headsSpin_ = new QSpinBox;
  headsSpin_->setRange(1, 64);
  headsSpin_->setToolTip(tr("heads of identical / random q and k"));
  seedSpin_ = new QSpinBox;
  seedSpin_->setRange(0, std::numeric_limits<int>::max());
  seedSpin_->setToolTip(tr("seed of the random q and k"));
  loadButton_ = new QPushButton(tr("Load q/k\xe2\x80\xa6"));
  loadButton_->setToolTip(tr("Pre-RoPE q and k as .npy: [N, d] or [heads, N, d]"));
  backendBox_ = new QComboBox;
  backendBox_->addItems({tr("auto"), tr("cpu"), tr("gpu")});
  backendBox_->setToolTip(tr("auto: the GPU (OpenGL 4.3 compute) if it can be had, else the CPU"));

  auto* controls = new QGridLayout;
  int c = 0;
  auto add = [&](const QString& label, QWidget* w, int row) {
    if (!label.isEmpty()) controls->addWidget(new QLabel(label), row, c++);
    controls->addWidget(w, row, c++);
  };
  add(tr("Show"), valueBox_, 0);
  add({}, causalBox_, 0);
  add({}, logBox_, 0);
  logBox_->setEnabled(false);
  add(tr("Head"), headSpin_, 0);
  add(tr("Backend"), backendBox_, 0);
  controls->setColumnStretch(c, 1);
  c = 0;
  add(tr("q/k"), sourceBox_, 1);
  add(tr("heads"), headsSpin_, 1);
  add(tr("seed"), seedSpin_, 1);
  add({}, loadButton_, 1);

  auto* heat = new Canvas;
  heat->paint = [this](QPainter& p) { paintHeatmap(p); };
  heat->wheel = [this](QPointF pos, int delta) { wheelHeatmap(pos, delta); };
  heat->drag = [this](QPointF a, QPointF b) { dragHeatmap(a, b); };
  heat->click = [this](QPointF pos) { clickHeatmap(pos); };
  heat->describe = [this](QPointF pos) { return describeAt(pos); };
  heat->setMinimumSize(260, 220);
  heat->setToolTip({});
  heatCanvas_ = heat;

  segmentBox_ = new QComboBox;
  segmentBox_->setToolTip(tr("Visual block the selected text token's row is shown over"));
  temporalSpin_ = new QSpinBox;
  temporalSpin_->setPrefix(tr("t "));
  temporalSpin_->setToolTip(tr("temporal patch of a video"));
  mapCaption_ = new QLabel;
  mapCaption_->setWordWrap(true);
  auto* map = new Canvas;
  map->paint = [this](QPainter& p) { paintMap(p); };
  map->setMinimumSize(180, 160);
  mapCanvas_ = map;
  auto* mapBox = new QVBoxLayout;
  auto* mapTop = new QHBoxLayout;
  mapTop->addWidget(segmentBox_, 1);
  mapTop->addWidget(temporalSpin_);
  mapBox->addLayout(mapTop);
  mapBox->addWidget(mapCaption_);
  mapBox->addWidget(mapCanvas_, 1);

  auto* middle = new QHBoxLayout;
  middle->addWidget(heatCanvas_, 1);
  middle->addLayout(mapBox, 1);

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
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(resetButton);
  bottom->addWidget(progress_);
  bottom->addWidget(cancelButton_);
  bottom->addWidget(messageLabel_, 1);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addLayout(middle, 1);
  layout->addLayout(bottom);

  // The worker and its backend live in their own thread; requests and results cross by queued
  // signals, and `latest_` lets the worker see that its job went stale without a round trip.
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("attention"));
  worker_ = new AttentionWorker(latest_, std::max(1, QThread::idealThreadCount()));
  worker_->moveToThread(thread_);
  connect(worker_, &AttentionWorker::progress, this, &AttentionView::onProgress);
  connect(worker_, &AttentionWorker::finished, this, &AttentionView::onFinished);
  connect(worker_, &AttentionWorker::cancelled, this, &AttentionView::onCancelled);
  connect(worker_, &AttentionWorker::backendChanged, this,
          [this](const QString& label, const QString& note) {
            backendLabel_ = label;
            emit backendChanged(label);
            // A new backend: the old one's note no longer holds.
            note_ = note;
            setMessage(note, false);
            if (!note.isEmpty()) emit noteRaised(note);
          });
  thread_->start();

  debounce_ = new QTimer(this);
  debounce_->setSingleShot(true);
  debounce_->setInterval(40);
  connect(debounce_, &QTimer::timeout, this, &AttentionView::request);

  connect(valueBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
    logBox_->setEnabled(i == 1);  // logits can be negative: always linear
    requestSoon();
  });
  connect(causalBox_, &QCheckBox::toggled, this, &AttentionView::requestSoon);
  connect(logBox_, &QCheckBox::toggled, this, [this] {
    rebuildImage();
    rebuildMap();
  });
  connect(headSpin_, &QSpinBox::valueChanged, this, &AttentionView::requestSoon);
  connect(headsSpin_, &QSpinBox::valueChanged, this, &AttentionView::requestSoon);
  connect(seedSpin_, &QSpinBox::valueChanged, this, &AttentionView::requestSoon);
  connect(backendBox_, &QComboBox::currentIndexChanged, this, &AttentionView::requestSoon);
  connect(sourceBox_, &QComboBox::currentIndexChanged, this, [this] {
    refreshSourceControls();
    requestSoon();
  });
  connect(loadButton_, &QPushButton::clicked, this, [this] {
    const QString q = QFileDialog::getOpenFileName(this, tr("q before RoPE (.npy)"), qPath_,
                                                   tr("NumPy arrays (*.npy)"));
    if (q.isEmpty()) return;
    const QString k = QFileDialog::getOpenFileName(this, tr("k before RoPE (.npy)"),
                                                   kPath_.isEmpty() ? QFileInfo(q).path() : kPath_,
                                                   tr("NumPy arrays (*.npy)"));
    if (!k.isEmpty()) setQkFiles(q, k);
  });
  connect(segmentBox_, &QComboBox::currentIndexChanged, this, [this] {
    mapSegment_ = segmentBox_->currentData().toInt();
    mapPicture_ = {};
    rebuildMap();
  });
  connect(temporalSpin_, &QSpinBox::valueChanged, this, [this] {
    mapPicture_ = {};
    rebuildMap();
  });
  connect(cancelButton_, &QPushButton::clicked, this, &AttentionView::cancel);
  connect(resetButton, &QPushButton::clicked, this, &AttentionView::resetZoom);
  connect(model_, &SceneModel::changed, this, [this](SceneChanges parts) {
    if (parts.touches(ScenePart::Layout | ScenePart::ImageGrid)) refreshSegments();
    requestSoon();
  });
  refreshSourceControls();
  refreshSegments();
}

AttentionView::~AttentionView() {
  latest_->store(std::numeric_limits<quint64>::max());
  // The backend (a GPU context among them) goes in the thread that made it.
  QMetaObject::invokeMethod(worker_, &AttentionWorker::release, Qt::BlockingQueuedConnection);
  thread_->quit();
  thread_->wait();
  delete worker_;
}

void AttentionView::setSoftmax(bool on) {
  valueBox_->setCurrentIndex(on ? 1 : 0);
}
void AttentionView::setCausal(bool on) {
  causalBox_->setChecked(on);
}
void AttentionView::setLogScale(bool on) {
  logBox_->setChecked(on);
}
void AttentionView::setHead(int head) {
  headSpin_->setMaximum(std::max(headSpin_->maximum(), head + 1));
  headSpin_->setValue(head + 1);
}
void AttentionView::setIdenticalQk(int heads) {
  headsSpin_->setValue(heads);
  sourceBox_->setCurrentIndex(0);
  requestSoon();
}
void AttentionView::setRandomQk(int heads, quint64 seed) {
  headsSpin_->setValue(heads);
  seedSpin_->setValue(static_cast<int>(seed));
  sourceBox_->setCurrentIndex(1);
  requestSoon();
}
void AttentionView::setQkFiles(const QString& qPath, const QString& kPath) {
  qPath_ = qPath;
  kPath_ = kPath;
  sourceBox_->setCurrentIndex(2);
  refreshSourceControls();
  requestSoon();
}
void AttentionView::setBackendChoice(BackendChoice choice) {
  backendBox_->setCurrentIndex(choice == BackendChoice::Auto  ? 0
                               : choice == BackendChoice::Cpu ? 1
                                                              : 2);
}
void AttentionView::setVisualSegment(int segment) {
  const int i = segmentBox_->findData(segment);
  if (i >= 0) segmentBox_->setCurrentIndex(i);
}

void AttentionView::setZoom(std::size_t begin, std::size_t span) {
  const std::size_t n = model_->validScene().layout.tokenCount();
  span = std::clamp<std::size_t>(span, std::min<std::size_t>(8, n), n);
  zoomSpan_ = span >= n ? 0 : span;
  zoomBegin_ = zoomSpan_ ? std::min(begin, n - span) : 0;
  rebuildImage();
  requestSoon();
}

void AttentionView::resetZoom() {
  setZoom(0, std::numeric_limits<std::size_t>::max());
}

void AttentionView::cancel() {
  debounce_->stop();
  if (!busy_) return;
  // A generation nobody asked for: the worker drops what it has at its next step.
  latest_->store(++generation_);
  setBusy(false);
  setMessage(tr("Cancelled; showing the last finished result"), false);
}

void AttentionView::setBusy(bool busy) {
  busy_ = busy;
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
  messageLabel_->setText(text);
  messageLabel_->setStyleSheet(error ? QStringLiteral("color: #e04040; font-weight: bold;")
                                     : QString());
}

void AttentionView::refreshSourceControls() {
  const int kind = sourceBox_->currentIndex();
  headsSpin_->setEnabled(kind != 2);
  seedSpin_->setEnabled(kind == 1);
  if (kind == 2 && !qPath_.isEmpty())
    sourceBox_->setToolTip(tr("q: %1\nk: %2").arg(qPath_, kPath_));
  else
    sourceBox_->setToolTip({});
}

void AttentionView::refreshSegments() {
  const Layout& layout = model_->validScene().layout;
  const int keep = mapSegment_;
  QSignalBlocker block(segmentBox_);
  segmentBox_->clear();
  for (std::size_t s = 0; s < layout.segments.size(); ++s) {
    const Segment& seg = layout.segments[s];
    if (!seg.isVisual()) continue;
    const QString name =
        visualSegmentName(layout, s) + QStringLiteral(", ") + gridText(seg.rows, seg.cols);
    segmentBox_->addItem(name, static_cast<int>(s));
  }
  const int i = segmentBox_->findData(keep);
  segmentBox_->setCurrentIndex(i >= 0 ? i : 0);
  // The same index may now be another block (or the same one from another file): decode again
  // (picture_source caches the decoded frames, so this is cheap).
  mapPicture_ = {};
  mapSegment_ = segmentBox_->currentData().isValid() ? segmentBox_->currentData().toInt() : -1;
  const bool video = mapSegment_ >= 0 && layout.segments[mapSegment_].kind == SegmentKind::Video;
  temporalSpin_->setVisible(video);
  temporalSpin_->setRange(0, video ? layout.segments[mapSegment_].frames - 1 : 0);
}

int AttentionView::canvasSide() const {
  const int w = heatCanvas_->width() - 2 * kMargin - kBarWidth - kBarLabels - 12;
  const int h = heatCanvas_->height() - 2 * kMargin - 18;
  return std::max(16, std::min(w, h));
}

QRectF AttentionView::heatmapRect() const {
  const int side = canvasSide();
  return QRectF(kMargin, kMargin + 18, side, side);
}

QRectF AttentionView::colorBarRect() const {
  const QRectF r = heatmapRect();
  return QRectF(r.right() + 12, r.top(), kBarWidth, r.height());
}

void AttentionView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  if (dirty_) requestSoon();
}

void AttentionView::requestSoon() {
  dirty_ = true;
  if (!isVisible()) return;  // hidden: nothing to show, so nothing to compute until shown
  // A burst of edits (typing, wheel steps) becomes one request; the running job goes stale now.
  latest_->store(++generation_);
  setBusy(true);
  debounce_->start();
}

void AttentionView::request() {
  dirty_ = false;
  const Scene& scene = model_->validScene();
  const std::size_t n = scene.layout.tokenCount();
  if (n == 0) return;
  AttentionRequest r;
  r.generation = ++generation_;
  r.scene = scene;
  // The selected text token is sent on its own: choosing another one must not reload q and k.
  r.scene.selectedText = 0;
  r.source.kind = sourceBox_->currentIndex() == 0   ? QkSourceSpec::Kind::Identical
                  : sourceBox_->currentIndex() == 1 ? QkSourceSpec::Kind::Random
                                                    : QkSourceSpec::Kind::Files;
  r.source.heads = headsSpin_->value();
  r.source.seed = static_cast<std::uint64_t>(seedSpin_->value());
  r.source.qPath = qPath_.toStdString();
  r.source.kPath = kPath_.toStdString();
  if (r.source.kind == QkSourceSpec::Kind::Files && (qPath_.isEmpty() || kPath_.isEmpty())) {
    setBusy(false);
    setMessage(tr("Choose q.npy and k.npy with Load q/k\xe2\x80\xa6"), false);
    return;
  }
  r.causal = causalBox_->isChecked();
  r.value = valueBox_->currentIndex() == 1 ? AttentionValue::Softmax : AttentionValue::Logits;
  // Fewer identical / random heads than the head shown: show the last one, not an error.
  if (r.source.kind != QkSourceSpec::Kind::Files) headSpin_->setMaximum(r.source.heads);
  r.head = headSpin_->value() - 1;
  r.backend = backendBox_->currentIndex() == 0   ? BackendChoice::Auto
              : backendBox_->currentIndex() == 1 ? BackendChoice::Cpu
                                                 : BackendChoice::Gpu;
  // Ask for what the view can show: one block per device pixel of the shown range.
  const std::size_t span = zoomSpan_ ? std::min(zoomSpan_, n) : n;
  const std::size_t begin = zoomSpan_ ? std::min(zoomBegin_, n - span) : 0;
  const auto pixels = static_cast<std::size_t>(
      std::max(16.0, std::floor(canvasSide() * heatCanvas_->devicePixelRatioF())));
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
  latest_->store(r.generation);
  setBusy(true);
  QMetaObject::invokeMethod(worker_, "compute", Qt::QueuedConnection,
                            Q_ARG(ropescope::ui::AttentionRequest, r));
}

void AttentionView::onProgress(quint64 generation, int percent, const QString& stage) {
  if (generation != generation_) return;
  progress_->setValue(percent);
  if (!stage.isEmpty()) progress_->setToolTip(stage);
}

void AttentionView::onCancelled(quint64 generation) {
  // The newer request (or the user's Cancel) already set the state; say it for the tests.
  emit jobDropped(generation);
}

void AttentionView::onFinished(const AttentionResult& result) {
  if (result.generation != generation_) return;  // stale: a newer request is on its way
  setBusy(false);
  if (!result.error.isEmpty()) {
    setMessage(result.error, true);
    return;
  }
  setMessage(note_, false);  // an earlier error is over; the GPU note still holds
  shown_ = result;
  tokens_ = requestTokens_;
  {
    QSignalBlocker block(headSpin_);
    headSpin_->setMaximum(std::max(1, result.heads));
  }
  rebuildImage();
  rebuildMap();
  emit resultShown();
}

void AttentionView::rebuildImage() {
  image_ = {};
  if (!shown_) return;
  const AttentionResult& r = *shown_;
  const std::size_t n = r.tokens;
  const float* data = nullptr;
  std::size_t w = 0, h = 0;
  if (r.request.exactRows) {
    // The exact rows cover the visible range only: take the visible columns of them.
    h = r.request.rowEnd - r.request.rowBegin;
    w = h;
    imageFirstToken_ = static_cast<double>(r.request.rowBegin);
    imageTokensPerPixel_ = 1.0;
    data = r.rows.data();
  } else {
    w = h = r.blocksPerSide;
    imageFirstToken_ = 0.0;
    imageTokensPerPixel_ = r.request.block;
    data = r.pooled.data();
  }
  if (!data || w == 0) return;
  const std::size_t stride = r.request.exactRows ? n : w;
  const std::size_t col0 = r.request.exactRows ? r.request.rowBegin : 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, positive = lo;
  for (std::size_t i = 0; i < h; ++i)
    for (std::size_t j = 0; j < w; ++j) {
      const double v = data[i * stride + col0 + j];
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      if (v > 0) positive = std::min(positive, v);
    }
  logActive_ = logBox_->isChecked() && r.request.value == AttentionValue::Softmax &&
               std::isfinite(positive) && hi > positive;
  min_ = logActive_ ? positive : std::isfinite(lo) ? lo : 0.0;
  max_ = std::isfinite(hi) ? hi : 1.0;
  image_ = QImage(static_cast<int>(w), static_cast<int>(h), QImage::Format_RGB32);
  for (std::size_t i = 0; i < h; ++i) {
    auto* line = reinterpret_cast<QRgb*>(image_.scanLine(static_cast<int>(i)));
    for (std::size_t j = 0; j < w; ++j) line[j] = colorFor(data[i * stride + col0 + j]).rgb();
  }
  heatCanvas_->update();
}

QColor AttentionView::maskedColor() const {
  return QColor(128, 128, 128);
}

double AttentionView::colorPosition(double value, double lo, double hi) const {
  if (logActive_) return value > 0 ? std::log(value / lo) / std::log(hi / lo) : 0.0;
  return hi > lo ? (value - lo) / (hi - lo) : 0.5;
}

double AttentionView::colorValue(double t, double lo, double hi) const {
  return logActive_ ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo);
}

QColor AttentionView::colorFor(double value) const {
  if (!std::isfinite(value)) return maskedColor();
  return viridis(colorPosition(value, min_, max_));
}

bool AttentionView::tokenAt(QPointF pos, std::size_t* row, std::size_t* col) const {
  if (!shown_) return false;
  const QRectF r = heatmapRect();
  if (!r.contains(pos)) return false;
  const std::size_t n = shown_->tokens;
  const std::size_t span = zoomSpan_ ? std::min(zoomSpan_, n) : n;
  const std::size_t begin = zoomSpan_ ? std::min(zoomBegin_, n - span) : 0;
  const auto at = [&](double frac) {
    return std::min(begin + static_cast<std::size_t>(frac * static_cast<double>(span)),
                    begin + span - 1);
  };
  *row = at((pos.y() - r.top()) / r.height());
  *col = at((pos.x() - r.left()) / r.width());
  return true;
}

double AttentionView::valueAt(QPointF pos) const {
  std::size_t i = 0, j = 0;
  if (!tokenAt(pos, &i, &j)) return std::numeric_limits<double>::quiet_NaN();
  const AttentionResult& r = *shown_;
  if (r.request.exactRows) {
    if (i < r.request.rowBegin || i >= r.request.rowEnd)
      return std::numeric_limits<double>::quiet_NaN();
    return r.rows[(i - r.request.rowBegin) * r.tokens + j];
  }
  const std::size_t b = static_cast<std::size_t>(r.request.block);
  return r.pooled[(i / b) * r.blocksPerSide + j / b];
}

QString AttentionView::tokenName(std::size_t token) const {
  if (token >= tokens_.size()) return tr("token %1").arg(token);
  const TokenInfo& t = tokens_[token];
  if (t.modality == Modality::Text) return tr("token %1 (text)").arg(token);
  QString cell = tr("row %1, col %2").arg(t.row).arg(t.col);
  if (t.modality == Modality::Video) cell = tr("t %1, ").arg(t.frame) + cell;
  return tr("token %1 (%2, segment %3, %4)")
      .arg(token)
      .arg(QString::fromUtf8(modalityName(t.modality)))
      .arg(t.segment + 1)
      .arg(cell);
}

QString AttentionView::describeAt(QPointF pos) const {
  std::size_t i = 0, j = 0;
  if (!tokenAt(pos, &i, &j)) return {};
  const double v = valueAt(pos);
  if (std::isnan(v)) return {};
  const AttentionResult& r = *shown_;
  const QString what = r.request.value == AttentionValue::Softmax ? tr("softmax") : tr("logit");
  QString text = tr("query %1\nkey %2\n").arg(tokenName(i), tokenName(j));
  const int b = r.request.exactRows ? 1 : r.request.block;
  if (b == 1) {
    text += tr("%1 = %2").arg(what, formatValue(v));
  } else {
    const std::size_t i0 = i / b * b, j0 = j / b * b;
    text += tr("%1, mean of the %2\xc3\x97%2 block (queries %3\xe2\x80\x93%4, keys "
               "%5\xe2\x80\x93%6) = %7\nzoom in for single tokens")
                .arg(what)
                .arg(b)
                .arg(i0)
                .arg(std::min(i0 + b, r.tokens) - 1)
                .arg(j0)
                .arg(std::min(j0 + b, r.tokens) - 1)
                .arg(formatValue(v));
  }
  return text + tr("\nhead %1").arg(r.request.head + 1);
}

void AttentionView::paintHeatmap(QPainter& p) {
  p.fillRect(heatCanvas_->rect(), palette().color(QPalette::Base));
  p.setPen(palette().color(QPalette::Text));
  const QRectF r = heatmapRect();
  if (!shown_ || image_.isNull()) {
    p.drawText(r, Qt::AlignCenter, busy_ ? tr("computing\xe2\x80\xa6") : tr("no attention yet"));
    return;
  }
  const AttentionResult& res = *shown_;
  const std::size_t n = res.tokens;
  const std::size_t span = zoomSpan_ ? std::min(zoomSpan_, n) : n;
  const std::size_t begin = zoomSpan_ ? std::min(zoomBegin_, n - span) : 0;
  // Nearest-neighbour: one block is one flat colour, as the value the tooltip reports.
  const QRectF source((begin - imageFirstToken_) / imageTokensPerPixel_,
                      (begin - imageFirstToken_) / imageTokensPerPixel_,
                      span / imageTokensPerPixel_, span / imageTokensPerPixel_);
  p.setRenderHint(QPainter::SmoothPixmapTransform, false);
  p.drawImage(r, image_, source);
  p.drawRect(r.adjusted(-0.5, -0.5, 0.5, 0.5));
  // Segment boundaries as ticks outside the map (left and top), so the text / picture blocks can
  // be read off without covering any value.
  std::size_t edge = 0;
  const auto& segments = res.request.scene.layout.segments;
  for (std::size_t s = 0; s + 1 < segments.size(); ++s) {
    edge += segments[s].tokenCount();
    if (edge <= begin || edge >= begin + span) continue;
    const double f = static_cast<double>(edge - begin) / static_cast<double>(span);
    const double x = r.left() + f * r.width(), y = r.top() + f * r.height();
    p.drawLine(QPointF(x, r.top() - 7), QPointF(x, r.top() - 1));
    p.drawLine(QPointF(r.left() - 7, y), QPointF(r.left() - 1, y));
  }

  const QString what = res.request.value == AttentionValue::Softmax ? tr("softmax") : tr("logits");
  const int block = res.request.exactRows ? 1 : res.request.block;
  QString title = tr("%1, head %2, tokens %3\xe2\x80\x93%4 (rows: queries, columns: keys)")
                      .arg(what)
                      .arg(res.request.head + 1)
                      .arg(begin)
                      .arg(begin + span - 1);
  if (block > 1) title += tr(", %1\xc3\x97%1 block means").arg(block);
  p.drawText(QRectF(kMargin, 0, heatCanvas_->width() - kMargin, 18),
             Qt::AlignLeft | Qt::AlignVCenter, title);

  const QRectF bar = colorBarRect();
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int k = 0; k <= 16; ++k) g.setColorAt(k / 16.0, viridis(k / 16.0));
  p.fillRect(bar, g);
  p.drawRect(bar);
  const QFontMetrics fm = p.fontMetrics();
  for (int k = 0; k <= 4; ++k) {
    const double t = k / 4.0;
    const double y = bar.bottom() - t * bar.height();
    p.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 4, y));
    const QString label = QString::number(colorValue(t, min_, max_), 'g', 4);
    p.drawText(QPointF(bar.right() + 6, y + fm.ascent() / 2.0 - 1), label);
  }
  // Masked logits are -inf (grey); masked probabilities are plain zeros and take the low end.
  if (res.request.causal && res.request.value == AttentionValue::Logits) {
    p.fillRect(QRectF(bar.left(), bar.bottom() + 8, kBarWidth, 10), maskedColor());
    p.drawText(QPointF(bar.right() + 6, bar.bottom() + 17), tr("masked"));
  }
}

void AttentionView::wheelHeatmap(QPointF pos, int delta) {
  if (!shown_ || delta == 0) return;
  const std::size_t n = shown_->tokens;
  const std::size_t span = zoomSpan_ ? std::min(zoomSpan_, n) : n;
  const std::size_t begin = zoomSpan_ ? std::min(zoomBegin_, n - span) : 0;
  const QRectF r = heatmapRect();
  // Keep the token under the cursor where it is (along the diagonal's axis of the cursor).
  const double frac = std::clamp((pos.x() - r.left()) / r.width(), 0.0, 1.0);
  const double anchor = begin + frac * span;
  const double factor = delta > 0 ? 0.5 : 2.0;
  const double next = std::max(8.0, span * factor);
  const double start = std::max(0.0, anchor - frac * next);
  setZoom(static_cast<std::size_t>(start), static_cast<std::size_t>(next));
}

void AttentionView::dragHeatmap(QPointF from, QPointF to) {
  if (!shown_ || !zoomSpan_) return;
  const double tokensPerPx = zoomSpan_ / heatmapRect().width();
  const double shift = -(to.x() - from.x() + to.y() - from.y()) * tokensPerPx;
  const double start = std::max(0.0, static_cast<double>(zoomBegin_) + shift);
  setZoom(static_cast<std::size_t>(start), zoomSpan_);
}

void AttentionView::clickHeatmap(QPointF pos) {
  // A click on a text query's row picks that text token: its map shows beside the heatmap.
  std::size_t i = 0, j = 0;
  if (!tokenAt(pos, &i, &j) || i >= tokens_.size()) return;
  if (tokens_[i].modality != Modality::Text) return;
  int textIndex = 0;
  for (std::size_t k = 0; k < i; ++k)
    if (tokens_[k].modality == Modality::Text) ++textIndex;
  model_->setSelectedText(textIndex);
}

void AttentionView::rebuildMap() {
  mapRows_ = mapCols_ = 0;
  mapValues_.clear();
  mapToken_ = -1;
  if (shown_ && mapSegment_ >= 0 && !shown_->textRow.empty() &&
      mapSegment_ < static_cast<int>(shown_->request.scene.layout.segments.size())) {
    const Segment& seg = shown_->request.scene.layout.segments[mapSegment_];
    if (seg.isVisual()) {
      mapRows_ = seg.rows;
      mapCols_ = seg.cols;
      mapToken_ = shown_->request.textToken;
      const int frame = seg.kind == SegmentKind::Video ? temporalSpin_->value() : 0;
      mapValues_.assign(std::size_t(mapRows_) * mapCols_, std::numeric_limits<double>::quiet_NaN());
      // The row's values placed on the block's grid by each token's own cell.
      for (std::size_t i = 0; i < tokens_.size() && i < shown_->textRow.size(); ++i) {
        const TokenInfo& t = tokens_[i];
        if (t.segment != mapSegment_ || t.modality == Modality::Text) continue;
        if (t.frame != frame && seg.kind == SegmentKind::Video) continue;
        if (t.row < 0 || t.row >= mapRows_ || t.col < 0 || t.col >= mapCols_) continue;
        mapValues_[std::size_t(t.row) * mapCols_ + t.col] = shown_->textRow[i];
      }
      double lo = std::numeric_limits<double>::infinity(), hi = -lo, positive = lo;
      for (double v : mapValues_)
        if (std::isfinite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
          if (v > 0) positive = std::min(positive, v);
        }
      mapLog_ = logActive_ && std::isfinite(positive) && hi > positive;
      mapMin_ = mapLog_ ? positive : std::isfinite(lo) ? lo : 0.0;
      mapMax_ = std::isfinite(hi) ? hi : 1.0;
      mapAllMasked_ = shown_->request.causal && mapToken_ >= 0 && !(hi > 0);
      if (mapPicture_.isNull() && seg.source.isPicture())
        mapPicture_ = resizedPictureFrame(seg.source, firstFrameOfPair(frame));
    }
  }
  if (mapToken_ >= 0 && mapAllMasked_) {
    mapCaption_->setText(tr("Text %1 comes before this block: causal masking hides it all")
                             .arg(tokenName(std::size_t(mapToken_))));
  } else if (mapToken_ >= 0) {
    const QString what =
        shown_->request.value == AttentionValue::Softmax ? tr("softmax") : tr("logits");
    mapCaption_->setText(tr("%1 of text %2 over this block: %3 \xe2\x80\x93 %4")
                             .arg(what, tokenName(std::size_t(mapToken_)))
                             .arg(QString::number(mapMin_, 'g', 4))
                             .arg(QString::number(mapMax_, 'g', 4)));
  } else {
    mapCaption_->setText(segmentBox_->count() == 0
                             ? tr("No visual block in the layout")
                             : tr("Click a text query's row to see its map over the block"));
  }
  mapCanvas_->update();
}

QColor AttentionView::mapColor(int row, int col) const {
  if (row < 0 || col < 0 || row >= mapRows_ || col >= mapCols_) return {};
  const double v = mapValues_[std::size_t(row) * mapCols_ + col];
  if (!std::isfinite(v) || mapAllMasked_) return maskedColor();
  if (mapLog_) return viridis(v > 0 ? std::log(v / mapMin_) / std::log(mapMax_ / mapMin_) : 0.0);
  return viridis(mapMax_ > mapMin_ ? (v - mapMin_) / (mapMax_ - mapMin_) : 0.5);
}

QRectF AttentionView::mapCellRect(int row, int col) const {
  if (mapRows_ <= 0 || mapCols_ <= 0) return {};
  // Room on the right for the map's colour bar and its labels.
  const QRectF area = QRectF(mapCanvas_->rect()).adjusted(4, 4, -72, -4);
  const double cell = std::min(area.width() / mapCols_, area.height() / mapRows_);
  return QRectF(area.left() + col * cell, area.top() + row * cell, cell, cell);
}

void AttentionView::paintMap(QPainter& p) {
  p.fillRect(mapCanvas_->rect(), palette().color(QPalette::Base));
  if (mapRows_ <= 0 || mapCols_ <= 0) return;
  const QRectF all = mapCellRect(0, 0).united(mapCellRect(mapRows_ - 1, mapCols_ - 1));
  // Over a real picture the heat is translucent, so the patch under each cell stays readable.
  const bool picture = !mapPicture_.isNull();
  if (picture) p.drawImage(all, mapPicture_);
  for (int r = 0; r < mapRows_; ++r)
    for (int c = 0; c < mapCols_; ++c) {
      QColor color = mapColor(r, c);
      if (picture) color.setAlpha(150);
      p.fillRect(mapCellRect(r, c), color);
    }
  p.setPen(palette().color(QPalette::Mid));
  p.drawRect(all);
  // The map has its own scale (this one row's range), so it gets its own colour bar.
  const QRectF bar(all.right() + 10, all.top(), 12, all.height());
  if (bar.right() + 50 > mapCanvas_->width() || mapAllMasked_) return;
  QLinearGradient g(bar.bottomLeft(), bar.topLeft());
  for (int k = 0; k <= 16; ++k) g.setColorAt(k / 16.0, viridis(k / 16.0));
  p.fillRect(bar, g);
  p.drawRect(bar);
  p.setPen(palette().color(QPalette::Text));
  const QFontMetrics fm = p.fontMetrics();
  p.drawText(QPointF(bar.right() + 4, bar.top() + fm.ascent()), QString::number(mapMax_, 'g', 4));
  p.drawText(QPointF(bar.right() + 4, bar.bottom()), QString::number(mapMin_, 'g', 4));
}

}  // namespace ropescope::ui
