// The table commands (ids, ptd, bias, decay, freqs: the shared options in, one JSON or CSV
// table out, a few lines each over core) and the output paths every subcommand writes through.
#include "cli_commands.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <unistd.h>

#include "command_table.h"
#include "ropescope/atomic_file.h"
#include "ropescope/check_ids.h"
#include "ropescope/decay.h"
#include "ropescope/errors.h"
#include "ropescope/id_cloud.h"
#include "ropescope/position_design.h"
#include "ropescope/progress.h"
#include "ropescope/report.h"
#include "ropescope/scene_metrics.h"

namespace ropescope::cli {

namespace {
PositionIds sceneIds(const Scene& scene) {
  return effectiveIds(scene);
}
// Token id and role of every token, when the layout came from --tokens.
std::vector<TokenLabel> tokenLabels(const Request& r, const PositionIds& ids) {
  std::vector<TokenLabel> out;
  if (r.tokenIds.size() != ids.size()) return out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const TokenInfo& t = ids.tokens[i];
    const Segment& seg = r.scene.layout.segments.at(static_cast<std::size_t>(t.segment));
    std::string role = seg.kind == SegmentKind::Image    ? "image"
                       : seg.kind == SegmentKind::Video  ? "video"
                       : seg.kind == SegmentKind::Audio  ? "audio"
                       : seg.role == TextRole::Special   ? "special"
                       : seg.role == TextRole::Timestamp ? "timestamp"
                                                         : "text";
    out.push_back({r.tokenIds[i], role});
  }
  return out;
}
// An undefined PTD or bias spread is bad input here. A layout whose only other tokens are
// audio (a sound between text) gets the option that measures them.
[[noreturn]] void undefinedMetric(const std::string& reason, const Request& r) {
  const std::size_t audio = r.scene.layout.audioCount();
  if (r.groups.isDefault() && audio > 0 && r.scene.layout.visualCount() == 0)
    throw InputError(reason + "; to measure text to the " +
                         countOf(static_cast<long long>(audio), "audio token") + ": --to audio",
                     "layout");
  throw InputError(reason, "layout");
}
}  // namespace

namespace {
// Set by SIGINT while a metric runs; the metric's cancel callback reads it.
volatile std::sig_atomic_t interrupted = 0;
extern "C" void onInterrupt(int) {
  interrupted = 1;
}

// While alive: SIGINT cancels the running metric (it then throws Cancelled, and main says so)
// instead of killing the process; the previous handler comes back afterwards.
class InterruptCancels {
 public:
  InterruptCancels() {
    interrupted = 0;
    previous_ = std::signal(SIGINT, onInterrupt);
  }
  ~InterruptCancels() { std::signal(SIGINT, previous_ == SIG_ERR ? SIG_DFL : previous_); }
  InterruptCancels(const InterruptCancels&) = delete;
  InterruptCancels& operator=(const InterruptCancels&) = delete;

