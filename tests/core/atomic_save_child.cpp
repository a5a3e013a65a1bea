// Helper of atomic_save_test: saves two large scenes to one path, alternately, until it is
// killed. Usage: atomic_save_child PATH. Writes "ready\n" to stdout after its first save.
#include <cstdio>
#include <exception>

#include "atomic_save_scenes.h"
#include "ropescope/scene.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: atomic_save_child PATH\n");
    return 2;
  }
  try {
    const ropescope::Scene a = ropescope::test::bigScene(0), b = ropescope::test::bigScene(1);
    for (long k = 0;; ++k) {
      ropescope::saveSceneFile(k % 2 ? a : b, argv[1]);
      if (k == 0) {
        std::fputs("ready\n", stdout);
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "atomic_save_child: %s\n", e.what());
    return 1;
  }
}
