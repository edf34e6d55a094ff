#include "text/decimal.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace embedlab {
namespace {

// A non-negative integer in base-2^32 limbs, least significant first, with no zero limb on top. Only what the
// conversions need: multiply-add and divide by a small number, shift left, and read bits.
class BigInt {
 public:
  explicit BigInt(uint64_t value) {
    for (; value != 0; value >>= 32) limbs_.push_back(static_cast<uint32_t>(value));
  }

  void MultiplyAdd(uint32_t factor, uint32_t addend) {
    uint64_t carry = addend;
    for (uint32_t& limb : limbs_) {
      carry += static_cast<uint64_t>(limb) * factor;
      limb = static_cast<uint32_t>(carry);
      carry >>= 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<uint32_t>(carry));
  }

  // Divides in place; returns the remainder.
  uint32_t Divide(uint32_t divisor) {
    uint64_t remainder = 0;
    for (size_t i = limbs_.size(); i-- > 0;) {
      const uint64_t current = (remainder << 32) | limbs_[i];
      limbs_[i] = static_cast<uint32_t>(current / divisor);
      remainder = current % divisor;
    }
    while (!limbs_.empty() && limbs_.back() == 0) limbs_.pop_back();
    return static_cast<uint32_t>(remainder);
  }

  void ShiftLeft(int bits) {
    if (limbs_.empty() || bits == 0) return;
    const int limbs = bits / 32, rest = bits % 32;
    if (rest != 0) {
      uint32_t carry = 0;
      for (uint32_t& limb : limbs_) {
        const uint32_t next = limb >> (32 - rest);
        limb = (limb << rest) | carry;
        carry = next;
      }
      if (carry != 0) limbs_.push_back(carry);
    }
    limbs_.insert(limbs_.begin(), static_cast<size_t>(limbs), 0u);
  }

  bool IsZero() const { return limbs_.empty(); }

  int BitLength() const {
    if (limbs_.empty()) return 0;
    int bits = static_cast<int>(limbs_.size() - 1) * 32;
    for (uint32_t top = limbs_.back(); top != 0; top >>= 1) ++bits;
    return bits;
  }

  bool Bit(int i) const {
    const size_t limb = static_cast<size_t>(i) / 32;
    return limb < limbs_.size() && ((limbs_[limb] >> (i % 32)) & 1) != 0;
  }

  // Whether any of bits 0..end-1 is set.
  bool AnyBitBelow(int end) const {
    for (int i = 0; i < end / 32; ++i) {
      if (limbs_[static_cast<size_t>(i)] != 0) return true;
    }
    return end % 32 != 0 && (limbs_[static_cast<size_t>(end / 32)] & ((1u << (end % 32)) - 1)) != 0;
  }

  // Bits low..low+count-1 (count <= 64) as an integer.
  uint64_t Bits(int low, int count) const {
    uint64_t out = 0;
    for (int i = count - 1; i >= 0; --i) out = (out << 1) | (Bit(low + i) ? 1 : 0);
    return out;
  }

  // Decimal digits, most significant first ("" for zero). Consumes the number.
  std::string TakeDecimal() {
    std::vector<uint32_t> groups;  // base 1e9, least significant first
    while (!limbs_.empty()) groups.push_back(Divide(1000000000));
    std::string out;
    for (size_t g = groups.size(); g-- > 0;) {
      char group[9];
      uint32_t v = groups[g];
      for (int i = 8; i >= 0; --i, v /= 10) group[i] = static_cast<char>('0' + v % 10);
      int skip = 0;
      if (g + 1 == groups.size()) {
        while (skip < 8 && group[skip] == '0') ++skip;
      }
      out.append(group + skip, static_cast<size_t>(9 - skip));
    }
    return out;
  }

