#include "embed/glove_file.h"

#include <cmath>
#include <stdexcept>

#include "text/decimal.h"

namespace embedlab {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Splits a line into fields separated by runs of spaces and tabs.
void SplitFields(std::string_view line, std::vector<std::string_view>* fields) {
  fields->clear();
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    if (i == line.size()) break;
    size_t end = i;
    while (end < line.size() && !IsBlank(line[end])) ++end;
    fields->push_back(line.substr(i, end - i));
    i = end;
  }
}

std::string Quote(std::string_view text) {
  constexpr size_t kShown = 40;
  std::string out = "\"";
  for (size_t i = 0; i < text.size() && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    out += (c >= 0x20 && c != 0x7F) ? static_cast<char>(c) : '?';
  }
  if (text.size() > kShown) out += "...";
  return out + "\"";
}

std::string LineError(size_t line, const std::string& what) {
  return "GloVe text, line " + std::to_string(line) + ": " + what;
}

// A plain unsigned decimal integer (word2vec header fields); false otherwise or beyond 2^53.
bool ParseCount(std::string_view field, int64_t* value) {
  if (field.empty() || field.size() > 15) return false;
  int64_t v = 0;
  for (char c : field) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

// A finite decimal float: [+-]digits[.digits][(e|E)[+-]digits]. No nan, inf or hex.
bool ParseValue(std::string_view field, float* value) {
  if (field.empty() || field.size() > 63) return false;
  size_t i = 0;
  if (field[i] == '+' || field[i] == '-') ++i;
  size_t digits = 0;
  while (i < field.size() && field[i] >= '0' && field[i] <= '9') ++i, ++digits;
  if (i < field.size() && field[i] == '.') {
    ++i;
    while (i < field.size() && field[i] >= '0' && field[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < field.size() && (field[i] == 'e' || field[i] == 'E')) {
    ++i;
    if (i < field.size() && (field[i] == '+' || field[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < field.size() && field[i] >= '0' && field[i] <= '9') ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  if (i != field.size()) return false;
  float v = 0.0f;
  if (!ParseDecimal(field, &v) || !std::isfinite(v)) return false;
  *value = v;
  return true;
}

}  // namespace

GloveTable ParseGloveText(std::string_view contents, const GloveLimits& limits) {
  GloveTable table;
  std::vector<std::string_view> fields;
  int64_t header_count = -1;
  size_t header_line = 0;
  size_t line_number = 0;
  size_t first_row_line = 0;
  size_t position = 0;
  while (position < contents.size()) {
    size_t end = contents.find('\n', position);
    if (end == std::string_view::npos) end = contents.size();
    std::string_view line = contents.substr(position, end - position);
    position = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    SplitFields(line, &fields);
    if (fields.empty()) continue;

    // "count dim" as the first non-blank line is a word2vec header.
    int64_t count = 0, header_dim = 0;
    if (table.dim == 0 && header_count < 0 && fields.size() == 2 && ParseCount(fields[0], &count) &&
        ParseCount(fields[1], &header_dim)) {
      if (header_dim < 1 || header_dim > limits.max_dim) {
        throw std::out_of_range(LineError(line_number, "the header's dim must be in [1, " +
                                                           std::to_string(limits.max_dim) + "], got " +
                                                           std::to_string(header_dim)));
      }
      if (count > limits.max_rows) {
        throw std::out_of_range(LineError(line_number, "the header's row count must be at most " +
                                                           std::to_string(limits.max_rows) + ", got " +
                                                           std::to_string(count)));
      }
      if (count * header_dim > limits.max_values) {
        throw std::out_of_range(LineError(line_number, "count x dim = " + std::to_string(count * header_dim) +
                                                           " values exceed the limit of " +
                                                           std::to_string(limits.max_values)));
      }
      header_count = count;
      header_line = line_number;
      table.dim = header_dim;
      // Reserve no more than the rest of the file can hold (each row takes at least 2 x dim + 1 bytes):
      // a header that lies about its count must not allocate a gigabyte.
      const int64_t possible_rows = static_cast<int64_t>(contents.size() / (2 * static_cast<size_t>(header_dim) + 1));
      const int64_t reserve_rows = count < possible_rows ? count : possible_rows;
      table.words.reserve(static_cast<size_t>(reserve_rows));
      table.vectors.reserve(static_cast<size_t>(reserve_rows * header_dim));
      continue;
    }

    if (table.dim == 0) {  // the first row fixes dim
      if (fields.size() < 2) {
        throw std::invalid_argument(
            LineError(line_number, "expected a word followed by its values, got " + Quote(line)));
      }
      const int64_t dim = static_cast<int64_t>(fields.size()) - 1;
      if (dim > limits.max_dim) {
        throw std::out_of_range(LineError(
            line_number, "dim must be in [1, " + std::to_string(limits.max_dim) + "], got " + std::to_string(dim)));
      }
      table.dim = dim;
      first_row_line = line_number;
    } else if (first_row_line == 0) {
      first_row_line = line_number;
    }
    const size_t dim = static_cast<size_t>(table.dim);
    if (fields.size() < dim + 1) {
      const std::string source = header_line != 0 ? "the header (line " + std::to_string(header_line) + ")"
                                                  : "line " + std::to_string(first_row_line);
      throw std::invalid_argument(LineError(line_number, "expected a word and " + std::to_string(dim) +
                                                             " values (the dim set by " + source + "), got " +
                                                             std::to_string(fields.size() - 1) + " values"));
    }
    const int64_t rows = static_cast<int64_t>(table.words.size()) + 1;
    if (rows > limits.max_rows) {
      throw std::out_of_range(LineError(line_number, "more than " + std::to_string(limits.max_rows) + " rows"));
    }
    if (rows * table.dim > limits.max_values) {
      throw std::out_of_range(
          LineError(line_number, "rows x dim exceed the limit of " + std::to_string(limits.max_values) + " values"));
    }
    if (header_count >= 0 && rows > header_count) {
      throw std::invalid_argument(
          LineError(line_number, "more rows than the header's count (" + std::to_string(header_count) + ")"));
    }
    // The word runs from the first field to the end of the field before the values.
    const size_t word_fields = fields.size() - dim;
    const std::string_view last_word_field = fields[word_fields - 1];
    const std::string_view word(
        fields[0].data(), static_cast<size_t>(last_word_field.data() + last_word_field.size() - fields[0].data()));
    for (size_t i = 0; i < dim; ++i) {
      float value;
      if (!ParseValue(fields[word_fields + i], &value)) {
        throw std::invalid_argument(
            LineError(line_number, "value " + std::to_string(i + 1) + " of " + Quote(word) +
                                       " is not a finite number: " + Quote(fields[word_fields + i])));
      }
      table.vectors.push_back(value);
    }
    table.words.emplace_back(word);
  }
  if (table.words.empty() && header_count != 0) {
    throw std::invalid_argument("GloVe text: no vectors found (expected lines \"word v1 v2 ... vd\")");
  }
  if (header_count >= 0 && static_cast<int64_t>(table.words.size()) != header_count) {
    throw std::invalid_argument(LineError(header_line, "the header announces " + std::to_string(header_count) +
                                                           " rows, the file has " +
                                                           std::to_string(table.words.size())));
  }
  return table;
}

}  // namespace embedlab
