// File → Open model, Open processor output and Check position ids: a
// shipped model sets the scene's design and frequency, a hand-made Qwen2.5-VL processor output
// becomes the layout (special tokens visible in the segment table), a dump equal to the ids is
// identical and a dump with one changed id marks that token in the 3-D view; bad files leave
// the scene as it was with the message shown. A screenshot at 1366x768 with the model loaded
// goes to the build folder's tests/ui/screenshots/model_{loaded,menu,check}_1366x768.png.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <fstream>

#include "attention/attention_view.h"
#include "charts/layers_view.h"
#include "editors/parameter_editor.h"
#include "editors/rope_editor.h"
#include "editors/scene_panel.h"
#include "editors/segment_list_editor.h"
#include "image_compare.h"
#include "model/sample_scene.h"
#include "model/scene_model.h"
#include "ropescope/image_grid.h"
#include "ropescope/layer_attention.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layout.h"
#include "ropescope/model_config.h"
#include "ropescope/model_family.h"
#include "ropescope/npy.h"
#include "ropescope/scene_metrics.h"
#include "screen_util.h"
#include "shell/main_window.h"
#include "space/position_space_view.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

// Qwen2.5-VL-7B's config.json (resources/models/qwen2.5-vl-7b): vision_start 151652,
// vision_end 151653, image_token 151655. A chat of 3 text tokens, <|vision_start|>, the 4
// image tokens of a 56x56 picture (ViT grid [1,4,4], merged 2x2 -> 2x2 LLM tokens),
// <|vision_end|> and 2 text tokens.
const char* kTokens =
    R"({"input_ids": [[9707, 11, 1879, 151652, 151655, 151655, 151655, 151655, 151653, 3838, 30]],
        "attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]],
        "image_grid_thw": [[1, 4, 4]], "pixel_values": [[0.5, 0.25]]})";

// The ids by hand from transformers' Qwen2.5-VL get_rope_index (4.57): text tokens before the
// image count 0..3 on all three axes (the vision_start token is text: 3); the image starts at
// st = 4 with t = 4 + 0 (one temporal patch; its t_index * tokens_per_second * second_per_grid
// is 0), h = 4 + row, w = 4 + col over the 2x2 grid; the text after it starts at the block's
// max + 1 = 5 + 1 = 6: vision_end 6, then 7, 8.
const std::vector<Id3> kIds = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {4, 4, 5},
                               {4, 5, 4}, {4, 5, 5}, {6, 6, 6}, {7, 7, 7}, {8, 8, 8}};

// A [3, 1, N] int64 position_ids dump, as np.save writes HF's tensor.
void writeDump(const QString& path, const std::vector<Id3>& ids) {
  const std::size_t n = ids.size();
  std::vector<std::int64_t> v(3 * n);
  for (std::size_t a = 0; a < 3; ++a)
    for (std::size_t i = 0; i < n; ++i) v[a * n + i] = static_cast<std::int64_t>(ids[i][a]);
  std::string h = npyHeader({3, 1, n}, "<i8");
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::ofstream f(path.toStdString(), std::ios::binary);
  f << "\x93NUMPY" << '\x01' << '\0' << static_cast<char>(h.size() & 0xff)
    << static_cast<char>(h.size() >> 8) << h;
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 8));
}

void writeText(const QString& path, const std::string& text) {
  std::ofstream(path.toStdString(), std::ios::binary) << text;
}

// Runs `action` and answers the message box it shows; returns the box's text ("" if none).
template <typename Action>
QString messageOf(Action&& action) {
  QString message;
  QTimer::singleShot(0, [&] {
    waitUntil([] { return qobject_cast<QMessageBox*>(QApplication::activeModalWidget()); });
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!box) return;
    message = box->text();
    dismissModal(box);
  });
  action();
  return message;
}

