#include "ropescope/sample_pictures.h"

#include <filesystem>
#include <mutex>

namespace ropescope {

namespace {

std::mutex& locatorMutex() {
  static std::mutex m;
  return m;
}

SampleLocator& installed() {
  static SampleLocator locator;
  return locator;
}

}  // namespace

void setSampleLocator(SampleLocator locator) {
  std::lock_guard<std::mutex> lock(locatorMutex());
  installed() = std::move(locator);
}

SampleLocator sampleFolderLocator(const std::string& folder) {
  return [folder](const std::string& name) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p = fs::path(folder) / name;
    return fs::is_regular_file(p, ec) ? p.string() : std::string();
  };
}

std::string locateSample(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos || name.find('\\') != std::string::npos ||
      name == "." || name == "..")
    return {};
  SampleLocator locator;
  {
    std::lock_guard<std::mutex> lock(locatorMutex());
    locator = installed();
  }
  return locator ? locator(name) : std::string();
}

std::string fileOrSample(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return path;
  const std::string sample = locateSample(path);
  return sample.empty() ? path : sample;
}

}  // namespace ropescope
