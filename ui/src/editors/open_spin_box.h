// A spin box whose arrows, wheel and keys keep to the accepted range while a typed number
// outside it goes through to the model, which refuses it with its message beside the field
// ("visual_stride must be in (0, 1000000] (got -5)"). A plain spin box took "-5" as "-", made
// 99999999 its maximum and put back the last value without a word.
// Numbers are read as the command line reads them: an exponent is part of the number ("1e6",
// "2.5e-3"; a plain spin box dropped the "e" and took 1e6 as 16), group separators may be typed
// or left out, and a whole-number box takes "1e6" when it is whole.
#pragma once

#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QSize>
#include <QSpinBox>
#include <QValidator>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace ropescope::ui {

template <typename Box>
class OpenSpinBox : public Box {
 public:
  using Value = decltype(std::declval<const Box&>().value());

  explicit OpenSpinBox(QWidget* parent = nullptr) : Box(parent) {
    // A value committed (Return, the box left) is the scene's: the typing that made it is no
    // longer the box's to undo, and Ctrl+Z goes to the scene's edit (shell/shortcut_guard.h).
    QObject::connect(this, &QAbstractSpinBox::editingFinished, this,
                     [this] { this->lineEdit()->setModified(false); });
  }

  // The range the steps keep to; the box takes any number typed (within what it can hold).
  void setAcceptedRange(Value lo, Value hi) {
    lo_ = lo;
    hi_ = hi;
    // Sized for the accepted range's numbers, not for the widest the box can hold.
    Box::setRange(lo, hi);
    hint_ = Box::sizeHint();
    minimumHint_ = Box::minimumSizeHint();
    if constexpr (std::is_integral_v<Value>)
      Box::setRange(std::numeric_limits<Value>::min(), std::numeric_limits<Value>::max());
    else
      Box::setRange(-kWidest, kWidest);
  }
  Value acceptedMinimum() const { return lo_; }
  Value acceptedMaximum() const { return hi_; }
  // Shows a number without the zeros that end its decimals (a base of 10000 as "10,000", 1.5 as
  // "1.5"), for a box whose decimals are there for the numbers that need them.
  void setTrimmedZeros(bool on) { trimZeros_ = on; }

  QSize sizeHint() const override { return hint_.isValid() ? hint_ : Box::sizeHint(); }
  QSize minimumSizeHint() const override {
    return minimumHint_.isValid() ? minimumHint_ : Box::minimumSizeHint();
  }

  void stepBy(int steps) override {
    const double next = static_cast<double>(this->value()) +
                        static_cast<double>(steps) * static_cast<double>(this->singleStep());
    this->setValue(
        static_cast<Value>(std::clamp(next, static_cast<double>(lo_), static_cast<double>(hi_))));
    this->selectAll();
  }

  QValidator::State validate(QString& text, int&) const override {
    const QString body = bodyOf(text);
    if (isSpecial(text) || number(body)) return QValidator::Acceptable;
    // On the way to a number: "", "-", "1.", "1e", "2.5e-".
    static const QRegularExpression partial(
        QStringLiteral("^[+-]?[0-9]*([.][0-9]*)?([eE][+-]?[0-9]*)?$"));
    QString plain = body;
    plain.remove(this->locale().groupSeparator());
    plain.replace(this->locale().decimalPoint(), QStringLiteral("."));
    return partial.match(plain).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
  }

  Value valueFromText(const QString& text) const override {
    if (isSpecial(text)) return lo_;
    const std::optional<Value> v = number(bodyOf(text));
    return v ? *v : this->value();
  }

  QString textFromValue(Value v) const override {
    // The special text at the accepted minimum (the box's own minimum is far below it).
    if (v == lo_ && !this->specialValueText().isEmpty()) return this->specialValueText();
    QString text = Box::textFromValue(v);
    if constexpr (!std::is_integral_v<Value>) {
      const QString point = this->locale().decimalPoint();
      if (trimZeros_ && text.contains(point)) {
        while (text.endsWith(QLatin1Char('0'))) text.chop(1);
        if (text.endsWith(point)) text.chop(point.size());
      }
    }
    return text;
  }

 protected:
  typename Box::StepEnabled stepEnabled() const override {
    typename Box::StepEnabled e = Box::StepNone;
    if (this->isReadOnly()) return e;
    if (this->value() < hi_) e |= Box::StepUpEnabled;
    if (this->value() > lo_) e |= Box::StepDownEnabled;
    return e;
  }

 private:
  // Beyond it the box's own limit (a typed 1e30 is kept as such for core's message).
  static constexpr double kWidest = 1e300;

  QString bodyOf(const QString& text) const {
    QString body = text;
    if (!this->prefix().isEmpty() && body.startsWith(this->prefix()))
      body.remove(0, this->prefix().size());
    if (!this->suffix().isEmpty() && body.endsWith(this->suffix()))
      body.chop(this->suffix().size());
    return body.trimmed();
  }
  bool isSpecial(const QString& text) const {
    return !this->specialValueText().isEmpty() && text == this->specialValueText();
  }
  // The number `body` holds, in the box's locale or in C's ("1e6" in any locale); a whole-number
  // box takes whole numbers only.
  std::optional<Value> number(const QString& body) const {
    bool ok = false;
    double v = this->locale().toDouble(body, &ok);
    if (!ok) v = QLocale::c().toDouble(body, &ok);
    if (!ok || !std::isfinite(v)) return std::nullopt;
    if constexpr (std::is_integral_v<Value>) {
      if (v != std::floor(v) || v < static_cast<double>(std::numeric_limits<Value>::min()) ||
          v > static_cast<double>(std::numeric_limits<Value>::max()))
        return std::nullopt;
      return static_cast<Value>(v);
    } else {
      if (std::abs(v) > kWidest) return std::nullopt;
      return v;
    }
  }

  Value lo_ = 0, hi_ = 0;
  QSize hint_, minimumHint_;
  bool trimZeros_ = false;
};

using OpenDoubleSpinBox = OpenSpinBox<QDoubleSpinBox>;
using OpenIntSpinBox = OpenSpinBox<QSpinBox>;

}  // namespace ropescope::ui
