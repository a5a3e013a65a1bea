#include "attention/token_name.h"

#include <algorithm>

#include <QCoreApplication>

namespace ropescope::ui {

QString attentionTokenName(const std::vector<TokenInfo>& tokens, std::size_t token) {
  const auto tr = [](const char* text) {
    return QCoreApplication::translate("ropescope::ui::AttentionView", text);
  };
  if (token >= tokens.size()) return tr("token %1").arg(token);
  const TokenInfo& t = tokens[token];
  // A text token by its index among the text tokens and its place in the sequence, as the
  // formulas, the charts and the status bar name the selected one ("text token 11 (#47)").
  if (t.modality == Modality::Text) {
    const auto before =
        std::count_if(tokens.begin(), tokens.begin() + std::ptrdiff_t(token),
                      [](const TokenInfo& o) { return o.modality == Modality::Text; });
    return tr("text token %1 (#%2)").arg(before).arg(token);
  }
  QString cell = tr("row %1, col %2").arg(t.row).arg(t.col);
  if (t.modality == Modality::Video) cell = tr("t %1, ").arg(t.frame) + cell;
  return tr("token %1 (%2, segment %3, %4)")
      .arg(token)
      .arg(QString::fromUtf8(modalityName(t.modality)))
      .arg(t.segment)  // from 0, as the 3-D view and the CLI's segment column count
      .arg(cell);
}

}  // namespace ropescope::ui
