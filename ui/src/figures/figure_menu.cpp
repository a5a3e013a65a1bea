#include "figures/figure_menu.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStatusBar>
#include <QWidget>

#include <algorithm>

#include "figures/figure_presets.h"
#include "figures/figure_views.h"
#include "model/scene_model.h"
#include "picture/picture_view.h"
#include "platform/file_dialogs.h"
#include "ropescope/errors.h"
#include "sound/sound_view.h"
#include "teaching/phasor_view.h"

namespace ropescope::ui {

namespace {

QString formatFilter(const std::string& f) {
  static const std::pair<const char*, const char*> names[] = {{"png", "PNG image"},
                                                              {"svg", "SVG vector"},
                                                              {"pdf", "PDF vector"},
                                                              {"csv", "CSV data"},
                                                              {"json", "JSON data"},
                                                              {"ply", "PLY point cloud"},
                                                              {"gltf", "glTF 2.0 point cloud"}};
  for (const auto& [ext, name] : names)
    if (f == ext) return QStringLiteral("%1 (*.%2)").arg(QLatin1String(name), QLatin1String(ext));
  return QStringLiteral("*.%1").arg(QString::fromStdString(f));
}

}  // namespace

FigureMenu::FigureMenu(SceneModel* model, QWidget* window)
    : QObject(window), model_(model), window_(window) {}

void FigureMenu::fillExportMenu(QMenu* menu) {
  for (const FigureView& v : figureViews()) {
    const std::string name = v.name;
    QAction* a =
        menu->addAction(QString::fromUtf8("%1\xe2\x80\xa6").arg(QString::fromStdString(name)), this,
                        [this, name] { exportView(name); });
    a->setToolTip(QString::fromStdString(v.description));
    a->setObjectName(QStringLiteral("export_%1").arg(QString::fromStdString(name)));
  }
  menu->addSeparator();
  QAction* titles = menu->addAction(tr("Figure &titles"));
  titles->setCheckable(true);
  titles->setChecked(options_.title);
  connect(titles, &QAction::toggled, this, [this](bool on) { options_.title = on; });
  QAction* legends = menu->addAction(tr("Figure &legends"));
  legends->setCheckable(true);
  legends->setChecked(options_.legend);
  connect(legends, &QAction::toggled, this, [this](bool on) { options_.legend = on; });
  menu->addAction(tr("Figure &size\xe2\x80\xa6"), this, [this] {
    // Asked again, with what was typed, until the size is accepted or the dialog cancelled: a
    // bad size closed it and the user had to find the menu again.
    QString text = QStringLiteral("%1x%2").arg(options_.size.width()).arg(options_.size.height());
    for (;;) {
      bool ok = false;
      text = QInputDialog::getText(
          window_, tr("Figure size"),
          tr("Pixels WxH (16..8192 each) and optional scale, e.g. 1050x750 or 2100x1500@4:"),
          QLineEdit::Normal, text, &ok);
      if (!ok) return;
      static const QRegularExpression re(QStringLiteral("^(\\d+)x(\\d+)(?:@([0-9.]+))?$"));
      const auto m = re.match(text.trimmed());
      FigureOptions next = options_;
      try {
        if (!m.hasMatch())
          throw InputError("size must be WxH or WxH@SCALE (got \"" + text.toStdString() + "\")");
        next.size = QSize(m.captured(1).toInt(), m.captured(2).toInt());
        next.scale = m.captured(3).isEmpty() ? 0.0 : m.captured(3).toDouble();
        figure::validate(next);
        options_ = next;
        return;
      } catch (const InputError& e) {
        // The command line's wording ("--size 160x120 is too small") without its flags.
        QString message = QString::fromUtf8(e.what());
        message.replace(QStringLiteral("--size "), QString());
        message.replace(QStringLiteral("--scale "), QStringLiteral("scale "));
        QMessageBox::warning(window_, tr("Figure size"), message);
      }
    }
  });
}

void FigureMenu::fillPresetsMenu(QMenu* menu,
                                 std::function<void(const Scene&, const std::string&)> apply) {
  try {
    for (const FigurePreset& p : figurePresets()) {
      QAction* a = menu->addAction(QString::fromStdString(p.name), this, [this, apply, &p] {
        options_.maxDistance = p.maxDistance;
        apply(p.scene, p.view);
      });
      a->setToolTip(QString::fromStdString(p.title + "\n" + p.figure));
      a->setObjectName(QStringLiteral("preset_%1").arg(QString::fromStdString(p.name)));
    }
  } catch (const InputError& e) {
    menu->addAction(QString::fromUtf8(e.what()))->setEnabled(false);
  }
  menu->setToolTipsVisible(true);
}

void FigureMenu::addContextMenu(QWidget* widget, FigureSurface surface) {
  widget->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(widget, &QWidget::customContextMenuRequested, this,
          [this, widget, surface](QPoint pos) { popup(widget, pos, surface); });
}

void FigureMenu::popup(QWidget* widget, QPoint pos, FigureSurface surface) {
  QMenu menu(widget);
  // Each entry says what it writes (a view's menuText where its bare name does not).
  menu.setToolTipsVisible(true);
  for (const std::string& v : figureViewsOn(surface)) {
    const FigureView& view = findFigureView(v);
    QAction* a = menu.addAction(
        view.menuText ? tr(view.menuText)
                      : tr("Export %1 figure\xe2\x80\xa6").arg(QString::fromStdString(v)),
        this, [this, v] { exportView(v); });
    a->setToolTip(QString::fromStdString(view.description));
  }
  menu.exec(widget->mapToGlobal(pos));
}

void FigureMenu::exportTo(const std::string& view, const QString& path) const {
  model_->flushSummaries();
  FigureOptions o = options_;
  if (findFigureView(view).takesDisplacement && phasorView_) o.phasorDelta = phasorView_->delta();
  if (findFigureView(view).needs == FigureNeed::Picture && pictureView_) {
    o.segment = pictureView_->shownSegment();
    o.selectedVisual = model_->selectedVisual();
  }
  if (findFigureView(view).needs == FigureNeed::Audio && soundView_) {
    o.segment = soundView_->shownSegment();
    o.soundOverlay = soundView_->overlay();
  }
  exportFigure(model_->validScene(), view, path.toStdString(), o);
}

QString FigureMenu::exportView(const std::string& viewName) {
  const FigureView& view = findFigureView(viewName);
  const QString title = tr("Export %1 figure").arg(QString::fromStdString(viewName));
  // What the scene lacks is said before a file name is asked for, not after.
  try {
    checkFigureNeeds(model_->validScene(), view);
  } catch (const InputError& e) {
    const QString add =
        view.needs == FigureNeed::Audio
            ? tr("add a sound with File \xe2\x86\x92 Add sound\xe2\x80\xa6")
        : view.needs == FigureNeed::TextAfterVisual
            ? tr("add a text run after the last picture in the layout")
            : tr("add a picture with File \xe2\x86\x92 Add image\xe2\x80\xa6 (Ctrl+I)");
    QMessageBox::information(window_, title,
                             QStringLiteral("%1: %2.").arg(QString::fromUtf8(e.what()), add));
    return {};
  }
  QStringList filters;
  for (const std::string& f : view.formats) filters << formatFilter(f);
  QString selected = filters.front();
  QString path =
      askSaveFile(window_, FileKind::Figure, title,
                  QStringLiteral("%1.%2").arg(QString::fromStdString(viewName),
                                              QString::fromStdString(view.formats.front())),
                  filters.join(QStringLiteral(";;")), &selected);
  if (path.isEmpty()) return {};
  if (QFileInfo(path).suffix().isEmpty()) {
    const int i = static_cast<int>(filters.indexOf(selected));
    path += QStringLiteral(".") +
            QString::fromStdString(view.formats[static_cast<std::size_t>(std::max(0, i))]);
  }
  try {
    QApplication::setOverrideCursor(Qt::WaitCursor);
    exportTo(viewName, path);
    QApplication::restoreOverrideCursor();
    if (auto* main = qobject_cast<QMainWindow*>(window_))
      main->statusBar()->showMessage(tr("Wrote %1").arg(QDir::toNativeSeparators(path)), 8000);
  } catch (const std::exception& e) {
    QApplication::restoreOverrideCursor();
    QMessageBox::warning(window_, tr("Export"), QString::fromUtf8(e.what()));
    return {};
  }
  return path;
}

}  // namespace ropescope::ui
