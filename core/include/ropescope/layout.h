// A layout: the sequence of text runs, images and videos whose position ids ropescope computes.
// Grids are LLM grids (after the 2x2 patch merge); parsing and printing of the spec form live here.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ropescope/image_grid.h"
#include "ropescope/sound_file.h"
#include "ropescope/tiled_picture.h"

namespace ropescope {

enum class SegmentKind { Text, Image, Video, Audio };

// What a text run stands for in a model's token sequence. Every text token gets text ids (t = h =
// w); the role only tells views and listings what the tokens are.
enum class TextRole {
  Plain,     // prompt text
  Special,   // a model's special tokens: vision start/end, begin/end of image or video
  Timestamp  // the timestamp text of a video frame (Qwen3-VL "<1.0 seconds>", GLM "3")
};

// Where a visual segment's grid came from when it was made from picture files.
enum class SourceKind {
  None,       // a plain grid (i3x3, v2x4x4)
  Image,      // img:photo.jpg — one picture (an animated file gives its first frame)
  FrameList,  // vid:a.png+b.png+c.png — frames in the order given
  Folder,     // vid:frames/ — every picture file in the folder, in natural name order
  Animation,  // vid:anim.gif — the frames of an animated GIF or WebP
  Sound       // aud:clip.wav — a sound file (audio segments)
};

// The files behind a segment and what probing them found. Paths are absolute and lexically
// normal in memory; the spec and scene-file forms write them relative to a base folder.
struct SegmentSource {
  SourceKind kind = SourceKind::None;
  std::string path;                 // the file (Image, Animation) or folder (Folder)
  std::vector<std::string> frames;  // FrameList: as given; Folder: as found; else empty
  int width = 0;                    // picture (frame) size before smart_resize, as displayed
  int height = 0;
  int resizedWidth = 0;  // after smart_resize: cols * factor, rows * factor
  int resizedHeight = 0;
  int frameCount = 1;  // pictures before Qwen's temporal pairing (videos); 1 for images
  // Animated GIF/WebP: frames per second from the frame delays (0 = unknown, always for frame
  // lists and folders). The ids use the design's "fps" parameter, not this: the GUI offers to
  // copy it there, the CLI takes --param fps=N.
  double fps = 0.0;
  std::vector<std::string> warnings;  // e.g. an extension that disagrees with the content
  // Image, Sound, Animation: the name of the shipped sample it is ("castle.png", "chirp.wav",
  // "moving.gif", sample_pictures.h), written back as img:castle.png / aud:chirp.wav /
  // vid:moving.gif instead of the path;
  // empty for the user's own files.
  std::string sample;
  // Sound: what the header says (sound_file.h); the token count is the family's formula over
  // melFrames (Whisper-style features: 16 kHz, hop 160).
  int sampleRate = 0;
  int channels = 0;
  double seconds = 0.0;
  long long melFrames = 0;

  bool isFile() const { return kind != SourceKind::None; }
  // A picture file (img:, vid:): the files the Picture tab and picture tiles show.
  bool isPicture() const { return isFile() && kind != SourceKind::Sound; }
  bool operator==(const SegmentSource&) const = default;
};

// One segment. Text and audio use `length` (tokens; an audio run is a 1-D stream, one position
// per token, like text); images use rows x cols (frames = 1); videos use
// frames x rows x cols (frames = temporal patches after Qwen's pairing of frames). A segment
// made from files also carries its source; its grid is the one smart_resize gives the files.
struct Segment {
  SegmentKind kind = SegmentKind::Text;
  int length = 0;
  int frames = 1;
  int rows = 0;
  int cols = 0;
  SegmentSource source;
  TextRole role = TextRole::Plain;  // text runs only
  // Videos only: seconds per temporal patch (Hugging Face second_per_grid_ts); 0 = not given, the
  // design's fps parameter decides.
  double secondsPerGrid = 0.0;
  // Videos: the video_grid_thw entry this segment is (a frame of), for models whose video
  // frames are separate blocks in the token sequence (Qwen3-VL, Qwen3.5, GLM-4.1V), or a frame of
  // an omni video with its sound; -1 = a standalone video. Audio: the video whose own sound
  // these tokens are (a<N>#K, omni models); -1 = audio of its own.
  int videoItem = -1;
  // Images only: a tiled picture (InternVL, tiled:<W>x<H>): its frames are the tiles in
  // row-major order then the thumbnail, each tokenSide x tokenSide tokens; not tiled otherwise.
  TileGrid tiles = {};

