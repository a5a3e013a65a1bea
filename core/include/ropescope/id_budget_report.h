// The id budget (id_budget.h) written out: a text a person reads, JSON (the totals, the axes,
// the switch, the YaRN factors and the curve) or CSV (the curve, one row per point).
#pragma once

#include <string>

#include "ropescope/id_budget.h"
#include "ropescope/report.h"

namespace ropescope {

// How `ropescope budget` prints (--format text|json|csv, default text).
enum class BudgetFormat { Text, Json, Csv };
// "text" | "json" | "csv"; anything else throws InputError naming the accepted three.
BudgetFormat parseBudgetFormat(const std::string& name);

// An undefined value is written as n/a with its reason (text), null plus a "*_undefined"
// reason (JSON) or an empty cell (CSV), never as 0.
std::string idBudgetReport(const IdBudget& budget, BudgetFormat format);

}  // namespace ropescope
