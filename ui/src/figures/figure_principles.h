// The design-principles figure (view "principles"): one row per design, one column per principle
// of arXiv 2510.23095 (position coherence, frequency use, textual prior), each cell coloured by
// its verdict and labelled with the number behind it. Core computes every verdict and number
// (principles.h, principles_report.h principlesCells); this only draws them.
#pragma once

#include <QPainter>
#include <QSizeF>

#include <vector>

#include "figures/figure_style.h"
#include "ropescope/principles.h"

namespace ropescope::ui {

void paintPrinciplesFigure(QPainter& p, QSizeF logical, const std::vector<PrinciplesVerdict>& rows,
                           const FigureOptions& o);

}  // namespace ropescope::ui
