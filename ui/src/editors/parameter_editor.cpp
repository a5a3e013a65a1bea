#include "editors/parameter_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "editors/open_spin_box.h"

namespace ropescope::ui {

namespace {
// Decimals of a real parameter's box, and the most a value that needs more gets (setValue).
constexpr int kDecimals = 4;
constexpr int kMaxDecimals = 12;
constexpr int kSliderSteps = 1000;
}  // namespace

ParameterEditor::ParameterEditor(ParameterSpec spec, QWidget* parent)
    : QWidget(parent), spec_(std::move(spec)), value_(spec_.defaultValue) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(2);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  column->addLayout(row);
  const QString tip = QString::fromStdString(spec_.help) + QStringLiteral("\nRange: ") +
                      QString::fromStdString(spec_.rangeText());
  setToolTip(tip);
  setObjectName(QString::fromStdString(spec_.key));

  using Kind = ParameterSpec::Kind;
  if (spec_.kind == Kind::Bool) {
    check_ = new QCheckBox(this);
    row->addWidget(check_);
    row->addStretch(1);
    connect(check_, &QCheckBox::toggled, this, [this](bool on) { commit(on ? 1.0 : 0.0); });
  } else if (spec_.kind == Kind::Choice) {
    combo_ = new QComboBox(this);
    for (const std::string& c : spec_.choices) combo_->addItem(QString::fromStdString(c));
    row->addWidget(combo_, 1);
    connect(combo_, &QComboBox::currentIndexChanged, this,
            [this](int index) { commit(static_cast<double>(index)); });
  } else {
    slider_ = new QSlider(Qt::Horizontal, this);
    auto* spin = new OpenDoubleSpinBox(this);
    spin_ = spin;
    const bool integer = spec_.kind == Kind::Integer;
    spin_->setDecimals(integer ? 0 : kDecimals);
    // The lower end stays reachable even when it is exclusive, and a number typed outside the
    // range goes through, so the core's message can show.
    spin->setAcceptedRange(spec_.min, spec_.max);
    const double span = spec_.max - spec_.min;
    spin_->setSingleStep(
        integer ? 1.0 : (span > 0 ? std::pow(10.0, std::floor(std::log10(span))) / 100 : 0.01));
    spin_->setKeyboardTracking(false);
    spin_->setMinimumWidth(90);
    slider_->setRange(0, kSliderSteps);
    row->addWidget(slider_, 1);
    row->addWidget(spin_);
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
      const double v = sliderValue(pos);
      {
        QSignalBlocker block(spin_);
        spin_->setValue(v);
      }
      commit(v);
    });
    connect(slider_, &QSlider::sliderPressed, this, &ParameterEditor::dragStarted);
    connect(slider_, &QSlider::sliderReleased, this, &ParameterEditor::dragFinished);
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
      {
        QSignalBlocker block(slider_);
        slider_->setValue(sliderPosition(v));
      }
      commit(v);
    });
  }
  error_ = new QLabel(this);
  error_->setObjectName(QStringLiteral("error"));
  error_->setWordWrap(true);
  error_->setStyleSheet(QStringLiteral("color: #d03030;"));
  error_->hide();
  column->addWidget(error_);
  setValue(spec_.defaultValue);
}

ParameterEditor::~ParameterEditor() {
  if (slider_ && slider_->isSliderDown()) emit dragFinished();
}

bool ParameterEditor::logSlider() const {
  // Wide ranges such as R in (0, 1e6] or a rope scaling's original length in 1..1e12 would
  // leave every useful value in the slider's first pixel.
  return (spec_.kind == ParameterSpec::Kind::Number ||
          spec_.kind == ParameterSpec::Kind::Integer) &&
         spec_.max > 0 && spec_.max - spec_.min > 1000.0 && spec_.min >= 0;
}

double ParameterEditor::logSliderLow() const {
  // The range's own lower end where it has one above 0 (1 for a length), else six decades.
  return spec_.min > 0 ? spec_.min : spec_.max * 1e-6;
}

int ParameterEditor::sliderPosition(double value) const {
  const double span = spec_.max - spec_.min;
  if (span <= 0) return 0;
  if (logSlider()) {
    const double lo = logSliderLow();
    if (value <= lo) return 0;
    return static_cast<int>(
        std::lround(std::log(value / lo) / std::log(spec_.max / lo) * kSliderSteps));
  }
  return static_cast<int>(std::lround((value - spec_.min) / span * kSliderSteps));
}

double ParameterEditor::sliderValue(int position) const {
  double v = 0.0;
  if (logSlider()) {
    const double lo = logSliderLow();
    v = lo * std::pow(spec_.max / lo, static_cast<double>(position) / kSliderSteps);
    v = std::round(v * 1e4) / 1e4;  // the spin box shows four decimals
  } else {
    v = spec_.min + (spec_.max - spec_.min) * position / kSliderSteps;
  }
  if (spec_.kind == ParameterSpec::Kind::Integer) v = std::round(v);
  return v;
}

void ParameterEditor::setValue(double value) {
  value_ = value;
  if (check_) {
    QSignalBlocker block(check_);
    check_->setChecked(value != 0.0);
  } else if (combo_) {
    QSignalBlocker block(combo_);
    combo_->setCurrentIndex(static_cast<int>(value));
  } else {
    QSignalBlocker b1(slider_);
    QSignalBlocker b2(spin_);
    // Four decimals, or as many as the value needs (up to 12): R = 1e-5 showed "0.0000", as the
    // refused 0 did, and the box held 0.
    if (spec_.kind != ParameterSpec::Kind::Integer) {
      int decimals = kDecimals;
      while (decimals < kMaxDecimals) {
        const double scaled = value * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) <= 1e-9 * std::max(1.0, std::abs(scaled))) break;
        ++decimals;
      }
      if (spin_->decimals() != decimals) spin_->setDecimals(decimals);
    }
    spin_->setValue(value);
    slider_->setValue(sliderPosition(value));
  }
}

void ParameterEditor::commit(double value) {
  value_ = value;
  emit edited(value);
}

void ParameterEditor::setError(const QString& message) {
  error_->setText(message);
  error_->setVisible(!message.isEmpty());
}

QString ParameterEditor::error() const {
  return error_->isVisible() ? error_->text() : QString();
}

}  // namespace ropescope::ui
