// A layout: the sequence of text runs, images and videos whose position ids ropescope computes.
// Grids are LLM grids (after the 2x2 patch merge); parsing and printing of the spec form live here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ropescope {

enum class SegmentKind { Text, Image, Video };

// One segment. Text uses `length`; images use rows x cols (frames = 1); videos use
// frames x rows x cols (frames = temporal patches after Qwen's pairing of frames).
struct Segment {
  SegmentKind kind = SegmentKind::Text;
  int length = 0;
  int frames = 1;
  int rows = 0;
  int cols = 0;

  static Segment text(int n) { return {SegmentKind::Text, n, 1, 0, 0}; }
  static Segment image(int h, int w) { return {SegmentKind::Image, 0, 1, h, w}; }
  static Segment video(int t, int h, int w) { return {SegmentKind::Video, 0, t, h, w}; }

  bool isVisual() const { return kind != SegmentKind::Text; }
  std::size_t tokenCount() const;
  bool operator==(const Segment&) const = default;
};

// Largest layout accepted anywhere (tokens in total). Above it every input path refuses the
// layout: O(N_text * N_visual) metrics would otherwise run for hours.
inline constexpr std::size_t kMaxLayoutTokens = 262144;
// Largest single grid side (LLM tokens) accepted in a segment.
inline constexpr int kMaxGridSide = 4096;

struct Layout {
  std::vector<Segment> segments;

  std::size_t tokenCount() const;
  std::size_t textCount() const;
  std::size_t visualCount() const;
  bool operator==(const Layout&) const = default;
};

// Parses "t5,i3x3,t2,v8x16x16": t<N> text run, i<H>x<W> image, v<T>x<H>x<W> video.
// Throws InputError (field "layout") naming the bad item and the accepted form and range.
Layout parseLayoutSpec(std::string_view spec);

// The inverse of parseLayoutSpec.
std::string formatLayoutSpec(const Layout& layout);

// Throws InputError when a layout built in code (e.g. by the GUI) breaks the limits above.
void validateLayout(const Layout& layout);

}  // namespace ropescope
