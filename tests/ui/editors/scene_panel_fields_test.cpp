// The scene panel and the command line take their ranges and field ids from one table
// (ropescope/scene_fields.h): the spin boxes hold exactly the table's range, the
// CLI accepts exactly it, and an error lands beside the field whose key it carries.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

#include "cli_options.h"
#include "editors/field_widgets.h"
#include "editors/open_spin_box.h"
#include "editors/parameter_editor.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "model/scene_model.h"
#include "ropescope/errors.h"
#include "ropescope/scene_fields.h"

using namespace ropescope;
using namespace ropescope::ui;

namespace {

// The visible red message of the panel whose text is `message`, or nullptr.
QLabel* messageLabel(const ScenePanel& panel, const QString& message) {
  for (QLabel* l : panel.findChildren<QLabel*>())
    if (l->isVisibleTo(const_cast<ScenePanel*>(&panel)) && l->text() == message) return l;
  return nullptr;
}

// The CLI's refusal of `--FLAG value` (ids over a small layout takes every scene option).
std::pair<std::string, std::string> cliRefusal(const SceneField& f, long long value) {
  try {
    cli::parseArguments(cli::kIds,
                        {"--layout", "t2,i2x2", "--" + f.cliFlag, std::to_string(value)});
  } catch (const InputError& e) {
    return {e.what(), e.field()};
  }
  return {"(accepted)", ""};
}

}  // namespace

// Every whole-number field the panel edits with a spin box: its arrows keep to the table's range
// (a typed number outside it goes to core, which refuses it beside the box).
TEST(ScenePanelFields, SpinBoxesHoldTheTableRanges) {
  SceneModel model;
  ScenePanel panel(&model);
  int checked = 0;
  for (const SceneField& f : sceneFields()) {
    if (f.spec.kind != ParameterSpec::Kind::Integer || f.list || f.text) continue;
    auto* found = panel.findChild<QSpinBox*>(QString::fromStdString(f.key()));
    if (!found) continue;  // edited otherwise (the AGE layer's slider, the selection's count)
    auto* spin = dynamic_cast<OpenIntSpinBox*>(found);
    ASSERT_NE(spin, nullptr) << f.key();
    ++checked;
    EXPECT_EQ(spin->acceptedMinimum(), fieldSpinMinimum(f)) << f.key();
    EXPECT_EQ(spin->acceptedMaximum(), fieldSpinMaximum(f)) << f.key();
    EXPECT_EQ(spin->acceptedMinimum(), static_cast<int>(f.spec.min)) << f.key();
    if (f.spec.max <= std::numeric_limits<int>::max())
      EXPECT_EQ(spin->acceptedMaximum(), static_cast<int>(f.spec.max)) << f.key();
    // The arrows stop at the range's ends.
    spin->setValue(spin->acceptedMaximum());
    spin->stepBy(1);
    EXPECT_EQ(spin->value(), spin->acceptedMaximum()) << f.key();
    spin->setValue(spin->acceptedMinimum());
    spin->stepBy(-1);
    EXPECT_EQ(spin->value(), spin->acceptedMinimum()) << f.key();
  }
  // head dim, rotary dim, KV heads, KV head, AGE layers, patch, merge, min and max pixels.
  EXPECT_EQ(checked, 9);
  auto* base =
      dynamic_cast<OpenDoubleSpinBox*>(panel.findChild<QDoubleSpinBox*>(QStringLiteral("base")));
  ASSERT_NE(base, nullptr);
  EXPECT_EQ(base->acceptedMinimum(), sceneField("base").spec.min);
  EXPECT_EQ(base->acceptedMaximum(), sceneField("base").spec.max);
}

// Every whole-number field with a flag: the CLI accepts the table's bounds and refuses one past
// them in one line naming the flag and the table's range; the error carries the field's key.
TEST(ScenePanelFields, CliAcceptsTheTableRanges) {
  int checked = 0;
  for (const SceneField& f : sceneFields()) {
    if (f.spec.kind != ParameterSpec::Kind::Integer || f.list || f.text || f.cliFlag.empty())
      continue;
    ++checked;
    const long long lo = static_cast<long long>(f.spec.min);
    const long long hi = static_cast<long long>(f.spec.max);
    const std::string expects =
        "--" + f.cliFlag + " expects a whole number in " + f.rangeText() + " (got \"";
    for (long long bad : {lo - 1, hi + 1}) {
      const auto [message, field] = cliRefusal(f, bad);
      EXPECT_EQ(message, expects + std::to_string(bad) + "\")") << f.key();
      EXPECT_EQ(field, f.key()) << message;
    }
    // The bounds themselves pass the option (core may still refuse them with other fields:
    // then not in the flag's words).
    for (long long good : {lo, hi})
      EXPECT_EQ(cliRefusal(f, good).first.find(expects), std::string::npos)
          << f.key() << " = " << good;
  }
  // min/max pixels, patch, merge, head dim, rotary dim, KV heads, KV head, AGE layers, layer.
  EXPECT_EQ(checked, 10);
}

