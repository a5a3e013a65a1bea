// The visual tokens of picture segments drawn as textured tiles in the 3-D view: each tile shows
// its factor x factor patch of the resized picture, at the token's position id.
#pragma once

#include <QString>
#include <QStringList>

#include <array>
#include <map>
#include <vector>

#include <vtkSmartPointer.h>

#include "ropescope/layout.h"
#include "ropescope/position_ids.h"

class vtkActor;
class vtkCamera;
class vtkPolyData;
class vtkRenderer;
class vtkTexture;

namespace ropescope::ui {

enum class TileFacing { Camera, RingPlane };

class PictureTiles {
 public:
  explicit PictureTiles(vtkRenderer* renderer);
  ~PictureTiles();
  PictureTiles(const PictureTiles&) = delete;
  PictureTiles& operator=(const PictureTiles&) = delete;

  // One actor per picture (per shown frame of a video), textured with that picture as an
  // atlas. Tokens of segments without files, or whose files cannot be decoded, get no tile.
  void setContent(const PositionIds& ids, const Layout& layout);
  void setFacing(TileFacing facing);
  TileFacing facing() const { return facing_; }
  void setOpacity(double opacity);
  // Re-aims camera-facing tiles; cheap, called before every frame (only acts when the camera
  // moved).
  void followCamera(vtkCamera* camera);

  // Whether token `token` (index into the ids) is drawn as a tile. Tiles never meet: a token
  // whose tile would meet an earlier one's (where tokens crowd) is drawn as a point instead.
  bool covers(long token) const;
  // Tokens of the shown pictures; drawnTileCount() of them are tiles, the rest (crowded) points.
  int tileCount() const;
  int drawnTileCount() const;
  int textureCount() const { return static_cast<int>(groups_.size()); }
  // The corners of every drawn tile as placed for the last camera (4 per tile; for tests).
  std::vector<std::array<std::array<double, 3>, 4>> tileCorners() const;
  // Why a picture could not be shown (decode errors), one line per picture; empty if none.
  const QStringList& problems() const { return problems_; }

 private:
  struct Group {
    std::vector<long> tokens;  // token indices, one tile each
    int rows = 1, cols = 1;
    double half = 0.5;        // half the tiles' edge in id units (from the tokens' spacing)
    std::vector<char> shown;  // per token: drawn as a tile (else as a point: too crowded)
    bool planar = false;      // lies in its own plane (RingPlane and the plane is well defined)
    double right[3] = {0, 0, 1}, up[3] = {0, 1, 0};  // in-plane axes when planar
    vtkSmartPointer<vtkPolyData> data;
    vtkSmartPointer<vtkActor> actor;
  };
  void orient(Group& g);
  void markCovered(Group& g);
  void placeQuads(Group& g, const double right[3], const double up[3]);
  vtkSmartPointer<vtkTexture> textureFor(const SegmentSource& source, int frame, QString* error);

  vtkRenderer* renderer_;
  PositionIds ids_;
  std::vector<Group> groups_;
  std::vector<char> covered_;
  // Uploaded atlases by file, frame and size: selection changes rebuild geometry only.
  std::map<QString, vtkSmartPointer<vtkTexture>> textures_;
  QStringList problems_;
  TileFacing facing_ = TileFacing::Camera;
  double opacity_ = 1.0;
  unsigned long cameraTime_ = 0;
  vtkCamera* lastCamera_ = nullptr;
};

}  // namespace ropescope::ui
