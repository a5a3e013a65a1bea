// The q/k usage (qk_usage.h) written out: a text a person reads (the pairs averaged over heads,
// each head's most used pairs, the sinks per head), JSON (every number) or CSV (the pair table).
#pragma once

#include <string>

#include "ropescope/qk_usage.h"

namespace ropescope {

struct Scene;

// How `ropescope qk-usage` prints (--format text|json|csv, default text).
enum class QkUsageFormat { Text, Json, Csv };
// "text" | "json" | "csv"; anything else throws InputError naming the accepted three.
QkUsageFormat parseQkUsageFormat(const std::string& name);

// The scene names the design and plan. CSV holds one row per (head, pair) and per pair the
// mean over heads (head "mean"); the sinks are in text and JSON. No picture: its sinks are n/a
// with the reason (text), a "pictures_undefined" reason and no picture column (JSON), never 0.
std::string qkUsageReport(const Scene& scene, const QkUsage& usage, QkUsageFormat format);

}  // namespace ropescope
