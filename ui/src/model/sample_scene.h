// The scene the desktop app starts on: a sample picture between two text runs under
// Circle-RoPE, so a new user sees a real picture on the cone at once.
#pragma once

#include <QString>

#include "ropescope/scene.h"

namespace ropescope::ui {

// castle.png (a project-made 320x240 picture, 9x11 grid) from the app's resources, copied to
// a cache file because the core reads pictures by path. Empty on failure. Every program that
// links this file resolves "img:NAME" of a shipped sample to such a copy (sample_pictures.h).
QString samplePicturePath();

// "t4,img:castle.png,t8", Circle-RoPE, M-RoPE plan; the picture is the sample (shown and saved
// as img:castle.png, wherever its copy lives); core's defaultScene() when the picture cannot be
// written.
Scene sampleScene();

}  // namespace ropescope::ui
