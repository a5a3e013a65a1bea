// The Layers tab: the layer stack (layer_stack.h) of the loaded model whose rotary changes by
// layer (Gemma 3, Gemma 4, Llama 4), one row per run of identical layers as core writes it
// (layerStackGrid), and the pick of one layer: its rotary becomes the scene's, as the command
// line's --layer N (modelConfigOfLayer), in one undoable edit. A NoPE layer has no rotary to give:
// its pick leaves the scene as it was (no edit) and makes it the layer the attention dock previews
// (previewLayer), the other views keeping the scene's rotary. Without such a model the tab says
// so in one line.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "ropescope/layer_stack.h"
#include "ropescope/model_config.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace ropescope::ui {

class SceneModel;

class LayersView : public QWidget {
  Q_OBJECT

 public:
  explicit LayersView(SceneModel* model, QWidget* parent = nullptr);

  // The model File → Open model loaded (`dirOrName` as given there): its stack is read here;
  // a model whose stack cannot be read shows the reason instead of a table.
  void setModel(const ModelConfig& config, const QString& dirOrName);
  void clearModel();

  // Gives the scene layer `layer`'s rotary (one undoable edit). A NoPE layer leaves the scene as
  // it was and becomes previewLayer(), message() saying so. False, with message() saying why
  // and the scene unchanged, for an index outside the stack, or no model.
  bool pickLayer(int layer);
  // The layer whose rotary the scene shows: the last picked one while the scene's rotary is
  // still its, else the first layer with the scene's rotary; -1 when none (no model, or an
  // edited rotary).
  int shownLayer() const;
  // The layer the attention dock previews: the NoPE layer last picked while the scene's rotary
  // is still the one it had then, else shownLayer().
  int previewLayer() const;
  const std::optional<LayerStack>& stack() const { return stack_; }
  // Whether the tab lists a stack (a model of the scene whose rotary changes by layer).
  bool listing() const;
  const QString& message() const { return message_; }

  QLabel* note() const { return note_; }
  QLabel* shownNote() const { return shown_; }
  QTableWidget* table() const { return table_; }
  QSpinBox* layerBox() const { return layerBox_; }
  QPushButton* showButton() const { return show_; }
  QPushButton* exportButton() const { return export_; }

 signals:
  // A layer was picked (its line for the status bar) or refused (the reason).
  void layerPicked(const QString& line);

 private:
  void draw();
  void drawShown();
  void rowChosen(int row);
  void exportCsv();
  bool previewingNoPE() const;
  QString noPELine() const;  // what the tab says while a NoPE layer is previewed

  SceneModel* model_;
  QLabel* note_;
  QLabel* shown_;
  QTableWidget* table_;
  QSpinBox* layerBox_;
  QPushButton* show_;
  QPushButton* export_;
  std::optional<ModelConfig> config_;
  std::optional<LayerStack> stack_;
  QString stackError_;
  QString message_;
  int picked_ = -1;
  // The NoPE layer picked (-1: none) and the scene's rotary then: the pick holds while it does.
  int noPE_ = -1;
  FrequencySpec noPEOver_;
  bool filling_ = false;  // the table is being filled or selected by the view itself
};

}  // namespace ropescope::ui
