// Computing and writing at once: attention's rows go to their file a chunk at a time, and the
// write (a copy of a chunk into the page cache or a disk's queue) took a third of a run while the
// compute threads waited. Two chunk buffers and a writer thread: the caller computes into one
// while the other is written. Chunks reach the sink in the order they were submitted.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

#include "ropescope/large_buffer.h"

namespace ropescope::cli {

class ChunkPipeline {
 public:
  using Sink = std::function<void(const float* data, std::size_t count)>;

  // Two buffers of `chunkFloats` each (throws std::bad_alloc) and the writer thread.
  ChunkPipeline(std::size_t chunkFloats, Sink sink);
  // Drops the chunks not yet written (the run failed: its file is not committed) and waits for
  // the write under way.
  ~ChunkPipeline();
  ChunkPipeline(const ChunkPipeline&) = delete;
  ChunkPipeline& operator=(const ChunkPipeline&) = delete;

  // The buffer to fill next, once what it held has been written. Rethrows the exception of a
  // write that failed (a full disk): the run stops at its next chunk.
  float* next();
  // Queues the first `count` floats of the buffer `next` returned.
  void submit(std::size_t count);
  // Waits until every queued chunk is written; rethrows a write's exception.
  void finish();

 private:
  struct Chunk {
    int buffer;
    std::size_t count;
  };
  void run();
  void rethrowLocked();

  LargeBuffer<float> buffers_[2];
  Sink sink_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Chunk> queue_;
  bool inUse_[2] = {false, false};  // queued or being written
  int fill_ = 0;                    // the buffer `next` hands out
  bool quit_ = false;
  std::exception_ptr error_;
  std::thread thread_;
};

}  // namespace ropescope::cli
