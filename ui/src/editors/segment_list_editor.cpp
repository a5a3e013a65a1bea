#include "editors/segment_list_editor.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include "editors/open_spin_box.h"
#include "ropescope/errors.h"

namespace ropescope::ui {

namespace {

enum Column { KindColumn = 0, FramesColumn, RowsColumn, ColsColumn, ColumnCount };

QSpinBox* spinAt(const QTableWidget* table, int row, int column) {
  return qobject_cast<QSpinBox*>(table->cellWidget(row, column));
}

QComboBox* kindAt(const QTableWidget* table, int row) {
  return qobject_cast<QComboBox*>(table->cellWidget(row, KindColumn));
}

// "img castle.png", "vid frames/", "aud chirp.wav": what a file row shows instead of the kind
// selector.
QString fileLabel(const Segment& s) {
  const QFileInfo info(QString::fromStdString(s.source.path));
  QString name = info.fileName();
  if (s.source.kind == SourceKind::Folder) name = info.fileName() + QLatin1Char('/');
  if (s.source.kind == SourceKind::FrameList)
    name = QObject::tr("%1 frames").arg(s.source.frames.size());
  return (s.kind == SegmentKind::Image   ? QStringLiteral("img ")
          : s.kind == SegmentKind::Audio ? QStringLiteral("aud ")
                                         : QStringLiteral("vid ")) +
         name;
}

QStringList localPaths(const QMimeData* mime) {
  QStringList paths;
  if (!mime || !mime->hasUrls()) return paths;
  for (const QUrl& url : mime->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  return paths;
}

}  // namespace

SegmentListEditor::SegmentListEditor(QWidget* parent) : QWidget(parent) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);

  spec_ = new QLineEdit(this);
  spec_->setObjectName(QStringLiteral("layoutSpec"));
  spec_->setToolTip(
      tr("The layout in one line: t<N> text, i<H>x<W> image, v<T>x<H>x<W> video, a<N> audio "
         "tokens, img:PATH a picture, vid:FOLDER/ or vid:A.png+B.png or vid:ANIM.gif a video, "
         "aud:PATH a sound file; press Enter to apply"));
  spec_->setPlaceholderText(QStringLiteral("t5,i3x3,t2"));
  column->addWidget(spec_);
  connect(spec_, &QLineEdit::returnPressed, this, [this] {
    try {
      const Layout layout = parseLayoutSpec(spec_->text().toStdString(), files_);
      spec_->setModified(false);  // handed over: the scene's layout shows here from now on
      emit edited(layout);
    } catch (const InputError& e) {
      emit specRejected(QString::fromStdString(e.what()));
    }
  });

  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("segments"));
  table_->setHorizontalHeaderLabels({tr("Kind"), tr("Len / T"), tr("Rows"), tr("Cols")});
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  // A file row's name needs the room more than the numbers do.
  table_->horizontalHeader()->setSectionResizeMode(KindColumn, QHeaderView::Interactive);
  table_->setColumnWidth(KindColumn, 118);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  // Tab leaves the table (its own Tab walked the cells without end); the cells come in the tab
  // order between the line and the buttons (rebuildRows).
  table_->setTabKeyNavigation(false);
  table_->setMinimumHeight(130);
  table_->setMaximumHeight(190);
  column->addWidget(table_);

  auto* buttons = new QHBoxLayout;
  auto button = [this, buttons](const QString& text, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    buttons->addWidget(b);
    connect(b, &QToolButton::clicked, this, slot);
    return b;
  };
  firstButton_ =
      button(tr("+ Text"), tr("Append a text run"), [this] { addSegment(Segment::text(4)); });
  button(tr("+ Image"), tr("Append an image grid"), [this] { addSegment(Segment::image(4, 4)); });
  button(tr("+ Video"), tr("Append a video grid"), [this] { addSegment(Segment::video(2, 4, 4)); });
  button(tr("+ Audio"), tr("Append a run of audio tokens (40 tokens: 1.6 s of Qwen2.5-Omni)"),
         [this] { addSegment(Segment::audio(40)); });
  buttons->addStretch(1);
  button(QStringLiteral("▲"), tr("Move the selected segment up"), [this] { moveSelected(-1); });
  button(QStringLiteral("▼"), tr("Move the selected segment down"), [this] { moveSelected(1); });
  removeButton_ =
      button(tr("Remove"), tr("Remove the selected segment"), [this] { removeSelected(); });
  column->addLayout(buttons);

  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("error"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #d03030;"));
  error_->hide();
  column->addWidget(error_);

  fileMessage_ = new QLabel(this);
  fileMessage_->setObjectName(QStringLiteral("fileMessage"));
  fileMessage_->setWordWrap(true);
  fileMessage_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fileMessage_->setStyleSheet(QStringLiteral("color: #e07020;"));
  fileMessage_->hide();
  column->addWidget(fileMessage_);
  setAcceptDrops(true);
}

void SegmentListEditor::setFileMessage(const QString& message) {
  fileMessageLayout_ = shown_;
  fileMessage_->setText(message);
  fileMessage_->setVisible(!message.isEmpty());
}

