// The id budget (id_budget.h) written out: a text a person reads, JSON (the totals, the axes,
// the switch, the YaRN factors and the curve) or CSV (the curve, one row per point).
#pragma once

#include <string>

#include "ropescope/id_budget.h"
#include "ropescope/report.h"
#include "ropescope/report_grid.h"

namespace ropescope {

// How `ropescope budget` prints (--format text|json|csv, default text).
enum class BudgetFormat { Text, Json, Csv };
// "text" | "json" | "csv"; anything else throws InputError naming the accepted three.
BudgetFormat parseBudgetFormat(const std::string& name);

// The budget as the desktop app's Budget tab shows it, the cells written as the text report
// writes them (n/a with the reason where undefined):
// - per axis (one column each: t, h, w, then h+w-t where the plan uses it): the largest relative
//   distance, it over the trained length, the share of pairs outside the trained range, the
//   discrimination bound and whether the distance stays within it;
// - the whole sequence (one column): tokens, the largest id, rope_deltas, ids per token, the
//   trained length, the YaRN factors that would cover the layout, the scene's own rope factor,
//   the dynamic switch.
ReportGrid budgetAxisGrid(const IdBudget& budget);
ReportGrid budgetTotalsGrid(const IdBudget& budget);

// An undefined value is written as n/a with its reason (text), null plus a "*_undefined"
// reason (JSON) or an empty cell (CSV), never as 0.
std::string idBudgetReport(const IdBudget& budget, BudgetFormat format);

}  // namespace ropescope
