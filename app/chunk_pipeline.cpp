#include "chunk_pipeline.h"

#include <utility>

namespace ropescope::cli {

ChunkPipeline::ChunkPipeline(std::size_t chunkFloats, Sink sink)
    : buffers_{LargeBuffer<float>(chunkFloats), LargeBuffer<float>(chunkFloats)},
      sink_(std::move(sink)) {
  thread_ = std::thread([this] { run(); });
}

ChunkPipeline::~ChunkPipeline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  thread_.join();
}

void ChunkPipeline::rethrowLocked() {
  if (error_) std::rethrow_exception(error_);
}

float* ChunkPipeline::next() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !inUse_[fill_] || error_; });
  rethrowLocked();
  return buffers_[fill_].data();
}

void ChunkPipeline::submit(std::size_t count) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rethrowLocked();
    inUse_[fill_] = true;
    queue_.push_back({fill_, count});
    fill_ ^= 1;
  }
  changed_.notify_all();
}

void ChunkPipeline::finish() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return (!inUse_[0] && !inUse_[1]) || error_; });
  rethrowLocked();
}

void ChunkPipeline::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return quit_ || !queue_.empty(); });
    if (quit_) return;
    const Chunk chunk = queue_.front();
    queue_.pop_front();
    lock.unlock();
    std::exception_ptr failed;
    try {
      sink_(buffers_[chunk.buffer].data(), chunk.count);
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    inUse_[chunk.buffer] = false;
    if (failed && !error_) error_ = failed;
    if (error_) queue_.clear();  // the file will not be committed: the rest need not be written
    changed_.notify_all();
  }
}

}  // namespace ropescope::cli