QString SegmentListEditor::fileMessage() const {
  return fileMessage_->isHidden() ? QString() : fileMessage_->text();
}

void SegmentListEditor::dragEnterEvent(QDragEnterEvent* e) {
  if (!localPaths(e->mimeData()).isEmpty()) e->acceptProposedAction();
}

void SegmentListEditor::dropEvent(QDropEvent* e) {
  const QStringList paths = localPaths(e->mimeData());
  if (paths.isEmpty()) return;
  e->acceptProposedAction();
  emit filesDropped(paths);
}

int SegmentListEditor::rowCount() const {
  return table_->rowCount();
}

void SegmentListEditor::setError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

QString SegmentListEditor::error() const {
  return error_->isVisible() ? error_->text() : QString();
}

void SegmentListEditor::showLayout(const Layout& typed, const Layout* table) {
  // A refused file's message is about the layout it was refused for: another layout (typed, a
  // preset, a scene opened) takes it away.
  if (!fileMessage_->isHidden() && typed != fileMessageLayout_) setFileMessage({});
  // Text being typed stays; anything else shows the scene's layout, also with the cursor in the
  // line (a preset chosen after Enter left the line on the old layout).
  if (!spec_->hasFocus() || !spec_->isModified())
    spec_->setText(QString::fromStdString(formatLayoutSpec(typed)));
  // A refused layout with the table's rows (a count typed out of range in a cell, or in the line)
  // is shown as typed there too: the cell went back to the valid value while the line and the
  // message said otherwise, and the next edit of another row brought the old value back. One
  // of another shape keeps the last valid rows.
  const bool sameRows = typed.segments.size() == static_cast<std::size_t>(table_->rowCount());
  const Layout& layout = table && !sameRows ? *table : typed;
  shown_ = layout;
  // Removing the only segment left an empty layout, refused, under a row that stayed and came
  // back with the next edit: the button is off instead, and says why.
  const bool removable = layout.segments.size() > 1;
  removeButton_->setEnabled(removable);
  removeButton_->setToolTip(removable ? tr("Remove the selected segment")
                                      : tr("A layout needs at least one segment: add another "
                                           "before removing this one"));
  std::vector<bool> fileRows;
  for (const Segment& seg : layout.segments) fileRows.push_back(seg.source.isFile());
  if (fileRows != fileRows_) {
    rebuildRows(layout);
    return;
  }
  for (int r = 0; r < table_->rowCount(); ++r) fillRow(r, layout.segments[r]);
}

void SegmentListEditor::rebuildRows(const Layout& layout) {
  const int current = table_->currentRow();
  table_->setRowCount(0);
  table_->setRowCount(static_cast<int>(layout.segments.size()));
  fileRows_.clear();
  for (const Segment& seg : layout.segments) fileRows_.push_back(seg.source.isFile());
  for (int r = 0; r < table_->rowCount(); ++r) {
    const Segment& seg = layout.segments[r];
    if (seg.source.isFile()) {
      // A file's grid comes from smart_resize: shown, not edited (remove or reorder it).
      auto* name = new QLabel(table_);  // its text and tooltip: fillRow
      name->setContentsMargins(4, 0, 4, 0);
      table_->setCellWidget(r, KindColumn, name);
      for (int c = FramesColumn; c < ColumnCount; ++c) {
        auto* spin = new QSpinBox(table_);
        spin->setRange(0, static_cast<int>(kMaxLayoutTokens));
        spin->setEnabled(false);
        spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
        table_->setCellWidget(r, c, spin);
      }
      fillRow(r, seg);
      continue;
    }
    auto* kind = new QComboBox(table_);
    // In SegmentKind order: the index is the kind.
    kind->addItems({tr("text"), tr("image"), tr("video"), tr("audio")});
    table_->setCellWidget(r, KindColumn, kind);
    connect(kind, &QComboBox::currentIndexChanged, this, [this, kind](int k) {
      // A row switched to another kind gets usable sizes for it instead of zeros.
      for (int row = 0; row < table_->rowCount(); ++row) {
        if (kindAt(table_, row) != kind) continue;
        Segment s = k == 0   ? Segment::text(4)
                    : k == 1 ? Segment::image(4, 4)
                    : k == 2 ? Segment::video(2, 4, 4)
                             : Segment::audio(40);
        fillRow(row, s);
      }
      emitFromRows();
    });
    for (int c = FramesColumn; c < ColumnCount; ++c) {
      auto* spin = new OpenIntSpinBox(table_);
      // The arrows keep to 1..max; a number typed outside (0, or past the maximum) goes
      // through, so that the core's message about it shows beside the list.
      spin->setAcceptedRange(1, static_cast<int>(kMaxLayoutTokens));
      spin->setKeyboardTracking(false);
      table_->setCellWidget(r, c, spin);
      connect(spin, &QSpinBox::valueChanged, this, [this] { emitFromRows(); });
    }
    fillRow(r, layout.segments[r]);
  }
  if (current >= 0 && current < table_->rowCount()) table_->selectRow(current);
  // The cells are made after the buttons: without this Tab went from the last cell elsewhere.
  QWidget* previous = table_;
  QWidget::setTabOrder(spec_, table_);
  for (int r = 0; r < table_->rowCount(); ++r)
    for (int c = 0; c < ColumnCount; ++c)
      if (QWidget* cell = table_->cellWidget(r, c); cell && (cell->focusPolicy() & Qt::TabFocus)) {
        QWidget::setTabOrder(previous, cell);
        previous = cell;
      }
  QWidget::setTabOrder(previous, firstButton_);
}

