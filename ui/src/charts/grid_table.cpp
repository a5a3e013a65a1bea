// A core ReportGrid in a table widget, and its CSV export (grid_table.h).
#include "charts/grid_table.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableWidget>

#include "platform/file_dialogs.h"
#include "ropescope/atomic_file.h"

namespace ropescope::ui {

GridTabHeader makeGridTabHeader(const QString& prefix, const QString& exportTip) {
  GridTabHeader h;
  h.layout = new QHBoxLayout;
  h.note = new QLabel;
  h.note->setObjectName(prefix + QStringLiteral("Note"));
  h.note->setWordWrap(true);
  h.layout->addWidget(h.note, 1);
  h.exportButton =
      new QPushButton(QCoreApplication::translate("GridTable", "Export CSV\xe2\x80\xa6"));
  h.exportButton->setObjectName(prefix + QStringLiteral("Export"));
  h.exportButton->setToolTip(exportTip);
  h.layout->addWidget(h.exportButton, 0, Qt::AlignTop);
  return h;
}

QTableWidget* makeGridTable(const QString& objectName) {
  auto* table = new QTableWidget;
  table->setObjectName(objectName);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionMode(QAbstractItemView::ContiguousSelection);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  table->setWordWrap(false);
  return table;
}

QString gridCellText(const GridCell& cell) {
  const QString text = QString::fromStdString(cell.text);
  if (cell.verdict == "pass") return QString(kPassMark) + u' ' + text;
  if (cell.verdict == "fail") return QString(kFailMark) + u' ' + text;
  return text;
}

void showGrid(QTableWidget* table, const ReportGrid& grid) {
  table->clear();
  table->setRowCount(static_cast<int>(grid.lines.size()));
  table->setColumnCount(static_cast<int>(grid.columns.size()));
  QStringList columns, rows;
  for (const std::string& c : grid.columns) columns << QString::fromStdString(c);
  for (const GridLine& l : grid.lines) rows << QString::fromStdString(l.name);
  table->setHorizontalHeaderLabels(columns);
  table->setVerticalHeaderLabels(rows);
  for (int r = 0; r < static_cast<int>(grid.lines.size()); ++r) {
    const GridLine& line = grid.lines[static_cast<std::size_t>(r)];
    if (QTableWidgetItem* header = table->verticalHeaderItem(r)) {
      QFont f = header->font();
      f.setBold(line.verdict);
      header->setFont(f);
    }
    for (int c = 0; c < static_cast<int>(line.cells.size()) && c < table->columnCount(); ++c) {
      const GridCell& cell = line.cells[static_cast<std::size_t>(c)];
      auto* item = new QTableWidgetItem(gridCellText(cell));
      item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
      // n/a says why; a value says what it is or where it came from.
      item->setToolTip(QString::fromStdString(cell.undefined.empty() ? cell.note : cell.undefined));
      if (cell.verdict == "pass") item->setForeground(QColor(60, 170, 80));
      if (cell.verdict == "fail") item->setForeground(QColor(220, 70, 70));
      table->setItem(r, c, item);
    }
  }
}

std::string gridsCsv(const std::vector<ReportGrid>& grids) {
  Table all;
  for (const ReportGrid& g : grids) {
    Table t = gridTable(g);
    if (all.columns.empty()) all.columns = t.columns;
    for (auto& row : t.rows) all.rows.push_back(std::move(row));
  }
  if (all.columns.empty()) all.columns = gridTable({}).columns;
  return tableReport(all, TableFormat::Csv);
}

bool exportGridsCsv(QWidget* parent, const QString& name, const std::vector<ReportGrid>& grids) {
  const QString path = askSaveFile(parent, FileKind::Figure, QObject::tr("Export table as CSV"),
                                   name, QObject::tr("CSV data (*.csv)"));
  if (path.isEmpty()) return false;
  try {
    writeFileAtomically(path.toStdString(), gridsCsv(grids));
    return true;
  } catch (const std::exception& e) {
    QMessageBox::warning(parent, QObject::tr("Export table"), QString::fromStdString(e.what()));
    return false;
  }
}

}  // namespace ropescope::ui