// A bad AGE value reaches the message beside the AGE box: typed out of range (0 layers), core
// refuses it with the range, reported by the AGE box, not at the top of the panel, and the box
// keeps what was typed.
TEST(ScenePanelFields, AgeErrorShowsBesideTheAgeBox) {
  SceneModel model;
  ScenePanel panel(&model);
  auto* layers = panel.findChild<QSpinBox*>(QStringLiteral("age_layers"));
  auto* ageBox = panel.findChild<QGroupBox*>(QStringLiteral("age"));
  ASSERT_NE(layers, nullptr);
  ASSERT_NE(ageBox, nullptr);
  ASSERT_EQ(model.scene().age.layers, 36);

  // Typed: "0" then Enter: core refuses it, with the AGE layers' key: beside the AGE box.
  layers->setFocus();
  layers->selectAll();
  QTest::keyClicks(layers, QStringLiteral("0"));
  QTest::keyClick(layers, Qt::Key_Enter);
  EXPECT_EQ(layers->value(), 0);
  EXPECT_EQ(model.scene().age.layers, 0);
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.problem()->field, QStringLiteral("age_layers"));
  const QString message = panel.errorFor(QStringLiteral("age_layers"));
  EXPECT_NE(message.toStdString().find(sceneField("age_layers").rangeText()), std::string::npos)
      << message.toStdString();
  EXPECT_TRUE(panel.errorFor(QString()).isEmpty());
  QLabel* shown = messageLabel(panel, message);
  ASSERT_NE(shown, nullptr);
  EXPECT_TRUE(ageBox->isAncestorOf(shown));

  // The AGE layer shown, past the layer count: the same place.
  model.edit([](Scene& s) {
    s.age.layers = 12;
    s.ageLayer = 20;
  });
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.problem()->field, QStringLiteral("age_layer"));
  shown = messageLabel(panel, panel.errorFor(QStringLiteral("age_layer")));
  ASSERT_NE(shown, nullptr);
  EXPECT_TRUE(ageBox->isAncestorOf(shown));

  model.edit([](Scene& s) { s.ageLayer = 3; });
  EXPECT_FALSE(model.problem());
  EXPECT_TRUE(panel.errorFor(QStringLiteral("age_layers")).isEmpty());
}

// The CLI's AGE errors carry the same keys (before: "layers").
TEST(ScenePanelFields, CliAgeErrorsCarryTheFieldKeys) {
  EXPECT_EQ(cliRefusal(sceneField("age_layers"), 0).second, "age_layers");
  try {
    cli::parseArguments(cli::kIds, {"--layout", "t2", "--age-strategy", "odd"});
    FAIL() << "--age-strategy odd accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "age_strategy");
  }
}

// A value the box lets through but core refuses (an odd head dim) is shown beside that box.
TEST(ScenePanelFields, TypedOddHeadDimShowsBesideIt) {
  SceneModel model;
  ScenePanel panel(&model);
  auto* head = panel.findChild<QSpinBox*>(QStringLiteral("head_dim"));
  ASSERT_NE(head, nullptr);
  head->setFocus();
  head->selectAll();
  QTest::keyClicks(head, QStringLiteral("127"));
  QTest::keyClick(head, Qt::Key_Enter);
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.problem()->field, QStringLiteral("head_dim"));
  EXPECT_NE(panel.errorFor(QStringLiteral("head_dim")).toStdString().find("even"),
            std::string::npos);
  EXPECT_TRUE(panel.errorFor(QString()).isEmpty());
}

