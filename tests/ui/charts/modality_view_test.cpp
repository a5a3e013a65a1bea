// The Modalities tab: its table shows the core's numbers for every ordered
// pair of modalities, "not computed" (never a number) for a pair over the app's limit, and the
// main window offers it as a side tab.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include <QBarCategoryAxis>
#include <QChart>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>

#include "chart_items.h"
#include "charts/chart_view.h"
#include "charts/modality_view.h"
#include "figures/figure_views.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "picture/picture_view.h"
#include "ropescope/layout.h"
#include "shell/main_window.h"
#include "style/metric_text.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

Scene audioScene(const std::string& spec) {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec(spec);
  s.design = "mrope";
  s.designParams = {};
  return s;
}

// A model on the layout `spec` with its comparison in, and its Modalities view shown.
struct ShownModalities {
  SceneModel model;
  std::unique_ptr<ModalityView> view;
  ShownModalities(const std::string& spec, QSize size) {
    model.setScene(audioScene(spec));
    model.flushSummaries();
    view = std::make_unique<ModalityView>(&model);
    view->resize(size);
    view->show();
  }
};

}  // namespace

TEST(ModalityView, TableShowsTheCoreNumbersForEveryPair) {
  ShownModalities shown("t4,a12,i3x3,t2", QSize(560, 700));
  SceneModel& model = shown.model;
  ModalityView& view = *shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible(); }));
  const std::vector<ModalityPairMetrics> want = sceneModalityMetrics(model.validScene());
  ASSERT_EQ(want.size(), 6u);  // text, image, audio
  ASSERT_EQ(view.table()->rowCount(), 6);
  for (int i = 0; i < 6; ++i) {
    const ModalityPairMetrics& r = want[static_cast<std::size_t>(i)];
    EXPECT_EQ(view.table()->item(i, 0)->text().toStdString(), tokenGroupName(r.groups.from));
    EXPECT_EQ(view.table()->item(i, 1)->text().toStdString(), tokenGroupName(r.groups.to));
    EXPECT_EQ(view.table()->item(i, 2)->text().toULongLong(), r.nFrom);
    EXPECT_EQ(view.table()->item(i, 4)->text(), metricText(r.ptd));
    EXPECT_EQ(view.table()->item(i, 5)->text(), metricText(r.biasSpread));
  }
  // text -> audio under M-RoPE, by hand: text 0..3 and, after the 3x3 image at 16 (max 18),
  // 19 and 20; audio 4..15, all on the diagonal, so d = sqrt(3)|p - q|. Every text token sees 12
  // consecutive offsets (4..15, 3..14, ..., 5..16), whose mean absolute deviation is
  // 2 (0.5 + 1.5 + ... + 5.5) / 12 = 3: PTD = 3 sqrt(3).
  EXPECT_NEAR(want[1].ptd, 3.0 * std::sqrt(3.0), 1e-12);
  EXPECT_EQ(view.table()->item(1, 4)->text(), QStringLiteral("5.1962"));
  EXPECT_EQ(view.ptdChart()->chart()->title(), QStringLiteral("PTD between modalities"));
}

TEST(ModalityView, APairOverTheLimitReadsNotComputed) {
  // 300 x 300 image tokens from 12 text tokens: 1.08e6 pairs off the diagonal (image -> text),
  // over the app's 2^20; text -> image (on the diagonal) stays computed.
  SceneModel model;
  model.setScene(audioScene("t6,i300x300,t6"));
  model.flushSummaries();
  ModalityView view(&model);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible(); }));
  ASSERT_EQ(view.table()->rowCount(), 2);
  EXPECT_EQ(view.table()->item(0, 4)->text(), metricText(model.modalityMetrics()[0].ptd));
  EXPECT_EQ(view.table()->item(1, 4)->text(), QStringLiteral("not computed"));
  EXPECT_EQ(view.table()->item(1, 5)->text(), QStringLiteral("not computed"));
  EXPECT_NE(view.table()->item(1, 4)->toolTip().indexOf(QStringLiteral("over the limit")), -1);
  EXPECT_NE(view.ptdChart()->chart()->title().indexOf(QStringLiteral("1 of 2 pairs")), -1);
}

TEST(ModalityView, OneModalityIsSaidNotDrawnAsZero) {
  SceneModel model;
  model.setScene(audioScene("t6"));
  model.flushSummaries();
  ModalityView view(&model);
  view.show();
  ASSERT_TRUE(waitUntil([&] { return view.isVisible(); }));
  EXPECT_EQ(view.table()->rowCount(), 0);
  auto* note = view.findChild<QLabel*>(QStringLiteral("modalityNote"));
  ASSERT_NE(note, nullptr);
  EXPECT_NE(note->text().indexOf(QStringLiteral("one modality only")), -1);
}

