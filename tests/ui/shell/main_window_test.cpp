// The main window as a user drives it: edits recompute at once, bad input shows beside its field
// and marks the views stale, a click selects a token in every view, sessions round-trip, and
// compare mode links its cameras.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <cmath>
#include <map>

#include <vtkCamera.h>

#include "charts/charts_panel.h"
#include "charts/compare_view.h"
#include "editors/parameter_editor.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "figures/figure_presets.h"
#include "gui_test_util.h"
#include "image_compare.h"
#include "jobs/latest_worker.h"
#include "model/scene_model.h"
#include "ropescope/scene_metrics.h"
#include "shell/main_window.h"
#include "sound/sound_view.h"
#include "space/position_space_view.h"
#include "style/metric_text.h"

using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

QDoubleSpinBox* numberField(ScenePanel* panel, const std::string& key) {
  ParameterEditor* editor = panel->parameterEditor(key);
  return editor ? editor->findChild<QDoubleSpinBox*>() : nullptr;
}

struct Window {
  MainWindow w;
  Window() {
    w.setDarkPalette(true);
    w.model()->setScene(fixedScene());
    w.resize(1400, 900);
    showAndSettle(&w);
  }
};

}  // namespace

TEST(MainWindow, ParameterEditRecomputesAndRedrawsAtOnce) {
  Window win;
  QDoubleSpinBox* alpha = numberField(win.w.panel(), "alpha");
  ASSERT_NE(alpha, nullptr);
  const auto idsBefore = win.w.spaceView()->ids().ids;
  const QImage before = win.w.spaceView()->grabFramebuffer();
  alpha->setValue(0.0);
  EXPECT_EQ(win.w.model()->validScene().designParams.find("alpha").value_or(-1), 0.0);
  EXPECT_NE(win.w.spaceView()->ids().ids, idsBefore);
  const QImage after = win.w.spaceView()->grabFramebuffer();
  EXPECT_GT(compareImages(before, after).differingFraction, 0.0005);
  EXPECT_TRUE(win.w.isModified());
  EXPECT_TRUE(win.w.statusText().contains(QStringLiteral("PTD")));
}

TEST(MainWindow, InvalidInputShowsBesideItsFieldAndMarksViewsStale) {
  Window win;
  QDoubleSpinBox* radius = numberField(win.w.panel(), "radius");
  ASSERT_NE(radius, nullptr);
  const auto idsBefore = win.w.spaceView()->ids().ids;
  radius->setValue(0.0);  // R must be > 0
  EXPECT_FALSE(win.w.panel()->errorFor(QStringLiteral("radius")).isEmpty());
  EXPECT_TRUE(win.w.panel()->errorFor(QStringLiteral("alpha")).isEmpty());
  EXPECT_TRUE(win.w.spaceView()->isStale());
  EXPECT_TRUE(win.w.charts()->showsStaleBanner());
  EXPECT_EQ(win.w.spaceView()->ids().ids, idsBefore);  // the last valid scene, not garbage
  // The field keeps what the user typed so it can be corrected.
  EXPECT_EQ(win.w.model()->scene().designParams.find("radius").value_or(-1), 0.0);

  radius->setValue(4.0);
  EXPECT_TRUE(win.w.panel()->errorFor(QStringLiteral("radius")).isEmpty());
  EXPECT_FALSE(win.w.spaceView()->isStale());
  EXPECT_FALSE(win.w.charts()->showsStaleBanner());
  EXPECT_NE(win.w.spaceView()->ids().ids, idsBefore);
}

TEST(MainWindow, TypedLayoutErrorShowsBesideTheLayout) {
  Window win;
  auto* spec = win.w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  spec->setText(QStringLiteral("t4,q3"));
  QTest::keyClick(spec, Qt::Key_Return);
  EXPECT_FALSE(win.w.panel()->errorFor(QStringLiteral("layout")).isEmpty());
  EXPECT_TRUE(win.w.model()->isStale());
  spec->setText(QStringLiteral("t3,i2x5,t2"));
  QTest::keyClick(spec, Qt::Key_Return);
  EXPECT_TRUE(win.w.panel()->errorFor(QStringLiteral("layout")).isEmpty());
  EXPECT_EQ(win.w.model()->metrics().ids.size(), 15u);
  EXPECT_EQ(win.w.panel()->segmentEditor()->rowCount(), 3);
}

