#include "picture/picture_tiles.h"

#include <QImage>

#include <algorithm>
#include <cmath>
#include <limits>

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkMath.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkTexture.h>
#include <vtkUnsignedCharArray.h>

#include "picture/picture_source.h"

namespace ropescope::ui {

namespace {

// Atlases above this side are scaled down for the GPU (texture coordinates are fractions, so
// the tiles do not change); llvmpipe and small GPUs stay fast.
constexpr int kMaxAtlasSide = 2048;
// Tiles a little smaller than the room their neighbours leave them: never touching.
constexpr double kTileFill = 0.95;
// The tile edge follows this quantile of the tokens' nearest-neighbour distances: where tokens
// crowd closer (a ring's tokens bunch by angle), tiles are left out, not shrunk to dots.
constexpr double kSpacingQuantile = 0.75;
// Nearest neighbours are searched exactly up to this many tokens per picture, on a sample
// beyond.
constexpr std::size_t kExactSpacing = 8192;
constexpr std::size_t kSpacingSample = 512;

double dist2(const Id3& a, const Id3& b) {
  double s = 0;
  for (int k = 0; k < 3; ++k) s += (a[k] - b[k]) * (a[k] - b[k]);
  return s;
}

void normalize(double v[3]) {
  const double n = vtkMath::Norm(v);
  if (n > 0)
    for (int k = 0; k < 3; ++k) v[k] /= n;
}

// The `kSpacingQuantile` quantile of the tokens' nearest-neighbour distances under `metric`
// (tokens on one point, as under unordered, do not count); 1 when no pair has a distance.
template <typename Metric>
double typicalSpacing(const std::vector<long>& tokens, Metric metric) {
  const std::size_t n = tokens.size();
  const std::size_t step = n <= kExactSpacing ? 1 : std::max<std::size_t>(1, n / kSpacingSample);
  std::vector<double> nearest;
  for (std::size_t i = 0; i < n; i += step) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j) {
      const double d = j == i ? 0.0 : metric(tokens[i], tokens[j]);
      if (d > 1e-9) best = std::min(best, d);
    }
    if (std::isfinite(best)) nearest.push_back(best);
  }
  if (nearest.empty()) return 1.0;
  const auto q = nearest.begin() + static_cast<std::ptrdiff_t>(
                                       kSpacingQuantile * static_cast<double>(nearest.size() - 1));
  std::nth_element(nearest.begin(), q, nearest.end());
  return *q;
}

// One tile edge for the picture and which tokens get a tile: in reading order, a token whose
// tile would meet an earlier one is left to be drawn as a point. `apart(a, b, edge)` says
// whether tiles of that edge at a and b cannot meet. Returns half the edge; `shown[k]` marks
// the tiled tokens.
template <typename Metric, typename Apart>
double placeTiles(const std::vector<long>& tokens, Metric metric, double perSpacing, Apart apart,
                  std::vector<char>* shown) {
  const double edge = kTileFill * perSpacing * typicalSpacing(tokens, metric);
  shown->assign(tokens.size(), 0);
  std::vector<long> placed;
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    bool free = true;
    for (long other : placed)
      if (!apart(tokens[k], other, edge)) {
        free = false;
        break;
      }
    if (!free) continue;
    (*shown)[k] = 1;
    placed.push_back(tokens[k]);
  }
  return edge / 2;
}

}  // namespace

PictureTiles::PictureTiles(vtkRenderer* renderer) : renderer_(renderer) {}

PictureTiles::~PictureTiles() {
  for (Group& g : groups_) renderer_->RemoveActor(g.actor);
}

