// NumPy .npy files: a strict reader (float32 / float16 / float64 -> float32, C order) for q/k
// activations, and float32 / float64 / int64 writers (attention output, rotary tables). Bad files
// raise one-line InputErrors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ropescope {

class OutputFile;

// Largest header accepted. numpy writes 64..128 bytes; anything near this cap is not an array
// header but a corrupt or hostile file, and the header is read before any size is trusted.
inline constexpr std::size_t kNpyMaxHeaderBytes = 65536;
// Largest array read (elements). 2^30 float32 values are 4 GiB: far above one layer's q of a 7B
// model at 32k tokens (28 x 32768 x 128 = 1.2e8), and below what a desktop can hold twice.
inline constexpr std::size_t kNpyMaxElements = std::size_t{1} << 30;

struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<float> data;  // C order, converted to float32
  std::string dtype;        // the file's descr, e.g. "<f4" or "<f2"

  std::size_t elementCount() const { return data.size(); }
};

// Reads a .npy file (format version 1, 2 or 3). Accepts little-endian float32 ("<f4"),
// float16 ("<f2") and float64 ("<f8"), big-endian ones byte-swapped, all converted to float32.
// Throws InputError with one line "<what> "<path>": <problem>" for: a missing file, a wrong magic
// string or version, a header longer than kNpyMaxHeaderBytes or not a numpy dict, an unsupported
// dtype (bfloat16 dumps are 2-byte void/"V2" in numpy: the message says to convert to float32
// first), more than kNpyMaxElements (or maxElements) elements, and a data size that does not
// match the file size (truncated or trailing bytes). Memory is allocated only after the shape
// has been checked against both the cap and the actual file size. A Fortran-order file
// (fortran_order: True, what np.asfortranarray saves) is handed over in C order, as numpy's
// loader does; it takes a second buffer of the array's size.
// `what` names the file's role in messages ("q file", "k file").
NpyArray readNpy(const std::string& path, const std::string& what = "npy file",
                 std::size_t maxElements = kNpyMaxElements);

// The same checks on a file's bytes already in memory (a fuzzer's input, an upload). Messages
// start with `what` alone.
NpyArray readNpyBytes(std::string_view bytes, const std::string& what = "npy data",
                      std::size_t maxElements = kNpyMaxElements);

// Whole-number dumps (position ids: torch int64) and float ones, as double: exact for integers
// below 2^53. Accepts signed and unsigned integers of 1 to 8 bytes, bool, float16/32/64, either
// byte order; the other checks and messages as readNpy.
struct NpyNumbers {
  std::vector<std::size_t> shape;
  std::vector<double> data;  // C order
  std::string dtype;
};
NpyNumbers readNpyNumbers(const std::string& path, const std::string& what = "npy file",
                          std::size_t maxElements = kNpyMaxElements);
NpyNumbers readNpyNumbersBytes(std::string_view bytes, const std::string& what = "npy data",
                               std::size_t maxElements = kNpyMaxElements);

// The arrays of a .npz file as np.savez writes it (a zip archive of "<key>.npy" entries, stored
// uncompressed; zip64 records accepted), by key, in archive order. Throws InputError naming the
// file for a file that is no zip archive, a compressed entry (np.savez_compressed: save with
// np.savez) and a bad array (messages as readNpyNumbers).
std::vector<std::pair<std::string, NpyNumbers>> readNpzNumbers(
    const std::string& path, const std::string& what = "npz file");

// Writes a C-order little-endian float32 array (format 1.0, header padded to 64 bytes).
// Atomic: a temporary file next to `path`, flushed, then renamed. Throws InputError naming the
// file if it cannot be written or if the shape's product differs from `count`.
void writeNpy(const std::string& path, const float* data, std::size_t count,
              const std::vector<std::size_t>& shape);
// The same for float64 ("<f8") and int64 ("<i8") arrays (tables in double, position ids).
void writeNpy(const std::string& path, const double* data, std::size_t count,
              const std::vector<std::size_t>& shape);
void writeNpy(const std::string& path, const std::int64_t* data, std::size_t count,
              const std::vector<std::size_t>& shape);

// The same file written piece by piece, so that an output far larger than the piece in hand
// never has to be held in memory: the header goes out on construction (which also refuses a
// bad path, before any work), write() appends values in C order, and commit() checks that the
// shape is full and makes the file appear (atomically, as writeNpy). Destroyed without commit(),
// nothing is left at `path`.
class NpyWriter {
 public:
  NpyWriter(const std::string& path, const std::vector<std::size_t>& shape);
  ~NpyWriter();
  NpyWriter(const NpyWriter&) = delete;
  NpyWriter& operator=(const NpyWriter&) = delete;
  void write(const float* data, std::size_t count);  // throws InputError past the shape
  void commit();

 private:
  std::unique_ptr<OutputFile> file_;
  std::string path_;
  std::size_t expected_ = 0, written_ = 0;
};

// The header text (without magic, version and length) that writeNpy would write for `shape`.
std::string npyHeader(const std::vector<std::size_t>& shape, const std::string& descr = "<f4",
                      bool fortranOrder = false);

// IEEE half -> float (exact; subnormals, infinities and NaN kept).
float halfToFloat(unsigned short h);

}  // namespace ropescope
