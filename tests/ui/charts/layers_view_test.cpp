// The Layers tab: the stack of each shipped per-layer config as core reads it (every cell against
// core's grid, every run against the layers it names), picking a layer gives the scene the
// rotary core's modelConfigOfLayer gives it (and the one the config's own block per layer type
// gives, read apart), in one undo step; a NoPE layer becomes the layer the attention dock
// previews, the scene unchanged and no undo step; a uniform model and no model each say so in one
// line.
#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <string>
#include <vector>

#include "charts/grid_table.h"
#include "charts/layers_view.h"
#include "gui_test_util.h"
#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/errors.h"
#include "ropescope/layer_stack.h"
#include "ropescope/layer_stack_report.h"
#include "ropescope/layout.h"
#include "ropescope/model_config.h"
#include "shell/main_window.h"

using namespace ropescope;
using namespace ropescope::ui;
using namespace ropescope::ui::test;

namespace {

struct ShownLayers {
  SceneModel model;
  LayersView view{&model};
  ModelConfig config;
  explicit ShownLayers(const std::string& name) : config(readModelConfig(name)) {
    model.setScene(applyModel(defaultScene(), config));
    model.clearHistory();
    view.setModel(config, QString::fromStdString(name));
    view.resize(700, 600);
    view.show();
  }
};

// The first and last layer a row names: "5" or "0–4".
std::pair<int, int> layersOfRow(const QString& name) {
  const QStringList parts = name.split(QChar(0x2013));
  return {parts.front().toInt(), parts.back().toInt()};
}

}  // namespace

TEST(LayersView, ListsTheStackOfEachShippedPerLayerModel) {
  for (const char* name : {"gemma-3-4b-it", "gemma-4-defaults", "llama-4-scout-17b-16e"}) {
    SCOPED_TRACE(name);
    ShownLayers shown(name);
    const LayerStack stack = readLayerStack(name);
    ASSERT_TRUE(shown.view.listing());
    const QTableWidget* table = shown.view.table();
    EXPECT_TRUE(table->isVisible());
    const ReportGrid grid = layerStackGrid(stack);
    ASSERT_EQ(table->rowCount(), static_cast<int>(grid.lines.size()));
    ASSERT_EQ(table->columnCount(), static_cast<int>(grid.columns.size()));
    // The rows cover every layer once, in order, and each row's type and rotary are those of
    // every layer it names.
    int next = 0;
    for (int r = 0; r < table->rowCount(); ++r) {
      const auto [first, last] = layersOfRow(table->verticalHeaderItem(r)->text());
      EXPECT_EQ(first, next) << r;
      for (int i = first; i <= last; ++i) {
        const StackLayer& l = stack.layers[static_cast<std::size_t>(i)];
        EXPECT_EQ(table->item(r, 0)->text().toStdString(), l.type) << i;
        EXPECT_EQ(table->item(r, 1)->text().toStdString(), layerAttentionName(l.attention)) << i;
        EXPECT_EQ(l.rotary, table->item(r, 3)->text() != QStringLiteral("n/a")) << i;
      }
      for (int c = 0; c < table->columnCount(); ++c)
        EXPECT_EQ(table->item(r, c)->text(),
                  gridCellText(
                      grid.lines[static_cast<std::size_t>(r)].cells[static_cast<std::size_t>(c)]));
      next = last + 1;
    }
    EXPECT_EQ(next, static_cast<int>(stack.layers.size()));
    EXPECT_EQ(shown.view.layerBox()->maximum(), static_cast<int>(stack.layers.size()) - 1);
    EXPECT_TRUE(shown.view.note()->text().contains(QString::number(stack.layers.size())));
  }
}

TEST(LayersView, GemmaThreeRowsReadTheConfigsNumbers) {
  ShownLayers shown("gemma-3-4b-it");
  const QTableWidget* table = shown.view.table();
  // gemma-3-4b-it: sliding window 1024 with rope_local_base_freq 1e4, full layers at θ 1e6
  // linear ×8, head 256; every sixth layer full.
  EXPECT_EQ(table->verticalHeaderItem(0)->text(), QString::fromUtf8("0\xe2\x80\x93"
                                                                    "4"));
  EXPECT_EQ(table->item(0, 2)->text(), QStringLiteral("1024"));
  EXPECT_EQ(table->item(0, 3)->text(), QStringLiteral("1e4"));
  EXPECT_EQ(table->verticalHeaderItem(1)->text(), QStringLiteral("5"));
  EXPECT_EQ(table->item(1, 3)->text(), QStringLiteral("1e6"));
  EXPECT_EQ(table->item(1, 4)->text(), QString::fromUtf8("linear \xc3\x97"
                                                         "8"));
  EXPECT_EQ(table->item(1, 5)->text(), QStringLiteral("256"));
  // Opened, the scene has the full layers' rotary (readModelConfig's default block).
  EXPECT_EQ(shown.view.shownLayer(), 5);
  EXPECT_TRUE(shown.view.shownNote()->text().contains(QStringLiteral("layer 5")));
}