// A large edit is computed in the background: the window answers meanwhile, the views keep the
// scene before it (not marked stale), the status bar says so, and then the new scene shows.
TEST(MainWindow, LargeEditComputesInTheBackgroundAndSaysSo) {
  Window win;
  SceneModel* m = win.w.model();
  m->setBackgroundPairs(100);
  m->metricsWorker()->setHeld(true);
  const auto idsBefore = win.w.spaceView()->ids().ids;
  auto* spec = win.w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  spec->setText(QStringLiteral("t20,i12x14,t9"));
  QTest::keyClick(spec, Qt::Key_Return);
  EXPECT_TRUE(m->computing());
  EXPECT_TRUE(win.w.panel()->errorFor(QStringLiteral("layout")).isEmpty());
  EXPECT_FALSE(win.w.spaceView()->isStale());
  EXPECT_EQ(win.w.spaceView()->ids().ids, idsBefore);
  EXPECT_TRUE(win.w.staleStatusText().contains(QStringLiteral("computing the edited scene")))
      << win.w.staleStatusText().toStdString();
  EXPECT_TRUE(win.w.staleStatusText().contains(QStringLiteral("29 text + 168 visual")))
      << win.w.staleStatusText().toStdString();
  bool fired = false;
  QTimer::singleShot(0, [&fired] { fired = true; });
  EXPECT_TRUE(waitUntil([&] { return fired; }));
  const QString dir = qEnvironmentVariable("ROPESCOPE_SCREENSHOT_DIR");
  if (!dir.isEmpty()) EXPECT_TRUE(win.w.grab().save(dir + QStringLiteral("/computing.png")));
  m->metricsWorker()->setHeld(false);
  ASSERT_TRUE(m->waitForMetrics(kHangGuardMs));
  QCoreApplication::processEvents();
  EXPECT_EQ(win.w.spaceView()->ids().size(), 20u + 12 * 14 + 9);
  EXPECT_TRUE(win.w.staleStatusText().isEmpty()) << win.w.staleStatusText().toStdString();
  EXPECT_TRUE(win.w.statusText().contains(QStringLiteral("29 text + 168 visual tokens")))
      << win.w.statusText().toStdString();
}

// A mid-size edit shows its ids at once: the 3-D view has the new scene while the status bar
// says the bias spread is computing (never n/a or 0), then shows its number.
TEST(MainWindow, AMidSizeEditShowsItsIdsAndThenItsBiasSpread) {
  Window win;
  SceneModel* m = win.w.model();
  m->setIdsFirstPairs(100);
  m->biasWorker()->setHeld(true);
  auto* spec = win.w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(spec, nullptr);
  spec->setText(QStringLiteral("t20,i12x14,t9"));
  QTest::keyClick(spec, Qt::Key_Return);
  EXPECT_FALSE(m->computing());
  EXPECT_TRUE(m->biasPending());
  QCoreApplication::processEvents();
  EXPECT_EQ(win.w.spaceView()->ids().size(), 20u + 12 * 14 + 9);
  EXPECT_TRUE(win.w.statusText().contains(QStringLiteral("bias spread computing\u2026")))
      << win.w.statusText().toStdString();
  EXPECT_TRUE(win.w.statusText().contains(QStringLiteral(" ms so far")))
      << win.w.statusText().toStdString();
  EXPECT_TRUE(win.w.staleStatusText().isEmpty()) << win.w.staleStatusText().toStdString();
  m->biasWorker()->setHeld(false);
  ASSERT_TRUE(m->waitForMetrics(kHangGuardMs));
  const QString spread =
      metricText(ropescope::computeSceneMetrics(m->validScene(), 256, 1).bias.spread);
  EXPECT_TRUE(win.w.statusText().contains(QStringLiteral("bias spread ") + spread))
      << win.w.statusText().toStdString();
  EXPECT_TRUE(win.w.statusText().endsWith(QStringLiteral(" ms")))
      << win.w.statusText().toStdString();
}