void SegmentListEditor::fillRow(int row, const Segment& s) {
  QComboBox* kind = kindAt(table_, row);
  QSpinBox* a = spinAt(table_, row, FramesColumn);
  QSpinBox* rows = spinAt(table_, row, RowsColumn);
  QSpinBox* cols = spinAt(table_, row, ColsColumn);
  const QSignalBlocker b1(a), b2(rows), b3(cols);
  // Text and audio runs: a length; pictures: frames x rows x cols.
  const bool run = s.kind == SegmentKind::Text || s.kind == SegmentKind::Audio;
  if (!kind) {  // a file row: its file's name and sizes
    if (auto* name = qobject_cast<QLabel*>(table_->cellWidget(row, KindColumn))) {
      name->setText(fileLabel(s));  // another file can take the row (img: -> aud:)
      name->setToolTip(QString::fromStdString(s.source.path));
    }
    a->setValue(run ? s.length : s.frames);
    rows->setValue(s.rows);
    cols->setValue(s.cols);
    return;
  }
  const QSignalBlocker b0(kind);
  // Text runs name their role: a model's special tokens and frame timestamps (processor output).
  const bool textRow = s.kind == SegmentKind::Text;
  kind->setItemText(0, !textRow || s.role == TextRole::Plain ? tr("text")
                       : s.role == TextRole::Special         ? tr("special")
                                                             : tr("timestamp"));
  kind->setToolTip(textRow && s.role == TextRole::Special ? tr("Special tokens of the model "
                                                               "(vision start/end, ...)")
                   : textRow && s.role == TextRole::Timestamp
                       ? tr("Timestamp text of a video frame")
                       : QString());
  kind->setCurrentIndex(static_cast<int>(s.kind));
  a->setValue(run ? s.length : s.frames);
  rows->setValue(s.rows);
  cols->setValue(s.cols);
  a->setEnabled(s.kind != SegmentKind::Image);
  rows->setEnabled(!run);
  cols->setEnabled(!run);
}

Layout SegmentListEditor::layoutFromRows() const {
  Layout layout;
  for (int r = 0; r < table_->rowCount(); ++r) {
    if (!kindAt(table_, r)) {  // a file row is kept as the model had it
      if (r < static_cast<int>(shown_.segments.size()))
        layout.segments.push_back(shown_.segments[r]);
      continue;
    }
    const auto kind = static_cast<SegmentKind>(kindAt(table_, r)->currentIndex());
    const int a = spinAt(table_, r, FramesColumn)->value();
    const int rows = spinAt(table_, r, RowsColumn)->value();
    const int cols = spinAt(table_, r, ColsColumn)->value();
    Segment s = r < static_cast<int>(shown_.segments.size()) ? shown_.segments[r] : Segment{};
    switch (kind) {
      case SegmentKind::Text:
        if (s.kind != kind) s = Segment::text(a);
        s.length = a;
        break;
      case SegmentKind::Image:
        if (s.kind != kind) s = Segment::image(rows, cols);
        s.rows = rows;
        s.cols = cols;
        break;
      case SegmentKind::Video:
        if (s.kind != kind) s = Segment::video(a, rows, cols);
        s.frames = a;
        s.rows = rows;
        s.cols = cols;
        break;
      case SegmentKind::Audio:
        if (s.kind != kind) s = Segment::audio(a);
        s.length = a;
        break;
    }
    layout.segments.push_back(s);
  }
  return layout;
}

void SegmentListEditor::emitFromRows() {
  emit edited(layoutFromRows());
}

void SegmentListEditor::addSegment(const Segment& segment) {
  Layout layout = layoutFromRows();
  layout.segments.push_back(segment);
  emit edited(layout);
  table_->selectRow(static_cast<int>(layout.segments.size()) - 1);
}

void SegmentListEditor::moveSelected(int delta) {
  const int row = table_->currentRow();
  Layout layout = layoutFromRows();
  const int target = row + delta;
  if (row < 0 || target < 0 || target >= static_cast<int>(layout.segments.size())) return;
  std::swap(layout.segments[row], layout.segments[target]);
  emit edited(layout);
  table_->selectRow(target);
}

void SegmentListEditor::removeSelected() {
  const int row = table_->currentRow();
  Layout layout = layoutFromRows();
  if (row < 0 || row >= static_cast<int>(layout.segments.size())) return;
  layout.segments.erase(layout.segments.begin() + row);
  emit edited(layout);
}

}  // namespace ropescope::ui
