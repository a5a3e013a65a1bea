#include "editors/rope_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "editors/open_spin_box.h"
#include "editors/parameter_editor.h"
#include "model/scene_model.h"
#include "ropescope/errors.h"
#include "ropescope/rope_scaling.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::ui {

namespace {

const RopeType* ropeTypeNamed(const std::string& name) {
  for (const RopeType* t : allRopeTypes())
    if (t->name() == name) return t;
  return nullptr;
}

bool isRequired(const RopeType& type, const std::string& key) {
  const std::vector<std::string> keys = type.requiredKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The scaling the type box makes of `from` when `name` is chosen: the keys the new type takes
// keep their values, the required numbers it lacks start at the table's defaults (so that a
// type is usable at once; longrope's lists stay to be given), the largest position id stays
// with a sequence-dependent type. "" is no scaling.
RopeScaling scalingOfType(const RopeScaling& from, const std::string& name) {
  RopeScaling next;
  next.type = name;
  const RopeType* type = ropeTypeNamed(name);
  if (!type) return next;
  for (const ParameterSpec& spec : type->parameters()) {
    if (const auto v = from.params.find(spec.key))
      next.params.set(spec.key, *v);
    else if (isRequired(*type, spec.key))
      next.params.set(spec.key, spec.defaultValue);
  }
  for (const RopeListSpec& l : type->lists()) {
    if (l.key == "short_factor") next.shortFactor = from.shortFactor;
    if (l.key == "long_factor") next.longFactor = from.longFactor;
  }
  if (type->sequenceDependent()) next.maxPositionId = from.maxPositionId;
  return next;
}

std::vector<double>& listOf(RopeScaling& r, const std::string& key) {
  return key == "short_factor" ? r.shortFactor : r.longFactor;
}
const std::vector<double>& listOf(const RopeScaling& r, const std::string& key) {
  return key == "short_factor" ? r.shortFactor : r.longFactor;
}

QString number(double v) {
  return QString::number(v, 'g', 5);
}

QString objectNameOf(const std::string& key) {
  return QStringLiteral("rope_") + QString::fromStdString(key);
}

}  // namespace

RopeEditor::RopeEditor(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  setObjectName(QStringLiteral("ropeEditor"));
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  form_ = new QFormLayout;
  form_->setContentsMargins(0, 0, 0, 0);
  column->addLayout(form_);
  type_ = new QComboBox(this);
  type_->setObjectName(QStringLiteral("rope"));
  type_->addItem(tr("none"), QString());
  type_->setItemData(0, tr("No rope_scaling block: θ as the plan gives it"), Qt::ToolTipRole);
  for (const RopeType* t : allRopeTypes()) {
    type_->addItem(QString::fromStdString(t->name()), QString::fromStdString(t->name()));
    type_->setItemData(type_->count() - 1, QString::fromStdString(t->summary()), Qt::ToolTipRole);
  }
  type_->setToolTip(
      tr("Context extension (a checkpoint's rope_scaling / rope_parameters), as transformers "
         "computes it: the scaled θ feeds every chart and view"));
  auto* label = new QLabel(tr("Rope scaling"), this);
  label->setToolTip(type_->toolTip());
  form_->addRow(label, type_);
  summary_ = new QLabel(this);
  summary_->setWordWrap(true);
  summary_->setStyleSheet(QStringLiteral("color: palette(mid);"));
  column->addWidget(summary_);
  typeError_ = makeErrorLabel();
  typeError_->setObjectName(QStringLiteral("ropeError"));
  column->addWidget(typeError_);
  rows_ = new QWidget(this);
  rowsForm_ = new QFormLayout(rows_);
  rowsForm_->setContentsMargins(0, 0, 0, 0);
  column->addWidget(rows_);
  info_ = new QLabel(this);
  info_->setObjectName(QStringLiteral("ropeInfo"));
  info_->setWordWrap(true);
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  column->addWidget(info_);

  connect(type_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const std::string name = type_->itemData(index).toString().toStdString();
    model_->edit([&](Scene& s) { s.frequency.rope = scalingOfType(s.frequency.rope, name); });
  });
  sync();
}

QLabel* RopeEditor::makeErrorLabel() {
  auto* label = new QLabel(this);
  label->setWordWrap(true);
  label->setStyleSheet(QStringLiteral("color: #d03030;"));
  label->hide();
  return label;
}