TEST(MainWindow, SegmentButtonsEditTheLayout) {
  Window win;
  QToolButton* addImage = nullptr;
  for (auto* b : win.w.panel()->findChildren<QToolButton*>())
    if (b->text() == QStringLiteral("+ Image")) addImage = b;
  ASSERT_NE(addImage, nullptr);
  const std::size_t before = win.w.model()->metrics().ids.size();
  QTest::mouseClick(addImage, Qt::LeftButton);
  EXPECT_EQ(win.w.model()->scene().layout.segments.size(), 4u);
  EXPECT_EQ(win.w.model()->metrics().ids.size(), before + 16);  // a 4x4 image
  EXPECT_EQ(win.w.panel()->segmentEditor()->rowCount(), 4);

  // Reorder: the first row (text) moves below the image.
  auto* table = win.w.panel()->findChild<QTableWidget*>(QStringLiteral("segments"));
  ASSERT_NE(table, nullptr);
  table->selectRow(0);
  QToolButton* down = nullptr;
  for (auto* b : win.w.panel()->findChildren<QToolButton*>())
    if (b->text() == QStringLiteral("▼")) down = b;
  ASSERT_NE(down, nullptr);
  QTest::mouseClick(down, Qt::LeftButton);
  const auto& segments = win.w.model()->scene().layout.segments;
  ASSERT_EQ(segments.size(), 4u);
  EXPECT_EQ(segments[0].kind, ropescope::SegmentKind::Image);
  EXPECT_EQ(segments[1].kind, ropescope::SegmentKind::Text);
  EXPECT_EQ(win.w.model()->metrics().ids.tokens[0].modality, ropescope::Modality::Image);
}

TEST(MainWindow, ClickingATokenSelectsItInEveryView) {
  Window win;
  PositionSpaceView* view = win.w.spaceView();
  const auto& ids = view->ids();
  // A visual token that is not hidden behind another one.
  long visual = -1, token = -1;
  for (long t = 0, v = 0; t < static_cast<long>(ids.size()); ++t) {
    if (ids.tokens[t].modality == ropescope::Modality::Text) continue;
    if (v >= 3 && view->tokenAt(view->tokenPosition(t).toPoint()) == t) {
      visual = v;
      token = t;
      break;
    }
    ++v;
  }
  ASSERT_GE(token, 0);
  QTest::mouseClick(view, Qt::LeftButton, {}, view->tokenPosition(token).toPoint());
  EXPECT_EQ(win.w.model()->selectedVisual(), visual);
  EXPECT_EQ(win.w.charts()->markedVisual(), visual);

  // A text token: the panel's spin box and the profile chart follow.
  long text = -1;
  int textIndex = 0;
  for (long t = 0; t < static_cast<long>(ids.size()); ++t) {
    if (ids.tokens[t].modality != ropescope::Modality::Text) continue;
    if (textIndex != win.w.model()->scene().selectedText &&
        view->tokenAt(view->tokenPosition(t).toPoint()) == t) {
      text = t;
      break;
    }
    ++textIndex;
  }
  ASSERT_GE(text, 0);
  QTest::mouseClick(view, Qt::LeftButton, {}, view->tokenPosition(text).toPoint());
  EXPECT_EQ(win.w.model()->scene().selectedText, textIndex);
  EXPECT_EQ(win.w.model()->metrics().selectedToken, text);
  auto* spin = win.w.panel()->findChild<QSpinBox*>(QStringLiteral("selectedText"));
  ASSERT_NE(spin, nullptr);
  EXPECT_EQ(spin->value(), textIndex);

  // And back: the panel's spin box moves the cone in the 3-D view.
  spin->setValue(0);
  EXPECT_EQ(win.w.model()->metrics().selectedToken, 0);
}

// Selecting is not editing: a click on a text or a visual token in the 3-D view, or the panel's
// token box, left the saved scene "modified" (the title's asterisk, Quit asking to save) and
// must make no undo step. The file still remembers the selection when it is saved, since the
// figures are made for the selected text token (sameDocument, ropescope/scene.h).
TEST(MainWindow, SelectingATokenIsNoEdit) {
  Window win;
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("scene.json"));
  ASSERT_TRUE(win.w.saveTo(path));
  win.w.model()->clearHistory();
  ASSERT_FALSE(win.w.isModified());
  ASSERT_FALSE(win.w.isWindowModified());
  PositionSpaceView* view = win.w.spaceView();
  const auto& ids = view->ids();
  const int before = win.w.model()->scene().selectedText;
  // Every token the 3-D view can click (text and visual) but the selected text token.
  int clicks = 0, textIndex = -1;
  for (long t = 0; t < static_cast<long>(ids.size()); ++t) {
    const bool text = ids.tokens[t].modality == ropescope::Modality::Text;
    if (text) ++textIndex;
    if ((text && textIndex == before) || view->tokenAt(view->tokenPosition(t).toPoint()) != t)
      continue;
    QTest::mouseClick(view, Qt::LeftButton, {}, view->tokenPosition(t).toPoint());
    ++clicks;
    EXPECT_FALSE(win.w.isModified()) << "token " << t;
    EXPECT_FALSE(win.w.isWindowModified()) << "token " << t;
    EXPECT_FALSE(win.w.model()->canUndo()) << "token " << t;
  }
  EXPECT_GE(clicks, 4);
  auto* spin = win.w.panel()->findChild<QSpinBox*>(QStringLiteral("selectedText"));
  spin->setValue(spin->value() == 0 ? 1 : 0);
  EXPECT_FALSE(win.w.isModified());
  EXPECT_FALSE(win.w.model()->canUndo());
  // Saved, the file holds the selection; an edit still marks the scene modified.
  const int selected = win.w.model()->scene().selectedText;
  ASSERT_TRUE(win.w.saveTo(path));
  numberField(win.w.panel(), "alpha")->setValue(0.3);
  EXPECT_TRUE(win.w.isModified());
  EXPECT_TRUE(win.w.isWindowModified());
  ASSERT_TRUE(win.w.openFile(path));
  EXPECT_EQ(win.w.model()->scene().selectedText, selected);
}

