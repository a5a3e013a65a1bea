// The rotary pair layout in the GUI: the scene panel's Pairs box edits the scene and
// follows a loaded one, and the formula panels name the dims a pair rotates under the layout.
#include <gtest/gtest.h>

#include <QComboBox>

#include "editors/scene_panel.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "teaching/formula_panel.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

TEST(MainWindow, PairsBoxEditsAndFollowsTheScene) {
  SceneModel model;
  model.setScene(fixedScene());
  ScenePanel panel(&model);
  auto* box = panel.findChild<QComboBox*>(QStringLiteral("pairs"));
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(box->currentData().toString(), QStringLiteral("neox"));
  box->setCurrentIndex(box->findData(QStringLiteral("gptj")));
  EXPECT_EQ(model.scene().frequency.rotary.pairs, PairLayout::GptJ);
  EXPECT_EQ(model.validScene().frequency.rotary.pairs, PairLayout::GptJ);
  Scene s = fixedScene();
  s.frequency.rotary.pairs = PairLayout::NeoX;
  model.setScene(s);
  EXPECT_EQ(box->currentData().toString(), QStringLiteral("neox"));
  s.frequency.rotary.pairs = PairLayout::GptJ;
  model.setScene(s);
  EXPECT_EQ(box->currentData().toString(), QStringLiteral("gptj"));
}

// GLM-4.1V: head 128, rotary 64 (32 pairs), GPT-J; Qwen3.5's NeoX pairs on rotary 64 of 256.
TEST(MainWindow, FormulasNameTheDimsEachPairRotates) {
  Scene glm = fixedScene();
  glm.frequency.rotary = {128, 64, 1e4, PairLayout::GptJ};
  glm.frequency.sections = {8, 12, 12};
  SceneModel model;
  model.setScene(glm);
  const QString charts = chartsFormulas(model.validScene(), model.metrics());
  EXPECT_TRUE(charts.contains(QStringLiteral("GPT-J: pair k rotates q/k dims (2k, 2k + 1)")))
      << charts.toStdString();
  EXPECT_TRUE(charts.contains(QStringLiteral("k = 31: 62, 63"))) << charts.toStdString();
  EXPECT_TRUE(charts.contains(QStringLiteral("dims 64…127 pass through"))) << charts.toStdString();
  Scene qwen = glm;
  qwen.frequency.rotary = {256, 64, 1e7, PairLayout::NeoX};
  model.setScene(qwen);
  const QString q = chartsFormulas(model.validScene(), model.metrics());
  EXPECT_TRUE(q.contains(QStringLiteral("NeoX (rotate_half): pair k rotates q/k dims (k, k + 32)")))
      << q.toStdString();
  EXPECT_TRUE(q.contains(QStringLiteral("k = 31: 31, 63"))) << q.toStdString();
  EXPECT_TRUE(q.contains(QStringLiteral("dims 64…255 pass through"))) << q.toStdString();
  Scene full = qwen;
  full.frequency.rotary.rotaryDim = 0;
  full.frequency.sections.clear();  // the plan's default for 128 pairs
  model.setScene(full);
  ASSERT_EQ(model.validScene().frequency.rotary.pairCount(), 128);
  // NeoX over the whole head, the common case, adds no line (the panel keeps its height).
  const QString plain = chartsFormulas(model.validScene(), model.metrics());
  EXPECT_FALSE(plain.contains(QStringLiteral("pass through"))) << plain.toStdString();
  EXPECT_FALSE(plain.contains(QStringLiteral("rotates q/k dims"))) << plain.toStdString();
}
