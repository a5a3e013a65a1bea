// The positional read-outs (attention_readouts.h) written out: a text a person reads, JSON (every
// number, n/a as null with its reason) or CSV (the visual-fading curve, one row per text token).
#pragma once

#include <string>

#include "ropescope/attention.h"
#include "ropescope/attention_readouts.h"

namespace ropescope {

struct Scene;

// How `ropescope attention --readouts` prints (--format text|json|csv, default text).
enum class ReadoutsFormat { Text, Json, Csv };
// "text" | "json" | "csv"; anything else throws InputError naming the accepted three.
ReadoutsFormat parseReadoutsFormat(const std::string& name);

// The scene names the design and plan, `source` how q/k were made. Undefined values are "n/a"
// with the reason (text), null beside a "..._undefined" reason (JSON) or absent rows (CSV: no
// curve, only its header), never 0.
std::string attentionReadoutsReport(const Scene& scene, const QkSourceSpec& source,
                                    const AttentionReadouts& readouts, ReadoutsFormat format);

}  // namespace ropescope
