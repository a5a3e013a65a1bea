// The scene panel's "Rope scaling" rows (frequency.rope, ropescope/rope_scaling.h): the rope
// type (none or any registered type, from the registry), the type's parameters as editors
// generated from its ParameterSpec table (an optional key can be left out: its box unticked),
// its lists (longrope's factors, comma-separated), and for a sequence-dependent type the largest
// position id with a button that takes it from the scene. Every edit goes to the SceneModel, so
// it is undone like any other; what the core refuses shows beside its field.
#pragma once

#include <QWidget>

#include <map>
#include <string>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ropescope::ui {

class ParameterEditor;
class SceneModel;
struct InputProblem;

class RopeEditor : public QWidget {
  Q_OBJECT

 public:
  explicit RopeEditor(SceneModel* model, QWidget* parent = nullptr);

  // Shows the model's scene (the type's editors rebuilt when the type changed) and what the
  // shown scene's scaling does (attention factor, switch).
  void sync();
  // Hides every message; showProblem then puts one beside its field: true when the field is
  // the scaling's (its type, a parameter or list of the edited type, the largest position id).
  void clearErrors();
  bool showProblem(const InputProblem& problem);
  // The message shown beside `field`, empty if none (or not a field of the scaling).
  QString errorFor(const QString& field) const;

  // For tests and the panel: the widgets, by the core's keys.
  QComboBox* typeBox() const { return type_; }
  ParameterEditor* editor(const std::string& key) const;
  QCheckBox* givenBox(const std::string& key) const;  // null for a required key
  QLineEdit* listEdit(const std::string& key) const;
  QCheckBox* maxIdGiven() const { return maxIdGiven_; }
  QDoubleSpinBox* maxIdBox() const { return maxId_; }
  QPushButton* maxIdFromScene() const { return fromScene_; }
  // "attention factor 1.1386 · logits × 1.2965", the switch: what the shown scaling does.
  QString infoText() const;

 private:
  void rebuild();
  void addListRow(const std::string& key, const std::string& help);
  void addMaxIdRow();
  QLabel* makeErrorLabel();

  SceneModel* model_;
  QFormLayout* form_ = nullptr;
  QComboBox* type_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* typeError_ = nullptr;  // the type and the largest position id
  QWidget* rows_ = nullptr;      // the type's rows, rebuilt with it
  QFormLayout* rowsForm_ = nullptr;
  QLabel* info_ = nullptr;
  std::string builtFor_ = "?";  // the type the rows were built for
  std::map<std::string, ParameterEditor*> editors_;
  std::map<std::string, QCheckBox*> given_;
  std::map<std::string, QLineEdit*> lists_;
  std::map<std::string, QLabel*> listErrors_;
  QCheckBox* maxIdGiven_ = nullptr;
  QDoubleSpinBox* maxId_ = nullptr;
  QPushButton* fromScene_ = nullptr;
};

}  // namespace ropescope::ui
