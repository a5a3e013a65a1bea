// The design-principles verdicts (principles.h) written out: a text a person reads (one block
// per row, then a table of the verdicts side by side) or JSON (every number, every reason).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "ropescope/principles.h"
#include "ropescope/report_grid.h"

namespace ropescope {

// How `ropescope principles` prints (--format text|json, default text).
enum class PrinciplesFormat { Text, Json };
// "text" | "json"; anything else throws InputError naming the two.
PrinciplesFormat parsePrinciplesFormat(const std::string& name);

// Which rows `ropescope principles --designs` judges: the scene's design, every design of the
// registry, or the Revisiting paper's rows (principles.h).
enum class PrinciplesRows { Scene, All, Revisiting };
// "scene" | "all" | "revisiting"; anything else throws InputError naming the three.
PrinciplesRows parsePrinciplesRows(const std::string& name);
std::vector<PrinciplesVerdict> principlesRows(const Scene& scene, PrinciplesRows rows);

// The three cells of a row as a figure shows them: the verdict's number in a few words
// (coherence: the first overlap or the smallest modality interval; frequency: the one index's
// share or the smallest share of an axis the ids use; text prior: the largest chord on text
// alone), "n/a" where it is undefined.
std::array<std::string, 3> principlesCells(const PrinciplesVerdict& row);

// The verdicts side by side as the desktop app's Principles tab shows them, one column per row
// of `rows`: each principle's verdict line (its mark, the number principlesCells gives, the
// reason as the note) and the lines of the text report under it (overlapping text, the modality
// interval, the id growth; each axis's share of the spectrum, the one index's; the text prior on
// the scene's text and on text alone). n/a with the reason where a value is undefined, and where
// a row's plan has no such axis.
ReportGrid principlesGrid(const std::vector<PrinciplesVerdict>& rows);

// An undefined value is written as n/a with its reason (text) or null plus a reason (JSON),
// never as 0.
std::string principlesReport(const std::vector<PrinciplesVerdict>& rows, PrinciplesFormat format);

}  // namespace ropescope
