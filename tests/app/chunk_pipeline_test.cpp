// ChunkPipeline (app/chunk_pipeline.h): attention's rows are computed into one buffer while the
// other is written. Chunks arrive whole and in order, a buffer is handed out again only after
// its write ended, and a failed write stops the run at its next chunk.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <numeric>
#include <semaphore>
#include <stdexcept>
#include <vector>

#include "chunk_pipeline.h"

using ropescope::cli::ChunkPipeline;

namespace {

void fill(float* data, std::size_t count, int chunk) {
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<float>(chunk * 1000 + i);
}

}  // namespace

TEST(ChunkPipeline, ChunksArriveWholeAndInOrder) {
  std::vector<float> written;
  std::vector<std::size_t> sizes;
  {
    ChunkPipeline pipe(64, [&](const float* d, std::size_t n) {
      written.insert(written.end(), d, d + n);
      sizes.push_back(n);
    });
    for (int c = 0; c < 41; ++c) {
      const std::size_t n = 1 + static_cast<std::size_t>(c * 7) % 64;  // short chunks too
      fill(pipe.next(), n, c);
      pipe.submit(n);
    }
    pipe.finish();
  }
  std::vector<float> want;
  for (int c = 0; c < 41; ++c) {
    const std::size_t n = 1 + static_cast<std::size_t>(c * 7) % 64;
    ASSERT_EQ(sizes.at(static_cast<std::size_t>(c)), n);
    for (std::size_t i = 0; i < n; ++i) want.push_back(static_cast<float>(c * 1000 + i));
  }
  EXPECT_EQ(written, want);
}

// While chunk 0 is in the sink the caller fills the other buffer; the buffer of chunk 0 comes
// back only after its write ended.
TEST(ChunkPipeline, ComputesTheNextChunkWhileOneIsWritten) {
  std::binary_semaphore inSink{0}, letGo{0};
  std::atomic<int> ended{0};
  ChunkPipeline pipe(8, [&](const float*, std::size_t) {
    if (ended.load() == 0) {
      inSink.release();
      letGo.acquire();
    }
    ++ended;
  });
  float* first = pipe.next();
  fill(first, 8, 0);
  pipe.submit(8);
  inSink.acquire();  // chunk 0 is being written now
  float* second = pipe.next();
  EXPECT_NE(second, first);
  fill(second, 8, 1);
  pipe.submit(8);
  // The third chunk needs chunk 0's buffer: next() returns it once that write has ended.
  auto third = std::async(std::launch::async, [&] {
    float* p = pipe.next();
    return std::make_pair(p, ended.load());
  });
  letGo.release();
  const auto [buffer, endedThen] = third.get();
  EXPECT_EQ(buffer, first);
  EXPECT_GE(endedThen, 1);
  pipe.submit(0);
  pipe.finish();
  EXPECT_EQ(ended.load(), 3);
}

TEST(ChunkPipeline, AFailedWriteStopsTheRunAtItsNextChunk) {
  int calls = 0;
  ChunkPipeline pipe(4, [&](const float*, std::size_t) {
    if (++calls == 2) throw std::runtime_error("output \"x.npy\": No space left on device");
  });
  bool thrown = false;
  try {
    for (int c = 0; c < 1000; ++c) {
      fill(pipe.next(), 4, c);
      pipe.submit(4);
    }
    pipe.finish();
  } catch (const std::runtime_error& e) {
    thrown = true;
    EXPECT_STREQ(e.what(), "output \"x.npy\": No space left on device");
  }
  EXPECT_TRUE(thrown);
  EXPECT_EQ(calls, 2);  // nothing after the failed chunk was written
  EXPECT_THROW(pipe.finish(), std::runtime_error);
}

// A run that fails elsewhere (the GPU) leaves with chunks still queued: they are dropped and
// the destructor returns once the write under way has ended.
TEST(ChunkPipeline, LeavingWithChunksQueuedDropsThem) {
  std::binary_semaphore inSink{0}, letGo{0};
  std::atomic<int> calls{0};
  auto pipe = std::make_unique<ChunkPipeline>(4, [&](const float*, std::size_t) {
    if (++calls == 1) {
      inSink.release();
      letGo.acquire();
    }
  });
  fill(pipe->next(), 4, 0);
  pipe->submit(4);
  inSink.acquire();
  fill(pipe->next(), 4, 1);
  pipe->submit(4);  // queued behind the write under way
  auto gone = std::async(std::launch::async, [&] { pipe.reset(); });
  letGo.release();
  gone.get();
  EXPECT_LE(calls.load(), 2);
  EXPECT_GE(calls.load(), 1);
}