TEST(MainWindow, SaveAndReopenRoundTrips) {
  Window win;
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("scene.json"));
  numberField(win.w.panel(), "alpha")->setValue(0.3);
  ASSERT_TRUE(win.w.saveTo(path));
  EXPECT_FALSE(win.w.isModified());
  EXPECT_TRUE(win.w.windowTitle().contains(QStringLiteral("scene.json")));
  numberField(win.w.panel(), "alpha")->setValue(0.9);
  EXPECT_TRUE(win.w.isModified());
  ASSERT_TRUE(win.w.openFile(path));
  EXPECT_FALSE(win.w.isModified());
  EXPECT_NEAR(win.w.model()->scene().designParams.find("alpha").value_or(-1), 0.3, 1e-12);
  EXPECT_NEAR(numberField(win.w.panel(), "alpha")->value(), 0.3, 1e-12);
}

// A user's-eye report: File -> Open recent listed bare names, so two s1.json from different
// folders looked the same. Each entry is numbered and names its folder ('&' shown as itself).
TEST(MainWindow, OpenRecentNamesEachFilesFolder) {
  Window win;
  QTemporaryDir dir;
  ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("runs/a")));
  ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("runs/b&c")));
  const QString first = dir.filePath(QStringLiteral("runs/a/s1.json"));
  const QString second = dir.filePath(QStringLiteral("runs/b&c/s1.json"));
  ASSERT_TRUE(win.w.saveTo(first));
  ASSERT_TRUE(win.w.saveTo(second));
  QMenu* recent = nullptr;
  for (QMenu* m : win.w.findChildren<QMenu*>())
    if (m->title() == QStringLiteral("Open &recent")) recent = m;
  ASSERT_NE(recent, nullptr);
  const QList<QAction*> entries = recent->actions();
  ASSERT_GE(entries.size(), 2);
  EXPECT_TRUE(entries[0]->text().startsWith(QStringLiteral("&1  s1.json  ")))
      << entries[0]->text().toStdString();
  EXPECT_TRUE(entries[0]->text().endsWith(QStringLiteral("runs/b&&c")))
      << entries[0]->text().toStdString();
  EXPECT_TRUE(entries[1]->text().startsWith(QStringLiteral("&2  s1.json  ")));
  EXPECT_TRUE(entries[1]->text().endsWith(QStringLiteral("runs/a")))
      << entries[1]->text().toStdString();
  EXPECT_EQ(entries[0]->toolTip(), QFileInfo(second).absoluteFilePath());
}

// A user's-eye report: an audio token picked in one layout stayed highlighted in the 3-D view
// after the layout changed (another sound in its place), while the sound tab showed none.
TEST(MainWindow, AnAudioPickIsDroppedWithItsLayout) {
  Window win;
  ropescope::Scene s = win.w.model()->scene();
  s.layout = ropescope::parseLayoutSpec("t3,a40,t2");
  win.w.model()->setScene(s);
  win.w.showSideTab(QStringLiteral("sound"));
  QCoreApplication::processEvents();
  win.w.spaceView()->setSelectedAudio(37);
  win.w.soundView()->setSelectedAudio(37);
  s.layout = ropescope::parseLayoutSpec("t4,a50,t4");
  win.w.model()->setScene(s);
  EXPECT_EQ(win.w.spaceView()->selectedAudio(), -1);
  EXPECT_EQ(win.w.soundView()->selectedAudio(), -1);
  // An edit that keeps the layout keeps the pick.
  win.w.spaceView()->setSelectedAudio(12);
  win.w.soundView()->setSelectedAudio(12);
  s.frequency.rotary.base = 20000;
  win.w.model()->setScene(s);
  EXPECT_EQ(win.w.spaceView()->selectedAudio(), 12);
  EXPECT_EQ(win.w.soundView()->selectedAudio(), 12);
}

