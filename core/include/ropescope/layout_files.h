// Layout segments made from files: an image from one file, a video from a frame list, a folder
// of frames or an animated GIF/WebP, with grids from probeImage + smartResize; an audio run
// from a sound file, its token count by the family's AudioTokenRule (sound_file.h).
#pragma once

#include <string>
#include <vector>

#include "ropescope/image_grid.h"
#include "ropescope/layout.h"
#include "ropescope/sound_file.h"

namespace ropescope {

// Qwen2-VL / Qwen2.5-VL merge frames in temporal pairs (temporal_patch_size 2); an odd count
// repeats the last frame, so T = ceil(frames / 2).
inline constexpr int kTemporalPatchSize = 2;
inline int temporalPatches(int frames) {
  return (frames + kTemporalPatchSize - 1) / kTemporalPatchSize;
}
// Most frames in one video segment: kMaxGridSide temporal patches.
inline constexpr int kMaxVideoFrames = kMaxGridSide * kTemporalPatchSize;

// File names a folder video takes, by extension (case-insensitive).
const std::vector<std::string>& pictureExtensions();

// The picture files of `folder` (known extensions, hidden files skipped) in natural order:
// frame2.png before frame10.png. Throws InputError if the folder is missing or has none.
std::vector<std::string> listFrameFiles(const std::string& folder);

// All of these take paths absolute or relative to the current folder, store them absolute and
// throw InputError (field "image") with one line naming the file and the problem: anything
// probeImage refuses, a side under the factor or an aspect ratio above 200 (smartResize),
// frames of different sizes (naming the first that differs), too many frames.
Segment imageSegmentFromFile(const std::string& path, const ImageGridSettings& grid = {});
Segment videoSegmentFromFrames(const std::vector<std::string>& frames,
                               const ImageGridSettings& grid = {});
Segment videoSegmentFromFolder(const std::string& folder, const ImageGridSettings& grid = {});
Segment videoSegmentFromAnimation(const std::string& path, const ImageGridSettings& grid = {});

// An audio segment (SourceKind::Sound) from a sound file, path absolute or relative to the
// current folder: its source holds the header's rate, channels and seconds and the mel frames
// (melFramesOfSamples of featureSamples), its length audioTokens of those. Throws InputError
// (field "sound") with one line naming the file: anything probeSound refuses, a clip too short
// for one token under the rule.
Segment soundSegmentFromFile(const std::string& path,
                             AudioTokenRule rule = AudioTokenRule::Qwen25Omni);

// Recomputes the mel frames and token count of every sound segment under `rule` from what its
// source holds (no file is read), e.g. when the model family changes. Other segments are left.
void setAudioTokenRule(Layout& layout, AudioTokenRule rule);

// Re-reads the source of a file segment (its files may have changed, or the settings); a
// segment without a source is returned unchanged. A sound segment keeps the rule it was made
// with (its length and mel frames say which); use setAudioTokenRule to change it.
Segment refreshFileSegment(const Segment& segment, const ImageGridSettings& grid);

// Recomputes every file segment's grid, e.g. after the min/max pixels or the preset changed.
// Throws on the first bad file (the layout is then left unchanged).
void regridLayout(Layout& layout, const ImageGridSettings& grid);

}  // namespace ropescope
