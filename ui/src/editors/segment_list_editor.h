// The layout as an editable list of segments (text runs, images, videos) plus its one-line
// spec form ("t5,i3x3,t2"); every edit hands a whole new Layout to the model.
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

#include "ropescope/layout.h"

class QLineEdit;
class QTableWidget;
class QToolButton;
class QLabel;

namespace ropescope::ui {

class SegmentListEditor : public QWidget {
  Q_OBJECT

 public:
  explicit SegmentListEditor(QWidget* parent = nullptr);

  // Shows the model's layout without emitting edited(). A refused layout (`table` is then the
  // last valid one) stays in the line as typed, and in the table where it has the table's
  // number of rows (else the table keeps the last valid segments).
  void showLayout(const Layout& layout, const Layout* table = nullptr);
  int rowCount() const;
  void setError(const QString& message);
  QString error() const;
  // The outcome of the last picture import (bad files), kept until the next import: unlike
  // setError() it does not say the scene is invalid, only that a file was not added.
  void setFileMessage(const QString& message);
  // How the layout line reads its items: the scene's (layoutContextOf), so a FAMILY: item is
  // written as the scene's rule set's release writes it, as in a scene file and the CLI.
  void setFileContext(const LayoutFileContext& files) { files_ = files; }
  QString fileMessage() const;

 signals:
  void edited(const ropescope::Layout& layout);
  void specRejected(const QString& message);
  // Picture files or folders dropped on the list.
  void filesDropped(const QStringList& paths);

 protected:
  void dragEnterEvent(QDragEnterEvent* e) override;
  void dropEvent(QDropEvent* e) override;

 private:
  void rebuildRows(const Layout& layout);
  void fillRow(int row, const Segment& segment);
  Layout layoutFromRows() const;
  void emitFromRows();
  void addSegment(const Segment& segment);
  void moveSelected(int delta);
  void removeSelected();

  // The model's layout as last shown: a row edit starts from its segment, so fields the table
  // does not show (e.g. where a grid came from) survive. Replaced on every showLayout().
  Layout shown_;
  LayoutFileContext files_;
  QTableWidget* table_ = nullptr;
  QLineEdit* spec_ = nullptr;
  Layout fileMessageLayout_;             // the layout shown when the file message was set
  QToolButton* firstButton_ = nullptr;   // "+ Text": where Tab goes after the table
  QToolButton* removeButton_ = nullptr;  // off for the only segment: a layout needs one
  QLabel* error_ = nullptr;
  QLabel* fileMessage_ = nullptr;
  std::vector<bool> fileRows_;  // which rows show a file segment (a name, not editable sizes)
};

}  // namespace ropescope::ui
