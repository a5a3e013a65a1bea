#include "editors/scene_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include "editors/field_widgets.h"
#include "editors/image_grid_editor.h"
#include "editors/parameter_editor.h"
#include "editors/rope_editor.h"
#include "editors/segment_list_editor.h"
#include "model/scene_model.h"
#include "ropescope/age_schedule.h"
#include "ropescope/errors.h"
#include "ropescope/frequency_plan.h"
#include "ropescope/ids_file.h"
#include "ropescope/model_family.h"
#include "ropescope/position_design.h"
#include "ropescope/scene.h"
#include "ropescope/scene_fields.h"

namespace ropescope::ui {

ScenePanel::ScenePanel(SceneModel* model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* column = new QVBoxLayout(this);
  generalError_ = makeErrorLabel();
  generalError_->setObjectName(QStringLiteral("generalError"));
  column->addWidget(generalError_);
  fieldErrors_[QString()] = generalError_;

  buildModelBox(column);
  buildLayoutBox(column);
  buildDesignBox(column);
  buildAgeBox(column);
  buildPlanBox(column);
  buildSelectionBox(column);

  column->addStretch(1);
  connect(model_, &SceneModel::changed, this, &ScenePanel::sync);
  sync(SceneChanges::all());
}

void ScenePanel::buildModelBox(QVBoxLayout* column) {
  auto* modelBox = new QGroupBox(tr("Model"), this);
  auto* modelColumn = new QVBoxLayout(modelBox);
  modelInfo_ = new QLabel(modelBox);
  modelInfo_->setObjectName(QStringLiteral("modelInfo"));
  modelInfo_->setWordWrap(true);
  modelInfo_->setToolTip(
      tr("File \xe2\x86\x92 Open model sets the design, frequency plan and image grid of a "
         "checkpoint; File \xe2\x86\x92 Open processor output makes the layout from its tokens. "
         "The rule set (transformers version) is the design's \"Rules\" below"));
  modelColumn->addWidget(modelInfo_);
  column->addWidget(modelBox);
}

void ScenePanel::buildLayoutBox(QVBoxLayout* column) {
  auto* layoutBox = new QGroupBox(tr("Layout"), this);
  auto* layoutColumn = new QVBoxLayout(layoutBox);
  segments_ = new SegmentListEditor(layoutBox);
  layoutColumn->addWidget(segments_);
  column->addWidget(layoutBox);
  connect(segments_, &SegmentListEditor::edited, this,
          [this](const Layout& layout) { model_->edit([&](Scene& s) { s.layout = layout; }); });
  connect(segments_, &SegmentListEditor::specRejected, this, [this](const QString& message) {
    model_->reportProblem({message, QStringLiteral("layout")});
  });
  imageGrid_ = new ImageGridEditor(model_, this);
  column->addWidget(imageGrid_);
}

void ScenePanel::buildDesignBox(QVBoxLayout* column) {
  auto* designBox = new QGroupBox(tr("Position design"), this);
  auto* designColumn = new QVBoxLayout(designBox);
  design_ = new QComboBox(designBox);
  design_->setObjectName(QStringLiteral("design"));
  for (const PositionDesign* d : allDesigns())
    design_->addItem(QString::fromStdString(d->title()), QString::fromStdString(d->name()));
  // Ids from a file (File → Load ids…): chosen here it takes the ids already loaded.
  design_->addItem(QString::fromStdString(idsFileDesign().title()),
                   QString::fromLatin1(kIdsFileDesign));
  designColumn->addWidget(design_);
  fieldErrors_[QStringLiteral("design")] = makeErrorLabel();
  designColumn->addWidget(fieldErrors_[QStringLiteral("design")]);
  designSummary_ = new QLabel(designBox);
  designSummary_->setWordWrap(true);
  designSummary_->setStyleSheet(QStringLiteral("color: palette(mid);"));
  designColumn->addWidget(designSummary_);
  paramsBox_ = new QWidget(designBox);
  paramsForm_ = new QFormLayout(paramsBox_);
  paramsForm_->setContentsMargins(0, 0, 0, 0);
  designColumn->addWidget(paramsBox_);
  column->addWidget(designBox);
  connect(design_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const std::string name = design_->itemData(index).toString().toStdString();
    model_->chooseDesign(name, true);
  });
}

