// Helper of atomic_save_test: saves two large scenes to one path, alternately, until it is
// killed. Usage: atomic_save_child PATH. Writes "ready\n" to stdout after its first save.
// "atomic_save_child --once PATH TEXT" writes TEXT to PATH once (a fresh process, so its umask
// is read anew: output_kinds_test starts it under other umasks).
#include <cstdio>
#include <cstring>
#include <exception>

#include "atomic_save_scenes.h"
#include "ropescope/atomic_file.h"
#include "ropescope/scene.h"

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--once") == 0) {
    try {
      ropescope::writeFileAtomically(argv[2], std::string(argv[3]));
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "atomic_save_child: %s\n", e.what());
      return 1;
    }
  }
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
