// The attention preview's controls: what is shown (logits or softmax, causal, log colours, the
// head), where q and k come from (identical, random, .npy files) and the backend.
#pragma once

#include <QString>
#include <QWidget>

#include "jobs/attention_job.h"

class QCheckBox;
class QComboBox;
class QPushButton;
class QSpinBox;

namespace ropescope::ui {

class AttentionControls : public QWidget {
  Q_OBJECT

 public:
  explicit AttentionControls(QWidget* parent = nullptr);

  // As the user sets them (the view's tests use these too).
  void setSoftmax(bool on);
  void setCausal(bool on);
  void setLogScale(bool on);
  void setHead(int head);  // 0-based
  void setIdenticalQk(int heads);
  void setRandomQk(int heads, quint64 seed);
  void setQkFiles(const QString& qPath, const QString& kPath);
  void setBackendChoice(BackendChoice choice);

  // Log colours asked for (they apply to softmax only: logits are always linear).
  bool logScale() const;
  // q/k from files that are not chosen yet: nothing to compute.
  bool missingFiles() const;
  // Fills the request's q/k source, value, mask, head and backend. Fewer identical / random
  // heads than the head shown: the last one is shown, not an error.
  void fill(AttentionRequest& r);
  // The heads of the shown result bound the head box.
  void showHeads(int heads);

 signals:
  // A control that changes what is computed.
  void requestChanged();
  // Only the colours changed (log colours on or off).
  void colorsChanged();

 private:
  void refreshSourceControls();

  QComboBox* valueBox_ = nullptr;
  QCheckBox* causalBox_ = nullptr;
  QCheckBox* logBox_ = nullptr;
  QSpinBox* headSpin_ = nullptr;
  QComboBox* sourceBox_ = nullptr;
  QSpinBox* headsSpin_ = nullptr;
  QSpinBox* seedSpin_ = nullptr;
  QPushButton* loadButton_ = nullptr;
  QComboBox* backendBox_ = nullptr;
  QString qPath_, kPath_;
};

}  // namespace ropescope::ui