QString kindText(QTableWidget* table, int row) {
  auto* combo = qobject_cast<QComboBox*>(table->cellWidget(row, 0));
  return combo ? combo->currentText() : QString();
}

}  // namespace

TEST(ModelGui, OpenModelTokensAndCheckIds) {
  (void)samplePicturePath();  // installs the shipped-model locator of the app's resources
  MainWindow w;
  w.model()->setScene(fixedScene());
  showAndSettle(&w);
  QTemporaryDir dir;

  // Processor output without a model: asks for one, scene unchanged.
  writeText(dir.filePath(QStringLiteral("tokens.json")), kTokens);
  Scene before = w.model()->scene();
  QString message = messageOf([&] { EXPECT_FALSE(w.openTokens(dir.filePath("tokens.json"))); });
  EXPECT_TRUE(message.contains(QStringLiteral("Open a model first"))) << message.toStdString();
  EXPECT_EQ(w.model()->scene(), before);

  // File -> Check position ids without a model family's design: said at once (it asked for a
  // file first, and only then said that nothing could be checked).
  QAction* check = nullptr;
  for (QAction* a : w.findChildren<QAction*>())
    if (a->text().startsWith(QStringLiteral("&Check position ids"))) check = a;
  ASSERT_NE(check, nullptr);
  QString asked;
  QTimer::singleShot(0, [&] {
    waitUntil([] { return QApplication::activeModalWidget() != nullptr; });
    QWidget* modal = QApplication::activeModalWidget();
    auto* box = qobject_cast<QMessageBox*>(modal);
    asked = box ? box->text() : QStringLiteral("a file dialog");
    if (modal) dismissModal(modal);
  });
  check->trigger();
  EXPECT_TRUE(asked.contains(QStringLiteral("needs a model family's design")))
      << asked.toStdString();

  // A bad folder: the one-line message, scene unchanged.
  message = messageOf([&] { EXPECT_FALSE(w.openModel(dir.filePath(QStringLiteral("nope")))); });
  EXPECT_FALSE(message.isEmpty());
  EXPECT_FALSE(message.contains(QLatin1Char('\n'))) << message.toStdString();
  EXPECT_EQ(w.model()->scene(), before);

  // The shipped menu lists the model; opening it sets design and frequency.
  QMenu* models = w.findChild<QMenu*>(QStringLiteral("modelMenu"));
  ASSERT_NE(models, nullptr);
  bool listed = false;
  for (QAction* a : models->actions()) listed = listed || a->text() == "qwen2.5-vl-7b";
  EXPECT_TRUE(listed);
  ASSERT_TRUE(w.openModel(QStringLiteral("qwen2.5-vl-7b")));
  const Scene& s = w.model()->scene();
  EXPECT_EQ(s.design, "qwen2.5-vl");
  EXPECT_EQ(s.model, "qwen2.5-vl-7b");
  // The published config: rope_theta 1e6, head dim 3584 / 28 = 128, mrope_section [16,24,24],
  // NeoX pairs, the whole head rotated.
  EXPECT_EQ(s.frequency.rotary.base, 1e6);
  EXPECT_EQ(s.frequency.rotary.headDim, 128);
  EXPECT_EQ(s.frequency.sections, (std::vector<int>{16, 24, 24}));
  EXPECT_EQ(s.frequency.rotary.pairs, PairLayout::NeoX);
  EXPECT_EQ(s.imageGrid.patch, 14);
  EXPECT_EQ(s.imageGrid.merge, 2);
  auto* info = w.panel()->findChild<QLabel*>(QStringLiteral("modelInfo"));
  ASSERT_NE(info, nullptr);
  EXPECT_TRUE(info->text().contains(QStringLiteral("qwen2.5-vl-7b"))) << info->text().toStdString();
  EXPECT_TRUE(info->text().contains(QStringLiteral("Qwen2.5-VL"))) << info->text().toStdString();
  EXPECT_FALSE(info->text().contains(QChar(0xC2))) << "UTF-8 read as Latin-1";

  // The rule set is a choice in the parameter editor: the named sets, then every release.
  ParameterEditor* rules = w.panel()->parameterEditor("rules");
  ASSERT_NE(rules, nullptr);
  auto* rulesBox = rules->findChild<QComboBox*>();
  ASSERT_NE(rulesBox, nullptr);
  ASSERT_EQ(rulesBox->count(), static_cast<int>(ruleSetNames().size()));
  EXPECT_EQ(rulesBox->itemText(0), QStringLiteral("hf-4.57"));
  EXPECT_EQ(rulesBox->itemText(2), QStringLiteral("hf-main"));
  EXPECT_EQ(rulesBox->itemText(3), QStringLiteral("4.45.0"));
  EXPECT_EQ(rulesBox->itemText(rulesBox->count() - 1), QStringLiteral("main"));

  // A bad tokens file: message, scene unchanged.
  writeText(dir.filePath(QStringLiteral("bad.json")), "{\"input_ids\": [1, 2,");
  before = w.model()->scene();
  message = messageOf([&] { EXPECT_FALSE(w.openTokens(dir.filePath("bad.json"))); });
  EXPECT_TRUE(message.contains(QStringLiteral("bad.json"))) << message.toStdString();
  EXPECT_EQ(w.model()->scene(), before);

  // The processor output becomes the layout: text 3, special 1, image 2x2, special 1, text 2.
  ASSERT_TRUE(w.openTokens(dir.filePath(QStringLiteral("tokens.json"))));
  waitUntil([&] { return !w.model()->computing(); });
  const Layout& l = w.model()->scene().layout;
  ASSERT_EQ(l.segments.size(), 5u) << formatLayoutSpec(l);
  EXPECT_EQ(l.segments[0].length, 3);
  EXPECT_EQ(l.segments[1].role, TextRole::Special);
  EXPECT_EQ(l.segments[2].kind, SegmentKind::Image);
  EXPECT_EQ(l.segments[2].rows, 2);
  EXPECT_EQ(l.segments[2].cols, 2);
  EXPECT_EQ(l.segments[3].role, TextRole::Special);
  EXPECT_EQ(l.segments[4].length, 2);
  auto* table = w.panel()->segmentEditor()->findChild<QTableWidget*>();
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), 5);
  EXPECT_EQ(kindText(table, 0), QStringLiteral("text"));
  EXPECT_EQ(kindText(table, 1), QStringLiteral("special"));
  EXPECT_EQ(kindText(table, 2), QStringLiteral("image"));
  EXPECT_EQ(kindText(table, 3), QStringLiteral("special"));
  EXPECT_EQ(kindText(table, 4), QStringLiteral("text"));
  ASSERT_EQ(w.spaceView()->ids().size(), kIds.size());
  EXPECT_EQ(w.spaceView()->ids().ids, kIds);

  // Check ids: the hand-derived dump is identical.
  writeDump(dir.filePath(QStringLiteral("same.npy")), kIds);
  ASSERT_TRUE(w.checkIds(dir.filePath(QStringLiteral("same.npy"))));
  EXPECT_TRUE(w.idsCheckText().startsWith(QStringLiteral("identical (11 tokens, hf-4.57)")))
      << w.idsCheckText().toStdString();
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("identical")));
  EXPECT_TRUE(w.spaceView()->markedTokens().empty());

  // One changed id (token 6, the image's cell (0,1,0): h 5 -> 9) differs and is marked.
  std::vector<Id3> changed = kIds;
  changed[6][1] = 9;
  writeDump(dir.filePath(QStringLiteral("changed.npy")), changed);
  ASSERT_TRUE(w.checkIds(dir.filePath(QStringLiteral("changed.npy"))));
  EXPECT_TRUE(w.idsCheckText().contains(QStringLiteral("differs at token 6 (image")))
      << w.idsCheckText().toStdString();
  EXPECT_TRUE(w.idsCheckText().contains(QStringLiteral("1 of 11 tokens differ")));
  EXPECT_TRUE(w.idsCheckText().contains(QStringLiteral("token id 151655")));
  EXPECT_EQ(w.spaceView()->markedTokens(), (std::vector<long>{6}));
  // The line fits the status bar: shortened with an ellipsis in a narrow window, whole as the
  // bar's tooltip; whole, with no tooltip, where it fits.
  const QFontMetrics metrics = w.statusBar()->fontMetrics();
  const QString whole = w.checkMessage();
  const QSize wide = w.size();
  w.resize(std::min(wide.width(), metrics.horizontalAdvance(whole) / 2 + 100), wide.height());
  QCoreApplication::processEvents();
  ASSERT_LT(w.statusBar()->width(), metrics.horizontalAdvance(whole));
  ASSERT_TRUE(w.checkIds(dir.filePath(QStringLiteral("changed.npy"))));
  const QString shown = w.statusBar()->currentMessage();
  EXPECT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString();
  EXPECT_TRUE(whole.startsWith(shown.chopped(1))) << shown.toStdString();
  EXPECT_LE(metrics.horizontalAdvance(shown), w.statusBar()->width());
  EXPECT_EQ(w.statusBar()->toolTip(), whole);
  w.resize(std::max(wide.width(), metrics.horizontalAdvance(whole) + 200), wide.height());
  QCoreApplication::processEvents();
  ASSERT_TRUE(w.checkIds(dir.filePath(QStringLiteral("changed.npy"))));
  EXPECT_EQ(w.statusBar()->currentMessage(), whole);
  EXPECT_TRUE(w.statusBar()->toolTip().isEmpty());
  w.resize(wide);

  // A dump of another length: message, the marks and scene stay.
  before = w.model()->scene();
  writeDump(dir.filePath(QStringLiteral("short.npy")),
            std::vector<Id3>(kIds.begin(), kIds.end() - 1));
  message = messageOf([&] { EXPECT_FALSE(w.checkIds(dir.filePath("short.npy"))); });
  EXPECT_TRUE(message.contains(QStringLiteral("hold 10 tokens"))) << message.toStdString();
  EXPECT_EQ(w.model()->scene(), before);
  EXPECT_EQ(w.statusBar()->currentMessage(), w.checkMessage());
  EXPECT_FALSE(w.statusBar()->currentMessage().isEmpty());

  // Another layout: the check's marks and its status line go (the line stayed).
  w.model()->edit([](Scene& s) { s.layout.segments.push_back(Segment::text(1)); });
  QCoreApplication::processEvents();
  EXPECT_TRUE(w.spaceView()->markedTokens().empty());
  EXPECT_FALSE(w.statusBar()->currentMessage().startsWith(QStringLiteral("Check ids")))
      << w.statusBar()->currentMessage().toStdString();
  EXPECT_TRUE(w.idsCheckText().isEmpty());
  EXPECT_TRUE(w.statusBar()->toolTip().isEmpty());
  w.model()->edit([](Scene& s) { s.layout.segments.pop_back(); });

  // The scene file remembers the model.
  const QString scene = dir.filePath(QStringLiteral("scene.json"));
  ASSERT_TRUE(w.saveTo(scene));
  w.model()->setScene(fixedScene());
  ASSERT_TRUE(w.openFile(scene));
  EXPECT_EQ(w.model()->scene().model, "qwen2.5-vl-7b");
  EXPECT_EQ(w.model()->scene().layout, l);
}