vtkSmartPointer<vtkTexture> PictureTiles::textureFor(const SegmentSource& source, int frame,
                                                     QString* error) {
  const QString key =
      QStringLiteral("%1|%2|%3|%4x%5")
          .arg(QString::fromStdString(source.path))
          .arg(source.frames.empty() ? QString() : QString::fromStdString(source.frames[0]))
          .arg(frame)
          .arg(source.resizedWidth)
          .arg(source.resizedHeight);
  if (auto it = textures_.find(key); it != textures_.end()) return it->second;
  QImage image = resizedPictureFrame(source, frame, error);
  if (image.isNull()) return nullptr;
  if (image.width() > kMaxAtlasSide || image.height() > kMaxAtlasSide)
    image =
        image.scaled(kMaxAtlasSide, kMaxAtlasSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  // VTK's image rows run bottom-up.
  image = image.convertToFormat(QImage::Format_RGB888).mirrored(false, true);
  auto data = vtkSmartPointer<vtkImageData>::New();
  data->SetDimensions(image.width(), image.height(), 1);
  data->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
  auto* dst = static_cast<unsigned char*>(data->GetScalarPointer());
  for (int y = 0; y < image.height(); ++y)
    std::copy_n(image.constScanLine(y), 3 * image.width(), dst + 3LL * image.width() * y);
  auto texture = vtkSmartPointer<vtkTexture>::New();
  texture->SetInputData(data);
  texture->InterpolateOn();
  texture->EdgeClampOn();
  textures_[key] = texture;
  return texture;
}

void PictureTiles::setContent(const PositionIds& ids, const Layout& layout) {
  for (Group& g : groups_) renderer_->RemoveActor(g.actor);
  groups_.clear();
  problems_.clear();
  // Fresh copies, not assignment: that would keep a huge scene's capacity after it.
  ids_ = PositionIds(ids);
  covered_ = std::vector<char>(ids.size(), 0);
  lastCamera_ = nullptr;

  // Tokens of each (segment, temporal patch).
  std::map<std::pair<int, int>, std::vector<long>> members;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const TokenInfo& t = ids.tokens[i];
    if (t.modality == Modality::Text) continue;
    if (t.segment < 0 || t.segment >= static_cast<int>(layout.segments.size())) continue;
    if (!layout.segments[t.segment].source.isPicture()) continue;
    members[{t.segment, t.frame}].push_back(static_cast<long>(i));
  }
  std::map<QString, vtkSmartPointer<vtkTexture>> used;
  for (auto& [key, tokens] : members) {
    const Segment& seg = layout.segments[key.first];
    const int frame = seg.kind == SegmentKind::Video ? firstFrameOfPair(key.second) : 0;
    QString error;
    vtkSmartPointer<vtkTexture> texture = textureFor(seg.source, frame, &error);
    if (!texture) {
      if (!problems_.contains(error)) problems_ << error;
      continue;
    }
    Group g;
    g.tokens = tokens;
    g.rows = std::max(1, seg.rows);
    g.cols = std::max(1, seg.cols);
    g.shown.assign(tokens.size(), 1);
    g.data = vtkSmartPointer<vtkPolyData>::New();
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(g.data);
    g.actor = vtkSmartPointer<vtkActor>::New();
    g.actor->SetMapper(mapper);
    g.actor->SetTexture(texture);
    // The picture's own colours: no shading on the tiles.
    g.actor->GetProperty()->LightingOff();
    g.actor->GetProperty()->SetOpacity(opacity_);
    g.actor->SetPickable(false);

    // Topology and texture coordinates are fixed; corner positions follow the facing.
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetNumberOfPoints(4 * static_cast<vtkIdType>(tokens.size()));
    auto quads = vtkSmartPointer<vtkCellArray>::New();
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetNumberOfComponents(2);
    tcoords->SetName("tcoords");
    for (std::size_t k = 0; k < tokens.size(); ++k) {
      const TokenInfo& t = ids.tokens[tokens[k]];
      const float u0 = static_cast<float>(t.col) / g.cols,
                  u1 = static_cast<float>(t.col + 1) / g.cols;
      const float v0 = 1.0f - static_cast<float>(t.row) / g.rows;  // top edge
      const float v1 = 1.0f - static_cast<float>(t.row + 1) / g.rows;
      // Corners: top-left, top-right, bottom-right, bottom-left.
      const float tc[4][2] = {{u0, v0}, {u1, v0}, {u1, v1}, {u0, v1}};
      vtkIdType quad[4];
      for (int c = 0; c < 4; ++c) {
        tcoords->InsertNextTuple(tc[c]);
        quad[c] = static_cast<vtkIdType>(4 * k + c);
      }
      quads->InsertNextCell(4, quad);
    }
    g.data->SetPoints(points);
    g.data->SetPolys(quads);
    g.data->GetPointData()->SetTCoords(tcoords);
    orient(g);
    renderer_->AddActor(g.actor);
    groups_.push_back(std::move(g));
  }
  // Keep only the atlases still in use (a removed picture frees its texture).
  for (const Group& g : groups_)
    for (auto& [k, t] : textures_)
      if (t.Get() == g.actor->GetTexture()) used[k] = t;
  textures_ = std::move(used);
}

