// The segment list: keyboard order through its cells, and file rows that name their own file.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

#include "editors/segment_list_editor.h"
#include "ropescope/layout.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

QToolButton* button(const SegmentListEditor& list, const QString& text) {
  for (QToolButton* b : list.findChildren<QToolButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

}  // namespace

// A user's-eye report: Tab from the layout line entered the table and cycled through its cells
// for ever; the buttons and the rest of the panel could not be reached from the keyboard. Tab
// now walks the line, each editable cell once, then "+ Text"; Shift+Tab walks back.
TEST(SegmentList, TabWalksTheCellsOnceAndLeavesTheTable) {
  SegmentListEditor list;
  list.showLayout(parseLayoutSpec("t4,i6x6,t8"));
  list.show();
  list.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&list));
  auto* line = list.findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  auto* table = list.findChild<QTableWidget*>(QStringLiteral("segments"));
  QToolButton* addText = button(list, QStringLiteral("+ Text"));
  ASSERT_NE(line, nullptr);
  ASSERT_NE(table, nullptr);
  ASSERT_NE(addText, nullptr);
  line->setFocus();
  ASSERT_TRUE(line->hasFocus());
  // The focus stops: the table itself, then per row its kind and its enabled number boxes.
  int stops = 0;
  for (int r = 0; r < table->rowCount(); ++r)
    for (int c = 0; c < table->columnCount(); ++c)
      if (QWidget* w = table->cellWidget(r, c); w && w->isEnabled()) ++stops;
  ASSERT_GT(stops, 3);
  std::vector<QWidget*> seen;
  for (int i = 0; i < stops + 1; ++i) {
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
    seen.push_back(QApplication::focusWidget());
  }
  EXPECT_EQ(seen.back(), addText) << "Tab did not leave the table after " << stops + 1;
  for (std::size_t i = 0; i + 1 < seen.size(); ++i)
    EXPECT_TRUE(seen[i] == table || table->isAncestorOf(seen[i])) << "stop " << i;
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
  EXPECT_TRUE(table->isAncestorOf(QApplication::focusWidget()));
}

// The same report: a picture row replaced by a sound in the same row kept the picture's name.
TEST(SegmentList, AFileRowNamesTheFileNowInIt) {
  SegmentListEditor list;
  const auto fileName = [&] {
    auto* table = list.findChild<QTableWidget*>(QStringLiteral("segments"));
    auto* label = qobject_cast<QLabel*>(table->cellWidget(1, 0));
    return label ? label->text() : QString();
  };
  Layout a = parseLayoutSpec("t4,i2x2,t8"), b = a;
  a.segments[1].source.path = "/tmp/first-picture.png";
  a.segments[1].source.kind = SourceKind::Image;
  b.segments[1].source.path = "/tmp/second-picture.png";
  b.segments[1].source.kind = SourceKind::Image;
  list.showLayout(a);
  EXPECT_TRUE(fileName().contains(QStringLiteral("first-picture.png"))) << fileName().toStdString();
  list.showLayout(b);
  EXPECT_TRUE(fileName().contains(QStringLiteral("second-picture.png")))
      << fileName().toStdString();
}

// The same report: "picture 1x1 has a side shorter than 28 px" stayed under the list for the
// whole session, after other layouts and presets. It stays while the layout it was refused for
// does, and goes with the next layout.
TEST(SegmentList, ARefusedFilesMessageGoesWithItsLayout) {
  SegmentListEditor list;
  auto* message = list.findChild<QLabel*>(QStringLiteral("fileMessage"));
  ASSERT_NE(message, nullptr);
  list.showLayout(parseLayoutSpec("t4,i6x6,t8"));
  list.setFileMessage(QStringLiteral("picture 1x1 has a side shorter than 28 px"));
  EXPECT_FALSE(message->isHidden());
  list.showLayout(parseLayoutSpec("t4,i6x6,t8"));  // the same layout again (another field)
  EXPECT_FALSE(message->isHidden());
  list.showLayout(parseLayoutSpec("t4,i6x6,t9"));
  EXPECT_TRUE(message->isHidden());
}

// A user's-eye report: Remove on the only segment gave an empty layout, refused, while its row
// stayed in the table and the next edit brought it back. The button is off for the last one.
TEST(SegmentList, TheOnlySegmentCannotBeRemoved) {
  SegmentListEditor list;
  std::vector<Layout> edits;
  QObject::connect(&list, &SegmentListEditor::edited,
                   [&edits](const Layout& l) { edits.push_back(l); });
  QToolButton* remove = button(list, QStringLiteral("Remove"));
  ASSERT_NE(remove, nullptr);
  auto* table = list.findChild<QTableWidget*>(QStringLiteral("segments"));
  list.showLayout(parseLayoutSpec("t4,i2x2"));
  EXPECT_TRUE(remove->isEnabled());
  table->selectRow(1);
  remove->click();
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(formatLayoutSpec(edits.back()), "t4");
  list.showLayout(edits.back());
  EXPECT_FALSE(remove->isEnabled());
  EXPECT_NE(remove->toolTip().indexOf(QStringLiteral("at least one segment")), -1);
  table->selectRow(0);
  remove->click();
  EXPECT_EQ(edits.size(), 1u);  // nothing emitted
  EXPECT_EQ(table->rowCount(), 1);
}