void ScenePanel::buildAgeBox(QVBoxLayout* column) {
  ageBox_ = new QGroupBox(tr("AGE: circle or M-RoPE ids per layer"), this);
  ageBox_->setObjectName(QStringLiteral("age"));
  auto* ageForm = new QFormLayout(ageBox_);
  ageLayers_ = fieldSpinBox("age_layers", ageBox_);
  ageStrategy_ = new QComboBox(ageBox_);
  ageStrategy_->setObjectName(QStringLiteral("age_strategy"));
  for (const std::string& name : sceneField("age_strategy").spec.choices)
    ageStrategy_->addItem(QString::fromStdString(name));
  ageLayer_ = new QSlider(Qt::Horizontal, ageBox_);
  ageLayer_->setObjectName(QString::fromStdString(sceneField("age_layer").key()));
  ageLayer_->setToolTip(tr("Which decoder layer's ids the views show; leftmost = the circle ids"));
  ageLayerText_ = new QLabel(ageBox_);
  ageForm->addRow(fieldLabel("age_layers"), ageLayers_);
  ageForm->addRow(fieldLabel("age_strategy"), ageStrategy_);
  ageForm->addRow(fieldLabel("age_layer"), ageLayer_);
  ageForm->addRow(QString(), ageLayerText_);
  // Every AGE field's errors (their field ids are the table's keys) beside the AGE box.
  fieldErrors_[QStringLiteral("age")] = makeErrorLabel();
  ageForm->addRow(fieldErrors_[QStringLiteral("age")]);
  for (const SceneField& f : sceneFields())
    if (f.section == "age")
      fieldErrors_[QString::fromStdString(f.key())] = fieldErrors_[QStringLiteral("age")];
  column->addWidget(ageBox_);
  connect(ageLayers_, &QSpinBox::valueChanged, this, [this](int v) {
    model_->edit([v](Scene& s) {
      s.age.layers = v;
      // Fewer layers must not strand the shown layer outside the schedule.
      if (s.ageLayer >= v) s.ageLayer = v - 1;
    });
  });
  connect(ageStrategy_, &QComboBox::currentIndexChanged, this, [this](int i) {
    const AgeStrategy st = parseAgeStrategy(ageStrategy_->itemText(i).toStdString());
    model_->edit([st](Scene& s) { s.age.strategy = st; });
  });
  connect(ageLayer_, &QSlider::valueChanged, this,
          [this](int v) { model_->edit([v](Scene& s) { s.ageLayer = v; }); });
  connect(ageLayer_, &QSlider::sliderPressed, model_, &SceneModel::beginGesture);
  connect(ageLayer_, &QSlider::sliderReleased, model_, &SceneModel::endGesture);
}

