// How the GUI names a layout's pictures and states their sizes, one convention everywhere:
// "image 1 (castle.png)", "audio 1 (chirp.wav)" (images, videos and audio counted separately,
// in layout order), pixel sizes as "308×252 px (W×H)" and token grids as "grid 9×11 (rows×cols)".
#pragma once

#include <QString>

#include <cstddef>

#include "ropescope/layout.h"

namespace ropescope::ui {

// "image N" or "video N" for a visual segment, with its file name in parentheses when it has
// one; empty for a text segment.
QString visualSegmentName(const Layout& layout, std::size_t segment);
// "audio N" for an audio segment (counted in layout order), with its file name in parentheses
// when it is an aud: file; empty for other segments.
QString audioSegmentName(const Layout& layout, std::size_t segment);
// The name of any non-text segment: visualSegmentName or audioSegmentName.
QString segmentName(const Layout& layout, std::size_t segment);
// "W×H px (W×H)".
QString pixelSizeText(int width, int height);
// "grid R×C (rows×cols)".
QString gridText(int rows, int cols);
// "temporal patch K of T": which of a video's T temporal patches (K from 0) a view shows.
QString temporalPatchText(int temporal, int count);

}  // namespace ropescope::ui
