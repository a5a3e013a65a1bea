// Shipped sample pictures by name. A layout item "img:castle.png" whose file is not there (in
// the scene's folder, or the current one for a typed layout) names the sample castle.png that
// ships with ropescope, wherever this installation keeps it; a user's own file of that name
// wins. A segment made from a sample keeps the name and is written back as "img:castle.png", so
// scenes that use a sample open on any machine. The program that has samples (the desktop
// app keeps them as resources) says where they are with setSampleLocator.
#pragma once

#include <functional>
#include <string>

namespace ropescope {

// Returns the file of the sample named `name` ("castle.png"), or "" when there is no such
// sample. Called from any thread.
using SampleLocator = std::function<std::string(const std::string& name)>;

// Installs the locator (process-wide; an empty one removes it).
void setSampleLocator(SampleLocator locator);

// A locator over a folder of sample pictures (an installed tree's share/ropescope/samples, or
// resources/samples): a regular file of that name in it, "" otherwise.
SampleLocator sampleFolderLocator(const std::string& folder);

// The file of a shipped sample named `name`, "" when there is none or no locator. A name with a
// folder part ("dir/castle.png") is never a sample.
std::string locateSample(const std::string& name);

// The file a picture named on the command line is read from: `path` itself where there is such
// a file (or it has a folder part), else the shipped sample of that name, else `path` (so that
// reading it says it is missing). `ropescope grid castle.png` reads the sample, as a layout's
// img:castle.png does.
std::string fileOrSample(const std::string& path);

}  // namespace ropescope
