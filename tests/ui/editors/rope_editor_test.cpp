// The scene panel's rope scaling rows: the type box lists the registry, the
// type's editors come from its ParameterSpec table, YaRN set in the panel on Qwen2.5-VL gives
// core's per-axis counts under the wavelength chart and the attention factor in the formulas,
// a refused value shows beside its field and leaves the shown scaling, undo restores, a loaded
// model's scaling fills the editors, and longrope's lists and largest position id are edited.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

#include "charts/charts_panel.h"
#include "editors/parameter_editor.h"
#include "editors/rope_editor.h"
#include "editors/scene_panel.h"
#include "model/scene_model.h"
#include "ropescope/model_config.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/scene_metrics.h"
#include "teaching/formula_panel.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// The model's scene with a shipped model applied, as File -> Open model does.
void openModel(SceneModel& model, const std::string& name) {
  model.setScene(applyModel(model.scene(), readModelConfig(name)));
  QCoreApplication::processEvents();  // rows rebuilt for the model's type are shown (queued)
  ASSERT_FALSE(model.problem()) << model.problem()->message.toStdString();
}

void chooseType(RopeEditor* rope, const QString& type) {
  QComboBox* box = rope->typeBox();
  const int index = box->findData(type);
  ASSERT_GE(index, 0) << type.toStdString();
  box->setCurrentIndex(index);
  // The type's new rows are shown by the layout once the event loop runs (queued).
  QCoreApplication::processEvents();
}

// Types `text` into the editor's number box and presses Enter, as a user does.
void typeInto(ParameterEditor* editor, const QString& text) {
  ASSERT_NE(editor, nullptr);
  auto* spin = editor->findChild<QDoubleSpinBox*>();
  ASSERT_NE(spin, nullptr);
  spin->setFocus();
  spin->selectAll();
  QTest::keyClicks(spin, text);
  QTest::keyClick(spin, Qt::Key_Enter);
}

void typeInto(QLineEdit* edit, const QString& text) {
  ASSERT_NE(edit, nullptr);
  edit->setFocus();
  edit->selectAll();
  QTest::keyClick(edit, Qt::Key_Backspace);
  QTest::keyClicks(edit, text);
  QTest::keyClick(edit, Qt::Key_Enter);
}

QString repeated(const QString& item, int count) {
  QStringList items;
  for (int i = 0; i < count; ++i) items << item;
  return items.join(QLatin1Char(','));
}

struct Window {
  SceneModel model;
  ScenePanel panel{&model};
  ChartsPanel charts{&model};
  RopeEditor* rope() const { return panel.ropeEditor(); }
  Window() {
    panel.resize(420, 1400);
    panel.show();
    charts.resize(900, 1200);
    charts.show();
  }
  // Qwen2.5-VL-7B, YaRN chosen in the type box and its two required keys typed.
  void yarnOnQwen() {
    openModel(model, "qwen2.5-vl-7b");
    chooseType(rope(), QStringLiteral("yarn"));
    typeInto(rope()->editor("factor"), QStringLiteral("4"));
    typeInto(rope()->editor("original_max_position_embeddings"), QStringLiteral("32768"));
  }
};

constexpr const char* kQwenYarnCounts =
    "t 16/0/0 \xc2\xb7 h 8/16/0 \xc2\xb7 w 0/0/24 (unchanged/ramped/scaled)";

}  // namespace

