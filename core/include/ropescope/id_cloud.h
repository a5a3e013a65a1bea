// The position-id cloud as a 3-D file other tools open (Blender, ParaView, MeshLab, a glTF
// viewer in the browser): one point per token at (x, y, z) = (t, h, w), coloured by modality,
// labelled by its segment. PLY: binary little-endian, double coordinates, per point its colour,
// token index, segment and modality, the segments named in header comments. glTF 2.0: one
// node per segment named after it (a POINTS mesh with float POSITION and COLOR_0, the buffer
// embedded as base64), its first token and count in the mesh's extras.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "ropescope/position_ids.h"

namespace ropescope {

enum class CloudFormat { Ply, Gltf };

// The format an output path asks for by its extension (.ply, .gltf; any case), nullopt for
// any other path.
std::optional<CloudFormat> cloudFormatOfPath(const std::string& path);

// The colour of a modality's points, 0..255 RGB: the app's (ui/src/style/modality_colors.h,
// python/ropescope/_plots.py) for image, video and audio, text dark grey as the figures draw it.
std::array<unsigned char, 3> modalityColour(Modality m);

// What the run of `count` tokens from `first` (one segment) is called:
// "segment 1: image 4x6 (tokens 8..31)".
std::string cloudSegmentName(const PositionIds& ids, std::size_t first, std::size_t count);

// The file's bytes. Throws InputError for no tokens.
std::string idCloud(const PositionIds& ids, CloudFormat format);

}  // namespace ropescope
