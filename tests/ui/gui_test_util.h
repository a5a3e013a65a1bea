// Shared helpers of the GUI tests: a fixed scene, synthetic mouse drags, and widget lookup.
#pragma once

#include <QApplication>
#include <QMouseEvent>
#include <QTest>
#include <QWidget>

#include "ropescope/layout.h"
#include "ropescope/scene.h"

namespace ropescope::ui::test {

// Tests wait for what they wait for, never for a time: this ceiling only guards against a real
// hang (ctest's TIMEOUT of the suite comes first), so a slow or loaded machine cannot fail them.
inline constexpr int kHangGuardMs = 24 * 3600 * 1000;

// Processes events until `done()` holds; false only after the hang guard.
template <typename Done>
bool waitUntil(Done done) {
  return QTest::qWaitFor(done, kHangGuardMs);
}

// The scene every GUI test starts from: the default layout under Circle-RoPE, mrope plan.
inline Scene fixedScene() {
  Scene s = defaultScene();
  s.layout = parseLayoutSpec("t4,i6x6,t8");
  s.design = "circle";
  s.designParams = {};
  s.frequency.plan = "mrope";
  s.frequency.rotary = {128, 0, 1e6};
  s.frequency.sections.clear();
  s.selectedText = 2;
  s.ageLayer = -1;
  return s;
}

// A left-button drag, the way a user rotates a 3-D view.
inline void drag(QWidget* w, QPointF from, QPointF to, int steps = 10) {
  QMouseEvent press(QEvent::MouseButtonPress, from, w->mapToGlobal(from), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w, &press);
  for (int k = 1; k <= steps; ++k) {
    const QPointF p = from + (to - from) * (static_cast<double>(k) / steps);
    QMouseEvent move(QEvent::MouseMove, p, w->mapToGlobal(p), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(w, &move);
  }
  QMouseEvent release(QEvent::MouseButtonRelease, to, w->mapToGlobal(to), Qt::LeftButton,
                      Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(w, &release);
}

}  // namespace ropescope::ui::test