// At 1366x768 under a window manager: the window with a model loaded, and its File menu and
// model submenu, saved for a person to look at; the model box text is not cut off.
// A user's-eye report: Open model left castle.png on the old model's grid (9 x 11 under
// Qwen3-VL, PTD 1.848) while the CLI cut it 8 x 10 (PTD 1.6707). Opened models cut the scene's
// pictures again: the window's ids and PTD are those of the layout parsed under the model.
TEST(ModelGui, OpenModelCutsThePicturesAgain) {
  MainWindow w;
  w.startWith(sampleScene());  // the castle under the default grid
  showAndSettle(&w);
  const std::string picture = samplePicturePath().toStdString();
  for (const char* name : {"qwen3-vl-8b", "glm-4.5v", "qwen3-vl-8b"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(w.openModel(QString::fromLatin1(name)));
    ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
    const ModelConfig model = readModelConfig(name);
    Scene expected = applyModel(defaultScene(), model);
    expected.layout = parseLayoutSpec("t4,img:" + picture + ",t8", {"", model.grid});
    const ImageGrid grid = smartResize(240, 320, model.grid);
    EXPECT_EQ(w.model()->metrics().ids.size(), 12u + std::size_t(grid.tokens()));
    EXPECT_EQ(w.model()->metrics().ptd.ptd, computeSceneMetrics(expected, 256, 1).ptd.ptd);
  }
  w.startWith(w.model()->scene());
}

// File -> Open model with a scaled checkpoint fills the scene panel's rope rows; a model
// without a scaling empties them.
TEST(ModelGui, OpenScaledModelFillsTheRopeRows) {
  MainWindow w;
  showAndSettle(&w);
  ASSERT_TRUE(w.openModel(QStringLiteral("qwen2.5-vl-yarn-7b")));
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  QApplication::processEvents();
  RopeEditor* rope = w.panel()->ropeEditor();
  ASSERT_NE(rope, nullptr);
  EXPECT_EQ(rope->typeBox()->currentData().toString(), QStringLiteral("yarn"));
  ASSERT_NE(rope->editor("factor"), nullptr);
  EXPECT_EQ(rope->editor("factor")->value(), 4.0);
  EXPECT_EQ(rope->editor("original_max_position_embeddings")->value(), 32768.0);
  EXPECT_NE(rope->infoText().indexOf(QStringLiteral("1.1386")), -1)
      << rope->infoText().toStdString();
  ASSERT_TRUE(w.openModel(QStringLiteral("qwen2.5-vl-7b")));
  ASSERT_TRUE(w.model()->waitForMetrics(kHangGuardMs));
  EXPECT_EQ(rope->typeBox()->currentIndex(), 0);
  EXPECT_EQ(rope->editor("factor"), nullptr);
  EXPECT_TRUE(rope->infoText().isEmpty());
}

TEST(ModelGui, ScreenshotWithModelLoaded) {
  (void)samplePicturePath();
  MainWindow w;
  w.show();
  w.setWindowState(Qt::WindowMaximized);
  showAndSettle(&w);
  ASSERT_TRUE(w.openModel(QStringLiteral("qwen2.5-vl-7b")));
  waitUntil([&] { return !w.model()->computing(); });
  QApplication::processEvents();
  auto* info = w.panel()->findChild<QLabel*>(QStringLiteral("modelInfo"));
  ASSERT_NE(info, nullptr);
  EXPECT_GE(info->width(), info->fontMetrics().horizontalAdvance(info->text()) / 2);
  const QString out = QStringLiteral(ROPESCOPE_UI_SCREENSHOTS);
  QDir().mkpath(out);
  const QSize screen = QGuiApplication::primaryScreen()->size();
  const QString tag = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
  EXPECT_TRUE(QGuiApplication::primaryScreen()->grabWindow(0).save(
      out + QStringLiteral("/model_loaded_%1.png").arg(tag)));
  QMenu* file = w.menuBar()->findChildren<QMenu*>().value(0);
  for (QMenu* m : w.menuBar()->findChildren<QMenu*>())
    if (m->title() == QStringLiteral("&File")) file = m;
  ASSERT_NE(file, nullptr);
  file->popup(w.mapToGlobal(QPoint(0, w.menuBar()->height())));
  QMenu* models = w.findChild<QMenu*>(QStringLiteral("modelMenu"));
  ASSERT_NE(models, nullptr);
  waitUntil([&] { return file->isVisible(); });
  file->setActiveAction(models->menuAction());
  models->popup(file->mapToGlobal(file->actionGeometry(models->menuAction()).topRight()));
  waitUntil([&] { return models->isVisible(); });
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  EXPECT_TRUE(QGuiApplication::primaryScreen()->grabWindow(0).save(
      out + QStringLiteral("/model_menu_%1.png").arg(tag)));
  models->hide();
  file->hide();

  // The processor output checked against a dump with token 6 changed: its mark in 3-D.
  QTemporaryDir dir;
  writeText(dir.filePath(QStringLiteral("tokens.json")), kTokens);
  ASSERT_TRUE(w.openTokens(dir.filePath(QStringLiteral("tokens.json"))));
  waitUntil([&] { return !w.model()->computing(); });
  std::vector<Id3> changed = kIds;
  changed[6][1] = 9;
  writeDump(dir.filePath(QStringLiteral("changed.npy")), changed);
  ASSERT_TRUE(w.checkIds(dir.filePath(QStringLiteral("changed.npy"))));
  EXPECT_EQ(w.spaceView()->markedTokens(), (std::vector<long>{6}));
  for (int i = 0; i < 5; ++i) QApplication::processEvents();
  EXPECT_TRUE(QGuiApplication::primaryScreen()->grabWindow(0).save(
      out + QStringLiteral("/model_check_%1.png").arg(tag)));
}

namespace {
// Opens the attention dock on the CPU backend, softmax, whole map, and returns its result once
// the latest request's result is shown (nullptr if none came within the hang guard).
const AttentionResult* previewOnCpu(MainWindow& w) {
  AttentionView* v = w.attentionView();
  w.attentionDock()->show();
  v->setBackendChoice(BackendChoice::Cpu);
  v->setSoftmax(true);
  v->resetZoom();
  QElapsedTimer guard;
  guard.start();
  const auto settled = [&] {
    return !v->busy() && v->shownResult() &&
           v->shownResult()->generation == v->requestedGeneration();
  };
  while (!settled() && guard.elapsed() < 120000)
    QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
  return settled() ? v->shownResult() : nullptr;
}

}  // namespace

// The attention dock previews the layer the Layers tab shows: its line names the layer and the
// mask, and its map is core's preview of that layer (Gemma 3's sliding layer 0, a picture's
// tokens seeing each other), on the CPU. The wait is for the job's result, with a hang guard.
TEST(ModelGui, OpenGemmaAttentionFollowsTheLayer) {
  MainWindow w;
  w.show();
  showAndSettle(&w);
  ASSERT_TRUE(w.openModel(QStringLiteral("gemma-3-4b-it")));
  Scene s = w.model()->scene();
  s.layout = parseLayoutSpec("t3,i2x2,t2");
  w.model()->setScene(s);
  ASSERT_TRUE(w.layersView()->pickLayer(0));
  AttentionView* v = w.attentionView();
  const AttentionResult* r = previewOnCpu(w);
  ASSERT_TRUE(r) << "the attention preview did not finish";
  ASSERT_TRUE(r->error.isEmpty()) << r->error.toStdString();
  EXPECT_TRUE(v->layerLine().contains(QStringLiteral("layer 0 of gemma-3-4b-it")))
      << v->layerLine().toStdString();
  EXPECT_TRUE(v->layerLine().contains(QStringLiteral("picture"))) << v->layerLine().toStdString();
  ASSERT_EQ(r->request.layer, 0);
  ASSERT_TRUE(r->request.layerStack);
  auto cpu = makeCpuAttentionBackend(1);
  cpu->load(
      makeLayerAttentionProblem(r->request.scene, r->request.source, *r->request.layerStack, 0));
  const std::size_t n = r->tokens;
  ASSERT_EQ(n, 9u);
  std::vector<float> want(n * n);
  if (r->request.exactRows) {
    cpu->rows(r->request.head, 0, n, r->request.value, want.data());
    ASSERT_EQ(r->rows.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(r->rows[i], want[i]);
  } else {
    std::vector<float> pooled(r->blocksPerSide * r->blocksPerSide);
    cpu->pooled(r->request.head, r->request.block, r->request.value, pooled.data());
    ASSERT_EQ(r->pooled.size(), pooled.size());
    for (std::size_t i = 0; i < pooled.size(); ++i) EXPECT_FLOAT_EQ(r->pooled[i], pooled[i]);
  }
  // The first picture token sees the whole picture (tokens 3..6), not the text after it.
  cpu->rows(r->request.head, 3, 4, AttentionValue::Softmax, want.data());
  for (std::size_t j = 0; j < n; ++j) EXPECT_EQ(want[j] > 0.0f, j < 7) << j;
}

// A NoPE layer of Llama 4 picked in the Layers tab: the scene keeps its rotary (no undo step) and
// the attention dock previews the layer, its line naming it and the temperature, its map core's
// problem of that layer (no rotary, q times the temperature, the layer's mask), not layer 0's.
TEST(ModelGui, OpenLlama4AttentionPreviewsANoPELayer) {
  MainWindow w;
  w.show();
  showAndSettle(&w);
  ASSERT_TRUE(w.openModel(QStringLiteral("llama-4-scout-17b-16e")));
  Scene s = w.model()->scene();
  s.layout = parseLayoutSpec("t12");
  w.model()->setScene(s);
  w.model()->clearHistory();
  const Scene before = w.model()->scene();
  LayersView* layers = w.layersView();
  ASSERT_EQ(layers->shownLayer(), 0);
  ASSERT_TRUE(layers->pickLayer(3));  // no_rope_layers[3] == 0
  EXPECT_EQ(w.model()->scene().frequency, before.frequency);
  EXPECT_EQ(w.model()->scene(), before);
  EXPECT_FALSE(w.model()->canUndo());
  EXPECT_TRUE(layers->message().contains(QStringLiteral("Layer 3 has no rotary")))
      << layers->message().toStdString();
  EXPECT_TRUE(layers->message().contains(QStringLiteral("keep layer 0's rotary")))
      << layers->message().toStdString();
  AttentionView* v = w.attentionView();
  const AttentionResult* r = previewOnCpu(w);
  ASSERT_TRUE(r) << "the attention preview did not finish";
  ASSERT_TRUE(r->error.isEmpty()) << r->error.toStdString();
  const std::string line = v->layerLine().toStdString();
  EXPECT_TRUE(v->layerLine().contains(QStringLiteral("layer 3 of llama-4-scout-17b-16e"))) << line;
  EXPECT_TRUE(v->layerLine().contains(QStringLiteral("no rotary (NoPE)"))) << line;
  EXPECT_TRUE(v->layerLine().contains(QStringLiteral("temperature (floor_scale 8192, attn_scale")))
      << line;
  ASSERT_EQ(r->request.layer, 3);
  const std::size_t n = r->tokens;
  ASSERT_EQ(n, 12u);
  const LayerStack stack = readLayerStack("llama-4-scout-17b-16e");
  // The whole map, from core's problems built here from the scene: layer 3's, and layer 0's
  // (the rotary the other views show), which the dock's must not be.
  const auto mapOf = [&](int layer) {
    auto cpu = makeCpuAttentionBackend(1);
    cpu->load(makeLayerAttentionProblem(w.model()->scene(), r->request.source, stack, layer));
    std::vector<float> out;
    if (r->request.exactRows) {
      out.resize(n * n);
      cpu->rows(r->request.head, 0, n, r->request.value, out.data());
    } else {
      out.resize(r->blocksPerSide * r->blocksPerSide);
      cpu->pooled(r->request.head, r->request.block, r->request.value, out.data());
    }
    return out;
  };
  const std::vector<float> want = mapOf(3), rotary = mapOf(0);
  const std::vector<float>& got = r->request.exactRows ? r->rows : r->pooled;
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
  float apart = 0.0f;
  for (std::size_t i = 0; i < want.size(); ++i)
    apart = std::max(apart, std::abs(rotary[i] - want[i]));
  EXPECT_GT(apart, 1e-3f) << "layer 3's map is layer 0's: the test could not tell them apart";
}

// The Layers tab at the screen's size (1366x768 under openbox): the note, the Layer box, the line
// naming the layer shown and the table's header lie inside the tab, every wrapped line of the
// notes in its label's height, for Gemma 3 and for Llama 4 with a NoPE layer previewed.
TEST(ModelGui, ScreenshotLayersTab) {
  MainWindow w;
  w.show();
  w.setWindowState(Qt::WindowMaximized);
  showAndSettle(&w);
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  ASSERT_NE(tabs, nullptr);
  LayersView* layers = w.layersView();
  const QString out = QStringLiteral(ROPESCOPE_UI_SCREENSHOTS);
  QDir().mkpath(out);
  const QSize screen = QGuiApplication::primaryScreen()->size();
  const QString tag = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
  for (const char* name : {"gemma-3-4b-it", "llama-4-scout-17b-16e"}) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(w.openModel(QString::fromLatin1(name)));
    tabs->setCurrentWidget(layers);
    if (QString::fromLatin1(name).startsWith(QStringLiteral("llama"))) {
      EXPECT_TRUE(layers->pickLayer(3));  // NoPE: the line saying the dock previews it shows
    } else {
      EXPECT_TRUE(layers->pickLayer(0));
    }
    waitUntil([&] { return !w.model()->computing(); });
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    const QRect tab = layers->rect();
    for (QWidget* part : std::initializer_list<QWidget*>{layers->note(), layers->shownNote(),
                                                         layers->layerBox(), layers->showButton(),
                                                         layers->exportButton(), layers->table()}) {
      ASSERT_TRUE(part->isVisible()) << part->objectName().toStdString();
      const QRect r(part->mapTo(layers, QPoint(0, 0)), part->size());
      EXPECT_TRUE(tab.contains(r)) << part->objectName().toStdString();
    }
    for (QLabel* label : {layers->note(), layers->shownNote()})
      EXPECT_GE(label->height(), label->heightForWidth(label->width()))
          << label->text().toStdString();
    EXPECT_GT(layers->table()->viewport()->height(), 3 * layers->table()->rowHeight(0));
    if (QString::fromLatin1(name).startsWith(QStringLiteral("llama"))) {
      // The dock beside the tab: its line names the NoPE layer, whole, inside the window.
      w.attentionDock()->show();
      AttentionView* v = w.attentionView();
      ASSERT_TRUE(waitUntil([&] {
        return !v->busy() && v->shownResult() &&
               v->shownResult()->generation == v->requestedGeneration();
      }));
      for (int i = 0; i < 5; ++i) QApplication::processEvents();
      auto* line = v->findChild<QLabel*>(QStringLiteral("attentionLayer"));
      ASSERT_NE(line, nullptr);
      EXPECT_TRUE(line->text().contains(QStringLiteral("layer 3 of llama")))
          << line->text().toStdString();
      ASSERT_TRUE(line->isVisible());
      const QRect r(line->mapTo(&w, QPoint(0, 0)), line->size());
      EXPECT_TRUE(w.rect().contains(r));
      EXPECT_GE(line->height(), line->heightForWidth(line->width())) << line->text().toStdString();
    }
    EXPECT_TRUE(QGuiApplication::primaryScreen()->grabWindow(0).save(
        out + QStringLiteral("/layers_%1_%2.png").arg(QString::fromLatin1(name), tag)));
  }
}
