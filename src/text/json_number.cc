// Numbers of text/json_value.h, apart from the reader: strtod and printf's float code reach only the modules
// that read or write non-integer JSON numbers (not the tokenizer module).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "text/json_value.h"

namespace embedlab {

double NumberOf(const JsonValue& number) {
  if (number.integer) {
    return number.negative ? static_cast<double>(number.int_value) : static_cast<double>(number.uint_value);
  }
  return std::strtod(number.string.c_str(), nullptr);
}

std::string FormatJsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  char text[40];
  // The fewest significant digits that read back exactly (17 always do), in exponent form.
  int digits = 1;
  for (; digits < 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*e", digits - 1, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  std::snprintf(text, sizeof text, "%.*e", digits - 1, value);
  const int exponent = std::atoi(std::strchr(text, 'e') + 1);
  // nlohmann::json's layout: plain digits for exponents -4..14, integral values with ".0"; "1e+15" otherwise.
  if (exponent < -4 || exponent > 14) return text;
  if (value == std::trunc(value)) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return std::string(text) + ".0";
  }
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  return text;
}

}  // namespace embedlab