// "none" and every registered type, in the registry's order; each type's editors are its
// table's rows (keys, ranges, defaults), its lists and, for dynamic and longrope, the id row.
TEST(RopeEditor, TypesAndEditorsComeFromTheRegistry) {
  Window w;
  QComboBox* box = w.rope()->typeBox();
  ASSERT_EQ(box->count(), static_cast<int>(allRopeTypes().size()) + 1);
  EXPECT_EQ(box->itemData(0).toString(), QString());
  for (std::size_t i = 0; i < allRopeTypes().size(); ++i)
    EXPECT_EQ(box->itemData(static_cast<int>(i) + 1).toString().toStdString(),
              allRopeTypes()[i]->name());
  for (const RopeType* type : allRopeTypes()) {
    SCOPED_TRACE(type->name());
    chooseType(w.rope(), QString::fromStdString(type->name()));
    EXPECT_EQ(w.model.scene().frequency.rope.type, type->name());
    for (const ParameterSpec& spec : type->parameters()) {
      ParameterEditor* editor = w.rope()->editor(spec.key);
      ASSERT_NE(editor, nullptr) << spec.key;
      EXPECT_EQ(editor->spec().rangeText(), spec.rangeText()) << spec.key;
      EXPECT_EQ(editor->spec().defaultValue, spec.defaultValue) << spec.key;
      const std::vector<std::string> required = type->requiredKeys();
      const bool isRequired =
          std::find(required.begin(), required.end(), spec.key) != required.end();
      EXPECT_EQ(w.rope()->givenBox(spec.key) == nullptr, isRequired) << spec.key;
    }
    for (const RopeListSpec& l : type->lists()) EXPECT_NE(w.rope()->listEdit(l.key), nullptr);
    EXPECT_EQ(w.rope()->maxIdBox() != nullptr, type->sequenceDependent());
  }
  chooseType(w.rope(), QString());
  EXPECT_FALSE(w.model.scene().frequency.rope.active());
}

// The example: YaRN factor 4 over 32768 on Qwen2.5-VL-7B, set in the panel.
TEST(RopeEditor, YarnOnQwenShowsCountsAndAttentionFactor) {
  Window w;
  w.yarnOnQwen();
  ASSERT_FALSE(w.model.problem()) << w.model.problem()->message.toStdString();
  const RopeScaling& rope = w.model.validScene().frequency.rope;
  EXPECT_EQ(rope.type, "yarn");
  EXPECT_EQ(ropeParam(rope, "factor"), 4.0);
  EXPECT_EQ(ropeParam(rope, "original_max_position_embeddings"), 32768.0);
  EXPECT_NE(w.charts.scalingCountsText().indexOf(QString::fromUtf8(kQwenYarnCounts)), -1)
      << w.charts.scalingCountsText().toStdString();
  const QString formulas = w.charts.formulas()->text();
  EXPECT_NE(formulas.indexOf(QStringLiteral("1.1386")), -1) << formulas.toStdString();
  EXPECT_NE(formulas.indexOf(QStringLiteral("1.2965")), -1) << formulas.toStdString();
  EXPECT_NE(formulas.indexOf(QStringLiteral("unchanged by the rope scaling")), -1);
  EXPECT_NE(w.rope()->infoText().indexOf(QStringLiteral("1.1386")), -1);
  // The original length lies past the 256 positions the decay chart draws: the note says so.
  EXPECT_NE(w.charts.decayNoteText().indexOf(QStringLiteral("32768 lies beyond")), -1)
      << w.charts.decayNoteText().toStdString();
  EXPECT_FALSE(w.charts.marksOriginalLength());
  // Inside the distances drawn, it is marked.
  typeInto(w.rope()->editor("original_max_position_embeddings"), QStringLiteral("128"));
  ASSERT_FALSE(w.model.problem());
  EXPECT_TRUE(w.charts.marksOriginalLength());
  // The phasor formulas take the same table: the attention factor there too.
  const QString phasor =
      phasorFormulas(computePhasor(w.model.metrics().pairs, {1, 0, 0}),
                     w.model.validScene().frequency.rotary, nullptr, 0.0, &w.model.metrics().pairs);
  EXPECT_NE(phasor.indexOf(QStringLiteral("Attention factor")), -1) << phasor.toStdString();
  // No scaling: no counts, no note, no attention factor line.
  chooseType(w.rope(), QString());
  EXPECT_TRUE(w.charts.scalingCountsText().isEmpty());
  EXPECT_TRUE(w.charts.decayNoteText().isEmpty());
  EXPECT_EQ(w.charts.formulas()->text().indexOf(QStringLiteral("Rope scaling")), -1);
}

