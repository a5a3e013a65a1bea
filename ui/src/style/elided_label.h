// A one-line label that shortens its text with "…" to the room it has and shows the whole text
// as its tooltip when it is shortened: a long status line was cut mid-word at 1366 pixels.
#pragma once

#include <QLabel>
#include <QString>

namespace ropescope::ui {

class ElidedLabel : public QLabel {
 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  void setFullText(const QString& text);
  const QString& fullText() const { return full_; }
  QSize minimumSizeHint() const override;  // narrow: the layout may give it less than its text
  QSize sizeHint() const override;         // the whole text's size

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void elide();
  QString full_;
};

}  // namespace ropescope::ui