 private:
  std::vector<uint32_t> limbs_;
};

constexpr uint32_t kPow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

// Significant digits D (no leading or trailing zeros, empty for zero) and exponent: the value is D x 10^exponent.
struct DecimalText {
  bool negative = false;
  std::string digits;
  int64_t exponent = 0;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// A binary float halfway point has at most 767 significant digits (1075 for the smallest subnormal's half, less
// its leading zeros), so beyond 800 only "are the rest zero" matters: they become one nonzero digit.
constexpr size_t kMaxDigits = 800;

bool Split(std::string_view text, DecimalText* out) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) out->negative = text[i++] == '-';
  bool any_digit = false;
  int64_t fraction_digits = 0;
  for (bool fraction = false;; ++i) {
    if (i < text.size() && text[i] == '.' && !fraction) {
      fraction = true;
      continue;
    }
    if (i == text.size() || !IsDigit(text[i])) break;
    any_digit = true;
    if (fraction) ++fraction_digits;
    if (!out->digits.empty() || text[i] != '0') out->digits += text[i];
  }
  if (!any_digit) return false;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    if (i == text.size() || !IsDigit(text[i])) return false;
    for (; i < text.size() && IsDigit(text[i]); ++i) {
      if (exponent < 1000000000) exponent = exponent * 10 + (text[i] - '0');  // beyond: ±inf or 0 anyway
    }
    if (negative_exponent) exponent = -exponent;
  }
  if (i != text.size()) return false;
  out->exponent = exponent - fraction_digits;
  size_t end = out->digits.size();
  while (end > 0 && out->digits[end - 1] == '0') --end;
  out->exponent += static_cast<int64_t>(out->digits.size() - end);
  out->digits.resize(end);
  if (out->digits.size() > kMaxDigits) {
    out->exponent += static_cast<int64_t>(out->digits.size() - kMaxDigits) - 1;
    out->digits.resize(kMaxDigits);
    out->digits += '1';  // the dropped digits end in a nonzero one
  }
  return true;
}

// The magnitude rounded to `precision` bits (to the subnormal grid below 2^min_exponent), round-half-even:
// the value is mantissa x 2^exponent. Requires a nonzero D and 10^-1125 < value < 10^310.
struct BinaryValue {
  uint64_t mantissa;
  int exponent;
};

BinaryValue RoundToBinary(const DecimalText& decimal, int precision, int min_exponent) {
  BigInt q(0);
  for (size_t i = 0; i < decimal.digits.size(); i += 9) {
    const size_t n = decimal.digits.size() - i < 9 ? decimal.digits.size() - i : 9;
    uint32_t chunk = 0;
    for (size_t j = 0; j < n; ++j) chunk = chunk * 10 + static_cast<uint32_t>(decimal.digits[i + j] - '0');
    q.MultiplyAdd(kPow10[n], chunk);
  }
  int k = 0;  // the value is (q + sticky fraction) x 2^-k
  bool sticky = false;
  if (decimal.exponent >= 0) {
    for (int64_t e = decimal.exponent; e > 0; e -= 9) q.MultiplyAdd(kPow10[e < 9 ? e : 9], 0);
  } else {
    // q = floor(D x 2^k / 10^m) with k such that q keeps at least 66 bits (10/3 > log2 10).
    const int m = static_cast<int>(-decimal.exponent);
    k = 68 + m * 10 / 3 - q.BitLength();
    if (k < 0) k = 0;
    q.ShiftLeft(k);
    for (int e = m; e > 0; e -= 9) sticky |= q.Divide(kPow10[e < 9 ? e : 9]) != 0;
  }
  const int bits = q.BitLength();
  const int top = bits - 1 - k;  // the value is in [2^top, 2^(top+1))
  const int kept = top >= min_exponent ? precision : precision - (min_exponent - top);
  if (kept < 0) return {0, 0};  // below half the smallest subnormal
  const int shift = bits - kept;
  if (shift <= 0) return {q.Bits(0, bits) << -shift, shift - k};
  uint64_t mantissa = q.Bits(shift, kept);
  const bool rest = sticky || q.AnyBitBelow(shift - 1);
  if (q.Bit(shift - 1) && (rest || (mantissa & 1) != 0)) ++mantissa;  // 2^kept on a carry: still exact
  return {mantissa, shift - k};
}

constexpr double kExactPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Clinger's fast path: D < 10^15 and 10^|e| (|e| <= 22) are exact doubles, so one IEEE operation rounds once.
bool FastDouble(const DecimalText& decimal, double* value) {
  if (decimal.digits.size() > 15 || decimal.exponent < -22 || decimal.exponent > 22) return false;
  uint64_t d = 0;
  for (char c : decimal.digits) d = d * 10 + static_cast<uint64_t>(c - '0');
  const double power = kExactPow10[decimal.exponent < 0 ? -decimal.exponent : decimal.exponent];
  *value = decimal.exponent < 0 ? static_cast<double>(d) / power : static_cast<double>(d) * power;
  return true;
}

