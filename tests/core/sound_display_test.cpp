// The Sound tab's math: the waveform envelope against a direct min/max per column, the STFT
// against a brute-force DFT of each windowed frame, the audio token spans against the layout.
#include "ropescope/sound_display.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "ropescope/errors.h"
#include "ropescope/layout.h"
#include "ropescope/position_design.h"

using namespace ropescope;

namespace {

std::vector<float> noise(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> x(n);
  for (float& v : x) v = u(rng);
  return x;
}

// |sum_k x[k] w[k] e^{-2 pi i b k / N}| summed term by term: the definition, O(N^2).
double bruteBin(const std::vector<float>& x, std::size_t start, int window, int bin) {
  std::complex<double> sum = 0.0;
  for (int k = 0; k < window; ++k) {
    const std::size_t i = start + static_cast<std::size_t>(k);
    const double sample = i < x.size() ? x[i] : 0.0;
    const double w = 0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * k / window);
    sum += sample * w * std::polar(1.0, -2.0 * std::numbers::pi * bin * k / window);
  }
  return std::abs(sum);
}

}  // namespace

TEST(SoundDisplay, EnvelopeEqualsDirectMinMaxPerColumn) {
  for (std::size_t n : {1u, 7u, 100u, 1001u, 48000u}) {
    const std::vector<float> x = noise(n, static_cast<unsigned>(n));
    for (int columns : {1, 3, 64, 640, 2000}) {
      const Envelope e = waveformEnvelope(x, columns);
      ASSERT_EQ(e.low.size(), static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        // The column's slice [c n / C, (c+1) n / C), widened to one sample when it is empty.
        std::size_t begin = static_cast<std::size_t>(c) * n / columns;
        std::size_t end = static_cast<std::size_t>(c + 1) * n / columns;
        if (end <= begin) end = begin + 1;
        float lo = x[begin], hi = x[begin];
        for (std::size_t i = begin; i < end && i < n; ++i) {
          lo = std::min(lo, x[i]);
          hi = std::max(hi, x[i]);
        }
        EXPECT_EQ(e.low[c], lo) << "n " << n << " columns " << columns << " column " << c;
        EXPECT_EQ(e.high[c], hi) << "n " << n << " columns " << columns << " column " << c;
      }
    }
  }
}

TEST(SoundDisplay, EnvelopeCoversEverySampleOnce) {
  // Every sample lies in exactly one column when columns <= n: the extremes of the whole clip
  // are the extremes of the columns.
  const std::vector<float> x = noise(12345, 9);
  const Envelope e = waveformEnvelope(x, 700);
  EXPECT_EQ(*std::min_element(e.low.begin(), e.low.end()), *std::min_element(x.begin(), x.end()));
  EXPECT_EQ(*std::max_element(e.high.begin(), e.high.end()), *std::max_element(x.begin(), x.end()));
}

TEST(SoundDisplay, EnvelopeOfNothingIsEmpty) {
  EXPECT_TRUE(waveformEnvelope({}, 100).low.empty());
  EXPECT_TRUE(waveformEnvelope({0.5f}, 0).low.empty());
}

TEST(SoundDisplay, StftEqualsBruteForceDft) {
  const std::vector<float> x = noise(1000, 3);
  for (int window : {16, 64, 256}) {
    for (int hop : {1, 7, window / 2, window, 3 * window}) {
      const Spectrogram s = spectrogram(x, 8000, window, hop);
      EXPECT_EQ(s.bins, window / 2 + 1);
      EXPECT_EQ(s.frames, static_cast<int>((x.size() + hop - 1) / hop));
      EXPECT_DOUBLE_EQ(s.secondsPerFrame, hop / 8000.0);
      EXPECT_DOUBLE_EQ(s.hertzPerBin, 8000.0 / window);
      // Every bin of a few frames, the last (zero-padded) one among them.
      for (int f : {0, 1, s.frames / 2, s.frames - 1}) {
        for (int b = 0; b < s.bins; ++b) {
          const double expected = bruteBin(x, static_cast<std::size_t>(f) * hop, window, b);
          EXPECT_NEAR(s.at(f, b), expected, 1e-4 * (1.0 + expected))
              << "window " << window << " hop " << hop << " frame " << f << " bin " << b;
        }
      }
    }
  }
}

TEST(SoundDisplay, StftOfATonePeaksAtItsBin) {
  // A 1 kHz cosine at 16 kHz with a 256-sample window: bin 1000 / (16000 / 256) = 16 exactly.
  std::vector<float> x(16000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(std::cos(2.0 * std::numbers::pi * 1000.0 * i / 16000.0));
  const Spectrogram s = spectrogram(x, 16000, 256, 128);
  for (int f = 0; f + 2 < s.frames; ++f) {  // frames that lie wholly inside the tone
    int best = 0;
    for (int b = 1; b < s.bins; ++b)
      if (s.at(f, b) > s.at(f, best)) best = b;
    ASSERT_EQ(best, 16) << "frame " << f;
    // A Hann-windowed cosine of amplitude 1 on a bin centre: |X| = N / 4.
    EXPECT_NEAR(s.at(f, 16), 256.0 / 4.0, 1e-3);
  }
}

TEST(SoundDisplay, StftRefusesBadWindowAndHop) {
  const std::vector<float> x(100, 0.0f);
  for (int window : {0, 8, 100, 131072}) {
    try {
      spectrogram(x, 16000, window, 4);
      ADD_FAILURE() << "window " << window << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "spectrogram");
      EXPECT_NE(std::string(e.what()).find("[16, 65536]"), std::string::npos) << e.what();
    }
  }
  for (int hop : {0, -3}) EXPECT_THROW(spectrogram(x, 16000, 64, hop), InputError);
  EXPECT_THROW(spectrogram(x, 0, 64, 16), InputError);
  EXPECT_EQ(spectrogram({}, 16000, 64, 16).frames, 0);
}