void ScenePanel::buildPlanBox(QVBoxLayout* column) {
  auto* planBox = new QGroupBox(tr("Frequency plan"), this);
  auto* planForm = new QFormLayout(planBox);
  plan_ = new QComboBox(planBox);
  plan_->setObjectName(QStringLiteral("plan"));
  for (const FrequencyPlan* p : allPlans())
    plan_->addItem(QString::fromStdString(p->title()), QString::fromStdString(p->name()));
  headDim_ = fieldSpinBox("head_dim", planBox);
  rotaryDim_ = fieldSpinBox("rotary_dim", planBox);
  rotaryDim_->setSpecialValueText(tr("= head dim"));
  pairs_ = new QComboBox(planBox);
  pairs_->setObjectName(QStringLiteral("pairs"));
  pairs_->addItem(tr("NeoX pairs"), QString::fromLatin1(pairLayoutName(PairLayout::NeoX)));
  pairs_->addItem(tr("GPT-J pairs"), QString::fromLatin1(pairLayoutName(PairLayout::GptJ)));
  pairs_->setToolTip(
      tr("Which two q/k dims each rotary pair p rotates: NeoX, dims p and p + r/2 (rotate_half: "
         "Qwen2/2.5/3-VL, Qwen3.5) or GPT-J, dims 2p and 2p + 1 (GLM-4.1V/4.5V, ERNIE-4.5-VL). "
         "Dims past the rotary dim r pass through"));
  // The rotary dim and the pair layout share a row: the panel fits a laptop screen's height.
  auto* rotaryRow = new QWidget(planBox);
  auto* rr = new QHBoxLayout(rotaryRow);
  rr->setContentsMargins(0, 0, 0, 0);
  rr->addWidget(rotaryDim_, 1);
  rr->addWidget(pairs_, 1);
  base_ = fieldDoubleSpinBox("base", planBox);
  base_->setSingleStep(10000);
  base_->setToolTip(
      tr("θ_p = base^(−2p/d): 10000 RoFormer, 1000000 Qwen2/2.5-VL, 5000000 Qwen3-VL"));
  sections_ = new QLineEdit(planBox);
  sections_->setObjectName(QStringLiteral("sections"));
  sections_->setPlaceholderText(tr("plan default"));
  sections_->setToolTip(
      tr("Pairs per axis t,h,w (e.g. 16,24,24); empty = the plan's default. "
         "Press Enter to apply"));
  multiheadRow_ = new QWidget(planBox);
  auto* mh = new QHBoxLayout(multiheadRow_);
  mh->setContentsMargins(0, 0, 0, 0);
  kvHeads_ = fieldSpinBox("kv_heads", multiheadRow_);
  kvHeads_->setPrefix(tr("KV heads "));
  kvHead_ = fieldSpinBox("kv_head", multiheadRow_);
  kvHead_->setPrefix(tr("head "));
  mh->addWidget(kvHeads_);
  mh->addWidget(kvHead_);
  // Each row with its red message below, keyed by the field table's keys (core's field ids).
  const auto row = [&](const char* key, QWidget* editor) {
    planForm->addRow(fieldLabel(key), editor);
    planForm->addRow(fieldErrors_[QString::fromLatin1(key)] = makeErrorLabel());
  };
  row("plan", plan_);
  row("head_dim", headDim_);
  row("rotary_dim", rotaryRow);
  fieldErrors_[QStringLiteral("pairs")] = fieldErrors_[QStringLiteral("rotary_dim")];
  row("base", base_);
  row("sections", sections_);
  planForm->addRow(tr("Multihead"), multiheadRow_);
  fieldErrors_[QStringLiteral("kv_heads")] = makeErrorLabel();
  planForm->addRow(fieldErrors_[QStringLiteral("kv_heads")]);
  fieldErrors_[QStringLiteral("kv_head")] = fieldErrors_[QStringLiteral("kv_heads")];
  // The context extension (frequency.rope): its rows generated from the rope type's table.
  rope_ = new RopeEditor(model_, planBox);
  planForm->addRow(rope_);
  column->addWidget(planBox);
  connect(plan_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const std::string name = plan_->itemData(index).toString().toStdString();
    model_->edit([&](Scene& s) {
      s.frequency.plan = name;
      s.frequency.sections.clear();  // each plan counts sections in its own units
    });
  });
  connect(headDim_, &QSpinBox::valueChanged, this,
          [this](int v) { model_->edit([v](Scene& s) { s.frequency.rotary.headDim = v; }); });
  connect(rotaryDim_, &QSpinBox::valueChanged, this,
          [this](int v) { model_->edit([v](Scene& s) { s.frequency.rotary.rotaryDim = v; }); });
  connect(pairs_, &QComboBox::currentIndexChanged, this, [this](int index) {
    const PairLayout l = parsePairLayout(pairs_->itemData(index).toString().toStdString());
    model_->edit([l](Scene& s) { s.frequency.rotary.pairs = l; });
  });
  connect(base_, &QDoubleSpinBox::valueChanged, this,
          [this](double v) { model_->edit([v](Scene& s) { s.frequency.rotary.base = v; }); });
  connect(kvHeads_, &QSpinBox::valueChanged, this,
          [this](int v) { model_->edit([v](Scene& s) { s.frequency.kvHeads = v; }); });
  connect(kvHead_, &QSpinBox::valueChanged, this,
          [this](int v) { model_->edit([v](Scene& s) { s.frequency.kvHead = v; }); });
  connect(sections_, &QLineEdit::editingFinished, this, [this] {
    std::vector<int> values;
    try {
      values = parseSectionsText(sections_->text().toStdString(), "sections");
    } catch (const InputError& e) {
      model_->reportProblem({QString::fromStdString(e.what()), QString::fromStdString(e.field())});
      return;
    }
    sections_->setModified(false);  // handed over, as the layout line's text
    model_->edit([&](Scene& s) { s.frequency.sections = values; });
  });
}

