// ElidedLabel: the status line shortened with "…" to its room, whole as its tooltip.
#include <gtest/gtest.h>

#include <QFontMetrics>

#include "style/elided_label.h"

using namespace ropescope::ui;

// A user's-eye report: the status line "PTD n/a · ... (layout has 12 t" was cut mid-word at
// 1366 pixels. Too long for its room it ends in "…" within the room, with the whole text as
// tooltip; with room it is whole and has no tooltip.
TEST(ElidedLabel, ShortensToItsRoomAndKeepsTheWholeTextAsTooltip) {
  ElidedLabel label;
  label.show();  // a hidden widget's resize events wait for it to show
  const QString text = QStringLiteral(
      "PTD n/a  \u00b7  bias spread n/a  \u00b7  12 text + 0 visual + 75 audio tokens (PTD needs "
      "at least one text and one visual token (layout has 12 text tokens and 0 visual tokens))");
  label.setFullText(text);
  const int whole = QFontMetrics(label.font()).horizontalAdvance(text);
  label.resize(whole / 2, 20);
  EXPECT_EQ(label.fullText(), text);
  EXPECT_TRUE(label.text().endsWith(QStringLiteral("\u2026"))) << label.text().toStdString();
  EXPECT_LE(QFontMetrics(label.font()).horizontalAdvance(label.text()), whole / 2);
  EXPECT_EQ(label.toolTip(), text);
  label.resize(whole + 40, 20);
  EXPECT_EQ(label.text(), text);
  EXPECT_TRUE(label.toolTip().isEmpty());
  EXPECT_LT(label.minimumSizeHint().width(), whole / 4);  // the bar may give it little room
}
