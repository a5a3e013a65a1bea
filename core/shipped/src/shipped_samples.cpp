#include "ropescope/shipped_samples.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>

#include "ropescope/atomic_file.h"
#include "ropescope/sample_pictures.h"
#include "shipped_files.h"

namespace ropescope {

namespace {

namespace fs = std::filesystem;

fs::path cacheFolder() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return fs::path(x);
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache";
  std::error_code ec;
  const fs::path tmp = fs::temp_directory_path(ec);
  return ec ? fs::path("/tmp") : tmp;
}

bool sameBytes(const fs::path& p, std::string_view bytes) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return false;
  const std::string have((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return have == bytes;
}

// The cache copy of the sample `name`, "" when there is no such sample or it cannot be written.
std::string cachedSample(const std::string& name) {
  const shipped::EmbeddedFile* f = shipped::findEmbedded("samples/" + name);
  if (!f) return {};
  static std::mutex mutex;  // scene loads may run on worker threads
  const std::lock_guard<std::mutex> lock(mutex);
  const fs::path dir = cacheFolder() / "ropescope" / "samples";
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path path = dir / name;
  if (sameBytes(path, f->bytes())) return path.string();
  try {
    writeFileAtomically(path.string(), {ByteSpan{f->data, f->size}}, "sample");
  } catch (const std::exception&) {
    return {};
  }
  return path.string();
}

}  // namespace

void installShippedSamples() {
  setSampleLocator(cachedSample);
}

}  // namespace ropescope