// The correctly rounded double rounds to the same float as the exact value unless it landed on a float halfway
// point: its 29 bits below a float's 24 are 100...0 (within the fast path's range every float is normal).
bool OnFloatHalfway(double nearest) {
  uint64_t bits;
  std::memcpy(&bits, &nearest, sizeof bits);
  return (bits & ((uint64_t{1} << 29) - 1)) == uint64_t{1} << 28;
}

template <typename Float>
Float Signed(bool negative, Float magnitude) {
  return negative ? -magnitude : magnitude;
}

}  // namespace

bool ParseDecimal(std::string_view text, double* value) {
  DecimalText decimal;
  if (!Split(text, &decimal)) return false;
  const int64_t size = static_cast<int64_t>(decimal.digits.size());
  double magnitude;
  if (decimal.digits.empty() || decimal.exponent + size <= -324) {  // below 1e-324 < half of 4.9e-324
    magnitude = 0.0;
  } else if (decimal.exponent + size - 1 >= 309) {  // at least 1e309
    magnitude = HUGE_VAL;
  } else if (!FastDouble(decimal, &magnitude)) {
    const BinaryValue binary = RoundToBinary(decimal, 53, -1022);
    magnitude = std::ldexp(static_cast<double>(binary.mantissa), binary.exponent);  // exact, or inf
  }
  *value = Signed(decimal.negative, magnitude);
  return true;
}

bool ParseDecimal(std::string_view text, float* value) {
  DecimalText decimal;
  if (!Split(text, &decimal)) return false;
  const int64_t size = static_cast<int64_t>(decimal.digits.size());
  float magnitude;
  double nearest;
  if (decimal.digits.empty() || decimal.exponent + size <= -46) {  // below 1e-46 < half of 1.4e-45
    magnitude = 0.0f;
  } else if (decimal.exponent + size - 1 >= 39) {  // at least 1e39
    magnitude = HUGE_VALF;
  } else if (FastDouble(decimal, &nearest) && !OnFloatHalfway(nearest)) {
    magnitude = static_cast<float>(nearest);
  } else {
    const BinaryValue binary = RoundToBinary(decimal, 24, -126);
    magnitude = std::ldexp(static_cast<float>(binary.mantissa), binary.exponent);
  }
  *value = Signed(decimal.negative, magnitude);
  return true;
}

DecimalDigits ExactDigits(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  if (biased == 0 && mantissa == 0) return {"0", 0};
  int exponent = biased == 0 ? -1074 : biased - 1075;
  if (biased != 0) mantissa |= uint64_t{1} << 52;
  for (; (mantissa & 1) == 0; mantissa >>= 1) ++exponent;
  BigInt n(mantissa);
  int decimal_exponent = 0;
  if (exponent >= 0) {
    n.ShiftLeft(exponent);
  } else {
    for (int e = -exponent; e > 0; e -= 13) {  // times 5^-exponent, at most 5^13 at a time
      uint32_t power = 1;
      for (int i = 0; i < (e < 13 ? e : 13); ++i) power *= 5;
      n.MultiplyAdd(power, 0);
    }
    decimal_exponent = exponent;
  }
  DecimalDigits out{n.TakeDecimal(), 0};
  out.exponent = static_cast<int>(out.digits.size()) - 1 + decimal_exponent;
  while (out.digits.back() == '0') out.digits.pop_back();
  return out;
}

DecimalDigits RoundDigits(const DecimalDigits& exact, int significant, DecimalRounding rounding) {
  const size_t n = static_cast<size_t>(significant);
  if (exact.digits.size() <= n) return exact;
  DecimalDigits out{exact.digits.substr(0, n), exact.exponent};
  const char next = exact.digits[n];
  const bool more = exact.digits.size() > n + 1;  // no trailing zeros: anything after `next` is nonzero
  const bool up = rounding == DecimalRounding::kHalfUp
                      ? next >= '5'
                      : next > '5' || (next == '5' && (more || (out.digits.back() - '0') % 2 != 0));
  if (up) {
    size_t i = n;
    while (i > 0 && out.digits[i - 1] == '9') out.digits[--i] = '0';
    if (i > 0) {
      ++out.digits[i - 1];
    } else {
      out.digits = "1";  // 9.99 -> 10.0
      ++out.exponent;
    }
  }
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  return out;
}

