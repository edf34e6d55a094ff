// Locates and reads the committed reference files under tests/reference/data. The directory is found
// from this header's own path (CMake compiles with absolute paths) unless EMBEDLAB_REFERENCE_DATA is set.
#ifndef EMBEDLAB_TESTS_MODEL_REFERENCE_FILES_H_
#define EMBEDLAB_TESTS_MODEL_REFERENCE_FILES_H_

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace reference {

inline std::string DataDirectory() {
  if (const char* overridden = std::getenv("EMBEDLAB_REFERENCE_DATA")) return overridden;
  std::string here = __FILE__;
  here = here.substr(0, here.find_last_of('/'));  // tests/cpp
  return here.substr(0, here.find_last_of('/')) + "/reference/data";
}

inline std::vector<uint8_t> ReadFileBytes(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error("cannot open " + path);
  std::vector<uint8_t> bytes;
  uint8_t buffer[65536];
  size_t got;
  while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0) bytes.insert(bytes.end(), buffer, buffer + got);
  std::fclose(file);
  return bytes;
}

}  // namespace reference

#endif  // EMBEDLAB_TESTS_MODEL_REFERENCE_FILES_H_
