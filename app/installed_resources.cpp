#include "installed_resources.h"

#include <filesystem>

#include "ropescope/sample_pictures.h"

namespace ropescope::cli {

std::string installedResourceFolder() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  for (const char* up : {"..", "../.."}) {
    const fs::path folder = (exe.parent_path() / up / "share" / "ropescope").lexically_normal();
    if (fs::is_directory(folder / "samples", ec)) return folder.string();
  }
  return {};
}

void useInstalledSamples() {
  if (const std::string folder = installedResourceFolder(); !folder.empty())
    setSampleLocator(sampleFolderLocator(folder + "/samples"));
}

}  // namespace ropescope::cli
