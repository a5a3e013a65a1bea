// What the GUI's Sound tab draws, computed here so it can be tested: the waveform's envelope
// (min and max of the samples under each pixel column), a magnitude spectrogram (short-time
// Fourier transform with a Hann window) and each audio token's time span.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/layout.h"
#include "ropescope/position_ids.h"

namespace ropescope {

// Min and max of the samples falling in each of `columns` equal slices of `samples`. Column c
// covers samples [floor(c*n/columns), floor((c+1)*n/columns)); a column no sample falls in
// (columns > n) takes the sample under its left edge. Empty samples or columns <= 0: empty.
struct Envelope {
  std::vector<float> low;
  std::vector<float> high;
};
Envelope waveformEnvelope(const std::vector<float>& samples, int columns);

// Magnitude STFT: frame f starts at sample f*hop and takes `window` samples (zeros past the
// end) times the periodic Hann window w[k] = 0.5 - 0.5 cos(2 pi k / window). Bin b (0..window/2)
// is |sum_k x[f*hop+k] w[k] e^{-2 pi i b k / window}|. Frames: ceil(n / hop) (at least one for a
// non-empty input; a hop over the window skips the samples between frames). `window` must be a
// power of two in [16, 65536] and hop in [1, 2^30]; otherwise InputError (field "spectrogram").
struct Spectrogram {
  int frames = 0;
  int bins = 0;                  // window / 2 + 1
  double secondsPerFrame = 0;    // hop / sampleRate
  double hertzPerBin = 0;        // sampleRate / window
  std::vector<float> magnitude;  // frames x bins, frame-major
  float at(int frame, int bin) const {
    return magnitude[static_cast<std::size_t>(frame) * bins + bin];
  }
};
Spectrogram spectrogram(const std::vector<float>& samples, int sampleRate, int window, int hop);

// A hop for `samples` frames so that the spectrogram has at most `maxFrames` frames (and no fewer
// than window / 4 samples per hop); window as for spectrogram().
int spectrogramHop(std::size_t samples, int window, int maxFrames);

// The spectrogram as levels in [0, 1] for a colour map: 1 + dB / rangeDb with dB = 20 log10(m /
// peak), clamped; all 0 when every magnitude is 0. rangeDb > 0.
std::vector<float> spectrogramLevels(const Spectrogram& s, double rangeDb);

// The time span of every audio token, in PositionIds::audioIndices order: the token with index
// k in its run (TokenInfo::frame) covers [k, k+1) * secondsPerToken from the start of its run's
// sound. `segment` is the run's layout index, `token` the token's index in the ids.
struct AudioTokenSpan {
  std::size_t token = 0;
  int segment = 0;
  int index = 0;
  double start = 0.0;
  double end = 0.0;
};
std::vector<AudioTokenSpan> audioTokenSpans(const PositionIds& ids, double secondsPerToken);

// The token covering time `seconds` of the sound of layout segment `segment`: its position in
// `spans`, or -1 outside every span of that segment.
long spanAt(const std::vector<AudioTokenSpan>& spans, int segment, double seconds);

// What the Sound tab draws over the waveform from one (selected text) token to every audio token,
// in PositionIds::audioIndices order: the distance (tokenDistance) and the positional bias
// (positionalBias of the displacement token - audio token). A token out of range: empty.
std::vector<double> distancesToAudio(const PositionIds& ids, std::size_t token);
std::vector<double> biasToAudio(const PositionIds& ids, const PairTable& pairs, std::size_t token);

}  // namespace ropescope
