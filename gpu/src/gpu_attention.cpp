// The GPU attention backend: the CPU backend's tiling and online softmax as GLSL 4.30 compute
// shaders, with q/k rotated on the device from core's cos/sin tables. Float32 throughout.
#include "ropescope_gpu/gpu_attention.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions_4_3_Core>
#include <QOpenGLShaderProgram>
#include <QOpenGLVersionFunctionsFactory>
#include <QSurfaceFormat>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "ropescope/errors.h"
#include "ropescope/gpu_probe.h"
#include "ropescope_gpu/qt_platform.h"

// Q_INIT_RESOURCE must run at global scope; a static library's resources are otherwise dropped
// by the linker because nothing references them.
static void initAttentionShaders() {
  Q_INIT_RESOURCE(shaders);
}

namespace ropescope::gpu {

namespace {

std::optional<GpuFault>& faultOverride() {
  static std::optional<GpuFault> f;
  return f;
}

const char* kForced = " (forced by ROPESCOPE_GPU_FAULT)";

// Largest buffer written by one dispatch (64 MiB): keeps each dispatch short enough for
// drivers with a watchdog and the read-back buffer small.
constexpr std::size_t kChunkFloats = std::size_t{16} << 20;
constexpr GLuint kMaxGroupsY = 65535;  // the minimum GL 4.3 guarantees for dispatch y
// Keys per dispatch of the streaming and pooling shaders: Mesa's llvmpipe ends an invocation
// after 65535 loop iterations in all. Per key the stats shader spends about d/64 iterations on
// loading the shared tile and two on the logits, so the chunk shrinks with the head dim
// (8192 keys at d = 128, 2105 at d = 1024), leaving a third of the budget spare.
std::size_t keyChunk(int headDim) {
  return std::min<std::size_t>(8192, 40000 / (std::size_t(headDim) / 64 + 3));
}
// Query-key dot products per dispatch of the streaming and pooling shaders. The work queued
// between two cancel checks is bounded by it: a dispatch over every row of a 250k-token scene
// takes minutes on llvmpipe, and a queued dispatch cannot be taken back (the abuse test hung in
// CI on one). 2^24 dots: well under a millisecond on a real GPU, about a second on llvmpipe.
constexpr std::size_t kDotsPerDispatch = std::size_t{1} << 24;

// "(a[x + 0] * b[y + 0] + a[x + 1] * b[y + 1] + ...)" for HEAD_DIM terms: the dot products
// unrolled at compile time, so that they spend none of llvmpipe's loop budget.
QByteArray dotMacro(const char* name, const char* args, const char* a, const char* ai,
                    const char* b, const char* bi, int d) {
  QByteArray m = QByteArray("#define ") + name + "(" + args + ") (";
  for (int i = 0; i < d; ++i) {
    const QByteArray n = QByteArray::number(i);
    m += (i ? " + " : "") + QByteArray(a) + "[" + ai + (ai[0] ? " + " : "") + n + "u] * " + b +
         "[" + bi + " + " + n + "u]";
  }
  return m + ")\n";
}

bool ensureGuiApplication(std::string* why) {
  if (qobject_cast<QGuiApplication*>(QCoreApplication::instance())) return true;
  if (QCoreApplication::instance()) {
    *why = "the running Qt application is not a QGuiApplication";
    return false;
  }
  // The CLI has no QGuiApplication of its own: one is made, and lives until exit.
  *why = startQtApplication(QtSurface::OpenGl);
  return why->empty();
}

class GpuAttentionBackend final : public AttentionBackend {
 public:
  ~GpuAttentionBackend() override {
    if (ctx_.isValid() && ctx_.makeCurrent(&surface_)) {
      freeBuffers();
      programs_.clear();
      ctx_.doneCurrent();
    }
  }