TEST(LayersView, PickingALayerIsCoresLayerInOneUndoStep) {
  ShownLayers shown("gemma-3-4b-it");
  const LayerStack stack = readLayerStack("gemma-3-4b-it");
  const FrequencySpec opened = shown.model.scene().frequency;
  for (int k : {0, 5, 17, 33}) {
    SCOPED_TRACE(k);
    ASSERT_TRUE(shown.view.pickLayer(k)) << shown.view.message().toStdString();
    const ModelConfig want = modelConfigOfLayer(shown.config, stack, k);
    EXPECT_EQ(shown.model.scene().frequency, want.frequency);
    // Read apart: the config's own rope block for that layer's type (--layer-type).
    const bool full = (k + 1) % 6 == 0;
    const ModelConfig byType =
        readModelConfig("gemma-3-4b-it", full ? "full_attention" : "sliding_attention");
    EXPECT_EQ(shown.model.scene().frequency, byType.frequency);
    EXPECT_EQ(shown.model.scene().frequency.rotary.base, full ? 1e6 : 1e4);
    EXPECT_EQ(shown.view.shownLayer(), k);
    EXPECT_EQ(shown.view.layerBox()->value(), k);
    EXPECT_TRUE(shown.view.shownNote()->text().contains(QStringLiteral("layer %1 ").arg(k)));
  }
  // The scene computed with the layer's rotary: every view reads the valid scene.
  ASSERT_TRUE(waitUntil([&] { return shown.model.validScene() == shown.model.scene(); }));
  EXPECT_EQ(shown.model.validScene().frequency.rotary.base, 1e4);
  // 0 (sliding, a change), 5 (full), 17 (full: the same rotary, no change), 33 (sliding).
  shown.model.undo();
  EXPECT_EQ(shown.model.scene().frequency.rotary.base, 1e6);
  shown.model.undo();
  EXPECT_EQ(shown.model.scene().frequency.rotary.base, 1e4);
  shown.model.undo();
  EXPECT_EQ(shown.model.scene().frequency, opened);
  EXPECT_FALSE(shown.model.canUndo());
}

TEST(LayersView, ClickingARowPicksItsFirstLayer) {
  ShownLayers shown("gemma-3-4b-it");
  QTableWidget* table = shown.view.table();
  table->setCurrentCell(2, 0);  // "6–10": sliding
  EXPECT_EQ(shown.view.shownLayer(), 6);
  EXPECT_EQ(shown.model.scene().frequency.rotary.base, 1e4);
  EXPECT_EQ(table->currentRow(), 2);
  shown.model.undo();
  EXPECT_EQ(shown.view.shownLayer(), 5);
  EXPECT_EQ(table->currentRow(), 1);
}

TEST(LayersView, ANoPELayerIsPreviewedAndTheSceneKept) {
  ShownLayers shown("llama-4-scout-17b-16e");
  const Scene before = shown.model.scene();
  ASSERT_EQ(shown.view.shownLayer(), 0);
  QString said;
  QObject::connect(&shown.view, &LayersView::layerPicked, [&](const QString& s) { said = s; });
  EXPECT_TRUE(shown.view.pickLayer(3));  // no_rope_layers[3] == 0
  EXPECT_EQ(shown.model.scene(), before);
  EXPECT_FALSE(shown.model.canUndo());
  EXPECT_EQ(shown.view.previewLayer(), 3);
  EXPECT_EQ(shown.view.shownLayer(), 0);
  EXPECT_EQ(said, QStringLiteral(
                      "Previewing NoPE layer 3 of llama-4-scout-17b-16e in the attention dock; "
                      "the other views keep layer 0's rotary"));
  for (const QString& line : {shown.view.message(), shown.view.shownNote()->text()}) {
    EXPECT_TRUE(line.contains(QStringLiteral("Layer 3 has no rotary"))) << line.toStdString();
    EXPECT_TRUE(line.contains(QStringLiteral("the attention dock previews it")))
        << line.toStdString();
    EXPECT_TRUE(line.contains(QStringLiteral("q scaled by the temperature"))) << line.toStdString();
    EXPECT_TRUE(line.contains(QStringLiteral("the other views keep layer 0's rotary")))
        << line.toStdString();
  }
  EXPECT_EQ(shown.view.layerBox()->value(), 3);
  // Core has no rotary to give the scene either (the command line's --layer 3 in `rotary`).
  EXPECT_THROW(modelConfigOfLayer(shown.config, readLayerStack("llama-4-scout-17b-16e"), 3),
               InputError);
  // An edit of the layout keeps the preview; one of the rotary ends it.
  Scene longer = shown.model.scene();
  longer.layout = parseLayoutSpec("t40");
  shown.model.setScene(longer);
  EXPECT_EQ(shown.view.previewLayer(), 3);
  EXPECT_TRUE(shown.view.shownNote()->text().contains(QStringLiteral("Layer 3 has no rotary")));
  Scene edited = shown.model.scene();
  edited.frequency.rotary.base *= 2.0;
  shown.model.setScene(edited);
  EXPECT_EQ(shown.view.previewLayer(), -1);
  shown.model.undo();
  EXPECT_EQ(shown.view.previewLayer(), 3);  // the rotary it kept is back
  // Out of range: core's line, naming the accepted range.
  EXPECT_FALSE(shown.view.pickLayer(48));
  EXPECT_TRUE(shown.view.message().contains(QStringLiteral("0..47"))) << said.toStdString();
  EXPECT_EQ(shown.model.scene().frequency, before.frequency);
  // A RoPE layer of Llama 4 (chunked, θ 5e5 llama3 ×8) ends the NoPE preview.
  EXPECT_TRUE(shown.view.pickLayer(4));
  EXPECT_EQ(shown.model.scene().frequency.rotary.base, 500000.0);
  EXPECT_EQ(shown.view.previewLayer(), 4);
  EXPECT_FALSE(shown.view.shownNote()->text().contains(QStringLiteral("no rotary")));
}