// Edit -> Undo / Redo take back a panel edit and bring it back; in a text field Ctrl+Z is the
// field's own undo of its text, not the scene's.
TEST(MainWindow, EditUndoAndRedoTakeBackAPanelEdit) {
  Window win;
  win.w.model()->clearHistory();
  QAction *undo = nullptr, *redo = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>()) {
    if (a->text() == QStringLiteral("&Undo")) undo = a;
    if (a->text() == QStringLiteral("&Redo")) redo = a;
  }
  ASSERT_NE(undo, nullptr);
  ASSERT_NE(redo, nullptr);
  EXPECT_FALSE(undo->isEnabled());
  QDoubleSpinBox* alpha = numberField(win.w.panel(), "alpha");
  ASSERT_NE(alpha, nullptr);
  const double before = alpha->value();
  alpha->setValue(0.3);
  ASSERT_TRUE(undo->isEnabled());
  undo->trigger();
  EXPECT_DOUBLE_EQ(alpha->value(), before);
  EXPECT_EQ(win.w.model()->validScene().designParams.find("alpha").value_or(before), before);
  EXPECT_FALSE(undo->isEnabled());
  ASSERT_TRUE(redo->isEnabled());
  redo->trigger();
  EXPECT_DOUBLE_EQ(alpha->value(), 0.3);
  EXPECT_DOUBLE_EQ(win.w.model()->validScene().designParams.find("alpha").value_or(-1), 0.3);

  auto* line = win.w.panel()->findChild<QLineEdit*>(QStringLiteral("layoutSpec"));
  ASSERT_NE(line, nullptr);
  win.w.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&win.w));
  line->setFocus();
  const QString shown = line->text();
  line->end(false);
  QTest::keyClicks(line, QStringLiteral(",t1"));
  QTest::keyClick(line, Qt::Key_Z, Qt::ControlModifier);
  EXPECT_EQ(line->text(), shown);  // the field undid its typing
  EXPECT_DOUBLE_EQ(win.w.model()->validScene().designParams.find("alpha").value_or(-1), 0.3);
}

TEST(MainWindow, CompareModeTitlesAndLinksCameras) {
  Window win;
  win.w.setCompareMode(true);
  CompareView* compare = win.w.compareView();
  showAndSettle(compare);
  ASSERT_EQ(compare->viewCount(), 4);
  EXPECT_EQ(compare->designs(),
            (std::vector<std::string>{"hard", "unordered", "spatial", "circle"}));
  EXPECT_GT(compare->ptds()[0], 1.0);          // hard: text and image far apart in 1-D
  EXPECT_NEAR(compare->ptds()[3], 0.0, 1e-9);  // circle: the cone, PTD 0
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(looksBlank(compare->view(i)->grabFramebuffer())) << i;

  PositionSpaceView* source = compare->view(0);
  double before[3];
  compare->view(2)->camera()->GetDirectionOfProjection(before);
  drag(source, QPointF(source->width() / 2.0, source->height() / 2.0),
       QPointF(source->width() / 2.0 + 60, source->height() / 2.0 + 25));
  double src[3], other[3];
  source->camera()->GetDirectionOfProjection(src);
  for (int i = 1; i < 4; ++i) {
    compare->view(i)->camera()->GetDirectionOfProjection(other);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(other[a], src[a], 1e-9) << "view " << i;
  }
  EXPECT_GT(
      std::abs(before[0] - src[0]) + std::abs(before[1] - src[1]) + std::abs(before[2] - src[2]),
      0.05);
  // Edits reach every compare view once the event loop has run.
  win.w.model()->edit(
      [](ropescope::Scene& sc) { sc.layout = ropescope::parseLayoutSpec("t2,i3x3,t2"); });
  EXPECT_TRUE(waitUntil([&] {
    for (int i = 0; i < 4; ++i)
      if (compare->view(i)->ids().size() != 13u) return false;
    return true;
  }));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(compare->view(i)->ids().size(), 13u) << "view " << i;
}

