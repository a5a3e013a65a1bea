// The OpenGL 4.3 compute attention backend (shaders/attention_*.comp) in its own QOpenGLContext
// on a QOffscreenSurface, and the chooser that falls back to the CPU backend when it cannot run.
#pragma once

#include <memory>
#include <string>

#include "ropescope/attention.h"

namespace ropescope::gpu {

// Creates the GPU backend on the calling thread, which must be the thread that owns (or will
// own) the QGuiApplication; the backend is then used from that thread. Without a
// QGuiApplication one is created (platform from QT_QPA_PLATFORM, else xcb when DISPLAY is set).
// Returns nullptr and says why in *why when no OpenGL 4.3 core context with compute shaders can
// be had (no display, old driver, shader compile failure).
std::unique_ptr<AttentionBackend> makeGpuAttentionBackend(std::string* why);

struct BackendSelection {
  std::unique_ptr<AttentionBackend> backend;  // never null
  std::string note;    // "GPU unavailable (<reason>); using the CPU", empty if it was used
  std::string reason;  // just the reason, for callers that must have the GPU
};

// auto: the GPU if it can be had and is not a software renderer (llvmpipe, softpipe: slower
// than the CPU path), else the CPU with the reason in `note` (say it once).
// cpu: the CPU. gpu: the GPU, or the CPU with the reason; callers that must have the GPU check
// backend->name().
BackendSelection selectAttentionBackend(BackendChoice choice, int cpuThreads);

}  // namespace ropescope::gpu
