// Numbers of text/json_value.h, apart from the reader: the decimal conversions (text/decimal.h) reach only the
// modules that read or write non-integer JSON numbers (not the tokenizer module).
#include <cmath>
#include <cstdint>
#include <string>

#include "text/decimal.h"
#include "text/json_value.h"

namespace embedlab {

double NumberOf(const JsonValue& number) {
  if (number.integer) {
    return number.negative ? static_cast<double>(number.int_value) : static_cast<double>(number.uint_value);
  }
  double value = 0.0;
  ParseDecimal(number.string, &value);  // the reader accepted the literal, a subset of ParseDecimal's syntax
  return value;
}

std::string FormatJsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  const std::string sign = std::signbit(value) ? "-" : "";
  const DecimalDigits shortest = ShortestDigits(value);
  const int digits = static_cast<int>(shortest.digits.size());
  // nlohmann::json's layout: plain digits for exponents -4..14, integral values with ".0"; "1e+15" otherwise.
  if (shortest.exponent < -4 || shortest.exponent > 14) return FormatScientific(value, digits);
  if (value == std::trunc(value)) {  // below 1e15: an exact integer ("%.0f")
    return sign + std::to_string(static_cast<uint64_t>(std::fabs(value))) + ".0";
  }
  // "%.*g" with `digits`: plain notation with the trailing zeros dropped, which is JavaScript's for these exponents.
  return sign + JavaScriptNotation(shortest);
}

}  // namespace embedlab