// The sections box reads core's text form (parseSectionsText), as --sections does: a bad entry
// is shown beside the box with the range, the scene keeps its sections, and the same text
// gives the same sections on the command line.
TEST(ScenePanelFields, SectionsBoxAndCliReadOneTextForm) {
  SceneModel model;
  ScenePanel panel(&model);
  auto* box = panel.findChild<QLineEdit*>(QStringLiteral("sections"));
  ASSERT_NE(box, nullptr);
  const auto type = [&](const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClick(box, Qt::Key_Backspace);
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Enter);
  };
  type(QStringLiteral(" 8, 28 ,28"));
  EXPECT_FALSE(model.problem());
  EXPECT_EQ(model.scene().frequency.sections, (std::vector<int>{8, 28, 28}));
  EXPECT_EQ(cli::parseArguments(cli::kIds, {"--layout", "t2", "--sections", " 8, 28 ,28"})
                .scene.frequency.sections,
            model.scene().frequency.sections);
  type(QStringLiteral("16,24"));
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.problem()->field, QStringLiteral("sections"));
  const std::string shown = panel.errorFor(QStringLiteral("sections")).toStdString();
  EXPECT_NE(shown.find(sceneField("sections").rangeText()), std::string::npos) << shown;
  EXPECT_NE(shown.find("(got \"16,24\")"), std::string::npos) << shown;
  EXPECT_EQ(model.scene().frequency.sections, (std::vector<int>{8, 28, 28}));  // kept
  // The refused text stays in the box, under its message, also with the focus elsewhere (Tab).
  EXPECT_EQ(box->text(), QStringLiteral("16,24"));
  try {
    cli::parseArguments(cli::kIds, {"--layout", "t2", "--sections", "16,24"});
    FAIL() << "--sections 16,24 accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--" + shown.substr(shown.find("sections")));
    EXPECT_EQ(e.field(), "sections");
  }
  type(QString());  // empty: the plan's default
  EXPECT_FALSE(model.problem());
  EXPECT_TRUE(model.scene().frequency.sections.empty());
}

// A user's-eye report: V2PE's visual stride typed as -5 became "-" and then the old value, and
// 99999999 became the maximum, without a word. Typed out of range, the number stays in the box
// and core's message, with the range, shows beside it; the last valid scene stays computed.
TEST(ScenePanelFields, ATypedParameterOutOfRangeShowsTheRangeBesideIt) {
  SceneModel model;
  ScenePanel panel(&model);
  panel.show();
  model.chooseDesign("v2pe", false);
  ParameterEditor* stride = panel.parameterEditor("visual_stride");
  ASSERT_NE(stride, nullptr);
  auto* spin = stride->findChild<QDoubleSpinBox*>();
  ASSERT_NE(spin, nullptr);
  const double valid = model.validScene().designParams.find("visual_stride").value_or(-1.0);
  for (const char* typed : {"-5", "99999999", "0"}) {
    SCOPED_TRACE(typed);
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, QLatin1String(typed));
    QTest::keyClick(spin, Qt::Key_Enter);
    QCoreApplication::processEvents();
    EXPECT_EQ(spin->value(), std::stod(typed));
    ASSERT_TRUE(model.problem());
    EXPECT_EQ(model.problem()->field, QStringLiteral("visual_stride"));
    const std::string message = panel.errorFor(QStringLiteral("visual_stride")).toStdString();
    EXPECT_NE(message.find("1000000"), std::string::npos) << message;
    EXPECT_NE(message.find(typed), std::string::npos) << message;
    EXPECT_EQ(model.validScene().designParams.find("visual_stride").value_or(-1.0), valid);
  }
  // In range again: the message goes, the scene follows.
  spin->selectAll();
  QTest::keyClicks(spin, QStringLiteral("8"));
  QTest::keyClick(spin, Qt::Key_Enter);
  EXPECT_FALSE(model.problem());
  EXPECT_TRUE(panel.errorFor(QStringLiteral("visual_stride")).isEmpty());
  EXPECT_EQ(model.validScene().designParams.find("visual_stride").value_or(-1.0), 8.0);
}