TEST(MainWindow, QuitAsksAboutUnsavedChanges) {
  Window win;
  numberField(win.w.panel(), "alpha")->setValue(0.1);
  ASSERT_TRUE(win.w.isModified());
  auto answer = [](QMessageBox::StandardButton button, bool* asked) {
    QTimer::singleShot(100, [button, asked] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      *asked = box != nullptr;
      if (box) box->button(button)->click();
    });
  };
  bool asked = false;
  answer(QMessageBox::Cancel, &asked);
  EXPECT_FALSE(win.w.close());
  EXPECT_TRUE(asked);
  EXPECT_TRUE(win.w.isVisible());

  asked = false;
  answer(QMessageBox::Discard, &asked);
  EXPECT_TRUE(win.w.close());
  EXPECT_TRUE(asked);
}

// A user's-eye report: a preset chosen over a scene with unsaved changes replaced it without a
// word, and the next Ctrl+S wrote the preset over the scene's file. The preset asks first, as
// Open does; Cancel keeps everything; Discard opens it as a new untitled scene, so the file
// that was open is left as it was saved.
TEST(MainWindow, APresetAsksAboutUnsavedChangesAndOpensUntitled) {
  Window win;
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("s1.json"));
  ASSERT_TRUE(win.w.saveTo(file));
  const QByteArray saved = [&] {
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
  }();
  ASSERT_FALSE(saved.isEmpty());
  numberField(win.w.panel(), "alpha")->setValue(0.1);
  ASSERT_TRUE(win.w.isModified());
  const ropescope::Scene edited = win.w.model()->scene();
  auto* preset = win.w.findChild<QAction*>(QStringLiteral("preset_roformer-decay"));
  ASSERT_NE(preset, nullptr);
  bool asked = false;
  QMessageBox::StandardButton button = QMessageBox::Cancel;
  QTimer answer;  // answers the question inside its own event loop, whenever it shows
  QObject::connect(&answer, &QTimer::timeout, [&] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      asked = true;
      box->button(button)->click();
    }
  });
  answer.start(10);

  preset->trigger();
  EXPECT_TRUE(asked);
  EXPECT_EQ(win.w.model()->scene(), edited);
  EXPECT_EQ(win.w.currentFile(), file);
  EXPECT_TRUE(win.w.isModified());

  asked = false;
  button = QMessageBox::Discard;
  preset->trigger();
  EXPECT_TRUE(asked);
  EXPECT_EQ(win.w.model()->scene(), ropescope::ui::findFigurePreset("roformer-decay").scene);
  EXPECT_TRUE(win.w.currentFile().isEmpty());
  EXPECT_FALSE(win.w.isModified());
  EXPECT_TRUE(win.w.windowTitle().startsWith(QStringLiteral("untitled")));
  QFile f(file);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(f.readAll(), saved);
}

// A user's-eye report: Open processor output without a model let the user pick a file and only
// then said "Open a model first". It says so before any file dialog.
TEST(MainWindow, OpenProcessorOutputWithoutAModelSaysSoFirst) {
  Window win;
  ASSERT_TRUE(win.w.model()->scene().model.empty());
  QAction* open = nullptr;
  for (QAction* a : win.w.findChildren<QAction*>())
    if (a->text().startsWith(QStringLiteral("Open &processor output"))) open = a;
  ASSERT_NE(open, nullptr);
  QStringList seen;
  QTimer answer;  // closes each modal window as it shows, and notes what it was
  QObject::connect(&answer, &QTimer::timeout, [&] {
    QWidget* modal = QApplication::activeModalWidget();
    if (!modal) return;
    seen << QString::fromLatin1(modal->metaObject()->className());
    if (auto* box = qobject_cast<QMessageBox*>(modal))
      box->button(QMessageBox::Ok)->click();
    else if (auto* dialog = qobject_cast<QDialog*>(modal))
      dialog->reject();
  });
  answer.start(10);
  open->trigger();
  EXPECT_EQ(seen, QStringList{QStringLiteral("QMessageBox")});
}

TEST(MainWindow, QuitAfterSavingDoesNotAsk) {
  Window win;
  numberField(win.w.panel(), "alpha")->setValue(0.1);
  QTemporaryDir dir;
  ASSERT_TRUE(win.w.saveTo(dir.filePath(QStringLiteral("saved.json"))));
  ASSERT_FALSE(win.w.isModified());
  bool asked = false;
  // A prompt would block close() in its own event loop, where this timer answers it and records
  // that it came; without one close() returns at once and the timer never fires.
  QTimer answer;
  QObject::connect(&answer, &QTimer::timeout, [&asked] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      asked = true;
      box->button(QMessageBox::Cancel)->click();
    }
  });
  answer.start(10);
  EXPECT_TRUE(win.w.close());
  EXPECT_FALSE(asked);
}