  bool init(std::string* why) {
    QSurfaceFormat want;
    want.setRenderableType(QSurfaceFormat::OpenGL);
    want.setVersion(4, 3);
    want.setProfile(QSurfaceFormat::CoreProfile);
    ctx_.setFormat(want);
    if (gpuFault() == GpuFault::NoContext) {
      *why = std::string("could not create an OpenGL 4.3 core context") + kForced;
      return false;
    }
    if (!ctx_.create()) {
      *why = "could not create an OpenGL 4.3 core context";
      return false;
    }
    const QSurfaceFormat got = ctx_.format();
    if (ctx_.isOpenGLES() || got.majorVersion() * 10 + got.minorVersion() < 43) {
      *why = "the OpenGL context is " + std::to_string(got.majorVersion()) + "." +
             std::to_string(got.minorVersion()) + (ctx_.isOpenGLES() ? " ES" : "") +
             ", compute shaders need 4.3";
      return false;
    }
    surface_.setFormat(got);
    surface_.create();
    if (!ctx_.makeCurrent(&surface_)) {
      *why = "could not make the OpenGL context current on an offscreen surface";
      return false;
    }
    f_ = QOpenGLVersionFunctionsFactory::get<QOpenGLFunctions_4_3_Core>(&ctx_);
    if (!f_ || !f_->initializeOpenGLFunctions()) {
      *why = "OpenGL 4.3 core functions are not available";
      return false;
    }
    GLint v = 0;
    f_->glGetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &v);
    maxBlockBytes_ = std::size_t(std::max(v, 0));
    f_->glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &v);
    alignment_ = std::size_t(std::max(v, 1));
    // Present from OpenGL 4.5 (or with KHR_robustness): tells a context the driver reset.
    resetStatus_ = reinterpret_cast<GLenum (*)()>(ctx_.getProcAddress("glGetGraphicsResetStatus"));
    description_ = std::string("gpu, OpenGL ") +
                   reinterpret_cast<const char*>(f_->glGetString(GL_VERSION)) + ", " +
                   reinterpret_cast<const char*>(f_->glGetString(GL_RENDERER));
    // Compile once now so that a driver without working compute shaders is found here, where
    // the caller can still fall back to the CPU, and not in the middle of a request.
    try {
      programsFor(128);
    } catch (const GpuError& e) {
      *why = e.what();
      return false;
    }
    return true;
  }

  std::string name() const override { return "gpu"; }
  std::string description() const override { return description_; }

