// The selected text token's attention over a visual block of the layout: which block (and
// temporal patch of a video), a caption with the range, and the map itself (TokenMapCanvas).
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "jobs/attention_job.h"
#include "ropescope/position_ids.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace ropescope::ui {

class SceneModel;
class TokenMapCanvas;

class AttentionTokenMap : public QWidget {
  Q_OBJECT

 public:
  explicit AttentionTokenMap(SceneModel* model, QWidget* parent = nullptr);

  // The result whose text row is shown, the identities of its tokens, and whether the heat map
  // colours by log probability (the map then does too, on its own range).
  void setResult(std::shared_ptr<const AttentionResult> result,
                 std::shared_ptr<const std::vector<TokenInfo>> tokens, bool logScale);
  void setVisualSegment(int segment);        // layout index of the block shown
  long textToken() const { return token_; }  // -1: no map
  TokenMapCanvas* canvas() const { return canvas_; }

 private:
  void refreshSegments();
  void rebuild();

  SceneModel* model_;
  QComboBox* segmentBox_ = nullptr;
  QSpinBox* temporalSpin_ = nullptr;
  QLabel* caption_ = nullptr;
  TokenMapCanvas* canvas_ = nullptr;

  std::shared_ptr<const AttentionResult> result_;
  std::shared_ptr<const std::vector<TokenInfo>> tokens_;
  bool logScale_ = false;
  int segment_ = -1;
  long token_ = -1;
  bool pictureStale_ = true;  // the block (or its frame) changed: decode its picture again
};

}  // namespace ropescope::ui
