#include "shell/background_progress.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QShortcut>
#include <QTimer>
#include <QToolButton>

#include "model/scene_model.h"

namespace ropescope::ui {

BackgroundProgress::BackgroundProgress(SceneModel* model, QWidget* window)
    : model_(model),
      task_(new QLabel),
      bar_(new QProgressBar),
      cancel_(new QToolButton),
      escape_(new QShortcut(QKeySequence(Qt::Key_Escape), window)),
      reveal_(new QTimer(this)) {
  setObjectName(QStringLiteral("backgroundProgress"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  task_->setObjectName(QStringLiteral("backgroundTask"));
  bar_->setObjectName(QStringLiteral("backgroundBar"));
  bar_->setRange(0, 100);
  bar_->setMaximumWidth(160);
  cancel_->setObjectName(QStringLiteral("backgroundCancel"));
  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Stop the background computation (Esc); the next edit computes again"));
  row->addWidget(task_);
  row->addWidget(bar_);
  row->addWidget(cancel_);
  // Esc belongs to whatever else uses it (a popup, the tour) while nothing runs.
  escape_->setEnabled(false);
  reveal_->setSingleShot(true);
  reveal_->setInterval(kShowAfterMs);
  connect(reveal_, &QTimer::timeout, this, [this] { setVisible(model_->backgroundBusy()); });
  connect(cancel_, &QToolButton::clicked, model_, &SceneModel::cancelBackground);
  connect(escape_, &QShortcut::activated, model_, &SceneModel::cancelBackground);
  connect(model_, &SceneModel::changed, this, &BackgroundProgress::refresh);
  connect(model_, &SceneModel::biasChanged, this, &BackgroundProgress::refresh);
  connect(model_, &SceneModel::summariesChanged, this, &BackgroundProgress::refresh);
  connect(model_, &SceneModel::progressChanged, this, &BackgroundProgress::refresh);
  hide();
}

QString BackgroundProgress::taskText() const {
  return task_->text();
}

void BackgroundProgress::refresh() {
  const bool busy = model_->backgroundBusy();
  cancel_->setEnabled(busy);
  escape_->setEnabled(busy);
  if (!busy) {
    reveal_->stop();
    task_->clear();
    hide();
    return;
  }
  const SceneModel::BackgroundProgress p = model_->backgroundProgress();
  task_->setText(p.task + QChar(0x2026));  // …
  if (p.fraction < 0) {
    bar_->setRange(0, 0);  // busy, no fraction known
  } else {
    bar_->setRange(0, 100);
    bar_->setValue(static_cast<int>(p.fraction * 100.0 + 0.5));
  }
  if (isVisible()) return;
  if (atOnce_)
    show();
  else if (!reveal_->isActive())
    reveal_->start();
}

}  // namespace ropescope::ui