// The plane of one picture's tokens (its ring for Circle-RoPE, its (h, w) grid for M-RoPE) and
// the directions of the picture's rows and columns in it. Degenerate pictures (one row, a 1-D
// design) keep facing the camera.
void PictureTiles::orient(Group& g) {
  g.planar = false;
  // Camera-facing tiles share one orientation, whatever it is: squares of edge e cannot meet
  // when their circumscribed spheres do not, centres at least e * sqrt(2) apart.
  const auto euclid = [this](long a, long b) { return std::sqrt(dist2(ids_.ids[a], ids_.ids[b])); };
  g.half = placeTiles(
      g.tokens, euclid, 1.0 / std::sqrt(2.0),
      [&](long a, long b, double edge) { return euclid(a, b) >= edge * std::sqrt(2.0); }, &g.shown);
  markCovered(g);
  if (facing_ != TileFacing::RingPlane || g.tokens.size() < 3) return;
  double mean[3] = {0, 0, 0};
  for (long t : g.tokens)
    for (int k = 0; k < 3; ++k) mean[k] += ids_.ids[t][k] / g.tokens.size();
  double cov[3][3] = {};
  for (long t : g.tokens)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        cov[a][b] += (ids_.ids[t][a] - mean[a]) * (ids_.ids[t][b] - mean[b]);
  double* rows[3] = {cov[0], cov[1], cov[2]};
  double vec[3][3];
  double* vrows[3] = {vec[0], vec[1], vec[2]};
  double eig[3];
  vtkMath::Jacobi(rows, eig, vrows);  // eigenvalues descending, eigenvectors in columns
  if (eig[1] <= 1e-9 * std::max(1.0, eig[0])) return;
  const double normal[3] = {vec[0][2], vec[1][2], vec[2][2]};

  // Picture "up": from the mean of the bottom row to the mean of the top row; "right": from
  // the first column to the last. Both projected into the plane.
  double top[3] = {}, bottom[3] = {}, left[3] = {}, rightSide[3] = {};
  int nt = 0, nb = 0, nl = 0, nr = 0;
  for (long t : g.tokens) {
    const TokenInfo& info = ids_.tokens[t];
    const Id3& p = ids_.ids[t];
    auto add = [&p](double* acc, int& n) {
      for (int k = 0; k < 3; ++k) acc[k] += p[k];
      ++n;
    };
    if (info.row == 0) add(top, nt);
    if (info.row == g.rows - 1) add(bottom, nb);
    if (info.col == 0) add(left, nl);
    if (info.col == g.cols - 1) add(rightSide, nr);
  }
  double up[3], right[3];
  for (int k = 0; k < 3; ++k) {
    up[k] = top[k] / std::max(1, nt) - bottom[k] / std::max(1, nb);
    right[k] = rightSide[k] / std::max(1, nr) - left[k] / std::max(1, nl);
  }
  auto project = [&normal](double v[3]) {
    const double d = vtkMath::Dot(v, normal);
    for (int k = 0; k < 3; ++k) v[k] -= d * normal[k];
  };
  project(up);
  if (vtkMath::Norm(up) < 1e-9) {
    // Rows symmetric about the centre: take the h axis as up, as the picture was drawn.
    up[0] = 0, up[1] = -1, up[2] = 0;
    project(up);
  }
  if (vtkMath::Norm(up) < 1e-9) return;
  normalize(up);
  double side[3];
  vtkMath::Cross(up, normal, side);
  normalize(side);
  // Left-to-right along the columns, so the picture is not mirrored on its tokens.
  if (vtkMath::Dot(side, right) < 0)
    for (double& s : side) s = -s;
  std::copy(side, side + 3, g.right);
  std::copy(up, up + 3, g.up);
  g.planar = true;
  // Tiles in the plane share its axes: two squares meet only when both in-plane offsets are
  // under the mean of their edges, so each edge from its nearest neighbour in that (Chebyshev)
  // distance keeps every pair apart. Tokens off the plane are kept apart by the plane offset.
  const auto chebyshev = [&](long a, long b) {
    double d[3];
    for (int k = 0; k < 3; ++k) d[k] = ids_.ids[a][k] - ids_.ids[b][k];
    if (std::abs(vtkMath::Dot(d, normal)) > 1e-4) return std::numeric_limits<double>::infinity();
    return std::max(std::abs(vtkMath::Dot(d, g.right)), std::abs(vtkMath::Dot(d, g.up)));
  };
  g.half = placeTiles(
      g.tokens, chebyshev, 1.0,
      [&](long a, long b, double edge) { return chebyshev(a, b) >= edge; }, &g.shown);
  markCovered(g);
  placeQuads(g, g.right, g.up);
}