void ScenePanel::buildSelectionBox(QVBoxLayout* column) {
  auto* selectBox = new QGroupBox(tr("Selected text token"), this);
  auto* selectForm = new QFormLayout(selectBox);
  selectedText_ = new QSpinBox(selectBox);
  selectedText_->setObjectName(QStringLiteral("selectedText"));
  selectedText_->setToolTip(
      tr("Its lines to every visual token draw the cone; its distance and "
         "bias profiles fill the profile chart. Click a token to pick it."));
  selectForm->addRow(fieldLabel("selected_text"), selectedText_);
  fieldErrors_[QStringLiteral("selected_text")] = makeErrorLabel();
  selectForm->addRow(fieldErrors_[QStringLiteral("selected_text")]);
  column->addWidget(selectBox);
  connect(selectedText_, &QSpinBox::valueChanged, this,
          [this](int v) { model_->setSelectedText(v); });
}

QLabel* ScenePanel::makeErrorLabel() {
  auto* label = new QLabel(this);
  label->setWordWrap(true);
  label->setStyleSheet(QStringLiteral("color: #d03030;"));
  label->hide();
  return label;
}

void ScenePanel::sync(SceneChanges parts) {
  // A click on a token changes only the selection: its one box. Setting every field again
  // repainted the whole panel on each click (t1000,i500x500: a frame's worth of the click).
  if (!parts.empty() && parts.within(ScenePart::Selection)) {
    syncSelection();
    if (model_->problem() || errorsShown_) showErrors();
    return;
  }
  const Scene& s = model_->scene();
  segments_->setFileContext(layoutContextOf(s));
  const bool layoutRefused =
      model_->problem() && model_->problem()->field == QLatin1String("layout");
  segments_->showLayout(s.layout, layoutRefused ? &model_->validScene().layout : nullptr);
  {
    const QSignalBlocker block(design_);
    design_->setCurrentIndex(design_->findData(QString::fromStdString(s.design)));
  }
  if (editorsDesign_ != s.design) rebuildParameterEditors();
  if (s.model.empty()) {
    modelInfo_->setText(tr("none (File \xe2\x86\x92 Open model)"));
  } else {
    QString family = QString::fromStdString(s.design);
    try {
      family = QString::fromStdString(findFamily(s.design).title());
    } catch (const std::exception&) {
      family = tr("design now %1").arg(family);  // the user picked another design since
    }
    modelInfo_->setText(
        QString::fromUtf8("%1  \xc2\xb7  %2").arg(QString::fromStdString(s.model), family));
  }
  for (auto& [key, editor] : editors_) {
    const auto value = s.designParams.find(key);
    editor->setValue(value ? *value : editor->spec().defaultValue);
  }

  const bool circle = s.design == "circle";
  ageBox_->setEnabled(circle);
  {
    const QSignalBlocker b0(ageLayers_), b1(ageStrategy_), b2(ageLayer_);
    ageLayers_->setValue(s.age.layers);
    ageStrategy_->setCurrentIndex(
        ageStrategy_->findText(QString::fromLatin1(ageStrategyName(s.age.strategy))));
    // The table's range, below the scene's layer count.
    const SceneField& layer = sceneField("age_layer");
    ageLayer_->setRange(
        fieldSpinMinimum(layer),
        std::clamp(s.age.layers - 1, fieldSpinMinimum(layer), fieldSpinMaximum(layer)));
    ageLayer_->setValue(s.ageLayer);
  }
  if (s.ageLayer < 0) {
    ageLayerText_->setText(tr("circle ids (no layer chosen)"));
  } else {
    // The core decides which ids the layer uses; the panel only names the answer.
    const std::string used = effectiveDesign(model_->validScene());
    ageLayerText_->setText(
        tr("layer %1 uses %2 ids")
            .arg(s.ageLayer)
            .arg(QString::fromStdString(used == "circle" ? std::string("circle") : used)));
  }

  {
    const QSignalBlocker b0(plan_), b1(headDim_), b2(rotaryDim_), b3(base_), b4(kvHeads_),
        b5(kvHead_), b6(pairs_);
    plan_->setCurrentIndex(plan_->findData(QString::fromStdString(s.frequency.plan)));
    headDim_->setValue(s.frequency.rotary.headDim);
    rotaryDim_->setValue(s.frequency.rotary.rotaryDim);
    pairs_->setCurrentIndex(
        pairs_->findData(QString::fromLatin1(pairLayoutName(s.frequency.rotary.pairs))));
    base_->setValue(s.frequency.rotary.base);
    kvHeads_->setValue(s.frequency.kvHeads);
    kvHead_->setValue(s.frequency.kvHead);
  }
  multiheadRow_->setEnabled(s.frequency.plan == "multihead");
  // Text being typed stays, and so does text the box refused (Tab after "8,8" showed the old
  // sections under a message about "8,8"); anything else shows the scene's sections.
  const auto& problems = model_->problems();
  const bool sectionsRefused = std::any_of(problems.begin(), problems.end(), [](const auto& p) {
    return p.field == QLatin1String("sections");
  });
  if (!sections_->isModified() || !(sections_->hasFocus() || sectionsRefused))
    sections_->setText(QString::fromStdString(formatSectionsText(s.frequency.sections)));
  rope_->sync();

  syncSelection();
  showErrors();
}

