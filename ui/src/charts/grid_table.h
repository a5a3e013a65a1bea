// A core ReportGrid (report_grid.h) shown as it is in a table widget, and written out as CSV: the
// Budget and Principles tabs show what core wrote, n/a with its reason as the tooltip, a mark
// (check or cross) on a verdict's cell.
#pragma once

#include <QString>

#include "ropescope/report_grid.h"

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableWidget;
class QWidget;

namespace ropescope::ui {

// The marks before a passed and a failed verdict: a check mark and a ballot x.
inline constexpr char16_t kPassMark = u'\u2713';
inline constexpr char16_t kFailMark = u'\u2717';

// The line at the top of a grid tab: a wrapping note (what the tab shows) and an "Export CSV..."
// button with `exportTip` at its right, named `prefix`Note and `prefix`Export.
struct GridTabHeader {
  QHBoxLayout* layout;
  QLabel* note;
  QPushButton* exportButton;
};
GridTabHeader makeGridTabHeader(const QString& prefix, const QString& exportTip);

// A compact, read-only table for a grid: one row per line, one column per grid column.
QTableWidget* makeGridTable(const QString& objectName);
// Fills `table` with `grid`: the line names as the row headers, the columns as the column headers.
void showGrid(QTableWidget* table, const ReportGrid& grid);
// A cell's text as the table shows it: a verdict's mark before the text.
QString gridCellText(const GridCell& cell);

// Asks for a .csv path (`name` the suggested file name) and writes the grids there atomically
// (atomic_file.h), one row per cell (gridTable); says what went wrong in a message box. False
// when cancelled or failed.
bool exportGridsCsv(QWidget* parent, const QString& name, const std::vector<ReportGrid>& grids);
// The CSV text exportGridsCsv writes: the grids' tables one after the other, one header.
std::string gridsCsv(const std::vector<ReportGrid>& grids);

}  // namespace ropescope::ui
