// `w` in a frameless scroll area that resizes it: a panel that scrolls when the room is smaller
// than what it needs, instead of making the window larger than the screen or holding a dock
// small (the main window's docks, the Phasors and Modalities tabs).
#pragma once

#include <QFrame>
#include <QScrollArea>
#include <QScrollBar>

namespace ropescope::ui {

// A scroll area that asks for the size its widget asks for (QScrollArea's own hint is bounded
// and taken once), so that a tab page wrapped in one keeps its share of a splitter.
class FittedScrollArea : public QScrollArea {
 public:
  QSize sizeHint() const override {
    if (!widget()) return QScrollArea::sizeHint();
    return widget()->sizeHint() + QSize(verticalScrollBar()->sizeHint().width(), 0);
  }
};

// `keepWidth`: scrolls up and down only, and asks for the width and the size `w` asks for (call
// it once `w` is built): a tab page keeps the room it had without the scroll area.
inline QScrollArea* scrolling(QWidget* w, bool keepWidth = false) {
  QScrollArea* scroll = keepWidth ? new FittedScrollArea : new QScrollArea;
  scroll->setWidget(w);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  if (keepWidth) {
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(w->minimumSizeHint().width() +
                            scroll->verticalScrollBar()->sizeHint().width());
  }
  return scroll;
}

}  // namespace ropescope::ui
