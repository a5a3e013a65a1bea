// Waits until an attention view shows the result of the last request it was given.
#pragma once

#include <QTest>

#include "attention_view.h"

namespace ropescope::ui {

inline bool attentionSettled(AttentionView* v, int ms = 120000) {
  return QTest::qWaitFor(
      [v] {
        return !v->busy() && v->shownResult() &&
               v->shownResult()->generation == v->requestedGeneration();
      },
      ms);
}

}  // namespace ropescope::ui
