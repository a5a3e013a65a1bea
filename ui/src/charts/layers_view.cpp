// The Layers tab (layers_view.h): core's layer stack grid and the pick of one layer's rotary.
#include "charts/layers_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <exception>

#include "charts/grid_table.h"
#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/atomic_file.h"
#include "ropescope/layer_stack_report.h"
#include "ropescope/scene_changes.h"

namespace ropescope::ui {

LayersView::LayersView(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  const GridTabHeader header = makeGridTabHeader(
      QStringLiteral("layers"), tr("Write the stack to a CSV file, one row per layer (as "
                                   "`ropescope layers --format csv`)"));
  note_ = header.note;
  export_ = header.exportButton;
  connect(export_, &QPushButton::clicked, this, &LayersView::exportCsv);
  layout->addLayout(header.layout);

  auto* pick = new QHBoxLayout;
  auto* label = new QLabel(tr("Layer"));
  pick->addWidget(label);
  layerBox_ = new QSpinBox;
  layerBox_->setObjectName(QStringLiteral("layersLayer"));
  layerBox_->setToolTip(tr("A layer's index (0 is the first decoder layer)"));
  label->setBuddy(layerBox_);
  pick->addWidget(layerBox_);
  show_ = new QPushButton(tr("Show this layer"));
  show_->setObjectName(QStringLiteral("layersShow"));
  show_->setToolTip(
      tr("Give the scene this layer's rotary, as --layer N on the command line "
         "(one undoable edit); a NoPE layer: the attention dock previews it"));
  connect(show_, &QPushButton::clicked, this, [this] { pickLayer(layerBox_->value()); });
  connect(layerBox_, &QSpinBox::editingFinished, this, [this] {
    if (layerBox_->hasFocus()) pickLayer(layerBox_->value());
  });
  pick->addWidget(show_);
  pick->addStretch(1);
  layout->addLayout(pick);

  shown_ = new QLabel;
  shown_->setObjectName(QStringLiteral("layersShown"));
  shown_->setWordWrap(true);
  layout->addWidget(shown_);

  table_ = makeGridTable(QStringLiteral("layersTable"));
  table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setToolTip(
      tr("Click a row to show its first layer's rotary (a NoPE layer: in the attention dock)"));
  connect(table_, &QTableWidget::currentCellChanged, this,
          [this](int row, int, int, int) { rowChosen(row); });
  layout->addWidget(table_, 1);

  connect(model_, &SceneModel::changed, this, [this](SceneChanges) {
    message_.clear();  // a refusal's line is of the scene it left as it was
    drawShown();
  });
  draw();
}

void LayersView::setModel(const ModelConfig& config, const QString& dirOrName) {
  config_ = config;
  stack_.reset();
  stackError_.clear();
  picked_ = -1;
  noPE_ = -1;
  message_.clear();
  try {
    stack_ = readLayerStack(dirOrName.toStdString());
  } catch (const std::exception& e) {
    stackError_ = QString::fromStdString(e.what());
  }
  draw();
}

void LayersView::clearModel() {
  config_.reset();
  stack_.reset();
  stackError_.clear();
  picked_ = -1;
  noPE_ = -1;
  draw();
}

bool LayersView::listing() const {
  return config_ && stack_ && !stack_->uniform() && model_->scene().model == stack_->name;
}

bool LayersView::pickLayer(int layer) {
  if (!listing()) {
    message_ =
        tr("No model whose rotary changes by layer: open one (File \xe2\x86\x92 Open "
           "model), e.g. gemma-3-4b-it");
    drawShown();
    emit layerPicked(message_);
    return false;
  }
  const int n = static_cast<int>(stack_->layers.size());
  if (layer >= 0 && layer < n && !stack_->layers[static_cast<std::size_t>(layer)].rotary) {
    // No rotary to give the scene (core's modelConfigOfLayer refuses it): the scene is left as
    // it was, no edit, and the attention dock previews the layer (core's applyStackLayer).
    noPE_ = layer;
    noPEOver_ = model_->scene().frequency;
    message_ = noPELine();
    drawShown();
    // The status bar's line, short enough for it; the tab's line says the rest.
    const int keep = shownLayer();
    emit layerPicked(
        tr("Previewing NoPE layer %1 of %2 in the attention dock; the other views keep %3")
            .arg(layer)
            .arg(QString::fromStdString(stack_->name),
                 keep < 0 ? tr("the scene's rotary") : tr("layer %1's rotary").arg(keep)));
    return true;
  }
  try {
    const ModelConfig picked = modelConfigOfLayer(*config_, *stack_, layer);
    Scene next = model_->scene();
    next.frequency = picked.frequency;
    picked_ = layer;
    noPE_ = -1;
    message_.clear();
    model_->setScene(next);  // one step of the history; drawShown follows the change
    drawShown();
    const StackLayer& l = stack_->layers[static_cast<std::size_t>(layer)];
    emit layerPicked(tr("Showing layer %1 of %2 (%3): %4")
                         .arg(layer)
                         .arg(QString::fromStdString(stack_->name), QString::fromStdString(l.type),
                              QString::fromStdString(layerRotaryText(l))));
    return true;
  } catch (const std::exception& e) {
    message_ = QString::fromStdString(e.what());
    drawShown();
    emit layerPicked(message_);
    return false;
  }
}

int LayersView::shownLayer() const {
  if (!stack_ || model_->scene().model != stack_->name) return -1;
  const FrequencySpec& f = model_->scene().frequency;
  const auto& layers = stack_->layers;
  if (picked_ >= 0 && picked_ < static_cast<int>(layers.size()) &&
      layers[static_cast<std::size_t>(picked_)].frequency == f)
    return picked_;
  for (const StackLayer& l : layers)
    if (l.rotary && l.frequency == f) return l.index;
  return -1;
}

bool LayersView::previewingNoPE() const {
  return noPE_ >= 0 && stack_ && noPE_ < static_cast<int>(stack_->layers.size()) &&
         model_->scene().model == stack_->name && model_->scene().frequency == noPEOver_;
}

int LayersView::previewLayer() const {
  return previewingNoPE() ? noPE_ : shownLayer();
}

QString LayersView::noPELine() const {
  const StackLayer& l = stack_->layers[static_cast<std::size_t>(noPE_)];
  const int keep = shownLayer();
  QString others;
  if (keep < 0) {
    others = tr("the other views keep the scene's rotary (none of the layers')");
  } else {
    const StackLayer& k = stack_->layers[static_cast<std::size_t>(keep)];
    others = tr("the other views keep layer %1's rotary (%2: %3)")
                 .arg(keep)
                 .arg(QString::fromStdString(k.type), QString::fromStdString(layerRotaryText(k)));
  }
  return tr("Layer %1 has no rotary (%2, a NoPE layer): the attention dock previews it (no "
            "position encoding, %3); %4.")
      .arg(noPE_)
      .arg(QString::fromStdString(l.type),
           l.temperature ? tr("q scaled by the temperature") : tr("q not scaled"), others);
}

void LayersView::draw() {
  filling_ = true;
  const bool list = listing();
  table_->setVisible(list);
  layerBox_->setEnabled(list);
  show_->setEnabled(list);
  export_->setEnabled(stack_.has_value() && !stack_->layers.empty());
  if (!config_) {
    note_->setText(
        tr("No model loaded: open one whose rotary changes by layer (File \xe2\x86\x92 "
           "Open model: gemma-3-4b-it, gemma-4-defaults, llama-4-scout-17b-16e)."));
    showGrid(table_, {});
  } else if (!stack_ && config_->layerTypes.empty()) {
    // A config with one rope block and no layer count (Qwen2.5-VL's ships none): one rotary.
    note_->setText(tr("%1 has one rotary for every layer: the views show it.")
                       .arg(QString::fromStdString(config_->name)));
    showGrid(table_, {});
  } else if (!stack_) {
    note_->setText(
        tr("No layer stack for %1: %2").arg(QString::fromStdString(config_->name), stackError_));
    showGrid(table_, {});
  } else if (stack_->uniform()) {
    note_->setText(tr("%1 has one rotary for every layer (%2 layers): the views show it.")
                       .arg(QString::fromStdString(stack_->name))
                       .arg(stack_->layers.size()));
    showGrid(table_, {});
  } else {
    note_->setText(
        tr("%1, %2: %3 layers, their rotary by layer. Pick a row or a layer: the "
           "views show its rotary (a NoPE layer: the attention dock previews it). Hover a cell "
           "for more.")
            .arg(QString::fromStdString(stack_->name), QString::fromStdString(stack_->title))
            .arg(stack_->layers.size()));
    layerBox_->setRange(0, static_cast<int>(stack_->layers.size()) - 1);
    showGrid(table_, layerStackGrid(*stack_));
  }
  filling_ = false;
  drawShown();
}

void LayersView::drawShown() {
  if (!listing()) {
    // The model loaded is not the scene's any more (a scene opened, a new one): said once.
    shown_->setText(config_ && stack_ && !stack_->uniform()
                        ? tr("The scene is not of %1: open the model again to pick a layer.")
                              .arg(QString::fromStdString(stack_->name))
                        : message_);
    shown_->setVisible(!shown_->text().isEmpty());
    table_->setVisible(false);
    layerBox_->setEnabled(false);
    show_->setEnabled(false);
    return;
  }
  table_->setVisible(true);
  layerBox_->setEnabled(true);
  show_->setEnabled(true);
  const int layer = shownLayer();
  QString text;
  if (previewingNoPE()) {
    text = noPELine();
  } else if (layer < 0) {
    text = tr("The scene's rotary is none of the layers' (edited after the pick).");
  } else {
    const StackLayer& l = stack_->layers[static_cast<std::size_t>(layer)];
    text = tr("The views show layer %1 (%2): %3.")
               .arg(layer)
               .arg(QString::fromStdString(l.type), QString::fromStdString(layerRotaryText(l)));
  }
  if (!message_.isEmpty() && message_ != text) text = message_ + u'\n' + text;
  shown_->setText(text);
  shown_->setVisible(true);
  setToolTip(layer < 0 ? QString() : tr("Layer %1").arg(layer));
  // The row of the layer shown (the NoPE one the dock previews), selected without picking it.
  filling_ = true;
  const int selected = previewLayer();
  const std::vector<LayerRun> runs = layerRuns(*stack_);
  int row = -1;
  for (std::size_t r = 0; r < runs.size(); ++r)
    if (selected >= runs[r].first && selected <= runs[r].last) row = static_cast<int>(r);
  if (row >= 0)
    table_->setCurrentCell(row, 0);
  else
    table_->clearSelection();
  if (selected >= 0) layerBox_->setValue(selected);
  filling_ = false;
}

void LayersView::rowChosen(int row) {
  if (filling_ || !listing() || row < 0) return;
  const std::vector<LayerRun> runs = layerRuns(*stack_);
  if (row >= static_cast<int>(runs.size())) return;
  const int shown = previewLayer();
  const LayerRun run = runs[static_cast<std::size_t>(row)];
  if (shown >= run.first && shown <= run.last) return;  // that run's layer already
  layerBox_->setValue(run.first);
  pickLayer(run.first);
}

void LayersView::exportCsv() {
  if (!stack_) return;
  const QString path = askSaveFile(
      this, FileKind::Figure, tr("Export the layer stack as CSV"),
      QString::fromStdString(stack_->name) + QStringLiteral("-layers.csv"), tr("CSV data (*.csv)"));
  if (path.isEmpty()) return;
  try {
    writeFileAtomically(path.toStdString(), layerStackReport(*stack_, LayerStackFormat::Csv));
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export the layer stack"), QString::fromStdString(e.what()));
  }
}

}  // namespace ropescope::ui
