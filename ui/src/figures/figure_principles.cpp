#include "figures/figure_principles.h"

#include <algorithm>

#include "ropescope/principles_report.h"

namespace ropescope::ui {

namespace {

QColor verdictColor(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return QColor(120, 190, 120);
    case Verdict::Fail:
      return QColor(225, 110, 100);
    case Verdict::Undefined:
      break;
  }
  return QColor(200, 200, 200);
}

}  // namespace

void paintPrinciplesFigure(QPainter& p, QSizeF logical, const std::vector<PrinciplesVerdict>& rows,
                           const FigureOptions& o) {
  p.fillRect(QRectF(QPointF(0, 0), logical), Qt::white);
  p.setPen(figure::foreground());
  const double margin = 6.0;
  double top = margin;
  if (o.title) {
    const double h = logical.height() * 0.08;
    figure::drawFittedText(p, QRectF(margin, top, logical.width() - 2 * margin, h),
                           figure::Text::Title,
                           QStringLiteral("Design principles (arXiv 2510.23095)"));
    top += h;
  }
  const double headerH = logical.height() * 0.07;
  const double labelW = logical.width() * 0.25;
  const double colW = (logical.width() - labelW - 2 * margin) / 3.0;
  const QString names[3] = {QStringLiteral("position coherence"), QStringLiteral("frequency use"),
                            QStringLiteral("textual prior")};
  for (int j = 0; j < 3; ++j)
    figure::drawFittedText(p, QRectF(margin + labelW + j * colW, top, colW, headerH),
                           figure::Text::Label, names[j]);
  top += headerH;
  const double rowH = (logical.height() - top - margin) /
                      static_cast<double>(std::max<std::size_t>(1, rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const PrinciplesVerdict& r = rows[i];
    const double y = top + static_cast<double>(i) * rowH;
    figure::drawFittedText(p, QRectF(margin, y, labelW - 4, rowH), figure::Text::Label,
                           QString::fromStdString(r.label));
    const Verdict verdicts[3] = {r.coherence.verdict, r.frequency.verdict, r.text.verdict};
    const std::array<std::string, 3> cells = principlesCells(r);
    for (int j = 0; j < 3; ++j) {
      const QRectF cell(margin + labelW + j * colW + 1.5, y + 1.5, colW - 3, rowH - 3);
      p.fillRect(cell, verdictColor(verdicts[j]));
      figure::drawFittedText(p, QRectF(cell.left(), cell.top(), cell.width(), cell.height() * 0.55),
                             figure::Text::Label, QString::fromLatin1(verdictName(verdicts[j])));
      figure::drawFittedText(
          p,
          QRectF(cell.left(), cell.top() + cell.height() * 0.45, cell.width(), cell.height() * 0.5),
          figure::Text::Legend, QString::fromStdString(cells[static_cast<std::size_t>(j)]));
    }
  }
}

}  // namespace ropescope::ui
