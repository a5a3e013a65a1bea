// numpy arrays over C++ results without a copy: the vector moves into a capsule that the array
// owns, and numpy frees it with the array.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <array>
#include <utility>
#include <vector>

namespace ropescope::python {

namespace py = pybind11;

template <class T>
py::array_t<T> ownedArray(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  auto* held = new std::vector<T>(std::move(values));
  py::capsule owner(held, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>(std::move(shape), held->data(), owner);
}

// (t, h, w) per token as float64 [N, 3]: std::array<double, 3> is three contiguous doubles.
inline py::array_t<double> idsArray(std::vector<std::array<double, 3>>&& ids) {
  static_assert(sizeof(std::array<double, 3>) == 3 * sizeof(double));
  auto* held = new std::vector<std::array<double, 3>>(std::move(ids));
  py::capsule owner(held,
                    [](void* p) { delete static_cast<std::vector<std::array<double, 3>>*>(p); });
  const auto n = static_cast<py::ssize_t>(held->size());
  return py::array_t<double>({n, py::ssize_t{3}}, reinterpret_cast<const double*>(held->data()),
                             owner);
}

}  // namespace ropescope::python