void RopeEditor::rebuild() {
  while (rowsForm_->rowCount() > 0) rowsForm_->removeRow(0);
  editors_.clear();
  given_.clear();
  lists_.clear();
  listErrors_.clear();
  maxIdGiven_ = nullptr;
  maxId_ = nullptr;
  fromScene_ = nullptr;
  builtFor_ = model_->scene().frequency.rope.type;
  const RopeType* type = ropeTypeNamed(builtFor_);
  summary_->setText(type ? QString::fromStdString(type->summary()) : QString());
  summary_->setVisible(type != nullptr);
  rows_->setVisible(type != nullptr);
  if (!type) return;
  for (const ParameterSpec& spec : type->parameters()) {
    const std::string key = spec.key;
    const bool required = isRequired(*type, key);
    auto* editor = new ParameterEditor(spec, rows_);
    editor->setObjectName(objectNameOf(key));
    auto* label = new QLabel(
        QString::fromStdString(spec.label) + (required ? QStringLiteral(" *") : QString()), rows_);
    label->setToolTip(editor->toolTip() + (required ? tr("\nRequired") : QString()));
    editors_[key] = editor;
    if (required) {
      rowsForm_->addRow(label, editor);
    } else {
      // An optional key can be absent (the type's own rule, e.g. YaRN's attention factor
      // 0.1 ln f + 1): the box says whether the config gives it.
      auto* row = new QWidget(rows_);
      auto* h = new QHBoxLayout(row);
      h->setContentsMargins(0, 0, 0, 0);
      h->setSpacing(4);
      auto* given = new QCheckBox(row);
      given->setObjectName(objectNameOf(key) + QStringLiteral("_given"));
      given->setToolTip(
          tr("Given in the config; unticked: absent (%1)").arg(QString::fromStdString(spec.help)));
      h->addWidget(given);
      h->addWidget(editor, 1);
      given_[key] = given;
      rowsForm_->addRow(label, row);
      connect(given, &QCheckBox::toggled, this, [this, key, editor](bool on) {
        model_->edit([&](Scene& s) {
          if (on)
            s.frequency.rope.params.set(key, editor->value());
          else
            s.frequency.rope.params.erase(key);
        });
      });
    }
    connect(editor, &ParameterEditor::edited, this, [this, key](double v) {
      model_->edit([&](Scene& s) { s.frequency.rope.params.set(key, v); });
    });
    connect(editor, &ParameterEditor::dragStarted, model_, &SceneModel::beginGesture);
    connect(editor, &ParameterEditor::dragFinished, model_, &SceneModel::endGesture);
  }
  for (const RopeListSpec& l : type->lists()) addListRow(l.key, l.help);
  if (type->sequenceDependent()) addMaxIdRow();
}

void RopeEditor::addListRow(const std::string& key, const std::string& help) {
  auto* edit = new QLineEdit(rows_);
  edit->setObjectName(objectNameOf(key));
  edit->setPlaceholderText(tr("one number per pair, comma-separated"));
  edit->setToolTip(QString::fromStdString(help) +
                   tr(": one number per pair, separated by commas. Press Enter to apply"));
  auto* label = new QLabel(QString::fromStdString(key) + QStringLiteral(" *"), rows_);
  label->setToolTip(edit->toolTip());
  rowsForm_->addRow(label, edit);
  QLabel* error = makeErrorLabel();
  rowsForm_->addRow(error);
  lists_[key] = edit;
  listErrors_[key] = error;
  connect(edit, &QLineEdit::editingFinished, this, [this, key, edit] {
    if (!edit->isModified()) return;
    std::vector<double> values;
    try {
      values = parseRopeListText(edit->text().toStdString(), key);
    } catch (const InputError& e) {
      model_->reportProblem({QString::fromStdString(e.what()), QString::fromStdString(e.field())});
      return;
    }
    edit->setModified(false);  // handed over: the scene's list shows from now on
    model_->edit([&](Scene& s) { listOf(s.frequency.rope, key) = values; });
  });
}

void RopeEditor::addMaxIdRow() {
  auto* row = new QWidget(rows_);
  auto* h = new QHBoxLayout(row);
  h->setContentsMargins(0, 0, 0, 0);
  h->setSpacing(4);
  maxIdGiven_ = new QCheckBox(row);
  maxIdGiven_->setObjectName(QStringLiteral("rope_max_position_id_given"));
  maxIdGiven_->setToolTip(
      tr("Unticked: no sequence, the frequencies the rotary module holds when it is built"));
  auto* box = new OpenDoubleSpinBox(row);
  box->setObjectName(QStringLiteral("rope_max_position_id"));
  box->setDecimals(0);
  box->setAcceptedRange(0, static_cast<double>(kMaxRopePositionId));
  box->setKeyboardTracking(false);
  box->setToolTip(
      tr("The sequence's largest position id over every axis: the rotary forward's seq_len is "
         "it + 1, compared with the switch length"));
  maxId_ = box;
  fromScene_ = new QPushButton(tr("From scene"), row);
  fromScene_->setObjectName(QStringLiteral("rope_max_position_id_from_scene"));
  fromScene_->setToolTip(tr("This scene's largest position id (its ids over every axis)"));
  h->addWidget(maxIdGiven_);
  h->addWidget(maxId_, 1);
  h->addWidget(fromScene_);
  auto* label = new QLabel(tr("Max position id"), rows_);
  label->setToolTip(maxId_->toolTip());
  rowsForm_->addRow(label, row);
  connect(maxIdGiven_, &QCheckBox::toggled, this, [this](bool on) {
    const auto id = on ? std::llround(maxId_->value()) : -1LL;
    model_->edit([id](Scene& s) { s.frequency.rope.maxPositionId = id; });
  });
  connect(maxId_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    const auto id = std::llround(v);
    model_->edit([id](Scene& s) { s.frequency.rope.maxPositionId = id; });
  });
  connect(fromScene_, &QPushButton::clicked, this, [this] {
    Scene next = model_->scene();
    try {
      setRopeMaxPositionIdFromScene(next);
    } catch (const InputError& e) {
      model_->reportProblem({QString::fromStdString(e.what()), QString::fromStdString(e.field())});
      return;
    }
    model_->setScene(next);
  });
}

