#include "ropescope/sample_pictures.h"

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

}  // namespace ropescope
