// The files embedded from resources/ at build time (embed_files.cmake), sorted by path.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace ropescope::shipped {

struct EmbeddedFile {
  const char* path;  // relative to resources/: "models/qwen2.5-vl-7b/config.json"
  const unsigned char* data;
  std::size_t size;
  std::string_view bytes() const { return {reinterpret_cast<const char*>(data), size}; }
};

const std::vector<EmbeddedFile>& embeddedFiles();

// The file at `path`, nullptr when none is embedded there.
inline const EmbeddedFile* findEmbedded(std::string_view path) {
  for (const EmbeddedFile& f : embeddedFiles())
    if (path == f.path) return &f;
  return nullptr;
}

}  // namespace ropescope::shipped
