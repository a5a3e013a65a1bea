// A spin box whose arrows, wheel and keys keep to the accepted range while a typed number
// outside it goes through to the model, which refuses it with its message beside the field
// ("visual_stride must be in (0, 1000000] (got -5)"). A plain spin box took "-5" as "-", made
// 99999999 its maximum and put back the last value without a word.
#pragma once

#include <QDoubleSpinBox>
#include <QSize>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace ropescope::ui {

template <typename Box>
class OpenSpinBox : public Box {
 public:
  using Value = decltype(std::declval<const Box&>().value());

  explicit OpenSpinBox(QWidget* parent = nullptr) : Box(parent) {}

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

 protected:
  typename Box::StepEnabled stepEnabled() const override {
    typename Box::StepEnabled e = Box::StepNone;
    if (this->isReadOnly()) return e;
    if (this->value() < hi_) e |= Box::StepUpEnabled;
    if (this->value() > lo_) e |= Box::StepDownEnabled;
    return e;
  }

 private:
  static constexpr double kWidest = 1e15;  // typed beyond: the box's own limit
  Value lo_ = 0, hi_ = 0;
  QSize hint_, minimumHint_;
};

using OpenDoubleSpinBox = OpenSpinBox<QDoubleSpinBox>;
using OpenIntSpinBox = OpenSpinBox<QSpinBox>;

}  // namespace ropescope::ui
