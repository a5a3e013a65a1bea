#include "ropescope/sound_display.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "ropescope/errors.h"
#include "ropescope/metrics.h"

namespace ropescope {

namespace {

// Values of one spectrogram at most (frames x bins): 64 Mi floats, 256 MiB.
constexpr double kMaxSpectrogramValues = 67108864.0;

// In-place iterative radix-2 FFT (n a power of two), forward sign e^{-2 pi i k / n}.
void fft(std::vector<std::complex<double>>& a) {
  const std::size_t n = a.size();
  for (std::size_t i = 1, j = 0; i < n; ++i) {
    std::size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (std::size_t len = 2; len <= n; len <<= 1) {
    const double angle = -2.0 * std::numbers::pi / static_cast<double>(len);
    for (std::size_t start = 0; start < n; start += len) {
      for (std::size_t k = 0; k < len / 2; ++k) {
        const std::complex<double> w = std::polar(1.0, angle * static_cast<double>(k));
        const std::complex<double> u = a[start + k];
        const std::complex<double> v = a[start + k + len / 2] * w;
        a[start + k] = u + v;
        a[start + k + len / 2] = u - v;
      }
    }
  }
}

}  // namespace

Envelope waveformEnvelope(const std::vector<float>& samples, int columns) {
  Envelope e;
  if (samples.empty() || columns <= 0) return e;
  const std::size_t n = samples.size();
  const auto cols = static_cast<std::size_t>(columns);
  e.low.resize(cols);
  e.high.resize(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    const std::size_t begin = c * n / cols;
    const std::size_t end = std::max((c + 1) * n / cols, begin + 1);
    const auto [lo, hi] =
        std::minmax_element(samples.begin() + static_cast<long>(begin),
                            samples.begin() + static_cast<long>(std::min(end, n)));
    e.low[c] = *lo;
    e.high[c] = *hi;
  }
  return e;
}

Spectrogram spectrogram(const std::vector<float>& samples, int sampleRate, int window, int hop) {
  if (window < 16 || window > 65536 || (window & (window - 1)) != 0)
    throw InputError(
        "spectrogram window " + std::to_string(window) + " is not a power of two in [16, 65536]",
        "spectrogram");
  if (hop < 1 || hop > (1 << 30))
    throw InputError("spectrogram hop " + std::to_string(hop) + " is outside [1, 2^30]",
                     "spectrogram");
  if (sampleRate <= 0)
    throw InputError("spectrogram sample rate " + std::to_string(sampleRate) + " is not positive",
                     "spectrogram");
  Spectrogram s;
  s.bins = window / 2 + 1;
  s.secondsPerFrame = static_cast<double>(hop) / sampleRate;
  s.hertzPerBin = static_cast<double>(sampleRate) / window;
  const std::size_t n = samples.size();
  if (n == 0) return s;
  const std::size_t frames =
      (n + static_cast<std::size_t>(hop) - 1) / static_cast<std::size_t>(hop);
  if (static_cast<double>(frames) * s.bins > kMaxSpectrogramValues)
    throw InputError("spectrogram of " + std::to_string(frames) + " frames x " +
                         std::to_string(s.bins) + " bins is over 67108864 values; use a larger hop",
                     "spectrogram");
  s.frames = static_cast<int>(frames);
  s.magnitude.resize(frames * static_cast<std::size_t>(s.bins));
  std::vector<double> hann(static_cast<std::size_t>(window));
  for (int k = 0; k < window; ++k)
    hann[static_cast<std::size_t>(k)] =
        0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * k / static_cast<double>(window));
  std::vector<std::complex<double>> buf(static_cast<std::size_t>(window));
  for (std::size_t f = 0; f < frames; ++f) {
    const std::size_t start = f * static_cast<std::size_t>(hop);
    for (std::size_t k = 0; k < buf.size(); ++k)
      buf[k] = start + k < n ? samples[start + k] * hann[k] : 0.0;
    fft(buf);
    for (int b = 0; b < s.bins; ++b)
      s.magnitude[f * static_cast<std::size_t>(s.bins) + static_cast<std::size_t>(b)] =
          static_cast<float>(std::abs(buf[static_cast<std::size_t>(b)]));
  }
  return s;
}

int spectrogramHop(std::size_t samples, int window, int maxFrames) {
  const std::size_t least = static_cast<std::size_t>(std::max(1, window / 4));
  const std::size_t frames = static_cast<std::size_t>(std::max(1, maxFrames));
  const std::size_t hop = std::max(least, (samples + frames - 1) / frames);
  return static_cast<int>(std::min<std::size_t>(hop, 1u << 30));
}

std::vector<float> spectrogramLevels(const Spectrogram& s, double rangeDb) {
  std::vector<float> out(s.magnitude.size(), 0.0f);
  float peak = 0.0f;
  for (float m : s.magnitude) peak = std::max(peak, m);
  if (!(peak > 0.0f) || !(rangeDb > 0.0)) return out;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const double db = s.magnitude[i] > 0.0f ? 20.0 * std::log10(s.magnitude[i] / peak) : -rangeDb;
    out[i] = static_cast<float>(std::clamp(1.0 + db / rangeDb, 0.0, 1.0));
  }
  return out;
}

std::vector<AudioTokenSpan> audioTokenSpans(const PositionIds& ids, double secondsPerToken) {
  std::vector<AudioTokenSpan> spans;
  for (std::size_t a : ids.audioIndices()) {
    const TokenInfo& t = ids.tokens[a];
    spans.push_back(
        {a, t.segment, t.frame, t.frame * secondsPerToken, (t.frame + 1) * secondsPerToken});
  }
  return spans;
}

long spanAt(const std::vector<AudioTokenSpan>& spans, int segment, double seconds) {
  for (std::size_t i = 0; i < spans.size(); ++i)
    if (spans[i].segment == segment && seconds >= spans[i].start && seconds < spans[i].end)
      return static_cast<long>(i);
  return -1;
}

std::vector<double> distancesToAudio(const PositionIds& ids, std::size_t token) {
  if (token >= ids.size()) return {};
  return distancesTo(ids, token, ids.audioIndices());
}

std::vector<double> biasToAudio(const PositionIds& ids, const PairTable& pairs, std::size_t token) {
  if (token >= ids.size()) return {};
  return biasTo(ids, pairs, token, ids.audioIndices());  // positionalBias, bit for bit
}

}  // namespace ropescope