void PictureTiles::placeQuads(Group& g, const double right[3], const double up[3]) {
  vtkPoints* points = g.data->GetPoints();
  const double corner[4][2] = {{-1, 1}, {1, 1}, {1, -1}, {-1, -1}};
  for (std::size_t k = 0; k < g.tokens.size(); ++k) {
    const double h = g.shown[k] ? g.half : 0.0;  // a left-out tile collapses to its centre
    const Id3& c = ids_.ids[g.tokens[k]];
    for (int q = 0; q < 4; ++q) {
      double p[3];
      for (int a = 0; a < 3; ++a)
        p[a] = c[a] + h * (corner[q][0] * right[a] + corner[q][1] * up[a]);
      points->SetPoint(static_cast<vtkIdType>(4 * k + q), p);
    }
  }
  points->Modified();
  g.data->Modified();
}

void PictureTiles::setFacing(TileFacing facing) {
  if (facing == facing_) return;
  facing_ = facing;
  lastCamera_ = nullptr;
  for (Group& g : groups_) orient(g);
}

void PictureTiles::setOpacity(double opacity) {
  opacity_ = opacity;
  for (Group& g : groups_) g.actor->GetProperty()->SetOpacity(opacity);
}

void PictureTiles::followCamera(vtkCamera* camera) {
  if (!camera || groups_.empty()) return;
  if (camera == lastCamera_ && camera->GetMTime() == cameraTime_) return;
  lastCamera_ = camera;
  cameraTime_ = camera->GetMTime();
  double up[3], dir[3], right[3];
  camera->GetViewUp(up);
  camera->GetDirectionOfProjection(dir);
  vtkMath::Cross(dir, up, right);
  normalize(right);
  vtkMath::Cross(right, dir, up);  // exactly perpendicular to the view direction
  normalize(up);
  for (Group& g : groups_)
    if (!g.planar) placeQuads(g, right, up);
}

void PictureTiles::markCovered(Group& g) {
  for (std::size_t k = 0; k < g.tokens.size(); ++k)
    covered_[static_cast<std::size_t>(g.tokens[k])] = g.shown[k];
}

bool PictureTiles::covers(long token) const {
  return token >= 0 && token < static_cast<long>(covered_.size()) && covered_[token];
}

std::vector<std::array<std::array<double, 3>, 4>> PictureTiles::tileCorners() const {
  std::vector<std::array<std::array<double, 3>, 4>> out;
  for (const Group& g : groups_) {
    vtkPoints* points = g.data->GetPoints();
    for (std::size_t k = 0; k < g.tokens.size(); ++k) {
      if (!g.shown[k]) continue;
      std::array<std::array<double, 3>, 4> quad{};
      for (int q = 0; q < 4; ++q)
        points->GetPoint(static_cast<vtkIdType>(4 * k + q),
                         quad[static_cast<std::size_t>(q)].data());
      out.push_back(quad);
    }
  }
  return out;
}

int PictureTiles::tileCount() const {
  int n = 0;
  for (const Group& g : groups_) n += static_cast<int>(g.tokens.size());
  return n;
}

int PictureTiles::drawnTileCount() const {
  int n = 0;
  for (const Group& g : groups_)
    for (char shown : g.shown) n += shown ? 1 : 0;
  return n;
}

}  // namespace ropescope::ui