// A bad AGE layer count is reported beside the AGE box (core's field id age_layers), not at the
// top of the panel.
TEST(MainWindow, AgeErrorShowsBesideTheAgeBox) {
  Window win;
  auto* layers = win.w.panel()->findChild<QSpinBox*>(QStringLiteral("age_layers"));
  ASSERT_NE(layers, nullptr);
  // The box itself refuses 0 (its range is the field table's): the edit comes from a file.
  win.w.model()->edit([](ropescope::Scene& s) { s.age.layers = 0; });  // AGE layers must be 1..1024
  EXPECT_NE(win.w.panel()->errorFor(QStringLiteral("age_layers")).toStdString().find("1..1024"),
            std::string::npos);
  EXPECT_TRUE(win.w.panel()->errorFor(QString()).isEmpty());
  layers->setValue(12);
  EXPECT_TRUE(win.w.panel()->errorFor(QStringLiteral("age_layers")).isEmpty());
}

// a click on a text token recomputes only what reads the selection. Counted,
// not timed: no full metrics, no design comparison, no new 3-D geometry, the four compare views'
// ids kept; and the cone, the profile and the compare views follow the new token.
TEST(MainWindow, TextTokenClickRecomputesOnlyTheSelection) {
  Window win;
  SceneModel* model = win.w.model();
  model->flushSummaries();
  win.w.setCompareMode(true);
  CompareView* compare = win.w.compareView();
  showAndSettle(compare);
  ASSERT_TRUE(waitUntil([&] { return compare->computations() > 0; }));
  win.w.setCompareMode(false);
  showAndSettle(win.w.spaceView());
  const int full = model->fullComputations();
  const int comparisons = model->comparisons();
  const int builds = win.w.spaceView()->geometryBuilds();
  const int compareRuns = compare->computations();
  std::vector<int> compareBuilds;
  for (int i = 0; i < compare->viewCount(); ++i)
    compareBuilds.push_back(compare->view(i)->geometryBuilds());
  const int text = model->scene().selectedText == 1 ? 2 : 1;
  model->setSelectedText(text);
  EXPECT_EQ(model->fullComputations(), full);
  EXPECT_EQ(model->comparisons(), comparisons);
  EXPECT_FALSE(model->summariesPending());
  EXPECT_EQ(win.w.spaceView()->geometryBuilds(), builds);
  const long token = ropescope::selectedTextToken(model->metrics().ids, text);
  EXPECT_EQ(model->metrics().selectedToken, token);
  EXPECT_EQ(win.w.charts()->profilePointCount(),
            static_cast<int>(model->metrics().selectedDistance.size()));
  // The hidden compare views stay as they were until shown; then they move the cone without
  // computing their designs' ids again.
  win.w.setCompareMode(true);
  showAndSettle(compare);
  EXPECT_EQ(compare->computations(), compareRuns);
  for (int i = 0; i < compare->viewCount(); ++i)
    EXPECT_EQ(compare->view(i)->geometryBuilds(), compareBuilds[static_cast<std::size_t>(i)]) << i;
  // An edit of the ids still rebuilds the geometry and compares the designs again.
  model->edit([](ropescope::Scene& s) { s.designParams.set("alpha", 0.2); });
  EXPECT_EQ(model->fullComputations(), full + 1);
  EXPECT_TRUE(model->comparisons() > comparisons || model->summariesPending());
  // The main 3-D view, hidden behind compare mode, rebuilds once shown (dirty until shown).
  EXPECT_EQ(win.w.spaceView()->geometryBuilds(), builds);
  win.w.setCompareMode(false);
  EXPECT_GT(win.w.spaceView()->geometryBuilds(), builds);
}

