#include "ropescope/shipped_models.h"

#include <string>
#include <string_view>
#include <vector>

#include "ropescope/model_config.h"
#include "shipped_files.h"

namespace ropescope {

namespace {

constexpr std::string_view kPrefix = "models/";

std::string fileText(const std::string& name, const char* file) {
  const shipped::EmbeddedFile* f = shipped::findEmbedded(std::string(kPrefix) + name + "/" + file);
  return f ? std::string(f->bytes()) : std::string();
}

}  // namespace

void installShippedModels() {
  ModelLocator l;
  l.filesOf = [](const std::string& name, ModelFiles* files) {
    if (name.empty() || name.find('/') != std::string::npos) return false;
    if (!shipped::findEmbedded(std::string(kPrefix) + name + "/config.json")) return false;
    files->config = fileText(name, "config.json");
    files->preprocessor = fileText(name, "preprocessor_config.json");
    files->video = fileText(name, "video_preprocessor_config.json");
    return true;
  };
  l.names = [] {
    std::vector<std::string> out;  // the table is sorted by path, so the names are too
    for (const shipped::EmbeddedFile& f : shipped::embeddedFiles()) {
      const std::string_view p = f.path;
      if (p.substr(0, kPrefix.size()) != kPrefix) continue;
      const std::string_view rest = p.substr(kPrefix.size());
      const auto slash = rest.find('/');
      if (slash != std::string_view::npos && rest.substr(slash + 1) == "config.json")
        out.emplace_back(rest.substr(0, slash));
    }
    return out;
  };
  setModelLocator(std::move(l));
}

}  // namespace ropescope