  void load(const AttentionProblem& problem) override {
    validateProblem(problem);
    current();
    const QkTensors& in = problem.qk;
    const std::size_t n = in.tokens, d = std::size_t(in.headDim);
    const std::size_t headBytes = n * d * sizeof(float);
    if (headBytes > maxBlockBytes_)
      throw GpuError("GPU: one head of q/k needs " + std::to_string(headBytes >> 20) +
                     " MiB, more than this device binds at once (" +
                     std::to_string(maxBlockBytes_ >> 20) + " MiB); use the cpu backend");
    Programs& pr = programsFor(in.headDim);
    freeBuffers();
    tokens_ = 0;
    headStride_ = (headBytes + alignment_ - 1) / alignment_ * alignment_;
    q_ = upload(in.qData(), in.qHeads, headBytes);
    k_ = upload(in.kData(), in.kvHeads, headBytes);
    const std::size_t tableBytes = problem.rotary.cos.size() * sizeof(float);
    const GLuint cosBuf = buffer(std::max<std::size_t>(tableBytes, 4), problem.rotary.cos.data());
    const GLuint sinBuf = buffer(std::max<std::size_t>(tableBytes, 4), problem.rotary.sin.data());
    const GLuint qsBuf = buffer(std::max<std::size_t>(problem.queryScale.size() * sizeof(float), 4),
                                problem.queryScale.empty() ? nullptr : problem.queryScale.data());
    ranges_ = problemKeyRanges(problem);
    keysBuf_ = buffer(ranges_.size() * sizeof(KeyRange), ranges_.data());
    checkGl("uploading q and k");

    pr.rope->bind();
    setUint(*pr.rope, "tokens", GLuint(n));
    setUint(*pr.rope, "pairs", GLuint(problem.rotary.pairs));
    setUint(*pr.rope, "gptj", problem.rotary.layout == PairLayout::GptJ ? 1u : 0u);
    f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, cosBuf);
    f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, sinBuf);
    f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, qsBuf);
    const float scale = problemLogitScale(problem);
    for (int h = 0; h < in.qHeads + in.kvHeads; ++h) {
      const bool isQ = h < in.qHeads;
      pr.rope->setUniformValue("scale", isQ ? scale : 1.0f);
      setUint(*pr.rope, "perToken", isQ && !problem.queryScale.empty() ? 1u : 0u);
      bindHead(0, isQ ? q_ : k_, isQ ? h : h - in.qHeads, headBytes);
      f_->glDispatchCompute(GLuint((n + 63) / 64), 1, 1);
      injectFault();
    }
    f_->glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    f_->glDeleteBuffers(1, &cosBuf);
    f_->glDeleteBuffers(1, &sinBuf);
    f_->glDeleteBuffers(1, &qsBuf);
    checkGl("rotating q and k");

    heads_ = in.qHeads;
    group_ = in.qHeads / in.kvHeads;
    tokens_ = n;
    d_ = in.headDim;
  }

  RowStats rowStats(int head, std::size_t b, std::size_t e) override {
    check(head, b, e);
    current();
    RowStats st;
    st.max.resize(e - b);
    st.sumExp.resize(e - b);
    st.entropy.resize(e - b);
    std::vector<float> buf;
    for (std::size_t r0 = b; r0 < e; r0 += kChunkFloats / 3) {
      if (cancelledAfterWork()) throw AttentionCancelled();
      const std::size_t r1 = std::min(e, r0 + kChunkFloats / 3);
      const GLuint stats = runStats(head, r0, r1);
      buf.resize(3 * (r1 - r0));
      read(stats, buf.data(), buf.size());
      for (std::size_t i = 0; i < r1 - r0; ++i) {
        st.max[r0 - b + i] = buf[3 * i];
        st.sumExp[r0 - b + i] = buf[3 * i + 1];
        st.entropy[r0 - b + i] = buf[3 * i + 2];
      }
    }
    return st;
  }

  void rows(int head, std::size_t b, std::size_t e, AttentionValue value, float* out) override {
    check(head, b, e);
    current();
    Programs& pr = programsFor(d_);
    const std::size_t per = std::max<std::size_t>(
        1,
        std::min<std::size_t>({kChunkFloats / tokens_, maxBlockBytes_ / 4 / tokens_, kMaxGroupsY}));
    const bool softmax = value == AttentionValue::Softmax;
    for (std::size_t r0 = b; r0 < e; r0 += per) {
      if (cancelledAfterWork()) throw AttentionCancelled();
      const std::size_t r1 = std::min(e, r0 + per);
      const GLuint stats = softmax ? runStats(head, r0, r1) : scratch(Scratch::Stats, 4);
      const GLuint o = scratch(Scratch::Out, (r1 - r0) * tokens_ * sizeof(float));
      pr.rows->bind();
      setCommon(*pr.rows, r0, r1);
      setUint(*pr.rows, "softmax", GLuint(softmax));
      bindHead(0, q_, head, tokens_ * d_ * 4);
      bindHead(1, k_, head / group_, tokens_ * d_ * 4);
      f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, stats);
      f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, o);
      f_->glDispatchCompute(GLuint((tokens_ + 63) / 64), GLuint(r1 - r0), 1);
      read(o, out + (r0 - b) * tokens_, (r1 - r0) * tokens_);
    }
  }

  void pooled(int head, int block, AttentionValue value, float* out) override {
    check(head, 0, tokens_);
    if (block < 1) throw InputError("attention: pooling block must be >= 1", "block");
    current();
    Programs& pr = programsFor(d_);
    const bool softmax = value == AttentionValue::Softmax;
    const std::size_t bs = std::size_t(block), nb = (tokens_ + bs - 1) / bs;
    // Probabilities need every row's max and sum first: one streaming pass over all rows.
    const GLuint stats = softmax ? runStats(head, 0, tokens_) : scratch(Scratch::Stats, 4);
    std::vector<double> acc(nb * nb, 0.0);
    std::vector<float> part;
    const std::size_t per = std::max<std::size_t>(
        1, std::min<std::size_t>({kChunkFloats / nb, maxBlockBytes_ / 4 / nb, kMaxGroupsY,
                                  kDotsPerDispatch / keyChunk(d_)}));
    for (std::size_t r0 = 0; r0 < tokens_; r0 += per) {
      if (cancelledAfterWork()) throw AttentionCancelled();
      const std::size_t r1 = std::min(tokens_, r0 + per);
      const GLuint p = scratch(Scratch::Out, (r1 - r0) * nb * sizeof(float));
      pr.pool->bind();
      setCommon(*pr.pool, r0, r1);
      setUint(*pr.pool, "softmax", GLuint(softmax));
      setUint(*pr.pool, "block", GLuint(bs));
      setUint(*pr.pool, "blocks", GLuint(nb));
      bindHead(0, q_, head, tokens_ * d_ * 4);
      bindHead(1, k_, head / group_, tokens_ * d_ * 4);
      f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, stats);
      f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, p);
      const auto [start, keys] = keySpan(r0, r1);
      for (std::size_t c = start; c < keys; c += keyChunk(d_)) {
        if (c > start && cancelledAfterWork()) throw AttentionCancelled();
        setUint(*pr.pool, "keyBegin", GLuint(c));
        setUint(*pr.pool, "keyEnd", GLuint(std::min(keys, c + keyChunk(d_))));
        setUint(*pr.pool, "first", GLuint(c == start));
        f_->glDispatchCompute(GLuint((nb + 63) / 64), GLuint(r1 - r0), 1);
        f_->glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
      }
      part.resize((r1 - r0) * nb);
      read(p, part.data(), part.size());
      // Stage 2 (block rows) is a small sum: done here in double, like the CPU backend.
      for (std::size_t r = r0; r < r1; ++r)
        for (std::size_t J = 0; J < nb; ++J) acc[(r / bs) * nb + J] += part[(r - r0) * nb + J];
    }
    for (std::size_t I = 0; I < nb; ++I)
      for (std::size_t J = 0; J < nb; ++J) {
        const std::size_t rBegin = I * bs, rEnd = std::min(tokens_, rBegin + bs);
        const std::size_t cBegin = J * bs, cEnd = std::min(tokens_, cBegin + bs);
        double count = double(rEnd - rBegin) * double(cEnd - cBegin);
        if (softmax) {
          out[I * nb + J] = static_cast<float>(acc[I * nb + J] / count);
          continue;
        }
        count = 0;  // the unmasked entries of the tile
        for (std::size_t r = rBegin; r < rEnd; ++r) {
          const std::size_t lo = std::max<std::size_t>(cBegin, ranges_[r].begin);
          const std::size_t hi = std::min<std::size_t>(cEnd, ranges_[r].end);
          count += hi > lo ? double(hi - lo) : 0.0;
        }
        out[I * nb + J] = count > 0 ? static_cast<float>(acc[I * nb + J] / count)
                                    : -std::numeric_limits<float>::infinity();
      }
  }

 private:
  struct Programs {
    std::unique_ptr<QOpenGLShaderProgram> rope, stats, rows, pool;
  };
  enum class Scratch { Stats, Out };

  void current() {
    if (lost_ || !ctx_.isValid() || !ctx_.makeCurrent(&surface_))
      throw GpuError("GPU: the OpenGL context was lost");
  }

  // The test hook (setGpuFault) at its stage of load(): right after the first dispatch.
  void injectFault() {
    if (gpuFault() == GpuFault::ContextLost) lost_ = true;
    // A real driver error: a zero-sized range is GL_INVALID_VALUE (OpenGL 4.3, 6.1.1).
    if (gpuFault() == GpuFault::DriverError)
      f_->glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 0, q_, 0, 0);
  }

  void check(int head, std::size_t b, std::size_t e) const {
    checkAttentionRequest(head, b, e, heads_, tokens_);
  }

  void checkGl(const char* what) {
    if (!lost_ && resetStatus_ && resetStatus_() != GL_NO_ERROR) lost_ = true;
    if (lost_)
      throw GpuError(std::string("GPU: the OpenGL context was lost while ") + what +
                     (gpuFault() == GpuFault::ContextLost ? kForced : ""));
    const GLenum err = f_->glGetError();
    if (err == GL_OUT_OF_MEMORY)
      throw GpuError(std::string("GPU: out of memory while ") + what + "; use the cpu backend");
    if (err != GL_NO_ERROR)
      throw GpuError(std::string("GPU: OpenGL error ") + std::to_string(err) + " while " + what +
                     (gpuFault() == GpuFault::DriverError ? kForced : ""));
  }

  // The shaders for one head dim: HEAD_DIM is a compile-time constant so that loops unroll and
  // each query row fits in registers; the key tile keeps shared memory within 32 KiB, the
  // smallest amount OpenGL 4.3 guarantees.
  Programs& programsFor(int headDim) {
    auto it = programs_.find(headDim);
    if (it != programs_.end()) return it->second;
    initAttentionShaders();
    const int keyTile = std::clamp(8192 / headDim, 1, 32);
    const QByteArray prefix = "#version 430\n#define HEAD_DIM " + QByteArray::number(headDim) +
                              "\n#define KEY_TILE_DEFAULT " + QByteArray::number(keyTile) + "u\n" +
                              dotMacro("DOT_SHARED", "kb", "qr", "", "ks", "(kb)", headDim) +
                              dotMacro("DOT_GLOBAL", "qb, kb", "q", "(qb)", "k", "(kb)", headDim) +
                              dotMacro("DOT_REG_GLOBAL", "kb", "qr", "", "k", "(kb)", headDim);
    auto make = [&](const char* file) {
      QFile f(QString(":/shaders/") + file);
      if (!f.open(QIODevice::ReadOnly))
        throw GpuError(std::string("GPU: shader resource ") + file + " is missing");
      QByteArray src = prefix + f.readAll();
      // The test hook: a line the driver's compiler rejects, so that its own log is the reason.
      if (gpuFault() == GpuFault::ShaderCompile) src += "\nforced_compile_error(;\n";
      src.replace("#define KEY_TILE 32u", "#define KEY_TILE KEY_TILE_DEFAULT");
      auto p = std::make_unique<QOpenGLShaderProgram>();
      if (!p->addShaderFromSourceCode(QOpenGLShader::Compute, src) || !p->link())
        throw GpuError(std::string("GPU: compute shader ") + file +
                       " failed to build: " + p->log().simplified().left(200).toStdString() +
                       (gpuFault() == GpuFault::ShaderCompile ? kForced : ""));
      return p;
    };
    Programs pr;
    pr.rope = make("attention_rope.comp");
    pr.stats = make("attention_stats.comp");
    pr.rows = make("attention_rows.comp");
    pr.pool = make("attention_pool.comp");
    return programs_.emplace(headDim, std::move(pr)).first->second;
  }

  GLuint buffer(std::size_t bytes, const void* data) {
    GLuint b = 0;
    f_->glGenBuffers(1, &b);
    f_->glBindBuffer(GL_SHADER_STORAGE_BUFFER, b);
    f_->glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(bytes), data, GL_DYNAMIC_COPY);
    return b;
  }

  // Heads at an aligned stride, so that each head can be bound on its own (glBindBufferRange).
  GLuint upload(const float* data, int heads, std::size_t headBytes) {
    const GLuint b = buffer(headStride_ * std::size_t(heads), nullptr);
    for (int h = 0; h < heads; ++h)
      f_->glBufferSubData(GL_SHADER_STORAGE_BUFFER, GLintptr(headStride_ * std::size_t(h)),
                          GLsizeiptr(headBytes), data + std::size_t(h) * headBytes / sizeof(float));
    return b;
  }

  void bindHead(GLuint binding, GLuint buf, int head, std::size_t bytes) {
    f_->glBindBufferRange(GL_SHADER_STORAGE_BUFFER, binding, buf,
                          GLintptr(headStride_ * std::size_t(head)), GLsizeiptr(bytes));
  }

  // Reusable device buffers, grown on demand.
  GLuint scratch(Scratch which, std::size_t bytes) {
    auto& [buf, size] = which == Scratch::Stats ? statsBuf_ : outBuf_;
    if (buf && size >= bytes) return buf;
    if (buf) f_->glDeleteBuffers(1, &buf);
    buf = buffer(bytes, nullptr);
    size = bytes;
    checkGl("allocating an output buffer");
    return buf;
  }

  // QOpenGLShaderProgram's GLuint overload calls glUniform1i, which is an error on a uint.
  void setUint(QOpenGLShaderProgram& p, const char* name, GLuint v) {
    f_->glUniform1ui(p.uniformLocation(name), v);
  }

  void setCommon(QOpenGLShaderProgram& p, std::size_t r0, std::size_t r1) {
    setUint(p, "tokens", GLuint(tokens_));
    setUint(p, "rowBegin", GLuint(r0));
    setUint(p, "rowEnd", GLuint(r1));
    f_->glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, keysBuf_);
  }

  // The keys rows [r0, r1) see in all: the first (rounded down to a key chunk) and the end.
  std::pair<std::size_t, std::size_t> keySpan(std::size_t r0, std::size_t r1) const {
    std::size_t lo = tokens_, hi = 0;
    for (std::size_t r = r0; r < r1; ++r) {
      lo = std::min<std::size_t>(lo, ranges_[r].begin);
      hi = std::max<std::size_t>(hi, ranges_[r].end);
    }
    if (lo >= hi) return {0, 0};
    return {lo / keyChunk(d_) * keyChunk(d_), hi};
  }

  GLuint runStats(int head, std::size_t r0, std::size_t r1) {
    Programs& pr = programsFor(d_);
    const GLuint stats = scratch(Scratch::Stats, 3 * (r1 - r0) * sizeof(float));
    pr.stats->bind();
    bindHead(0, q_, head, tokens_ * d_ * 4);
    bindHead(1, k_, head / group_, tokens_ * d_ * 4);
    // Rows in slices of whole work groups whose stats (3 floats a row) start on a binding
    // offset the driver accepts, at most kDotsPerDispatch dots a dispatch.
    std::size_t step = 64;
    while ((3 * sizeof(float) * step) % alignment_ != 0) step += 64;
    const std::size_t slice = std::max(step, kDotsPerDispatch / keyChunk(d_) / step * step);
    for (std::size_t a = r0; a < r1; a += slice) {
      const std::size_t b = std::min(r1, a + slice);
      setCommon(*pr.stats, a, b);
      f_->glBindBufferRange(GL_SHADER_STORAGE_BUFFER, 2, stats,
                            GLintptr(3 * sizeof(float) * (a - r0)),
                            GLsizeiptr(3 * sizeof(float) * (b - a)));
      // Only the key chunks these rows see (a causal row never looks past its own index).
      const auto [start, keys] = keySpan(a, b);
      for (std::size_t c = start; c < keys; c += keyChunk(d_)) {
        if ((a > r0 || c > start) && cancelledAfterWork()) throw AttentionCancelled();
        setUint(*pr.stats, "keyBegin", GLuint(c));
        setUint(*pr.stats, "keyEnd", GLuint(std::min(keys, c + keyChunk(d_))));
        setUint(*pr.stats, "first", GLuint(c == start));
        setUint(*pr.stats, "last", GLuint(c + keyChunk(d_) >= keys));
        f_->glDispatchCompute(GLuint((b - a + 63) / 64), 1, 1);
        f_->glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
      }
    }
    return stats;
  }

  // A cancel check that means something: the work queued so far is done first, so a newer
  // request waits for at most one bounded dispatch.
  bool cancelledAfterWork() {
    f_->glFinish();
    return cancelRequested();
  }

  void read(GLuint buf, float* out, std::size_t count) {
    f_->glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    f_->glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
    f_->glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(count * sizeof(float)), out);
    checkGl("reading results back");
  }

  void freeBuffers() {
    for (GLuint* b : {&q_, &k_, &keysBuf_, &statsBuf_.first, &outBuf_.first})
      if (*b) {
        f_->glDeleteBuffers(1, b);
        *b = 0;
      }
    statsBuf_.second = outBuf_.second = 0;
  }

  QOpenGLContext ctx_;
  QOffscreenSurface surface_;
  QOpenGLFunctions_4_3_Core* f_ = nullptr;
  GLenum (*resetStatus_)() = nullptr;
  bool lost_ = false;
  std::map<int, Programs> programs_;
  std::string description_;
  std::size_t maxBlockBytes_ = 0, alignment_ = 1, headStride_ = 0;
  GLuint q_ = 0, k_ = 0, keysBuf_ = 0;
  std::vector<KeyRange> ranges_;  // per row: the keys it sees (problemKeyRanges)
  std::pair<GLuint, std::size_t> statsBuf_{0, 0}, outBuf_{0, 0};
  int group_ = 1, d_ = 0;
};

}  // namespace