  static Segment text(int n) { return {SegmentKind::Text, n, 1, 0, 0, {}}; }
  static Segment text(int n, TextRole role) {
    Segment s = text(n);
    s.role = role;
    return s;
  }
  static Segment audio(int n) { return {SegmentKind::Audio, n, 1, 0, 0, {}}; }
  static Segment image(int h, int w) { return {SegmentKind::Image, 0, 1, h, w, {}}; }
  static Segment video(int t, int h, int w) { return {SegmentKind::Video, 0, t, h, w, {}}; }

  bool isVisual() const { return kind == SegmentKind::Image || kind == SegmentKind::Video; }
  bool isAudio() const { return kind == SegmentKind::Audio; }
  bool isText() const { return kind == SegmentKind::Text; }
  std::size_t tokenCount() const;
  bool operator==(const Segment&) const = default;
};

// Most tokens ropescope can index (a segment's length and a token's grid cell are int): the
// ceiling of a text or audio run. Below it a layout's size is limited by the machine's memory
// (memory_limit.h: checkTokensFit), which every input path asks before it allocates.
inline constexpr std::size_t kMaxLayoutTokens = 2147483647;
// Largest single grid side (LLM tokens) accepted in a segment.
inline constexpr int kMaxGridSide = 4096;

struct Layout {
  std::vector<Segment> segments;