// A click on a text token paints the window once: the layouts the views' new
// texts ask for (the status bar, the formula panel) run before the paint, not as a second and
// a third repaint of the whole window after it, and boxes whose value stayed are not repainted.
TEST(MainWindow, ATokenClickPaintsEachChangedWidgetOnce) {
  Window win;
  SceneModel* model = win.w.model();
  model->flushSummaries();
  showAndSettle(&win.w);
  struct Paints : QObject {
    std::map<QObject*, int> count;
    bool eventFilter(QObject* o, QEvent* e) override {
      if (e->type() == QEvent::Paint) ++count[o];
      return false;
    }
  } paints;
  qApp->installEventFilter(&paints);
  model->setSelectedText(model->scene().selectedText == 1 ? 2 : 1);
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
  }
  qApp->removeEventFilter(&paints);
  QWidget* status = win.w.statusBar()->findChild<QLabel*>(QStringLiteral("statusMetrics"));
  QWidget* formulas = win.w.findChild<QWidget*>(QStringLiteral("positionFormulas"));
  ASSERT_NE(status, nullptr);
  ASSERT_NE(formulas, nullptr);
  EXPECT_EQ(paints.count[win.w.spaceView()], 1);
  EXPECT_EQ(paints.count[formulas], 1);
  // The status line at most once: it may not change at all (a temporary message covers it, or
  // the compute time reads the same to the hundredth of a millisecond).
  EXPECT_LE(paints.count[status], 1);
  EXPECT_LE(paints.count[win.w.statusBar()], 1);
  // The image grid's boxes show what they showed.
  for (const char* name : {"min_pixels", "max_pixels", "patch", "merge"}) {
    QWidget* box = win.w.panel()->findChild<QSpinBox*>(QLatin1String(name));
    ASSERT_NE(box, nullptr) << name;
    EXPECT_EQ(paints.count[box], 0) << name;
  }
}

// A large scene's four designs are computed on the background worker: the
// edit returns before they are, the views say they are stale meanwhile, a newer edit replaces
// an older one, and the ids that arrive are those of the newest scene with its selection.
TEST(MainWindow, CompareViewComputesLargeScenesInTheBackground) {
  Window win;
  CompareView* compare = win.w.compareView();
  compare->setBackgroundTokens(0);  // every scene counts as large here
  win.w.setCompareMode(true);
  showAndSettle(compare);
  ASSERT_TRUE(waitUntil([&] { return compare->settled(); }));
  const int before = compare->computations();
  SceneModel* model = win.w.model();
  model->edit([](ropescope::Scene& sc) { sc.layout = ropescope::parseLayoutSpec("t3,i4x4,t3"); });
  // Not computed on this thread: the edit has returned, the old ids are shown, marked stale.
  EXPECT_EQ(compare->computations(), before);
  EXPECT_FALSE(compare->settled());
  for (int i = 0; i < compare->viewCount(); ++i) EXPECT_TRUE(compare->view(i)->isStale()) << i;
  // A newer edit before the first result: only its ids are shown in the end.
  model->edit([](ropescope::Scene& sc) {
    sc.layout = ropescope::parseLayoutSpec("t2,i5x5,t2");
    sc.selectedText = 3;
  });
  ASSERT_TRUE(waitUntil([&] { return compare->settled(); }));
  EXPECT_GE(compare->computations(), before + 1);
  EXPECT_LE(compare->computations(), before + 2);
  for (int i = 0; i < compare->viewCount(); ++i) {
    SCOPED_TRACE(compare->designs()[static_cast<std::size_t>(i)]);
    PositionSpaceView* v = compare->view(i);
    EXPECT_FALSE(v->isStale());
    const ropescope::Scene scene =
        ropescope::sceneUnderDesign(model->validScene(), compare->designs()[std::size_t(i)]);
    const ropescope::DesignIds want = ropescope::computeDesignIds(scene, 1);
    ASSERT_EQ(v->ids().size(), 29u);
    for (std::size_t t = 0; t < want.ids.size(); ++t)
      for (int a = 0; a < 3; ++a) ASSERT_EQ(v->ids().ids[t][a], want.ids.ids[t][a]) << t;
    EXPECT_EQ(v->selectedToken(), ropescope::selectedTextToken(want.ids, 3));
    EXPECT_EQ(compare->ptds()[std::size_t(i)], want.ptd.ptd);
  }
}

// A view hidden while the scene changed keeps its old picture and recomputes once shown.
TEST(MainWindow, HiddenCompareViewRecomputesWhenShown) {
  Window win;
  CompareView* compare = win.w.compareView();
  ASSERT_FALSE(compare->isVisible());
  const int before = compare->computations();
  win.w.model()->edit(
      [](ropescope::Scene& sc) { sc.layout = ropescope::parseLayoutSpec("t2,i3x3,t2"); });
  QCoreApplication::processEvents();
  EXPECT_EQ(compare->computations(), before);  // hidden: nothing computed for it
  win.w.setCompareMode(true);
  showAndSettle(compare);
  EXPECT_EQ(compare->computations(), before + 1);
  for (int i = 0; i < compare->viewCount(); ++i) EXPECT_EQ(compare->view(i)->ids().size(), 13u);
}