void RopeEditor::sync() {
  const RopeScaling& r = model_->scene().frequency.rope;
  {
    const QSignalBlocker block(type_);
    const int index =
        r.type.empty() ? 0 : type_->findData(QString::fromStdString(r.type), Qt::UserRole);
    if (index >= 0) type_->setCurrentIndex(index);
  }
  if (builtFor_ != r.type) rebuild();
  for (auto& [key, editor] : editors_) {
    const auto value = r.params.find(key);
    editor->setValue(value ? *value : editor->spec().defaultValue);
    if (auto it = given_.find(key); it != given_.end()) {
      const QSignalBlocker block(it->second);
      it->second->setChecked(value.has_value());
      editor->setEnabled(value.has_value());
    }
  }
  const auto& problems = model_->problems();
  for (auto& [key, edit] : lists_) {
    // Text being typed, or refused, stays; anything else shows the scene's list.
    const QString field = QString::fromStdString(key);
    const bool refused = std::any_of(problems.begin(), problems.end(),
                                     [&](const InputProblem& p) { return p.field == field; });
    if (!edit->isModified() || !(edit->hasFocus() || refused)) {
      edit->setText(QString::fromStdString(formatRopeListText(listOf(r, key))));
      edit->setModified(false);
    }
  }
  if (maxId_) {
    const QSignalBlocker b0(maxIdGiven_), b1(maxId_);
    maxIdGiven_->setChecked(r.maxPositionId >= 0);
    maxId_->setEnabled(r.maxPositionId >= 0);
    if (r.maxPositionId >= 0) maxId_->setValue(static_cast<double>(r.maxPositionId));
  }
  const QString info = infoText();
  info_->setText(info);
  info_->setVisible(!info.isEmpty());
}

QString RopeEditor::infoText() const {
  // What the shown (valid) scene's scaling does, as core computed it.
  const PairTable& p = model_->metrics().pairs;
  if (!p.scaled()) return {};
  QString text = tr("attention factor %1 \xc2\xb7 logits \xc3\x97 %2")
                     .arg(number(p.attentionFactor), number(p.logitScale()));
  // While an edit is refused these are the last valid scene's, which the views show.
  if (model_->isStale())
    text = tr("last valid (%1): ").arg(QString::fromStdString(p.ropeType)) + text;
  if (p.switchLength > 0) {
    const long long id = model_->validScene().frequency.rope.maxPositionId;
    text += QStringLiteral("\n");
    if (id < 0)
      text += tr("switch past seq_len %1; no max position id: the frequencies as built")
                  .arg(p.switchLength);
    else if (p.switched)
      text += tr("switch past seq_len %1 (max id + 1); max id %2 is past it: switched")
                  .arg(p.switchLength)
                  .arg(id);
    else
      text += tr("switch past seq_len %1 (max id + 1); max id %2 is not past it")
                  .arg(p.switchLength)
                  .arg(id);
  }
  return text;
}

void RopeEditor::clearErrors() {
  typeError_->hide();
  for (auto& [key, editor] : editors_) editor->setError({});
  for (auto& [key, label] : listErrors_) label->hide();
}

bool RopeEditor::showProblem(const InputProblem& problem) {
  const std::string field = problem.field.toStdString();
  if (auto it = editors_.find(field); it != editors_.end()) {
    it->second->setError(problem.message);
    return true;
  }
  if (auto it = listErrors_.find(field); it != listErrors_.end()) {
    it->second->setText(problem.message);
    it->second->show();
    return true;
  }
  // The type itself and the largest position id.
  if (field != "rope" && field != "max_position_id") return false;
  typeError_->setText(!typeError_->isHidden()
                          ? typeError_->text() + QLatin1Char('\n') + problem.message
                          : problem.message);
  typeError_->show();
  return true;
}

QString RopeEditor::errorFor(const QString& field) const {
  const std::string key = field.toStdString();
  if (auto it = editors_.find(key); it != editors_.end()) return it->second->error();
  if (auto it = listErrors_.find(key); it != listErrors_.end())
    return it->second->isHidden() ? QString() : it->second->text();
  if ((field == QLatin1String("rope") || field == QLatin1String("max_position_id")) &&
      !typeError_->isHidden())
    return typeError_->text();
  return {};
}

ParameterEditor* RopeEditor::editor(const std::string& key) const {
  auto it = editors_.find(key);
  return it == editors_.end() ? nullptr : it->second;
}

QCheckBox* RopeEditor::givenBox(const std::string& key) const {
  auto it = given_.find(key);
  return it == given_.end() ? nullptr : it->second;
}

QLineEdit* RopeEditor::listEdit(const std::string& key) const {
  auto it = lists_.find(key);
  return it == lists_.end() ? nullptr : it->second;
}

}  // namespace ropescope::ui
