#include "attention/attention_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <limits>

#include "platform/file_dialogs.h"
#include "ropescope/attention.h"

namespace ropescope::ui {

AttentionControls::AttentionControls(QWidget* parent) : QWidget(parent) {
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
  headsSpin_->setRange(kMinQkHeads, kMaxQkHeads);
  headsSpin_->setToolTip(tr("heads of identical / random q and k"));
  seedSpin_ = new QSpinBox;
  seedSpin_->setRange(0, std::numeric_limits<int>::max());
  seedSpin_->setToolTip(tr("seed of the random q and k"));
  loadButton_ = new QPushButton(tr("Load q/k\xe2\x80\xa6"));
  loadButton_->setToolTip(tr("Pre-RoPE q and k as .npy: [N, d] or [heads, N, d]"));
  backendBox_ = new QComboBox;
  backendBox_->addItems({tr("auto"), tr("cpu"), tr("gpu")});
  backendBox_->setToolTip(tr("auto: the GPU (OpenGL 4.3 compute) if it can be had, else the CPU"));

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  int c = 0;
  auto add = [&](const QString& label, QWidget* w, int row) {
    if (!label.isEmpty()) grid->addWidget(new QLabel(label), row, c++);
    grid->addWidget(w, row, c++);
  };
  add(tr("Show"), valueBox_, 0);
  add({}, causalBox_, 0);
  add({}, logBox_, 0);
  logBox_->setEnabled(false);
  add(tr("Head"), headSpin_, 0);
  add(tr("Backend"), backendBox_, 0);
  grid->setColumnStretch(c, 1);
  c = 0;
  add(tr("q/k"), sourceBox_, 1);
  add(tr("heads"), headsSpin_, 1);
  add(tr("seed"), seedSpin_, 1);
  add({}, loadButton_, 1);

  connect(valueBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
    logBox_->setEnabled(i == 1);  // logits can be negative: always linear
    emit requestChanged();
  });
  connect(causalBox_, &QCheckBox::toggled, this, &AttentionControls::requestChanged);
  connect(logBox_, &QCheckBox::toggled, this, &AttentionControls::colorsChanged);
  connect(headSpin_, &QSpinBox::valueChanged, this, &AttentionControls::requestChanged);
  connect(headsSpin_, &QSpinBox::valueChanged, this, &AttentionControls::requestChanged);
  connect(seedSpin_, &QSpinBox::valueChanged, this, &AttentionControls::requestChanged);
  connect(backendBox_, &QComboBox::currentIndexChanged, this, &AttentionControls::requestChanged);
  connect(sourceBox_, &QComboBox::currentIndexChanged, this, [this] {
    refreshSourceControls();
    emit requestChanged();
  });
  connect(loadButton_, &QPushButton::clicked, this, [this] {
    // k starts where q was found (the last folder of arrays).
    const QString q =
        askOpenFile(this, FileKind::Arrays, tr("q before RoPE (.npy)"), tr("NumPy arrays (*.npy)"));
    if (q.isEmpty()) return;
    const QString k =
        askOpenFile(this, FileKind::Arrays, tr("k before RoPE (.npy)"), tr("NumPy arrays (*.npy)"));
    if (!k.isEmpty()) setQkFiles(q, k);
  });
  refreshSourceControls();
}

void AttentionControls::setSoftmax(bool on) {
  valueBox_->setCurrentIndex(on ? 1 : 0);
}
void AttentionControls::setCausal(bool on) {
  causalBox_->setChecked(on);
}
void AttentionControls::setLogScale(bool on) {
  logBox_->setChecked(on);
}
void AttentionControls::setHead(int head) {
  headSpin_->setMaximum(std::max(headSpin_->maximum(), head + 1));
  headSpin_->setValue(head + 1);
}
void AttentionControls::setIdenticalQk(int heads) {
  headsSpin_->setValue(heads);
  sourceBox_->setCurrentIndex(0);
  emit requestChanged();
}
void AttentionControls::setRandomQk(int heads, quint64 seed) {
  headsSpin_->setValue(heads);
  seedSpin_->setValue(static_cast<int>(seed));
  sourceBox_->setCurrentIndex(1);
  emit requestChanged();
}
void AttentionControls::setQkFiles(const QString& qPath, const QString& kPath) {
  qPath_ = qPath;
  kPath_ = kPath;
  sourceBox_->setCurrentIndex(2);
  refreshSourceControls();
  emit requestChanged();
}
void AttentionControls::setBackendChoice(BackendChoice choice) {
  backendBox_->setCurrentIndex(choice == BackendChoice::Auto  ? 0
                               : choice == BackendChoice::Cpu ? 1
                                                              : 2);
}

bool AttentionControls::logScale() const {
  return logBox_->isChecked();
}

bool AttentionControls::missingFiles() const {
  return sourceBox_->currentIndex() == 2 && (qPath_.isEmpty() || kPath_.isEmpty());
}

void AttentionControls::fill(AttentionRequest& r) {
  r.source.kind = sourceBox_->currentIndex() == 0   ? QkSourceSpec::Kind::Identical
                  : sourceBox_->currentIndex() == 1 ? QkSourceSpec::Kind::Random
                                                    : QkSourceSpec::Kind::Files;
  r.source.heads = headsSpin_->value();
  r.source.seed = static_cast<std::uint64_t>(seedSpin_->value());
  r.source.qPath = qPath_.toStdString();
  r.source.kPath = kPath_.toStdString();
  r.causal = causalBox_->isChecked();
  r.value = valueBox_->currentIndex() == 1 ? AttentionValue::Softmax : AttentionValue::Logits;
  if (r.source.kind != QkSourceSpec::Kind::Files) headSpin_->setMaximum(r.source.heads);
  r.head = headSpin_->value() - 1;
  r.backend = backendBox_->currentIndex() == 0   ? BackendChoice::Auto
              : backendBox_->currentIndex() == 1 ? BackendChoice::Cpu
                                                 : BackendChoice::Gpu;
}

void AttentionControls::showHeads(int heads) {
  QSignalBlocker block(headSpin_);
  headSpin_->setMaximum(std::max(1, heads));
}

void AttentionControls::refreshSourceControls() {
  const int kind = sourceBox_->currentIndex();
  headsSpin_->setEnabled(kind != 2);
  seedSpin_->setEnabled(kind == 1);
  if (kind == 2 && !qPath_.isEmpty())
    sourceBox_->setToolTip(tr("q: %1\nk: %2").arg(qPath_, kPath_));
  else
    sourceBox_->setToolTip({});
}

}  // namespace ropescope::ui
