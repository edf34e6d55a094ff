// The few Highway runtime symbols a single-target wasm build needs; natively they come from libhwy.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "hwy/base.h"

namespace hwy {

HWY_NORETURN void HWY_FORMAT(3, 4) Abort(const char* file, int line, const char* format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  fprintf(stderr, "Highway abort at %s:%d: %s\n", file, line, message);
  abort();
}

}  // namespace hwy