// factor = -1: core's message beside the factor box, the window keeps the scaling it showed,
// and undo brings back the scene before the bad value.
TEST(RopeEditor, BadValueShowsBesideItsFieldAndUndoRestores) {
  Window w;
  w.yarnOnQwen();
  ASSERT_FALSE(w.model.problem());
  const Scene before = w.model.scene();
  typeInto(w.rope()->editor("factor"), QStringLiteral("-1"));
  ASSERT_TRUE(w.model.problem());
  EXPECT_EQ(w.model.problem()->field, QStringLiteral("factor"));
  const QString shown = w.panel.errorFor(QStringLiteral("factor"));

  EXPECT_NE(shown.indexOf(QStringLiteral("factor")), -1) << shown.toStdString();
  EXPECT_NE(shown.indexOf(QStringLiteral("-1")), -1) << shown.toStdString();
  EXPECT_EQ(shown, w.rope()->editor("factor")->error());
  EXPECT_EQ(ropeParam(w.model.validScene().frequency.rope, "factor"), 4.0);  // still shown
  EXPECT_NE(w.charts.scalingCountsText().indexOf(QString::fromUtf8(kQwenYarnCounts)), -1);
  EXPECT_TRUE(w.charts.showsStaleBanner());
  EXPECT_TRUE(w.rope()->infoText().startsWith(QStringLiteral("last valid (yarn): ")))
      << w.rope()->infoText().toStdString();
  w.model.undo();
  EXPECT_FALSE(w.model.problem());
  EXPECT_EQ(w.model.scene(), before);
  EXPECT_TRUE(w.panel.errorFor(QStringLiteral("factor")).isEmpty());
  EXPECT_EQ(w.rope()->editor("factor")->value(), 4.0);
  // Further back: the original length's edit, the factor's, the type's.
  for (int i = 0; i < 3; ++i) w.model.undo();
  EXPECT_FALSE(w.model.scene().frequency.rope.active());
  EXPECT_EQ(w.rope()->typeBox()->currentIndex(), 0);
  w.model.redo();
  EXPECT_EQ(w.model.scene().frequency.rope.type, "yarn");
  EXPECT_EQ(w.rope()->typeBox()->currentData().toString(), QStringLiteral("yarn"));
}

// File -> Open model with a scaled config fills the editors; an optional key it leaves out is
// unticked, and ticking it gives it the shown value.
TEST(RopeEditor, AScaledModelFillsTheEditors) {
  Window w;
  openModel(w.model, "qwen2.5-vl-yarn-7b");
  EXPECT_EQ(w.rope()->typeBox()->currentData().toString(), QStringLiteral("yarn"));
  EXPECT_EQ(w.rope()->editor("factor")->value(), 4.0);
  EXPECT_EQ(w.rope()->editor("original_max_position_embeddings")->value(), 32768.0);
  QCheckBox* given = w.rope()->givenBox("attention_factor");
  ASSERT_NE(given, nullptr);
  EXPECT_FALSE(given->isChecked());
  EXPECT_FALSE(w.rope()->editor("attention_factor")->isEnabled());
  EXPECT_NE(w.charts.scalingCountsText().indexOf(QString::fromUtf8(kQwenYarnCounts)), -1);
  given->click();
  EXPECT_TRUE(ropeParam(w.model.scene().frequency.rope, "attention_factor").has_value());
  typeInto(w.rope()->editor("attention_factor"), QStringLiteral("1.5"));
  ASSERT_FALSE(w.model.problem());
  EXPECT_NE(w.charts.formulas()->text().indexOf(QStringLiteral("2.25")), -1);  // 1.5²
  given->click();
  EXPECT_FALSE(ropeParam(w.model.scene().frequency.rope, "attention_factor").has_value());
}