namespace {
// Qt reports a failed platform plugin or context on stderr; the caller reports the reason once,
// in its own words, so the probe is quiet.
void quiet(QtMsgType, const QMessageLogContext&, const QString&) {}
}  // namespace

std::unique_ptr<AttentionBackend> makeGpuAttentionBackend(std::string* why, bool* noDisplay) {
  if (noDisplay) *noDisplay = false;
  const QtMessageHandler previous = qInstallMessageHandler(quiet);
  struct Restore {
    QtMessageHandler h;
    ~Restore() { qInstallMessageHandler(h); }
  } restore{previous};
  std::string reason;
  if (!ensureGuiApplication(&reason)) {
    if (why) *why = reason;
    if (noDisplay) *noDisplay = true;
    return nullptr;
  }
  auto b = std::make_unique<GpuAttentionBackend>();
  if (!b->init(&reason)) {
    if (why) *why = reason;
    return nullptr;
  }
  return b;
}

namespace {

// The GPU backend with the CPU behind it: a GpuError in the middle of a request moves the
// problem to the CPU and repeats the request there; later requests stay on the CPU.
class FallbackBackend final : public AttentionBackend {
 public:
  FallbackBackend(std::unique_ptr<AttentionBackend> gpu, int cpuThreads)
      : gpu_(std::move(gpu)), cpuThreads_(cpuThreads) {}

