// The attention preview's widgets on their own, without the view that runs the job: the heat
// map owns its result, colours, zoom and clicks; the token map's canvas owns its cells; the one
// builder draws what it is given.
#include <gtest/gtest.h>

#include <QApplication>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <memory>

#include "attention/attention_heatmap.h"
#include "attention/attention_picture.h"
#include "attention/token_map_canvas.h"
#include "image_compare.h"
#include "ropescope/layout.h"
#include "style/viridis.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

constexpr int kN = 16;  // t4, i2x2, t8

// Causal logits whose value says where they are: query i, key j -> i * 16 + j; masked -inf.
std::shared_ptr<const AttentionResult> causalResult() {
  auto r = std::make_shared<AttentionResult>();
  r->tokens = kN;
  r->heads = 1;
  r->blocksPerSide = kN;
  r->request.block = 1;
  r->request.causal = true;
  r->request.value = AttentionValue::Logits;
  r->request.scene.layout = parseLayoutSpec("t4,i2x2,t8");
  r->pooled.resize(kN * kN);
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j)
      r->pooled[i * kN + j] = j > i ? -std::numeric_limits<float>::infinity() : float(i * kN + j);
  return r;
}

std::shared_ptr<const std::vector<TokenInfo>> tokens() {
  auto t = std::make_shared<std::vector<TokenInfo>>(kN);
  for (int k = 4; k < 8; ++k) {
    (*t)[k].modality = Modality::Image;
    (*t)[k].segment = 1;
    (*t)[k].row = (k - 4) / 2;
    (*t)[k].col = (k - 4) % 2;
  }
  return t;
}

QPointF cellCentre(const AttentionHeatmap& h, int row, int col, int span = kN) {
  const QRectF r = h.mapRect();
  return {r.left() + (col + 0.5) * r.width() / span, r.top() + (row + 0.5) * r.height() / span};
}

}  // namespace

TEST(Attention, HeatmapWidgetOwnsItsColoursZoomAndClicks) {
  AttentionHeatmap h;
  h.resize(420, 320);
  h.setSequenceLength(kN);
  h.setResult(causalResult(), tokens());
  // Colours over the finite range 0 .. 255 (the last diagonal entry), masked ones no value.
  ASSERT_EQ(h.image().width(), kN);
  EXPECT_EQ(h.scale().lo(), 0.0);
  EXPECT_EQ(h.scale().hi(), 255.0);
  for (auto [i, j] : {std::pair{0, 0}, {15, 15}, {9, 3}, {5, 5}})
    EXPECT_EQ(h.image().pixelColor(j, i), viridis((i * kN + j) / 255.0)) << i << "," << j;
  EXPECT_EQ(h.image().pixelColor(7, 2), ColorScale::noValueColor());
  EXPECT_EQ(h.valueAt(cellCentre(h, 9, 3)), 9.0 * kN + 3);
  EXPECT_TRUE(std::isinf(h.valueAt(cellCentre(h, 2, 7))));
  EXPECT_TRUE(h.describeAt(cellCentre(h, 5, 4))
                  .contains(QStringLiteral("image, segment 1")));  // from 0, as in 3-D

  // A click on text query 9's row picks the sixth text token (0-3 and 8 come before it); a
  // click on a picture query's row picks nothing.
  QSignalSpy picked(&h, &AttentionHeatmap::textQueryClicked);
  QTest::mouseClick(&h, Qt::LeftButton, {}, cellCentre(h, 9, 1).toPoint());
  ASSERT_EQ(picked.count(), 1);
  EXPECT_EQ(picked.at(0).at(0).toInt(), 5);
  QTest::mouseClick(&h, Qt::LeftButton, {}, cellCentre(h, 5, 1).toPoint());
  EXPECT_EQ(picked.count(), 1);

  // The wheel zooms in by half around the cursor (to the 8 tokens it may go down to) and asks
  // for the new range.
  QSignalSpy zoomed(&h, &AttentionHeatmap::zoomChanged);
  const QPointF at = cellCentre(h, 12, 12);
  QWheelEvent wheel(at, h.mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(&h, &wheel);
  EXPECT_EQ(zoomed.count(), 1);
  EXPECT_EQ(h.zoomSpan(), 8u);
  EXPECT_EQ(h.zoomBegin(), 6u);  // token 12.5 stays under the cursor: 12.5 - 0.78 * 8
  EXPECT_EQ(h.valueAt(cellCentre(h, 7, 1, 8)), 13.0 * kN + 7);  // shown row 7 is query 13
  EXPECT_FALSE(test::looksBlank(h.grab().toImage()));
}

TEST(Attention, TokenMapCanvasShowsNoValueApart) {
  TokenMapCanvas c;
  c.resize(300, 200);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  c.setMap(2, 3, {0.0, 1.0, 2.0, 3.0, 4.0, nan}, ColorScale::linear(0.0, 4.0), false);
  EXPECT_EQ(c.cellColor(0, 0), viridis(0.0));
  EXPECT_EQ(c.cellColor(1, 0), viridis(0.75));
  EXPECT_EQ(c.cellColor(1, 2), ColorScale::noValueColor());  // no token at the cell
  EXPECT_FALSE(c.cellColor(2, 0).isValid());                 // outside the grid
  EXPECT_GT(c.cellRect(0, 1).left(), c.cellRect(0, 0).left());
  // Causal masking hides the whole block: every cell is no value.
  c.setMap(2, 3, {0.0, 1.0, 2.0, 3.0, 4.0, 5.0}, ColorScale::linear(0.0, 5.0), true);
  EXPECT_EQ(c.cellColor(1, 1), ColorScale::noValueColor());
}

TEST(Attention, OneBuilderDrawsTheScreenAndThePaperLooks) {
  AttentionPicture pic;
  pic.cells = QImage(2, 2, QImage::Format_RGB32);
  pic.cells.fill(viridis(1.0));
  pic.scale = ColorScale::linear(0.0, 1.0);
  pic.ticks = pic.scale.ticks(5);
  pic.title = QStringLiteral("t");
  QPalette dark;
  dark.setColor(QPalette::Base, QColor(20, 20, 24));
  dark.setColor(QPalette::Text, QColor(230, 230, 230));
  for (const HeatmapLook& look :
       {HeatmapLook::screen(dark), HeatmapLook::screen(QPalette(Qt::white)),
        HeatmapLook::publication()}) {
    QImage image(400, 300, QImage::Format_RGB32);
    QPainter p(&image);
    paintAttentionPicture(p, image.size(), pic, look);
    p.end();
    const AttentionLayout l = attentionLayout(image.size(), look, true);
    EXPECT_EQ(image.pixelColor(l.map.center().toPoint()), viridis(1.0));
    EXPECT_EQ(image.pixelColor(1, image.height() - 2), look.background);
    EXPECT_LT(l.map.right(), l.bar.left());
  }
  EXPECT_EQ(HeatmapLook::screen(dark).kind, HeatmapLook::Kind::ScreenDark);
  EXPECT_EQ(HeatmapLook::screen(QPalette(Qt::white)).kind, HeatmapLook::Kind::ScreenLight);
  EXPECT_EQ(HeatmapLook::publication().background, QColor(Qt::white));
}
