// Small helpers over PositionIds: token selections and names used in output.
#include "ropescope/position_ids.h"

namespace ropescope {

std::vector<std::size_t> PositionIds::textIndices() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].modality == Modality::Text) out.push_back(i);
  return out;
}

std::vector<std::size_t> PositionIds::visualIndices() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].modality == Modality::Image || tokens[i].modality == Modality::Video)
      out.push_back(i);
  return out;
}

std::vector<std::size_t> PositionIds::audioIndices() const {
  return indicesOf(Modality::Audio);
}

std::vector<std::size_t> PositionIds::indicesOf(Modality m) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].modality == m) out.push_back(i);
  return out;
}

const char* modalityName(Modality m) {
  switch (m) {
    case Modality::Text:
      return "text";
    case Modality::Image:
      return "image";
    case Modality::Video:
      return "video";
    case Modality::Audio:
      return "audio";
  }
  return "?";
}

const char* metricSpaceName(MetricSpace s) {
  switch (s) {
    case MetricSpace::Line:
      return "line";
    case MetricSpace::Plane:
      return "plane";
    case MetricSpace::Space:
      return "space";
    case MetricSpace::FourMaps:
      return "four-maps";
  }
  return "?";
}

}  // namespace ropescope