std::string JavaScriptNotation(const DecimalDigits& magnitude) {
  const std::string& s = magnitude.digits;
  const int k = static_cast<int>(s.size()), n = magnitude.exponent + 1;  // s x 10^(n - k)
  if (k <= n && n <= 21) return s + std::string(static_cast<size_t>(n - k), '0');
  if (0 < n && n <= 21) return s.substr(0, static_cast<size_t>(n)) + "." + s.substr(static_cast<size_t>(n));
  if (-6 < n && n <= 0) return "0." + std::string(static_cast<size_t>(-n), '0') + s;
  const std::string mantissa = k == 1 ? s : s.substr(0, 1) + "." + s.substr(1);
  return mantissa + "e" + (n - 1 >= 0 ? "+" : "-") + std::to_string(n - 1 >= 0 ? n - 1 : 1 - n);
}

namespace {

// The C library's exponent: "e+05", "e-300".
std::string ExponentText(int e) {
  const std::string digits = std::to_string(e < 0 ? -e : e);
  return (e < 0 ? "e-" : "e+") + std::string(digits.size() < 2 ? 1 : 0, '0') + digits;
}

}  // namespace

std::string FormatScientific(double value, int significant) {
  const std::string sign = std::signbit(value) ? "-" : "";
  if (std::isnan(value)) return sign + "nan";
  if (std::isinf(value)) return sign + "inf";
  const DecimalDigits d = RoundDigits(ExactDigits(value), significant, DecimalRounding::kHalfEven);
  std::string out = sign + d.digits[0];
  if (significant > 1) {
    out += '.';
    out += d.digits.substr(1);
    out.append(static_cast<size_t>(significant) - d.digits.size(), '0');
  }
  return out + ExponentText(d.exponent);
}

std::string FormatGeneral(double value, int significant) {
  const std::string sign = std::signbit(value) ? "-" : "";
  if (std::isnan(value)) return sign + "nan";
  if (std::isinf(value)) return sign + "inf";
  const DecimalDigits d = RoundDigits(ExactDigits(value), significant, DecimalRounding::kHalfEven);
  const std::string& s = d.digits;  // no trailing zeros, as "%g" drops them
  const size_t k = s.size();
  if (d.exponent < -4 || d.exponent >= significant) {
    return sign + s[0] + (k > 1 ? "." + s.substr(1) : "") + ExponentText(d.exponent);
  }
  if (d.exponent < 0) return sign + "0." + std::string(static_cast<size_t>(-d.exponent - 1), '0') + s;
  const size_t point = static_cast<size_t>(d.exponent) + 1;  // digits before the point
  if (k <= point) return sign + s + std::string(point - k, '0');
  return sign + s.substr(0, point) + "." + s.substr(point);
}

namespace {

template <typename Float>
DecimalDigits Shortest(Float value, int max_digits) {
  const DecimalDigits exact = ExactDigits(static_cast<double>(value));
  const Float magnitude = value < 0 ? -value : value;
  DecimalDigits d;
  for (int n = 1; n <= max_digits; ++n) {
    d = RoundDigits(exact, n, DecimalRounding::kHalfEven);
    const int shift = d.exponent - static_cast<int>(d.digits.size()) + 1;
    Float back;
    if (n == max_digits || (ParseDecimal(d.digits + "e" + std::to_string(shift), &back) && back == magnitude)) break;
  }
  return d;
}

template <typename Float>
std::string FormatShortestOf(Float value) {
  if (std::isnan(value)) return "NaN";
  const std::string sign = std::signbit(value) ? "-" : "";
  if (std::isinf(value)) return sign + "Infinity";
  if (value == 0) return sign + "0";
  return sign + JavaScriptNotation(ShortestDigits(value));
}

}  // namespace

DecimalDigits ShortestDigits(double value) { return Shortest(value, 17); }
DecimalDigits ShortestDigits(float value) { return Shortest(value, 9); }
std::string FormatShortest(double value) { return FormatShortestOf(value); }
std::string FormatShortest(float value) { return FormatShortestOf(value); }

}  // namespace embedlab
