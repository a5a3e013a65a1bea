// A wheel over a scrolling panel scrolls it instead of changing the field under the pointer
// (shell/wheel_guard.h); a field the user focused takes the wheel, and one outside any scroll
// area keeps Qt's behaviour. The wheel events are sent as the window system's would reach the
// field.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QPointer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <vector>

#include "gui_test_util.h"
#include "model/scene_model.h"
#include "shell/main_window.h"
#include "shell/wheel_guard.h"

using ropescope::ui::WheelGuard;
using ropescope::ui::test::waitUntil;

namespace {

// One notch of a mouse wheel turned towards the user (down), over the middle of `w`.
void wheelDown(QWidget* w) {
  const QPointF local(w->width() / 2.0, w->height() / 2.0);
  QWheelEvent e(local, w->mapToGlobal(local), QPoint(), QPoint(0, -120), Qt::NoButton,
                Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(w, &e);
}

struct Panel {
  QScrollArea area;
  QWidget* content = new QWidget;
  QSpinBox* spin = new QSpinBox;
  QComboBox* combo = new QComboBox;
  QSlider* slider = new QSlider(Qt::Horizontal);
  Panel() {
    auto* layout = new QVBoxLayout(content);
    spin->setRange(0, 100);
    spin->setValue(50);
    combo->addItems({QStringLiteral("fixed"), QStringLiteral("auto"), QStringLiteral("auto-k")});
    slider->setRange(0, 100);
    slider->setValue(50);
    layout->addWidget(spin);
    layout->addWidget(combo);
    layout->addWidget(slider);
    layout->addSpacing(3000);  // taller than the area: it scrolls
    area.setWidget(content);
    area.setWidgetResizable(true);
    area.resize(300, 200);
    area.show();
  }
};

}  // namespace

TEST(WheelGuard, AnUnfocusedFieldInAScrollAreaPassesTheWheelToIt) {
  WheelGuard guard;
  qApp->installEventFilter(&guard);
  Panel p;
  ASSERT_TRUE(waitUntil([&] { return p.area.isVisible(); }));
  for (QWidget* field : std::initializer_list<QWidget*>{p.spin, p.combo, p.slider}) {
    SCOPED_TRACE(field->metaObject()->className());
    EXPECT_TRUE(WheelGuard::guards(field));
    EXPECT_EQ(field->focusPolicy(), Qt::StrongFocus);  // the wheel gives no focus
    const int scrolled = p.area.verticalScrollBar()->value();
    wheelDown(field);
    EXPECT_GT(p.area.verticalScrollBar()->value(), scrolled);
    p.area.verticalScrollBar()->setValue(0);
  }
  EXPECT_EQ(p.spin->value(), 50);
  EXPECT_EQ(p.combo->currentIndex(), 0);
  EXPECT_EQ(p.slider->value(), 50);
  EXPECT_FALSE(WheelGuard::guards(p.area.verticalScrollBar()));

  // Focused (clicked into), a field takes the wheel; the panel stays where it is.
  p.area.activateWindow();
  p.spin->setFocus();
  ASSERT_TRUE(waitUntil([&] { return p.spin->hasFocus(); }));
  wheelDown(p.spin);
  EXPECT_EQ(p.spin->value(), 49);
  EXPECT_EQ(p.area.verticalScrollBar()->value(), 0);
  qApp->removeEventFilter(&guard);
}

// A field polished before it is put into a scroll area (sized in its constructor) gives up its
// wheel focus once shown there.
TEST(WheelGuard, AFieldPolishedBeforeItsScrollAreaGivesUpWheelFocus) {
  WheelGuard guard;
  qApp->installEventFilter(&guard);
  auto* content = new QWidget;
  auto* spin = new QSpinBox(content);
  spin->ensurePolished();
  EXPECT_EQ(spin->focusPolicy(), Qt::WheelFocus);  // not in a scroll area yet
  QScrollArea area;
  area.setWidget(content);
  area.show();
  ASSERT_TRUE(waitUntil([&] { return spin->isVisible(); }));
  EXPECT_EQ(spin->focusPolicy(), Qt::StrongFocus);
  qApp->removeEventFilter(&guard);
}

TEST(WheelGuard, AFieldOutsideAnyScrollAreaKeepsQtsWheel) {
  WheelGuard guard;
  qApp->installEventFilter(&guard);
  QSpinBox spin;
  spin.setRange(0, 100);
  spin.setValue(50);
  spin.show();
  ASSERT_TRUE(waitUntil([&] { return spin.isVisible(); }));
  EXPECT_FALSE(WheelGuard::guards(&spin));
  EXPECT_EQ(spin.focusPolicy(), Qt::WheelFocus);
  wheelDown(&spin);
  EXPECT_EQ(spin.value(), 49);
  qApp->removeEventFilter(&guard);
}

// The window installs it: scrolling the scene panel over Circle-RoPE's fields changes none.
TEST(WheelGuard, TheScenePanelsFieldsIgnoreAnUnfocusedWheel) {
  ropescope::ui::MainWindow w;
  w.show();
  ASSERT_TRUE(waitUntil([&] { return w.isVisible(); }));
  w.model()->edit([](ropescope::Scene& s) { s.design = "circle"; });
  QCoreApplication::processEvents();
  const ropescope::Scene before = w.model()->scene();
  int fields = 0;
  // Guarded: a field that did take the wheel may have rebuilt the ones after it.
  std::vector<QPointer<QWidget>> all;
  for (QWidget* field : w.findChildren<QWidget*>()) all.emplace_back(field);
  for (const QPointer<QWidget>& field : all) {
    if (!field || !WheelGuard::guards(field) || !field->isVisible() || field->hasFocus()) continue;
    // The window system's wheel focuses a field of Qt::WheelFocus before any filter sees it
    // (the Min pixels box, polished before the panel was in its scroll area, then took the
    // wheel); a sent event does not, so the policy is checked here.
    EXPECT_NE(field->focusPolicy() & Qt::WheelFocus, Qt::WheelFocus)
        << field->metaObject()->className() << " " << field->objectName().toStdString();
    wheelDown(field);
    ++fields;
  }
  EXPECT_GT(fields, 10);
  EXPECT_TRUE(w.model()->scene() == before);
}
