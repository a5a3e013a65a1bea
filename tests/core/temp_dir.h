// A private folder for one test (removed with what it holds), and a file's bytes.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ropescope::test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::filesystem::path& base = std::filesystem::temp_directory_path()) {
    std::string t = (base / "ropescope-test-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

inline std::string readAll(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace ropescope::test