  std::string name() const override { return active().name(); }
  std::string description() const override { return active().description(); }

  void load(const AttentionProblem& problem) override {
    if (gpu_) problem_ = problem;  // kept for a move to the CPU
    run([&](AttentionBackend& b) { b.load(problem); }, false);
  }
  RowStats rowStats(int head, std::size_t b, std::size_t e) override {
    RowStats st;
    run([&](AttentionBackend& be) { st = be.rowStats(head, b, e); }, true);
    return st;
  }
  void rows(int head, std::size_t b, std::size_t e, AttentionValue value, float* out) override {
    run([&](AttentionBackend& be) { be.rows(head, b, e, value, out); }, true);
  }
  RowStats rowsAndStats(int head, std::size_t b, std::size_t e, AttentionValue value,
                        float* out) override {
    RowStats st;
    run([&](AttentionBackend& be) { st = be.rowsAndStats(head, b, e, value, out); }, true);
    return st;
  }
  void pooled(int head, int block, AttentionValue value, float* out) override {
    run([&](AttentionBackend& be) { be.pooled(head, block, value, out); }, true);
  }

  const std::string& reason() const { return reason_; }

 private:
  AttentionBackend& active() const { return gpu_ ? *gpu_ : *cpu_; }

  template <typename Fn>
  void run(Fn&& fn, bool needsProblem) {
    if (gpu_) {
      gpu_->setCancelCheck(cancel_);
      try {
        fn(*gpu_);
        heads_ = gpu_->heads();
        tokens_ = gpu_->tokens();
        return;
      } catch (const GpuError& e) {
        reason_ = e.what();
        if (reason_.rfind("GPU: ", 0) == 0) reason_.erase(0, 5);
        gpu_.reset();  // its context is current on this thread: destroyed here
        cpu_ = makeCpuAttentionBackend(cpuThreads_);
        if (needsProblem) cpu_->load(problem_);  // (a failed load is repeated by fn itself)
        problem_ = {};
      }
    }
    cpu_->setCancelCheck(cancel_);
    fn(*cpu_);
    heads_ = cpu_->heads();
    tokens_ = cpu_->tokens();
  }