// longrope: a missing list is named beside its box, a list of the wrong length too; the largest
// position id comes from the scene (core) and decides the switch the panel reports.
TEST(RopeEditor, LongropeListsAndTheLargestPositionId) {
  Window w;
  openModel(w.model, "qwen2.5-vl-7b");
  const int pairs = w.model.metrics().pairs.size();
  chooseType(w.rope(), QStringLiteral("longrope"));
  ASSERT_TRUE(w.model.problem());
  EXPECT_EQ(w.model.problem()->field, QStringLiteral("short_factor"));
  EXPECT_FALSE(w.panel.errorFor(QStringLiteral("short_factor")).isEmpty());
  typeInto(w.rope()->listEdit("short_factor"), QStringLiteral("1, x"));
  EXPECT_NE(w.panel.errorFor(QStringLiteral("short_factor")).indexOf(QStringLiteral("\"x\"")), -1)
      << w.panel.errorFor(QStringLiteral("short_factor")).toStdString();
  EXPECT_EQ(w.rope()->listEdit("short_factor")->text(), QStringLiteral("1, x"));  // kept
  typeInto(w.rope()->listEdit("long_factor"), repeated(QStringLiteral("2"), pairs));
  typeInto(w.rope()->listEdit("short_factor"), QStringLiteral("1,2"));
  ASSERT_TRUE(w.model.problem());
  EXPECT_EQ(w.model.problem()->field, QStringLiteral("short_factor"));
  EXPECT_NE(w.panel.errorFor(QStringLiteral("short_factor")).indexOf(QStringLiteral("(got 2)")), -1)
      << w.panel.errorFor(QStringLiteral("short_factor")).toStdString();
  typeInto(w.rope()->listEdit("short_factor"), repeated(QStringLiteral("1"), pairs));
  ASSERT_TRUE(w.model.problem());
  EXPECT_EQ(w.model.problem()->field, QStringLiteral("factor"));  // factor or max positions
  w.rope()->givenBox("factor")->click();
  typeInto(w.rope()->editor("factor"), QStringLiteral("8"));
  ASSERT_FALSE(w.model.problem()) << w.model.problem()->message.toStdString();
  EXPECT_EQ(w.model.scene().frequency.rope.longFactor, std::vector<double>(pairs, 2.0));
  // From the scene: its largest id; the default layout is far below the 4096 switch.
  w.rope()->maxIdFromScene()->click();
  ASSERT_FALSE(w.model.problem());
  const long long id = ropeMaxPositionId(w.model.metrics().ids);
  EXPECT_EQ(w.model.scene().frequency.rope.maxPositionId, id);
  EXPECT_TRUE(w.rope()->maxIdGiven()->isChecked());
  EXPECT_EQ(w.rope()->maxIdBox()->value(), static_cast<double>(id));
  EXPECT_FALSE(w.model.metrics().pairs.switched);
  EXPECT_NE(w.rope()->infoText().indexOf(QStringLiteral("is not past it")), -1)
      << w.rope()->infoText().toStdString();
  QDoubleSpinBox* box = w.rope()->maxIdBox();
  box->setFocus();
  box->selectAll();
  QTest::keyClicks(box, QStringLiteral("5000"));
  QTest::keyClick(box, Qt::Key_Enter);
  ASSERT_FALSE(w.model.problem());
  EXPECT_TRUE(w.model.metrics().pairs.switched);
  EXPECT_NE(w.rope()->infoText().indexOf(QStringLiteral("is past it")), -1);
  EXPECT_NE(w.charts.scalingCountsText().indexOf(QStringLiteral("0/0/")), -1);  // all scaled
}

// A length in 1..1e12 (original_max_position_embeddings) on a linear slider put every real value
// in its first pixel; the slider is logarithmic from the range's lower end, and a move of the
// slider gives a whole number.
TEST(RopeEditor, WideIntegerRangesGetALogSlider) {
  const ParameterSpec* spec =
      findSpec(findRopeType("yarn").parameters(), "original_max_position_embeddings");
  ASSERT_NE(spec, nullptr);
  ASSERT_EQ(spec->kind, ParameterSpec::Kind::Integer);
  ParameterEditor editor(*spec);
  auto* slider = editor.findChild<QSlider*>();
  ASSERT_NE(slider, nullptr);
  editor.setValue(32768.0);
  const double share = static_cast<double>(slider->value() - slider->minimum()) /
                       (slider->maximum() - slider->minimum());
  EXPECT_NEAR(share, std::log(32768.0) / std::log(1e12), 0.01);  // about 0.38, not 0
  double got = -1.0;
  QObject::connect(&editor, &ParameterEditor::edited, [&](double v) { got = v; });
  slider->setValue((slider->minimum() + slider->maximum()) / 2);  // the middle: 1e6
  EXPECT_NEAR(got, 1e6, 1e6 * 0.02);
  EXPECT_EQ(got, std::round(got));
}
