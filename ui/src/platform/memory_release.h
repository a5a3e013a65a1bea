// Handing freed memory back to the system after a large scene is left. The views of a
// 250k-token scene (four in compare mode) free hundreds of MB when the user goes back to a small
// one, but glibc keeps the freed blocks in its arenas (they lie between live ones), so without
// this the process stayed over a GiB resident for the rest of the session.
#pragma once

#include <QObject>
#include <QTimer>
#include <cstddef>

namespace ropescope::ui {

// Returns freed heap pages to the system (glibc malloc_trim); false where there is no such call.
bool returnFreedMemory();

class MemoryRelease : public QObject {
  Q_OBJECT
 public:
  explicit MemoryRelease(QObject* parent = nullptr);
  // The token count of the scene now shown. Going below a quarter of the largest scene since
  // the last release (when that one had at least kLargeTokens) schedules a release shortly after,
  // once the views have let go of the large scene.
  void sceneShown(std::size_t tokens);
  int releases() const { return releases_; }
  // Whether a release is scheduled and has not happened yet (tests).
  bool pending() const { return timer_.isActive(); }

  static constexpr std::size_t kLargeTokens = 20000;

 private:
  QTimer timer_;
  std::size_t largest_ = 0;
  int releases_ = 0;
};

}  // namespace ropescope::ui