// A user's-eye report: a base typed as 1e6 (the README's --base 1e6) became 16 without a word,
// 1e30 became 130, 1.5 became 2 and alpha's 2e-1 became 21. Numbers are read as the command
// line reads them: with an exponent, and with decimals where the field has them.
TEST(ScenePanelFields, TypedNumbersWithAnExponentAreReadAsTheCommandLineReadsThem) {
  SceneModel model;
  ScenePanel panel(&model);
  panel.show();
  const auto type = [](QAbstractSpinBox* box, const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Enter);
    QCoreApplication::processEvents();
  };
  auto* base = panel.findChild<QDoubleSpinBox*>(QStringLiteral("base"));
  ASSERT_NE(base, nullptr);
  for (const auto& [typed, value] : std::vector<std::pair<QString, double>>{
           {"1e6", 1e6}, {"5E6", 5e6}, {"1.5", 1.5}, {"2.5e4", 25000}, {"10000", 1e4}}) {
    SCOPED_TRACE(typed.toStdString());
    type(base, typed);
    EXPECT_FALSE(model.problem());
    EXPECT_EQ(model.validScene().frequency.rotary.base, value);
  }
  EXPECT_EQ(base->text(), QStringLiteral("10000"));  // no trailing zeros shown
  type(base, QStringLiteral("1.5"));
  EXPECT_EQ(base->text(),
            QStringLiteral("1") + base->locale().decimalPoint() + QStringLiteral("5"));
  // Past the range: kept as typed, refused beside the box with the range.
  type(base, QStringLiteral("1e30"));
  EXPECT_EQ(base->value(), 1e30);
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.problem()->field, QStringLiteral("base"));
  EXPECT_EQ(model.validScene().frequency.rotary.base, 1.5);
  type(base, QStringLiteral("1e4"));
  EXPECT_FALSE(model.problem());

  model.chooseDesign("circle", false);
  // A design parameter's number box, given a typed number: the value the scene then holds.
  const auto typeParameter = [&](const char* key, QDoubleSpinBox** box, const QString& text) {
    ParameterEditor* editor = panel.parameterEditor(key);
    *box = editor ? editor->findChild<QDoubleSpinBox*>() : nullptr;
    if (!*box) return -1.0;
    type(*box, text);
    return model.validScene().designParams.find(key).value_or(-1.0);
  };
  QDoubleSpinBox* spin = nullptr;
  EXPECT_DOUBLE_EQ(typeParameter("alpha", &spin, QStringLiteral("2e-1")), 0.2);
  ASSERT_NE(spin, nullptr);
  EXPECT_FALSE(model.problem());
  // Text that is no number is not taken at all (the box keeps its value).
  type(spin, QStringLiteral("x"));
  EXPECT_DOUBLE_EQ(spin->value(), 0.2);
  // A valid number below the box's decimals shows as itself, not as "0.0000" (a user's-eye
  // report: R = 1e-5 looked like the refused 0).
  QDoubleSpinBox* radiusBox = nullptr;
  EXPECT_DOUBLE_EQ(typeParameter("radius", &radiusBox, QStringLiteral("1e-5")), 1e-5);
  ASSERT_NE(radiusBox, nullptr);
  EXPECT_FALSE(model.problem());
  EXPECT_EQ(radiusBox->value(), 1e-5);
  EXPECT_EQ(radiusBox->text(),
            QStringLiteral("0") + radiusBox->locale().decimalPoint() + QStringLiteral("00001"))
      << radiusBox->text().toStdString();
  type(radiusBox, QStringLiteral("2.5"));  // back to the usual four decimals
  EXPECT_EQ(radiusBox->decimals(), 4);
  // A whole-number box takes an exponent when the number is whole.
  auto* maxPixels = panel.findChild<QSpinBox*>(QStringLiteral("max_pixels"));
  ASSERT_NE(maxPixels, nullptr);
  type(maxPixels, QStringLiteral("1e6"));
  EXPECT_EQ(model.validScene().imageGrid.maxPixels, 1000000);
}

// A user's-eye report: a count typed out of range in the segment table (0) went back to the
// valid value in its cell while the layout line and the message said t0, and the next edit of
// another row brought the old value back; the arrows went down to 0. The cell keeps what was
// typed, and the arrows stop at 1.
TEST(ScenePanelFields, ASegmentCountTypedOutOfRangeStaysInItsCell) {
  SceneModel model;
  ScenePanel panel(&model);
  panel.show();
  model.edit([](Scene& s) { s.layout = parseLayoutSpec("t4,i3x3,t5"); });
  QCoreApplication::processEvents();
  auto* table = panel.segmentEditor()->findChild<QTableWidget*>();
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), 3);
  auto* first = qobject_cast<QSpinBox*>(table->cellWidget(0, 1));
  auto* last = qobject_cast<QSpinBox*>(table->cellWidget(2, 1));
  ASSERT_NE(first, nullptr);
  ASSERT_NE(last, nullptr);
  first->setFocus();
  first->selectAll();
  QTest::keyClicks(first, QStringLiteral("0"));
  QTest::keyClick(first, Qt::Key_Enter);
  QCoreApplication::processEvents();
  ASSERT_TRUE(model.problem());
  EXPECT_EQ(model.scene().layout.segments[0].length, 0);
  EXPECT_EQ(first->value(), 0);  // what was typed, as the line says
  // Another row's edit keeps the refused count (and its message).
  last->setValue(6);
  QCoreApplication::processEvents();
  EXPECT_EQ(model.scene().layout.segments[0].length, 0);
  EXPECT_EQ(model.scene().layout.segments[2].length, 6);
  EXPECT_EQ(first->value(), 0);
  // Fixed: the scene follows.
  first->setValue(2);
  QCoreApplication::processEvents();
  EXPECT_FALSE(model.problem());
  EXPECT_EQ(formatLayoutSpec(model.validScene().layout), "t2,i3x3,t6");
  // The arrows stop at 1.
  last->setValue(1);
  last->stepBy(-1);
  EXPECT_EQ(last->value(), 1);
  EXPECT_FALSE(model.problem());
}

