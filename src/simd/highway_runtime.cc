// The few Highway runtime symbols a single-target wasm build needs; natively they come from libhwy.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hwy/base.h"

namespace hwy {

// Writes the format string without its arguments: formatting them would link printf's floating-point code into
// the module (about 10 kB); an abort here is a bug in this library, and the file and line find it.
HWY_NORETURN void HWY_FORMAT(3, 4) Abort(const char* file, int line, const char* format, ...) {
  const std::string message = std::string("Highway abort at ") + file + ":" + std::to_string(line) + ": " + format;
  std::fputs(message.c_str(), stderr);
  std::fputs("\n", stderr);
  std::abort();
}

}  // namespace hwy
