// The OpenGL 4.3 compute attention backend (shaders/attention_*.comp) in its own QOpenGLContext
// on a QOffscreenSurface, and the chooser that falls back to the CPU backend when it cannot run.
#pragma once

#include <memory>
#include <string>

#include "ropescope/attention.h"
#include "ropescope/errors.h"

namespace ropescope::gpu {

// A failure of the GPU itself (context lost, driver error, out of device memory, a shader the
// driver refuses), as opposed to a bad request: the same request can still run on the CPU.
class GpuError : public InputError {
 public:
  explicit GpuError(const std::string& message) : InputError(message, "backend") {}
};

// Test hook: makes the GPU backend fail at one stage, the way the real failure surfaces there.
//   no-context      creating the OpenGL context fails
//   shader-compile  the driver compiles a broken compute shader (its log is the reason)
//   context-lost    the context reports itself lost after the first dispatch
//   driver-error    the driver raises a GL error (GL_INVALID_VALUE) while loading q and k
// Read from ROPESCOPE_GPU_FAULT (those names) unless setGpuFault was called. While a fault is
// set, `auto` uses a software renderer too, so that the fault is met on any machine.
enum class GpuFault { None, NoContext, ShaderCompile, ContextLost, DriverError };
void setGpuFault(GpuFault fault);
GpuFault gpuFault();

// Creates the GPU backend on the calling thread, which must be the thread that owns (or will
// own) the QGuiApplication; the backend is then used from that thread. Without a
// QGuiApplication one is created (its platform as ropescope_gpu/qt_platform.h decides).
// Returns nullptr and says why in *why when no OpenGL 4.3 core context with compute shaders can
// be had (no display, old driver, shader compile failure).
// *noDisplay (when given) tells whether it failed for want of a display (no trouble).
std::unique_ptr<AttentionBackend> makeGpuAttentionBackend(std::string* why,
                                                          bool* noDisplay = nullptr);

struct BackendSelection {
  std::unique_ptr<AttentionBackend> backend;  // never null
  std::string note;    // "GPU unavailable (<reason>); using the CPU", empty if it was used
  std::string reason;  // just the reason, for callers that must have the GPU
  // The GPU was there but failed (context, shaders): trouble worth a line on stderr. False for
  // the ordinary cases of no display and a software renderer.
  bool failed = false;
};

// The GPU backend comes wrapped: when the GPU fails in the middle of a request (GpuError) the
// wrapper loads the problem on the CPU, repeats the request there and stays on the CPU; its
// name() and description() then say "cpu" and fallbackNote() why.
// auto: the GPU if it can be had and is not a software renderer (llvmpipe, softpipe: slower
// than the CPU path), else the CPU with the reason in `note` (say it once).
// cpu: the CPU. gpu: the GPU, or the CPU with the reason; callers that must have the GPU check
// backend->name().
BackendSelection selectAttentionBackend(BackendChoice choice, int cpuThreads);

// "GPU failed (<reason>); using the CPU" once a backend from selectAttentionBackend has fallen
// back mid-run; empty before that and for every other backend.
std::string fallbackNote(const AttentionBackend& backend);
// Just the reason of that fallback.
std::string fallbackReason(const AttentionBackend& backend);

}  // namespace ropescope::gpu
