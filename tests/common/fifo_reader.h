// Reads a FIFO to its end on a thread of its own, for tests of writers that must write a FIFO in
// place. The FIFO is opened at once (non-blocking, so a writer's open never waits), and finish()
// returns what arrived even when no writer ever came or the writer replaced the FIFO with a file
// (the old behaviour): it opens the reader's own FIFO (through /proc/self/fd) for writing once,
// so the reader sees the end instead of waiting for ever.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

namespace ropescope::test {

class FifoReader {
 public:
  explicit FifoReader(const std::string& fifo) {
    fd_ = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) return;
    thread_ = std::thread([this] {
      char buf[65536];
      for (;;) {
        // Readable, or hung up after a writer came and went (not before one came).
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, -1) < 0) {
          if (errno == EINTR) continue;
          break;
        }
        const ssize_t n = ::read(fd_, buf, sizeof buf);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) break;  // no writer left and nothing buffered: the end
        bytes_.append(buf, std::size_t(n));
      }
    });
  }
  ~FifoReader() {
    if (thread_.joinable()) finish();
  }
  bool opened() const { return fd_ >= 0; }

  // Call once the writer is done (its process ended or its call returned).
  std::string finish() {
    if (fd_ < 0) return {};
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    const int w = ::open(self.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (w >= 0) ::close(w);
    thread_.join();
    ::close(fd_);
    fd_ = -1;
    return bytes_;
  }

 private:
  int fd_ = -1;
  std::string bytes_;
  std::thread thread_;
};

}  // namespace ropescope::test
