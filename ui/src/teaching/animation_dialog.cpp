#include "teaching/animation_dialog.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>

#include "model/scene_model.h"
#include "platform/file_dialogs.h"
#include "ropescope/errors.h"

#include <cmath>

namespace ropescope::ui {

namespace {
// The sweeps offered, with the ends the dialog starts from; their accepted ranges are
// animationRange's (the parser's).
struct Choice {
  const char* key;
  const char* parameter;  // what animationRange takes
  const char* label;
  double from, to;
  int decimals;
};
const Choice kChoices[] = {
    {"distance_h", "distance", "distance along h (phasor view)", 0, 64, 0},
    {"distance_w", "distance", "distance along w (phasor view)", 0, 64, 0},
    {"distance_t", "distance", "distance along t (phasor view)", 0, 64, 0},
    {"distance_thw", "distance", "distance along t, h, w (text)", 0, 64, 0},
    {"alpha", "alpha", "Circle-RoPE α (3-D view)", 0, 1, 3},
    {"radius", "radius", "Circle-RoPE R (3-D view)", 2, 20, 2},
    {"dff", "dff", "Circle-RoPE β, Dual-Frame Fusion (3-D view)", 0, 1, 3},
};
}  // namespace

AnimationDialog::AnimationDialog(SceneModel* model, QWidget* parent)
    : QDialog(parent), model_(model) {
  setObjectName(QStringLiteral("animationDialog"));
  setWindowTitle(tr("Export animation"));
  auto* form = new QFormLayout(this);
  parameter_ = new QComboBox;
  for (const Choice& c : kChoices) parameter_->addItem(tr(c.label), QString::fromLatin1(c.key));
  form->addRow(tr("Sweep"), parameter_);
  auto* range = new QHBoxLayout;
  from_ = new QDoubleSpinBox;
  to_ = new QDoubleSpinBox;
  from_->setObjectName(QStringLiteral("animationFrom"));
  to_->setObjectName(QStringLiteral("animationTo"));
  range->addWidget(from_);
  range->addWidget(new QLabel(tr("to")));
  range->addWidget(to_);
  form->addRow(tr("From"), range);
  frames_ = new QSpinBox;
  frames_->setObjectName(QStringLiteral("animationFrames"));
  frames_->setRange(kMinAnimationFrames, kMaxAnimationFrames);
  frames_->setValue(32);
  form->addRow(tr("Frames"), frames_);
  auto* size = new QHBoxLayout;
  width_ = new QSpinBox;
  height_ = new QSpinBox;
  width_->setObjectName(QStringLiteral("animationWidth"));
  height_->setObjectName(QStringLiteral("animationHeight"));
  for (QSpinBox* s : {width_, height_}) s->setRange(kMinAnimationSide, kMaxAnimationSide);
  width_->setValue(640);
  height_->setValue(480);
  size->addWidget(width_);
  size->addWidget(new QLabel(QStringLiteral("×")));
  size->addWidget(height_);
  form->addRow(tr("Size (pixels)"), size);
  delay_ = new QSpinBox;
  delay_->setRange(10, 5000);
  delay_->setSingleStep(10);
  delay_->setValue(80);
  delay_->setSuffix(tr(" ms"));
  form->addRow(tr("GIF frame delay"), delay_);
  auto* out = new QHBoxLayout;
  output_ = new QLineEdit(
      QDir(startFolder(FileKind::Animation)).filePath(QStringLiteral("animation.gif")));
  output_->setToolTip(tr("A .gif file, or a folder for PNG frames frame_0001.png, …"));
  auto* browse = new QPushButton(tr("Browse…"));
  out->addWidget(output_, 1);
  out->addWidget(browse);
  form->addRow(tr("Output"), out);
  message_ = new QLabel;
  message_->setObjectName(QStringLiteral("animationMessage"));
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #e04040;"));
  form->addRow(message_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
  QPushButton* exportButton = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(exportButton, &QPushButton::clicked, this, [this] {
    if (exportNow()) accept();
  });
  connect(browse, &QPushButton::clicked, this, &AnimationDialog::browse);
  connect(parameter_, &QComboBox::currentIndexChanged, this, &AnimationDialog::parameterChanged);
  parameterChanged();
}

void AnimationDialog::parameterChanged() {
  const Choice& c = kChoices[std::max(0, parameter_->currentIndex())];
  const AnimationRange range = animationRange(c.parameter);
  // An open end (R > 0) starts one step of the last decimal above it: 0 was offered, refused.
  const double lo = range.loExclusive ? range.lo + std::pow(10.0, -c.decimals) : range.lo;
  for (QDoubleSpinBox* s : {from_, to_}) {
    s->setDecimals(c.decimals);
    s->setRange(lo, range.hi);
  }
  from_->setValue(c.from);
  to_->setValue(c.to);
  showMessage({});
}

// The dialog's fields, not the command line's: "animation spec 'radius:0:20': radius must be
// ..." and "--out "a.png" ends in .png ..." named what the user never typed.
QString AnimationDialog::dialogWording(std::string text) {
  if (text.rfind("animation spec '", 0) == 0) {
    if (const auto colon = text.find("': "); colon != std::string::npos) text.erase(0, colon + 3);
    if (const auto use = text.find("; use PARAM"); use != std::string::npos) text.erase(use);
  }
  if (text.rfind("--out ", 0) == 0) text = "Output " + text.substr(6);
  return QString::fromStdString(text);
}

// The message label wraps; the dialog grows to show all of it (a two-line error was cut off).
void AnimationDialog::showMessage(const QString& text) {
  message_->setText(text);
  layout()->activate();
  const int need = layout()->totalHeightForWidth(width());
  if (need > height()) resize(width(), need);
}

void AnimationDialog::browse() {
  const QString path =
      askSaveFile(this, FileKind::Animation, tr("Export animation"), output_->text(),
                  tr("Animated GIF (*.gif);;Folder of PNG frames (*)"));
  if (!path.isEmpty()) output_->setText(path);
}

QString AnimationDialog::specText() const {
  return QStringLiteral("%1:%2:%3")
      .arg(parameter_->currentData().toString())
      .arg(from_->value(), 0, 'g', 10)
      .arg(to_->value(), 0, 'g', 10);
}

bool AnimationDialog::validate() {
  try {
    parseAnimationSpec(specText().toStdString());
    checkAnimationFrames(frames_->value());
    checkAnimationSize(QSize(width_->value(), height_->value()));
    if (output_->text().trimmed().isEmpty())
      throw InputError("no output: give a .gif file or a folder for PNG frames", "out");
  } catch (const InputError& e) {
    showMessage(dialogWording(e.what()));
    return false;
  }
  showMessage({});
  return true;
}

bool AnimationDialog::exportNow() {
  if (!validate()) return false;
  AnimationSpec spec = parseAnimationSpec(specText().toStdString());
  spec.frames = frames_->value();
  QProgressDialog progress(tr("Rendering %1 frames…").arg(spec.frames), tr("Cancel"), 0,
                           spec.frames, this);
  progress.setWindowModality(Qt::WindowModal);
  progress.setMinimumDuration(300);
  const AnimationResult r = renderAnimation(
      model_->validScene(), spec, QSize(width_->value(), height_->value()),
      output_->text().trimmed(),
      [&progress](int done, int) {
        progress.setValue(done);
        QApplication::processEvents();
        return !progress.wasCanceled();
      },
      delay_->value());
  progress.setValue(spec.frames);
  const QString out = output_->text().trimmed();
  if (r.cancelled) {
    // A GIF appears whole or not at all; PNG frames are each written whole, one by one.
    showMessage(out.endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive)
                    ? tr("Cancelled: no GIF written (what was at %1 is as it was).").arg(out)
                    : tr("Cancelled after %1 frames: frame_0001.png to frame_%2.png are in %3.")
                          .arg(r.framesWritten)
                          .arg(r.framesWritten, 4, 10, QLatin1Char('0'))
                          .arg(out));
    return false;
  }
  if (!r.ok) {
    showMessage(dialogWording(r.error.toStdString()));
    return false;
  }
  showMessage(tr("Wrote %1 frames to %2").arg(r.framesWritten).arg(out));
  rememberFolder(FileKind::Animation, QFileInfo(out).absoluteFilePath());
  return true;
}

QString AnimationDialog::message() const {
  return message_->text();
}

void AnimationDialog::setSpec(const QString& parameter, double from, double to, int frames) {
  const int i = parameter_->findData(parameter);
  if (i >= 0) parameter_->setCurrentIndex(i);
  from_->setValue(from);
  to_->setValue(to);
  frames_->setValue(frames);
}

void AnimationDialog::setOutput(const QString& path) {
  output_->setText(path);
}

void AnimationDialog::setFrameSize(QSize size) {
  width_->setValue(size.width());
  height_->setValue(size.height());
}

}  // namespace ropescope::ui
