// JSON and CSV renderings of core results, shared by the CLI and the GUI's data export.
// Doubles are written shortest-round-trip so they read back bit-exact.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ropescope/frequency_plan.h"
#include "ropescope/metrics.h"
#include "ropescope/position_ids.h"
#include "ropescope/report_text.h"
#include "ropescope/rope_bounds.h"
#include "ropescope/wavelengths.h"

namespace ropescope {

// Npy: an array report as a .npy file (ids: [N, 3] float64 t, h, w); the table reports are
// json or csv only (the CLI refuses npy for them).
enum class TableFormat { Json, Csv, Npy };
TableFormat parseTableFormat(const std::string& name);  // "json" | "csv" | "npy", InputError

// Shortest decimal that reads back to the same double ("nan"/"inf" never occur in results).
std::string formatDouble(double v);
// A number as a CSV cell: empty where it is undefined (NaN, infinite: JSON's null), a whole
// number below 2^53 in integer digits ("100000", where formatDouble writes "1e+05", so a
// column of whole numbers reads back with int()), anything else as formatDouble.
std::string csvNumber(double v);
// A number for a person to read in a text report: a whole number below 2^53 in digits, anything
// else to `significant` significant digits ("%.6g"); "nan" and "inf" as printf writes them.
std::string readableNumber(double v, int significant = 6);

// What each token of a model's token sequence is (ids --tokens): its token id and role ("text",
// "special", "timestamp", "image", "video"); the listing gains token_id and role columns.
struct TokenLabel {
  long long tokenId = -1;
  std::string role;
};
// Receives a long report piece by piece (about 1 MiB at a time), in order.
using ReportSink = std::function<void(std::string_view)>;
// The ids listing (ids_report.cpp): JSON with one token per line, CSV with one row per token, or
// the [N, 3] float64 .npy of (t, h, w). Written to `sink` as it is formatted, so a listing of
// millions of tokens is never held whole.
void writeIdsReport(const PositionIds& ids, TableFormat f, const std::vector<TokenLabel>& labels,
                    const ReportSink& sink);
std::string idsReport(const PositionIds& ids, TableFormat f);  // the same, as one string
std::string idsReport(const PositionIds& ids, TableFormat f, const std::vector<TokenLabel>& labels);
// The groups the metric ran between (text -> visual by default) are named in the JSON ("from",
// "to"); the CSV's first column is "<from>_index" and "token" the from-token's index.
std::string ptdReport(const PtdResult& ptd, const PositionIds& ids, TableFormat f,
                      GroupPair groups = {});
std::string biasReport(const BiasResult& bias, const PositionIds& ids, TableFormat f,
                       GroupPair groups = {});
// bound[r] at distance r; threads: as the metrics (0 = every core), the text is the same for
// any count.
// JSON also gives the discrimination bound along the curve's direction (rope_bounds.h), when
// one is passed: "discrimination_bound" (null with "discrimination_undefined" without a value).
ReportText decayReport(const std::vector<double>& bound, TableFormat f, int threads = 1,
                       const DiscriminationBound* discrimination = nullptr);
// JSON also names the pair layout (CSV: each row has the two dims its pair rotates).
// With `table` carrying a rope scaling (PairTable::ropeType), each pair also gives its theta
// before scaling, what the scaling did to it and transformers' float32 inv_freq; the JSON adds
// a "rope" object: type, attention_factor, logit_scale (its square), the per-axis counts of
// unchanged / ramped / scaled / not rotated pairs and, for dynamic and longrope, the switch.
std::string freqsReport(const std::vector<PairWavelength>& pairs, double contextLength,
                        TableFormat f, PairLayout layout = PairLayout::NeoX,
                        const PairTable* table = nullptr);

}  // namespace ropescope