  std::unique_ptr<AttentionBackend> gpu_, cpu_;
  int cpuThreads_;
  AttentionProblem problem_;
  std::string reason_;
};

}  // namespace

void setGpuFault(GpuFault fault) {
  faultOverride() = fault;
}

GpuFault gpuFault() {
  if (faultOverride()) return *faultOverride();
  const QByteArray v = qgetenv("ROPESCOPE_GPU_FAULT");
  if (v == "no-context") return GpuFault::NoContext;
  if (v == "shader-compile") return GpuFault::ShaderCompile;
  if (v == "context-lost") return GpuFault::ContextLost;
  if (v == "driver-error") return GpuFault::DriverError;
  return GpuFault::None;
}

std::string fallbackReason(const AttentionBackend& backend) {
  const auto* f = dynamic_cast<const FallbackBackend*>(&backend);
  return f ? f->reason() : std::string();
}

std::string fallbackNote(const AttentionBackend& backend) {
  const std::string r = fallbackReason(backend);
  return r.empty() ? r : "GPU failed (" + r + "); using the CPU";
}

BackendSelection selectAttentionBackend(BackendChoice choice, int cpuThreads) {
  if (choice == BackendChoice::Cpu) return {makeCpuAttentionBackend(cpuThreads), {}, {}, false};
  std::string why;
  bool noDisplay = false;
  auto g = makeGpuAttentionBackend(&why, &noDisplay);
  if (!g) return {makeCpuAttentionBackend(cpuThreads), gpuUnavailableNote(why), why, !noDisplay};
  // auto on a software rasterizer: Mesa's llvmpipe ran a 16k-token heatmap in 54 s where the
  // CPU backend took 1.1 s (Xvfb, 2 cores), so auto means the CPU there; gpu still forces it.
  if (choice == BackendChoice::Auto && gpuFault() == GpuFault::None)
    for (const char* software : {"llvmpipe", "softpipe"})
      if (g->description().find(software) != std::string::npos)
        return {makeCpuAttentionBackend(cpuThreads),
                std::string("the GPU is a software renderer (") + software +
                    "): using the CPU, which is faster (the gpu backend forces it)",
                std::string("software renderer ") + software, false};
  return {std::make_unique<FallbackBackend>(std::move(g), cpuThreads), {}, {}, false};
}

}  // namespace ropescope::gpu