  std::size_t tokenCount() const;
  std::size_t textCount() const;
  std::size_t visualCount() const;
  std::size_t audioCount() const;
  bool operator==(const Layout&) const = default;
};

// Every warning the layout's file segments carry (SegmentSource::warnings: a picture whose
// extension disagrees with its content, read by its content), each once, in segment order.
std::vector<std::string> layoutWarnings(const Layout& layout);

// How file items of a spec are read: paths relative to `baseDir` (empty: the current
// folder), grids by smart_resize with `grid`, audio token counts of aud: items by `audio`.
struct LayoutFileContext {
  std::string baseDir;
  ImageGridSettings grid;
  AudioTokenRule audio = AudioTokenRule::Qwen25Omni;
  // The rule set (an index of model_family.h ruleSetNames(), a transformers release) whose
  // processor writes the FAMILY: items: Qwen3-VL / Qwen3.5 from 5.10.1 keep the template's outer
  // vision start / end around a video's frames (ReleaseRules::outerVisionMarks). nullopt: the
  // default rule set's.
  std::optional<std::size_t> rules;
};

// Parses "t5,i3x3,t2,v8x16x16,a40": t<N> text run, a<N> audio tokens, i<H>x<W> image, v<T>x<H>x<W>
// video, and the file forms img:PATH (one picture), vid:DIR/ (a folder of frames), vid:A+B+C
// (frames in order), vid:ANIM.gif (an animated GIF or WebP) and aud:CLIP.wav (a sound file read
// by libsndfile: WAV, FLAC, OGG, MP3; its audio tokens by the context's AudioTokenRule, see
// layout_files.h). Paths may hold spaces but not ','
// (the item separator), and frame paths of vid: lists not '+'. Throws InputError (field "layout")
// naming the bad item and the accepted form and range; for a bad file, also the file and its
// problem.
// A model's token sequence, by hand:
// - s<N>: N special tokens (TextRole::Special: vision start/end, begin/end of image or video);
//   ts<N>: N tokens of a frame's timestamp text (TextRole::Timestamp).
// - v<T>x<H>x<W>@<S>s: a video with S seconds per temporal patch (secondsPerGrid; the "s" may
//   be left out); v1x<H>x<W>#<N>: one frame of video item N (videoItem). Both suffixes may be
//   combined in either order; formatLayoutSpec writes #N before @S.
// - FAMILY:i<H>x<W>, FAMILY:v<T>x<H>x<W>[@<S>s][/ts<K>] (FAMILY a model_family.h name): the
//   image or video with the special tokens the family's processor writes around it, e.g.
//   qwen2.5-vl:i3x3 = s1,i3x3,s1; qwen3-vl:v2x4x4/ts6 = ts6,s1,v1x4x4#0,s1,ts6,s1,v1x4x4#0,s1
//   (per frame: timestamp, vision start, frame, vision end; from transformers 5.10.1, the
//   context's rules, inside one more vision start ... vision end); glm4v:v2x4x4/ts1 =
//   s1,s1,v1x4x4#0,s1,ts1,s1,v1x4x4#0,s1,ts1,s1 (begin of video, per frame begin of image,
//   frame, end of image, timestamp; end of video). /ts<K> (1..64, default 1) is how many tokens
//   one timestamp takes in the model's tokenizer; one-block families (qwen2-vl, qwen2.5-vl,
//   ernie4.5-vl) take none. Frames of a per-frame video are numbered by the video entries
//   before them. The item expands to those segments; formatLayoutSpec writes the segments.
// Audio in omni models (qwen2.5-omni, qwen3-omni):
// - a<N>#<K>: N audio tokens of video item K's own sound. A video with its sound is the run of
//   consecutive segments tagged #K: its frames v1x<H>x<W>#K and its audio pieces a<N>#K in
//   token order; the omni designs give every frame and every audio token the ids of its
//   stream, whatever the order (transformers computes both streams from one start).
// - FAMILY:a<N> = s1,a<N>,s1 (<|audio_bos|>, the audio tokens, <|audio_eos|>).
// - FAMILY:v<T>x<H>x<W>[@<S>s]+a<M>: the video with M audio tokens of its own sound
//   (use_audio_in_video), expanded as the processor orders it (model_family.h
//   omniVideoWithSound): s1,s1, then qwen2.5-omni's 2 s chunks (video chunk j, audio chunk j:
//   qwen2.5-omni:v4x2x2@1s+a60 = s1,s1,v1x2x2#0,v1x2x2#0,a50#0,v1x2x2#0,v1x2x2#0,a10#0,s1,s1)
//   or qwen3-omni's token-by-token merge (qwen3-omni:v3x2x2@1s+a60 =
//   s1,s1,v1x2x2#0,a25#0,v1x2x2#0,a25#0,v1x2x2#0,a10#0,s1,s1). Without @S the order
//   takes 2 / the processor's default fps (qwen2.5-omni 1 s, qwen3-omni 2 s per grid), as the
//   designs' fps parameter does by default.
Layout parseLayoutSpec(std::string_view spec, const LayoutFileContext& files = {});

// A problem with one file item, for loading that keeps the rest (see parseLayoutSpecKeeping).
struct LayoutProblem {
  std::size_t item = 0;  // 1-based position of the item in the spec
  std::string text;      // the item as written, e.g. "img:photo.jpg"
  std::string message;   // one line naming the file and the problem
};

// Like parseLayoutSpec, but a file item whose files are missing or bad is left out and
// reported in `problems` instead of failing the whole spec. Syntax errors still throw.
Layout parseLayoutSpecKeeping(std::string_view spec, const LayoutFileContext& files,
                              std::vector<LayoutProblem>& problems);

// The inverse of parseLayoutSpec. File paths are written relative to `baseDir` when given
// (as absolute paths otherwise), so the result parses back with the same base.
std::string formatLayoutSpec(const Layout& layout, const std::string& baseDir = {});

// Throws InputError when a layout built in code (e.g. by the GUI) breaks the limits above.
void validateLayout(const Layout& layout);

}  // namespace ropescope
