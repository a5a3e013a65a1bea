// Waits until an attention view shows the result of the last request it was given.
#pragma once

#include <QTest>

#include "attention/attention_view.h"
#include "gui_test_util.h"

namespace ropescope::ui {

// No time limit but the hang guard: a slow machine only takes longer.
inline bool attentionSettled(AttentionView* v, int ms = test::kHangGuardMs) {
  return QTest::qWaitFor(
      [v] {
        return !v->busy() && v->shownResult() &&
               v->shownResult()->generation == v->requestedGeneration();
      },
      ms);
}

}  // namespace ropescope::ui
