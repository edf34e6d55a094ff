// Exact conversions between decimal text and binary floating point, in place of the C library's: its string to
// float functions and the float code of its formatted output pull musl's long-double soft-float code (about 22 kB
// of wasm) into the module. Reading is correctly rounded (round-half-even on the exact decimal value, as the C
// library reads); writing starts from a double's exact decimal expansion, so every rounding sees all the digits.
#ifndef EMBEDLAB_TEXT_DECIMAL_H_
#define EMBEDLAB_TEXT_DECIMAL_H_

#include <string>
#include <string_view>

namespace embedlab {

// The value of [+-]digits[.digits][(e|E)[+-]digits] (digits may be empty on one side of the point, not both),
// rounded as the C library rounds it (bit for bit): subnormals, underflow to ±0, overflow to ±inf, "-0" -> -0.0, any
// number of digits and any exponent. False, leaving *value alone, for anything else (spaces, hex, "nan", "inf").
bool ParseDecimal(std::string_view text, double* value);
bool ParseDecimal(std::string_view text, float* value);

// A magnitude d1.d2d3... x 10^exponent: at least one digit, no trailing zeros ("0" for zero).
struct DecimalDigits {
  std::string digits;
  int exponent = 0;
};

enum class DecimalRounding {
  kHalfEven,  // the C library's formatted output: to nearest, ties to even, on the exact value
  kHalfUp,    // JavaScript's toPrecision: halves away from zero
};

// The exact decimal expansion of |value| (finite): m x 2^e is m x 5^-e / 10^-e, so it ends.
DecimalDigits ExactDigits(double value);

// `exact` rounded to at most `significant` (>= 1) digits; a carry moves the exponent (9.99 -> 10.0 = 1e1).
DecimalDigits RoundDigits(const DecimalDigits& exact, int significant, DecimalRounding rounding);

// The digits laid out as JavaScript's Number#toString lays them out: plain for 1e-7 < |x| < 1e21
// ("123", "0.000125", "1.5"), exponent form beyond ("1e+21", "1.25e-7").
std::string JavaScriptNotation(const DecimalDigits& magnitude);

// What the C library writes for "%.*e" with precision significant - 1, byte for byte ("-1.250e+05", "1e-300", "inf",
// "-nan").
std::string FormatScientific(double value, int significant);

// The same for "%.*g" with precision `significant` (>= 1): "0.0001", "1e-05", "123457", "1.23457e+06".
std::string FormatGeneral(double value, int significant);

// The fewest significant digits of |value| (finite) that ParseDecimal reads back to it, at most 17 (9 for a float),
// rounded as "%.*e" rounds them.
DecimalDigits ShortestDigits(double value);
DecimalDigits ShortestDigits(float value);

// For messages: the fewest significant digits that ParseDecimal reads back to `value` (of the same type), in
// JavaScriptNotation; "-0", "NaN", "Infinity" and "-Infinity" for the special values.
std::string FormatShortest(double value);
std::string FormatShortest(float value);

}  // namespace embedlab

#endif  // EMBEDLAB_TEXT_DECIMAL_H_
