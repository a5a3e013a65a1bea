#include "teaching/tour.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "model/scene_model.h"
#include "ropescope/layout.h"

namespace ropescope::ui {

Scene tourBaseScene() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t3,i4x4,t5");
  setDesign(s, "hard");
  s.frequency = FrequencySpec{};
  s.frequency.plan = "mrope";
  s.frequency.rotary = {128, 0, 1e6};
  s.selectedText = 3;  // the first token after the image: the question looking back at it
  s.ageLayer = -1;
  return s;
}

std::vector<TourStep> tourSteps() {
  std::vector<TourStep> steps;
  steps.push_back(
      {QObject::tr("1. Hard embedding: one long line"),
       QObject::tr("Every token, text or patch, takes the next integer, so the 4×4 image is read "
                   "row by row like 16 words. The question after it is 1 position from the last "
                   "patch but 16 from the first: RoPE's decay favours patches by reading order, "
                   "and PTD (the spread of those distances) is large."),
       [](Scene& s) { setDesign(s, "hard"); }, QStringLiteral("charts")});
  steps.push_back(
      {QObject::tr("2. Unordered: one index per image"),
       QObject::tr("Now every patch of the image shares one index, so every text token is equally "
                   "far from all patches and PTD drops to 0. The price: the image has no inside "
                   "any more, since two patches at opposite corners look identical to RoPE."),
       [](Scene& s) { setDesign(s, "unordered"); }, QStringLiteral("charts")});
  steps.push_back(
      {QObject::tr("3. M-RoPE: rows on h, columns on w"),
       QObject::tr("M-RoPE gives each patch (t, h, w) ids and splits the rotary pairs into t, h "
                   "and w sections, so the image keeps its 2-D layout. Text sits on the diagonal "
                   "t = h = w, so its distances to the patches differ again (PTD > 0)."),
       [](Scene& s) { setDesign(s, "mrope"); }, QStringLiteral("charts")});
  steps.push_back(
      {QObject::tr("4. Equal distance, unequal bias"),
       QObject::tr("The phasor tab turns every rotary pair by Δ = 100 positions along h: only the "
                   "green h pairs move, and the running sums Sⱼ bend into the spiral whose mean "
                   "length is the decay bound U(Δ). Set Δ along w and the same distance barely "
                   "turns the slower blue w pairs, so equal distances give unequal bias b(Δ)."),
       [](Scene& s) { setDesign(s, "mrope"); }, QStringLiteral("phasor"), 1, 100});
  steps.push_back(
      {QObject::tr("5. Circle-RoPE: the cone"),
       QObject::tr("Circle-RoPE puts the image on a ring of radius R = 10 around the text axis "
                   "(1, 1, 1), so every text token sees all patches at one distance: a cone with "
                   "PTD = 0. The ring's angles (α = 0.5 mixes spatial angle and grid order) keep "
                   "the image's layout; try α, R and β in the scene panel or File → Export "
                   "animation."),
       [](Scene& s) {
         setDesign(s, "circle");
         s.designParams.set("alpha", 0.5);
         s.designParams.set("radius", 10.0);
       },
       QStringLiteral("charts")});
  return steps;
}

TourPanel::TourPanel(SceneModel* model, std::function<void(const TourStep&)> onStep,
                     QWidget* parent)
    : QWidget(parent), model_(model), onStep_(std::move(onStep)), steps_(tourSteps()) {
  setObjectName(QStringLiteral("tourPanel"));
  auto* column = new QVBoxLayout(this);
  counter_ = new QLabel;
  counter_->setObjectName(QStringLiteral("tourCounter"));
  title_ = new QLabel;
  title_->setObjectName(QStringLiteral("tourTitle"));
  QFont f = title_->font();
  f.setBold(true);
  f.setPointSizeF(f.pointSizeF() * 1.15);
  title_->setFont(f);
  title_->setWordWrap(true);
  body_ = new QLabel;
  body_->setObjectName(QStringLiteral("tourBody"));
  body_->setWordWrap(true);
  body_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  // Narrow enough for a laptop screen beside the scene panel, the 3-D view and the charts.
  body_->setMinimumWidth(200);
  setMinimumWidth(220);
  column->addWidget(counter_);
  column->addWidget(title_);
  column->addWidget(body_, 1);
  auto* buttons = new QHBoxLayout;
  back_ = new QPushButton(tr("◀ Back"));
  next_ = new QPushButton(tr("Next ▶"));
  close_ = new QPushButton(tr("Close"));
  back_->setObjectName(QStringLiteral("tourBack"));
  next_->setObjectName(QStringLiteral("tourNext"));
  close_->setObjectName(QStringLiteral("tourClose"));
  close_->setToolTip(tr("End the tour and return to your own scene"));
  buttons->addWidget(back_);
  buttons->addWidget(next_);
  buttons->addStretch(1);
  buttons->addWidget(close_);
  column->addLayout(buttons);
  connect(back_, &QPushButton::clicked, this, &TourPanel::back);
  connect(next_, &QPushButton::clicked, this, &TourPanel::next);
  connect(close_, &QPushButton::clicked, this, &TourPanel::finish);
  // Escape ends the tour too, from anywhere in the panel.
  auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
  escape->setContext(Qt::WidgetWithChildrenShortcut);
  connect(escape, &QShortcut::activated, this, &TourPanel::finish);
}

void TourPanel::start() {
  if (!saved_) {
    saved_ = model_->scene();
    emit started();  // before the first step changes anything
  }
  show(0);
}

bool TourPanel::showsItsScene() const {
  return saved_ && model_->scene() == applied_;
}

void TourPanel::next() {
  if (step_ + 1 < stepCount()) {
    show(step_ + 1);
  } else {
    finish();
  }
}

void TourPanel::back() {
  if (step_ > 0) show(step_ - 1);
}

void TourPanel::finish() {
  if (saved_) {
    if (model_->scene() == applied_) model_->setSceneUnrecorded(*saved_);
    saved_.reset();
  }
  emit finished();
}

void TourPanel::show(int step) {
  step_ = std::clamp(step, 0, stepCount() - 1);
  const TourStep& s = steps_[step_];
  Scene scene = tourBaseScene();
  s.apply(scene);
  model_->setSceneUnrecorded(scene);  // a step of the tour is no edit to undo
  applied_ = model_->scene();
  counter_->setText(tr("Step %1 of %2").arg(step_ + 1).arg(stepCount()));
  title_->setText(s.title);
  body_->setText(s.text);
  back_->setEnabled(step_ > 0);
  next_->setText(step_ + 1 < stepCount() ? tr("Next ▶") : tr("Finish"));
  if (onStep_) onStep_(s);
}

QString TourPanel::titleText() const {
  return title_->text();
}
QString TourPanel::bodyText() const {
  return body_->text();
}
QString TourPanel::counterText() const {
  return counter_->text();
}

}  // namespace ropescope::ui