// A user's-eye report: with V2PE's stride typed out of range, a head dim typed odd showed no
// message anywhere (core stopped at the stride). Every bad field shows its own message, each
// goes when its field is put right, and the scene is computed when both are.
TEST(ScenePanelFields, TwoBadFieldsEachShowTheirMessage) {
  SceneModel model;
  ScenePanel panel(&model);
  panel.show();
  model.chooseDesign("v2pe", false);
  auto* stride = panel.parameterEditor("visual_stride")->findChild<QDoubleSpinBox*>();
  auto* head = panel.findChild<QSpinBox*>(QStringLiteral("head_dim"));
  ASSERT_NE(stride, nullptr);
  ASSERT_NE(head, nullptr);
  const auto type = [](QAbstractSpinBox* box, const char* text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, QLatin1String(text));
    QTest::keyClick(box, Qt::Key_Enter);
    QCoreApplication::processEvents();
  };
  type(stride, "-5");
  type(head, "127");
  const QString strideMessage = panel.errorFor(QStringLiteral("visual_stride"));
  const QString headMessage = panel.errorFor(QStringLiteral("head_dim"));
  EXPECT_NE(strideMessage.toStdString().find("-5"), std::string::npos)
      << strideMessage.toStdString();
  EXPECT_NE(headMessage.toStdString().find("even"), std::string::npos) << headMessage.toStdString();
  EXPECT_NE(headMessage.toStdString().find("127"), std::string::npos) << headMessage.toStdString();
  ASSERT_EQ(model.problems().size(), 2u);
  EXPECT_TRUE(panel.errorFor(QString()).isEmpty());

  type(head, "64");  // the stride is still bad: its message stays, the head dim's goes
  EXPECT_EQ(panel.errorFor(QStringLiteral("visual_stride")), strideMessage);
  EXPECT_TRUE(panel.errorFor(QStringLiteral("head_dim")).isEmpty());
  EXPECT_EQ(model.validScene().frequency.rotary.headDim, 128);  // still the last valid scene

  type(stride, "8");
  EXPECT_FALSE(model.problem());
  EXPECT_TRUE(panel.errorFor(QStringLiteral("visual_stride")).isEmpty());
  EXPECT_EQ(model.validScene().frequency.rotary.headDim, 64);
}

// A user's-eye report: a layout typed and entered in the line, the cursor still there, and then
// a preset: the line kept the typed layout while the table and the views showed the preset's.
// Text entered is handed over (the scene's layout shows from then on); text being typed stays.
TEST(ScenePanelFields, TheLayoutLineFollowsTheSceneOnceItsTextIsEntered) {
  SceneModel model;
  ScenePanel panel(&model);
  panel.show();
  panel.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&panel));
  auto* line = panel.findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(line, nullptr);
  line->setFocus();
  line->selectAll();
  QTest::keyClicks(line, QStringLiteral("t3,i5x5,t3"));
  QTest::keyClick(line, Qt::Key_Enter);
  ASSERT_FALSE(model.problem());
  ASSERT_EQ(model.scene().layout.tokenCount(), 31u);
  ASSERT_TRUE(line->hasFocus());  // the cursor stays in the line

  model.edit([](Scene& s) { s.layout = parseLayoutSpec("i3x3,t5"); });  // as a preset does
  EXPECT_EQ(line->text(), QStringLiteral("i3x3,t5"));

  QTest::keyClicks(line, QStringLiteral(",t9"));  // typing, not entered: kept over an edit
  ASSERT_EQ(line->text(), QStringLiteral("i3x3,t5,t9")) << line->isModified() << line->hasFocus();
  model.edit([](Scene& s) { s.designParams.set("alpha", 0.25); });
  EXPECT_EQ(line->text(), QStringLiteral("i3x3,t5,t9"));
}