TEST(LayersView, WithoutAPerLayerModelItSaysSoInOneLine) {
  SceneModel model;
  LayersView view(&model);
  view.show();
  EXPECT_FALSE(view.listing());
  EXPECT_FALSE(view.table()->isVisible());
  EXPECT_TRUE(view.note()->text().startsWith(QStringLiteral("No model loaded")));
  EXPECT_FALSE(view.pickLayer(0));
  EXPECT_EQ(model.scene(), defaultScene());

  // Llama 3.1 (a stack of 32 equal layers) and Qwen2.5-VL (one rope block, no layer count).
  for (const char* name : {"llama-3.1-8b", "qwen2.5-vl-7b"}) {
    ShownLayers uniform(name);
    EXPECT_FALSE(uniform.view.listing());
    EXPECT_FALSE(uniform.view.table()->isVisible());
    EXPECT_TRUE(uniform.view.note()->text().contains(QStringLiteral("one rotary for every layer")))
        << uniform.view.note()->text().toStdString();
    EXPECT_FALSE(uniform.view.pickLayer(0));
  }
}

TEST(LayersView, ExportsTheCommandLinesCsv) {
  ShownLayers shown("llama-4-scout-17b-16e");
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("layers.csv"));
  setFileDialogHook([&](const FileDialogRequest&) { return QStringList{path}; });
  shown.view.exportButton()->click();
  setFileDialogHook({});
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  const std::string csv = f.readAll().toStdString();
  EXPECT_EQ(csv, layerStackReport(readLayerStack("llama-4-scout-17b-16e"), LayerStackFormat::Csv));
  EXPECT_NE(csv.find("\n3,full_attention,full,,no,,,,,,,8192,0.1\n"), std::string::npos);
}

TEST(MainWindow, LayersTabPicksALayerAndTheSceneFileKeepsIt) {
  MainWindow w;
  w.show();
  auto* tabs = w.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
  auto* layers = w.findChild<LayersView*>(QStringLiteral("layersView"));
  ASSERT_NE(layers, nullptr);
  EXPECT_EQ(tabs->tabText(tabs->indexOf(layers)), QStringLiteral("Layers"));
  ASSERT_TRUE(w.openModel(QStringLiteral("gemma-3-4b-it")));
  tabs->setCurrentWidget(layers);
  ASSERT_TRUE(layers->listing());
  layers->layerBox()->setValue(0);
  layers->showButton()->click();
  EXPECT_EQ(w.model()->scene().frequency.rotary.base, 1e4);
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("layer 0 of gemma-3-4b-it")))
      << w.statusBar()->currentMessage().toStdString();
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("layer0.json"));
  ASSERT_TRUE(w.saveTo(path));
  MainWindow other;
  ASSERT_TRUE(other.openFile(path));
  EXPECT_EQ(other.model()->scene().frequency, w.model()->scene().frequency);
  // The shipped model's stack is read by the scene's model name: the tab lists it again and
  // finds the layer whose rotary the scene has.
  EXPECT_TRUE(other.layersView()->listing());
  EXPECT_EQ(other.layersView()->shownLayer(), 0);
}