TEST(MainWindow, ModalitiesTabFollowsTheScene) {
  MainWindow w;
  w.show();
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);
  int index = -1;
  for (int i = 0; i < tabs->count(); ++i)
    if (tabs->tabText(i) == QStringLiteral("Modalities")) index = i;
  ASSERT_GE(index, 0);
  tabs->setCurrentIndex(index);
  auto* table = w.findChild<QTableWidget*>(QStringLiteral("modalityTable"));
  ASSERT_NE(table, nullptr);
  w.model()->setScene(audioScene("t3,a5,i2x2"));
  w.model()->flushSummaries();
  ASSERT_TRUE(waitUntil([&] { return table->rowCount() == 6; }));
  EXPECT_EQ(table->item(1, 1)->text(), QStringLiteral("audio"));
}

TEST(ModalityView, DecayFigureDataHasTheStreamColumnWithAudio) {
  Scene s = audioScene("t2,a6,i2x2");
  const std::string csv = figureData(s, findFigureView("decay"), TableFormat::Csv, FigureOptions{});
  EXPECT_EQ(csv.rfind("distance,U_t,U_h,U_w,U_thw\n", 0), 0u) << csv.substr(0, 80);
  s.layout = parseLayoutSpec("t2,i2x2");
  const std::string plain =
      figureData(s, findFigureView("decay"), TableFormat::Csv, FigureOptions{});
  EXPECT_EQ(plain.rfind("distance,U_t,U_h,U_w\n", 0), 0u) << plain.substr(0, 80);
  // The subset form moves one axis: no stream column.
  s.layout = parseLayoutSpec("t2,a6,i2x2");
  const std::string subset =
      figureData(s, findFigureView("decay-subset"), TableFormat::Csv, FigureOptions{});
  EXPECT_EQ(subset.find("U_thw"), std::string::npos);
}

TEST(MainWindow, ASoundFileIsNoPicture) {
  // A sound file is a file segment too: the Picture tab took it for a picture and read its rows
  // and cols (0) as a grid, which crashed on opening t4,aud:chirp.wav,i6x6 (found by looking
  // at the app). It shows the picture segments only.
  MainWindow w;
  w.show();
  Scene s = audioScene("t4,aud:chirp.wav,t2");
  w.model()->setScene(s);
  ASSERT_FALSE(w.model()->isStale()) << w.model()->problem()->message.toStdString();
  EXPECT_EQ(w.model()->validScene().layout.audioCount(), 75u);
  w.showSideTab(QStringLiteral("picture"));
  auto* picture = w.findChild<PictureView*>();
  ASSERT_NE(picture, nullptr);
  EXPECT_NE(picture->caption().indexOf(QStringLiteral("No picture")), -1)
      << picture->caption().toStdString();
  // Said once, by the canvas: no label shows it a second time under it.
  int shown = 0;
  for (const QLabel* label : picture->findChildren<QLabel*>())
    if (label->isVisible() && label->text().contains(QStringLiteral("No picture"))) ++shown;
  EXPECT_EQ(shown, 0);
  s = audioScene("t4,aud:chirp.wav,img:castle.png,t2");
  w.model()->setScene(s);
  ASSERT_FALSE(w.model()->isStale()) << w.model()->problem()->message.toStdString();
  EXPECT_GT(w.model()->validScene().layout.visualCount(), 0u);
  EXPECT_EQ(picture->caption().indexOf(QStringLiteral("No picture")), -1)
      << picture->caption().toStdString();
}

// A user's-eye report: with four modalities (12 pairs) at 1366x768, 4 of the 12 bars of each
// chart were named (Qt Charts drops names that would touch). Each chart is tall enough to name
// every pair; the tab scrolls instead.
TEST(ModalityView, EveryPairIsNamedWithFourModalities) {
  ShownModalities shown("t4,i3x3,t4,v2x2x2,t2,a12,t3", QSize(480, 560));
  ModalityView& view = *shown.view;
  ASSERT_TRUE(waitUntil([&] { return view.isVisible(); }));
  ASSERT_EQ(view.table()->rowCount(), 12);
  for (QChartView* chart :
       {static_cast<QChartView*>(view.ptdChart()), static_cast<QChartView*>(view.biasChart())}) {
    QCoreApplication::processEvents();
    auto* names = [&]() -> QBarCategoryAxis* {
      for (QAbstractAxis* a : chart->chart()->axes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) return c;
      return nullptr;
    }();
    ASSERT_NE(names, nullptr);
    ASSERT_EQ(names->count(), 12);
    const std::vector<ChartText> texts = chartTexts(chart);
    for (const QString& name : names->categories()) {
      const bool shown = std::any_of(texts.begin(), texts.end(), [&](const ChartText& t) {
        return t.visible && t.text == name;
      });
      EXPECT_TRUE(shown) << chart->chart()->title().toStdString() << ": " << name.toStdString();
    }
  }
}