TEST(SoundDisplay, TokenSpansFollowTheAudioRuns) {
  // Every design walks an audio run as a 1-D stream, one token per step (block_walk.cpp); the
  // spans follow each token's index in its run, whatever the design.
  for (const char* design : {"hard", "mrope"}) {
    const PositionIds ids = findDesign(design).ids(parseLayoutSpec("t3,a4,i2x2,a2"), {});
    const std::vector<AudioTokenSpan> spans = audioTokenSpans(ids, 0.04);
    ASSERT_EQ(spans.size(), 6u) << design;
    // Tokens: 3 text, 4 audio (3..6), 4 image (7..10), 2 audio (11, 12).
    const std::size_t tokens[6] = {3, 4, 5, 6, 11, 12};
    const int segments[6] = {1, 1, 1, 1, 3, 3};
    const int index[6] = {0, 1, 2, 3, 0, 1};
    for (int k = 0; k < 6; ++k) {
      EXPECT_EQ(spans[k].token, tokens[k]) << design << " span " << k;
      EXPECT_EQ(spans[k].segment, segments[k]) << design << " span " << k;
      EXPECT_EQ(spans[k].index, index[k]) << design << " span " << k;
      EXPECT_DOUBLE_EQ(spans[k].start, index[k] * 0.04);
      EXPECT_DOUBLE_EQ(spans[k].end, (index[k] + 1) * 0.04);
    }
    EXPECT_EQ(spanAt(spans, 1, 0.05), 1);
    EXPECT_EQ(spanAt(spans, 1, 0.16), -1);  // past the run's last token
    EXPECT_EQ(spanAt(spans, 3, 0.079), 5);
    EXPECT_EQ(spanAt(spans, 0, 0.0), -1);  // a text segment has no span
    EXPECT_TRUE(audioTokenSpans(findDesign(design).ids(parseLayoutSpec("t5"), {}), 0.04).empty());
  }
}

TEST(SoundDisplay, OverlayFromATextTokenToEveryAudioToken) {
  // Hand-made ids: text at (0,0,0), an image token between, audio at (3,3,3), (4,4,4), (5,5,9).
  PositionIds ids;
  ids.ids = {{0, 0, 0}, {1, 2, 2}, {3, 3, 3}, {4, 4, 4}, {5, 5, 9}};
  ids.tokens = {{Modality::Text, 0, -1, -1, -1},
                {Modality::Image, 1, 0, 0, 0},
                {Modality::Audio, 2, 0, -1, -1},
                {Modality::Audio, 2, 1, -1, -1},
                {Modality::Audio, 2, 2, -1, -1}};
  const std::vector<double> d = distancesToAudio(ids, 0);
  ASSERT_EQ(d.size(), 3u);  // the image token is not among them
  EXPECT_DOUBLE_EQ(d[0], std::sqrt(27.0));
  EXPECT_DOUBLE_EQ(d[1], std::sqrt(48.0));
  EXPECT_DOUBLE_EQ(d[2], std::sqrt(25.0 + 25.0 + 81.0));
  // Two pairs, theta 0.5 on t and 0.25 on w: b = (cos(0.5 dt) + cos(0.25 dw)) / 2 with
  // d = text - audio.
  PairTable pairs;
  pairs.axis = {Axis::T, Axis::W};
  pairs.theta = {0.5, 0.25};
  const std::vector<double> b = biasToAudio(ids, pairs, 0);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_NEAR(b[0], (std::cos(0.5 * -3) + std::cos(0.25 * -3)) / 2, 1e-12);
  EXPECT_NEAR(b[1], (std::cos(0.5 * -4) + std::cos(0.25 * -4)) / 2, 1e-12);
  EXPECT_NEAR(b[2], (std::cos(0.5 * -5) + std::cos(0.25 * -9)) / 2, 1e-12);
  EXPECT_TRUE(distancesToAudio(ids, 5).empty());
  EXPECT_TRUE(biasToAudio(ids, pairs, 99).empty());
}

TEST(SoundDisplay, HopKeepsFramesUnderTheLimit) {
  EXPECT_EQ(spectrogramHop(1000, 512, 4000), 128);  // short clip: a quarter window
  const std::size_t hour = 3600u * 48000u;
  const int hop = spectrogramHop(hour, 512, 4000);
  EXPECT_LE((hour + hop - 1) / hop, 4000u);
  EXPECT_GT((hour + hop - 2) / (hop - 1), 4000u);  // the smallest such hop
}

TEST(SoundDisplay, LevelsAreDecibelsBelowThePeak) {
  Spectrogram s;
  s.frames = 1;
  s.bins = 4;
  s.magnitude = {10.0f, 1.0f, 0.1f, 0.0f};
  const std::vector<float> l = spectrogramLevels(s, 40.0);
  // 0 dB, -20 dB, -40 dB, -inf over a 40 dB range.
  EXPECT_FLOAT_EQ(l[0], 1.0f);
  EXPECT_FLOAT_EQ(l[1], 0.5f);
  EXPECT_NEAR(l[2], 0.0f, 1e-6);
  EXPECT_FLOAT_EQ(l[3], 0.0f);
  s.magnitude = {0, 0, 0, 0};
  EXPECT_EQ(spectrogramLevels(s, 40.0), std::vector<float>(4, 0.0f));
}