void ScenePanel::syncSelection() {
  const QSignalBlocker block(selectedText_);
  const int texts = static_cast<int>(model_->metrics().ptd.nText);
  selectedText_->setRange(0, std::max(0, texts - 1));
  selectedText_->setValue(model_->scene().selectedText);
  const QString suffix = tr(" of %1").arg(texts);
  if (selectedText_->suffix() != suffix) selectedText_->setSuffix(suffix);
}

void ScenePanel::rebuildParameterEditors() {
  while (paramsForm_->rowCount() > 0) paramsForm_->removeRow(0);
  editors_.clear();
  editorsDesign_ = model_->scene().design;
  designSummary_->clear();
  const PositionDesign* design = nullptr;
  for (const PositionDesign* d : allDesigns())
    if (d->name() == editorsDesign_) design = d;
  if (!design) return;
  designSummary_->setText(QString::fromStdString(design->summary()));
  for (const ParameterSpec& spec : design->parameters()) {
    auto* editor = new ParameterEditor(spec, paramsBox_);
    auto* label = new QLabel(QString::fromStdString(spec.label), paramsBox_);
    label->setToolTip(editor->toolTip());
    paramsForm_->addRow(label, editor);
    editors_[spec.key] = editor;
    const std::string key = spec.key;
    connect(editor, &ParameterEditor::edited, this,
            [this, key](double v) { model_->edit([&](Scene& s) { s.designParams.set(key, v); }); });
    connect(editor, &ParameterEditor::dragStarted, model_, &SceneModel::beginGesture);
    connect(editor, &ParameterEditor::dragFinished, model_, &SceneModel::endGesture);
  }
}

void ScenePanel::showErrors() {
  errorsShown_ = model_->isStale();
  for (auto& [field, label] : fieldErrors_) label->hide();
  for (auto& [key, editor] : editors_) editor->setError({});
  rope_->clearErrors();
  segments_->setError({});
  // Each problem beside its field; fields that share a label (the AGE box) list theirs there.
  std::map<QLabel*, QStringList> lines;
  for (const InputProblem& problem : model_->problems()) {
    if (auto it = editors_.find(problem.field.toStdString()); it != editors_.end()) {
      it->second->setError(problem.message);
    } else if (problem.field == QLatin1String("layout")) {
      segments_->setError(problem.message);
    } else if (ImageGridEditor::shows(problem.field)) {
      // shown by the image grid box
    } else if (rope_->showProblem(problem)) {
      // beside the rope scaling's field
    } else if (auto label = fieldErrors_.find(problem.field); label != fieldErrors_.end()) {
      lines[label->second] << problem.message;
    } else {
      lines[generalError_] << problem.message;
    }
  }
  for (auto& [label, text] : lines) {
    label->setText(text.join(QLatin1Char('\n')));
    label->show();
  }
}

QString ScenePanel::errorFor(const QString& field) const {
  if (auto it = editors_.find(field.toStdString()); it != editors_.end())
    return it->second->error();
  if (field == QLatin1String("layout")) return segments_->error();
  if (field == QLatin1String("image_grid")) return imageGrid_->error();
  if (const QString rope = rope_->errorFor(field); !rope.isEmpty()) return rope;
  auto it = fieldErrors_.find(field);
  if (it == fieldErrors_.end() || it->second->isHidden()) return {};
  return it->second->text();
}

ParameterEditor* ScenePanel::parameterEditor(const std::string& key) const {
  auto it = editors_.find(key);
  return it == editors_.end() ? nullptr : it->second;
}

}  // namespace ropescope::ui
