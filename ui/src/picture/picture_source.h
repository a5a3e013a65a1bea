// Decoded pixels of a picture segment's files, for the views: one frame as the file holds it and
// resized the way the grid was computed (smart_resize's size), cached so edits do not re-decode.
#pragma once

#include <QImage>
#include <QString>

#include "ropescope/layout.h"

namespace ropescope::ui {

// The picture frame `frame` (0-based, before Qwen's temporal pairing) of a file segment, as
// displayed (EXIF orientation applied). A null image and `error` set when it cannot be decoded.
QImage pictureFrame(const SegmentSource& source, int frame, QString* error = nullptr);

// The same frame smoothly scaled to source.resizedWidth x source.resizedHeight: the picture the
// model's patches are cut from (one LLM token = factor x factor pixels of it).
QImage resizedPictureFrame(const SegmentSource& source, int frame, QString* error = nullptr);

// Picture frame shown for temporal patch `temporal` of a video: the first of its pair.
inline int firstFrameOfPair(int temporal) {
  return 2 * temporal;
}

}  // namespace ropescope::ui