 private:
  void (*previous_)(int) = SIG_DFL;
};

// The metric's Progress: Ctrl-C cancels; with --progress, "ropescope: ptd 37%" lines on stderr.
Progress commandProgress(const Request& r, const std::string& metric) {
  Progress p;
  p.cancel = [] { return interrupted != 0; };
  if (r.progress)
    p.report = [metric](double f) {
      std::cerr << "ropescope: " << metric << " " << static_cast<int>(f * 100.0 + 1e-9) << "%\n";
    };
  return p;
}

// The frame of the five table commands: parse the shared options, answer --help, say the
// input's warnings, then `write` the result.
int runTableCommand(Command command, const std::vector<std::string>& args,
                    void (*write)(const Request&)) {
  const Request request = parseArguments(command, args);
  if (request.help) {
    std::cout << commandHelp(command);
    return 0;
  }
  printInputWarnings(request);
  write(request);
  return 0;
}

void writeIdsTable(const Request& r) {
  PositionIds ids = sceneIds(r.scene);
  // A row of a tokens file: rope_delta as the release returns it (up to 5.2 the padding counts:
  // pad 3, text 2, image 4 x 3, text 2 gives -11 under 4.57.1, -8 from 5.3.0).
  if (familyOfDesign(r.scene.design) && !r.tokenKept.empty()) {
    const auto rules = static_cast<RuleSet>(
        r.scene.designParams.get("rules", findDesign(r.scene.design).parameters()));
    ids.ropeDelta = returnedRopeDelta(r.scene, rules, ids, r.tokenKept.size());
  }
  // --out cloud.ply / cloud.gltf: the id cloud as a 3-D file (id_cloud.h), by the extension.
  if (const auto cloud = cloudFormatOfPath(r.out)) {
    const std::string bytes = idCloud(ids, *cloud);
    writeFileAtomically(r.out, {ByteSpan{bytes.data(), bytes.size()}}, "out");
    return;
  }
  if (r.format == TableFormat::Npy && r.out.empty() && isatty(STDOUT_FILENO))
    throw InputError("--format npy writes binary data: give --out FILE.npy or redirect stdout",
                     "format");
  const std::vector<TokenLabel> labels = tokenLabels(r, ids);
  writeStreamed(r.out,
                [&](const ReportSink& sink) { writeIdsReport(ids, r.format, labels, sink); });
}

// The metric under SIGINT's cancel; the report is written after the handler is back.
ReportText ptdTableText(const Request& r) {
  const PositionIds ids = sceneIds(r.scene);
  const InterruptCancels interrupts;
  const PtdResult ptd =
      perTokenDistance(ids, r.threads, r.groups, commandProgress(r, commandName(r.command)));
  if (!ptd.defined()) undefinedMetric(ptd.undefinedReason, r);
  return ptdReport(ptd, ids, r.format, r.groups);
}

void writePtdTable(const Request& r) {
  writeOutput(ptdTableText(r).view(), r.out);
}

ReportText biasTableText(const Request& r) {
  const PositionIds ids = sceneIds(r.scene);
  const InterruptCancels interrupts;
  const BiasResult bias = biasSpread(ids, resolvePairs(r.scene.frequency), r.threads, r.groups,
                                     commandProgress(r, commandName(r.command)));
  if (!bias.defined()) undefinedMetric(bias.undefinedReason, r);
  return biasReport(bias, ids, r.format, r.groups);
}

void writeBiasTable(const Request& r) {
  writeOutput(biasTableText(r).view(), r.out);
}

void writeDecayTable(const Request& r) {
  const PairTable pairs = resolvePairs(r.scene.frequency);
  const auto bound = decayCurve(pairs, r.direction, r.maxDistance,
                                r.subsetForm ? DecayForm::Subset : DecayForm::Full, r.threads);
  const DiscriminationBound discrimination =
      discriminationBoundAlong(pairs, r.direction, r.subsetForm);
  writeOutput(decayReport(bound, r.format, r.threads, &discrimination).view(), r.out);
}

void writeFreqsTable(const Request& r) {
  const PairTable pairs = resolvePairs(r.scene.frequency);
  writeOutput(freqsReport(wavelengths(pairs, r.contextLength), r.contextLength, r.format,
                          pairs.layout, &pairs),
              r.out);
}
}  // namespace

int runIdsCommand(const std::vector<std::string>& args) {
  return runTableCommand(kIds, args, writeIdsTable);
}
int runPtdCommand(const std::vector<std::string>& args) {
  return runTableCommand(kPtd, args, writePtdTable);
}
int runBiasCommand(const std::vector<std::string>& args) {
  return runTableCommand(kBias, args, writeBiasTable);
}
int runDecayCommand(const std::vector<std::string>& args) {
  return runTableCommand(kDecay, args, writeDecayTable);
}
int runFreqsCommand(const std::vector<std::string>& args) {
  return runTableCommand(kFreqs, args, writeFreqsTable);
}

void writeOutput(std::string_view text, const std::string& path) {
  if (path.empty()) {
    errno = 0;
    std::cout << text;
    std::cout.flush();
    if (std::cout && std::fflush(stdout) == 0) return;
    const int error = errno;  // of the write that failed (ENOSPC for > /dev/full)
    throw InputError(std::string("cannot write the standard output") +
                     (error ? std::string(" (") + std::strerror(error) + ")" : std::string()));
  }
  writeFileAtomically(path, {ByteSpan{text.data(), text.size()}}, "out");
}

void writeStreamed(const std::string& path, const std::function<void(const ReportSink&)>& produce) {
  if (path.empty()) {
    produce([](std::string_view piece) {
      errno = 0;
      if (std::fwrite(piece.data(), 1, piece.size(), stdout) == piece.size()) return;
      const int error = errno;
      throw InputError(std::string("cannot write the standard output") +
                       (error ? std::string(" (") + std::strerror(error) + ")" : std::string()));
    });
    errno = 0;
    if (std::fflush(stdout) == 0) return;
    const int error = errno;  // of the write that failed (ENOSPC for > /dev/full)
    throw InputError(std::string("cannot write the standard output") +
                     (error ? std::string(" (") + std::strerror(error) + ")" : std::string()));
  }
  OutputFile file(path, "out");
  produce([&file](std::string_view piece) { file.write(piece.data(), piece.size()); });
  file.commit();
}

void printInputWarnings(const Request& request, const std::vector<std::string>& more) {
  std::vector<std::string> all = more;
  all.insert(all.end(), request.inputNotes.begin(), request.inputNotes.end());
  all.insert(all.end(), request.tokenWarnings.begin(), request.tokenWarnings.end());
  for (const std::string& w : layoutWarnings(request.scene.layout))
    if (std::find(all.begin(), all.end(), w) == all.end()) all.push_back(w);
  for (const std::string& w : all) std::cerr << "ropescope: warning: " << w << "\n";
}

}  // namespace ropescope::cli
